//! Morph weights: what a clip's morph tracks give each of a model's morphs (matched by name), group and flip
//! morphs passed on to their members, and vertex and UV morphs applied on the CPU (the renderer applies them
//! on the GPU from the same weights).

use glam::{Vec2, Vec3};

use super::sample_keys_eased;
use crate::scene::{Clip, Morph, MorphKind, MorphTrack};

/// How deep group morphs may nest before the rest is ignored (a group that contains itself, which `check`
/// reports, would otherwise never end).
const MAX_GROUP_DEPTH: usize = 8;

/// A morph track's weight at `time` seconds (eased per segment; the first and last keys hold outside their
/// range). `None` for a track without keys.
pub fn sample_morph_track(track: &MorphTrack, time: f32) -> Option<f32> {
    sample_keys_eased(&track.keys, time, |a, b, i, u| {
        let e = track.ease.get(i).copied().unwrap_or(crate::scene::Easing::LINEAR);
        a + (b - a) * e.weight(u)
    })
}

/// The weight each of `morphs` gets from `clip` at `frame` (clip frames, fractional): the track with the
/// morph's name, 0 where the clip has none. When a clip names a morph twice, the first track wins.
pub fn clip_morph_weights(morphs: &[Morph], clip: Option<&Clip>, frame: f32, default_fps: f32) -> Vec<f32> {
    let mut out = vec![0.0; morphs.len()];
    let Some(clip) = clip.filter(|c| !c.morphs.is_empty()) else {
        return out;
    };
    let time = frame / clip.fps(default_fps);
    let by_name: std::collections::HashMap<&str, usize> =
        morphs.iter().enumerate().rev().map(|(i, m)| (m.name.as_str(), i)).collect();
    let mut seen = vec![false; morphs.len()];
    for track in &clip.morphs {
        if let Some(&i) = by_name.get(track.name.as_str())
            && !seen[i]
        {
            seen[i] = true;
            out[i] = sample_morph_track(track, time).unwrap_or(0.0);
        }
    }
    out
}

/// The effective weight of every morph ([`effective_morph_weights`]) at `frame` of `clip` (none: all 0), where
/// `overrides[i]`, when set, replaces what the clip gives morph `i` (a slider held by the user).
pub fn morph_weights(
    morphs: &[Morph],
    clip: Option<&Clip>,
    frame: f32,
    default_fps: f32,
    overrides: &[Option<f32>],
) -> Vec<f32> {
    if morphs.is_empty() {
        return Vec::new();
    }
    overridden_weights(morphs, &clip_morph_weights(morphs, clip, frame, default_fps), overrides)
}

/// VRM's expression rules (VRM 1.0 `expressions.md`, as three-vrm 3.5.5 applies them) on the weights the clip
/// and the sliders give: a binary expression weighs 1 above 0.5 and 0 otherwise; then each expression that
/// overrides the blink, lookAt or mouth expressions takes from them, 1 while it is on when it blocks, its weight
/// when it blends, and those are scaled by one minus the sum (at least 0). A binary expression left under 1 by
/// that is off ("the override value must be also treated as binary").
pub fn vrm_expression_weights(vrm: &crate::scene::VrmInfo, weights: &mut [f32]) {
    use crate::scene::Override;
    let weight_of = |w: &[f32], e: &crate::scene::Expression| {
        let w = w.get(e.morph).copied().unwrap_or(0.0);
        if e.is_binary { if w > 0.5 { 1.0 } else { 0.0 } } else { w }
    };
    let mut left = [1.0f32; 3];
    for e in &vrm.expressions {
        let w = weight_of(weights, e);
        for (left, o) in left.iter_mut().zip(e.overrides) {
            *left -= match o {
                Override::None => 0.0,
                Override::Block => f32::from(u8::from(w > 0.0)),
                Override::Blend => w,
            };
        }
    }
    let kind = |name: &str| match name {
        "blink" | "blinkLeft" | "blinkRight" => Some(0),
        "lookUp" | "lookDown" | "lookLeft" | "lookRight" => Some(1),
        "aa" | "ih" | "ou" | "ee" | "oh" => Some(2),
        _ => None,
    };
    let out: Vec<(usize, f32)> = vrm
        .expressions
        .iter()
        .map(|e| {
            let scale = kind(&e.name).filter(|_| e.preset).map_or(1.0, |k| left[k].max(0.0));
            let w = weight_of(weights, e) * scale;
            (e.morph, if e.is_binary && w < 1.0 { 0.0 } else { w })
        })
        .collect();
    for (m, w) in out {
        if let Some(slot) = weights.get_mut(m) {
            *slot = w;
        }
    }
}

