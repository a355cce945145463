//! The viewer's panels and shortcuts, driven through egui_kittest (no GPU): choosing, scrubbing, stepping and
//! playing animations, selecting joints, and opening good, animation-only and broken files.

use std::path::PathBuf;

mod common;
use common::click_tab;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::anim::Pose;
use rigscope::app::{App, Intent, NoticeKind, Settings};
use rigscope::scene::DEFAULT_FPS;

fn corpus(name: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/iqm")).join(name);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

fn demo() -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm"));
    assert!(p.is_file(), "demo model missing: {}", p.display());
    p
}

#[derive(Default)]
struct State {
    app: App,
    intents: Vec<Intent>,
}

fn harness(app: App) -> Harness<'static, State> {
    harness_with(app, false)
}

/// `tofu`: draw boxes for characters the default fonts lack (MMD names are Japanese), as the window does.
fn harness_with(app: App, tofu: bool) -> Harness<'static, State> {
    let builder = Harness::builder().with_size([1400.0, 2400.0]);
    let builder = if tofu { builder.allow_missing_glyphs() } else { builder };
    builder.build_ui_state(
        |ui, s: &mut State| {
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        State { app, intents: Vec::new() },
    )
}

fn opened(path: &std::path::Path) -> App {
    let mut app = App::new();
    app.open_path(path);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    app
}

/// As [`opened`] with "Play on open" off, for tests of the playback controls from a still first frame.
fn opened_paused(path: &std::path::Path) -> App {
    let mut app = App::new();
    app.apply_settings(&Settings { play_on_open: false, ..Settings::default() });
    app.open_path(path);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    app
}

