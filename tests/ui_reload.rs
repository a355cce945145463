//! Hot reload, attached files and tabs through the app (egui_kittest, no GPU): files are written to a temporary
//! folder, rewritten on disk, and the app is told (directly, or by the real watcher) as the window tells it.

mod common;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::app::{Action, App, NoticeKind};
use rigscope::formats::iqm::write::IqmDocument;
use rigscope::synth::{SynthSpec, document};

/// A fresh folder for one test.
fn temp_dir(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("reload-{test}"))
}

/// A synthetic model: `vertices` decides the geometry, the skeleton and the clip ("sway") stay the same.
fn model(vertices: usize, frames: usize) -> Vec<u8> {
    document(SynthSpec { vertices, joints: 6, frames }).to_bytes()
}

/// An animation-only IQM for the same skeleton: a clip called `name` of `frames` frames.
fn animation(name: &str, frames: usize) -> Vec<u8> {
    let mut doc: IqmDocument = document(SynthSpec { vertices: 0, joints: 6, frames });
    doc.num_vertexes = 0;
    doc.vertex_arrays.clear();
    doc.meshes.clear();
    doc.triangles.clear();
    doc.anims[0].name = name.into();
    doc.to_bytes()
}

/// `bytes` written as `dir/grid.iqm` and opened in a fresh app.
fn opened_grid(dir: &Path, bytes: &[u8]) -> (PathBuf, App) {
    let file = dir.join("grid.iqm");
    std::fs::write(&file, bytes).unwrap();
    let mut app = App::new();
    app.open_path(&file);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    (file, app)
}

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder().with_size([1400.0, 1600.0]).build_ui_state(
        |ui, app: &mut App| {
            app.show(ui);
        },
        app,
    )
}

fn vertices(app: &App) -> usize {
    app.scene().unwrap().vertices.len()
}

#[test]
fn a_reload_keeps_the_animation_frame_joint_and_hidden_meshes() {
    let dir = temp_dir("keeps");
    let (file, mut app) = opened_grid(&dir, &model(600, 20));
    app.open_path(&{
        let anim = dir.join("wave.iqm");
        std::fs::write(&anim, animation("wave", 12)).unwrap();
        anim
    });
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let mut h = harness(app);
    h.run();
    // Show the model's own clip at frame 7, paused, joint 3 selected, the mesh hidden.
    h.state_mut().apply(Action::SelectClip(0));
    h.state_mut().apply(Action::TogglePlay);
    h.state_mut().apply(Action::SetFrame(7.0));
    h.state_mut().apply(Action::SelectJoint(Some(3)));
    h.state_mut().apply(Action::SetMeshHidden(0, true));
    h.run();
    let app = h.state();
    let (document, framing, geometry) = (app.document_id(), app.framing_generation(), app.geometry_generation());
    let before = vertices(app);
    let pose = app.pose().world.clone();

    // The exporter writes a new version: more vertices, the same skeleton and clip.
    std::fs::write(&file, model(1200, 20)).unwrap();
    let reloaded = h.state_mut().files_changed(std::slice::from_ref(&file));
    assert_eq!(reloaded, vec![file.display().to_string()]);
    h.run();
    let app = h.state();
    assert!(vertices(app) > before, "the new geometry is shown");
    assert_eq!(app.current_clip_frame(), Some((0, 7.0)), "same animation, same frame");
    assert!(!app.player().playing);
    assert_eq!(app.selected_joint(), Some(3));
    assert_eq!(app.overlays().hidden_meshes, vec![true]);
    assert_eq!(app.pose().world, pose, "same skeleton, same frame: the same pose");
    assert_eq!(app.scene().unwrap().clips.len(), 2, "the attached animation is attached again");
    assert_eq!(app.document_id(), document, "the same tab");
    assert_eq!(app.framing_generation(), framing, "the window keeps its camera");
    assert!(app.geometry_generation() > geometry, "the new geometry is uploaded");
    assert_eq!(app.reloads(), (1, Some(file.display().to_string().as_str())));
    h.get_by_label_contains("Reloaded 1×");

    // The same bytes again (a touch, a save without changes): nothing to do.
    std::fs::write(&file, model(1200, 20)).unwrap();
    assert!(h.state_mut().files_changed(std::slice::from_ref(&file)).is_empty());
}

