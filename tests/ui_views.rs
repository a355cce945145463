//! The debug views' switches in the sidebar, through egui_kittest (no GPU): what they turn on in the
//! renderer's `Overlays`, the bind pose, the onion skin's ghosts and the joint-name labels.

use std::path::PathBuf;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Mat4;
use glam::Vec3;
use rigscope::anim::{Pose, skin_positions};
use rigscope::app::{App, project_to_view};
use rigscope::render::Camera;

mod common;
use common::click_tab;

fn demo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo.iqm"))
}

/// The demo, with the Inspector's Display tab (the view switches) shown.
fn harness() -> Harness<'static, App> {
    harness_of(&demo())
}

/// `path` opened, with the Inspector's Display tab shown.
fn harness_of(path: &std::path::Path) -> Harness<'static, App> {
    let mut app = App::new();
    app.open_path(path);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let mut h = Harness::builder().with_size([1400.0, 2400.0]).build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    );
    h.run();
    click_tab(&mut h, "Display");
    h
}

/// Model space to clip space for the app's view rect, as the window computes it.
fn view_projection(app: &App) -> Mat4 {
    let scene = app.scene().unwrap();
    let bounds = rigscope::render::animation_bounds(scene, Some(0), 30.0, &[], 16).unwrap();
    let aspect = app.view_rect().unwrap().aspect_ratio();
    let camera = Camera::framing(scene.up, &bounds, 0.3, 0.2, aspect);
    camera.view_proj(aspect) * camera.model_matrix()
}

#[test]
fn debug_view_switches_reach_the_overlays() {
    let mut h = harness();
    let o = h.state().overlays();
    assert!(!o.weights && !o.normals && !o.tangents && !o.uv_checker && o.ghosts.is_empty());
    for label in
        ["Weights of the selected joint", "Normals (magenta; flipped: yellow)", "Tangents (light blue)", "UV checker"]
    {
        h.get_by_label(label).click();
    }
    h.run();
    let o = h.state().overlays();
    assert!(o.weights && o.normals && o.tangents && o.uv_checker);
    // The axes are on by default; they follow the switch.
    assert!(o.joint_axes);
    h.get_by_label("Axes of the selected joint").click();
    h.run();
    assert!(!h.state().overlays().joint_axes);
}

#[test]
fn the_bind_pose_switch_recomputes_the_pose() {
    let mut h = harness();
    let bind = Pose::bind(&h.state().scene().unwrap().skeleton);
    let animated = h.state().pose().world.clone();
    assert_ne!(animated, bind.world, "idle frame 0 is not the bind pose");
    h.get_by_label("Bind pose").click();
    h.run();
    assert_eq!(h.state().pose().world, bind.world);
    h.get_by_label("Bind pose").click();
    h.run();
    assert_eq!(h.state().pose().world, animated);
}

#[test]
fn onion_skin_ghosts_follow_the_frame_count_slider() {
    let mut h = harness();
    h.get_by_label("Onion skin").click();
    h.run();
    // Two frames each side by default; "idle" loops, so frame 0 has ghosts on both sides.
    let ghosts = h.state().overlays().ghosts;
    assert_eq!(ghosts.len(), 4);
    let (scene, frame) = (h.state().scene().unwrap(), 47.0);
    let previous = Pose::sample(&scene.skeleton, &scene.clips[0], frame, rigscope::scene::DEFAULT_FPS);
    assert_eq!(ghosts[0].palette, previous.palette, "the first ghost is the frame before, wrapped");
    assert!(ghosts[0].color[0] > ghosts[0].color[1] && ghosts[1].color[1] > ghosts[1].color[0]);
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Onion frames").set_value_accesskit(5.0);
    h.run();
    assert_eq!(h.state().overlays().ghosts.len(), 10);
}

