//! The window's layout (issue 35), driven through egui_kittest on the real PMD character: the Outliner's tabs
//! and their filters (rows that remain, ancestors kept, quick filters), one selection shared by the Outliner,
//! the Inspector, the view and the timeline, with Back, Forward and Pin; a display frame selecting its bones;
//! the Physics tab's bodies under their bones; the status line; Ctrl+F and the command palette (Ctrl+K).

use std::collections::BTreeSet;
use std::path::PathBuf;

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rigscope::app::{Action, App, Intent};
use rigscope::scene::Scene;

mod common;

fn mmd(rel: &str) -> PathBuf {
    common::corpus(&format!("mmd/threejs/{rel}"))
}

struct State {
    app: App,
    intents: Vec<Intent>,
}

fn harness(app: App) -> Harness<'static, State> {
    // MMD names are Japanese: boxes for glyphs the default fonts lack, as the window draws them.
    let mut h = Harness::builder().with_size([1400.0, 1600.0]).allow_missing_glyphs().build_ui_state(
        |ui, s: &mut State| {
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        State { app, intents: Vec::new() },
    );
    h.run();
    h
}

fn miku() -> App {
    let mut app = App::new();
    app.open_path(&mmd("miku/miku_v2.pmd"));
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    app
}

fn miku_dancing() -> App {
    let mut app = miku();
    app.open_path(&mmd("vmds/wavefile_v2.vmd"));
    app
}

fn tab(h: &mut Harness<'_, State>, name: &str) {
    h.get_by_role_and_label(Role::Tab, name).click();
    h.run();
}

fn filter(h: &mut Harness<'_, State>, text: &str) {
    let field = h.get_by_role_and_label(Role::TextInput, "Filter");
    field.focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Filter").type_text(text);
    h.run();
}

/// A joint's row as the Skeleton tab labels it: its name and index, and its English name when it has one.
fn row(scene: &Scene, j: usize) -> String {
    let name = scene.skeleton.display_name(j);
    let en = scene.mmd.as_ref().and_then(|m| m.bones.iter().find(|b| b.joint == j)).map(|b| b.name_en.clone());
    match en.filter(|e| !e.is_empty() && *e != name) {
        Some(en) => format!("{name} #{j} ({en})"),
        None => format!("{name} #{j}"),
    }
}

/// The joints `hit` with every ancestor.
fn with_ancestors(scene: &Scene, hit: &[usize]) -> BTreeSet<usize> {
    let mut keep = BTreeSet::new();
    for &j in hit {
        let mut at = Some(j);
        while let Some(k) = at {
            keep.insert(k);
            at = scene.skeleton.joints[k].parent;
        }
    }
    keep
}

/// The joint rows the Skeleton tab shows, by index.
fn shown_rows(h: &Harness<'_, State>, scene: &Scene) -> BTreeSet<usize> {
    (0..scene.skeleton.len()).filter(|&j| h.query_by_label(&row(scene, j)).is_some()).collect()
}

#[test]
fn the_skeleton_filter_keeps_the_matches_and_their_ancestors() {
    let mut h = harness(miku());
    tab(&mut h, "Skeleton");
    let scene = h.state().app.scene().unwrap().clone();
    assert_eq!(scene.skeleton.len(), 140);
    filter(&mut h, "腕");
    let hit: Vec<usize> = (0..140).filter(|&j| scene.skeleton.display_name(j).contains('腕')).collect();
    assert!(hit.len() >= 4, "left and right arm and their twist bones: {hit:?}");
    let expected = with_ancestors(&scene, &hit);
    assert!(expected.len() > hit.len(), "the arms have ancestors that don't match");
    assert_eq!(shown_rows(&h, &scene), expected);
    h.get_by_label(&format!("{} of 140 joints match", hit.len()));
    // A second word narrows: both must match (and Japanese "左" is left).
    filter(&mut h, " 左");
    let left: Vec<usize> = hit.iter().copied().filter(|&j| scene.skeleton.display_name(j).contains('左')).collect();
    assert!(!left.is_empty() && left.len() < hit.len());
    assert_eq!(shown_rows(&h, &scene), with_ancestors(&scene, &left));
    // Escape in the field clears it: no filter, every joint counted again.
    h.key_press(Key::Escape);
    h.run();
    h.get_by_label("140 joints");
}