fn mmd(name: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/threejs")).join(name);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

/// The timeline's frame field.
fn timeline<'h>(h: &'h Harness<'_, State>) -> egui_kittest::Node<'h> {
    h.get_by_label("Frame")
}

fn frame(h: &Harness<'_, State>) -> f32 {
    h.state().app.current_clip_frame().expect("a clip is shown").1
}

#[test]
fn clicking_an_animation_plays_it() {
    let mut h = harness(opened_paused(&demo()));
    assert_eq!(h.state().app.current_clip_frame(), Some((0, 0.0)), "the first clip is shown, paused");
    assert!(!h.state_mut().app.update(0.1));
    h.get_by_label("2: walk").click();
    h.run();
    let app = &mut h.state_mut().app;
    assert_eq!(app.current_clip_frame(), Some((2, 0.0)));
    assert!(app.player().playing);
    assert!(app.update(0.1));
    // walk stores 30 fps.
    let (c, f) = app.current_clip_frame().unwrap();
    assert_eq!(c, 2);
    assert!((f - 3.0).abs() < 1e-3, "{f}");
    let scene = app.scene().unwrap();
    let expect = Pose::sample(&scene.skeleton, &scene.clips[2], f, DEFAULT_FPS);
    assert_eq!(app.pose().world, expect.world, "the pose follows playback");
}

#[test]
fn the_timeline_scrubs_the_pose() {
    let mut h = harness(opened(&demo()));
    timeline(&h).set_value_accesskit(10.0);
    h.run();
    assert!((frame(&h) - 10.0).abs() < 1e-3, "{}", frame(&h));
    let app = &h.state().app;
    let scene = app.scene().unwrap();
    let expect = Pose::sample(&scene.skeleton, &scene.clips[0], 10.0, DEFAULT_FPS);
    for (a, b) in app.pose().world.iter().zip(&expect.world) {
        assert!(a.abs_diff_eq(*b, 1e-4));
    }
    h.get_by_label("/ 48").hover();

    // Drag on the ruler: the frame follows the pointer while the button is held.
    let rect = h.get_by_role_and_label(egui::accesskit::Role::Row, "Ruler").rect();
    let y = rect.center().y;
    let before = frame(&h);
    h.drag_at(egui::pos2(rect.left() + 2.0, y));
    h.step();
    let mut seen = Vec::new();
    for x in [0.25, 0.5, 0.75] {
        h.hover_at(egui::pos2(rect.left() + rect.width() * x, y));
        h.step();
        seen.push(frame(&h));
    }
    h.drop_at(egui::pos2(rect.left() + rect.width() * 0.75, y));
    h.run();
    assert!(seen.windows(2).all(|w| w[1] > w[0]), "frames while dragging: {seen:?} (from {before})");
}

#[test]
fn arrow_keys_step_and_home_end_jump() {
    let mut h = harness(opened(&demo()));
    h.key_press(Key::ArrowRight);
    h.key_press(Key::ArrowRight);
    h.run();
    assert!((frame(&h) - 2.0).abs() < 1e-3, "{}", frame(&h));
    h.key_press(Key::ArrowLeft);
    h.run();
    assert!((frame(&h) - 1.0).abs() < 1e-3, "{}", frame(&h));
    h.key_press(Key::End);
    h.run();
    assert!((frame(&h) - 47.0).abs() < 1e-3, "{}", frame(&h));
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(frame(&h).abs() < 1e-3, "idle loops: past the last frame is the first, got {}", frame(&h));
    h.key_press(Key::ArrowLeft);
    h.key_press(Key::Home);
    h.run();
    assert_eq!(frame(&h), 0.0);
    // The buttons do the same.
    h.get_by_label("Step forward").click();
    h.run();
    assert!((frame(&h) - 1.0).abs() < 1e-3);
}

#[test]
fn space_plays_and_pauses() {
    let mut h = harness(opened_paused(&demo()));
    assert!(!h.state_mut().app.update(0.25), "paused: time stands still");
    assert_eq!(frame(&h), 0.0);
    h.key_press(Key::Space);
    h.run();
    assert!(h.state().app.player().playing);
    assert!(h.state_mut().app.update(0.25));
    assert!((frame(&h) - 6.0).abs() < 1e-3, "{}", frame(&h));
    h.key_press(Key::Space);
    h.run();
    assert!(!h.state_mut().app.update(0.25));
    assert!((frame(&h) - 6.0).abs() < 1e-3);
    // The Play button, and the speed.
    h.get_by_label("Play").click();
    h.run();
    assert!(h.state().app.player().playing);
    h.get_by_label("Pause").click();
    h.run();
    assert!(!h.state().app.player().playing);
}

#[test]
fn loop_toggle_overrides_the_file() {
    let mut h = harness(opened(&corpus("raylib_guy.iqm")));
    assert!(!h.state().app.scene().unwrap().clips[0].looping);
    h.key_press(Key::End);
    h.run();
    assert!((frame(&h) - 60.0).abs() < 1e-3);
    h.key_press(Key::ArrowRight);
    h.run();
    assert!((frame(&h) - 60.0).abs() < 1e-3, "plays once: clamps");
    h.get_by_label("Loop").click();
    h.run();
    h.key_press(Key::ArrowRight);
    h.run();
    assert!(frame(&h).abs() < 1e-3, "looping now: wraps, got {}", frame(&h));
}

#[test]
fn selecting_a_joint_shows_its_transforms_and_highlights_it() {
    let mut h = harness(opened(&demo()));
    click_tab(&mut h, "Skeleton");
    let name = h.state().app.scene().unwrap().skeleton.display_name(3);
    h.get_by_label(&format!("{name} #3")).click();
    h.run();
    assert_eq!(h.state().app.overlays().selected_joint, Some(3));
    h.get_by_label(&format!("Joint {name} #3"));
    h.get_by_label("Local T");
    h.get_by_label("Local R (Euler XYZ°)");
    h.get_by_label("Model-space (world) matrix:");
    let world = h.state().app.pose().world[3];
    let row0 = world.row(0);
    h.get_by_label_contains(&format!("{:9.4} {:9.4}", row0.x, row0.y));
}

#[test]
fn an_animation_file_attaches_and_a_model_replaces() {
    let mut h = harness(opened(&corpus("raylib_guy.iqm")));
    let generation = h.state().app.model_generation();
    let geometry = h.state().app.geometry_generation();
    h.state_mut().app.open_path(&corpus("raylib_guyanim.iqm"));
    h.run();
    let app = &h.state().app;
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    assert_eq!(app.scene().unwrap().clips.len(), 4, "two own clips and two attached");
    assert!(app.model_generation() > generation);
    assert_eq!(app.geometry_generation(), geometry, "attaching clips leaves the GPU model as it is");
    assert_eq!(app.current_clip_frame(), Some((2, 0.0)), "the first attached clip is shown");
    assert!(app.notices().iter().any(|n| n.kind == NoticeKind::Info && n.message.contains("attached 2")));
    h.get_by_label("14 matched by index, 0 unmatched, 0 unused");
    h.get_by_label("2: jump");
    h.get_by_label("Dismiss").click();
    h.run();
    assert!(h.state().app.notices().is_empty());

    h.state_mut().app.open_path(&corpus("lsalzman_mrfixit.iqm"));
    h.run();
    let app = &h.state().app;
    assert!(app.model().unwrap().name.ends_with("lsalzman_mrfixit.iqm"));
    assert!(app.geometry_generation() > geometry, "a replaced model is uploaded again");
    assert_eq!(app.scene().unwrap().clips.len(), 1);
    assert_eq!(app.model_dir(), corpus("lsalzman_mrfixit.iqm").parent());
    h.get_by_label("0: idle");
}

#[test]
fn a_bad_file_leaves_a_notice_and_a_problem_and_keeps_the_model() {
    let mut h = harness(opened(&corpus("raylib_guy.iqm")));
    let generation = h.state().app.model_generation();
    h.state_mut().app.open_path(&corpus("assimp_InvalidMeshOffset.iqm"));
    h.state_mut().app.open_path(std::path::Path::new("/nonexistent/rigscope/missing.iqm"));
    h.state_mut().app.open_bytes("notes.txt", b"hello");
    h.run();
    let app = &h.state().app;
    assert_eq!(app.problems().len(), 3, "{:?}", app.problems());
    assert!(app.problems()[0].message.contains("past end of file"), "{:?}", app.problems()[0]);
    assert!(app.problems()[0].file.as_deref().unwrap().ends_with("assimp_InvalidMeshOffset.iqm"));
    assert!(app.notices().iter().all(|n| n.kind == NoticeKind::Error));
    assert_eq!(app.model_generation(), generation, "the model stays");
    assert!(app.model().unwrap().name.ends_with("raylib_guy.iqm"));
    // The three failures, and what check finds in guy (its texture is not in the corpus).
    let findings = h.state().app.findings().len();
    assert!(h.state().app.findings().iter().all(|f| f.rule == "texture.missing"));
    click_tab(&mut h, &format!("Problems ({})", 3 + findings));
    assert_eq!(h.get_all_by_label_contains("past end of file (124)").count(), 2, "in the notice and the Problems list");
    assert_eq!(h.get_all_by_label("Dismiss").count(), 3);
    h.get_by_label("Clear problems").click();
    h.run();
    assert!(h.state().app.problems().is_empty());
}

#[test]
fn refusing_to_attach_is_a_problem() {
    let mut h = harness(opened(&demo()));
    h.state_mut().app.open_path(&corpus("raylib_guyanim.iqm"));
    h.run();
    let app = &h.state().app;
    assert_eq!(app.problems().len(), 1);
    assert!(app.problems()[0].message.contains("unnamed poses"), "{:?}", app.problems());
    assert_eq!(app.scene().unwrap().clips.len(), 3, "the model stays as it was");
}

#[test]
fn menu_and_shortcuts_ask_the_window() {
    let mut h = harness(opened(&demo()));
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::O);
    h.key_press(Key::F);
    h.run();
    assert_eq!(h.state().intents, vec![Intent::OpenDialog, Intent::FrameModel]);
    h.state_mut().intents.clear();
    // Menu items carry their shortcut text (the shortcut table's).
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Screenshot F12").click();
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Quit Ctrl+Q").click();
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Export glTF…").click();
    h.run();
    assert_eq!(h.state().intents, vec![Intent::Screenshot, Intent::Quit, Intent::ExportGltf]);
}

