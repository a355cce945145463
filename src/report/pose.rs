//! `rigscope pose`'s JSON: the posed skeleton at one instant, in the file's own model space, with the skinned
//! bounds, optionally every skinned vertex, and an animated camera's view. The command line prints it and the
//! window's "Copy pose as JSON" copies it, so both give the same text for the same file, clip and frame.

use glam::Vec3;
use serde::Serialize;

use crate::anim::{Pose, skin_positions};
use crate::scene::{DEFAULT_FPS, FrameBounds, Scene};

/// The options of `rigscope pose` that shape its JSON besides the file, clip and frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoseOptions {
    /// Include the skinned vertex positions (`--vertices`).
    pub vertices: bool,
    /// Frame rate for clips whose file stores none (`--default-fps`).
    pub default_fps: f32,
    /// `--pick`: a ray (origin, direction; model space) whose first hit on the posed mesh is reported.
    pub pick: Option<(Vec3, Vec3)>,
    /// Where IK leaves a leg short of its target (`--plant-feet`: on it).
    pub finish: crate::anim::IkFinish,
}

impl Default for PoseOptions {
    /// `rigscope pose`'s defaults: no vertices, [`DEFAULT_FPS`].
    fn default() -> Self {
        PoseOptions { vertices: false, default_fps: DEFAULT_FPS, pick: None, finish: Default::default() }
    }
}

/// The JSON `rigscope pose` prints (without the newline) for `scene`, named `file`, at clip `clip_frame`'s
/// (fractional) frame, or in the bind pose with `None`. The frame isn't range-checked here: the command line
/// checks it before calling; the window passes the frame it shows.
pub fn pose_json(
    scene: &Scene,
    file: &str,
    clip_frame: Option<(usize, f32)>,
    options: &PoseOptions,
) -> Result<String, serde_json::Error> {
    pose_json_with(scene, file, clip_frame, options, None, None)
}

/// A rigid body's place in `rigscope pose --physics --bodies`.
#[derive(Debug, Clone, Serialize)]
pub struct BodyOut {
    pub name: String,
    /// The bone's name, if the body has one.
    pub bone: Option<String>,
    /// `follows bone`, `physics` or `physics + bone position` (after MikuMikuDance's mode-2 rule); `spring` for a VRM
    /// spring joint.
    pub mode: &'static str,
    pub position: [f32; 3],
    /// Quaternion x, y, z, w.
    pub rotation: [f32; 4],
}

/// [`pose_json`] of a pose computed elsewhere (`pose`: physics simulated up to this frame), with the rigid
/// bodies' places (`bodies`, printed when given).
pub fn pose_json_with(
    scene: &Scene,
    file: &str,
    clip_frame: Option<(usize, f32)>,
    options: &PoseOptions,
    pose: Option<Pose>,
    bodies: Option<Vec<BodyOut>>,
) -> Result<String, serde_json::Error> {
    let fps = options.default_fps;
    let (computed, anim, frame, time) = match clip_frame.and_then(|(i, f)| Some((scene.clips.get(i)?, f))) {
        Some((clip, f)) => {
            let input = crate::anim::PoseInput::at(Some(clip), f, fps).with_finish(options.finish);
            let pose = pose.is_none().then(|| {
                let mut pose = Pose::default();
                pose.update_input(scene, &input);
                pose
            });
            (pose, Some(clip.name.as_str()), f, f / clip.fps(fps))
        }
        None => (pose.is_none().then(|| Pose::bind(&scene.skeleton)), None, 0.0, 0.0),
    };
    let pose = pose.or(computed).unwrap_or_default();
    let skinned: Vec<Vec3> = skin_positions(&crate::anim::morphed_vertices(scene, &pose.morphs), &pose.palette);
    let out = Output {
        file: file.to_string(),
        anim,
        frame,
        time,
        hidden: pose.hidden,
        joints: joints_out(scene, &pose),
        bounds: FrameBounds::of_points(&skinned).map(|b| BoundsOut { min: b.min.to_array(), max: b.max.to_array() }),
        vertices: options
            .vertices
            .then(|| scene.vertices.per_file_vertex(&skinned).iter().map(|v| v.to_array()).collect()),
        camera: camera_out(scene, anim, time),
        pick: options.pick.map(|(origin, direction)| crate::anim::pick(scene, &pose, origin, direction)),
        bodies,
    };
    serde_json::to_string(&out)
}

#[derive(Serialize)]
struct Output<'a> {
    file: String,
    anim: Option<&'a str>,
    frame: f32,
    time: f32,
    /// The motion hides the model at this instant (a VMD or MVD visibility key); left out when shown.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    hidden: bool,
    joints: Vec<JointOut>,
    bounds: Option<BoundsOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vertices: Option<Vec<[f32; 3]>>,
    /// An animated camera's view (MVD), in the file's space as stored (MMD: left-handed, Y-up).
    #[serde(skip_serializing_if = "Option::is_none")]
    camera: Option<CameraOut>,
    /// `--pick`: what the ray hit (`null`: nothing); left out without `--pick`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pick: Option<Option<crate::anim::Picked>>,
    /// `--bodies`: each rigid body's place; left out otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    bodies: Option<Vec<BodyOut>>,
}

#[derive(Serialize)]
struct CameraOut {
    name: String,
    target: [f32; 3],
    eye: [f32; 3],
    up: [f32; 3],
    fov_y: f32,
    perspective: bool,
}

/// The camera that plays with the chosen clip (else the first camera) at `time` seconds.
fn camera_out(scene: &Scene, anim: Option<&str>, time: f32) -> Option<CameraOut> {
    let cam = scene.cameras.iter().find(|c| c.clip.as_deref() == anim && anim.is_some()).or(scene.cameras.first())?;
    let v = cam.view_at(time)?;
    Some(CameraOut {
        name: cam.name.clone(),
        target: v.target.to_array(),
        eye: v.eye.to_array(),
        up: v.up.to_array(),
        fov_y: v.fov_y,
        perspective: v.perspective,
    })
}

#[derive(Serialize)]
struct JointOut {
    name: String,
    parent: i64,
    world: [f32; 16],
}

#[derive(Serialize)]
struct BoundsOut {
    min: [f32; 3],
    max: [f32; 3],
}

/// The joints as the file lists them: RSM nodes and PMX/PMD bones in file order with file-index parents (the
/// skeleton itself is parents-first); every other format in skeleton order.
fn joints_out(scene: &Scene, pose: &Pose) -> Vec<JointOut> {
    let world = |j: usize| pose.world.get(j).copied().unwrap_or_default().to_cols_array();
    if let Some(rsm) = &scene.rsm {
        return rsm
            .nodes
            .iter()
            .map(|n| JointOut {
                name: n.name.clone(),
                parent: n.parent.map_or(-1, |p| p as i64),
                world: world(n.joint),
            })
            .collect();
    }
    if let Some(mmd) = &scene.mmd {
        return mmd
            .bones
            .iter()
            .map(|b| JointOut {
                name: b.name.clone(),
                parent: b.parent.map_or(-1, |p| p as i64),
                world: world(b.joint),
            })
            .collect();
    }
    scene
        .skeleton
        .joints
        .iter()
        .enumerate()
        .map(|(i, j)| JointOut { name: j.name.clone(), parent: j.parent.map_or(-1, |p| p as i64), world: world(i) })
        .collect()
}
