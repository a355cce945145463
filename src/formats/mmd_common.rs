//! What the PMX and PMD loaders share: warnings, the parents-first reordering of a bone table that may list a
//! child before its parent, and the scene pieces every MMD model is built from.

use glam::Vec3;

use crate::error::{Location, Warning};
use crate::scene::{Joint, Material, Skeleton, Transform};

/// Warnings collected while building.
#[derive(Default)]
pub struct Warnings(pub Vec<Warning>);

impl Warnings {
    pub fn at(&mut self, rule: &'static str, offset: u64, message: String) {
        self.0.push(Warning { rule, location: Location::Offset(offset), message });
    }

    pub fn file(&mut self, rule: &'static str, message: String) {
        self.0.push(Warning { rule, location: Location::File, message });
    }
}

/// One bone for [`skeleton`]: name, absolute position, parent (file index, already checked to be in range),
/// and its offset for warnings.
pub struct BoneIn<'a> {
    pub name: &'a str,
    pub position: Vec3,
    pub parent: Option<usize>,
    pub offset: u64,
}

/// The skeleton made from a bone table in file order, and the scene joint of each file bone. Parents may
/// follow their children in the file (PMX allows it): the joints are reordered parents-first, depth first
/// from the roots in file order. A parent cycle is broken at its first bone in file order, which becomes a
/// root (warning `rule`). The bind pose is the bones' absolute positions: local translation = position −
/// parent position, no rotation.
pub fn skeleton(bones: &[BoneIn], rule: &'static str, w: &mut Warnings) -> (Skeleton, Vec<usize>, Vec<usize>) {
    let n = bones.len();
    let mut parent: Vec<Option<usize>> = bones.iter().map(|b| b.parent).collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in parent.iter().enumerate() {
        if let Some(p) = *p {
            children[p].push(i);
        }
    }
    let mut order: Vec<usize> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let visit = |r: usize, order: &mut Vec<usize>, seen: &mut Vec<bool>| {
        let mut stack = vec![r];
        while let Some(i) = stack.pop() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            order.push(i);
            stack.extend(children[i].iter().rev());
        }
    };
    for r in (0..n).filter(|&r| parent[r].is_none()) {
        visit(r, &mut order, &mut seen);
    }
    for r in 0..n {
        if !seen[r] {
            w.at(
                rule,
                bones[r].offset,
                format!("bone {r} \"{}\": its parents form a cycle; made a root", bones[r].name),
            );
            parent[r] = None;
            visit(r, &mut order, &mut seen);
        }
    }
    let mut joint_of = vec![0usize; n];
    for (j, &i) in order.iter().enumerate() {
        joint_of[i] = j;
    }
    let joints = order
        .iter()
        .map(|&i| {
            let b = &bones[i];
            let base = parent[i].map_or(Vec3::ZERO, |p| bones[p].position);
            let t = b.position - base;
            Joint {
                name: b.name.to_string(),
                parent: parent[i].map(|p| joint_of[p]),
                bind: Transform { translation: if t.is_finite() { t } else { Vec3::ZERO }, ..Transform::IDENTITY },
            }
        })
        .collect();
    // Parents-first by construction: every joint is pushed after its parent.
    let skeleton = Skeleton::new(joints, true).unwrap_or_default();
    (skeleton, joint_of, order)
}

/// A scene material for an MMD material: its texture found beside the model (subfolders as written), alpha
/// blended as MikuMikuDance does (the renderer uses no more blending than the texture needs). A material without
/// a texture gets the empty reference, which draws untextured (MMD material names are not texture names).
pub fn material(name: &str, texture: Option<&str>) -> Material {
    let texture = Some(texture.unwrap_or("").to_string());
    Material { alpha: crate::scene::AlphaMode::Blend, ..Material::new(name, texture) }
}