#[test]
fn joint_names_are_labelled_in_the_view_and_not_behind_the_camera() {
    let mut h = harness();
    h.run();
    let count = |h: &Harness<'_, App>| h.query_all_by_label("elbow_l").count();
    assert_eq!(count(&h), 0);
    h.get_by_label("Joint names").click();
    h.run();
    // No projection yet (no view drawn): no labels.
    assert_eq!(count(&h), 0);
    let m = view_projection(h.state());
    h.state_mut().set_view_projection(Some(m));
    h.run();
    assert_eq!(count(&h), 1);
    // Every joint in front of the camera has one, where the projection puts it.
    let rect = h.state().view_rect().unwrap();
    let world = h.state().pose().world.clone();
    let names: Vec<String> = h.state().scene().unwrap().skeleton.joints.iter().map(|j| j.name.clone()).collect();
    for (name, w) in names.iter().zip(&world) {
        let at = project_to_view(m, rect, w.w_axis.truncate()).expect("the framed model is in view");
        let node = h.get_by_label(name);
        let r = node.rect();
        assert!((r.left() - at.x - 4.0).abs() < 3.0 && r.bottom() <= at.y + 1.0, "{name}: {r:?} at {at:?}");
    }
    // Everything behind the camera (w < 0): no labels.
    h.state_mut().set_view_projection(Some(Mat4::from_diagonal(glam::Vec4::splat(-1.0)) * m));
    h.run();
    assert_eq!(count(&h), 0);
}

/// The axis gizmo in the view's corner: clicking the demo's Z (its up axis) asks the window for the top view,
/// and its −Y end (the model's front) for the front view; the frame and time are written in the other corner.
#[test]
fn the_axis_gizmo_snaps_the_view_and_the_frame_is_shown() {
    struct State {
        app: App,
        intents: Vec<rigscope::app::Intent>,
    }
    let mut app = App::new();
    app.open_path(&demo());
    let mut h = Harness::builder().with_size([1400.0, 900.0]).build_ui_state(
        |ui, s: &mut State| {
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        State { app, intents: Vec::new() },
    );
    h.run();
    let to_clip = view_projection(&h.state().app);
    h.state_mut().app.set_view_projection(Some(to_clip));
    h.run();
    let rect = h.state().app.view_rect().unwrap();
    let ends = rigscope::app::gizmo_ends(rect, to_clip).unwrap();
    let end = |axis: usize, positive: bool| ends.iter().find(|e| e.0 == axis && e.1 == positive).unwrap().2;
    for ((axis, positive), want) in [((2, true), (0, 89)), ((1, false), (0, 0))] {
        h.state_mut().intents.clear();
        let at = end(axis, positive);
        h.hover_at(at);
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed: true,
            modifiers: Default::default(),
        });
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed: false,
            modifiers: Default::default(),
        });
        h.run();
        let (yaw, pitch) = want;
        assert!(
            h.state().intents.contains(&rigscope::app::Intent::SnapView { yaw, pitch }),
            "axis {axis} {positive}: {:?}",
            h.state().intents
        );
    }
    assert_eq!(rigscope::app::snap(rigscope::scene::UpAxis::Z, 0, true), (90, 0));
}

/// Gives the app the view's projection (as the window does each frame) and returns the view rect and where the
/// posed model's centre (the mean of its skinned vertices, on the demo's body) lies in it.
fn view_with_model_centre(h: &mut Harness<'static, App>) -> (egui::Rect, egui::Pos2) {
    h.run();
    let to_clip = view_projection(h.state());
    h.state_mut().set_view_projection(Some(to_clip));
    let rect = h.state().view_rect().unwrap();
    let scene = h.state().scene().unwrap();
    let skinned = skin_positions(&scene.vertices, &h.state().pose().palette);
    let centre = skinned.iter().fold(Vec3::ZERO, |a, p| a + *p) / skinned.len() as f32;
    (rect, project_to_view(to_clip, rect, centre).expect("the model's centre is in view"))
}

