//! Pip's surface: smooth parts swept along straight axes, and the vertex streams and triangles they become.

use std::f64::consts::{FRAC_PI_2, TAU};

use glam::DVec3;

use super::texture::{INSET, rect};
use super::{
    ANTENNA, ANTENNA_TIP, CHEST, ELBOW_L, FOOT_L, FOREARM, HAND_L, HEAD, HIPS, KNEE_L, NECK, SHOULDER_L, SIDES, SPINE,
    TEXTURE_SIZE, THIGH_L, UPPER_ARM, arm_direction, bind_positions,
};
use crate::formats::iqm::write::quantize_weights;

/// Rounds to a 2⁻¹⁶ grid before storing: far below what shows, and it hides last-bit differences between
/// platforms' `sin`/`cos`, which would otherwise change the committed bytes.
fn grid(v: f64) -> f32 {
    ((v * 65536.0).round() / 65536.0) as f32
}

fn smoothstep(e0: f64, e1: f64, x: f64) -> f64 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `sign(v)·|v|^e`: the superellipse parametrisation.
fn signed_pow(v: f64, e: f64) -> f64 {
    v.signum() * v.abs().powf(e)
}

/// A cubic Hermite curve through `(x, y)` points with Catmull-Rom slopes and flat ends, held constant outside.
fn hermite(points: &[(f64, f64)], x: f64) -> f64 {
    let n = points.len();
    match points.iter().position(|&(px, _)| px > x) {
        None => points.last().map_or(1.0, |p| p.1),
        Some(0) => points[0].1,
        Some(i) => {
            let ((x0, y0), (x1, y1)) = (points[i - 1], points[i]);
            let slope = |k: usize| {
                if k == 0 || k + 1 >= n {
                    0.0
                } else {
                    (points[k + 1].1 - points[k - 1].1) / (points[k + 1].0 - points[k - 1].0)
                }
            };
            let h = x1 - x0;
            let t = (x - x0) / h;
            let (t2, t3) = (t * t, t * t * t);
            (2.0 * t3 - 3.0 * t2 + 1.0) * y0
                + (t3 - 2.0 * t2 + t) * h * slope(i - 1)
                + (-2.0 * t3 + 3.0 * t2) * y1
                + (t3 - t2) * h * slope(i)
        }
    }
}

/// One smooth body part: a closed surface swept along a straight axis (straight in the bind pose; skinning
/// bends it). The texture unrolls it: `a` runs around (0.5 faces front or up, the seam is at 0 and 1) and
/// `b` runs along the axis from its start.
pub(super) struct Part {
    start: DVec3,
    end: DVec3,
    /// Where the texture seam goes (made perpendicular to the axis): the back, or underneath.
    seam: DVec3,
    /// Cross-section half-extents towards the seam and across it, before the profile scales them.
    half: [f64; 2],
    /// Superellipse exponent of the cross-section: 2 is an ellipse, larger is boxier.
    squareness: f64,
    /// Scale of the cross-section along the axis, as (distance from start, factor) points.
    profile: Vec<(f64, f64)>,
    /// Lengths of the rounded caps at the start and the end.
    caps: [f64; 2],
    /// Segments around, and rings over the start cap, the middle and the end cap.
    sides: usize,
    rings: [usize; 3],
    /// Joints along the axis from the start, and where each hands over to the next: (distance, half-width).
    joints: Vec<usize>,
    handovers: Vec<(f64, f64)>,
    rect: [f64; 4],
    /// Occlusion baked into the vertex colour at the start and end, where parts meet.
    occlusion: [f64; 2],
}

/// A part's surface point with its shading frame, in model space.
struct Sample {
    position: DVec3,
    normal: DVec3,
    /// Direction of increasing texture `u`, and the handedness that rebuilds the `v` direction.
    tangent: DVec3,
    handedness: f64,
}

impl Part {
    fn length(&self) -> f64 {
        (self.end - self.start).length()
    }

