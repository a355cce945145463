//! Raw VMD records into a scene, the way the MVD reader builds one: an animation-only scene whose skeleton
//! lists each animated bone name once (no parents, identity bind), one clip at 30 frames per second named
//! after the model name in the header (else the file's name) with one `DeltaOnBind` track per bone and a
//! morph track per morph, and the camera in [`Scene::cameras`] playing with that clip.
//!
//! Keys are grouped by name, sorted by frame (MikuMikuDance itself lists a bone's keys out of order) and a
//! second key on one frame replaces the first. MikuMikuDance's later key owns a segment's curve, so key `i`
//! carries, as its segment's easing, the curves stored on key `i + 1` (as `formats::mvd` does).
//!
//! Camera values are converted to the scene's camera convention (MikuMikuMoving's, `scene/camera.rs`), which
//! is an affine change per channel and so commutes with interpolation: target as stored, distance negated,
//! angles (−rx, ry + π, rz), field of view in radians. With `C = Ry(−ry)·Rx(−rx)·Rz(−rz)` the eye is then
//! `target + C·(0, 0, distance)` with VMD's own values, the MVD note's §6 formula.

use std::collections::HashMap;
use std::f32::consts::PI;

use glam::{Quat, Vec3};

use super::bone::BoneKey;
use super::camera::CameraKey as RawCameraKey;
use super::morph::MorphKey;
use super::name;
use super::parse::RawVmd;
use crate::error::{LoadError, Location, Warning};
use crate::formats::mvd::easing;
use crate::scene::{
    CameraKey, CameraPropertyKey, CameraTrack, Clip, ClipData, Easing, Format, FrontFace, Interpolation, Joint, Key,
    Metadata, MorphTrack, Scene, Skeleton, Track, TrackEase, TrackMode, Transform, UpAxis, VmdInfo, VmdName,
    VmdTrackInfo,
};

/// Bytes 2 and 3 of a bone key's interpolation block that switch its bodies out of physics (MikuMikuDance 9.x).
pub const PHYSICS_OFF: [u8; 2] = [0x63, 0x0F];

/// MikuMikuDance's frame rate: VMD frames are 1/30 s.
pub const FPS: f32 = 30.0;

pub(crate) struct Warnings(pub Vec<Warning>);

impl Warnings {
    pub fn push(&mut self, rule: &'static str, location: Location, message: String) {
        self.0.push(Warning { rule, location, message });
    }
}

/// A key's quaternion as a unit rotation: one off unit length by more than 1e-3 (squared length) is
/// normalised with a warning, one that is no rotation (zero, NaN) becomes the identity.
pub(crate) fn unit_rotation(q: [f32; 4], rule: &'static str, at: Location, what: &str, w: &mut Warnings) -> Quat {
    let quat = Quat::from_array(q);
    let len2 = quat.length_squared();
    if !quat.is_finite() || len2 <= 1e-12 {
        w.push(rule, at, format!("{what}: quaternion {q:?} is not a rotation; identity used"));
        return Quat::IDENTITY;
    }
    if (len2 - 1.0).abs() > 1e-3 {
        w.push(rule, at, format!("{what}: quaternion {q:?} has length {:.4}, not 1; normalised", len2.sqrt()));
    }
    quat.normalize()
}

/// Name warnings, once per distinct name: cut inside a character, or bytes that are not cp932.
pub(crate) fn name_warnings(what: &str, name: &VmdName, at: u64, w: &mut Warnings) {
    if name.cut {
        w.push(
            "vmd.name.cut",
            Location::Offset(at),
            format!(
                "{what} \"{}\": the name fills its field and ends inside a two-byte character; the cut \
                 character is left out, and the name is a prefix of the real one",
                name.text
            ),
        );
    }
    if name::undecodable(name) {
        w.push(
            "vmd.name.encoding",
            Location::Offset(at),
            format!("{what} \"{}\": bytes {:02X?} are not Shift-JIS (cp932); replaced", name.text, name.raw),
        );
    }
}

/// Keys grouped by raw name, groups in order of first appearance.
fn group<K>(keys: Vec<K>, name: impl Fn(&K) -> &VmdName) -> Vec<(VmdName, Vec<K>)> {
    let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut out: Vec<(VmdName, Vec<K>)> = Vec::new();
    for k in keys {
        let raw = &name(&k).raw;
        match index.get(raw) {
            Some(&i) => out[i].1.push(k),
            None => {
                index.insert(raw.clone(), out.len());
                out.push((name(&k).clone(), vec![k]));
            }
        }
    }
    out
}