#[test]
fn meshes_hide_and_overlays_follow_the_toggles() {
    let mut h = harness(opened(&demo()));
    h.get_by_label("Meshes (2)").click();
    h.run();
    h.get_by_label_contains("head (").click();
    click_tab(&mut h, "Display");
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Skeleton").click();
    h.get_by_label("Stored bounds (green)").click();
    h.get_by_label("Computed bounds (pink)").click();
    h.run();
    let o = h.state().app.overlays();
    assert_eq!(o.hidden_meshes, vec![false, true]);
    assert!(o.skeleton);
    let scene = h.state().app.scene().unwrap();
    let pose = h.state().app.pose();
    let (stored, computed) = rigscope::render::frame_bounds(scene, h.state().app.current_clip_frame(), pose);
    assert_eq!(o.stored_bounds, stored);
    assert_eq!(o.computed_bounds, computed);
    // Materials list textures; the window reports the missing ones.
    h.get_by_label("demo: texture \"demo\" not looked for yet");
    h.state_mut().app.set_missing_textures(vec!["/models/demo.png".into()]);
    h.run();
    h.get_by_label("demo.png: texture \"demo.png\" missing");
    h.get_by_label("demo: texture \"demo\" found");
}

#[test]
fn the_bounds_section_compares_and_lists_misses() {
    let mut h = harness(opened(&demo()));
    click_tab(&mut h, "Info");
    h.get_by_label("Bounds").click();
    h.run();
    h.get_by_label("stored");
    h.get_by_label("computed");
    h.get_by_label("Stored bounds contain the skinned mesh on every frame.");
    h.get_by_label_contains("Warnings (0)");
}

/// A synthetic model whose stored box for frame 4 is too small: the bounds section lists that frame, the file
/// section warns, and clicking the frame goes there.
#[test]
fn a_frame_whose_stored_bounds_miss_is_listed_and_clickable() {
    use rigscope::anim::skinned_bounds;
    use rigscope::formats::iqm::write::Bounds;
    use rigscope::synth::{SynthSpec, document};

    let mut doc = document(SynthSpec { vertices: 600, joints: 12, frames: 6 });
    let scene = rigscope::load_bytes("synth.iqm", &doc.to_bytes()).unwrap();
    let mut bounds = Vec::new();
    for f in 0..6 {
        let pose = Pose::sample(&scene.skeleton, &scene.clips[0], f as f32, DEFAULT_FPS);
        let b = skinned_bounds(&scene.vertices, &pose.palette).unwrap();
        bounds.push(Bounds { min: b.min.to_array(), max: b.max.to_array(), xy_radius: b.xy_radius, radius: b.radius });
    }
    bounds[4].max[2] -= 1.0;
    doc.bounds = Some(bounds);
    let mut app = App::new();
    app.open_bytes("synth.iqm", &doc.to_bytes());
    let mut h = harness(app);
    click_tab(&mut h, "Info");
    h.get_by_label_contains("Warnings (1)");
    h.get_by_label_contains("stored bounds miss the skinned mesh in 1 of 6 frames");
    h.get_by_label("Bounds").click();
    h.run();
    h.get_by_label_contains("Frames whose stored bounds miss the mesh (1)");
    h.get_by_label("frame 4 (by 1.0000)").click();
    h.run();
    assert!((frame(&h) - 4.0).abs() < 1e-3, "{}", frame(&h));
    // The two boxes at frame 4, as the section shows them.
    let app = &h.state().app;
    let (stored, computed) = rigscope::render::frame_bounds(app.scene().unwrap(), app.current_clip_frame(), app.pose());
    let (stored, computed) = (stored.unwrap(), computed.unwrap());
    assert!((computed.max.z - stored.max.z - 1.0).abs() < 1e-4);
    h.get_by_label(&format!("{:.3} {:.3} {:.3}", stored.max.x, stored.max.y, stored.max.z));
    h.get_by_label(&format!("{:.3} {:.3} {:.3}", computed.max.x, computed.max.y, computed.max.z));
}