/// A click in the view picks what lies under it (`App::pick_at`, as the window calls it): the Picked section
/// names the vertex and its joints, marks it in the view, and its button selects the joint that weighs most; a
/// click on the background clears it.
#[test]
fn a_click_in_the_view_picks_a_vertex_and_can_select_its_joint() {
    let mut h = harness();
    let (rect, at) = view_with_model_centre(&mut h);
    let scene = h.state().scene().unwrap().clone();
    h.state_mut().pick_at(at);
    h.run();
    let picked = h.state().picked().cloned().expect("the body is under the model's centre");
    click_tab(&mut h, "Selection");
    assert!(h.state().overlays().marker.is_some(), "the vertex is marked");
    let (joint, _) = picked.joints.first().cloned().expect("a skinned vertex has joints");
    assert!(h.query_by_label(&format!("{joint}: {:.1}%", picked.joints[0].1 * 100.0)).is_some());
    h.get_by_label(&format!("Select {joint}")).click();
    h.run();
    let selected = h.state().selected_joint().unwrap();
    assert_eq!(scene.skeleton.display_name(selected), joint);
    // The background: nothing.
    h.state_mut().pick_at(rect.min + egui::vec2(2.0, 2.0));
    h.run();
    assert!(h.state().picked().is_none() && h.state().overlays().marker.is_none());
}

/// With the skeleton drawn, a click on a bone selects its joint (before any mesh under it).
#[test]
fn a_click_on_a_drawn_bone_selects_its_joint() {
    let mut h = harness();
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Skeleton").click();
    h.run();
    let to_clip = view_projection(h.state());
    h.state_mut().set_view_projection(Some(to_clip));
    let rect = h.state().view_rect().unwrap();
    let scene = h.state().scene().unwrap().clone();
    let world = h.state().pose().world.clone();
    // The middle of the longest bone on screen: the one a click there must mean.
    let at = |j: usize| project_to_view(to_clip, rect, world[j].w_axis.truncate());
    let (joint, mid) = scene
        .skeleton
        .joints
        .iter()
        .enumerate()
        .filter_map(|(j, jt)| Some((j, at(jt.parent?)?, at(j)?)))
        .max_by(|a, b| a.1.distance(a.2).total_cmp(&b.1.distance(b.2)))
        .map(|(j, a, b)| (j, a + (b - a) * 0.5))
        .unwrap();
    h.state_mut().pick_at(mid);
    h.run();
    assert_eq!(h.state().selected_joint(), Some(joint), "{}", scene.skeleton.display_name(joint));
    assert!(h.state().picked().is_none(), "a bone click is not a mesh pick");
}

/// Hovering: the pointer resting on the model reports the vertex under it (the same pick as a click, not
/// pinned); off the view, nothing.
#[test]
fn hovering_over_the_model_reports_what_lies_under_the_pointer() {
    let mut h = harness();
    let (_, at) = view_with_model_centre(&mut h);
    h.state_mut().hover_at(Some(at));
    let (where_, hovered) = h.state().hovered().map(|(p, v)| (p, v.clone())).expect("the body is under the pointer");
    assert_eq!(where_, at);
    h.state_mut().pick_at(at);
    assert_eq!(h.state().picked(), Some(&hovered), "hover and click name the same vertex");
    h.state_mut().hover_at(None);
    assert!(h.state().hovered().is_none());
    h.run();
}

