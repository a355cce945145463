//! PMX bones with every flag: tail, append (grant), fixed axis, local axes, external parent and IK.

use glam::Vec3;

use super::reader::{Ix, Reader};
use crate::error::LoadError;
use crate::scene::{AngleLimits, BoneTail, bone_flags as f};

#[derive(Debug, Clone)]
pub struct RawIk {
    pub target: Option<usize>,
    pub loop_count: i32,
    pub limit_angle: f32,
    /// File bone index and optional limits.
    pub links: Vec<(Option<usize>, Option<AngleLimits>)>,
}

#[derive(Debug, Clone)]
pub struct RawBone {
    pub offset: u64,
    pub name: String,
    pub name_en: String,
    pub position: Vec3,
    pub parent: Option<usize>,
    pub layer: i32,
    pub flags: u16,
    pub tail: BoneTail,
    pub append: Option<(Option<usize>, f32)>,
    pub fixed_axis: Option<Vec3>,
    pub local_axes: Option<[Vec3; 2]>,
    pub external_key: Option<i32>,
    pub ik: Option<RawIk>,
}

pub fn bones(r: &mut Reader) -> Result<Vec<RawBone>, LoadError> {
    let bone = r.index_size(Ix::Bone);
    let n = r.count(8 + 12 + bone + 4 + 2 + bone, "bone")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let offset = r.pos();
        let name = r.text(&format!("bone {i} name"))?;
        let name_en = r.text(&format!("bone {i} English name"))?;
        let position = r.vec3(&format!("bone {i} position"))?;
        let parent = r.index(Ix::Bone, &format!("bone {i} parent index"))?;
        let layer = r.i32(&format!("bone {i} deform layer"))?;
        let flags = r.u16(&format!("bone {i} flags"))?;
        let tail = if flags & f::TAIL_IS_BONE != 0 {
            BoneTail::Bone(r.index(Ix::Bone, &format!("bone {i} tail bone index"))?)
        } else {
            BoneTail::Offset(r.vec3(&format!("bone {i} tail offset"))?)
        };
        let append = if flags & (f::APPEND_ROTATION | f::APPEND_TRANSLATION) != 0 {
            let source = r.index(Ix::Bone, &format!("bone {i} append parent index"))?;
            Some((source, r.f32(&format!("bone {i} append ratio"))?))
        } else {
            None
        };
        let fixed_axis = if flags & f::FIXED_AXIS != 0 { Some(r.vec3(&format!("bone {i} fixed axis"))?) } else { None };
        let local_axes = if flags & f::LOCAL_AXES != 0 {
            Some([r.vec3(&format!("bone {i} local X axis"))?, r.vec3(&format!("bone {i} local Z axis"))?])
        } else {
            None
        };
        let external_key =
            if flags & f::EXTERNAL_PARENT != 0 { Some(r.i32(&format!("bone {i} external parent key"))?) } else { None };
        let ik = if flags & f::IK != 0 {
            let target = r.index(Ix::Bone, &format!("bone {i} IK target index"))?;
            let loop_count = r.i32(&format!("bone {i} IK loop count"))?;
            let limit_angle = r.f32(&format!("bone {i} IK limit angle"))?;
            let m = r.count(bone + 1, &format!("bone {i} IK link"))?;
            let mut links = Vec::with_capacity(m);
            for k in 0..m {
                let b = r.index(Ix::Bone, &format!("bone {i} IK link {k} bone index"))?;
                let at = r.pos();
                let limits = match r.u8(&format!("bone {i} IK link {k} limit flag"))? {
                    0 => None,
                    1 => Some(AngleLimits {
                        min: r.vec3(&format!("bone {i} IK link {k} lower limit"))?,
                        max: r.vec3(&format!("bone {i} IK link {k} upper limit"))?,
                    }),
                    v => {
                        return Err(LoadError::at(at, format!("bone {i} IK link {k} limit flag {v}: expected 0 or 1")));
                    }
                };
                links.push((b, limits));
            }
            Some(RawIk { target, loop_count, limit_angle, links })
        } else {
            None
        };
        out.push(RawBone {
            offset,
            name,
            name_en,
            position,
            parent,
            layer,
            flags,
            tail,
            append,
            fixed_axis,
            local_axes,
            external_key,
            ik,
        });
    }
    Ok(out)
}