/// The window's path: `App::ui` on a bare context, inside `run_pass`, with and without a model. egui runs a
/// second pass (without the input) on a context's first frame; the last pass still reports the frame's intents.
#[test]
fn the_ui_runs_on_a_context_pass() {
    let ctx = egui::Context::default();
    let mut app = App::new();
    for open in [false, true] {
        if open {
            app.open_path(&demo());
        }
        let mut intents = Vec::new();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0))),
            // Pressed and released: a second press of a key still down is a repeat, which F ignores.
            events: [true, false]
                .map(|pressed| egui::Event::Key {
                    key: Key::F,
                    physical_key: None,
                    pressed,
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                })
                .to_vec(),
            ..Default::default()
        };
        ctx.run_pass(input, |ctx| intents = app.ui(ctx)).drop_without_applying_deltas();
        assert_eq!(intents, vec![Intent::FrameModel]);
        let view = app.view_rect().expect("the panels leave a view");
        assert!(view.width() > 600.0 && view.height() > 500.0, "{view:?}");
    }
}

#[test]
fn an_iqe_opens_plays_and_a_broken_one_keeps_it() {
    let mut h = harness(opened(&corpus("unv_medistat.iqe")));
    h.run();
    let app = &h.state().app;
    assert_eq!(app.scene().unwrap().clips.len(), 10);
    assert_eq!(app.scene().unwrap().meta.format, rigscope::scene::Format::Iqe);
    h.get_by_label("0: idle");
    h.get_by_label("3: construct2").click();
    h.run();
    assert_eq!(h.state().app.current_clip_frame(), Some((3, 0.0)));

    // A dropped IQE with a bad face: the error names the line, and medistat stays.
    let generation = h.state().app.model_generation();
    let bad = b"# Inter-Quake Export\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfa 0 1 7\n";
    h.state_mut().app.open_bytes("broken.iqe", bad);
    h.run();
    let app = &h.state().app;
    assert_eq!(app.model_generation(), generation, "the model stays");
    assert!(app.problems()[0].message.contains("face index 7"), "{:?}", app.problems());
    click_tab(&mut h, "Problems");
    assert_eq!(h.get_all_by_label_contains("broken.iqe:5").count(), 2, "in the notice and the Problems list");
}

fn rsm(name: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/rsm")).join(name);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

#[test]
fn rsm_nodes_are_listed_and_selecting_one_selects_its_joint() {
    let mut h = harness(opened(&rsm("multi_node_a.rsm")));
    h.run();
    h.get_by_label("Nodes (3)");
    h.get_by_label_contains("Cylinder18 (root, 68 vertices, 108 faces)");
    h.get_by_label_contains("Sphere02 (parent \"Cylinder18\", 303 vertices, 471 faces)");
    h.get_by_label_contains("Plane54 (parent \"Cylinder18\", 104 vertices, 52 faces)").click();
    h.run();
    let joint = h.state().app.scene().unwrap().rsm.as_ref().unwrap().nodes[1].joint;
    assert_eq!(h.state().app.selected_joint(), Some(joint));
    let o = h.state().app.overlays();
    assert_eq!((o.selected_joint, o.highlight_joint), (Some(joint), Some(joint)), "selected and tinted");
    h.get_by_label(&format!("Selected node: Plane54 (joint #{joint})"));
    h.get_by_label("52 of 52");
    h.get_by_label("texture 0: \"eclage\\ecl_wood01.bmp\"");
    // The window reports the texture missing (it is not in the corpus): both sections say so.
    let dir = h.state().app.model_dir().unwrap().to_path_buf();
    h.state_mut().app.set_missing_textures(vec![dir.join("eclage/ecl_wood01.bmp").display().to_string()]);
    h.run();
    h.get_by_label("texture 0: \"eclage\\ecl_wood01.bmp\" (missing)");
    h.get_by_label("Meshes (3)").click();
    h.run();
    h.get_by_label("eclage\\ecl_wood01.bmp: texture \"eclage\\ecl_wood01.bmp\" missing");
    // Clicking the selected node again clears the selection; the tint toggle turns the tint off.
    h.get_by_label_contains("Plane54 (parent").click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), None);
}