/// Where keys were out of frame order, for one warning per file.
#[derive(Default)]
struct Disorder {
    tracks: usize,
    first: Option<u64>,
}

/// Sorts one track's keys by frame (stable) and keeps the last of keys sharing a frame, with a warning.
fn sort_dedup<K>(
    keys: &mut Vec<K>,
    frame: impl Fn(&K) -> u32,
    offset: impl Fn(&K) -> u64,
    what: &str,
    disorder: &mut Disorder,
    w: &mut Warnings,
) {
    if let Some(k) = keys.windows(2).find(|p| frame(&p[1]) < frame(&p[0])) {
        disorder.tracks += 1;
        disorder.first.get_or_insert(offset(&k[1]));
    }
    keys.sort_by_key(&frame);
    let mut out: Vec<K> = Vec::with_capacity(keys.len());
    for k in keys.drain(..) {
        if let Some(last) = out.last_mut()
            && frame(last) == frame(&k)
        {
            w.push(
                "vmd.key.duplicate",
                Location::Offset(offset(&k)),
                format!("{what}: two keys on frame {}; the later one in the file used", frame(&k)),
            );
            *last = k;
        } else {
            out.push(k);
        }
    }
    *keys = out;
}

fn seconds(frame: u32) -> f32 {
    (f64::from(frame) / f64::from(FPS)) as f32
}

/// One bone's keys (sorted) as a track.
fn bone_track(joint: usize, keys: &[BoneKey], what: &str, w: &mut Warnings) -> Track {
    let rotation = keys
        .iter()
        .map(|k| Key {
            time: seconds(k.frame),
            value: unit_rotation(k.rotation, "vmd.bone.quaternion", Location::Offset(k.offset), what, w),
        })
        .collect();
    let translation =
        keys.iter().map(|k| Key { time: seconds(k.frame), value: Vec3::from_array(k.position) }).collect();
    let next = |i: usize| keys.get(i + 1).map(BoneKey::curves);
    let ease = TrackEase {
        translation: (0..keys.len())
            .map(|i| next(i).map_or([Easing::LINEAR; 3], |c| [easing(c[0]), easing(c[1]), easing(c[2])]))
            .collect(),
        rotation: (0..keys.len()).map(|i| next(i).map_or(Easing::LINEAR, |c| easing(c[3]))).collect(),
        scale: Vec::new(),
    };
    Track {
        joint,
        mode: TrackMode::DeltaOnBind,
        interpolation: Interpolation::Bezier,
        translation,
        rotation,
        scale: Vec::new(),
        ease: Some(Box::new(ease)),
    }
}

/// A VMD camera key in the scene's camera convention (module docs), easing the segment to the next key with
/// that key's curves.
pub fn camera_key(k: &RawCameraKey, next: Option<&RawCameraKey>) -> CameraKey {
    let [a, b, c] = k.angles;
    let curves = next.map(|n| n.curves().map(easing));
    CameraKey {
        time: seconds(k.frame),
        target: Vec3::from_array(k.target),
        distance: -k.distance,
        angles: Vec3::new(-a, b + PI, c),
        fov_y: (k.fov as f32).to_radians(),
        ease: curves.map_or([Easing::LINEAR; 4], |c| [c[0], c[3], c[4], c[5]]),
        target_ease: Some(curves.map_or([Easing::LINEAR; 3], |c| [c[0], c[1], c[2]])),
    }
}

fn camera_property(k: &RawCameraKey) -> CameraPropertyKey {
    CameraPropertyKey {
        time: seconds(k.frame),
        enabled: true,
        perspective: k.perspective_off == 0,
        alpha: 1.0,
        effect_enabled: true,
        dynamic_fov: None,
        related: (-1, -1),
    }
}

/// The clip's name: the header's model name, else the file's name without its extension.
fn clip_name(model: &str, file: &str) -> String {
    if !model.trim().is_empty() {
        return model.to_string();
    }
    let stem = std::path::Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if stem.is_empty() { "motion".to_string() } else { stem.to_string() }
}

/// The bone keys as the clip's tracks: one joint (no parent) and one track per bone name, keys sorted by frame.
struct BoneTracks {
    joints: Vec<Joint>,
    tracks: Vec<Track>,
    info: Vec<VmdTrackInfo>,
    /// MikuMikuDance 9.x's per-key physics switches, for the bones that have one off.
    physics_switches: Vec<crate::scene::IkSwitchTrack>,
}

