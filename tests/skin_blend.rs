//! Spherical (PMX SDEF) and dual-quaternion (PMX QDEF) skinning, on the CPU and on the GPU, against references
//! written here independently of src/anim/skin.rs: the formula as MikuMikuDance's runtimes compute it
//! (babylon-mmd's loader and sdefVertex shader, saba's CPU skinning), in f64. The input is a bending arm PMX
//! written by `rigscope::synth::arm` (no character with SDEF or QDEF vertices is in the corpus), loaded through
//! the PMX reader and posed through the skeleton as any file is.
//!
//! The GPU tests need an adapter (lavapipe on CI); without one they fail rather than skip.

use glam::{DMat3, DMat4, DQuat, DVec3, Mat4, Quat, Vec3};
use rigscope::Scene;
use rigscope::anim::{Pose, attach, skin_normals, skin_positions};
use rigscope::render::{Background, Camera, FrameInput, GpuModel, Headless, Overlays, ViewState, capture_skinning};
use rigscope::scene::{BlendMethod, DEFAULT_FPS, FrameBounds};
use rigscope::synth::arm::{
    ARM_RADIUS, AROUND, ArmBlend, RINGS, SDEF_C, SDEF_R0, SDEF_R1, arm_document, arm_weight, elbow_motion,
};

