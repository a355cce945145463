//! Small PMX models and VMD motions that exercise the simulation (test and benchmark support, like
//! `formats::pmx::write`): a capsule pendulum on a joint free about Z, the same with a spring, a three-link chain,
//! a chain of mode-2 bodies, a motion that switches the pendulum out of physics for its first second, and a
//! character-sized rig of many chains. Written with the project's own PMX and VMD writers, so the reference
//! harness (`tools/physics-ref`) reads the same bytes as rigscope.

use glam::{Vec2, Vec3, Vec4};

use crate::formats::pmx::Header;
use crate::formats::pmx::write::{Material, PmxDocument};
use crate::formats::pmx::{RawBone, RawVertex, Weights};
use crate::formats::vmd::bone::block_of;
use crate::formats::vmd::write::BoneKey;
use crate::formats::vmd::write::VmdDocument;
use crate::scene::{BoneTail, MmdEncoding, MmdMaterial, PhysicsJoint, RigidBody, SphereMode, Toon, bone_flags as f};

/// Where every fixture hangs from, and how long each link is.
pub const PIVOT: Vec3 = Vec3::new(0.0, 10.0, 0.0);
pub const LINK: f32 = 4.0;

fn bone(name: &str, parent: Option<usize>, position: Vec3) -> RawBone {
    RawBone {
        offset: 0,
        name: name.into(),
        name_en: name.into(),
        position,
        parent,
        layer: 0,
        flags: f::ROTATABLE | f::TRANSLATABLE | f::VISIBLE | f::OPERABLE,
        tail: BoneTail::Offset(Vec3::X),
        append: None,
        fixed_axis: None,
        local_axes: None,
        external_key: None,
        ik: None,
    }
}

/// A body of `shape` (0 sphere, 1 box, 2 capsule) and `size` at `position`, rotated by `rotation` (Euler).
#[allow(clippy::too_many_arguments)]
fn body(
    name: &str,
    bone: usize,
    shape: u8,
    size: Vec3,
    position: Vec3,
    rotation: Vec3,
    mode: u8,
    group: u8,
) -> RigidBody {
    RigidBody {
        name: name.into(),
        name_en: name.into(),
        bone: Some(bone),
        group,
        // Collide with nothing: the fixtures test joints, not contacts.
        collision_mask: 0,
        shape,
        size,
        position,
        rotation,
        mass: 1.0,
        linear_damping: 0.0,
        angular_damping: 0.0,
        restitution: 0.0,
        friction: 0.5,
        mode,
    }
}

/// A joint at `position` linking bodies `a` and `b`, rigid except about Z, which is free (lower > upper), with
/// an angular spring of `spring` about Z.
fn hinge_z(name: &str, a: usize, b: usize, position: Vec3, spring: f32) -> PhysicsJoint {
    PhysicsJoint {
        name: name.into(),
        name_en: name.into(),
        kind: 0,
        bodies: [Some(a), Some(b)],
        position,
        rotation: Vec3::ZERO,
        translation_min: Vec3::ZERO,
        translation_max: Vec3::ZERO,
        rotation_min: Vec3::new(0.0, 0.0, 1.0),
        rotation_max: Vec3::new(0.0, 0.0, -1.0),
        spring_translation: Vec3::ZERO,
        spring_rotation: Vec3::new(0.0, 0.0, spring),
    }
}

/// A PMX of `bones` with `bodies` and `joints` and one small triangle on bone 0 (viewers want something to draw).
fn document(name: &str, bones: Vec<RawBone>, bodies: Vec<RigidBody>, joints: Vec<PhysicsJoint>) -> PmxDocument {
    let v = |p: Vec3| RawVertex {
        position: p,
        normal: Vec3::Z,
        uv: Vec2::ZERO,
        additional: [Vec4::ZERO; 4],
        weights: Weights::Bdef1(Some(0)),
        edge_scale: 1.0,
    };
    let material = MmdMaterial {
        name: "m".into(),
        name_en: "m".into(),
        diffuse: Vec4::ONE,
        specular: Vec3::ZERO,
        specular_power: 1.0,
        ambient: Vec3::splat(0.5),
        flags: 0,
        edge_color: Vec4::new(0.0, 0.0, 0.0, 1.0),
        edge_size: 0.0,
        texture: None,
        sphere: None,
        sphere_mode: SphereMode::None,
        toon: Toon::None,
        memo: String::new(),
        triangles: 0,
    };
    PmxDocument {
        header: Header {
            version: 2.0,
            encoding: MmdEncoding::Utf16Le,
            additional_uvs: 0,
            sizes: [4, 4, 4, 4, 4, 4],
            name: name.into(),
            name_en: name.into(),
            comment: "rigscope physics fixture".into(),
            comment_en: "rigscope physics fixture".into(),
        },
        vertices: vec![v(PIVOT), v(PIVOT + Vec3::X * 0.1), v(PIVOT + Vec3::Y * 0.1)],
        faces: vec![0, 1, 2],
        textures: Vec::new(),
        materials: vec![Material { material, indices: 3 }],
        bones,
        morphs: Vec::new(),
        frames: Vec::new(),
        rigid_bodies: bodies,
        joints,
        soft_bodies: None,
    }
}