#[test]
fn an_index_finds_one_joint_and_the_quick_filters_narrow() {
    let mut h = harness(miku_dancing());
    tab(&mut h, "Skeleton");
    let scene = h.state().app.scene().unwrap().clone();
    filter(&mut h, "#57");
    let only = with_ancestors(&scene, &[57]);
    assert_eq!(shown_rows(&h, &scene), only);
    h.get_by_role_and_label(Role::TextInput, "Filter").focus();
    h.key_press(Key::Escape);
    h.run();
    // IK: the chains' goals, targets and links.
    h.get_by_role_and_label(Role::Button, "IK").click();
    h.run();
    let mut ik = BTreeSet::new();
    for c in &scene.constraints.ik {
        ik.insert(c.joint);
        ik.insert(c.target);
        ik.extend(c.links.iter().map(|l| l.joint));
    }
    h.get_by_label(&format!("{} of 140 joints match", ik.len()));
    let ik: Vec<usize> = ik.into_iter().collect();
    assert_eq!(shown_rows(&h, &scene), with_ancestors(&scene, &ik));
    // Keyed alone: the joints the dance moves (it keys all 140 at frame 0; most never move), and their ancestors.
    h.get_by_role_and_label(Role::Button, "IK").click();
    h.get_by_role_and_label(Role::Button, "Keyed").click();
    h.run();
    let clip = &scene.clips[h.state().app.current_clip_frame().unwrap().0];
    let rigscope::scene::ClipData::Keyed { tracks } = &clip.data else { panic!("a VMD is keyed") };
    let keyed: Vec<usize> = tracks
        .iter()
        .filter(|t| {
            let turns = t.rotation.iter().any(|k| k.value.dot(t.rotation[0].value).abs() < 1.0 - 1e-6);
            let moves = t.translation.iter().any(|k| !k.value.abs_diff_eq(t.translation[0].value, 1e-6));
            turns || moves
        })
        .map(|t| t.joint)
        .collect::<BTreeSet<usize>>()
        .into_iter()
        .collect();
    assert!(!keyed.is_empty() && keyed.len() < 140, "{}", keyed.len());
    h.get_by_label(&format!("{} of 140 joints match", keyed.len()));
    assert_eq!(shown_rows(&h, &scene), with_ancestors(&scene, &keyed));
}

#[test]
fn one_selection_is_shared_by_the_outliner_inspector_view_and_timeline() {
    let mut h = harness(miku_dancing());
    tab(&mut h, "Skeleton");
    let scene = h.state().app.scene().unwrap().clone();
    let arm = scene.skeleton.find("左腕").unwrap();
    filter(&mut h, "左腕");
    h.get_by_label(&row(&scene, arm)).click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(arm));
    assert_eq!(h.state().app.overlays().selected_joint, Some(arm), "highlighted in the view");
    h.get_by_label(&format!("Joint 左腕 #{arm}"));
    h.get_by_label("Local R (Euler XYZ°)");
    let keys = h.state().app.document().unwrap().key_frames(0, Some(arm)).len();
    assert!(keys > 0);
    // The timeline has a row for the arm (tests/ui_timeline.rs counts its keys).
    h.get_by_label_contains("左腕 keys: ");
    // Another joint from the view's pick path (an action), then Back and Forward.
    let neck = scene.skeleton.find("首").unwrap();
    h.state_mut().app.apply(Action::SelectJoint(Some(neck)));
    h.run();
    h.get_by_label(&format!("Joint 首 #{neck}"));
    h.get_by_label("Back").click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(arm));
    h.key_press_modifiers(Modifiers::ALT, Key::ArrowRight);
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(neck));
    // Pinned, the Inspector stays on the neck while the arm is picked again.
    h.get_by_label("Pin").click();
    h.run();
    h.state_mut().app.apply(Action::SelectJoint(Some(arm)));
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(arm));
    h.get_by_label(&format!("Joint 首 #{neck}"));
    assert!(h.query_by_label(&format!("Joint 左腕 #{arm}")).is_none());
}

#[test]
fn a_display_frame_selects_all_its_bones() {
    let mut h = harness(miku());
    tab(&mut h, "Skeleton");
    let mmd = h.state().app.scene().unwrap().mmd.clone().unwrap();
    let f = mmd.display_frames.iter().find(|f| !f.special && f.items.len() > 1).unwrap();
    let bones: Vec<usize> = f
        .items
        .iter()
        .filter_map(|i| match *i {
            rigscope::scene::DisplayItem::Bone(b) => Some(mmd.bones[b].joint),
            rigscope::scene::DisplayItem::Morph(_) => None,
        })
        .collect();
    h.get_by_label(&format!("Display frames ({})", mmd.display_frames.len())).click();
    h.run();
    let label = if f.name_en.is_empty() || f.name_en == f.name {
        f.name.clone()
    } else {
        format!("{} ({})", f.name_en, f.name)
    };
    h.get_by_label(&format!("{label} ({})", f.items.len())).click();
    h.run();
    h.get_by_label(&format!("Select its {} bones", bones.len())).click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(bones[0]));
    h.get_by_label(&format!("Display frame {}: {} bones", f.name, bones.len()));
}