#[test]
fn a_failed_reload_keeps_the_last_good_model_until_the_file_loads_again() {
    let dir = temp_dir("failed");
    let good = model(600, 10);
    let (file, app) = opened_grid(&dir, &good);
    let mut h = harness(app);
    h.state_mut().apply(Action::SetFrame(4.0));
    h.run();
    let before = vertices(h.state());

    // Half-written: the exporter has written the first part only.
    std::fs::write(&file, &good[..good.len() / 2]).unwrap();
    assert!(h.state_mut().files_changed(std::slice::from_ref(&file)).is_empty());
    h.run();
    let app = h.state();
    assert_eq!(vertices(app), before, "the last good version stays");
    assert_eq!(app.current_clip_frame().map(|(c, _)| c), Some(0));
    let errors: Vec<_> = app.notices().iter().filter(|n| n.kind == NoticeKind::Error).collect();
    assert_eq!(errors.len(), 1, "{:?}", app.notices());
    assert!(errors[0].message.contains("reload failed, showing the last good version"), "{}", errors[0].message);
    assert!(errors[0].message.contains("grid.iqm"), "{}", errors[0].message);
    common::click_tab(&mut h, "Problems");
    assert!(h.get_all_by_label_contains("reload failed").count() >= 2, "in the banner and the Problems list");
    // Written again, still broken: one notice, not two.
    std::fs::write(&file, b"INTERQUAKEMODEL\0garbage").unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&file));
    assert_eq!(h.state().notices().iter().filter(|n| n.kind == NoticeKind::Error).count(), 1);

    // Saved back as it was: nothing to rebuild, and the error no longer applies.
    std::fs::write(&file, &good).unwrap();
    assert!(h.state_mut().files_changed(std::slice::from_ref(&file)).is_empty());
    assert!(h.state().notices().iter().all(|n| n.kind != NoticeKind::Error), "{:?}", h.state().notices());
    std::fs::write(&file, &good[..100]).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&file));
    assert_eq!(h.state().notices().iter().filter(|n| n.kind == NoticeKind::Error).count(), 1);

    // The export finishes: the new model shows and the error goes.
    std::fs::write(&file, model(900, 10)).unwrap();
    assert_eq!(h.state_mut().files_changed(std::slice::from_ref(&file)).len(), 1);
    h.run();
    let app = h.state();
    assert!(vertices(app) > before);
    assert!(app.notices().iter().all(|n| n.kind != NoticeKind::Error), "{:?}", app.notices());
}

#[test]
fn a_changed_attachment_is_attached_again_and_detach_removes_it() {
    let dir = temp_dir("attach");
    let (file, mut app) = opened_grid(&dir, &model(600, 10));
    let anim = dir.join("wave.iqm");
    std::fs::write(&anim, animation("wave", 12)).unwrap();
    app.open_path(&anim);
    let mut h = harness(app);
    h.run();
    let geometry = h.state().geometry_generation();
    assert_eq!(h.state().scene().unwrap().clips[1].frame_count, 12);
    assert_eq!(h.state().watched_files().len(), 2);
    h.get_by_label("IQM animation");
    h.get_by_label("6 matched by name, 0 unmatched, 0 unused");

    std::fs::write(&anim, animation("wave", 30)).unwrap();
    h.state_mut().files_changed(std::slice::from_ref(&anim));
    h.run();
    let app = h.state();
    assert_eq!(app.scene().unwrap().clips[1].frame_count, 30, "the new version of the animation");
    assert_eq!(app.current_clip_frame().map(|(c, _)| c), Some(1), "still showing the attached clip");
    assert_eq!(app.geometry_generation(), geometry, "the model's file didn't change: nothing to upload");

    // Detach from the Files section.
    h.get_by_label("Detach").click();
    h.run();
    let app = h.state();
    assert_eq!(app.scene().unwrap().clips.len(), 1, "the attached clip went with its file");
    assert_eq!(app.current_clip_frame().map(|(c, _)| c), Some(0));
    assert_eq!(app.sources().len(), 1);
    assert_eq!(app.watched_files(), vec![file.clone()], "a detached file is no longer watched");
    assert!(h.query_by_label("Detach").is_none());
}