/// `links` capsules in a horizontal chain along +X from [`PIVOT`], each [`LINK`] long (radius 0.25), each on a
/// joint free about Z, hanging from a kinematic sphere on the base bone; `spring` about Z on every joint; every
/// link in `mode`.
pub fn chain(name: &str, links: usize, spring: f32, mode: u8) -> PmxDocument {
    let mut bones = vec![bone("base", None, PIVOT)];
    let mut bodies = vec![body("base", 0, 0, Vec3::splat(0.5), PIVOT, Vec3::ZERO, 0, 0)];
    let mut joints = Vec::new();
    for i in 0..links {
        let start = PIVOT + Vec3::X * LINK * i as f32;
        bones.push(bone(&format!("link{}", i + 1), Some(i), start));
        // A capsule lies along its Y axis; turned by −90° about Z it lies along +X.
        let centre = start + Vec3::X * LINK / 2.0;
        let rotation = Vec3::new(0.0, 0.0, -std::f32::consts::FRAC_PI_2);
        let size = Vec3::new(0.25, LINK - 0.5, 0.0);
        bodies.push(body(&format!("link{}", i + 1), i + 1, 2, size, centre, rotation, mode, 1));
        joints.push(hinge_z(&format!("joint{}", i + 1), i, i + 1, start, spring));
    }
    bones.push(bone("tip", Some(links), PIVOT + Vec3::X * LINK * links as f32));
    document(name, bones, bodies, joints)
}

/// One capsule on a joint free about Z, released horizontal.
pub fn pendulum() -> PmxDocument {
    chain("pendulum", 1, 0.0, 1)
}

/// [`pendulum`] with a spring of stiffness 200 about Z.
pub fn spring() -> PmxDocument {
    chain("spring", 1, 200.0, 1)
}

/// Three capsules, each on a joint free about Z.
pub fn chain3() -> PmxDocument {
    chain("chain3", 3, 0.0, 1)
}

/// Three mode-2 capsules (the demotion rule turns the second and third into mode 1).
pub fn mode2_chain() -> PmxDocument {
    chain("mode2", 3, 0.0, 2)
}

/// A motion for [`pendulum`]: the link switched out of physics (held at its bind pose) for the first `frames`
/// frames, then switched back on.
pub fn switch_motion(frames: u32) -> VmdDocument {
    switch_bone("pendulum", "link1", frames)
}

/// A motion for the fixture `model` that switches bone `bone`'s bodies out of physics for the first `frames`
/// frames (its animation: the bind pose), then back on.
pub fn switch_bone(model: &str, bone: &str, frames: u32) -> VmdDocument {
    let mut vmd = VmdDocument::new(model);
    let key = |frame: u32, physics: [u8; 2]| {
        let mut k = BoneKey::new(bone, frame, [0.0; 3], [0.0, 0.0, 0.0, 1.0]);
        k.interpolation = block_of([crate::formats::vmd::bone::LINEAR; 4], Some(physics));
        k
    };
    vmd.bones = vec![key(0, crate::formats::vmd::build::PHYSICS_OFF), key(frames, [0, 0])];
    vmd
}

