//! `rigscope render --watch`: renders, then renders again when the model file changes on disk (one render per
//! burst of writes), and reports a file that fails to load without exiting or touching the last picture.
//!
//! Needs a GPU adapter (lavapipe in CI: WGPU_BACKEND=vulkan), like the other render tests; none is a failure.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use common::corpus;

/// The child, killed when the test ends however it ends.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    /// Every stderr line so far, for failure messages.
    log: Vec<String>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watching {
    fn start(model: &Path, out: &Path) -> Watching {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .arg("render")
            .arg(model)
            .args(["--watch", "--size", "160x120", "-o"])
            .arg(out)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start rigscope render --watch");
        let stderr = child.stderr.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watching { child, lines, log: Vec::new() }
    }

    /// The next stderr line starting with `prefix` within `timeout`; panics (with the log) otherwise.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> String {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if line.starts_with(prefix) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` line within {timeout:?}; stderr: {:#?}", self.log)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "rigscope exited ({:?}) before a `{prefix}` line; stderr: {:#?}",
                        self.child.try_wait(),
                        self.log
                    )
                }
            }
        }
    }

    /// Lines that arrive within `time` (nothing is expected).
    fn quiet_for(&mut self, time: Duration) -> Vec<String> {
        std::thread::sleep(time);
        let more: Vec<String> = self.lines.try_iter().collect();
        self.log.extend(more.iter().cloned());
        more
    }

    fn assert_running(&mut self) {
        assert!(self.child.try_wait().unwrap().is_none(), "rigscope --watch exited; stderr: {:#?}", self.log);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rigscope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn pixels(path: &Path) -> Vec<u8> {
    image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgba8().into_raw()
}

#[test]
fn render_watch_renders_again_on_change_and_survives_a_broken_file() {
    let dir = temp_dir("render-watch");
    let model = dir.join("model.iqm");
    let out = dir.join("out.png");
    let demo = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm")).unwrap();
    let mrfixit = std::fs::read(corpus("iqm/lsalzman_mrfixit.iqm")).unwrap();
    std::fs::write(&model, &demo).unwrap();

    let mut w = Watching::start(&model, &out);
    // The first render: the adapter opens on lavapipe, which takes a while in a debug build.
    let line = w.wait_for("rendered", Duration::from_secs(90));
    assert!(line.contains("out.png") && line.contains("model.iqm") && line.contains(" ms)"), "{line}");
    let first = pixels(&out);

    // Another model written over the file: a new picture, from one burst of writes.
    for _ in 0..4 {
        std::fs::write(&model, &mrfixit).unwrap();
    }
    w.wait_for("rendered", Duration::from_secs(30));
    let second = pixels(&out);
    assert_eq!(first.len(), second.len());
    let changed = first.chunks(4).zip(second.chunks(4)).filter(|(a, b)| a != b).count();
    assert!(changed > 500, "the picture hardly changed after the model did ({changed} pixels)");
    let extra = w.quiet_for(Duration::from_millis(1500));
    assert!(extra.iter().all(|l| !l.starts_with("rendered")), "one burst rendered more than once: {extra:#?}");

    // A broken file: reported, the process keeps waiting, the last picture stays.
    std::fs::write(&model, &mrfixit[..mrfixit.len() / 3]).unwrap();
    let error = w.wait_for("rigscope:", Duration::from_secs(30));
    assert!(error.contains("model.iqm"), "the error names the file: {error}");
    w.assert_running();
    assert_eq!(pixels(&out), second, "a failed reload must keep the last picture");

    // Fixed again: rendered again.
    std::fs::write(&model, &demo).unwrap();
    w.wait_for("rendered", Duration::from_secs(30));
    assert_eq!(pixels(&out), first, "the same model and arguments give the same picture");
    w.assert_running();
    drop(w);
    std::fs::remove_dir_all(&dir).ok();
}