#[test]
fn the_physics_tab_lists_bodies_under_their_bone_and_selects_both() {
    let mut h = harness(miku());
    tab(&mut h, "Physics");
    let scene = h.state().app.scene().unwrap().clone();
    let mmd = scene.mmd.as_ref().unwrap();
    h.get_by_label(&format!("{} rigid bodies, {} joints", mmd.rigid_bodies.len(), mmd.joints.len()));
    // A body physics moves, whose name no other body's holds.
    let unique =
        |r: &rigscope::scene::RigidBody| mmd.rigid_bodies.iter().filter(|o| o.name.contains(&r.name)).count() == 1;
    let (b, body) =
        mmd.rigid_bodies.iter().enumerate().find(|(_, r)| r.mode != 0 && r.bone.is_some() && unique(r)).unwrap();
    let joint = mmd.bones[body.bone.unwrap()].joint;
    filter(&mut h, &body.name);
    h.get_by_label(&row(&scene, joint));
    h.get_by_label_contains(&format!("{}: ", body.name)).click();
    h.run();
    let doc = h.state().app.document().unwrap();
    assert_eq!(doc.selected_body(), Some(b));
    assert_eq!(h.state().app.selected_joint(), Some(joint), "the body's bone is selected with it");
    h.get_by_label(&format!("Rigid body {} #{b}", body.name));
    // The Physics quick filter keeps only bodies physics moves.
    h.get_by_role_and_label(Role::TextInput, "Filter").focus();
    h.key_press(Key::Escape);
    h.run();
    h.get_by_role_and_label(Role::Button, "Physics").click();
    h.run();
    let moved = mmd.rigid_bodies.iter().filter(|r| r.mode != 0).count();
    h.get_by_label(&format!("{moved} of {} bodies match", mmd.rigid_bodies.len()));
}

#[test]
fn the_morphs_filter_matches_names() {
    let mut h = harness(miku());
    tab(&mut h, "Morphs");
    let scene = h.state().app.scene().unwrap().clone();
    filter(&mut h, "あ");
    let hits = scene.morphs.iter().filter(|m| m.name.contains('あ') || m.name_en.contains('あ')).count();
    assert!(hits > 0 && hits < scene.morphs.len());
    h.get_by_label(&format!("{hits} of {} morphs match", scene.morphs.len()));
    h.get_by_label("Select a (あ)").click();
    h.run();
    h.get_by_label_contains("Morph あ #");
}

#[test]
fn the_status_line_counts_problems_and_opens_their_tab() {
    let mut h = harness(miku_dancing());
    let frame = h.state().app.current_clip_frame().unwrap().1;
    h.get_by_label_contains(&format!("frame {frame:.0} / 2809"));
    let n = h.state().app.problem_count();
    let text = match n {
        0 => "no problems".to_string(),
        1 => "1 problem".to_string(),
        n => format!("{n} problems"),
    };
    h.get_by_label(&text).click();
    h.run();
    let name = format!("Problems ({n})");
    let tab = h.get_by_role_and_label(Role::Tab, &name);
    assert_eq!(tab.accesskit_node().is_selected(), Some(true));
}

#[test]
fn ctrl_f_types_into_the_filter_and_no_shortcut_fires_meanwhile() {
    let mut h = harness(miku());
    tab(&mut h, "Skeleton");
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    h.run();
    assert!(h.get_by_role_and_label(Role::TextInput, "Filter").is_focused());
    let skeleton = h.state().app.overlays().skeleton;
    // K toggles the skeleton overlay, unless a text field has the keyboard.
    h.get_by_role_and_label(Role::TextInput, "Filter").type_text("k");
    h.key_press(Key::K);
    h.run();
    assert_eq!(h.state().app.overlays().skeleton, skeleton);
    assert_eq!(h.get_by_role_and_label(Role::TextInput, "Filter").value().as_deref(), Some("k"));
}

