//! Pip's motion: the idle, wave and walk clips, sampled into quantised frames, and the bounds of each frame.

use std::f64::consts::TAU;

use glam::{DQuat, DVec3, Mat4, Quat, Vec3};

use super::geometry::Geometry;
use super::{
    ANTENNA, ANTENNA_TIP, CHEST, ELBOW_L, ELBOW_R, FOOT_L, HAND_L, HAND_R, HEAD, HIPS, JOINTS, KNEE_L, NAMES, NECK,
    PARENTS, RIGHT, SHOULDER_L, SHOULDER_R, SIDES, SPINE, THIGH_L, bind_locals,
};
use crate::formats::iqm::write::{Anim, Bounds, IQM_LOOP, IqmDocument, Joint, Pose, quantize_channels};

/// A finer grid than `geometry::grid` (2⁻²⁰), for animation samples, whose quantisation step is set by their range.
fn fine_grid(v: f64) -> f32 {
    ((v * 1_048_576.0).round() / 1_048_576.0) as f32
}

/// How one joint moves away from its bind pose at an instant.
#[derive(Clone, Copy)]
struct Motion {
    rotate: DQuat,
    offset: DVec3,
    scale: DVec3,
}

impl Default for Motion {
    fn default() -> Self {
        Motion { rotate: DQuat::IDENTITY, offset: DVec3::ZERO, scale: DVec3::ONE }
    }
}

fn rx(deg: f64) -> DQuat {
    DQuat::from_rotation_x(deg.to_radians())
}

fn ry(deg: f64) -> DQuat {
    DQuat::from_rotation_y(deg.to_radians())
}

fn rz(deg: f64) -> DQuat {
    DQuat::from_rotation_z(deg.to_radians())
}

/// A looping clip: its motion is a function of the loop phase `p` in radians, periodic in 2π, so the last
/// frame blends back into the first without a hitch.
struct ClipDef {
    name: &'static str,
    frames: u32,
    fps: f32,
    motion: fn(f64) -> [Motion; JOINTS],
}

/// Two frame rates on purpose: the viewer must honour each clip's own.
const CLIPS: [ClipDef; 3] = [
    ClipDef { name: "idle", frames: 48, fps: 24.0, motion: idle },
    ClipDef { name: "wave", frames: 36, fps: 24.0, motion: wave },
    ClipDef { name: "walk", frames: 30, fps: 30.0, motion: walk },
];

/// Breathing (an animated chest scale, undone on its children), a slow sway, a curious head and a wobbling
/// antenna. Rotations about X pitch (a positive angle swings a hanging limb backwards, +Y), about Y roll
/// (positive tips the top towards +X, the character's left), about Z turn.
fn idle(p: f64) -> [Motion; JOINTS] {
    let mut m = [Motion::default(); JOINTS];
    let breath = 0.5 - 0.5 * p.cos();
    let sway = p.sin();
    m[HIPS].rotate = rz(3.0 * sway);
    for k in [0, RIGHT] {
        // The legs turn back against the hips so the feet stay planted.
        m[THIGH_L + k].rotate = rz(-3.0 * sway);
    }
    m[SPINE].rotate = rx(1.5 * (p + 0.5).sin()) * ry(-1.5 * sway);
    let chest_scale = DVec3::new(1.0 + 0.025 * breath, 1.0 + 0.04 * breath, 1.0);
    m[CHEST].rotate = rx(-2.0 * breath);
    m[CHEST].scale = chest_scale;
    for child in [NECK, SHOULDER_L, SHOULDER_R] {
        m[child].scale = chest_scale.recip();
    }
    m[NECK].rotate = ry(1.5 * sway);
    m[HEAD].rotate = ry(-6.0 * (p + 0.8).sin()) * rx(3.0 * (2.0 * p).sin()) * rz(5.0 * (p - 0.4).sin());
    m[ANTENNA].rotate = ry(9.0 * (p + 1.6).sin()) * rx(5.0 * (2.0 * p).sin());
    m[ANTENNA_TIP].rotate = ry(13.0 * (p + 0.9).sin()) * rx(9.0 * (2.0 * p - 0.6).sin());
    for (k, side) in SIDES {
        m[SHOULDER_L + k].rotate = ry(-4.0 * side * breath) * rx(2.0 * sway * side);
        m[SHOULDER_L + k].offset = DVec3::new(0.0, 0.0, 0.008 * breath);
        m[ELBOW_L + k].rotate = rx(-10.0 - 4.0 * sway * side);
        m[HAND_L + k].rotate = rx(-6.0 - 4.0 * (p + 0.7).sin());
    }
    m
}