#[test]
fn rsm_volume_boxes_and_key_frames_show() {
    let mut h = harness(opened(&rsm("raglite_v0104.rsm")));
    h.run();
    h.get_by_label_contains("Volume boxes (2)");
    assert!(h.state().app.overlays().boxes.is_empty());
    click_tab(&mut h, "Display");
    h.get_by_label("Volume boxes (orange)").click();
    h.run();
    assert_eq!(h.state().app.overlays().boxes.len(), 2);
    // The keyed clip's key frames are marked on the timeline's All keys row.
    let keys = h.state().app.scene().unwrap().clips[0].key_frames(DEFAULT_FPS);
    assert!(!keys.is_empty());
    h.get_by_label(&format!("All keys: {} key frames", keys.len()));
    h.get_by_label_contains("TransformationRoot (root, 3 vertices, 2 faces, animated)");
}

/// An MVD for raylib_guy: object "guy pose" keys arm_L, leg_L and head (and "センター", which no joint
/// has) at ticks 0 and 30; object "camera" keys a camera at ticks 0 and 30.
fn guy_mvd() -> Vec<u8> {
    use rigscope::formats::mvd::write::{BoneFrame, CameraFrame, MvdDocument, Object, Section};
    let id = [0.0, 0.0, 0.0, 1.0];
    let turned = glam::Quat::from_rotation_x(1.2).to_array();
    let mut d = MvdDocument::new(rigscope::scene::MvdEncoding::Utf16Le);
    let mut m = Object::new("guy pose", 30.0);
    let names = ["arm_L", "leg_L", "head", "センター"];
    m.sections.push(Section::NameList(names.iter().enumerate().map(|(i, n)| (i as i32, n.to_string())).collect()));
    for key in 0..4 {
        let frames = vec![BoneFrame::new(0, [0.0; 3], id), BoneFrame::new(30, [0.0, 0.5, 0.0], turned)];
        m.sections.push(Section::Bone { minor: 2, key, stage_count: 1, parent_clip: -1, item_size: None, frames });
    }
    d.objects.push(m);
    let mut c = Object::new("camera", 30.0);
    c.sections.push(Section::NameList(vec![(0, "カメラ".into())]));
    let pi = std::f32::consts::PI;
    let frames = vec![
        CameraFrame::new(0, [0.0, 4.0, 0.0], 16.0, [0.2, pi, 0.0], 0.6),
        CameraFrame::new(30, [0.0, 4.0, 0.0], 20.0, [0.2, pi + 0.5, 0.0], 0.8),
    ];
    c.sections.push(Section::Camera { minor: 3, key: 0, stage_count: 1, item_size: None, frames });
    d.objects.push(c);
    d.to_bytes()
}

#[test]
fn an_mvd_alone_lists_objects_and_tracks_and_plots_a_selected_track() {
    let mut app = App::new();
    app.open_bytes("guy.mvd", &guy_mvd());
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let mut h = harness_with(app, true);
    h.run();
    h.get_by_label("MVD (1 file(s))");
    h.get_by_label_contains("guy.mvd: version 1, UTF-16LE, 2 object(s)");
    h.get_by_label_contains("Object \"guy pose\", 30 keys/s");
    h.get_by_label_contains("Object \"camera\", 30 keys/s");
    h.get_by_label("Sections (5)");
    h.get_by_label("  センター: 2 key(s)");
    h.get_by_label("  arm_L: 2 key(s)").click();
    h.run();
    let arm = h.state().app.scene().unwrap().skeleton.find("arm_L").unwrap();
    assert_eq!(h.state().app.curve(), Some(rigscope::app::CurveTarget::Joint(arm)));
    h.get_by_label("Curves: joint \"arm_L\"");
    // The timeline scrubs it: a clip without geometry still poses its skeleton.
    timeline(&h).set_value_accesskit(15.0);
    h.run();
    assert!((frame(&h) - 15.0).abs() < 1e-3);
    let y = h.state().app.pose().world[arm].w_axis.y;
    assert!((y - 0.25).abs() < 1e-3, "half-way up: {y}");
    // Below the arm's curves in the Scene tab.
    h.get_by_label("  カメラ: 2 key(s)").scroll_to_me();
    h.run();
    h.get_by_label("  カメラ: 2 key(s)").click();
    h.run();
    h.get_by_label("Curves: camera \"カメラ\"");
    // The camera exists: follow it from the Display tab.
    assert!(!h.state().app.overlays().camera_path.is_empty(), "the path overlay is on by default");
    click_tab(&mut h, "Display");
    h.get_by_label("Follow MVD camera").click();
    h.run();
    assert!(h.state().app.follow_camera());
    assert!(h.state().app.overlays().camera_path.is_empty(), "a followed camera's path isn't drawn");
}

