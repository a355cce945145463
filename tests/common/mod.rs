//! Shared helpers for integration tests: the real corpus lives beside the repository in ../shared/corpus.

#![allow(dead_code)]

use std::path::PathBuf;

pub mod golden;
pub mod mutate;

/// A folder of the test's own under the system's temporary folder (`rigscope-NAME-PID`), emptied when made and
/// removed when dropped, so test runs leave nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("rigscope-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")
}

/// A corpus file's path; the test fails (never skips) when the corpus is missing.
pub fn corpus(rel: &str) -> PathBuf {
    let p = corpus_dir().join(rel);
    assert!(
        p.is_file(),
        "corpus file {} is missing: the tests need ../shared/corpus beside the repository",
        p.display()
    );
    p
}

/// Every file under a corpus folder with one of the given extensions, sorted.
pub fn corpus_files(sub: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus_dir().join(sub)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x.to_ascii_lowercase().as_str()))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no {exts:?} files under corpus/{sub}");
    out
}

pub fn read(p: &std::path::Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Runs `rigscope render ARGS -o target/FOLDER/NAME.png` (the real command, on whatever adapter the environment
/// picks: lavapipe in CI) and returns the picture and what the command wrote on stderr; a failed render fails
/// the test.
pub fn render_png(folder: &str, name: &str, args: &[&str]) -> (image::RgbaImage, String) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&out);
    let result = std::process::Command::new(env!("CARGO_BIN_EXE_rigscope"))
        .arg("render")
        .args(args)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run rigscope");
    assert!(
        result.status.success(),
        "rigscope render {args:?} failed with {:?}: {}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
    let image = image::open(&out).unwrap_or_else(|e| panic!("{}: {e}", out.display())).to_rgba8();
    (image, String::from_utf8_lossy(&result.stderr).into_owned())
}

/// Installs the npm packages of the tool in `tools/<tool>` from its lock file (`npm ci`) the first time, when
/// `marker` (a path inside its `node_modules`) is missing, and returns the tool's folder. Without npm the test
/// fails, it never skips.
pub fn npm_tool(tool: &str, marker: &str) -> PathBuf {
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools").join(tool);
    let _one = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !dir.join("node_modules").join(marker).is_file() {
        let npm = std::process::Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .unwrap_or_else(|e| panic!("npm is needed to install tools/{tool} (apt-get install nodejs npm): {e}"));
        assert!(npm.status.success(), "npm ci in tools/{tool}: {}", String::from_utf8_lossy(&npm.stderr));
    }
    dir
}

/// Clicks the window's panel tab whose name starts with `name` (the Outliner's Scene, Skeleton, Morphs, Physics;
/// the Inspector's Selection, Display, Info, "Problems (N)"), then runs a frame.
pub fn click_tab<S>(h: &mut egui_kittest::Harness<'_, S>, name: &str) {
    use egui_kittest::kittest::{NodeT, Queryable};
    let by = egui_kittest::kittest::by;
    {
        let mut tabs = h.query_all(by().role(egui::accesskit::Role::Tab));
        let tab = tabs
            .find(|t| t.accesskit_node().label().is_some_and(|l| l.starts_with(name)))
            .unwrap_or_else(|| panic!("no tab named {name}"));
        tab.click();
    }
    h.run();
}

/// A GLB's JSON chunk, changed by `edit` and packed again (for VRM files whose extension a test breaks).
pub fn edited_glb(bytes: &[u8], edit: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    rigscope::formats::gltf::edit_glb_json(bytes, edit).expect("a GLB with a JSON chunk")
}

/// The corpus's VRM 1.0 MToon sample with its eyes given a bone look-at whose ranges clamp (no corpus avatar has
/// eyes on a bone look-at), and a blink expression (three-vrm makes no look-at for an avatar without
/// expressions).
pub fn vrm_eyes_fixture() -> Vec<u8> {
    let range = |input: f64, output: f64| serde_json::json!({"inputMaxValue": input, "outputScale": output});
    edited_glb(&read(&corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm")), |j| {
        j["extensions"]["VRMC_vrm"]["lookAt"] = serde_json::json!({
            "type": "bone",
            "offsetFromHeadBone": [0.0, 0.06, 0.0],
            "rangeMapHorizontalInner": range(90.0, 8.0),
            "rangeMapHorizontalOuter": range(20.0, 12.0),
            "rangeMapVerticalDown": range(90.0, 10.0),
            "rangeMapVerticalUp": range(10.0, 15.0),
        });
        j["extensions"]["VRMC_vrm"]["expressions"] = serde_json::json!({"preset": {"blink": {}}});
    })
}
