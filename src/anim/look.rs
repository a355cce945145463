//! VRM's look-at, as three-vrm 3.5.5's `VRMLookAt` and its appliers turn it: a yaw and a pitch (degrees) from
//! the avatar's face front, mapped through the look-at's four range maps onto the eye bones (a bone look-at) or
//! onto the lookUp, lookDown, lookLeft and lookRight expressions (an expression look-at). A VRMA's look-at track
//! ([`super::retarget`]) and the window's "eyes follow the camera" ([`follow`], a point to look at) both come
//! through here.
//!
//! Toward a point: the direction from the head (plus the look-at's offset, in the head's space) to the point,
//! taken back into the head's rest orientation (`restHead · head⁻¹`), gives the yaw (azimuth `atan2(−z, x)` less
//! the face front's) and the pitch (the face front's altitude less the direction's), each brought within ±180°.
//! three-vrm measures from +Z whatever the version; rigscope shows a VRM 0.x avatar turned to face the camera, so
//! it measures a 0.x avatar's from its face front, −Z, and turns the eyes about axes turned with it.

use glam::{Mat4, Quat, Vec3};

use super::humanoid::transfer::rotation;
use crate::scene::{LookAt, RangeMap, Scene, VrmInfo};

/// The look expressions, in [`expression_weights`]' order.
pub const LOOK_EXPRESSIONS: [&str; 4] = ["lookUp", "lookDown", "lookLeft", "lookRight"];

/// A range map applied to `degrees` (not below 0): `outputScale · min(degrees / inputMaxValue, 1)`.
fn map(r: RangeMap, degrees: f32) -> f32 {
    r.output_scale * (degrees / r.input_max.max(0.01)).clamp(0.0, 1.0)
}

/// The avatar's face front in its own space: +Z for VRM 1.0, −Z for VRM 0.x.
fn front(avatar: &VrmInfo) -> Quat {
    if avatar.major == 0 { Quat::from_rotation_y(std::f32::consts::PI) } else { Quat::IDENTITY }
}

/// The weights of [`LOOK_EXPRESSIONS`] at `yaw` and `pitch` (degrees), as three-vrm's expression applier gives
/// them: a negative pitch looks up, a positive one down, a positive yaw left and a negative one right, both ways
/// through the horizontal outer map.
pub fn expression_weights(look: &LookAt, yaw: f32, pitch: f32) -> [f32; 4] {
    let [_, outer, down, up] = look.ranges;
    [
        if pitch < 0.0 { map(up, -pitch) } else { 0.0 },
        if pitch < 0.0 { 0.0 } else { map(down, pitch) },
        if yaw < 0.0 { 0.0 } else { map(outer, yaw) },
        if yaw < 0.0 { map(outer, -yaw) } else { 0.0 },
    ]
}

/// The local rotation of eye joint `j` (the avatar's `leftEye` when `left`, else `rightEye`) at `yaw` and
/// `pitch` (degrees), as three-vrm's bone applier turns it: the angles through the range maps (inner and outer
/// swapped between the eyes), turned about the face front's axes, from the eye's rest.
pub fn eye_rotation(scene: &Scene, avatar: &VrmInfo, j: usize, left: bool, yaw: f32, pitch: f32) -> Quat {
    let Some(look) = avatar.look_at.as_ref() else { return scene.skeleton.joints[j].bind.rotation };
    let [inner, outer, down, up] = look.ranges;
    let (yaw_in, yaw_out) = if left { (inner, outer) } else { (outer, inner) };
    let pitch = if pitch < 0.0 { -map(down, -pitch) } else { map(up, pitch) };
    let yaw = if yaw < 0.0 { -map(yaw_in, -yaw) } else { map(yaw_out, yaw) };
    let turn = Quat::from_euler(glam::EulerRot::YXZ, yaw.to_radians(), pitch.to_radians(), 0.0);
    let front = front(avatar);
    let normalized = front * turn * front.inverse();
    let rest = &scene.skeleton.bind_world;
    let parent = scene.skeleton.joints[j].parent.map_or(Quat::IDENTITY, |p| rotation(&rest[p]));
    (parent.inverse() * normalized * parent * scene.skeleton.joints[j].bind.rotation).normalize()
}

