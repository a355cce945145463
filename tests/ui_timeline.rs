//! The timeline's Keys tab (issue 36), driven through egui_kittest on the real PMD character and its dance:
//! a row per selected joint and morph with its keys counted by channel against the VMD's own, the clip
//! selector, the frame field in frames and seconds, a loop range set on the ruler (P and a drag, or Shift+drag)
//! that wraps playback, Alt+P clearing it, a drag on a row scrubbing and pausing until let go, and Ctrl+wheel
//! zoom with a double-click fitting the clip again.

use std::path::PathBuf;

use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, Pos2, Vec2, pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::app::{Action, App};
use rigscope::scene::{ClipData, DEFAULT_FPS};

mod common;

fn mmd(rel: &str) -> PathBuf {
    common::corpus(&format!("mmd/threejs/{rel}"))
}

fn harness(app: App) -> Harness<'static, App> {
    harness_stepping(app, 0.25)
}

/// The harness with `dt` seconds between frames (its default, a quarter of a second, is longer than a
/// double-click may take).
fn harness_stepping(app: App, dt: f32) -> Harness<'static, App> {
    let steps = (1.0 / dt).ceil() as u64; // a second's worth to settle in, as by default
    let builder = Harness::builder().with_size([1400.0, 1000.0]).with_step_dt(dt).with_max_steps(steps);
    let mut h = builder.allow_missing_glyphs().build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    );
    h.run();
    h
}

/// The character with the dance attached, paused at frame 0.
fn dancing() -> App {
    let mut app = App::new();
    app.open_path(&mmd("miku/miku_v2.pmd"));
    app.open_path(&mmd("vmds/wavefile_v2.vmd"));
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    app.apply(Action::SetFrame(0.0));
    if app.player().playing {
        app.apply(Action::TogglePlay);
    }
    app
}

fn frame(h: &Harness<'_, App>) -> f32 {
    h.state().current_clip_frame().expect("a clip is shown").1
}

/// The ruler's strip.
fn ruler(h: &Harness<'_, App>) -> egui::Rect {
    h.get_by_role_and_label(Role::Row, "Ruler").rect()
}

/// A primary-button drag from `from` to `to` in steps, with `modifiers` held.
fn drag(h: &mut Harness<'_, App>, from: Pos2, to: Pos2, modifiers: Modifiers) {
    h.event(Event::ModifiersChanged(modifiers));
    h.hover_at(from);
    h.run();
    h.event(Event::PointerButton { pos: from, button: egui::PointerButton::Primary, pressed: true, modifiers });
    h.run();
    for i in 1..=8 {
        h.hover_at(from + (to - from) * (i as f32 / 8.0));
        h.run();
    }
    h.event(Event::PointerButton { pos: to, button: egui::PointerButton::Primary, pressed: false, modifiers });
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run();
}

#[test]
fn a_selected_joint_and_morph_each_get_a_row_with_the_vmds_keys_by_channel() {
    let mut h = harness(dancing());
    let scene = h.state().scene().unwrap().clone();
    let (c, _) = h.state().current_clip_frame().unwrap();
    let ClipData::Keyed { tracks } = &scene.clips[c].data else { panic!("a VMD is keyed") };
    // The joint the dance keys most.
    let track = tracks.iter().max_by_key(|t| t.rotation.len()).unwrap();
    let name = scene.skeleton.display_name(track.joint).to_string();
    h.state_mut().apply(Action::SelectJoint(Some(track.joint)));
    h.run();
    let (t, r) = (track.translation.len(), track.rotation.len());
    h.get_by_label_contains(&format!("{name} keys: {t} translation, {r} rotation"));
    // A morph the dance keys, by the VMD's morph track.
    let m = scene.clips[c].morphs.iter().find(|m| m.keys.len() > 2).expect("the dance keys morphs");
    let index = scene.morphs.iter().position(|x| x.name == m.name).unwrap();
    h.state_mut().apply(Action::SelectMorph(Some(index)));
    h.run();
    h.get_by_label_contains(&format!("morph {} keys: {} morph weight", m.name, m.keys.len()));
    // Pinned, the joint keeps its row beside the morph's.
    h.state_mut().apply(Action::SelectJoint(Some(track.joint)));
    h.state_mut().apply(Action::PinSelection(true));
    h.state_mut().apply(Action::SelectMorph(Some(index)));
    h.run();
    h.get_by_label_contains(&format!("{name} keys: "));
    h.get_by_label_contains(&format!("morph {} keys: ", m.name));
    let all = h.state().document().unwrap().key_frames(c, None).len();
    h.get_by_label(&format!("All keys: {all} key frames"));
}

