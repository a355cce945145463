//! A parsed pose into a scene: bone names as a flat skeleton with no bind pose and a one-frame clip of
//! `DeltaOnBind` tracks (translation added to the bind translation, rotation after the bind rotation, as a
//! VMD key) and morph tracks, named after the model file (else the pose file).

use glam::Vec3;

use super::parse::RawVpd;
use crate::error::{LoadError, Location};
use crate::formats::vmd::build::{FPS, Warnings, unit_rotation};
use crate::scene::{
    Clip, ClipData, Format, FrontFace, Interpolation, Joint, Key, Metadata, MorphTrack, Scene, Skeleton, Track,
    TrackMode, Transform, UpAxis, VpdInfo,
};

pub fn build(raw: RawVpd, file: &str) -> Result<Scene, LoadError> {
    let mut w = Warnings(raw.warnings);
    if raw.declared_bones != raw.bones.len() {
        w.push(
            "vpd.bone.count",
            Location::Line(raw.declared_line),
            format!(
                "the header declares {} bone(s), the file has {} Bone block(s)",
                raw.declared_bones,
                raw.bones.len()
            ),
        );
    }
    let mut joints: Vec<Joint> = Vec::new();
    let mut tracks: Vec<Track> = Vec::new();
    for b in &raw.bones {
        let what = format!("bone \"{}\"", b.name);
        let rotation = unit_rotation(b.rotation, "vpd.bone.quaternion", Location::Line(b.line), &what, &mut w);
        let track = Track {
            joint: joints.len(),
            mode: TrackMode::DeltaOnBind,
            interpolation: Interpolation::Linear,
            translation: vec![Key { time: 0.0, value: Vec3::from_array(b.position) }],
            rotation: vec![Key { time: 0.0, value: rotation }],
            scale: Vec::new(),
            ease: None,
        };
        if let Some(i) = joints.iter().position(|j| j.name == b.name) {
            w.push(
                "vpd.bone.duplicate",
                Location::Line(b.line),
                format!("{what} is posed twice; the later block used"),
            );
            tracks[i] = Track { joint: i, ..track };
        } else {
            joints.push(Joint { name: b.name.clone(), parent: None, bind: Transform::IDENTITY });
            tracks.push(track);
        }
    }
    let mut morphs: Vec<MorphTrack> = Vec::new();
    for m in &raw.morphs {
        let track =
            MorphTrack { name: m.name.clone(), keys: vec![Key { time: 0.0, value: m.weight }], ease: Vec::new() };
        if let Some(t) = morphs.iter_mut().find(|t| t.name == m.name) {
            w.push(
                "vpd.morph.duplicate",
                Location::Line(m.line),
                format!("morph \"{}\" is set twice; the later block used", m.name),
            );
            *t = track;
        } else {
            morphs.push(track);
        }
    }
    let stem = |s: &str| std::path::Path::new(s).file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
    let name = [stem(&raw.model_file), stem(file)].into_iter().find(|s| !s.is_empty()).unwrap_or_else(|| "pose".into());
    let mut clip = Clip::new(name, FPS, false, 1, ClipData::Keyed { tracks });
    clip.morphs = morphs;
    let info = VpdInfo {
        model_file: raw.model_file,
        declared_bones: raw.declared_bones,
        bones: joints.iter().map(|j| j.name.clone()).collect(),
        morphs: clip.morphs.iter().map(|m| m.name.clone()).collect(),
        utf8: raw.utf8,
    };
    // No joint has a parent, so this cannot fail.
    let skeleton = Skeleton::new(joints, false).map_err(|i| LoadError::at(0, format!("joint {i}: bad parent")))?;
    let mut meta = Metadata::new(Format::Vpd, "");
    meta.warnings = w.0;
    Ok(Scene {
        skeleton,
        clips: vec![clip],
        up: UpAxis::YLeftHanded,
        front_face: FrontFace::Ccw,
        vpd: Some(Box::new(info)),
        ..Scene::empty(meta)
    })
}
