//! Raw MVD records into a scene (MVD note §4–§7).
//!
//! An MVD has no mesh and no bind pose: the skeleton lists each animated bone name once (no parents,
//! identity bind), and each object becomes a clip named after the object with one `DeltaOnBind` track per
//! bone, so `anim::attach` matches tracks to a model's joints by exact name and applies them as MMD does
//! (translation added to the bind translation, rotation multiplied after the bind rotation). Curves become
//! per-segment [`Easing`]s: MMD's later key owns a segment's curve, so key `i` gets the curve stored on key
//! `i + 1`. Stage 0 is the base layer; other stages are listed in [`MvdInfo`] and, when asked for, added as
//! further `DeltaOnBind` tracks after the base ones (applied on top, in stage order).
//!
//! An object's Light keys and Project self-shadow keys become a [`LightTrack`] named after the object; the
//! Project gravity keys of every object become [`Clip::gravity`] on every clip of the file (MikuMikuMoving's
//! project settings are scene-wide, and the object that holds them need not be the one played). Accessory and
//! effect keys are listed in [`MvdInfo`] only: the accessories (.x files) and effects themselves are not loaded.

use std::collections::HashMap;

use glam::{Quat, Vec3};

use super::parse::{BoneFrame, CameraFrame, CameraProps, Curve, ModelPropertyFrame, RawFile, RawObject};
use crate::error::{LoadError, Location, Warning};
use crate::scene::{
    CameraKey, CameraPropertyKey, CameraTrack, Clip, ClipData, Easing, Format, FrontFace, Interpolation, Joint, Key,
    Metadata, MorphTrack, MvdInfo, MvdObject, MvdStage, MvdTrackInfo, Scene, Skeleton, Track, TrackEase, TrackMode,
    Transform, UpAxis,
};
use crate::scene::{Light, LightKey, LightTrack, MvdEffect, MvdEffectParameter, MvdProjectKey, ShadowKey};

/// Ticks per second when an object's keyFps is unusable.
pub const FALLBACK_FPS: f32 = 30.0;

/// Loader choices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Add bone stages other than 0 on top of the base stage (translations summed, rotations multiplied in
    /// stage order). How MikuMikuMoving combines stages is undocumented: this is an assumption (note §7).
    pub additive_stages: bool,
}

/// An MMD curve (bytes 0–127, clamped) as an easing.
pub fn easing(c: Curve) -> Easing {
    let f = |b: u8| f32::from(b.min(127)) / 127.0;
    Easing::new(f(c[0]), f(c[1]), f(c[2]), f(c[3]))
}

struct Warnings(Vec<Warning>);

impl Warnings {
    fn at(&mut self, rule: &'static str, offset: u64, message: String) {
        self.0.push(Warning { rule, location: Location::Offset(offset), message });
    }
}

/// Sorts frames stably by (stage, time) and drops all but the last of frames sharing both, with a warning.
fn sort_dedup<F>(
    frames: &mut Vec<F>,
    key: impl Fn(&F) -> (i32, i64),
    offset: impl Fn(&F) -> u64,
    what: &str,
    w: &mut Warnings,
) {
    // Stages may interleave in a file; within a stage, times must not go back.
    let mut last: std::collections::HashMap<i32, i64> = std::collections::HashMap::new();
    if let Some(f) = frames.iter().find(|f| {
        let (stage, time) = key(f);
        last.insert(stage, time).is_some_and(|before| time < before)
    }) {
        let (stage, time) = key(f);
        w.at(
            "mvd.key.order",
            offset(f),
            format!("{what}: keys out of time order (stage {stage} time {time} after a later one); sorted"),
        );
    }
    frames.sort_by_key(&key);
    let mut out: Vec<F> = Vec::with_capacity(frames.len());
    for f in frames.drain(..) {
        if let Some(last) = out.last_mut()
            && key(last) == key(&f)
        {
            let (stage, time) = key(&f);
            w.at(
                "mvd.key.duplicate",
                offset(&f),
                format!("{what}: two keys at stage {stage} time {time}; the later one used"),
            );
            *last = f;
        } else {
            out.push(f);
        }
    }
    *frames = out;
}

/// Consecutive runs of equal stage, in order.
fn by_stage<F>(frames: &[F], stage: impl Fn(&F) -> i32) -> Vec<(i32, &[F])> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=frames.len() {
        if i == frames.len() || stage(&frames[i]) != stage(&frames[start]) {
            if i > start {
                out.push((stage(&frames[start]), &frames[start..i]));
            }
            start = i;
        }
    }
    out
}

