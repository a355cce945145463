//! A viewer that remembers (issue 8 §5), through egui_kittest (no GPU): recent files in the settings file, the
//! start screen and the File > Recent files menu; toggles and speed kept; a corrupt settings file; the help
//! overlay listing the shortcut table; every shortcut doing what the table says; keys left to a text field.
//!
//! Settings files are written to paths the tests pass explicitly (tests run in parallel threads).

use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rigscope::app::settings::{Loaded, MAX_SPEED, MIN_SPEED, SETTINGS_FILE};
use rigscope::app::shortcuts::{Does, table};
use rigscope::app::{Action, App, Intent, Settings, ViewToggles};

fn corpus(name: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/iqm")).join(name);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

fn demo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm"))
}

/// A fresh folder of this test's own under target/.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/target/ui-remember")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[derive(Default)]
struct State {
    app: App,
    intents: Vec<Intent>,
    /// A text field drawn above the app when `Some`.
    text: Option<String>,
}

fn harness(app: App) -> Harness<'static, State> {
    harness_state(State { app, ..State::default() })
}

fn harness_state(state: State) -> Harness<'static, State> {
    Harness::builder().with_size([1400.0, 1600.0]).allow_missing_glyphs().build_ui_state(
        |ui, s: &mut State| {
            if let Some(text) = &mut s.text {
                let label = ui.label("Notes");
                ui.add(egui::TextEdit::singleline(text).id_salt("test field")).labelled_by(label.id);
            }
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        state,
    )
}

/// The app with the demo model opened from disk (it has clips, joints and a folder).
fn with_demo() -> App {
    let mut app = App::new();
    app.open_path(&demo());
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    app
}

/// Every button in the UI, top to bottom (tree order), with whether it is enabled.
fn buttons(h: &Harness<'_, State>) -> Vec<(String, bool)> {
    fn walk(node: egui_kittest::Node<'_>, out: &mut Vec<(String, bool)>) {
        for child in node.children() {
            let a = child.accesskit_node();
            if a.role() == Role::Button
                && let Some(label) = a.label()
            {
                out.push((label, !a.is_disabled()));
            }
            walk(child, out);
        }
    }
    let mut out = Vec::new();
    walk(h.root(), &mut out);
    out
}

#[test]
fn recent_files_persist_in_order_show_missing_ones_and_open_on_click() {
    let dir = temp_dir("recent");
    let gone = dir.join("gone.iqm");
    std::fs::copy(demo(), &gone).unwrap();
    let mrfixit = corpus("lsalzman_mrfixit.iqm");

    // A session opens two files (and fails on a third, which isn't remembered), and its settings are saved.
    let mut first = App::new();
    first.open_path(&mrfixit);
    first.open_path(&gone);
    first.open_path(&dir.join("never-there.iqm"));
    let path = dir.join(SETTINGS_FILE);
    first.settings().save(&path).unwrap();
    let abs = |p: &Path| std::fs::canonicalize(p).unwrap();
    assert_eq!(first.recent_files(), [abs(&gone), abs(&mrfixit)]);
    std::fs::remove_file(&gone).unwrap();

    // The next session starts on the demo (opened from memory) with the start screen.
    let Loaded { settings, problem } = Settings::load(&path);
    assert_eq!(problem, None);
    let mut app = App::new();
    app.apply_settings(&settings);
    app.open_bytes("demo.iqm", &std::fs::read(demo()).unwrap());
    app.set_start_screen(true);
    let mut h = harness(app);
    h.run();
    assert!(h.state().app.start_screen_shown());
    // With the menus closed, these buttons are the start screen's.
    let wanted = ["gone.iqm (missing)", "lsalzman_mrfixit.iqm", "Open…", "Dismiss"];
    let buttons: Vec<_> = buttons(&h).into_iter().filter(|(l, _)| wanted.contains(&l.as_str())).collect();
    let expected = [
        ("gone.iqm (missing)".to_string(), false),
        ("lsalzman_mrfixit.iqm".to_string(), true),
        ("Open…".to_string(), true),
        ("Dismiss".to_string(), true),
    ];
    assert_eq!(buttons, expected, "most recent first; the deleted file disabled");

    // The File > Recent files menu lists the same, in the same order.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Recent files").click();
    h.run();
    let missing = h.get_all_by_label("gone.iqm (missing)").collect::<Vec<_>>();
    assert_eq!(missing.len(), 2, "start screen and menu");
    assert!(missing.iter().all(|n| n.accesskit_node().is_disabled()));
    let entries = h.get_all_by_label("lsalzman_mrfixit.iqm").collect::<Vec<_>>();
    assert_eq!(entries.len(), 2);
    assert!(missing[1].rect().min.y < entries[1].rect().min.y, "menu order");
    // Clicking an entry (the menu's) opens it; the start screen goes.
    entries[1].click();
    h.run();
    let app = &h.state().app;
    assert_eq!(app.model().map(|m| PathBuf::from(&m.name)), Some(abs(&mrfixit)));
    assert!(!app.start_screen_shown());
    assert!(h.query_by_label("Dismiss").is_none(), "the start screen is gone");
    assert_eq!(app.recent_files(), [abs(&mrfixit), dir.join("gone.iqm")]);

    // Clear recent files.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Recent files").click();
    h.run();
    h.get_by_label("Clear recent files").click();
    h.run();
    assert!(h.state().app.recent_files().is_empty());
    assert!(h.state().app.settings().recent.is_empty());
}