#[test]
fn the_frame_field_edits_in_frames_or_seconds() {
    let mut h = harness(dancing());
    h.get_by_label("Frame").set_value_accesskit(120.0);
    h.run();
    assert_eq!(frame(&h), 120.0);
    h.get_by_label("Frame unit").click();
    h.run();
    // VMDs play at 30 frames a second.
    h.get_by_label("Time").set_value_accesskit(5.0);
    h.run();
    assert!((frame(&h) - 150.0).abs() < 1e-3, "{}", frame(&h));
}

#[test]
fn a_loop_range_set_on_the_ruler_wraps_playback_and_alt_p_clears_it() {
    let mut h = harness(dancing());
    let r = ruler(&h);
    let span = h.state().scene().unwrap().clips[0].frame_span();
    let at = |f: f32| pos2(r.left() + r.width() * f / span, r.center().y);
    // P, then a drag from frame 600 to 900.
    h.key_press(Key::P);
    h.run();
    drag(&mut h, at(600.0), at(900.0), Modifiers::NONE);
    let (a, b) = h.state().player().range.expect("a range was set");
    let px = span / r.width();
    assert!((a - 600.0).abs() <= px && (b - 900.0).abs() <= px, "{a}..{b}, a pixel is {px} frames");
    assert_eq!(frame(&h), 0.0, "setting a range doesn't scrub");
    // Playing starts at the range's start and wraps at its end: 12 s at 30 fps is 360 frames, 60 past it.
    h.key_press(Key::Space);
    h.run();
    assert!((frame(&h) - a).abs() < 1e-3, "{} vs {a}", frame(&h));
    for _ in 0..120 {
        h.state_mut().update(0.1);
    }
    let f = frame(&h);
    let expect = a + (12.0 * 30.0) % (b - a);
    assert!((f - expect).abs() < 0.05, "{f} vs {expect}");
    assert!(h.state().player().playing);
    h.key_press_modifiers(Modifiers::ALT, Key::P);
    h.run();
    assert_eq!(h.state().player().range, None);
    // Shift+drag sets it with no P.
    drag(&mut h, at(100.0), at(50.0), Modifiers::SHIFT);
    let (a, b) = h.state().player().range.expect("Shift+drag sets a range");
    assert!((a - 50.0).abs() <= px && (b - 100.0).abs() <= px, "{a}..{b}");
}

#[test]
fn dragging_on_the_ruler_scrubs_pausing_playback_until_let_go() {
    let mut h = harness(dancing());
    let r = ruler(&h);
    let span = h.state().scene().unwrap().clips[0].frame_span();
    h.key_press(Key::Space);
    h.run();
    assert!(h.state().player().playing);
    let (from, to) = (pos2(r.left() + r.width() * 0.25, r.center().y), pos2(r.left() + r.width() * 0.5, r.center().y));
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    h.hover_at(to);
    h.run();
    assert!(!h.state().player().playing, "paused while dragging");
    let f = frame(&h);
    assert!((f - span * 0.5).abs() <= span / r.width(), "{f}");
    h.drop_at(to);
    h.run();
    assert!(h.state().player().playing, "playing again once let go");
}