fn bone_tracks(keys: Vec<BoneKey>, disorder: &mut Disorder, last_frame: &mut u32, w: &mut Warnings) -> BoneTracks {
    let mut out = BoneTracks { joints: Vec::new(), tracks: Vec::new(), info: Vec::new(), physics_switches: Vec::new() };
    for (name, mut keys) in group(keys, |k| &k.name) {
        let what = format!("bone \"{}\"", name.text);
        name_warnings("bone", &name, keys[0].offset, w);
        sort_dedup(&mut keys, |k| k.frame, |k| k.offset, &what, disorder, w);
        *last_frame = (*last_frame).max(keys.last().map_or(0, |k| k.frame));
        out.tracks.push(bone_track(out.joints.len(), &keys, &what, w));
        // MikuMikuDance 9.x's physics switch: 63 0F turns the bone's bodies out of physics until a key turns
        // them back (00 00); any other pair, as pre-9.x files store curve bytes there, leaves physics on.
        if keys.iter().any(|k| k.first_row_extra() == PHYSICS_OFF) {
            out.physics_switches.push(crate::scene::IkSwitchTrack {
                name: name.text.clone(),
                keys: keys
                    .iter()
                    .map(|k| Key { time: seconds(k.frame), value: k.first_row_extra() != PHYSICS_OFF })
                    .collect(),
            });
        }
        out.joints.push(Joint { name: name.text.clone(), parent: None, bind: Transform::IDENTITY });
        out.info.push(VmdTrackInfo { name, keys: keys.len() });
    }
    out
}

/// The morph keys as the clip's morph tracks: weights lerped between keys (VMD stores no morph curves).
fn morph_tracks(
    keys: Vec<MorphKey>,
    disorder: &mut Disorder,
    last_frame: &mut u32,
    w: &mut Warnings,
) -> (Vec<MorphTrack>, Vec<VmdTrackInfo>) {
    let mut morphs = Vec::new();
    let mut info = Vec::new();
    for (name, mut keys) in group(keys, |k: &MorphKey| &k.name) {
        let what = format!("morph \"{}\"", name.text);
        name_warnings("morph", &name, keys[0].offset, w);
        sort_dedup(&mut keys, |k| k.frame, |k| k.offset, &what, disorder, w);
        *last_frame = (*last_frame).max(keys.last().map_or(0, |k| k.frame));
        morphs.push(MorphTrack {
            name: name.text.clone(),
            keys: keys.iter().map(|k| Key { time: seconds(k.frame), value: k.weight }).collect(),
            ease: Vec::new(),
        });
        info.push(VmdTrackInfo { name, keys: keys.len() });
    }
    (morphs, info)
}

/// The property keys sorted by frame, and the IK bones their switches name, in first-seen order.
fn property_keys(
    raw: Vec<(u64, crate::scene::VmdPropertyKey)>,
    w: &mut Warnings,
) -> (Vec<crate::scene::VmdPropertyKey>, Vec<String>) {
    let mut properties = Vec::with_capacity(raw.len());
    let mut ik_chains: Vec<String> = Vec::new();
    let mut in_order = true;
    for (offset, p) in raw {
        if properties.last().is_some_and(|q: &crate::scene::VmdPropertyKey| q.frame > p.frame) {
            in_order = false;
        }
        for s in &p.ik {
            if !ik_chains.contains(&s.bone.text) {
                name_warnings("IK bone", &s.bone, offset, w);
                ik_chains.push(s.bone.text.clone());
            }
        }
        properties.push(p);
    }
    if !in_order {
        properties.sort_by_key(|p| p.frame);
    }
    (properties, ik_chains)
}

/// The property keys' IK switches as one stepped track per IK bone (keys sorted by frame).
fn ik_switch_tracks(
    ik_chains: &[String],
    properties: &[crate::scene::VmdPropertyKey],
) -> Vec<crate::scene::IkSwitchTrack> {
    ik_chains
        .iter()
        .map(|name| crate::scene::IkSwitchTrack {
            name: name.clone(),
            keys: properties
                .iter()
                .filter_map(|p| {
                    p.ik.iter().find(|s| &s.bone.text == name).map(|s| Key { time: seconds(p.frame), value: s.enabled })
                })
                .collect(),
        })
        .collect()
}

