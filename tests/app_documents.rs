//! Documents as the window sees them, without a window: what `App::take_view_changes` says after opening,
//! attaching, reloading, switching and closing, and textures that the app finds itself (no GPU, no egui pass).

mod common;

use std::path::{Path, PathBuf};

use rigscope::app::{Action, App, ViewChange};
use rigscope::formats::iqm::write::IqmDocument;
use rigscope::synth::{SynthSpec, document};

fn temp_dir(test: &str) -> common::Scratch {
    common::Scratch::new(&format!("documents-{test}"))
}

fn model(vertices: usize) -> Vec<u8> {
    document(SynthSpec { vertices, joints: 6, frames: 10 }).to_bytes()
}

fn animation(name: &str) -> Vec<u8> {
    let mut doc: IqmDocument = document(SynthSpec { vertices: 0, joints: 6, frames: 10 });
    doc.num_vertexes = 0;
    doc.vertex_arrays.clear();
    doc.meshes.clear();
    doc.triangles.clear();
    doc.anims[0].name = name.into();
    doc.to_bytes()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn the_window_is_told_what_changed_and_nothing_when_nothing_did() {
    let dir = temp_dir("changes");
    let (a, b) = (write(&dir, "a.iqm", &model(300)), write(&dir, "b.iqm", &model(1200)));
    let anim = write(&dir, "walk.iqm", &animation("walk"));
    let mut app = App::new();
    app.open_path(&a);
    let id_a = app.document_id();
    assert_eq!(app.take_view_changes(), vec![ViewChange::Frame(id_a)], "a new model is framed");
    assert!(app.take_view_changes().is_empty(), "told once");

    app.open_path(&anim);
    assert_eq!(
        app.take_view_changes(),
        vec![ViewChange::Rebuilt { document: id_a, geometry: false }, ViewChange::Frame(id_a)],
        "an attached file rebuilds clips only, and frames the clip"
    );

    std::fs::write(&a, model(2400)).unwrap();
    assert_eq!(app.files_changed(std::slice::from_ref(&a)), vec![a.display().to_string()]);
    assert_eq!(
        app.take_view_changes(),
        vec![ViewChange::Rebuilt { document: id_a, geometry: true }],
        "a reload uploads again and never frames"
    );

    app.open_path(&b);
    let id_b = app.document_id();
    assert_ne!(id_a, id_b);
    assert_eq!(app.take_view_changes(), vec![ViewChange::Frame(id_b)]);
    app.apply(Action::PrevModel);
    assert_eq!(app.document_id(), id_a);
    assert!(app.take_view_changes().is_empty(), "switching tabs is the shown id changing, nothing else");
    app.apply(Action::CloseModel(1));
    assert_eq!(app.take_view_changes(), vec![ViewChange::Closed(id_b)]);
    assert_eq!(app.documents().len(), 1);
    assert_eq!(app.document().unwrap().id(), id_a);
}

#[test]
fn a_model_from_memory_gives_its_tab_up_and_is_closed_for_the_window() {
    let dir = temp_dir("memory");
    let a = write(&dir, "a.iqm", &model(300));
    let mut app = App::new();
    app.open_bytes("demo.iqm", &model(200));
    let demo = app.document_id();
    app.take_view_changes();
    app.open_path(&a);
    let changes = app.take_view_changes();
    assert_eq!(changes, vec![ViewChange::Closed(demo), ViewChange::Frame(app.document_id())]);
    assert_eq!(app.tabs().0.len(), 1);
}

#[test]
fn the_app_finds_a_models_textures_itself_when_it_is_to_be_drawn() {
    let dir = temp_dir("textures");
    let iqe = "# Inter-Quake Export\nmesh panel\nmaterial paint.png\nvp 0 0 0\nvp 1 0 0\nvp 0 1 0\nfm 0 1 2\n\
               mesh other\nmaterial gone.png\nvp 0 0 1\nvp 1 0 1\nvp 0 1 1\nfm 0 1 2\n";
    let model = write(&dir, "panel.iqe", iqe.as_bytes());
    image::RgbaImage::from_pixel(4, 4, image::Rgba([10, 200, 10, 255])).save(dir.join("paint.png")).unwrap();
    let mut app = App::new();
    app.open_path(&model);
    assert!(app.document().unwrap().textures().is_none(), "nothing decoded before anything draws");
    app.load_textures();
    let doc = app.document().unwrap();
    let textures = doc.textures().expect("loaded");
    assert!(textures.image(0).is_some(), "paint.png found beside the model");
    assert_eq!(textures.missing_paths(), vec![dir.join("gone.png").as_path()]);
    // Both are watched: a missing texture saved later is picked up too.
    let watched: Vec<PathBuf> = app.texture_files();
    assert_eq!(watched, vec![dir.join("gone.png"), dir.join("paint.png")]);

    // The missing texture is saved: the model is uploaded again with it, the scene untouched.
    app.take_view_changes();
    image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 10, 10, 255])).save(dir.join("gone.png")).unwrap();
    let reloaded = app.files_changed(&[dir.join("gone.png")]);
    assert_eq!(reloaded, vec![dir.join("gone.png").display().to_string()]);
    let id = app.document_id();
    assert_eq!(app.take_view_changes(), vec![ViewChange::Rebuilt { document: id, geometry: true }]);
    assert!(app.document().unwrap().textures().unwrap().missing_paths().is_empty());
}

