//! `rigscope check` over folders: recursion, files picked by extension or content, globs, a symlink loop that
//! is reported without stopping the run, the same output in the same order whatever the number of jobs, and
//! the CI formats end to end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::corpus;

fn temp_dir(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("check-folders-{test}"))
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

/// The SARIF schema shipped inside the serde-sarif crate's package (the OASIS 2.1.0 schema, draft-07): the
/// version Cargo.lock pins, read from the unpacked package in cargo's registry cache, where building this test
/// put it. `cargo metadata` would find it too, but it resolves the whole lock file and so wants packages for
/// every platform (android-activity, windows-sys, ...), which a Linux build never downloads: offline on a fresh
/// machine it fails.
fn sarif_schema() -> serde_json::Value {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let version = lock
        .split("[[package]]")
        .find(|p| p.lines().any(|l| l.trim() == "name = \"serde-sarif\""))
        .and_then(|p| p.lines().find_map(|l| l.trim().strip_prefix("version = \"")?.strip_suffix('"')))
        .expect("serde-sarif is a dev-dependency in Cargo.lock")
        .to_string();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME or CARGO_HOME")).join(".cargo"));
    let registries = cargo_home.join("registry/src");
    let schema = std::fs::read_dir(&registries)
        .unwrap_or_else(|e| panic!("{}: {e}", registries.display()))
        .filter_map(|r| Some(r.ok()?.path().join(format!("serde-sarif-{version}/src/schema.json"))))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("serde-sarif {version} is not unpacked under {}", registries.display()));
    let schema: serde_json::Value = serde_json::from_slice(&std::fs::read(&schema).unwrap()).unwrap();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    schema
}

/// Replaces every `pattern` equal to `from` in a schema by `to`.
fn fix_pattern(v: &mut serde_json::Value, from: &str, to: &str) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k == "pattern" && x.as_str() == Some(from) {
                    *x = serde_json::json!(to);
                } else {
                    fix_pattern(x, from, to);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| fix_pattern(x, from, to)),
        _ => {}
    }
}

/// `check --format sarif` over a tree with every kind of place (a text format's line, a binary format's byte
/// offset, a file that can't be read at all, findings with and without a place) validates against the SARIF
/// 2.1.0 JSON schema, and reads back through serde-sarif's typed model.
#[test]
fn sarif_output_validates_against_the_sarif_2_1_0_schema() {
    let dir = temp_dir("sarif-schema");
    tree(&dir);
    let _ = std::fs::remove_file(dir.join("sub/loop"));
    let iqe = "# Inter-Quake Export\njoint a -1\nmesh m\nvp 0 0 0\nvb 0 0.2 0 0.2 0 0.2 0 0.2 0 0.2\nvp 1 0 0\nvb 0 1\n\
               vp 0 1 0\nvb 0 1\nfm 0 1 2\n";
    std::fs::write(dir.join("lines.iqe"), iqe).unwrap();
    std::fs::write(dir.join("garbage.iqm"), b"INTERQUAKEMODEL\0\x02\0\0\0").unwrap();
    let o = check(&["--format", "sarif"], &[&dir]);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let results = report["runs"][0]["results"].as_array().unwrap();
    let region = |r: &serde_json::Value, k: &str| !r["locations"][0]["physicalLocation"]["region"][k].is_null();
    assert!(results.iter().any(|r| region(r, "startLine")), "a line region");
    assert!(results.iter().any(|r| region(r, "byteOffset")), "a byte-offset region");

    let mut schema = sarif_schema();
    // The published schema's one erratum: the `language` pattern has a stray `]` that regex engines which check
    // patterns (this one does) refuse. Its intent, a two-letter language with an optional region, is restored.
    fix_pattern(&mut schema, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$", "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    let validator = jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("schema: {e}"));
    let errors: Vec<String> =
        validator.iter_errors(&report).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{} schema error(s):\n{}", errors.len(), errors.join("\n"));
    // A report that breaks the schema is caught (the validator is not vacuous).
    let mut broken = report.clone();
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    assert!(!validator.is_valid(&broken), "an unknown level is refused");

    let typed: serde_sarif::sarif::Sarif = serde_json::from_value(report).expect("serde-sarif reads it");
    assert_eq!(typed.runs.len(), 1);
}