#[test]
fn the_command_palette_finds_and_runs_a_command() {
    let mut h = harness(miku_dancing());
    let (c, _) = h.state().app.current_clip_frame().unwrap();
    h.state_mut().app.apply(Action::SetFrame(0.0));
    h.state_mut().app.apply(Action::TogglePlay);
    h.run();
    if h.state().app.player().playing {
        h.state_mut().app.apply(Action::TogglePlay);
        h.run();
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::K);
    h.run();
    h.run();
    h.get_by_label("Commands");
    h.get_by_role_and_label(Role::TextInput, "Command").type_text("last frame");
    h.run();
    assert_eq!(h.get_all_by_label("Last frame").count(), 2, "the transport's button and the palette's row");
    assert_eq!(h.get_all_by_label("First frame").count(), 1, "the transport's button only");
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("Commands").is_none(), "closed after running");
    let scene = h.state().app.scene().unwrap();
    let span = scene.clips[c].frame_span();
    assert_eq!(h.state().app.current_clip_frame().unwrap().1, span);
}

#[test]
fn play_backwards_runs_the_clip_toward_its_start_and_shift_space_pauses() {
    let mut h = harness(miku_dancing());
    h.state_mut().app.apply(Action::SetFrame(600.0));
    h.run();
    h.get_by_label("Play backwards").click();
    h.run();
    assert!(h.state().app.player().playing);
    h.state_mut().app.update(1.0);
    h.run();
    let f = h.state().app.current_clip_frame().unwrap().1;
    assert!((f - 570.0).abs() < 0.5, "a second back at 30 fps from 600: {f}");
    assert!(h.query_by_label("Play backwards").is_none(), "its button reads Pause while it plays backwards");
    h.key_press_modifiers(Modifiers::SHIFT, Key::Space);
    h.run();
    assert!(!h.state().app.player().playing);
    h.get_by_label("Play backwards");
}

#[test]
fn ctrl_click_selects_several_joints_for_the_timeline_and_the_curves() {
    let mut h = harness(miku_dancing());
    tab(&mut h, "Skeleton");
    let scene = h.state().app.scene().unwrap().clone();
    let (left, right) = (scene.skeleton.find("左腕").unwrap(), scene.skeleton.find("右腕").unwrap());
    filter(&mut h, "腕");
    h.get_by_label(&row(&scene, left)).click();
    h.run();
    h.get_by_label(&row(&scene, right)).click_modifiers(Modifiers::COMMAND);
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(right), "the last one picked leads");
    assert_eq!(h.state().app.overlays().selected_group, [left, right], "both drawn selected in the view");
    h.get_by_label("2 joints selected");
    h.get_by_label_contains("左腕 keys: ");
    h.get_by_label_contains("右腕 keys: ");
    h.get_by_label("Curves").click();
    h.run();
    h.get_by_label("Curves: \"左腕\", \"右腕\"");
    // Ctrl+click on one selected takes it out.
    h.get_by_label(&row(&scene, left)).click_modifiers(Modifiers::COMMAND);
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(right));
    assert!(h.state().app.overlays().selected_group.is_empty(), "one joint: no group");
    assert!(h.query_by_label("2 joints selected").is_none());
    h.get_by_label("Curves: \"右腕\"");
    h.get_by_label("Keys").click();
    h.run();
    assert!(h.query_by_label_contains("左腕 keys: ").is_none(), "its row went with it");
}

/// A VRM avatar's humanoid names its joints in the Skeleton tab (beside the node's own name, and found by the
/// filter), and the Info tab shows its VRM version and licence fields.
#[test]
fn a_vrm_shows_its_humanoid_bones_and_licence() {
    let path = common::corpus("vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm");
    let mut app = App::new();
    app.open_path(&path);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let mut h = harness(app);
    tab(&mut h, "Skeleton");
    let scene = h.state().app.scene().unwrap().clone();
    let vrm = scene.vrm.as_deref().unwrap();
    let arm = vrm.bone("leftUpperArm").unwrap();
    filter(&mut h, "leftupperarm");
    let label = format!("{} #{arm} (leftUpperArm)", scene.skeleton.display_name(arm));
    h.get_by_label(&label);
    let shown = h.query_all_by_label_contains(" #").count();
    assert!(shown < scene.skeleton.len() / 2, "the filter keeps the arm and its ancestors: {shown} rows");
    tab(&mut h, "Info");
    h.get_by_label("1.0 (53 humanoid bones, 0 expressions)");
    h.get_by_label("VRM meta and licence");
    h.get_by_label("https://vrm.dev/licenses/1.0/");
}