#[test]
fn the_start_screen_opens_a_recent_file_and_can_be_dismissed() {
    let mrfixit = corpus("lsalzman_mrfixit.iqm");
    let mut app = App::new();
    app.apply_settings(&Settings { recent: vec![mrfixit.clone()], ..Settings::default() });
    app.set_start_screen(true);
    let mut h = harness(app);
    h.run();
    assert!(h.state().app.start_screen_shown(), "no model: the start screen shows");
    h.get_by_label("Open…").click();
    h.run();
    assert_eq!(h.state().intents, vec![Intent::OpenDialog]);
    h.get_by_label("lsalzman_mrfixit.iqm").click();
    h.run();
    assert!(h.state().app.model().is_some_and(|m| m.name.ends_with("lsalzman_mrfixit.iqm")));
    assert!(h.query_by_label("Dismiss").is_none(), "a file was opened: the start screen is gone");

    let mut app = App::new();
    app.set_start_screen(true);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Dismiss").click();
    h.run();
    assert!(!h.state().app.start_screen_shown());
    assert!(h.query_by_label("Dismiss").is_none());
}

#[test]
fn toggles_speed_and_watch_persist() {
    let dir = temp_dir("toggles");
    let path = dir.join(SETTINGS_FILE);
    let mut h = harness(with_demo());
    h.run();
    // Keys and the View menu change toggles; ] doubles the speed twice.
    h.key_press(Key::X);
    h.key_press(Key::K);
    h.key_press(Key::CloseBracket);
    h.key_press(Key::CloseBracket);
    h.run();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Normals N").click();
    h.run();
    let mut settings = h.state().app.settings();
    settings.watch = false;
    settings.save(&path).unwrap();

    let loaded = Settings::load(&path);
    assert_eq!(loaded.problem, None);
    let mut fresh = App::new();
    fresh.apply_settings(&loaded.settings);
    let s = fresh.settings();
    let expected = ViewToggles { wireframe: true, skeleton: true, normals: true, ..ViewToggles::default() };
    assert_eq!(s.toggles, expected);
    assert_eq!(s.speed, 4.0);
    assert_eq!(fresh.player().speed, 4.0);
    assert!(!s.watch);
    assert!(!fresh.watch());
    // The renderer's overlays follow the restored toggles.
    let o = fresh.overlays();
    assert!(o.wireframe && o.skeleton && o.grid);
}