fn stage_name(names: &HashMap<i32, String>, owner: i32, stage: i32) -> Option<String> {
    // Stage names live under negative keys; owner 0's stage 0 would be key 0, the owner's own name.
    let key = i64::from(owner) * -1000 - i64::from(stage);
    i32::try_from(key).ok().filter(|&k| k < 0).and_then(|k| names.get(&k).cloned())
}

fn seconds(tick: i64, fps: f32) -> f32 {
    (tick as f64 / f64::from(fps)) as f32
}

/// One stage of a bone as a track: keys in seconds, each key easing the segment after it with the next key's
/// curves.
fn bone_track(joint: usize, frames: &[BoneFrame], fps: f32, w: &mut Warnings, name: &str) -> Track {
    let mut rotation = |f: &BoneFrame| {
        let q = Quat::from_array(f.rotation);
        if q.is_finite() && q.length_squared() > 1e-12 {
            q.normalize()
        } else {
            w.at(
                "mvd.bone.quaternion",
                f.offset,
                format!("bone \"{name}\": quaternion {:?} is not a rotation; identity used", f.rotation),
            );
            Quat::IDENTITY
        }
    };
    let rotation: Vec<Key<Quat>> =
        frames.iter().map(|f| Key { time: seconds(f.time, fps), value: rotation(f) }).collect();
    let translation =
        frames.iter().map(|f| Key { time: seconds(f.time, fps), value: Vec3::from_array(f.position) }).collect();
    let next = |i: usize| frames.get(i + 1).map(|f| f.curves);
    let ease = TrackEase {
        translation: (0..frames.len())
            .map(|i| next(i).map_or([Easing::LINEAR; 3], |c| [easing(c[0]), easing(c[1]), easing(c[2])]))
            .collect(),
        rotation: (0..frames.len()).map(|i| next(i).map_or(Easing::LINEAR, |c| easing(c[3]))).collect(),
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

fn camera_keys(frames: &[CameraFrame], fps: f32) -> Vec<CameraKey> {
    frames
        .iter()
        .enumerate()
        .map(|(i, f)| CameraKey {
            time: seconds(f.time, fps),
            target: Vec3::from_array(f.position),
            distance: f.radius,
            angles: Vec3::from_array(f.angles),
            fov_y: f.fov,
            ease: frames.get(i + 1).map_or([Easing::LINEAR; 4], |n| n.curves.map(easing)),
            target_ease: None,
        })
        .collect()
}

fn property_key(p: &CameraProps, fps: f32) -> CameraPropertyKey {
    CameraPropertyKey {
        time: seconds(p.time, fps),
        enabled: p.enabled,
        perspective: p.perspective,
        alpha: p.alpha,
        effect_enabled: p.effect_enabled,
        dynamic_fov: p.dynamic_fov.and_then(|(on, rate, coef)| on.then_some((rate, coef))),
        related: p.related.unwrap_or((-1, -1)),
    }
}

/// A NameList name, or `#key` with a warning when the list lacks it.
fn resolve(names: &HashMap<i32, String>, key: i32, what: &str, offset: u64, w: &mut Warnings) -> String {
    names.get(&key).cloned().unwrap_or_else(|| {
        w.at("mvd.name.missing", offset, format!("{what} key {key}: no NameList entry; named \"#{key}\""));
        format!("#{key}")
    })
}

pub fn build(raw: RawFile, opts: &ReadOptions) -> Result<Scene, LoadError> {
    let mut w = Warnings(raw.warnings);
    let mut joint_names: Vec<String> = Vec::new();
    let mut joint_of: HashMap<String, usize> = HashMap::new();
    let mut clips = Vec::new();
    let mut cameras = Vec::new();
    let mut objects = Vec::new();
    let mut clip_names: HashMap<String, usize> = HashMap::new();
    let mut lights = Vec::new();
    let mut gravity = Vec::new();

    for o in &raw.objects {
        let fps = if o.key_fps.is_finite() && o.key_fps > 0.0 {
            o.key_fps
        } else {
            w.at(
                "mvd.key_fps",
                o.offset,
                format!("object \"{}\": keyFps {}: expected a positive number; {FALLBACK_FPS} used", o.name, o.key_fps),
            );
            FALLBACK_FPS
        };
        if let Some(prev) = clip_names.insert(o.name.clone(), clips.len()) {
            w.at(
                "mvd.object.duplicate",
                o.offset,
                format!("object \"{}\" shares its name with object {prev}'s clip; --anim picks the first", o.name),
            );
        }
        let built = object(o, fps, opts, &mut joint_names, &mut joint_of, &mut w);
        let mut info = built.info;
        info.clip = Some(clips.len());
        for mut cam in built.cameras {
            cam.clip = Some(o.name.clone());
            cameras.push(cam);
        }
        let mut clip =
            Clip::new(o.name.clone(), fps, false, built.frame_count, ClipData::Keyed { tracks: built.tracks });
        clip.morphs = built.morphs;
        clip.ik_switches = built.ik_switches;
        clip.physics_switches = built.physics_switches;
        clip.visibility = built.visibility;
        clips.push(clip);
        objects.push(info);
        lights.extend(built.light);
        gravity.extend(built.gravity);
    }
    // Project settings are the scene's: every clip of the file carries them.
    gravity.sort_by(|a: &Key<Vec3>, b| a.time.total_cmp(&b.time));
    for c in &mut clips {
        c.gravity = gravity.clone();
    }

    let joints = joint_names.into_iter().map(|name| Joint { name, parent: None, bind: Transform::IDENTITY }).collect();
    // No joint has a parent, so this cannot fail.
    let skeleton = Skeleton::new(joints, false).map_err(|i| LoadError::at(0, format!("joint {i}: bad parent")))?;
    let mut meta = Metadata::new(Format::Mvd, format!("{}", raw.version));
    meta.comment = None;
    meta.warnings = w.0;
    let mut scene = Scene::empty(meta);
    scene.skeleton = skeleton;
    scene.clips = clips;
    scene.cameras = cameras;
    scene.lights = lights;
    scene.up = UpAxis::YLeftHanded;
    scene.front_face = FrontFace::Ccw;
    scene.mvd = Some(Box::new(MvdInfo {
        version: raw.version,
        encoding: raw.encoding,
        objects,
        additive_stages: opts.additive_stages,
    }));
    Ok(scene)
}

struct BuiltObject {
    info: MvdObject,
    tracks: Vec<Track>,
    morphs: Vec<MorphTrack>,
    ik_switches: Vec<crate::scene::IkSwitchTrack>,
    physics_switches: Vec<crate::scene::IkSwitchTrack>,
    visibility: Vec<Key<bool>>,
    cameras: Vec<CameraTrack>,
    light: Option<LightTrack>,
    gravity: Vec<Key<Vec3>>,
    frame_count: u32,
}

/// The ModelProperty keys' IK switches as one stepped track per IK bone (by NameList name, `#key` when
/// unlisted), keys of all sections merged in time order.
fn ik_switches(o: &RawObject, names: &HashMap<i32, String>, fps: f32) -> Vec<crate::scene::IkSwitchTrack> {
    let mut out: Vec<crate::scene::IkSwitchTrack> = Vec::new();
    for m in &o.model_properties {
        for (k, key) in m.ik_bones.iter().enumerate() {
            let name = names.get(key).cloned().unwrap_or_else(|| format!("#{key}"));
            let i = match out.iter().position(|t| t.name == name) {
                Some(i) => i,
                None => {
                    out.push(crate::scene::IkSwitchTrack { name, keys: Vec::new() });
                    out.len() - 1
                }
            };
            let keys =
                m.frames.iter().filter_map(|f| Some(Key { time: seconds(f.time, fps), value: *f.ik_enabled.get(k)? }));
            out[i].keys.extend(keys);
        }
    }
    for t in &mut out {
        t.keys.sort_by(|a, b| a.time.total_cmp(&b.time));
    }
    out
}

fn object(
    o: &RawObject,
    fps: f32,
    opts: &ReadOptions,
    joint_names: &mut Vec<String>,
    joint_of: &mut HashMap<String, usize>,
    w: &mut Warnings,
) -> BuiltObject {
    let names = o.name_map();
    let mut max_tick: i64 = 0;
    let mut info = object_info(o, &names);
    let (light, gravity) = property_keys(o, &names, fps, &mut info, &mut max_tick, w);
    let tracks = bone_tracks(o, &names, fps, opts, (joint_names, joint_of), &mut info.bones, &mut max_tick, w);
    let morphs = morph_tracks(o, &names, fps, &mut info.morphs, &mut max_tick, w);
    let cameras = camera_tracks(o, &names, fps, &mut info.cameras, &mut max_tick, w);
    let frame_count = u32::try_from(max_tick.saturating_add(1)).unwrap_or(u32::MAX);
    let ik_switches = ik_switches(o, &names, fps);
    // The model properties' visibility and physics switch (for the whole model), kept when some key turns
    // them off.
    let visibility = property_switch(o, fps, |f| f.visible);
    let physics = property_switch(o, fps, |f| f.physics);
    let physics_switches = if physics.is_empty() {
        Vec::new()
    } else {
        vec![crate::scene::IkSwitchTrack { name: crate::scene::WHOLE_MODEL.to_string(), keys: physics }]
    };
    BuiltObject {
        info,
        tracks,
        morphs,
        ik_switches,
        physics_switches,
        visibility,
        cameras,
        light,
        gravity,
        frame_count,
    }
}

/// What the object lists, before its keys are read.
fn object_info(o: &RawObject, names: &HashMap<i32, String>) -> MvdObject {
    MvdObject {
        offset: o.offset,
        name: o.name.clone(),
        english_name: o.english_name.clone(),
        key_fps: o.key_fps,
        clip: None,
        sections: o.sections.clone(),
        names: o.names.clone(),
        bones: Vec::new(),
        morphs: Vec::new(),
        cameras: Vec::new(),
        camera_property_keys: o.camera_properties.len(),
        model_property_keys: o.model_properties.iter().map(|m| m.frames.len()).sum(),
        ik_bones: o.model_properties.iter().flat_map(|m| m.ik_bones.iter()).fold(
            Vec::new(),
            |mut v: Vec<String>, k| {
                let n = names.get(k).cloned().unwrap_or_else(|| format!("#{k}"));
                if !v.contains(&n) {
                    v.push(n);
                }
                v
            },
        ),
        motion_clips: o.motion_clips.clone(),
        motion_blends: o.motion_blends.clone(),
        lights: Vec::new(),
        project: Vec::new(),
        accessory: Vec::new(),
        effects: Vec::new(),
        other_keys: o.other_keys,
    }
}

/// The bone sections as tracks (sections with the same key merge; frames sort by (stage, time)): each bone's
/// stage 0 first, then, with `additive_stages`, its other stages in stage order so each adds on top.
#[allow(clippy::too_many_arguments)]
fn bone_tracks(
    o: &RawObject,
    names: &HashMap<i32, String>,
    fps: f32,
    opts: &ReadOptions,
    (joint_names, joint_of): (&mut Vec<String>, &mut HashMap<String, usize>),
    info: &mut Vec<MvdTrackInfo>,
    max_tick: &mut i64,
    w: &mut Warnings,
) -> Vec<Track> {
    let mut bone_order: Vec<i32> = Vec::new();
    // Per bone key: frames of all its sections, and the first section's stage count, parent clip and offset.
    type Merged = (Vec<BoneFrame>, Option<i32>, Option<i32>, u64);
    let mut bone_frames: HashMap<i32, Merged> = HashMap::new();
    for b in &o.bones {
        let e = bone_frames.entry(b.key).or_insert_with(|| {
            bone_order.push(b.key);
            (Vec::new(), b.stage_count, b.parent_clip, b.offset)
        });
        e.0.extend(b.frames.iter().cloned());
    }
    let mut base_tracks = Vec::new();
    let mut stage_tracks: Vec<(i32, Track)> = Vec::new();
    for key in bone_order {
        let Some((mut frames, stage_count, parent_clip, offset)) = bone_frames.remove(&key) else { continue };
        let name = resolve(names, key, "bone", offset, w);
        let joint = *joint_of.entry(name.clone()).or_insert_with(|| {
            joint_names.push(name.clone());
            joint_names.len() - 1
        });
        sort_dedup(&mut frames, |f| (f.stage, f.time), |f| f.offset, &format!("bone \"{name}\""), w);
        if let Some(t) = frames.iter().map(|f| f.time).max() {
            *max_tick = (*max_tick).max(t);
        }
        let mut stages = Vec::new();
        for (stage, run) in by_stage(&frames, |f| f.stage) {
            stages.push(MvdStage { id: stage, name: stage_name(names, key, stage), keys: run.len() });
            let track = bone_track(joint, run, fps, w, &name);
            if stage == 0 {
                base_tracks.push(track);
            } else if opts.additive_stages {
                stage_tracks.push((stage, track));
            }
        }
        info.push(MvdTrackInfo { name, key, stages, parent_clip, stage_count });
    }
    // Stage tracks come after every base track, in stage order, so each adds on top of what came before.
    stage_tracks.sort_by_key(|(s, _)| *s);
    let mut tracks = base_tracks;
    tracks.extend(stage_tracks.into_iter().map(|(_, t)| t));
    tracks
}

/// The camera sections as camera tracks: stage 0 is the camera; inline minor 0/1 properties join the
/// CameraProperty frames, which every track shares.
fn camera_tracks(
    o: &RawObject,
    names: &HashMap<i32, String>,
    fps: f32,
    info: &mut Vec<MvdTrackInfo>,
    max_tick: &mut i64,
    w: &mut Warnings,
) -> Vec<CameraTrack> {
    let mut props: Vec<CameraProps> = o.camera_properties.clone();
    let mut cameras = Vec::new();
    for c in &o.cameras {
        let name = resolve(names, c.key, "camera", c.offset, w);
        let mut frames = c.frames.clone();
        sort_dedup(&mut frames, |f| (f.stage, f.time), |f| f.offset, &format!("camera \"{name}\""), w);
        if let Some(t) = frames.iter().map(|f| f.time).max() {
            *max_tick = (*max_tick).max(t);
        }
        let mut stages = Vec::new();
        let mut base: &[CameraFrame] = &[];
        for (stage, run) in by_stage(&frames, |f| f.stage) {
            stages.push(MvdStage { id: stage, name: stage_name(names, c.key, stage), keys: run.len() });
            if stage == 0 {
                base = run;
            }
        }
        props.extend(base.iter().filter_map(|f| f.inline));
        info.push(MvdTrackInfo {
            name: name.clone(),
            key: c.key,
            stages,
            parent_clip: None,
            stage_count: c.stage_count,
        });
        cameras.push(CameraTrack {
            name,
            clip: None,
            keys: camera_keys(base, fps),
            properties: Vec::new(),
            cut_span: 1.0 / fps,
        });
    }
    props.sort_by_key(|p| p.time);
    if let Some(t) = props.iter().map(|p| p.time).max() {
        *max_tick = (*max_tick).max(t);
    }
    let prop_keys: Vec<CameraPropertyKey> = props.iter().map(|p| property_key(p, fps)).collect();
    for t in &mut cameras {
        t.properties = prop_keys.clone();
    }
    cameras
}

/// The light, project, accessory and effect keys into `info` (sorted by time), raising `max_tick` to the last;
/// returns the object's light track and gravity keys.
fn property_keys(
    o: &RawObject,
    names: &HashMap<i32, String>,
    fps: f32,
    info: &mut MvdObject,
    max_tick: &mut i64,
    w: &mut Warnings,
) -> (Option<LightTrack>, Vec<Key<Vec3>>) {
    info.lights = sorted_by_time(&o.lights, |k| k.time);
    info.project = sorted_by_time(&o.project, |k| k.time);
    info.accessory = sorted_by_time(&o.accessory, |k| k.time);
    info.effects = effects(o, names, w);
    let ticks = info.lights.iter().map(|k| k.time).chain(info.project.iter().map(|k| k.time));
    let ticks = ticks
        .chain(info.accessory.iter().map(|k| k.time))
        .chain(info.effects.iter().flat_map(|e| e.keys.iter().map(|k| k.head.time)));
    *max_tick = ticks.fold(*max_tick, i64::max);
    (light_track(info, fps), gravity_keys(&info.project, fps))
}

/// Keys sorted stably by time (a later key at the same time wins where keys are looked up).
fn sorted_by_time<K: Clone>(keys: &[K], time: impl Fn(&K) -> i64) -> Vec<K> {
    let mut v = keys.to_vec();
    v.sort_by_key(time);
    v
}

/// EffectProperty sections with their parameters named through the NameList and keys sorted by time.
fn effects(o: &RawObject, names: &HashMap<i32, String>, w: &mut Warnings) -> Vec<MvdEffect> {
    o.effects
        .iter()
        .map(|e| MvdEffect {
            offset: e.offset,
            parameters: e
                .parameters
                .iter()
                .map(|&(key, kind)| MvdEffectParameter {
                    key,
                    name: resolve(names, key, "effect parameter", e.offset, w),
                    kind,
                })
                .collect(),
            keys: sorted_by_time(&e.keys, |k| k.head.time),
        })
        .collect()
}

/// The object's light and self-shadow keys as a light track (none without either): colour bytes / 255,
/// direction as keyed; shadow mode 0 (none) or 1 (MikuMikuMoving's depth shadow; other values read as 1) and
/// distance as stored.
fn light_track(info: &MvdObject, fps: f32) -> Option<LightTrack> {
    if info.lights.is_empty() && info.project.is_empty() {
        return None;
    }
    let keys = info
        .lights
        .iter()
        .map(|k| LightKey {
            time: seconds(k.time, fps),
            light: Light {
                color: Vec3::from_array(k.color.map(|c| f32::from(c) / 255.0)),
                direction: Vec3::from_array(k.position),
            },
            enabled: k.enabled,
        })
        .collect();
    let shadows = info
        .project
        .iter()
        .map(|k| ShadowKey {
            time: seconds(k.time, fps),
            mode: u8::from(k.shadow_model != 0),
            distance: k.shadow_distance,
        })
        .collect();
    Some(LightTrack { name: info.name.clone(), keys, shadows })
}

/// The Project keys' gravity, in seconds, sorted.
fn gravity_keys(project: &[MvdProjectKey], fps: f32) -> Vec<Key<Vec3>> {
    project.iter().filter_map(|k| Some(Key { time: seconds(k.time, fps), value: k.acceleration()? })).collect()
}

/// One on/off value of the model properties as stepped keys sorted by time; empty when every key is on.
fn property_switch(o: &RawObject, fps: f32, value: impl Fn(&ModelPropertyFrame) -> bool) -> Vec<Key<bool>> {
    let mut keys: Vec<Key<bool>> = o
        .model_properties
        .iter()
        .flat_map(|m| m.frames.iter().map(|f| Key { time: seconds(f.time, fps), value: value(f) }))
        .collect();
    keys.sort_by(|a, b| a.time.total_cmp(&b.time));
    if keys.iter().all(|k| k.value) {
        keys.clear();
    }
    keys
}

/// Morph tracks, sections of one morph merged with their times kept sorted; lists them in `info_morphs` and
/// raises `max_tick` to their last key.
fn morph_tracks(
    o: &RawObject,
    names: &HashMap<i32, String>,
    fps: f32,
    info_morphs: &mut Vec<MvdTrackInfo>,
    max_tick: &mut i64,
    w: &mut Warnings,
) -> Vec<MorphTrack> {
    let mut morphs: Vec<MorphTrack> = Vec::new();
    for m in &o.morphs {
        let name = resolve(names, m.key, "morph", m.offset, w);
        let mut frames = m.frames.clone();
        sort_dedup(&mut frames, |f| (0, f.time), |f| f.offset, &format!("morph \"{name}\""), w);
        if let Some(t) = frames.iter().map(|f| f.time).max() {
            *max_tick = (*max_tick).max(t);
        }
        info_morphs.push(MvdTrackInfo {
            name: name.clone(),
            key: m.key,
            stages: vec![MvdStage { id: 0, name: None, keys: frames.len() }],
            parent_clip: m.parent_clip,
            stage_count: None,
        });
        let track = MorphTrack {
            name,
            keys: frames.iter().map(|f| Key { time: seconds(f.time, fps), value: f.weight }).collect(),
            ease: (0..frames.len()).map(|i| frames.get(i + 1).map_or(Easing::LINEAR, |n| easing(n.curve))).collect(),
        };
        match morphs.iter_mut().find(|t| t.name == track.name) {
            // A second section for the same morph: merged, keeping times sorted.
            Some(t) => {
                let mut all: Vec<(Key<f32>, Easing)> = t
                    .keys
                    .iter()
                    .copied()
                    .zip(t.ease.iter().copied())
                    .chain(track.keys.into_iter().zip(track.ease))
                    .collect();
                all.sort_by(|a, b| a.0.time.total_cmp(&b.0.time));
                t.keys = all.iter().map(|a| a.0).collect();
                t.ease = all.iter().map(|a| a.1).collect();
            }
            None => morphs.push(track),
        }
    }
    morphs
}