#[test]
fn an_mvd_lists_its_light_project_accessory_and_effect_keys() {
    let mut app = App::new();
    let doc = rigscope::formats::mvd::write::sample_document(rigscope::scene::MvdEncoding::Utf8);
    app.open_bytes("all.mvd", &doc.to_bytes());
    let mut h = harness_with(app, true);
    h.run();
    for header in ["Light (2 keys)", "Accessory (2 keys)", "Effect (1 key)", "Project (2 keys)"] {
        h.get_by_label(header).click();
        h.run();
    }
    h.get_by_label("tick 0: direction (-0.5, -1, 0.5), colour (154, 154, 154), on");
    h.get_by_label("The accessory itself (an .x file) is not loaded");
    h.get_by_label("tick 0: hidden, add-blend, scale 1, opacity 0.25");
    h.get_by_label_contains("Parameters: param (float), 色 (float3), on (bool), 回数 (int)");
    h.get_by_label_contains("param = 0.5, 色 = (1, 0.5, 0.25), on = true, 回数 = -3");
    h.get_by_label_contains("tick 15: gravity 1.96 along (1, 0, 0) = (196, 0, 0) units/s²");
}

#[test]
fn attaching_an_mvd_shows_matches_and_converts_axes() {
    let mut app = opened(&corpus("raylib_guy.iqm"));
    app.open_bytes("guy.mvd", &guy_mvd());
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    assert!(!app.follow_camera());
    let mut h = harness_with(app, true);
    h.run();
    // The Files section lists it with its counts; Report opens the name-matching report.
    h.get_by_label("MVD motion and camera");
    h.get_by_label("3 matched by name, 11 unmatched, 1 unused");
    h.get_by_label("Report").click();
    h.run();
    h.get_by_label("Name matching: guy.mvd");
    h.get_by_label("arm_L");
    h.get_by_label("センター");
    h.get_by_label("Cameras: カメラ");
    h.state_mut().app.apply(rigscope::app::Action::ShowAttachReport(None));
    h.run();
    assert!(h.query_by_label("Name matching: guy.mvd").is_none());
    // The MVD section lists the attached file too.
    h.get_by_label("MVD (1 file(s))");
    // Axis conversion: the posed arm moves.
    let clip = h.state().app.scene().unwrap().clips.iter().position(|c| c.name == "guy pose").unwrap();
    h.state_mut().app.apply(rigscope::app::Action::SelectClip(clip));
    h.state_mut().app.apply(rigscope::app::Action::SetFrame(30.0));
    h.run();
    let arm = h.state().app.scene().unwrap().skeleton.find("arm_L").unwrap();
    let before = h.state().app.pose().world[arm];
    h.get_by_label("MMD axis conversion").click();
    h.run();
    assert!(h.state().app.mmd_axes());
    let after = h.state().app.pose().world[arm];
    assert!(!before.abs_diff_eq(after, 1e-3), "the conversion changes the pose");
    h.get_by_label("MMD axis conversion").click();
    h.run();
    assert!(h.state().app.pose().world[arm].abs_diff_eq(before, 1e-4), "and turning it off restores it");
    // View > Follow MVD camera.
    click_tab(&mut h, "Display");
    h.get_by_label("View").click();
    h.run();
    // The menu's checkbox and the Display tab's.
    assert_eq!(h.get_all_by_label("Follow MVD camera").count(), 2);
    h.get_all_by_label("Follow MVD camera").next().unwrap().click();
    h.run();
    assert!(h.state().app.follow_camera());
}

#[test]
fn problems_list_check_findings_by_severity_and_jump_to_them() {
    use rigscope::formats::iqm::write::Bounds;
    let mut doc = rigscope::synth::document(rigscope::synth::SynthSpec { vertices: 600, joints: 4, frames: 3 });
    doc.bounds = Some(vec![Bounds { min: [0.0; 3], max: [0.1; 3], xy_radius: 0.1, radius: 0.1 }; 3]);
    doc.joints[2].rotate = [0.0, 0.0, 0.6, 0.8];
    let mut app = App::new();
    app.open_bytes("findings.iqm", &doc.to_bytes());
    let mut h = harness(app);
    h.run();
    let rules: Vec<&str> = h.state().app.findings().iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, ["iqm.joint.quat.sign", "iqm.bounds.miss", "iqm.bounds.miss", "iqm.bounds.miss"]);
    click_tab(&mut h, "Problems (4)");
    h.get_by_label("Warning findings (4)");
    // A bounds miss jumps to its frame, paused; a joint finding selects the joint.
    h.get_by_label_contains("[iqm.bounds.miss] animation 0 frame 2:").click();
    h.run();
    assert_eq!(h.state().app.current_clip_frame(), Some((0, 2.0)));
    h.get_by_label_contains("[iqm.joint.quat.sign]").click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(2));
    // A clean file with its texture beside it has none.
    h.state_mut().app.open_path(&rsm("box_error_01.rsm"));
    h.run();
    assert!(h.state().app.findings().is_empty(), "{:?}", h.state().app.findings());
    h.get_by_role_and_label(egui::accesskit::Role::Tab, "Problems (0)");
}

/// A model deep in a long path keeps the panels at their width (the name is cut, its whole path on hover): the
/// view doesn't shrink or move with where the file happens to live.
#[test]
fn a_long_path_does_not_widen_the_panels() {
    let deep = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/ui-tests")
        .join("a-folder-whose-name-is-as-long-as-the-ones-exporters-and-build-farms-like-to-make")
        .join("and-another-one-below-it-for-good-measure");
    std::fs::create_dir_all(&deep).unwrap();
    let model = deep.join("unv_medistat_with_a_long_file_name_too.iqe");
    std::fs::copy(corpus("unv_medistat.iqe"), &model).unwrap();
    let view_width = |path: &std::path::Path| {
        let mut h = harness(opened(path));
        h.run();
        h.state().app.view_rect().expect("the panels leave a view").width()
    };
    let (short, long) = (view_width(&corpus("unv_medistat.iqe")), view_width(&model));
    assert!((short - long).abs() < 1.0, "the view is {short} wide beside a short path, {long} beside a long one");
}

