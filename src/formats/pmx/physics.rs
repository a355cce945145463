//! PMX rigid bodies and joints (simulated by `crate::physics`), and the 2.1 soft-body section, which is refused.

use super::reader::{Ix, Reader};
use crate::error::LoadError;
use crate::scene::{PhysicsJoint, RigidBody};

pub fn rigid_bodies(r: &mut Reader) -> Result<Vec<RigidBody>, LoadError> {
    let n = r.count(8 + r.index_size(Ix::Bone) + 1 + 2 + 1 + 36 + 20 + 1, "rigid body")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let w = |s: &str| format!("rigid body {i} {s}");
        out.push(RigidBody {
            name: r.text(&w("name"))?,
            name_en: r.text(&w("English name"))?,
            bone: r.index(Ix::Bone, &w("bone index"))?,
            group: r.u8(&w("group"))?,
            collision_mask: r.u16(&w("collision mask"))?,
            shape: r.u8(&w("shape"))?,
            size: r.vec3(&w("size"))?,
            position: r.vec3(&w("position"))?,
            rotation: r.vec3(&w("rotation"))?,
            mass: r.f32(&w("mass"))?,
            linear_damping: r.f32(&w("linear damping"))?,
            angular_damping: r.f32(&w("angular damping"))?,
            restitution: r.f32(&w("restitution"))?,
            friction: r.f32(&w("friction"))?,
            mode: r.u8(&w("physics mode"))?,
        });
    }
    Ok(out)
}

pub fn joints(r: &mut Reader) -> Result<Vec<PhysicsJoint>, LoadError> {
    let n = r.count(8 + 1 + 2 * r.index_size(Ix::Rigid) + 8 * 12, "joint")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let w = |s: &str| format!("joint {i} {s}");
        out.push(PhysicsJoint {
            name: r.text(&w("name"))?,
            name_en: r.text(&w("English name"))?,
            kind: r.u8(&w("kind"))?,
            bodies: [r.index(Ix::Rigid, &w("rigid body A index"))?, r.index(Ix::Rigid, &w("rigid body B index"))?],
            position: r.vec3(&w("position"))?,
            rotation: r.vec3(&w("rotation"))?,
            translation_min: r.vec3(&w("translation lower limit"))?,
            translation_max: r.vec3(&w("translation upper limit"))?,
            rotation_min: r.vec3(&w("rotation lower limit"))?,
            rotation_max: r.vec3(&w("rotation upper limit"))?,
            spring_translation: r.vec3(&w("translation spring"))?,
            spring_rotation: r.vec3(&w("rotation spring"))?,
        });
    }
    Ok(out)
}

/// PMX 2.1's soft-body section: absent or empty is accepted; soft bodies are refused with a clear error, as
/// rigscope neither simulates nor lists them.
pub fn soft_bodies(r: &mut Reader) -> Result<(), LoadError> {
    if r.c.remaining() == 0 {
        return Ok(());
    }
    let at = r.pos();
    let n = r.i32("soft body count")?;
    if n != 0 {
        return Err(LoadError::at(at, format!("soft body count {n}: PMX 2.1 soft bodies are not supported")));
    }
    Ok(())
}