/// [`effective_morph_weights`] of the clip's weights with `overrides[i]`, when set, in place of morph `i`'s.
pub fn overridden_weights(morphs: &[Morph], clip_weights: &[f32], overrides: &[Option<f32>]) -> Vec<f32> {
    effective_morph_weights(morphs, &with_overrides(clip_weights, overrides))
}

/// The clip's weights with `overrides[i]`, when set, in place of morph `i`'s.
pub(crate) fn with_overrides(clip_weights: &[f32], overrides: &[Option<f32>]) -> Vec<f32> {
    let mut w = clip_weights.to_vec();
    for (w, o) in w.iter_mut().zip(overrides) {
        if let Some(o) = o {
            *w = *o;
        }
    }
    w
}

/// The weight every morph ends up with: its own plus what the group and flip morphs that contain it pass on.
/// A group passes each member its weight times the member's factor. A flip morph passes its weight on to one
/// member only, chosen by the weight (of `n` members, member `⌊weight · n⌋`, the last at weight 1), with that
/// member's factor (PMX 2.1; the choice rule is MikuMikuMoving's as its documentation describes it, not
/// confirmed against the program). Nesting deeper than [`MAX_GROUP_DEPTH`] is ignored.
pub fn effective_morph_weights(morphs: &[Morph], weights: &[f32]) -> Vec<f32> {
    let mut out: Vec<f32> = (0..morphs.len()).map(|i| weights.get(i).copied().unwrap_or(0.0)).collect();
    let mut stack: Vec<(usize, f32, usize)> = Vec::new();
    for (i, m) in morphs.iter().enumerate() {
        let w = weights.get(i).copied().unwrap_or(0.0);
        if w != 0.0 && matches!(m.kind, MorphKind::Group(_) | MorphKind::Flip(_)) {
            stack.push((i, w, 0));
        }
        while let Some((g, w, depth)) = stack.pop() {
            if depth >= MAX_GROUP_DEPTH {
                continue;
            }
            let members: &[crate::scene::MorphWeight] = match &morphs[g].kind {
                MorphKind::Group(v) => v,
                MorphKind::Flip(v) if !v.is_empty() => {
                    let k = ((w.clamp(0.0, 1.0) * v.len() as f32) as usize).min(v.len() - 1);
                    &v[k..=k]
                }
                _ => &[],
            };
            for member in members.iter().filter(|m| m.morph < morphs.len()) {
                let mw = if matches!(morphs[g].kind, MorphKind::Flip(_)) { member.weight } else { w * member.weight };
                out[member.morph] += mw;
                if matches!(morphs[member.morph].kind, MorphKind::Group(_) | MorphKind::Flip(_)) {
                    stack.push((member.morph, mw, depth + 1));
                }
            }
        }
    }
    out
}

/// Moves and turns the joints of the bone morphs at the effective `weights` (relative to the locals, as
/// MikuMikuDance adds them before its bone constraints); true when any joint moved.
pub fn apply_bone_morphs(morphs: &[Morph], weights: &[f32], locals: &mut [crate::scene::Transform]) -> bool {
    let mut moved = false;
    for (m, &w) in morphs.iter().zip(weights) {
        let MorphKind::Bone(offsets) = &m.kind else { continue };
        if w == 0.0 || !w.is_finite() {
            continue;
        }
        for o in offsets {
            if let Some(l) = locals.get_mut(o.joint) {
                l.translation += o.translation * w;
                let turn = glam::Quat::IDENTITY.slerp(o.rotation.normalize(), w);
                if turn.is_finite() {
                    l.rotation = (l.rotation * turn).normalize();
                }
                moved = true;
            }
        }
    }
    moved
}

/// The material morphs of `morphs` with their scene morph index, for [`material_colors`].
pub fn material_morphs(morphs: &[Morph]) -> Vec<(usize, Vec<crate::scene::MaterialOffset>)> {
    morphs
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match &m.kind {
            MorphKind::Material(v) => Some((i, v.clone())),
            _ => None,
        })
        .collect()
}