fn arm(blend: ArmBlend) -> Scene {
    rigscope::load_bytes("arm.pmx", &arm_document(blend).to_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// The model's size H: the tube's length.
const H: f32 = 2.0;

/// The arm with its elbow turned by `rotation` (bone-local).
fn bent(scene: &Scene, rotation: Quat) -> Pose {
    let elbow = scene.skeleton.find("elbow").expect("an elbow bone");
    let mut pose = Pose::bind(&scene.skeleton);
    pose.locals[elbow].rotation = rotation;
    pose.evaluate(&scene.skeleton);
    pose
}

/// Elbow bends to test: about Z (the bend), about Z and Y, and a bend past a right angle.
fn bends() -> Vec<(Quat, &'static str)> {
    vec![
        (Quat::from_rotation_z(30f32.to_radians()), "30° about Z"),
        (Quat::from_rotation_z(90f32.to_radians()), "90° about Z"),
        (Quat::from_rotation_z(135f32.to_radians()), "135° about Z"),
        (Quat::from_rotation_z(80f32.to_radians()) * Quat::from_rotation_y(35f32.to_radians()), "80° Z, 35° Y"),
    ]
}

fn d(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// SDEF as the runtimes compute it, in f64: corrected R0 and R1, their midpoints with C carried by each bone,
/// the bones' rotations slerped by the second weight turning the vertex about C.
fn sdef_reference(p: Vec3, w0: f32, m0: &Mat4, m1: &Mat4) -> DVec3 {
    let (w0, w1) = (f64::from(w0), 1.0 - f64::from(w0));
    let (c, r0, r1) = (d(SDEF_C), d(SDEF_R0), d(SDEF_R1));
    let rw = r0 * w0 + r1 * w1;
    let (r0, r1) = (c + r0 - rw, c + r1 - rw);
    let (cr0, cr1) = ((c + r0) * 0.5, (c + r1) * 0.5);
    let (m0, m1) = (m0.as_dmat4(), m1.as_dmat4());
    let q = |m: &DMat4| DQuat::from_mat3(&DMat3::from_mat4(*m)).normalize();
    let (q0, mut q1) = (q(&m0), q(&m1));
    if q0.dot(q1) < 0.0 {
        q1 = -q1;
    }
    let theta = q0.dot(q1).clamp(-1.0, 1.0).acos();
    let slerped = if theta < 1e-9 {
        q0
    } else {
        (q0 * (((1.0 - w1) * theta).sin() / theta.sin()) + q1 * ((w1 * theta).sin() / theta.sin())).normalize()
    };
    slerped * (d(p) - c) + m0.transform_point3(cr0) * w0 + m1.transform_point3(cr1) * w1
}

/// Each ring's largest and smallest distance from its own centre, skinned.
fn ring_radii(points: &[Vec3]) -> Vec<(f32, f32)> {
    points
        .chunks(AROUND)
        .map(|ring| {
            let centre = ring.iter().copied().sum::<Vec3>() / ring.len() as f32;
            ring.iter().map(|p| p.distance(centre)).fold((0.0f32, f32::MAX), |(hi, lo), r| (hi.max(r), lo.min(r)))
        })
        .collect()
}

/// Every ring keeps the tube's radius about its centre, within 1e-5 H: the vertices moved rigidly.
fn assert_round(radii: &[(f32, f32)], what: &str) {
    for (ring, (hi, lo)) in radii.iter().enumerate() {
        assert!(
            (hi - ARM_RADIUS).abs() < 1e-5 * H && (lo - ARM_RADIUS).abs() < 1e-5 * H,
            "{what} ring {ring}: {lo}..{hi}"
        );
    }
}

#[test]
fn the_arm_reads_back_with_its_blend_methods() {
    for (blend, method) in [
        (ArmBlend::Linear, None),
        (ArmBlend::Spherical, Some(BlendMethod::Spherical(0))),
        (ArmBlend::DualQuaternion, Some(BlendMethod::DualQuaternion)),
    ] {
        let scene = arm(blend);
        assert!(scene.meta.warnings.is_empty(), "{blend:?}: {:?}", scene.meta.warnings);
        let elbow_ring = 10 * AROUND;
        match method {
            None => assert!(scene.vertices.blend.is_none(), "{blend:?}"),
            Some(m) => {
                let b = scene.vertices.blend.as_ref().unwrap();
                assert_eq!(b.methods[0], BlendMethod::Linear, "{blend:?}: the shoulder is BDEF1");
                let first = b.methods.iter().position(|m| *m != BlendMethod::Linear).unwrap();
                assert_eq!(first, 7 * AROUND, "{blend:?}: blended from x 0.7 (x 0.6 has all its weight on the arm)");
                assert_eq!(b.of(first).0, m, "{blend:?}");
                assert_ne!(b.of(elbow_ring).0, BlendMethod::Linear, "{blend:?}");
            }
        }
    }
    let scene = arm(ArmBlend::Spherical);
    let b = scene.vertices.blend.as_ref().unwrap();
    assert_eq!(b.spherical.len(), 7 * AROUND, "rings x 0.7 to 1.3 are SDEF");
    assert_eq!((b.spherical[0].c, b.spherical[0].r0, b.spherical[0].r1), (SDEF_C, SDEF_R0, SDEF_R1));
}

/// Every SDEF vertex within 1e-5 H of the f64 formula at each bend; the others as linear blending puts them.
#[test]
fn sdef_vertices_follow_the_formula_at_a_bent_elbow() {
    let scene = arm(ArmBlend::Spherical);
    let linear = arm(ArmBlend::Linear);
    let weights = scene.vertices.weights.as_ref().unwrap();
    let b = scene.vertices.blend.as_ref().unwrap();
    for (rotation, what) in bends() {
        let pose = bent(&scene, rotation);
        let (arm_m, elbow_m) = (pose.palette[0], pose.palette[1]);
        let skinned = skin_positions(&scene.vertices, &pose.palette);
        let straight = skin_positions(&linear.vertices, &pose.palette);
        let mut worst = 0.0f64;
        for (i, p) in scene.vertices.positions.iter().enumerate() {
            if matches!(b.of(i).0, BlendMethod::Spherical(_)) {
                let want = sdef_reference(*p, weights[i][0], &arm_m, &elbow_m);
                worst = worst.max((d(skinned[i]) - want).length());
            } else {
                assert_eq!(skinned[i], straight[i], "{what}: vertex {i} isn't SDEF and blends linearly");
            }
        }
        assert!(worst <= 1e-5 * f64::from(H), "{what}: SDEF vertices up to {worst} from the formula");
    }
}

/// The elbow's rings keep their radius with SDEF, as a rigid turn about C does; linear blending pinches them.
#[test]
fn sdef_keeps_the_elbow_round_where_linear_pinches_it() {
    let (spherical, linear) = (arm(ArmBlend::Spherical), arm(ArmBlend::Linear));
    let pose = bent(&spherical, Quat::from_rotation_z(90f32.to_radians()));
    let sdef = ring_radii(&skin_positions(&spherical.vertices, &pose.palette));
    let lbs = ring_radii(&skin_positions(&linear.vertices, &pose.palette));
    assert_eq!(sdef.len(), RINGS);
    assert_round(&sdef, "SDEF");
    // Halfway through the blend (x 1.0, w 0.5) linear blending averages two frames 90° apart: the ring is
    // squashed to cos 45° of its radius across the bend.
    let (_, lo) = lbs[10];
    assert!((lo - ARM_RADIUS * 45f32.to_radians().cos()).abs() < 0.01 * ARM_RADIUS, "linear elbow ring: {lo}");
    // The two differ by several percent of the arm at the elbow: what a picture shows.
    let apart = skin_positions(&spherical.vertices, &pose.palette)
        .iter()
        .zip(skin_positions(&linear.vertices, &pose.palette))
        .map(|(a, b)| a.distance(b))
        .fold(0.0, f32::max);
    assert!(apart > 0.02 * H, "SDEF and linear differ by only {apart}");
}

/// A 90° twist of the forearm: dual quaternions keep every ring round; linear blending collapses the middle
/// one toward the axis (the candy-wrapper artefact).
#[test]
fn qdef_keeps_a_twisted_forearm_round() {
    let (dual, linear) = (arm(ArmBlend::DualQuaternion), arm(ArmBlend::Linear));
    let pose = bent(&dual, Quat::from_rotation_x(90f32.to_radians()));
    let dqs = ring_radii(&skin_positions(&dual.vertices, &pose.palette));
    let lbs = ring_radii(&skin_positions(&linear.vertices, &pose.palette));
    assert_round(&dqs, "QDEF");
    let (_, lo) = lbs[10];
    assert!((lo - ARM_RADIUS * 45f32.to_radians().cos()).abs() < 0.01 * ARM_RADIUS, "linear twisted ring: {lo}");
    // A pure twist about the bone's axis: the blend of the unit quaternion and the 90° one, weighted w0 and
    // w1 and normalised, is a twist by 2·atan2(w1·sin 45°, w0 + w1·cos 45°) about the same axis.
    let skinned = skin_positions(&dual.vertices, &pose.palette);
    for (i, (p, q)) in dual.vertices.positions.iter().zip(&skinned).enumerate() {
        let (w0, w1) = (f64::from(arm_weight(p.x)), 1.0 - f64::from(arm_weight(p.x)));
        let half = std::f64::consts::FRAC_PI_4;
        let angle = 2.0 * (w1 * half.sin()).atan2(w0 + w1 * half.cos());
        let want = DQuat::from_rotation_x(angle) * d(*p);
        assert!((want - d(*q)).length() < 1e-5 * f64::from(H), "vertex {i}: {q}, a twist by {angle} puts it at {want}");
    }
}

/// Normals turn with the vertex's rotation: unit length, and on a round ring they point away from its centre.
#[test]
fn spherical_and_dual_quaternion_normals_stay_radial() {
    for (blend, rotation) in [
        (ArmBlend::Spherical, Quat::from_rotation_z(90f32.to_radians())),
        (ArmBlend::DualQuaternion, Quat::from_rotation_x(90f32.to_radians())),
    ] {
        let scene = arm(blend);
        let pose = bent(&scene, rotation);
        let positions = skin_positions(&scene.vertices, &pose.palette);
        let normals = skin_normals(&scene.vertices, &pose.palette).unwrap();
        for (r, (ring, ns)) in positions.chunks(AROUND).zip(normals.chunks(AROUND)).enumerate() {
            let centre = ring.iter().copied().sum::<Vec3>() / AROUND as f32;
            for (p, n) in ring.iter().zip(ns) {
                let radial = (*p - centre).normalize();
                assert!(n.dot(radial) > 0.9999, "{blend:?} ring {r}: normal {n}, radial {radial}");
            }
        }
    }
}

fn headless() -> Headless {
    Headless::new().unwrap_or_else(|e| panic!("{e}"))
}

/// The GPU's skinning (the mesh shader's own function, read back) equals the CPU's for SDEF and QDEF, positions
/// within 1e-5 of the model's size as for linear blending (tests/render_skinning.rs), normals within 0.01 rad.
#[test]
fn gpu_spherical_and_dual_quaternion_skinning_match_the_cpu() {
    let h = headless();
    for blend in [ArmBlend::Spherical, ArmBlend::DualQuaternion, ArmBlend::Linear] {
        let scene = arm(blend);
        let model = GpuModel::upload(h.renderer(), &scene, None);
        let mut poses: Vec<(Quat, &str)> = bends();
        poses.push((Quat::from_rotation_x(90f32.to_radians()), "twist 90°"));
        poses.push((
            Quat::from_rotation_x(170f32.to_radians()) * Quat::from_rotation_z(20f32.to_radians()),
            "twist 170°",
        ));
        for (rotation, what) in poses {
            let pose = bent(&scene, rotation);
            let gpu = capture_skinning(h.renderer(), &model, &pose).unwrap();
            let cpu = skin_positions(&scene.vertices, &pose.palette);
            let worst = gpu.positions.iter().zip(&cpu).map(|(g, c)| g.distance(*c)).fold(0.0, f32::max);
            assert!(worst <= 1e-5 * H, "{blend:?} {what}: GPU and CPU positions differ by up to {worst}");
            let normals = skin_normals(&scene.vertices, &pose.palette).unwrap();
            for (i, (g, c)) in gpu.normals.iter().zip(&normals).enumerate() {
                assert!(g.dot(*c) > 0.99995, "{blend:?} {what}: normal {i}: GPU {g}, CPU {c}");
            }
        }
    }
}

/// Drawn by the renderer with the elbow bent, SDEF and linear blending give different pictures at the elbow
/// and the same elsewhere; the motion comes through the VMD reader as a user's would. The view's linear
/// skinning switch (`Overlays::linear_skinning`, the window's Shift+K) draws the SDEF arm as the linear one.
#[test]
fn a_bent_elbow_draws_differently_with_sdef_and_linear_blending() {
    let h = headless();
    let motion = elbow_motion(Quat::from_rotation_z(100f32.to_radians()));
    let draw = |blend: ArmBlend, linear_skinning: bool| {
        let mut scene = arm(blend);
        let clip = rigscope::load_bytes("bend.vmd", &motion).unwrap();
        attach(&mut scene, &clip, "bend.vmd").unwrap();
        let pose = Pose::sample(&scene.skeleton, &scene.clips[0], 0.0, DEFAULT_FPS);
        let model = GpuModel::upload(h.renderer(), &scene, None);
        let size = (160, 160);
        // Framed on what is drawn: with the switch on, the arm skinned linearly.
        let mut drawn = scene.vertices.clone();
        drawn.blend = drawn.blend.filter(|_| !linear_skinning);
        let bounds = FrameBounds::of_points(&skin_positions(&drawn, &pose.palette)).unwrap();
        let camera = Camera::framing(scene.up, &bounds, 0.0, 0.0, 1.0);
        let overlays = Overlays { linear_skinning, ..Overlays::default() };
        let input = FrameInput::still(&camera, &pose, &overlays);
        let mut view = ViewState::new(h.renderer());
        h.render(&model, &mut view, &input, size, Background::Color([0, 0, 0])).unwrap()
    };
    let (sdef, linear) = (draw(ArmBlend::Spherical, false), draw(ArmBlend::Linear, false));
    let switched = draw(ArmBlend::Spherical, true);
    let unlike = switched.pixels().zip(linear.pixels()).filter(|(a, b)| a.0 != b.0).count();
    assert_eq!(unlike, 0, "the switch draws the SDEF arm as the linear one");
    let covered = |img: &image::RgbaImage| img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
    let changed = sdef.pixels().zip(linear.pixels()).filter(|(a, b)| a.0[..3] != b.0[..3]).count();
    let (a, b) = (covered(&sdef), covered(&linear));
    assert!(a > 2000 && b > 2000, "the arm is drawn ({a} and {b} pixels)");
    // SDEF keeps the elbow's volume: it covers more of the picture than the pinched linear elbow.
    assert!(a > b, "SDEF covers {a} pixels, linear {b}");
    assert!(changed > 100, "SDEF and linear blending draw alike ({changed} pixels differ)");
}