#[test]
fn tabs_keep_each_models_state_and_page_keys_cycle_them() {
    let dir = temp_dir("tabs");
    let (a, b) = (dir.join("a.iqm"), dir.join("b.iqm"));
    std::fs::write(&a, model(600, 10)).unwrap();
    std::fs::write(&b, model(1200, 16)).unwrap();
    let mut app = App::new();
    app.open_bytes("demo.iqm", &model(300, 4));
    app.open_path(&a);
    assert_eq!(app.tabs().0.len(), 1, "a model opened from memory (the demo) gives its tab up");
    app.apply(Action::SetFrame(3.0));
    app.open_path(&b);
    app.apply(Action::SetFrame(9.0));
    let mut h = harness(app);
    h.run();
    let (names, active) = h.state().tabs();
    assert_eq!(names, vec![a.display().to_string(), b.display().to_string()]);
    assert_eq!(active, 1);
    let doc_b = h.state().document_id();

    h.state_mut().apply(Action::NextModel);
    h.run();
    assert!(h.state().model().unwrap().name.ends_with("a.iqm"));
    assert_eq!(h.state().current_clip_frame(), Some((0, 3.0)), "a's frame as it was left");
    assert_ne!(h.state().document_id(), doc_b);
    h.state_mut().apply(Action::PrevModel);
    h.run();
    assert_eq!(h.state().current_clip_frame(), Some((0, 9.0)), "b's frame as it was left");
    assert_eq!(h.state().document_id(), doc_b);

    // Both are watched; a change to the hidden tab's file is picked up when it is shown.
    assert_eq!(h.state().watched_files().len(), 2);
    std::fs::write(&a, model(2400, 10)).unwrap();
    assert!(h.state_mut().files_changed(std::slice::from_ref(&a)).is_empty(), "a isn't shown");
    h.get_by_label("a.iqm").click();
    h.run();
    assert!(h.state().model().unwrap().name.ends_with("a.iqm"));
    assert!(vertices(h.state()) >= 2400, "rebuilt when shown");
    assert_eq!(h.state().current_clip_frame(), Some((0, 3.0)));

    // Opening a file that is open already shows its tab.
    h.state_mut().open_path(&b);
    h.run();
    assert_eq!(h.state().tabs().0.len(), 2);
    assert_eq!(h.state().document_id(), doc_b);

    // Close the shown tab from the strip: the other one shows.
    h.get_all_by_label("×").nth(1).unwrap().click();
    h.run();
    assert_eq!(h.state().tabs().0.len(), 1);
    assert!(h.state().model().unwrap().name.ends_with("a.iqm"));
    assert!(h.query_by_label("×").is_none(), "no strip for a single model");
    h.state_mut().apply(Action::CloseModel(usize::MAX));
    h.run();
    assert!(h.state().model().is_none());
    assert_eq!(h.state().document_id(), 0);
}

#[test]
fn hot_reload_can_be_turned_off() {
    let dir = temp_dir("off");
    let (file, app) = opened_grid(&dir, &model(600, 10));
    let mut h = harness(app);
    h.run();
    assert!(h.state().watch());
    h.get_by_label("Reload on change").click();
    h.run();
    assert!(!h.state().watch());
    assert!(h.state().watched_files().is_empty());
    let before = vertices(h.state());
    std::fs::write(&file, model(1200, 10)).unwrap();
    assert!(h.state_mut().files_changed(std::slice::from_ref(&file)).is_empty());
    assert_eq!(vertices(h.state()), before);
}