    /// Axis direction and the two cross-section directions (`u` towards the seam), right-handed: u × v = axis.
    fn frame(&self) -> (DVec3, DVec3, DVec3) {
        let d = (self.end - self.start).normalize();
        let u = (self.seam - d * self.seam.dot(d)).normalize();
        (d, u, d.cross(u))
    }

    fn radius(&self, x: f64) -> f64 {
        let cap = |from_end: f64, len: f64| {
            if len > 0.0 && from_end < len {
                let t = 1.0 - from_end / len;
                (1.0 - t * t).max(0.0).sqrt()
            } else {
                1.0
            }
        };
        hermite(&self.profile, x) * cap(x, self.caps[0]) * cap(self.length() - x, self.caps[1])
    }

    fn point(&self, theta: f64, x: f64) -> DVec3 {
        let (d, u, v) = self.frame();
        let r = self.radius(x);
        let e = 2.0 / self.squareness;
        let (s, c) = theta.sin_cos();
        self.start + d * x + u * (self.half[0] * r * signed_pow(c, e)) + v * (self.half[1] * r * signed_pow(s, e))
    }

    /// Ring positions along the axis: caps are divided by angle, so their rings close in smoothly on the pole.
    fn ring_positions(&self) -> Vec<f64> {
        let l = self.length();
        let [k0, km, k1] = self.rings;
        let [c0, c1] = self.caps;
        let arc = |i: usize, k: usize| 1.0 - (FRAC_PI_2 * i as f64 / k as f64).cos();
        let mut xs: Vec<f64> = (0..k0).map(|i| c0 * arc(i, k0)).collect();
        xs.extend((0..km).map(|i| c0 + (l - c0 - c1) * i as f64 / km as f64));
        xs.extend((0..=k1).rev().map(|i| l - c1 * arc(i, k1)));
        xs
    }

    /// Position, outward normal and tangent frame by central differences of the surface. Poles (where a ring
    /// shrinks to a point) take the frame of a point a hair inside, which is the limit there.
    fn sample(&self, theta: f64, x: f64) -> Sample {
        let l = self.length();
        let (d, ..) = self.frame();
        let xc = x.clamp(1e-4 * l, l - 1e-4 * l);
        let (ht, hx) = (1e-6, 1e-6 * l);
        let d_theta = (self.point(theta + ht, xc) - self.point(theta - ht, xc)) / (2.0 * ht);
        let d_x = (self.point(theta, xc + hx) - self.point(theta, xc - hx)) / (2.0 * hx);
        let mut normal = d_theta.cross(d_x).normalize();
        if normal.dot(self.point(theta, xc) - (self.start + d * xc)) < 0.0 {
            normal = -normal;
        }
        // Texture u runs against theta (see `uv`), v along the axis.
        let t = -d_theta;
        let tangent = (t - normal * normal.dot(t)).normalize();
        let handedness = if normal.cross(tangent).dot(d_x) >= 0.0 { 1.0 } else { -1.0 };
        Sample { position: self.point(theta, x), normal, tangent, handedness }
    }

    /// Texture coordinates of surface parameter `s` (around, 0..1) and `x` (along). `u` runs against `s` so
    /// that, seen from the front, the texture's left is the screen's left.
    fn uv(&self, s: f64, x: f64) -> [f64; 2] {
        let [rx, ry, rw, rh] = self.rect;
        let size = f64::from(TEXTURE_SIZE);
        [
            (rx + INSET + (rw - 2.0 * INSET) * (1.0 - s)) / size,
            (ry + INSET + (rh - 2.0 * INSET) * x / self.length()) / size,
        ]
    }