/// Textures that arrive after the model (the page downloads them from beside a model opened by URL, or from the
/// game data tree above it, under another path than the one the model looked at first) are read when handed to
/// `files_arrived`.
#[test]
fn textures_that_arrive_later_are_read_wherever_the_model_finds_them() {
    let rsm = std::fs::read(common::corpus("rsm/box_error_01.rsm")).unwrap();
    let dir = rigscope::vfs::mount([("box_error_01.rsm".to_string(), std::sync::Arc::from(rsm))]);
    let mut app = App::new();
    assert_eq!(app.open_folder_files(&dir, &["box_error_01.rsm".to_string()]).len(), 1);
    app.load_textures();
    let found = |app: &App| {
        let set = app.document().unwrap().textures().unwrap();
        (set.images().len(), set.problems().len())
    };
    assert_eq!(found(&app), (0, 1), "la_scifi\\error_01.bmp is missing at first");
    let bmp = std::fs::read(common::corpus("rsm/data/texture/la_scifi/error_01.bmp")).unwrap();
    let path = rigscope::vfs::add(&dir, "data/texture/la_scifi/error_01.bmp", std::sync::Arc::from(bmp)).unwrap();
    assert_eq!(app.files_arrived(&[path]).len(), 1);
    assert_eq!(found(&app), (1, 0), "found under data/texture of the model's folder");
    rigscope::vfs::unmount(&dir);
}

/// F frames what is selected, else the model as it stands in the pose shown (issue 37 step 6, issue 35's "F
/// frame the selection"): the selection's box holds the selected joint and is smaller than the model's, and
/// with nothing selected the box is the pose's own.
#[test]
fn f_frames_the_selected_joint_else_the_pose_shown() {
    let dir = temp_dir("frame-target");
    let a = write(&dir, "a.iqm", &model(600));
    let mut app = App::new();
    app.open_path(&a);
    let (scene, pose) = (app.scene().unwrap().clone(), app.pose().clone());
    let whole = rigscope::render::pose_bounds(&scene, &pose).unwrap();
    let (_, framed) = app.frame_target().unwrap();
    assert_eq!(framed, whole, "nothing selected: the model as it stands");

    let tip = scene.skeleton.len() - 1;
    app.apply(Action::SelectJoint(Some(tip)));
    let (_, framed) = app.frame_target().unwrap();
    let at = pose.world[tip].w_axis.truncate();
    assert!(framed.min.cmple(at).all() && framed.max.cmpge(at).all(), "the joint is in its box: {framed:?} {at}");
    // The synthetic model is a 10 × 10 grid whose joints run along Z: the tip carries the last stretch of it.
    let (along, all_along) = (framed.max.z - framed.min.z, whole.max.z - whole.min.z);
    assert!(along < 0.5 * all_along, "the tip's stretch: {along} of {all_along} along the chain");
    assert!(framed.diagonal() >= 0.2 * whole.diagonal() * 0.99, "at least a fifth of the model's size");
}