/// Waits for the watcher to report `file`.
fn wait_for(rx: &mpsc::Receiver<Vec<PathBuf>>, file: &Path) -> Vec<PathBuf> {
    let end = Instant::now() + Duration::from_secs(10);
    while let Some(left) = end.checked_duration_since(Instant::now()) {
        if let Ok(paths) = rx.recv_timeout(left)
            && paths.iter().any(|p| p == file)
        {
            return paths;
        }
    }
    panic!("the watcher never reported {}", file.display());
}

#[test]
fn rewriting_a_file_on_disk_updates_the_app_through_the_watcher() {
    let dir = temp_dir("watcher");
    let (file, mut app) = opened_grid(&dir, &model(600, 10));
    app.apply(Action::SetFrame(5.0));
    let (tx, rx) = mpsc::channel();
    let mut watcher = rigscope::watch::FileWatcher::new(move |p| {
        let _ = tx.send(p);
    })
    .unwrap();
    watcher.set_files(&app.watched_files()).unwrap();
    let before = vertices(&app);

    // An exporter's way: write a temporary file beside it, then rename it over the model.
    let tmp = dir.join("grid.iqm.part");
    std::fs::write(&tmp, model(1800, 10)).unwrap();
    std::fs::rename(&tmp, &file).unwrap();
    let changed = wait_for(&rx, &file);
    assert_eq!(app.files_changed(&changed).len(), 1);
    assert!(vertices(&app) > before);
    assert_eq!(app.current_clip_frame(), Some((0, 5.0)));

    // And a plain rewrite in place.
    let before = vertices(&app);
    std::fs::write(&file, model(3000, 10)).unwrap();
    let changed = wait_for(&rx, &file);
    app.files_changed(&changed);
    assert!(vertices(&app) > before);
}

/// `bytes` (an IQM) with the whole model scaled by `s` about its origin, as `convert --scale` writes it.
fn scaled(bytes: &[u8], s: f32) -> Vec<u8> {
    let mut scene = rigscope::formats::load_bytes("m.iqm", bytes).unwrap();
    rigscope::convert::transform_scene(&mut scene, s, glam::Quat::IDENTITY);
    rigscope::convert::to_iqm(&scene).unwrap().bytes
}

/// Compare with…: another version of the model becomes the reference; the Compare section says what `diff`
/// says and which joints are farthest from the reference at the frame shown, the view gets the reference's
/// skeleton as a ghost, and Clear ends it.
#[test]
fn compare_with_another_version_lists_the_joints_that_moved_and_draws_its_skeleton() {
    let dir = temp_dir("compare");
    let bytes = model(600, 20);
    let (_, mut app) = opened_grid(&dir, &bytes);
    let other = dir.join("grid_big.iqm");
    std::fs::write(&other, scaled(&bytes, 1.5)).unwrap();
    app.compare_with_path(&other);
    assert!(app.problems().is_empty(), "{:?}", app.problems());
    let mut h = harness(app);
    h.run();
    h.get_by_label("Reference: grid_big.iqm");
    assert!(h.query_by_label_contains("At frame").is_some());
    // The diff's lines: the bind pose moved, and the clip's joints moved, largest first.
    assert!(h.query_all_by_label_contains("bind pose moved").count() >= 3);
    let bones = h.state().overlays().reference_bones;
    assert_eq!(bones.len(), 5, "the reference's six joints, five bones");
    let model_bones = h.state().scene().unwrap().skeleton.len() - 1;
    assert_eq!(bones.len(), model_bones);

    h.get_by_label("Clear").click();
    h.run();
    assert!(h.query_by_label("Reference: grid_big.iqm").is_none());
    assert!(h.state().overlays().reference_bones.is_empty());

    // A file that isn't a model is refused with a notice, and nothing is compared.
    let anim = dir.join("wave.iqm");
    std::fs::write(&anim, animation("wave", 12)).unwrap();
    h.state_mut().compare_with_path(&anim);
    h.run();
    assert!(h.state().problems().iter().any(|p| p.message.contains("not a model")), "{:?}", h.state().problems());
    assert!(h.state().overlays().reference_bones.is_empty());
}