/// Each scene material's MikuMikuDance colour parts, diffuse RGBA and ambient RGB as the file stores them
/// (sRGB-encoded), when the scene is an MMD model whose materials map one to one onto the scene's; empty
/// otherwise. With them a light colour other than the default relights the materials ([`lit_colors`]).
pub fn light_parts(scene: &crate::scene::Scene) -> Vec<Option<(glam::Vec4, glam::Vec3)>> {
    match &scene.mmd {
        Some(m) if m.materials.len() == scene.materials.len() => {
            m.materials.iter().map(|m| Some((m.diffuse, m.ambient))).collect()
        }
        _ => Vec::new(),
    }
}

/// The materials' colours (linear RGBA) under light colour `light` (sRGB-encoded, as keyed): `ambient + diffuse
/// × light`, clamped to 0..1 as MikuMikuDance's shaders do, alpha the diffuse alpha, for the materials `parts`
/// covers; `base` for the rest.
pub fn lit_colors(
    parts: &[Option<(glam::Vec4, glam::Vec3)>],
    base: &[glam::Vec4],
    light: glam::Vec3,
) -> Vec<glam::Vec4> {
    let finite = |v: glam::Vec4| glam::Vec4::from_array(v.to_array().map(|c| if c.is_finite() { c } else { 1.0 }));
    base.iter()
        .enumerate()
        .map(|(i, &b)| match parts.get(i).copied().flatten() {
            Some((diffuse, ambient)) => {
                let lit = finite((ambient + diffuse.truncate() * light).extend(diffuse.w));
                crate::scene::color::srgba_to_linear(lit.clamp(glam::Vec4::ZERO, glam::Vec4::ONE))
            }
            None => b,
        })
        .collect()
}

/// Each material's colour (linear RGBA) with the material morphs (from [`material_morphs`]) at the effective
/// `weights` applied to `base` (the materials' own colours, `ambient + diffuse × light` under the light colour
/// `light`, [`crate::scene::MMD_LIGHT`] grey by default), on the sRGB-encoded values as MikuMikuDance computes them: an add offset
/// adds `(ambient + diffuse × light)·w` of its own, alpha `diffuse.a·w`; a multiply offset scales by
/// `1 + (v − 1)·w` with `v` its diffuse factor, exact when it scales ambient alike (as morph editors write them;
/// the colour keeps no separate ambient to scale otherwise). `None` when no material morph has a weight (the
/// colours are the base ones).
pub fn material_colors(
    morphs: &[(usize, Vec<crate::scene::MaterialOffset>)],
    weights: &[f32],
    base: &[glam::Vec4],
    light: glam::Vec3,
) -> Option<Vec<glam::Vec4>> {
    use crate::scene::MaterialOp;
    let active: Vec<(&[crate::scene::MaterialOffset], f32)> = morphs
        .iter()
        .filter_map(|(i, v)| {
            let w = weights.get(*i).copied().unwrap_or(0.0);
            (w != 0.0 && w.is_finite()).then_some((v.as_slice(), w))
        })
        .collect();
    if active.is_empty() {
        return None;
    }
    use crate::scene::color::{linear_to_srgba, srgba_to_linear};
    let mut out: Vec<glam::Vec4> = base.iter().map(|&c| linear_to_srgba(c)).collect();
    for (offsets, w) in active {
        for o in offsets {
            let targets = match o.material {
                Some(m) if m < out.len() => m..m + 1,
                Some(_) => continue,
                None => 0..out.len(),
            };
            for c in &mut out[targets] {
                *c = match o.op {
                    MaterialOp::Multiply => *c * (glam::Vec4::ONE + (o.diffuse - glam::Vec4::ONE) * w),
                    MaterialOp::Add => *c + (o.ambient + o.diffuse.truncate() * light).extend(o.diffuse.w) * w,
                };
            }
        }
    }
    Some(out.into_iter().map(|c| srgba_to_linear(c.clamp(glam::Vec4::ZERO, glam::Vec4::ONE))).collect())
}

/// The texture transform offsets of `morphs` (VRM's texture transform binds), each with its scene morph index.
pub fn texture_transform_morphs(morphs: &[Morph]) -> Vec<(usize, crate::scene::TextureTransformOffset)> {
    let offsets = |(i, m): (usize, &Morph)| match &m.kind {
        MorphKind::TextureTransform(v) => v.iter().map(|o| (i, *o)).collect(),
        _ => Vec::new(),
    };
    morphs.iter().enumerate().flat_map(offsets).collect()
}