#[test]
fn ctrl_wheel_zooms_the_rows_and_a_double_click_fits_the_clip() {
    let mut h = harness_stepping(dancing(), 1.0 / 60.0);
    let r = ruler(&h);
    let span = h.state().scene().unwrap().clips[0].frame_span();
    let middle = r.center();
    // The ruler says which frames are in view (its value): zoomed about the frame under the pointer.
    let shown = |h: &Harness<'_, App>| -> (f32, f32) {
        let value = h.get_by_role_and_label(Role::Row, "Ruler").value().expect("the ruler has a value");
        let (a, b) = value.strip_prefix("frames ").unwrap().split_once('–').unwrap();
        (a.parse().unwrap(), b.parse().unwrap())
    };
    assert_eq!(shown(&h), (0.0, span), "the whole clip at first");
    h.hover_at(middle);
    h.event_modifiers(
        Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: Vec2::new(0.0, 3.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: Modifiers::COMMAND,
        },
        Modifiers::COMMAND,
    );
    h.run();
    let (a, b) = shown(&h);
    assert!(b - a < span * 0.9, "{a}–{b}");
    assert!(a < span / 2.0 && b > span / 2.0, "the frame under the pointer stays in view: {a}–{b}");
    // A click on the zoomed ruler lands on the frame under it in the zoomed view.
    h.get_by_role_and_label(Role::Row, "Ruler").click();
    h.run();
    assert!((frame(&h) - (a + b) / 2.0).abs() < (b - a) / 100.0 + 1.0, "{} in {a}–{b}", frame(&h));
    // Two more clicks, a frame apart.
    h.hover_at(middle);
    h.step();
    for pressed in [true, false, true, false] {
        h.event(Event::PointerButton {
            pos: middle,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    h.run();
    assert_eq!(shown(&h), (0.0, span), "a double-click shows the whole clip again");
}

#[test]
fn the_clip_selector_lists_the_clips_and_plays_the_one_picked() {
    // The demo model has several clips.
    let mut app = App::new();
    app.open_demo();
    // The Outliner's Scene tab lists the clips by the same names: hidden, only the timeline's menu has them.
    app.apply(Action::Toggle(rigscope::app::Toggle::Outliner));
    let mut h = harness(app);
    let clips: Vec<String> = h.state().scene().unwrap().clips.iter().map(|c| c.name.clone()).collect();
    assert!(clips.len() > 1);
    h.get_by_label("Clip").click();
    h.run();
    h.get_by_label(&format!("1: {}", clips[1])).click();
    h.run();
    assert_eq!(h.state().current_clip_frame().map(|(c, _)| c), Some(1));
    assert!(h.state().player().playing);
}

#[test]
fn the_bar_sets_the_onion_skin_and_the_selected_joints_trails() {
    let mut h = harness(dancing());
    let scene = h.state().scene().unwrap().clone();
    let arm = scene.skeleton.find("左腕").unwrap();
    h.state_mut().apply(Action::SelectJoint(Some(arm)));
    h.state_mut().apply(Action::SetFrame(600.0));
    h.run();
    assert!(h.state().overlays().trails.is_empty(), "off by default");
    h.get_by_label("Trail").click();
    h.run();
    h.get_by_label("Trail frames").set_value_accesskit(10.0);
    h.run();
    let trails = h.state().overlays().trails;
    assert_eq!(trails.len(), 1);
    assert_eq!(trails[0].path.len(), 21, "ten frames each side and this one");
    // The path passes through the arm where it is drawn now (the clip's own keys, as the onion skin).
    let pose = rigscope::anim::Pose::sample(&scene.skeleton, &scene.clips[0], 600.0, DEFAULT_FPS);
    let here = pose.world[arm].w_axis.truncate();
    assert!(trails[0].path[10].abs_diff_eq(here, 1e-4), "{} vs {here}", trails[0].path[10]);
    let keys = h.state().document().unwrap().key_frames(0, Some(arm));
    let near = keys.iter().filter(|&&k| (k - 600.0).abs() <= 10.0).count();
    assert_eq!(trails[0].keys.len(), near, "a mark at each of its keys within reach");
    // The onion skin: on, three ghosts each side five frames apart.
    h.get_by_label("Onion").click();
    h.run();
    h.get_by_label("Onion ghosts").set_value_accesskit(3.0);
    h.get_by_label("Onion step").set_value_accesskit(5.0);
    h.run();
    assert_eq!(h.state().overlays().ghosts.len(), 6);
    let sheet = h.state().frame_overlays();
    assert_eq!(sheet.onion, Some(rigscope::anim::OnionSpacing { ghosts: 3, step: 5 }));
}