/// Compare side by side: the section's checkbox (or Ctrl+Shift+D) splits the view in two equal halves, the
/// model's on the left (its view rect: labels, picking) and the reference's on the right; the overlays tell the
/// renderer, a click in the reference's half picks nothing, and the reference's textures are looked for beside
/// its file.
#[test]
fn compare_side_by_side_splits_the_view_in_two_halves() {
    let dir = temp_dir("compare-beside");
    let bytes = model(600, 20);
    let (_, mut app) = opened_grid(&dir, &bytes);
    let other = dir.join("grid_big.iqm");
    std::fs::write(&other, scaled(&bytes, 1.5)).unwrap();
    app.compare_with_path(&other);
    let mut h = harness(app);
    h.run();
    let whole = h.state().view_rect().unwrap();
    assert!(h.state().reference_rect().is_none() && !h.state().overlays().reference_beside);
    assert_eq!(h.state().reference().unwrap().2, Some(&*dir));
    h.get_by_label("Side by side").click();
    h.run();
    let (left, right) = (h.state().view_rect().unwrap(), h.state().reference_rect().unwrap());
    assert_eq!(left.size(), right.size());
    assert_eq!((left.min, right.max), (whole.min, whole.max));
    assert!(left.max.x < right.min.x && left.width() * 2.0 > whole.width() - 4.0);
    let o = h.state().overlays();
    assert!(o.reference_beside && o.reference_bones.len() == 5);
    h.state_mut().pick_at(right.center());
    assert!(h.state().picked().is_none(), "the reference's half doesn't pick");
    // Ctrl+Shift+D: a ghost over the whole view again.
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::D);
    h.run();
    assert!(h.state().reference_rect().is_none() && !h.state().overlays().reference_beside);
    assert_eq!(h.state().view_rect(), Some(whole));
}

/// A reference held across a reload of the model is compared again with the new version, but its own scene has
/// not changed, so it keeps its stamp: the window keeps the ghost it uploaded instead of uploading it again.
/// A new reference gets a new stamp.
#[test]
fn reloading_the_model_keeps_the_references_uploaded_ghost() {
    let dir = temp_dir("compare-reload");
    let bytes = model(600, 20);
    let (file, mut app) = opened_grid(&dir, &bytes);
    let other = dir.join("grid_big.iqm");
    std::fs::write(&other, scaled(&bytes, 1.5)).unwrap();
    app.compare_with_path(&other);
    let (stamp, ..) = app.reference().expect("a reference");
    std::fs::write(&file, scaled(&bytes, 2.0)).unwrap();
    assert_eq!(app.files_changed(std::slice::from_ref(&file)).len(), 1);
    let (after, scene, _) = app.reference().expect("still a reference");
    assert_eq!(after, stamp, "the same reference scene: the same ghost");
    assert_eq!(scene.skeleton.len(), 6);
    app.compare_with_path(&other);
    assert_ne!(app.reference().unwrap().0, stamp, "another reference: another upload");
}

/// "Keep the previous version as reference": when the model's file is rewritten, the version before the reload
/// becomes the reference.
#[test]
fn a_reload_can_keep_the_previous_version_as_reference() {
    let dir = temp_dir("keep-previous");
    let bytes = model(600, 20);
    let (file, app) = opened_grid(&dir, &bytes);
    let mut h = harness(app);
    h.run();
    h.get_by_label("Keep the previous version as reference").click();
    h.run();
    std::fs::write(&file, scaled(&bytes, 2.0)).unwrap();
    assert_eq!(h.state_mut().files_changed(std::slice::from_ref(&file)).len(), 1);
    h.run();
    h.get_by_label("Reference: grid.iqm before reload 1");
    assert!(!h.state().overlays().reference_bones.is_empty());
}
