//! Joints, bind pose and inverse bind matrices.

use glam::{Mat4, Quat, Vec3};

/// A local transform, applied as `T · R · S` to column vectors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: Vec3,
}

impl Transform {
    pub const IDENTITY: Transform = Transform { translation: Vec3::ZERO, rotation: Quat::IDENTITY, scale: Vec3::ONE };

    pub fn to_mat4(&self) -> Mat4 {
        Mat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }

    /// Per-joint interpolation: lerp translation and scale, shortest-path normalised slerp for rotation.
    /// Never a component-wise matrix lerp, which shrinks limbs between distant keys.
    pub fn interpolate(&self, other: &Transform, t: f32) -> Transform {
        let b = if self.rotation.dot(other.rotation) < 0.0 { -other.rotation } else { other.rotation };
        Transform {
            translation: self.translation.lerp(other.translation, t),
            rotation: self.rotation.slerp(b, t).normalize(),
            scale: self.scale.lerp(other.scale, t),
        }
    }
}

impl Default for Transform {
    fn default() -> Self {
        Transform::IDENTITY
    }
}

/// One joint of a skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Empty for unnamed joints (IQM animation-only files have none); see [`Skeleton::display_name`].
    pub name: String,
    /// Always an earlier joint: the skeleton is stored parents-first.
    pub parent: Option<usize>,
    /// Bind-pose transform relative to the parent.
    pub bind: Transform,
}

/// Joints in parents-first order, with their bind pose.
///
/// Parents-first is an invariant every loader establishes (reordering where a format doesn't guarantee it),
/// so a pose is evaluated in one forward pass with no recursion, and cyclic parents can't exist.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Skeleton {
    pub joints: Vec<Joint>,
    /// Model-space bind transform of each joint.
    pub bind_world: Vec<Mat4>,
    /// Inverse of `bind_world`: takes a bind-pose vertex into the joint's space.
    pub inverse_bind: Vec<Mat4>,
    /// False when the file has no bind pose (IQM animation-only files): `bind` was taken from the first frame.
    pub has_bind_pose: bool,
}

impl Skeleton {
    /// Builds the skeleton and its bind matrices. Parents must precede their children; a parent that does not
    /// is returned as the offending joint's index.
    pub fn new(joints: Vec<Joint>, has_bind_pose: bool) -> Result<Skeleton, usize> {
        let mut bind_world: Vec<Mat4> = Vec::with_capacity(joints.len());
        for (i, j) in joints.iter().enumerate() {
            let local = j.bind.to_mat4();
            let world = match j.parent {
                Some(p) if p < i => bind_world[p] * local,
                Some(_) => return Err(i),
                None => local,
            };
            bind_world.push(world);
        }
        let inverse_bind = bind_world.iter().map(|m| safe_inverse(*m)).collect();
        Ok(Skeleton { joints, bind_world, inverse_bind, has_bind_pose })
    }

    pub fn len(&self) -> usize {
        self.joints.len()
    }

    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// True when every joint has a non-empty name, so tracks can be matched by name.
    pub fn is_named(&self) -> bool {
        !self.joints.is_empty() && self.joints.iter().all(|j| !j.name.is_empty())
    }

    pub fn find(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The joint of this skeleton that joint `i` of `from` matches: by name, or for an unnamed joint (IQM
    /// animation-only files) the unnamed joint at the same index. How `diff`, Compare and vertex pairing match
    /// joints between two versions of a model.
    pub fn counterpart(&self, from: &Skeleton, i: usize) -> Option<usize> {
        let name = &from.joints.get(i)?.name;
        if name.is_empty() {
            return self.joints.get(i).filter(|j| j.name.is_empty()).map(|_| i);
        }
        self.find(name)
    }

    /// The joint's name, or `#index` when it has none.
    pub fn display_name(&self, index: usize) -> String {
        match self.joints.get(index) {
            Some(j) if !j.name.is_empty() => j.name.clone(),
            _ => format!("#{index}"),
        }
    }

    pub fn bind_locals(&self) -> Vec<Transform> {
        self.joints.iter().map(|j| j.bind).collect()
    }
}

/// Inverse of an affine transform; a singular one (zero scale) gives identity rather than NaNs.
fn safe_inverse(m: Mat4) -> Mat4 {
    let det = m.determinant();
    if det.is_finite() && det.abs() > f32::MIN_POSITIVE { m.inverse() } else { Mat4::IDENTITY }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(parent: Option<usize>, t: Vec3) -> Joint {
        Joint { name: String::new(), parent, bind: Transform { translation: t, ..Transform::IDENTITY } }
    }

    #[test]
    fn bind_world_chains_parents() {
        let s = Skeleton::new(vec![joint(None, Vec3::X), joint(Some(0), Vec3::Y)], true).unwrap();
        assert!(s.bind_world[1].w_axis.truncate().abs_diff_eq(Vec3::new(1.0, 1.0, 0.0), 1e-6));
        assert!((s.bind_world[1] * s.inverse_bind[1]).abs_diff_eq(Mat4::IDENTITY, 1e-6));
    }

    #[test]
    fn parent_after_child_is_rejected() {
        assert_eq!(Skeleton::new(vec![joint(Some(1), Vec3::X), joint(None, Vec3::Y)], true), Err(0));
    }

    #[test]
    fn interpolation_takes_shortest_path() {
        let a = Transform { rotation: Quat::from_rotation_z(0.1), ..Transform::IDENTITY };
        let b = Transform { rotation: -Quat::from_rotation_z(0.3), ..Transform::IDENTITY };
        let m = a.interpolate(&b, 0.5);
        let expect = Quat::from_rotation_z(0.2);
        assert!(m.rotation.dot(expect).abs() > 0.99999, "{:?}", m.rotation);
    }
}