/// The colour offsets of `morphs` (VRM's material colour binds), each with its scene morph index, for
/// [`color_shifts`].
pub fn color_morphs(morphs: &[Morph]) -> Vec<(usize, crate::scene::ColorOffset)> {
    let offsets = |(i, m): (usize, &Morph)| match &m.kind {
        MorphKind::Color(v) => v.iter().map(|o| (i, *o)).collect(),
        _ => Vec::new(),
    };
    morphs.iter().enumerate().flat_map(offsets).collect()
}

/// What the colour offsets (from [`color_morphs`]) at the effective `weights` add to each of `materials` scene
/// materials' colours, by [`crate::scene::ColorTarget`] in its order (linear; alpha in the base colour's `w`):
/// `Σ delta · weight`, as three-vrm 3.5.5 adds each bind's `(target − own) · weight` to the material's own value.
/// `None` when no offset has a weight.
pub fn color_shifts(
    offsets: &[(usize, crate::scene::ColorOffset)],
    weights: &[f32],
    materials: usize,
) -> Option<Vec<[glam::Vec4; 5]>> {
    let mut out: Option<Vec<[glam::Vec4; 5]>> = None;
    for (morph, o) in offsets {
        let w = weights.get(*morph).copied().unwrap_or(0.0);
        if w == 0.0 || !w.is_finite() || o.material >= materials {
            continue;
        }
        let shifts = out.get_or_insert_with(|| vec![[glam::Vec4::ZERO; 5]; materials]);
        shifts[o.material][o.target as usize] += o.delta * w;
    }
    out
}

/// The scene's vertices with the vertex and UV morphs at the effective `weights` applied (borrowed as they
/// are when no vertex or UV morph has a weight), for CPU skinning of what the renderer draws.
pub fn morphed_vertices<'a>(
    scene: &'a crate::scene::Scene,
    weights: &[f32],
) -> std::borrow::Cow<'a, crate::scene::VertexStreams> {
    let moves = scene
        .morphs
        .iter()
        .zip(weights)
        .any(|(m, &w)| w != 0.0 && matches!(m.kind, MorphKind::Vertex(_) | MorphKind::Uv { channel: 0, .. }));
    if !moves {
        return std::borrow::Cow::Borrowed(&scene.vertices);
    }
    let mut v = scene.vertices.clone();
    apply_morphs(&scene.morphs, weights, &mut v.positions, v.texcoords.as_deref_mut());
    std::borrow::Cow::Owned(v)
}