/// A rig of `chains` hanging chains of `links` capsules each (plus one kinematic sphere per chain), the size of a
/// current PMX character's physics (`chains × (links + 1)` bodies), with collisions between neighbouring chains:
/// for benchmarks.
pub fn many_chains(chains: usize, links: usize) -> PmxDocument {
    let mut bones = Vec::new();
    let mut bodies = Vec::new();
    let mut joints = Vec::new();
    for c in 0..chains {
        let angle = c as f32 / chains as f32 * std::f32::consts::TAU;
        let root = PIVOT + Vec3::new(angle.cos(), 0.0, angle.sin()) * 2.0;
        let base = bones.len();
        bones.push(bone(&format!("c{c}"), None, root));
        let base_body = bodies.len();
        bodies.push(body(&format!("c{c}"), base, 0, Vec3::splat(0.3), root, Vec3::ZERO, 0, 0));
        for i in 0..links {
            let top = root - Vec3::Y * (i as f32 * 1.0);
            bones.push(bone(&format!("c{c}l{i}"), Some(bones.len() - 1), top));
            let mut b = body(
                &format!("c{c}l{i}"),
                bones.len() - 1,
                2,
                Vec3::new(0.2, 0.6, 0.0),
                top - Vec3::Y * 0.5,
                Vec3::ZERO,
                1,
                1 + (c % 2) as u8,
            );
            // Each chain collides with the chains of the other group.
            b.collision_mask = 1 << (2 - (c % 2));
            b.linear_damping = 0.5;
            b.angular_damping = 0.5;
            bodies.push(b);
            let mut j = hinge_z(
                &format!("c{c}j{i}"),
                if i == 0 { base_body } else { bodies.len() - 2 },
                bodies.len() - 1,
                top,
                0.0,
            );
            j.rotation_min = Vec3::splat(-0.5);
            j.rotation_max = Vec3::splat(0.5);
            joints.push(j);
        }
    }
    document("chains", bones, bodies, joints)
}

/// A head (joint 1 under a root, joint 0) with `chains` hair chains of `links` spring joints each (and a tail
/// joint), spread in a ring and hanging down, meeting `colliders` colliders on the head (spheres and capsules in
/// turn): a VRM-sized spring load with no geometry, for the spring step's benchmark.
pub fn spring_rig(chains: usize, links: usize, colliders: usize) -> crate::scene::Scene {
    use crate::scene::{
        Collider, ColliderGroup, ColliderShape, Format, Joint, Metadata, Scene, Skeleton, SpringChain, SpringJoint,
        Springs, Transform,
    };
    let joint = |name: String, parent: Option<usize>, at: Vec3| Joint {
        name,
        parent,
        bind: Transform { translation: at, ..Transform::IDENTITY },
    };
    let mut joints =
        vec![joint("root".into(), None, Vec3::ZERO), joint("head".into(), Some(0), Vec3::new(0.0, 1.5, 0.0))];
    let mut springs = Springs::default();
    for c in 0..colliders {
        let a = c as f32 / colliders.max(1) as f32 * std::f32::consts::TAU;
        let offset = Vec3::new(a.cos() * 0.08, 0.05 - 0.01 * c as f32, a.sin() * 0.08);
        let shape = if c % 2 == 0 {
            ColliderShape::Sphere { offset, radius: 0.06, inside: false }
        } else {
            ColliderShape::Capsule { offset, tail: offset + Vec3::new(0.0, -0.1, 0.02), radius: 0.03, inside: false }
        };
        springs.colliders.push(Collider { joint: 1, shape });
    }
    springs.groups.push(ColliderGroup { name: "head".into(), colliders: (0..colliders).collect() });
    for c in 0..chains {
        let a = c as f32 / chains.max(1) as f32 * std::f32::consts::TAU;
        let mut parent = 1;
        let mut chain = SpringChain { name: format!("hair {c}"), groups: vec![0], ..Default::default() };
        for k in 0..=links {
            let at = if k == 0 { Vec3::new(a.cos() * 0.1, 0.1, a.sin() * 0.1) } else { Vec3::new(0.0, -0.05, 0.0) };
            joints.push(joint(format!("hair {c}.{k}"), Some(parent), at));
            let me = joints.len() - 1;
            if k > 0 {
                let mut j = SpringJoint::new(parent, Some(me));
                (j.hit_radius, j.stiffness, j.gravity_power, j.drag) = (0.01, 1.0, 0.5, 0.4);
                chain.joints.push(j);
            }
            parent = me;
        }
        springs.chains.push(chain);
    }
    let mut scene = Scene::empty(Metadata::new(Format::Gltf, "2.0"));
    scene.skeleton = Skeleton::new(joints, true).expect("parents first");
    scene.springs = Some(Box::new(springs));
    scene
}