/// The yaw and pitch (degrees) that turn the avatar's look toward `target` (model space), its head where
/// `world` (the pose's world matrices) puts it; `None` without a look-at or a head.
pub fn angles_toward(scene: &Scene, avatar: &VrmInfo, world: &[Mat4], target: Vec3) -> Option<(f32, f32)> {
    let look = avatar.look_at.as_ref()?;
    let head = avatar.bone("head").filter(|&h| h < world.len() && h < scene.skeleton.bind_world.len())?;
    let from = world[head].transform_point3(Vec3::from(look.offset));
    let (now, rest) = (rotation(&world[head]), rotation(&scene.skeleton.bind_world[head]));
    let dir = (rest * now.inverse()) * (target - from);
    if !dir.is_finite() || dir.length_squared() < 1e-12 {
        return None;
    }
    let dir = dir.normalize();
    let face = front(avatar) * Vec3::Z;
    let azimuth_altitude = |v: Vec3| (f32::atan2(-v.z, v.x), f32::atan2(v.y, (v.x * v.x + v.z * v.z).sqrt()));
    let ((a_from, h_from), (a_to, h_to)) = (azimuth_altitude(face), azimuth_altitude(dir));
    let sanitize = |a: f32| a - std::f32::consts::TAU * (a / std::f32::consts::TAU).round();
    Some((sanitize(a_to - a_from).to_degrees(), sanitize(h_from - h_to).to_degrees()))
}

/// What looking toward a point changed: the eye joints' locals were set (the pose's world matrices need
/// evaluating), or these weights go to the look expressions (by scene morph index).
#[derive(Debug, Clone, PartialEq)]
pub enum Looked {
    Eyes,
    Expressions(Vec<(usize, f32)>),
}

/// Turns the avatar's look toward `target` (model space) in a pose whose `world` matrices hold the motion:
/// a bone look-at sets the eye joints' `locals` (the caller evaluates the world matrices again); an expression
/// look-at gives the look expressions' weights. `None` when the scene has no VRM look-at, head or target
/// direction.
pub fn follow(scene: &Scene, world: &[Mat4], locals: &mut [crate::scene::Transform], target: Vec3) -> Option<Looked> {
    let avatar = scene.vrm.as_deref()?;
    let look = avatar.look_at.as_ref()?;
    let (yaw, pitch) = angles_toward(scene, avatar, world, target)?;
    if look.kind == "expression" {
        let weights = expression_weights(look, yaw, pitch);
        let by_name = |name: &str| avatar.expressions.iter().find(|e| e.name == name).map(|e| e.morph);
        let set = LOOK_EXPRESSIONS.iter().zip(weights).filter_map(|(n, w)| Some((by_name(n)?, w))).collect();
        return Some(Looked::Expressions(set));
    }
    for (eye, left) in [("leftEye", true), ("rightEye", false)] {
        let Some(j) = avatar.bone(eye).filter(|&j| j < locals.len()) else { continue };
        locals[j].rotation = eye_rotation(scene, avatar, j, left, yaw, pitch);
    }
    Some(Looked::Eyes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look() -> LookAt {
        let r = |input_max, output_scale| RangeMap { input_max, output_scale };
        LookAt {
            kind: "expression".into(),
            offset: [0.0; 3],
            ranges: [r(90.0, 10.0), r(30.0, 1.0), r(90.0, 1.0), r(20.0, 1.0)],
        }
    }

    #[test]
    fn expression_weights_follow_the_signs_and_clamp_through_the_maps() {
        let l = look();
        // Up 10° of 20°: lookUp 0.5; left 60° of 30°: lookLeft clamps to 1.
        assert_eq!(expression_weights(&l, 60.0, -10.0), [0.5, 0.0, 1.0, 0.0]);
        // Down 45° of 90°, right 15° of 30°.
        assert_eq!(expression_weights(&l, -15.0, 45.0), [0.0, 0.5, 0.0, 0.5]);
    }
}