/// Over a model too large to pick on every pointer move (more than 300 000 vertices), hover waits until the
/// pointer has rested in one place, says when the window should look again, and then reports the vertex.
#[test]
fn hovering_over_a_large_model_picks_once_the_pointer_rests() {
    let dir = std::env::temp_dir().join(format!("rigscope-hover-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("large.iqm");
    let spec = rigscope::synth::SynthSpec { vertices: 320_000, joints: 6, frames: 4 };
    std::fs::write(&file, rigscope::synth::document(spec).to_bytes()).unwrap();
    let mut app = App::new();
    app.open_path(&file);
    let mut h = Harness::builder().with_size([1400.0, 1000.0]).build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    );
    let (_, at) = view_with_model_centre(&mut h);
    h.state_mut().hover_at(Some(at));
    assert!(h.state().hovered().is_none(), "no pick while the pointer may still be moving");
    let wait = h.state().hover_pending().expect("a pick is due");
    assert!(wait <= std::time::Duration::from_millis(200));
    // The pointer moves on: the wait starts again there.
    let elsewhere = at + egui::vec2(3.0, 0.0);
    h.state_mut().hover_at(Some(elsewhere));
    std::thread::sleep(std::time::Duration::from_millis(220));
    h.state_mut().hover_at(Some(elsewhere));
    assert!(h.state().hovered().is_some(), "rested: the vertex under the pointer");
    assert!(h.state().hover_pending().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The world direction a VRM 1.0 eye joint looks along (its rest +Z, the face front, carried by its turn).
fn gaze(pose: &Pose, rest: &Pose, eye: usize) -> Vec3 {
    let turn = glam::Quat::from_mat4(&pose.world[eye]) * glam::Quat::from_mat4(&rest.world[eye]).inverse();
    (turn * Vec3::Z).normalize()
}

/// "Eyes follow the camera" (Display tab, Shift+E), shown for a model with a VRM look-at: on, the avatar's eyes
/// (a bone look-at) turn toward the camera's side, and to the other side when the camera goes round; off, they
/// are back at rest.
#[test]
fn a_vrm_avatars_eyes_follow_the_camera_when_asked() {
    let dir = common::Scratch::new("ui-eyes");
    let path = dir.join("eyes.vrm");
    std::fs::write(&path, common::vrm_eyes_fixture()).unwrap();
    let mut h = harness_of(&path);
    let scene = h.state().scene().unwrap().clone();
    let vrm = scene.vrm.as_ref().unwrap();
    let eye = vrm.bone("leftEye").unwrap();
    let rest = h.state().pose().clone();
    let head = rest.world[vrm.bone("head").unwrap()].w_axis.truncate();
    // The view's camera framing the avatar from `yaw` radians round; returns where it stands (x: the avatar's
    // left, which it faces +Z with).
    let bounds = rigscope::render::pose_bounds(&scene, &rest).unwrap();
    let look_from = |h: &mut Harness<'static, App>, yaw: f32| {
        let camera = Camera::framing(scene.up, &bounds, yaw, 0.0, 1.5);
        let to_clip = camera.view_proj(1.5) * camera.model_matrix();
        h.state_mut().set_view_projection(Some(to_clip));
        h.run();
        let e = to_clip.inverse() * glam::Vec4::new(0.0, 0.0, 1.0, 0.0);
        e.truncate() / e.w
    };
    let one_side = look_from(&mut h, 0.7);
    assert_eq!(h.state().pose().world[eye], rest.world[eye], "off by default: the eyes keep their rest");
    h.get_by_label("Eyes follow the camera").click();
    h.run();
    let first = gaze(h.state().pose(), &rest, eye);
    let side = (one_side.x - head.x).signum();
    assert!(first.x * side > 0.1, "the eyes turn toward the camera at {one_side} (head at {head}): {first}");
    let other_side = look_from(&mut h, -0.7);
    assert!((other_side.x - head.x) * side < 0.0, "the camera went round: {other_side}");
    let then = gaze(h.state().pose(), &rest, eye);
    assert!(then.x * side < -0.05, "the eyes follow it round: {then}");
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::E);
    h.run();
    assert_eq!(h.state().pose().world[eye], rest.world[eye], "Shift+E turns it off: the eyes at rest");
}

/// MToon's scrolling textures run on their own clock when no clip is shown (the corpus's UV animation sample
/// has none): the app animates, and the view draws its materials at the seconds that have run; a model with a
/// clip draws them at the clip's time, and one with neither stays idle.
#[test]
fn scrolling_textures_run_on_their_own_clock_without_a_clip() {
    let mut app = App::new();
    app.open_path(&common::corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"));
    assert!(app.current_clip_frame().is_none(), "the sample has no clip");
    assert_eq!(app.surface_time(), 0.0);
    assert!(app.update(0.25) && app.update(0.5), "scrolling textures keep the view drawing");
    assert_eq!(app.surface_time(), 0.75);
    let mut still = App::new();
    still.open_path(&common::corpus("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm"));
    assert!(!still.update(0.25), "nothing scrolls, nothing plays: idle");
    let mut shown = App::new();
    shown.open_path(&demo());
    shown.update(0.4);
    assert!(shown.clip_time() > 0.0, "the demo plays on open");
    assert_eq!(shown.surface_time(), shown.clip_time(), "with a clip, its time");
}