/// The right arm up and out, the forearm waving twice per loop; the body leans away and the head tilts in.
fn wave(p: f64) -> [Motion; JOINTS] {
    let mut m = [Motion::default(); JOINTS];
    let w = (2.0 * p).sin();
    m[HIPS].rotate = rz(-4.0 * p.sin());
    for k in [0, RIGHT] {
        m[THIGH_L + k].rotate = rz(4.0 * p.sin());
    }
    m[SPINE].rotate = ry(2.0);
    m[CHEST].rotate = ry(2.0 + 1.5 * w) * rz(-8.0);
    m[NECK].rotate = rz(5.0);
    m[HEAD].rotate = ry(-8.0 - 2.0 * w) * rx(3.0 * (2.0 * p + 0.5).sin()) * rz(4.0);
    m[SHOULDER_R].rotate = ry(80.0) * rx(-14.0 + 3.0 * w);
    m[ELBOW_R].rotate = ry(78.0 + 26.0 * w);
    m[HAND_R].rotate = ry(18.0 * (2.0 * p - 0.7).sin());
    m[SHOULDER_L].rotate = ry(-5.0) * rx(4.0 * p.sin());
    m[ELBOW_L].rotate = rx(-14.0);
    m[HAND_L].rotate = rx(-8.0);
    m[ANTENNA].rotate = ry(12.0 * (2.0 * p - 1.0).sin());
    m[ANTENNA_TIP].rotate = ry(18.0 * (2.0 * p - 1.8).sin());
    m
}

/// Walking in place: legs and arms swing in opposition, knees fold in the swing, hips bob twice per cycle and
/// the body counter-turns so the head keeps looking ahead.
fn walk(p: f64) -> [Motion; JOINTS] {
    let mut m = [Motion::default(); JOINTS];
    let (s, c) = p.sin_cos();
    m[HIPS].offset = DVec3::new(0.0, 0.0, 0.014 * (2.0 * p).cos() - 0.014);
    m[HIPS].rotate = rz(-7.0 * s) * ry(2.5 * c);
    m[SPINE].rotate = rx(5.0);
    m[CHEST].rotate = rz(10.0 * s) * ry(-2.0 * c);
    m[NECK].rotate = rz(-3.0 * s) * rx(-5.0);
    m[HEAD].rotate = rx(-2.5 * (2.0 * p).cos());
    m[ANTENNA].rotate = rx(-10.0 * (2.0 * p - 0.9).sin());
    m[ANTENNA_TIP].rotate = rx(-15.0 * (2.0 * p - 1.6).sin());
    for (k, side) in SIDES {
        // The left leg leads when sin > 0, and the right arm with it.
        let thigh = -28.0 * s * side;
        let fold = 0.5 + 0.5 * c * side;
        let knee = 5.0 + 50.0 * fold * fold;
        m[THIGH_L + k].rotate = rx(thigh);
        m[KNEE_L + k].rotate = rx(knee);
        m[FOOT_L + k].rotate = rx(-0.9 * (thigh + knee));
        m[SHOULDER_L + k].rotate = rx(24.0 * s * side) * ry(-4.0 * side);
        m[ELBOW_L + k].rotate = rx(-18.0 + 14.0 * s * side);
        m[HAND_L + k].rotate = rx(-6.0 + 6.0 * s * side);
    }
    m
}