pub fn build(raw: RawVmd, file: &str) -> Result<Scene, LoadError> {
    let mut w = Warnings(raw.warnings);
    let header = raw.header;
    name_warnings("model name", &header.model_name, 30, &mut w);
    let mut disorder = Disorder::default();
    let mut last_frame: u32 = 0;

    let bones = bone_tracks(raw.bones, &mut disorder, &mut last_frame, &mut w);
    let (morphs, morph_info) = morph_tracks(raw.morphs, &mut disorder, &mut last_frame, &mut w);
    // The camera.
    let mut cams = raw.cameras;
    sort_dedup(&mut cams, |k| k.frame, |k| k.offset, "camera", &mut disorder, &mut w);
    last_frame = last_frame.max(cams.last().map_or(0, |k| k.frame));

    if disorder.tracks > 0 {
        w.push(
            "vmd.key.order",
            Location::Offset(disorder.first.unwrap_or(0)),
            format!(
                "{} track(s) list keys out of frame order (MikuMikuDance writes them so); sorted by frame",
                disorder.tracks
            ),
        );
    }
    let (properties, ik_chains) = property_keys(raw.properties, &mut w);
    let mut lights = raw.lights;
    lights.sort_by_key(|l| l.frame);
    let mut shadows = raw.shadows;
    shadows.sort_by_key(|s| s.frame);
    for f in
        properties.iter().map(|p| p.frame).chain(lights.iter().map(|l| l.frame)).chain(shadows.iter().map(|s| s.frame))
    {
        last_frame = last_frame.max(f);
    }

    let name = clip_name(&header.model_name.text, file);
    let frame_count = last_frame.saturating_add(1);
    let mut clip = Clip::new(name.clone(), FPS, false, frame_count, ClipData::Keyed { tracks: bones.tracks });
    clip.morphs = morphs;
    clip.physics_switches = bones.physics_switches;
    clip.ik_switches = ik_switch_tracks(&ik_chains, &properties);
    // The property keys' visibility, kept when some key hides the model.
    if properties.iter().any(|p| !p.visible) {
        clip.visibility = properties.iter().map(|p| Key { time: seconds(p.frame), value: p.visible }).collect();
    }
    let mut cameras = Vec::new();
    if !cams.is_empty() {
        cameras.push(CameraTrack {
            name: header.model_name.text.clone(),
            clip: Some(name),
            keys: cams.iter().enumerate().map(|(i, k)| camera_key(k, cams.get(i + 1))).collect(),
            properties: cams.iter().map(camera_property).collect(),
            cut_span: 1.0 / FPS,
        });
    }
    let light_tracks = light_track(&header.model_name.text, &lights, &shadows).into_iter().collect();

    // No joint has a parent, so this cannot fail.
    let skeleton =
        Skeleton::new(bones.joints, false).map_err(|i| LoadError::at(0, format!("joint {i}: bad parent")))?;
    let mut meta = Metadata::new(Format::Vmd, header.version.to_string());
    meta.warnings = w.0;
    let info = VmdInfo {
        signature: header.signature,
        version: header.version,
        model_name: header.model_name,
        counts: raw.counts,
        bones: bones.info,
        morphs: morph_info,
        camera_keys: cams.len(),
        lights,
        shadows,
        properties,
        ik_chains,
        trailing_bytes: raw.trailing,
    };
    Ok(Scene {
        skeleton,
        clips: vec![clip],
        cameras,
        lights: light_tracks,
        up: UpAxis::YLeftHanded,
        front_face: FrontFace::Ccw,
        vmd: Some(Box::new(info)),
        ..Scene::empty(meta)
    })
}

/// The motion's light and self-shadow keys as a light track named after the model field (`None` without any).
fn light_track(
    name: &str,
    lights: &[crate::scene::VmdLightKey],
    shadows: &[crate::scene::VmdShadowKey],
) -> Option<crate::scene::LightTrack> {
    use crate::scene::{Light, LightKey, LightTrack, ShadowKey};
    (!lights.is_empty() || !shadows.is_empty()).then(|| LightTrack {
        name: name.to_string(),
        keys: lights
            .iter()
            .map(|l| LightKey {
                time: seconds(l.frame),
                light: Light { color: l.color.into(), direction: l.direction.into() },
                enabled: true,
            })
            .collect(),
        shadows: shadows
            .iter()
            .map(|s| ShadowKey { time: seconds(s.frame), mode: s.mode, distance: s.distance })
            .collect(),
    })
}