/// Files dropped on the window preview moving (issue 39). The window opens each dropped file with
/// `App::open_path` (`WindowEvent::DroppedFile`), files given together in `open_order`: the corpus character
/// and its dance dropped together play the dance from frame 0, and time moves; a model without clips stays
/// still; with "Play on open" off a drop opens paused, and the setting is remembered.
#[test]
fn a_drop_with_a_motion_plays_it_and_a_model_without_clips_stays_still() {
    let (model, motion) = (mmd("miku/miku_v2.pmd"), mmd("vmds/wavefile_v2.vmd"));
    let names = [motion.display().to_string(), model.display().to_string()];
    let order = rigscope::app::open_order(&names);
    assert_eq!(order[0], model.display().to_string(), "the model opens before the motion");
    // Japanese names draw as boxes here (tests/ui_mmd.rs checks them with a CJK font).
    let mut h = harness_with(App::new(), true);
    for name in &order {
        h.state_mut().app.open_path(std::path::Path::new(name));
    }
    h.run();
    let app = &mut h.state_mut().app;
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    assert_eq!(app.current_clip_frame(), Some((0, 0.0)), "the dance is shown from its first frame");
    assert!(app.player().playing, "a drop with a motion plays it");
    let before = app.pose().world.clone();
    assert!(app.update(1.0), "playing: time moves");
    let (_, f) = app.current_clip_frame().unwrap();
    assert!((f - 30.0).abs() < 1e-3, "a second of a 30 fps motion: frame {f}");
    h.run();
    assert_ne!(h.state().app.pose().world, before, "the character moves");

    // A model without clips: nothing to play.
    h.state_mut().app.open_path(&corpus("redeclipse_rifle.iqm"));
    h.run();
    let app = &mut h.state_mut().app;
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    assert_eq!(app.current_clip_frame(), None);
    assert!(!app.player().playing, "a model without clips stays paused");

    // The setting off (its checkbox in the Files section): a drop opens paused, and the setting is remembered.
    h.get_by_label("Play on open").click();
    h.run();
    assert!(!h.state().app.settings().play_on_open);
    h.state_mut().app.open_path(&corpus("raylib_guy.iqm"));
    h.run();
    let app = &mut h.state_mut().app;
    assert_eq!(app.current_clip_frame(), Some((0, 0.0)), "a model with clips shows its first");
    assert!(!app.player().playing, "Play on open off: it opens paused");
    assert!(!app.update(1.0));
}

/// The frames at which the VMD at `path` keys bone `name`, read from its bytes here (header 30 + 20 bytes, a
/// u32 count, then 111-byte bone keys: a 15-byte Shift_JIS name, a u32 frame, position, rotation, curves), not
/// through the reader the app uses.
fn vmd_bone_key_frames(path: &std::path::Path, name: &str) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    let count = u32::from_le_bytes(bytes[50..54].try_into().unwrap()) as usize;
    let mut wanted = rigscope::formats::vmd::write::encode(name);
    wanted.resize(15, 0);
    let mut frames: Vec<f32> = (0..count)
        .map(|i| &bytes[54 + 111 * i..54 + 111 * (i + 1)])
        .filter(|k| k[..15].split(|&b| b == 0).next() == wanted.split(|&b| b == 0).next())
        .map(|k| u32::from_le_bytes(k[15..19].try_into().unwrap()) as f32)
        .collect();
    frames.sort_by(f32::total_cmp);
    frames.dedup();
    frames
}

