//! `rigscope check` over folders: recursion, files picked by extension or content, globs, a symlink loop that
//! is reported without stopping the run, the same output in the same order whatever the number of jobs, and
//! the CI formats end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::corpus;

fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rigscope-check-folders-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn check(args: &[&str], paths: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).arg("check").args(paths).args(args).output().unwrap()
}

/// A folder tree: a broken IQM and a clean one in a subfolder, an IQE without its extension (found by content),
/// a text file that isn't a model, and a symlink looping back up.
fn tree(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub/deeper")).unwrap();
    std::fs::copy(corpus("iqm/assimp_InvalidMeshOffset.iqm"), dir.join("broken.iqm")).unwrap();
    std::fs::copy(corpus("iqm/lsalzman_mrfixit.iqm"), dir.join("sub/mrfixit.iqm")).unwrap();
    let iqe = "# Inter-Quake Export\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n";
    std::fs::write(dir.join("sub/deeper/tri.export"), iqe).unwrap();
    std::fs::write(dir.join("sub/notes.txt"), "not a model").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir, dir.join("sub/loop")).unwrap();
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn folders_are_walked_in_path_order_and_the_same_with_any_number_of_jobs() {
    let dir = temp_dir("walk");
    tree(&dir);
    let one = check(&["--jobs", "1"], &[&dir]);
    let two = check(&["--jobs", "2"], &[&dir]);
    assert_eq!(stdout(&one), stdout(&two), "same report, same order");
    let text = stdout(&one);
    // mrfixit has three warnings of its own (its stored adjacency, its missing textures); tri.export was found
    // by its content.
    assert!(text.ends_with("3 file(s) checked: 1 error(s), 3 warning(s)\n"), "{text}");
    let broken = text.find("broken.iqm").expect("the broken IQM is reported");
    let summary = text.find("file(s) checked").unwrap();
    assert!(broken < summary);
    assert!(!text.contains("notes.txt"), "a text file is not a model: {text}");
    // The loop is reported on stderr and makes the run exit 2, after everything else was checked.
    #[cfg(unix)]
    {
        assert_eq!(one.status.code(), Some(2), "{}", String::from_utf8_lossy(&one.stderr));
        assert!(String::from_utf8_lossy(&one.stderr).contains("loop"), "{}", String::from_utf8_lossy(&one.stderr));
    }
}

#[test]
fn globs_pick_and_skip_files_and_a_clean_selection_exits_0() {
    let dir = temp_dir("globs");
    tree(&dir);
    let _ = std::fs::remove_file(dir.join("sub/loop"));
    let o = check(&["--include", "**/sub/**", "--format", "json"], &[&dir]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.as_array().unwrap().iter().all(|f| !f["file"].as_str().unwrap().contains("broken")), "{v}");
    let o = check(&["--exclude", "**/broken.iqm"], &[&dir]);
    assert!(stdout(&o).ends_with("2 file(s) checked: 0 error(s), 3 warning(s)\n"), "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(0));
    let o = check(&[], &[&dir]);
    assert_eq!(o.status.code(), Some(1), "the broken file fails the run");
    let o = check(&["--include", "[broken"], &[&dir]);
    assert_eq!(o.status.code(), Some(2), "a bad glob is a usage error");
}

#[test]
fn sarif_names_the_line_of_a_text_format_and_the_baseline_keeps_only_new_findings() {
    let dir = temp_dir("sarif");
    // `vb` with five pairs: a warning on its line (5).
    let iqe = "# Inter-Quake Export\njoint a -1\nmesh m\nvp 0 0 0\nvb 0 0.2 0 0.2 0 0.2 0 0.2 0 0.2\nvp 1 0 0\nvb 0 1\n\
               vp 0 1 0\nvb 0 1\nfm 0 1 2\n";
    let model = dir.join("m.iqe");
    std::fs::write(&model, iqe).unwrap();
    let o = check(&["--format", "sarif"], &[&dir]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let many = results.iter().find(|r| r["ruleId"] == "iqe.vb.many").expect("iqe.vb.many reported");
    assert_eq!(many["locations"][0]["physicalLocation"]["region"]["startLine"], 5);
    let baseline = dir.join("old.sarif");
    std::fs::write(&baseline, &o.stdout).unwrap();
    let again = check(&["--format", "json", "--baseline", baseline.to_str().unwrap()], &[&model]);
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(v, serde_json::json!([]), "nothing new");
}