#[test]
fn a_corrupt_settings_file_gives_defaults_and_a_notice_and_is_not_rewritten() {
    let dir = temp_dir("corrupt");
    let path = dir.join(SETTINGS_FILE);
    let text = "{\"toggles\": {\"wireframe\": tru";
    std::fs::write(&path, text).unwrap();
    let Loaded { settings, problem } = Settings::load(&path);
    assert_eq!(settings, Settings::default());
    let problem = problem.expect("a notice");
    assert!(problem.contains(&path.display().to_string()), "{problem}");
    assert!(problem.contains("line 1"), "the parser's error: {problem}");
    // What the window does with it: a notice in the banner.
    let mut app = App::new();
    app.apply_settings(&settings);
    app.add_notice(rigscope::app::Notice::error(problem.clone()));
    let mut h = harness(app);
    h.run();
    assert!(h.query_by_label(&problem).is_some());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "loading never writes");

    // A file of wrong types in one field is corrupt too; one with unknown fields is not.
    std::fs::write(&path, r#"{"speed": "fast"}"#).unwrap();
    assert!(Settings::load(&path).problem.is_some());
    std::fs::write(&path, r#"{"speed": 0.5, "a_later_field": {"x": 1}}"#).unwrap();
    assert_eq!(
        Settings::load(&path),
        Loaded { settings: Settings { speed: 0.5, ..Settings::default() }, problem: None }
    );
}

#[test]
fn f1_shows_every_shortcut_and_escape_closes_it() {
    let mut h = harness(with_demo());
    h.run();
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    // Every key text and description of the table, and each group title: the overlay adds as many labels of
    // each as the table has rows with it (some, like "End", are also buttons elsewhere).
    let mut labels: Vec<String> = table().iter().flat_map(|s| [s.text(&h.ctx), s.description.to_string()]).collect();
    labels.extend(["Playback", "View", "Views", "Panels and selection", "Models", "Files"].map(String::from));
    let count = |h: &Harness<'_, State>| labels.iter().map(|l| h.query_all_by_label(l).count()).collect::<Vec<_>>();
    let closed = count(&h);
    h.key_press(Key::F1);
    h.run();
    assert!(h.state().app.help_shown());
    h.get_by_label("Keyboard shortcuts");
    let open = count(&h);
    for (i, label) in labels.iter().enumerate() {
        // A label that occurs twice in `labels` is counted twice, each time over all of its rows.
        let rows = labels.iter().filter(|l| *l == label).count();
        assert!(open[i] >= closed[i] + rows, "{label}: {} shown with the help open, {} closed", open[i], closed[i]);
    }
    h.key_press(Key::Escape);
    h.run();
    assert!(!h.state().app.help_shown());
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    // `?` (Shift+/ on most keyboards) opens it, F1 closes it, and so does Help > Keyboard shortcuts.
    h.key_press_modifiers(Modifiers::SHIFT, Key::Questionmark);
    h.run();
    assert!(h.state().app.help_shown());
    h.key_press(Key::F1);
    h.run();
    assert!(!h.state().app.help_shown());
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Keyboard shortcuts F1").click();
    h.run();
    assert!(h.state().app.help_shown());
}

/// Every row of the table, pressed through egui's input: exactly its action comes out.
#[test]
fn every_shortcut_emits_its_action() {
    for s in table() {
        let ctx = egui::Context::default();
        let key = |pressed| egui::Event::Key {
            key: s.keys.logical_key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: s.keys.modifiers,
        };
        let raw = egui::RawInput { events: vec![key(true), key(false)], ..Default::default() };
        let mut got = Vec::new();
        let mut full = ctx.run_pass(raw, |ctx| {
            got = ctx.input_mut(|i| rigscope::app::shortcuts::actions(i, true, 1.0, false));
        });
        full.textures_delta.clear();
        assert_eq!(got, vec![s.does.action(1.0)], "{} ({})", s.description, s.text(&ctx));
    }
}

/// What the observable shortcuts do to the app, pressed through the harness.
#[test]
fn shortcuts_change_the_app() {
    let mut observed = 0;
    for s in table() {
        let mut h = harness(with_demo());
        h.run();
        let before = h.state().app.settings();
        let frame_before = h.state().app.current_clip_frame();
        let playing = h.state().app.player().playing;
        if s.keys.logical_key == Key::End || s.keys.logical_key == Key::ArrowLeft {
            // From the start, Left wraps to the end; End goes there: move away first so both show.
            h.state_mut().app.apply(Action::SetFrame(5.0));
        }
        h.key_press_modifiers(s.keys.modifiers, s.keys.logical_key);
        h.run();
        let app = &h.state().app;
        let frame = app.current_clip_frame().map(|(_, f)| f);
        let what = format!("{} ({})", s.description, s.text(&h.ctx));
        match &s.does {
            Does::Act(Action::Window(i)) => assert_eq!(h.state().intents, vec![*i], "{what}"),
            Does::Act(Action::Toggle(t)) => {
                let mut expected = before.toggles.clone();
                expected.flip(*t);
                assert_eq!(app.settings().toggles, expected, "{what}");
            }
            Does::Act(Action::TogglePlay) => assert_ne!(app.player().playing, playing, "{what}"),
            Does::Act(Action::Step(1)) => assert_eq!(frame, frame_before.map(|(_, f)| f + 1.0), "{what}"),
            Does::Act(Action::Step(-1)) => assert_eq!(frame, Some(4.0), "{what}"),
            Does::Act(Action::JumpStart) => assert_eq!(frame, Some(0.0), "{what}"),
            Does::Act(Action::JumpEnd) => assert_eq!(frame, Some(47.0), "{what} (idle has 48 frames)"),
            Does::Act(Action::ToggleHelp) => assert!(app.help_shown(), "{what}"),
            Does::Slower => assert_eq!(app.player().speed, 0.5, "{what}"),
            Does::Faster => assert_eq!(app.player().speed, 2.0, "{what}"),
            // Models, tabs and the clipboard are the window's and other sections' (no state here to look at);
            // `every_shortcut_emits_its_action` covers them.
            _ => {
                assert!(h.state().intents.is_empty(), "{what}");
                continue;
            }
        }
        observed += 1;
    }
    assert!(observed >= 25, "{observed} shortcuts observed");
}

#[test]
fn speed_keys_stay_within_limits() {
    let mut h = harness(with_demo());
    h.run();
    for _ in 0..10 {
        h.key_press(Key::OpenBracket);
        h.run();
    }
    assert_eq!(h.state().app.player().speed, MIN_SPEED);
    for _ in 0..12 {
        h.key_press(Key::CloseBracket);
        h.run();
    }
    assert_eq!(h.state().app.player().speed, MAX_SPEED);
}

#[test]
fn shortcuts_are_ignored_while_a_text_field_has_the_keyboard() {
    let mut h = harness_state(State { app: with_demo(), text: Some(String::new()), ..State::default() });
    h.run();
    let field = h.get_by_role_and_label(Role::TextInput, "Notes");
    field.focus();
    h.run();
    let before = h.state().app.settings();
    let frame = h.state().app.current_clip_frame();
    h.get_by_role_and_label(Role::TextInput, "Notes").type_text("wx");
    h.key_press(Key::W);
    h.key_press(Key::F1);
    h.key_press(Key::CloseBracket);
    h.key_press(Key::F12);
    h.run();
    assert_eq!(h.state().text.as_deref(), Some("wx"));
    let app = &h.state().app;
    assert_eq!(app.settings(), before);
    assert!(!app.help_shown());
    assert_eq!(app.current_clip_frame(), frame);
    assert!(h.state().intents.is_empty());
    // Without the field, the same key acts.
    h.state_mut().text = None;
    h.run();
    h.key_press(Key::W);
    h.run();
    assert!(h.state().app.settings().toggles.weights);
}