/// Ctrl+→ and Ctrl+← walk the selected joint's keys (issue 36): the frames landed on are the dance's own keys
/// of that bone, in order, from its first to its last, and back; with no joint selected they walk every key of
/// the clip; the timeline's buttons do the same.
#[test]
fn ctrl_arrows_land_on_the_selected_joints_keys() {
    let (model, motion) = (mmd("miku/miku_v2.pmd"), mmd("vmds/wavefile_v2.vmd"));
    let mut app = App::new();
    app.apply_settings(&Settings { play_on_open: false, ..Settings::default() });
    app.open_path(&model);
    app.open_path(&motion);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let wrist = app.scene().unwrap().skeleton.find("左手首").expect("the model's left wrist");
    app.apply(rigscope::app::Action::SelectJoint(Some(wrist)));
    let keys = vmd_bone_key_frames(&motion, "左手首");
    assert!(keys.len() > 20, "{keys:?}");
    let mut h = harness_with(app, true);
    h.run();
    assert_eq!(frame(&h), 0.0);
    // Frame 0 is a key: the first press goes to the second.
    let mut landed = Vec::new();
    for _ in 1..keys.len() {
        h.key_press_modifiers(egui::Modifiers::COMMAND, Key::ArrowRight);
        h.run();
        landed.push(frame(&h));
    }
    // The player keeps seconds: a frame comes back within 1e-3 of whole (the player's own frame snap).
    let same = |a: &[f32], b: &[f32]| a.len() == b.len() && a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-3);
    assert!(same(&landed, &keys[1..]), "every key of the wrist, in order: {landed:?} against {keys:?}");
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::ArrowRight);
    h.run();
    assert!(same(&[frame(&h)], &keys[keys.len() - 1..]), "no key after the last: it stays");
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::ArrowLeft);
    h.run();
    assert!(same(&[frame(&h)], &[keys[keys.len() - 2]]));
    assert!(!h.state().app.player().playing);
    // From between two keys, the buttons go to the nearer ones on either side.
    h.state_mut().app.apply(rigscope::app::Action::SetFrame(keys[5] + 0.5));
    h.get_by_label("Next key").click();
    h.run();
    assert!(same(&[frame(&h)], &[keys[6]]));
    h.get_by_label("Previous key").click();
    h.run();
    h.get_by_label("Previous key").click();
    h.run();
    assert!(same(&[frame(&h)], &[keys[4]]));
    // No joint selected: every key of the clip, as the key strip shows them.
    h.state_mut().app.apply(rigscope::app::Action::SelectJoint(None));
    h.state_mut().app.apply(rigscope::app::Action::SetFrame(0.0));
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::ArrowRight);
    h.run();
    let all = h.state().app.scene().unwrap().clips[0].key_frames(DEFAULT_FPS);
    assert!(same(&[frame(&h)], &all[1..2]));
    assert!(all[1] <= keys[1]);
    // Shift+→: ten frames on.
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::ArrowRight);
    h.run();
    assert!(same(&[frame(&h)], &[all[1] + 10.0]));
}

/// A physics finding names its rigid body ("rigid body 3") and the Problems entry selects that body with its
/// bone, as a click in the Physics tab would.
#[test]
fn a_rigid_body_problem_selects_its_body() {
    let mut doc = rigscope::physics::fixtures::chain3();
    doc.rigid_bodies[3].mass = 0.0;
    let mut app = App::new();
    app.open_bytes("massless.pmx", &doc.to_bytes());
    let mut h = harness_with(app, true);
    h.run();
    let finding = h.state().app.findings().iter().find(|f| f.rule == "mmd.body.mass").cloned().expect("found");
    assert_eq!(finding.place.body, Some(3), "{finding:?}");
    let n = h.state().app.findings().len();
    click_tab(&mut h, &format!("Problems ({n})"));
    h.get_by_label_contains("[mmd.body.mass]").click();
    h.run();
    let d = h.state().app.document().unwrap();
    assert_eq!(d.selected_body(), Some(3), "the body is selected");
    let bone = doc.rigid_bodies[3].bone.expect("the fixture's body rides a bone");
    let joint = d.scene().mmd.as_ref().unwrap().bones[bone].joint;
    assert_eq!(h.state().app.selected_joint(), Some(joint), "with its bone");
}

/// A model with SDEF vertices offers the linear skinning switch in the Display tab (a model without them
/// doesn't), and Shift+K turns it on for the renderer.
#[test]
fn the_linear_skinning_switch_shows_for_sdef_models_and_has_a_key() {
    let arm = rigscope::synth::arm::arm_document(rigscope::synth::arm::ArmBlend::Spherical);
    let mut app = App::new();
    app.open_bytes("arm.pmx", &arm.to_bytes());
    let mut h = harness_with(app, true);
    h.run();
    assert!(h.state().app.scene().unwrap().vertices.blend.is_some(), "{:?}", h.state().app.problems());
    click_tab(&mut h, "Display");
    let label = "Linear skinning (no SDEF, QDEF)";
    assert!(!h.state().app.overlays().linear_skinning);
    h.get_all_by_label(label).next().expect("the switch");
    h.key_press_modifiers(egui::Modifiers::SHIFT, Key::K);
    h.run();
    assert!(h.state().app.overlays().linear_skinning, "Shift+K");
    h.state_mut().app.open_path(&demo());
    h.run();
    assert!(h.query_by_label(label).is_none(), "the demo blends linearly anyway");
}

/// A MikuMikuDance dance dropped on a VRM avatar goes through its humanoid, and the Files section says so: the
/// avatar's 51 humanoid bones the proxy has matched, upperChest (no MMD bone) unmatched.
#[test]
fn a_dance_on_a_vrm_avatar_says_it_went_through_the_humanoid() {
    let mut app = opened(&common::corpus("vrm/EmissionMigration_v0.107.0.vrm"));
    app.open_path(&common::corpus("mmd/threejs/vmds/wavefile_v2.vmd"));
    let mut h = harness_with(app, true);
    h.run();
    h.get_by_label_contains("51 matched through the humanoid, 1 unmatched");
    h.get_by_label_contains("51 joint(s) matched through the humanoid, 1 unmatched");
    h.get_by_label("Report").click();
    h.run();
    h.get_by_label("51 joint(s) of 52 matched through the humanoid");
}