    /// Blend weights at distance `x`: each joint passes a smoothstep share on to the next at its handover, so
    /// weights always sum to 1 and overlapping handovers give three influences.
    fn weights(&self, x: f64) -> Vec<(usize, f64)> {
        let mut carried = 1.0;
        let mut out = Vec::new();
        for (i, &joint) in self.joints.iter().enumerate() {
            let pass = self.handovers.get(i).map_or(0.0, |&(at, w)| smoothstep(at - w, at + w, x));
            let w = carried * (1.0 - pass);
            if w > 1e-6 {
                out.push((joint, w));
            }
            carried *= pass;
        }
        out
    }

    fn occlusion(&self, x: f64) -> f64 {
        let b = x / self.length();
        1.0 - self.occlusion[0] * (1.0 - smoothstep(0.0, 0.3, b)) - self.occlusion[1] * smoothstep(0.7, 1.0, b)
    }
}

/// Vertex streams and triangles as they go into the file.
#[derive(Default)]
pub(super) struct Geometry {
    pub(super) positions: Vec<f32>,
    pub(super) texcoords: Vec<f32>,
    pub(super) normals: Vec<f32>,
    pub(super) tangents: Vec<f32>,
    pub(super) joints: Vec<u8>,
    pub(super) weights: Vec<u8>,
    pub(super) colors: Vec<f32>,
    pub(super) triangles: Vec<[u32; 3]>,
}

impl Geometry {
    pub(super) fn vertex_count(&self) -> u32 {
        (self.positions.len() / 3) as u32
    }

    pub(super) fn add(&mut self, part: &Part) {
        let base = self.vertex_count();
        let xs = part.ring_positions();
        let mut positions = Vec::with_capacity(xs.len() * (part.sides + 1));
        for &x in &xs {
            let mut influences = part.weights(x);
            // Largest first, ties by joint index, so the four kept are always the same four.
            influences.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            influences.truncate(4);
            let mut idx = [0u8; 4];
            let mut raw = [0f32; 4];
            for (k, &(j, w)) in influences.iter().enumerate() {
                idx[k] = j as u8;
                raw[k] = w as f32;
            }
            let wgt = quantize_weights(raw);
            let shade = part.occlusion(x);
            for j in 0..=part.sides {
                let s = j as f64 / part.sides as f64;
                let f = part.sample(TAU * s, x);
                positions.push(f.position);
                self.positions.extend(f.position.to_array().map(grid));
                self.normals.extend(f.normal.to_array().map(grid));
                self.tangents.extend(f.tangent.to_array().map(grid));
                self.tangents.push(f.handedness as f32);
                self.texcoords.extend(part.uv(s, x).map(grid));
                self.joints.extend_from_slice(&idx);
                self.weights.extend_from_slice(&wgt);
                self.colors.extend([shade as f32, shade as f32, shade as f32, 1.0]);
            }
        }
        let row = part.sides + 1;
        let normal_at = |i: usize| {
            let k = base as usize + i;
            DVec3::new(
                f64::from(self.normals[3 * k]),
                f64::from(self.normals[3 * k + 1]),
                f64::from(self.normals[3 * k + 2]),
            )
        };
        let mut triangles = Vec::new();
        for r in 0..xs.len().saturating_sub(1) {
            for j in 0..part.sides {
                let (a, b, c, d) = (r * row + j, r * row + j + 1, (r + 1) * row + j, (r + 1) * row + j + 1);
                for mut t in [[a, c, b], [b, c, d]] {
                    let [p0, p1, p2] = t.map(|i| positions[i]);
                    let right_hand = (p1 - p0).cross(p2 - p0);
                    // A pole quad has two corners at the same point: keep only its real triangle.
                    if right_hand.length() < 1e-9 {
                        continue;
                    }
                    // Clockwise front faces: the right-hand normal must oppose the surface normal.
                    if right_hand.dot(normal_at(t[0]) + normal_at(t[1]) + normal_at(t[2])) > 0.0 {
                        t.swap(1, 2);
                    }
                    triangles.push(t.map(|i| base + i as u32));
                }
            }
        }
        self.drop_unused(base, &mut triangles);
        self.triangles.extend(triangles);
    }