/// Applies the vertex morphs and texture-coordinate (channel 0) UV morphs of `morphs` at the effective
/// `weights` to `positions` and `uvs` (vertices past either list are skipped).
pub fn apply_morphs(morphs: &[Morph], weights: &[f32], positions: &mut [Vec3], mut uvs: Option<&mut [Vec2]>) {
    for (m, &w) in morphs.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        match &m.kind {
            MorphKind::Vertex(offsets) => {
                for o in offsets {
                    if let Some(p) = positions.get_mut(o.vertex as usize) {
                        *p += o.delta * w;
                    }
                }
            }
            MorphKind::Uv { channel: 0, offsets } => {
                if let Some(uvs) = uvs.as_deref_mut() {
                    for o in offsets {
                        if let Some(t) = uvs.get_mut(o.vertex as usize) {
                            *t += o.delta.truncate().truncate() * w;
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// VRM's rules: a binary expression snaps to 0 or 1; one that blends blink away scales blink by one minus
    /// its weight, one that blocks the mouth zeroes the visemes while it is on; a custom expression named like a
    /// preset is left alone.
    #[test]
    fn vrm_binary_and_override_rules() {
        use crate::scene::{Expression, Override, VrmInfo};
        let e = |name: &str, morph, preset, is_binary, overrides| Expression {
            name: name.into(),
            preset,
            morph,
            is_binary,
            overrides,
            morph_binds: 1,
            material_binds: 0,
            texture_binds: 0,
        };
        let none = [Override::None; 3];
        let vrm = VrmInfo {
            expressions: vec![
                e("happy", 0, true, true, [Override::Blend, Override::None, Override::None]),
                e("blink", 1, true, false, none),
                e("angry", 2, true, false, [Override::None, Override::None, Override::Block]),
                e("aa", 3, true, false, none),
                e("aa", 4, false, false, none),
            ],
            ..VrmInfo::default()
        };
        let run = |w: [f32; 5]| {
            let mut w = w.to_vec();
            vrm_expression_weights(&vrm, &mut w);
            w
        };
        assert_eq!(run([0.4, 0.8, 0.0, 0.7, 0.7]), [0.0, 0.8, 0.0, 0.7, 0.7], "happy under 0.5 is off");
        assert_eq!(run([0.6, 0.8, 0.0, 0.7, 0.7]), [1.0, 0.0, 0.0, 0.7, 0.7], "happy on blends blink to 0");
        assert_eq!(run([0.0, 0.8, 0.1, 0.7, 0.7]), [0.0, 0.8, 0.1, 0.0, 0.7], "angry blocks the preset aa");
        // A binary expression an override leaves under 1 is off.
        let binary_blink = VrmInfo {
            expressions: vec![
                e("happy", 0, true, false, [Override::Blend, Override::None, Override::None]),
                e("blink", 1, true, true, none),
            ],
            ..VrmInfo::default()
        };
        let mut w = vec![0.4, 0.6];
        vrm_expression_weights(&binary_blink, &mut w);
        assert_eq!(w, [0.4, 0.0]);
        let half = VrmInfo {
            expressions: vec![
                e("happy", 0, true, false, [Override::Blend, Override::None, Override::None]),
                e("blink", 1, true, false, none),
            ],
            ..VrmInfo::default()
        };
        let mut w = vec![0.25, 1.0];
        vrm_expression_weights(&half, &mut w);
        assert_eq!(w, [0.25, 0.75]);
    }
    use crate::scene::{Easing, Key, MorphPanel, MorphWeight, VertexOffset};

    fn morph(name: &str, kind: MorphKind) -> Morph {
        Morph { name: name.into(), name_en: String::new(), panel: MorphPanel::Other, kind }
    }

    fn vertex(name: &str, v: u32, d: Vec3) -> Morph {
        morph(name, MorphKind::Vertex(vec![VertexOffset { vertex: v, delta: d }]))
    }

    #[test]
    fn groups_pass_their_weight_on_scaled_and_nested_and_a_cycle_ends() {
        let morphs = vec![
            vertex("a", 0, Vec3::X),
            vertex("b", 1, Vec3::Y),
            morph(
                "g",
                MorphKind::Group(vec![MorphWeight { morph: 0, weight: 0.5 }, MorphWeight { morph: 3, weight: 1.0 }]),
            ),
            morph(
                "h",
                MorphKind::Group(vec![MorphWeight { morph: 1, weight: 2.0 }, MorphWeight { morph: 2, weight: 1.0 }]),
            ),
        ];
        // g at 1: a gets 0.5, h gets 1, so b gets 2 and g gets 1 more (the cycle is cut at MAX_GROUP_DEPTH).
        let w = effective_morph_weights(&morphs, &[0.2, 0.0, 1.0, 0.0]);
        assert!(w[0] > 0.7 - 1e-6, "a: own 0.2 + 0.5 from g (+ more through the cycle): {w:?}");
        assert!(w[1] >= 2.0 - 1e-6, "{w:?}");
        // Without groups set, the weights are the own weights.
        assert_eq!(effective_morph_weights(&morphs, &[0.25, 0.5]), vec![0.25, 0.5, 0.0, 0.0]);
    }

    #[test]
    fn a_flip_morph_passes_its_weight_to_one_member() {
        let morphs = vec![
            vertex("a", 0, Vec3::X),
            vertex("b", 0, Vec3::Y),
            morph(
                "f",
                MorphKind::Flip(vec![MorphWeight { morph: 0, weight: 1.0 }, MorphWeight { morph: 1, weight: 0.5 }]),
            ),
        ];
        assert_eq!(effective_morph_weights(&morphs, &[0.0, 0.0, 0.25]), vec![1.0, 0.0, 0.25]);
        assert_eq!(effective_morph_weights(&morphs, &[0.0, 0.0, 1.0]), vec![0.0, 0.5, 1.0]);
    }

    #[test]
    fn vertex_and_uv_morphs_move_what_they_name_by_their_weight() {
        let morphs = vec![
            vertex("a", 1, Vec3::new(0.0, 2.0, 0.0)),
            morph(
                "uv",
                MorphKind::Uv {
                    channel: 0,
                    offsets: vec![crate::scene::UvOffset { vertex: 0, delta: glam::Vec4::new(0.5, 0.25, 9.0, 9.0) }],
                },
            ),
            vertex("past the end", 7, Vec3::ONE),
        ];
        let mut p = vec![Vec3::ZERO; 2];
        let mut uv = vec![Vec2::ZERO; 2];
        apply_morphs(&morphs, &[0.5, 1.0, 1.0], &mut p, Some(&mut uv));
        assert_eq!(p, vec![Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0)]);
        assert_eq!(uv, vec![Vec2::new(0.5, 0.25), Vec2::ZERO]);
    }

    #[test]
    fn clip_tracks_give_weights_by_name_with_their_easing() {
        let morphs = vec![vertex("あ", 0, Vec3::X), vertex("い", 0, Vec3::Y)];
        let mut clip = Clip::new("c", 30.0, false, 30, crate::scene::ClipData::Keyed { tracks: Vec::new() });
        clip.morphs = vec![
            MorphTrack {
                name: "あ".into(),
                keys: vec![Key { time: 0.0, value: 0.0 }, Key { time: 1.0, value: 1.0 }],
                ease: vec![Easing::LINEAR],
            },
            MorphTrack { name: "not in the model".into(), keys: vec![Key { time: 0.0, value: 1.0 }], ease: Vec::new() },
        ];
        let w = clip_morph_weights(&morphs, Some(&clip), 15.0, 30.0);
        assert!((w[0] - 0.5).abs() < 1e-6 && w[1] == 0.0, "{w:?}");
        assert_eq!(clip_morph_weights(&morphs, None, 15.0, 30.0), vec![0.0, 0.0]);
    }

    #[test]
    fn material_morphs_multiply_and_add_on_the_srgb_colour_and_can_hide() {
        use crate::scene::{MaterialOffset, MaterialOp};
        use glam::Vec4;
        let offset = |material, op, diffuse, ambient| MaterialOffset {
            material,
            op,
            diffuse,
            specular: Vec3::ZERO,
            specular_power: 0.0,
            ambient,
            edge_color: Vec4::ZERO,
            edge_size: 0.0,
            texture_tint: Vec4::ZERO,
            sphere_tint: Vec4::ZERO,
            toon_tint: Vec4::ZERO,
        };
        let morphs = vec![
            (0, vec![offset(Some(1), MaterialOp::Multiply, Vec4::new(1.0, 1.0, 1.0, 0.0), Vec3::ONE)]),
            (2, vec![offset(None, MaterialOp::Add, Vec4::new(0.5, 0.0, 0.0, 0.0), Vec3::new(0.2, 0.0, 0.0))]),
        ];
        let base = [Vec4::new(0.0, 0.0, 0.0, 1.0), Vec4::ONE];
        let light = glam::Vec3::splat(crate::scene::MMD_LIGHT);
        assert_eq!(material_colors(&morphs, &[0.0, 1.0, 0.0], &base, light), None, "no material morph has a weight");
        let c = material_colors(&morphs, &[1.0, 0.0, 1.0], &base, light).unwrap();
        assert_eq!(c[1].w, 0.0, "multiplied to 0: hidden");
        // Added through ambient + diffuse × light, in sRGB: 0.2 + 0.5 × 154/255 = 0.502 encoded, 0.2158 linear.
        assert!((c[0].x - 0.2158).abs() < 1e-3 && c[0].y == 0.0, "{:?}", c[0]);
        assert_eq!(c[1].x, 1.0, "clamped to 1");
    }

    #[test]
    fn bone_morphs_move_and_turn_their_joints_by_the_weight() {
        use crate::scene::{BoneOffset, Transform};
        let morphs = vec![morph(
            "b",
            MorphKind::Bone(vec![BoneOffset {
                joint: 1,
                translation: Vec3::new(0.0, 2.0, 0.0),
                rotation: glam::Quat::from_rotation_z(1.0),
            }]),
        )];
        let mut locals = vec![Transform::IDENTITY; 2];
        assert!(!apply_bone_morphs(&morphs, &[0.0], &mut locals));
        assert!(apply_bone_morphs(&morphs, &[0.5], &mut locals));
        assert_eq!(locals[1].translation, Vec3::new(0.0, 1.0, 0.0));
        assert!(locals[1].rotation.angle_between(glam::Quat::from_rotation_z(0.5)) < 1e-5);
        assert_eq!(locals[0], Transform::IDENTITY);
    }
}
