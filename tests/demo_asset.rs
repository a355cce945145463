//! The committed demo model (`assets/demo.iqm`, `assets/demo.png`) is exactly what `src/demo/` generates, and
//! it is the clean, fully featured, correctly wound file the viewer opens when started with no file.

use std::path::PathBuf;

use rigscope::Scene;
use rigscope::anim::{Pose, skin_positions, skinned_bounds};
use rigscope::scene::DEFAULT_FPS;

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn read_asset(name: &str) -> Vec<u8> {
    let path = assets().join(name);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; generate it with `cargo run --example make_demo`", path.display()))
}

fn demo() -> Scene {
    rigscope::load_bytes("demo.iqm", &read_asset("demo.iqm")).expect("the committed demo model loads")
}

#[test]
fn committed_assets_match_the_generator() {
    let dir = std::env::temp_dir().join(format!("rigscope-demo-asset-{}", std::process::id()));
    rigscope::demo::write_assets(&dir).expect("writing the demo assets to a temporary folder");
    for name in ["demo.iqm", "demo.png"] {
        let fresh = std::fs::read(dir.join(name)).expect("reading back a freshly written asset");
        let committed = read_asset(name);
        assert!(
            committed == fresh,
            "assets/{name} ({} bytes) is not what src/demo/ generates now ({} bytes): \
             run `cargo run --example make_demo` and commit the result",
            committed.len(),
            fresh.len()
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn demo_loads_cleanly_with_two_meshes_and_a_texture() {
    let s = demo();
    assert!(s.meta.warnings.is_empty(), "{:#?}", s.meta.warnings);
    assert!(s.meta.comment.as_deref().is_some_and(|c| c.contains("demo generator")), "{:?}", s.meta.comment);
    let meshes: Vec<&str> = s.meshes.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(meshes, ["body", "head"]);
    // Both materials name the texture beside the model: one bare (the viewer adds .png), one with extension.
    let materials: Vec<&str> = s.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(materials, ["demo", "demo.png"]);
    let png = image::load_from_memory(&read_asset("demo.png")).expect("the demo texture decodes");
    assert_eq!((png.width(), png.height()), (256, 256));
    let size = read_asset("demo.iqm").len();
    assert!(size < 300_000, "demo.iqm is {size} bytes; keep it small");
}

#[test]
fn demo_has_what_the_viewer_shows() {
    let s = demo();
    assert!(s.skeleton.len() >= 10 && s.skeleton.is_named(), "{} joints", s.skeleton.len());
    let names: Vec<&str> = s.clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["idle", "wave", "walk"]);
    for clip in &s.clips {
        assert!(clip.looping && clip.has_stored_fps() && clip.frame_count >= 24, "{}", clip.name);
        let bounds = clip.bounds.as_ref().unwrap_or_else(|| panic!("{}: no stored bounds", clip.name));
        assert_eq!(bounds.len(), clip.frame_count as usize, "{}: one stored bounds per frame", clip.name);
    }
    let v = &s.vertices;
    assert!(v.normals.is_some() && v.tangents.is_some() && v.colors.is_some());
    let uvs = v.texcoords.as_ref().expect("texcoords");
    assert!(uvs.iter().all(|t| (0.0..=1.0).contains(&t.x) && (0.0..=1.0).contains(&t.y)), "UVs stay on the texture");
    let (joints, weights) = (v.joints.as_ref().expect("blend indexes"), v.weights.as_ref().expect("blend weights"));
    let influences = |w: &[f32; 4]| w.iter().filter(|&&w| w > 0.0).count();
    let blended = weights.iter().filter(|w| influences(w) >= 2).count();
    assert!(blended * 10 >= weights.len(), "only {blended} of {} vertices blend joints", weights.len());
    assert!(weights.iter().any(|w| influences(w) >= 3), "some vertices blend three joints");
    let used: std::collections::BTreeSet<u32> =
        joints.iter().zip(weights).flat_map(|(j, w)| (0..4).filter(move |&k| w[k] > 0.0).map(move |k| j[k])).collect();
    assert!(used.len() >= 15, "only joints {used:?} carry vertices");
    // Standing on z = 0, about 2 units tall, toes towards -Y (facing the default camera).
    let bind = rigscope::scene::FrameBounds::of_points(&v.positions).expect("vertices");
    assert!(bind.min.z.abs() < 0.01 && (1.8..2.3).contains(&bind.max.z), "{bind:?}");
    let feet =
        rigscope::scene::FrameBounds::of_points(&v.positions.iter().copied().filter(|p| p.z < 0.2).collect::<Vec<_>>())
            .expect("feet");
    assert!(-feet.min.y > 1.5 * feet.max.y, "toes point towards -Y: {feet:?}");
}

#[test]
fn skinning_reproduces_stored_bounds_and_every_clip_moves() {
    let s = demo();
    let rest = Pose::bind(&s.skeleton);
    let rest_positions = skin_positions(&s.vertices, &rest.palette);
    let size = skinned_bounds(&s.vertices, &rest.palette).expect("vertices").diagonal();
    for clip in &s.clips {
        let stored = clip.bounds.as_ref().expect("stored bounds");
        let n = clip.frame_count;
        let mut moved = 0f32;
        for f in [0, n / 4, n / 3, n / 2, 2 * n / 3, n - 1] {
            let pose = Pose::sample(&s.skeleton, clip, f as f32, DEFAULT_FPS);
            let computed = skinned_bounds(&s.vertices, &pose.palette).expect("vertices");
            let diff = computed.max_difference(&stored[f as usize]);
            assert!(
                diff <= 1e-3 * size,
                "{} frame {f}: stored {:?}, skinned {computed:?}",
                clip.name,
                stored[f as usize]
            );
            let posed = skin_positions(&s.vertices, &pose.palette);
            moved = posed.iter().zip(&rest_positions).map(|(a, b)| a.distance(*b)).fold(moved, f32::max);
        }
        assert!(moved > 0.1, "{}: vertices move at most {moved} from the bind pose", clip.name);
    }
}

#[test]
fn front_faces_are_clockwise_like_every_real_iqm() {
    let s = demo();
    let (p, n) = (&s.vertices.positions, s.vertices.normals.as_ref().expect("normals"));
    let (mut clockwise, mut total) = (0, 0);
    for t in &s.triangles {
        let [a, b, c] = t.map(|i| i as usize);
        let right_hand = (p[b] - p[a]).cross(p[c] - p[a]);
        if right_hand.length() > 1e-9 {
            total += 1;
            if right_hand.dot(n[a] + n[b] + n[c]) < 0.0 {
                clockwise += 1;
            }
        }
    }
    assert!(clockwise * 1000 >= total * 998, "{clockwise} of {total} triangles are clockwise");
}

/// The window and the web page open the embedded demo with its texture held in a memory folder
/// (`rigscope::vfs`): both materials must find it there, as they would beside the model on disk.
#[test]
fn the_embedded_demo_opens_with_its_texture_from_a_memory_folder() {
    let mut app = rigscope::app::App::new();
    app.open_demo();
    app.load_textures();
    let doc = app.document().expect("the demo opens");
    assert_eq!(doc.model().name, rigscope::demo::NAME);
    let textures = doc.textures().expect("textures looked up in the demo's folder");
    assert!(textures.problems().is_empty(), "{:?}", textures.problems());
    assert_eq!(textures.images().len(), 1);
    assert!(
        textures.materials().iter().all(|m| matches!(m, rigscope::textures::MaterialTexture::Image(0))),
        "{:?}",
        textures.materials()
    );
    assert!(app.texture_files().iter().all(|p| !rigscope::vfs::on_disk(p)));
}