    /// Removes the part's vertices that no triangle uses (the first vertex of each pole ring, whose quad
    /// collapsed), renumbering `triangles`, so the model has nothing for `check` to call unused.
    fn drop_unused(&mut self, base: u32, triangles: &mut [[u32; 3]]) {
        let count = (self.vertex_count() - base) as usize;
        let mut used = vec![false; count];
        for i in triangles.iter().flatten() {
            used[(i - base) as usize] = true;
        }
        let mut remap = vec![0u32; count];
        let mut next = 0u32;
        for (i, &u) in used.iter().enumerate() {
            remap[i] = next;
            next += u32::from(u);
        }
        fn keep<T: Copy>(v: &mut Vec<T>, base: usize, width: usize, used: &[bool]) {
            let tail: Vec<T> = v[base * width..]
                .chunks_exact(width)
                .zip(used)
                .filter(|(_, u)| **u)
                .flat_map(|(c, _)| c.iter().copied())
                .collect();
            v.truncate(base * width);
            v.extend(tail);
        }
        let b = base as usize;
        keep(&mut self.positions, b, 3, &used);
        keep(&mut self.texcoords, b, 2, &used);
        keep(&mut self.normals, b, 3, &used);
        keep(&mut self.tangents, b, 4, &used);
        keep(&mut self.joints, b, 4, &used);
        keep(&mut self.weights, b, 4, &used);
        keep(&mut self.colors, b, 4, &used);
        for i in triangles.iter_mut().flatten() {
            *i = base + remap[(*i - base) as usize];
        }
    }
}

pub(super) fn body_parts() -> Vec<Part> {
    let at = bind_positions();
    let back = DVec3::Y;
    let mut parts = vec![
        Part {
            start: DVec3::new(0.0, 0.0, 1.40),
            end: DVec3::new(0.0, 0.0, 0.68),
            seam: back,
            half: [0.19, 0.26],
            squareness: 2.6,
            profile: vec![(0.0, 1.0), (0.18, 1.0), (0.38, 0.87), (0.55, 0.93), (0.72, 0.9)],
            caps: [0.13, 0.16],
            sides: 28,
            rings: [5, 8, 5],
            joints: vec![CHEST, SPINE, HIPS],
            handovers: vec![(1.40 - at[CHEST].z, 0.14), (1.40 - at[SPINE].z, 0.14)],
            rect: rect::TORSO,
            occlusion: [0.15, 0.3],
        },
        Part {
            start: DVec3::new(0.0, 0.0, 1.52),
            end: DVec3::new(0.0, 0.0, 1.30),
            seam: back,
            half: [1.0, 1.0],
            squareness: 2.0,
            profile: vec![(0.0, 0.072)],
            caps: [0.03, 0.03],
            sides: 12,
            rings: [1, 3, 1],
            joints: vec![HEAD, NECK, CHEST],
            handovers: vec![(1.52 - at[HEAD].z, 0.03), (1.52 - at[NECK].z, 0.04)],
            rect: rect::NECK,
            occlusion: [0.35, 0.35],
        },
    ];
    for (k, side) in SIDES {
        let dir = arm_direction(side);
        let shoulder = at[SHOULDER_L + k];
        let top = 0.075;
        let elbow = top + UPPER_ARM;
        let wrist = elbow + FOREARM;
        parts.push(Part {
            start: shoulder - dir * top,
            end: shoulder + dir * (UPPER_ARM + FOREARM + 0.15),
            seam: back,
            half: [1.0, 1.0],
            squareness: 2.0,
            profile: vec![
                (0.0, 0.078),
                (top, 0.078),
                (0.2, 0.068),
                (elbow, 0.06),
                (0.46, 0.055),
                (wrist, 0.047),
                (wrist + 0.07, 0.07),
                (wrist + 0.15, 0.07),
            ],
            caps: [top, 0.075],
            sides: 14,
            rings: [4, 12, 4],
            joints: vec![CHEST, SHOULDER_L + k, ELBOW_L + k, HAND_L + k],
            handovers: vec![(0.03, 0.045), (elbow, 0.06), (wrist, 0.04)],
            rect: rect::ARM,
            occlusion: [0.25, 0.0],
        });
    }
    for (k, side) in SIDES {
        let x = 0.12 * side;
        let top = 0.88;
        parts.push(Part {
            start: DVec3::new(x, 0.0, top),
            end: DVec3::new(x, 0.0, 0.07),
            seam: back,
            half: [1.0, 1.0],
            squareness: 2.0,
            profile: vec![(0.0, 0.1), (0.12, 0.1), (0.3, 0.088), (0.44, 0.076), (0.6, 0.072), (0.76, 0.062)],
            caps: [0.08, 0.04],
            sides: 14,
            rings: [3, 12, 2],
            joints: vec![HIPS, THIGH_L + k, KNEE_L + k, FOOT_L + k],
            handovers: vec![
                (top - at[THIGH_L + k].z, 0.05),
                (top - at[KNEE_L + k].z, 0.06),
                (top - at[FOOT_L + k].z, 0.04),
            ],
            rect: rect::LEG,
            occlusion: [0.3, 0.15],
        });
    }
    for (k, side) in SIDES {
        let x = 0.12 * side;
        parts.push(Part {
            start: DVec3::new(x, 0.08, 0.08),
            end: DVec3::new(x, -0.25, 0.08),
            seam: -DVec3::Z,
            half: [0.08, 0.095],
            squareness: 3.0,
            profile: vec![(0.0, 0.9), (0.12, 1.0)],
            caps: [0.06, 0.1],
            sides: 14,
            rings: [3, 3, 4],
            joints: vec![FOOT_L + k],
            handovers: vec![],
            rect: rect::FOOT,
            occlusion: [0.1, 0.0],
        });
    }
    parts
}