/// Joint and pose records, clips and quantised frames.
pub(super) fn animation() -> (Vec<Joint>, Vec<Pose>, Vec<Anim>, u32, u32, Vec<u16>) {
    let local = bind_locals();
    let joints: Vec<Joint> = (0..JOINTS)
        .map(|i| Joint {
            name: NAMES[i].into(),
            parent: PARENTS[i].map_or(-1, |p| p as i32),
            translate: local[i].to_array().map(fine_grid),
            // Identity, stored with w <= 0 like every real exporter.
            rotate: [0.0, 0.0, 0.0, -1.0],
            scale: [1.0; 3],
        })
        .collect();
    let mut samples = Vec::new();
    let mut anims = Vec::new();
    let mut first = 0;
    for clip in &CLIPS {
        for f in 0..clip.frames {
            let motion = (clip.motion)(TAU * f64::from(f) / f64::from(clip.frames));
            for (j, m) in motion.iter().enumerate() {
                let t = local[j] + m.offset;
                let q = m.rotate.normalize();
                let q = if q.w > 0.0 { -q } else { q };
                samples.push([t.x, t.y, t.z, q.x, q.y, q.z, q.w, m.scale.x, m.scale.y, m.scale.z].map(fine_grid));
            }
        }
        anims.push(Anim {
            name: clip.name.into(),
            first_frame: first,
            num_frames: clip.frames,
            framerate: clip.fps,
            flags: IQM_LOOP,
        });
        first += clip.frames;
    }
    let (channels, num_framechannels, frames) = quantize_channels(&samples, JOINTS);
    let poses = channels.iter().zip(&joints).map(|(c, j)| c.to_pose(j.parent)).collect();
    (joints, poses, anims, first, num_framechannels, frames)
}

/// Per-frame bounds, computed the way a reader will see the file: from the stored (quantised) frames and the
/// stored vertices, with linear blend skinning. Written independently of `crate::anim`, so the demo test that
/// compares the two checks the library rather than restating it.
pub(super) fn frame_bounds(doc: &IqmDocument, geometry: &Geometry) -> Vec<Bounds> {
    let to_mat = |t: [f32; 3], q: [f32; 4], s: [f32; 3]| {
        let q = Quat::from_array(q);
        Mat4::from_scale_rotation_translation(Vec3::from_array(s), q / q.length(), Vec3::from_array(t))
    };
    let parents: Vec<Option<usize>> = doc.joints.iter().map(|j| usize::try_from(j.parent).ok()).collect();
    let chain = |locals: &[Mat4]| {
        let mut world: Vec<Mat4> = Vec::with_capacity(locals.len());
        for (i, l) in locals.iter().enumerate() {
            let w = parents[i].map_or(*l, |p| world[p] * *l);
            world.push(w);
        }
        world
    };
    let bind: Vec<Mat4> = doc.joints.iter().map(|j| to_mat(j.translate, j.rotate, j.scale)).collect();
    let inverse_bind: Vec<Mat4> = chain(&bind).iter().map(Mat4::inverse).collect();
    let positions: Vec<Vec3> = geometry.positions.chunks_exact(3).map(Vec3::from_slice).collect();
    let channels = doc.num_framechannels as usize;
    (0..doc.num_frames as usize)
        .map(|f| {
            let mut data = doc.frames[f * channels..(f + 1) * channels].iter();
            let locals: Vec<Mat4> = doc
                .poses
                .iter()
                .map(|pose| {
                    let mut v = pose.channel_offset;
                    for (k, v) in v.iter_mut().enumerate() {
                        if pose.channel_mask & (1 << k) != 0 {
                            *v += f32::from(data.next().copied().unwrap_or(0)) * pose.channel_scale[k];
                        }
                    }
                    to_mat([v[0], v[1], v[2]], [v[3], v[4], v[5], v[6]], [v[7], v[8], v[9]])
                })
                .collect();
            let palette: Vec<Mat4> = chain(&locals).iter().zip(&inverse_bind).map(|(w, ib)| *w * *ib).collect();
            let (mut min, mut max, mut xy, mut r) = (Vec3::INFINITY, Vec3::NEG_INFINITY, 0f32, 0f32);
            for (i, p) in positions.iter().enumerate() {
                let mut m = Mat4::ZERO;
                for k in 0..4 {
                    let w = geometry.weights[4 * i + k];
                    if w != 0 {
                        m += palette[usize::from(geometry.joints[4 * i + k])] * (f32::from(w) / 255.0);
                    }
                }
                let q = m.transform_point3(*p);
                min = min.min(q);
                max = max.max(q);
                xy = xy.max(q.x * q.x + q.y * q.y);
                r = r.max(q.length_squared());
            }
            Bounds { min: min.to_array(), max: max.to_array(), xy_radius: xy.sqrt(), radius: r.sqrt() }
        })
        .collect()
}
