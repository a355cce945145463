//! The window as a screen reader sees it (issue 35): the real window under Xvfb, on a private D-Bus session with
//! the accessibility bus switched on, read by an AT-SPI client (`tests/a11y/read_window.py`, Debian's
//! python3-pyatspi) as Orca reads it: the Outliner's and Inspector's tabs, the transport's buttons by their
//! action, and the timeline's frame as a number, read again after keys pressed in the window (xdotool).
//!
//! It needs a display (as `tests/window_xvfb.rs`) and Debian's at-spi2-core, python3-pyatspi, dbus-x11 and
//! xdotool, which `.ci/run` installs; without them it fails, never skips.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const BUS_LAUNCHER: &str = "/usr/libexec/at-spi-bus-launcher";
const PYTHON: &str = "/usr/bin/python3";

/// Kills the processes it holds when dropped, so a failed assertion leaves nothing running.
struct Running(Vec<Child>, Option<u32>);

impl Drop for Running {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(pid) = self.1 {
            let _ = Command::new("kill").arg(pid.to_string()).status();
        }
    }
}

fn require_tools() {
    let has = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
    assert!(has("DISPLAY"), "the accessibility test needs an X display: run it under Xvfb, as .ci/run does");
    let missing: Vec<&str> = [
        (Path::new(BUS_LAUNCHER).is_file(), "at-spi2-core"),
        (Command::new("dbus-launch").arg("--version").output().is_ok(), "dbus-x11"),
        (Command::new("xdotool").arg("version").output().is_ok(), "xdotool"),
        (
            Command::new(PYTHON).args(["-c", "import pyatspi"]).output().is_ok_and(|o| o.status.success()),
            "python3-pyatspi",
        ),
    ]
    .into_iter()
    .filter_map(|(ok, package)| (!ok).then_some(package))
    .collect();
    assert!(missing.is_empty(), "install {} (apt-get install, as .ci/run does)", missing.join(" "));
}

/// Waits (up to 30 s) until the accessibility bus launcher started on session bus `bus` owns its name. Asked
/// without activating it: a call to org.a11y.Bus itself (the window's first) starts a second launcher through
/// D-Bus activation when the name is still free, which on a loaded machine wins the name with the
/// accessibility switch off, and the window then never shows on the bus.
fn wait_for_accessibility_bus(bus: &str) {
    let start = std::time::Instant::now();
    loop {
        let asked = Command::new("dbus-send")
            .args([
                "--session",
                "--print-reply",
                "--dest=org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus.NameHasOwner",
                "string:org.a11y.Bus",
            ])
            .env("DBUS_SESSION_BUS_ADDRESS", bus)
            .output();
        if asked.is_ok_and(|o| o.status.success() && String::from_utf8_lossy(&o.stdout).contains("boolean true")) {
            return;
        }
        assert!(start.elapsed().as_secs() < 30, "the accessibility bus did not start in 30 s");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A private session bus: its address, and the daemon's pid to stop it.
fn session_bus() -> (String, u32) {
    let out = Command::new("dbus-launch").arg("--sh-syntax").output().expect("dbus-launch");
    let text = String::from_utf8_lossy(&out.stdout);
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .map(|v| v.trim_end_matches(';').trim_matches('\'').to_string())
            .unwrap_or_else(|| panic!("dbus-launch gave no {name}: {text}"))
    };
    (value("DBUS_SESSION_BUS_ADDRESS"), value("DBUS_SESSION_BUS_PID").parse().expect("a pid"))
}

#[test]
fn a_screen_reader_reads_the_tabs_the_transport_and_the_frame() {
    require_tools();
    let (bus, pid) = session_bus();
    let mut running = Running(Vec::new(), Some(pid));
    let home = std::env::temp_dir().join(format!("rigscope-a11y-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(home.join("config")).unwrap();
    // `--a11y=1` switches the accessibility bus on for this session (setting org.a11y.Status.IsEnabled by hand
    // does not stick with a fresh HOME: the launcher reads it back from dconf).
    running.0.push(
        Command::new(BUS_LAUNCHER)
            .args(["--launch-immediately", "--a11y=1", "--screen-reader=1"])
            .env("DBUS_SESSION_BUS_ADDRESS", &bus)
            .env("HOME", &home)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the accessibility bus"),
    );
    // The window asks for the accessibility bus as it starts: the launcher must own its name by then (see
    // `wait_for_accessibility_bus`).
    wait_for_accessibility_bus(&bus);
    let model = common::corpus("iqm/lsalzman_mrfixit.iqm");
    let log = std::fs::File::create(home.join("rigscope.log")).expect("the window's log");
    running.0.push(
        Command::new(env!("CARGO_BIN_EXE_rigscope"))
            .arg(&model)
            .args(["--window-size", "1280x800"])
            .env("DBUS_SESSION_BUS_ADDRESS", &bus)
            .env("HOME", &home)
            .env("RIGSCOPE_CONFIG_DIR", home.join("config"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start rigscope"),
    );
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/a11y/read_window.py");
    let out = Command::new(PYTHON)
        .arg(&script)
        .env("DBUS_SESSION_BUS_ADDRESS", &bus)
        .env("HOME", &home)
        .output()
        .expect("run the AT-SPI client");
    drop(running);
    let window_log = std::fs::read_to_string(home.join("rigscope.log")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&home);
    let text = String::from_utf8_lossy(&out.stdout);
    if !window_log.trim().is_empty() {
        eprintln!("the window said:\n{window_log}");
    }
    let report: serde_json::Value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("{e}: {text}\n{}", String::from_utf8_lossy(&out.stderr)));
    eprintln!("what the screen reader read: {report}");
    assert!(report.get("error").is_none(), "{report}");
    let names = |key: &str| -> Vec<String> {
        report[key].as_array().unwrap_or_else(|| panic!("{key} in {report}")).iter().map(|v| v.to_string()).collect()
    };
    let (tabs, buttons) = (names("tabs"), names("buttons"));
    for tab in ["Scene", "Skeleton", "Morphs", "Physics", "Selection", "Display", "Info"] {
        assert!(tabs.contains(&format!("\"{tab}\"")), "tab {tab} in {tabs:?}");
    }
    assert!(tabs.iter().any(|t| t.starts_with("\"Problems (")), "{tabs:?}");
    for button in ["First frame", "Previous key", "Step back", "Step forward", "Next key", "Last frame"] {
        assert!(buttons.contains(&format!("\"{button}\"")), "button {button} in {buttons:?}");
    }
    assert!(buttons.contains(&"\"Pause\"".to_string()), "a file named on the command line plays: {buttons:?}");
    assert!(report["frame_start"].is_number(), "the Frame field has a numeric value: {report}");
    assert_eq!(report["paused"], true, "the Pause button's action pauses: {report}");
    assert_eq!(report["frame_after_home"], 0.0, "Home goes to the first frame: {report}");
    assert_eq!(report["frame_after_right"], 1.0, "→ steps one frame: {report}");
}