pub(super) fn head_parts() -> Vec<Part> {
    let back = DVec3::Y;
    let mut parts = vec![
        Part {
            start: DVec3::new(0.0, 0.0, 1.95),
            end: DVec3::new(0.0, 0.0, 1.42),
            seam: back,
            half: [0.27, 0.32],
            squareness: 2.6,
            profile: vec![(0.0, 1.0), (0.3, 1.0), (0.53, 0.9)],
            caps: [0.18, 0.1],
            sides: 32,
            rings: [6, 7, 4],
            joints: vec![HEAD],
            handovers: vec![],
            rect: rect::HEAD,
            occlusion: [0.0, 0.25],
        },
        Part {
            start: DVec3::new(0.0, 0.0, 2.12),
            end: DVec3::new(0.0, 0.0, 1.86),
            seam: back,
            half: [1.0, 1.0],
            squareness: 2.0,
            profile: vec![(0.0, 0.042), (0.042, 0.042), (0.085, 0.016), (0.26, 0.016)],
            caps: [0.042, 0.01],
            sides: 10,
            rings: [3, 7, 1],
            joints: vec![ANTENNA_TIP, ANTENNA, HEAD],
            handovers: vec![(2.12 - 2.04, 0.02), (2.12 - 1.93, 0.02)],
            rect: rect::ANTENNA,
            occlusion: [0.0, 0.3],
        },
    ];
    for side in [1.0, -1.0] {
        parts.push(Part {
            start: DVec3::new(0.27 * side, 0.0, 1.69),
            end: DVec3::new(0.39 * side, 0.0, 1.69),
            seam: back,
            half: [0.08, 0.08],
            squareness: 2.0,
            profile: vec![(0.0, 1.0)],
            caps: [0.02, 0.03],
            sides: 14,
            rings: [1, 2, 3],
            joints: vec![HEAD],
            handovers: vec![],
            rect: rect::EAR,
            occlusion: [0.3, 0.0],
        });
    }
    parts
}
