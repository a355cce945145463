//! What the PMX and PMD loaders share: warnings, the parents-first reordering of a bone table that may list a
//! child before its parent, and the scene pieces every MMD model is built from.

use glam::Vec3;

use crate::error::{LoadError, Location, Warning};
use crate::scene::{
    Constraints, Joint, Material, Mesh, Metadata, MmdInfo, MmdMaterial, Morph, Scene, Skeleton, SphereMode, Toon,
    Transform, UpAxis, VertexStreams, material_flags,
};

/// The rule ids a format reports the checks it shares with the other MMD format under.
pub struct Rules {
    pub bone_parent: &'static str,
    pub bone_cycle: &'static str,
    pub vertex_bone: &'static str,
    pub face_vertex: &'static str,
    pub face_unassigned: &'static str,
}

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

/// One bone for [`rig`]: name, absolute position, parent as a file index (not yet checked), and its offset for
/// warnings.
pub struct BoneIn<'a> {
    pub name: &'a str,
    pub position: Vec3,
    pub parent: Option<usize>,
    pub offset: u64,
}

/// A bone table turned into a skeleton.
pub struct Rig {
    pub skeleton: Skeleton,
    /// The scene joint of each file bone.
    pub joint_of: Vec<usize>,
    /// The file bone of each scene joint.
    pub bone_of_joint: Vec<usize>,
    /// Each file bone's parent, as a file index, after the range check (a cycle is not broken here).
    pub parents: Vec<Option<usize>>,
}

/// The skeleton of a bone table in file order, each parent index checked first: one that is not another bone
/// makes a root (warning `rules.bone_parent`).
pub fn rig(mut bones: Vec<BoneIn>, rules: &Rules, w: &mut Warnings) -> Rig {
    let n = bones.len();
    for (i, b) in bones.iter_mut().enumerate() {
        if let Some(p) = b.parent.filter(|&p| p >= n || p == i) {
            w.at(
                rules.bone_parent,
                b.offset,
                format!("bone {i} \"{}\": parent index {p} is not another bone; made a root", b.name),
            );
            b.parent = None;
        }
    }
    let (skeleton, joint_of, bone_of_joint) = skeleton(&bones, rules.bone_cycle, w);
    Rig { skeleton, joint_of, bone_of_joint, parents: bones.iter().map(|b| b.parent).collect() }
}

/// The skeleton made from a bone table in file order, and the scene joint of each file bone. Parents may
/// follow their children in the file (PMX allows it): the joints are reordered parents-first, depth first
/// from the roots in file order. A parent cycle is broken at its first bone in file order, which becomes a
/// root (warning `rule`). The bind pose is the bones' absolute positions: local translation = position −
/// parent position, no rotation.
fn skeleton(bones: &[BoneIn], rule: &'static str, w: &mut Warnings) -> (Skeleton, Vec<usize>, Vec<usize>) {
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
/// blended as MikuMikuDance does (the renderer uses no more blending than the texture and the colour need),
/// coloured by its diffuse colour. A material without a texture gets the empty reference, which draws in its
/// colour alone (MMD material names are not texture names).
pub fn material(m: &MmdMaterial) -> Material {
    let texture = Some(m.texture.clone().unwrap_or_default());
    let edge = m.flags & material_flags::EDGE != 0 && m.edge_size.is_finite() && m.edge_size > 0.0;
    Material {
        alpha: crate::scene::AlphaMode::Blend,
        color: Some(lit_color(m.diffuse, m.ambient)),
        outline: edge.then(|| crate::scene::Outline { color: srgb_color(m.edge_color), size: m.edge_size }),
        sphere: sphere_map(m),
        toon: toon_ramp(&m.toon),
        ground_shadow: m.flags & material_flags::GROUND_SHADOW != 0,
        casts_shadow: m.flags & material_flags::CAST_SELF_SHADOW != 0,
        receives_shadow: m.flags & material_flags::RECEIVE_SELF_SHADOW != 0,
        ..Material::new(m.name.clone(), texture)
    }
}

/// The sphere map of a material with a sphere texture in multiply or add mode. Sub-texture mode (PMX: the sphere
/// texture read with the first additional UV as a second texture) is not drawn.
fn sphere_map(m: &MmdMaterial) -> Option<crate::scene::SphereMap> {
    use crate::scene::{SphereBlend, SphereMap};
    let texture = m.sphere.clone().filter(|s| !s.is_empty())?;
    let blend = match m.sphere_mode {
        SphereMode::Multiply => SphereBlend::Multiply,
        SphereMode::Add => SphereBlend::Add,
        SphereMode::None | SphereMode::SubTexture => return None,
    };
    Some(SphereMap { texture, blend })
}

/// The toon ramp of a material: MikuMikuDance's shared toon01–toon10 (PMX's shared index, or a PMD toon list
/// entry of that name) are looked for beside the model and otherwise drawn with the built-in ramp; a model's own
/// toon texture is looked for like its other textures.
pub fn toon_ramp(toon: &Toon) -> Option<crate::scene::ToonRamp> {
    use crate::scene::ToonRamp;
    match toon {
        Toon::None => None,
        Toon::Shared(i) => {
            Some(ToonRamp { texture: Some(format!("toon{:02}.bmp", u16::from(*i) + 1)), shared: true, highlight: true })
        }
        Toon::Texture(name) if name.is_empty() => None,
        Toon::Texture(name) => {
            Some(ToonRamp { texture: Some(name.clone()), shared: is_shared_toon_name(name), highlight: true })
        }
    }
}

/// `toon01.bmp` … `toon10.bmp`, any case, without a folder: the names of MikuMikuDance's own ramps.
fn is_shared_toon_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower
        .strip_prefix("toon")
        .and_then(|r| r.strip_suffix(".bmp"))
        .is_some_and(|n| n.len() == 2 && n.parse::<u8>().is_ok_and(|k| (1..=10).contains(&k)))
}

/// The colour MikuMikuDance draws a material in before texture, sphere and toon: `ambient + diffuse × light`
/// with its default light colour ([`crate::scene::MMD_LIGHT`]), as its shaders do, alpha the diffuse
/// alpha; sRGB-encoded in the file, linear here.
pub fn lit_color(diffuse: glam::Vec4, ambient: glam::Vec3) -> glam::Vec4 {
    let lit = ambient + diffuse.truncate() * crate::scene::MMD_LIGHT;
    srgb_color(lit.extend(diffuse.w))
}

/// An MMD colour (sRGB-encoded, as its shaders use it unconverted) as a linear colour, alpha as it is.
/// Non-finite components read as 1, and the colour is clamped to 0..1.
pub fn srgb_color(d: glam::Vec4) -> glam::Vec4 {
    let d = glam::Vec4::from_array(d.to_array().map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 1.0 }));
    crate::scene::color::srgba_to_linear(d)
}

/// Joint and weight streams from each vertex's bones (file indices, `None` for an unused slot) and weights. A
/// weight on a bone past the table is dropped (counted in one warning `rules.vertex_bone`).
pub fn skin_weights(
    vertices: impl Iterator<Item = ([Option<usize>; 4], [f32; 4])>,
    joint_of: &[usize],
    rules: &Rules,
    w: &mut Warnings,
) -> (Vec<[u32; 4]>, Vec<[f32; 4]>) {
    let (mut joints, mut weights) = (Vec::new(), Vec::new());
    let mut bad_bone = 0usize;
    for (b, wt) in vertices {
        let mut j = [0u32; 4];
        let mut ws = [0f32; 4];
        for k in 0..4 {
            match b[k].and_then(|b| joint_of.get(b)) {
                Some(&joint) => {
                    j[k] = joint as u32;
                    ws[k] = wt[k];
                }
                None if wt[k] != 0.0 && b[k].is_some() => bad_bone += 1,
                None => {}
            }
        }
        joints.push(j);
        weights.push(ws);
    }
    if bad_bone > 0 {
        w.file(rules.vertex_bone, format!("{bad_bone} vertex weights name a bone index past the bone count; dropped"));
    }
    (joints, weights)
}

/// Triangles from a face index list; one that names a vertex past `nv` is kept degenerate so the materials'
/// face ranges still line up (warning `rules.face_vertex`).
pub fn triangles<T: Copy + Into<u32>>(
    faces: &[T],
    nv: usize,
    faces_at: u64,
    rules: &Rules,
    w: &mut Warnings,
) -> Result<Vec<[u32; 3]>, LoadError> {
    let mut triangles = Vec::with_capacity(faces.len() / 3);
    let mut bad_faces = 0usize;
    for t in faces.chunks_exact(3) {
        let t = [t[0].into(), t[1].into(), t[2].into()];
        if t.iter().any(|&v| v as usize >= nv) {
            bad_faces += 1;
            triangles.push([0; 3]);
        } else {
            triangles.push(t);
        }
    }
    if bad_faces > 0 {
        if nv == 0 {
            return Err(LoadError::at(faces_at, "faces index vertices, but the file has none"));
        }
        w.at(
            rules.face_vertex,
            faces_at,
            format!("{bad_faces} triangles index a vertex past the vertex count {nv}; not drawn"),
        );
    }
    Ok(triangles)
}

/// One mesh and one scene material per MMD material, each drawing the next `counts[i].1` face indices (the
/// file offset of its record first). Sets each material's triangle count; a count that is not a non-negative
/// multiple of 3 or runs past the faces is an error, faces left over are a warning (`rules.face_unassigned`).
pub fn meshes(
    mmd: &mut [MmdMaterial],
    counts: &[(u64, i64)],
    triangles: usize,
    nv: usize,
    faces_at: u64,
    rules: &Rules,
    w: &mut Warnings,
) -> Result<(Vec<Mesh>, Vec<Material>), LoadError> {
    let total = triangles as u64;
    let mut first = 0u64;
    let mut meshes = Vec::with_capacity(mmd.len());
    let mut materials = Vec::with_capacity(mmd.len());
    for (i, (m, &(at, indices))) in mmd.iter_mut().zip(counts).enumerate() {
        if indices < 0 || indices % 3 != 0 {
            return Err(LoadError::at(
                at,
                format!("material {i} face index count {indices}: expected a non-negative multiple of 3"),
            ));
        }
        let tris = indices as u64 / 3;
        if first + tris > total {
            return Err(LoadError::at(
                at,
                format!(
                    "material {i} face index count {indices}: the materials before it leave only {} of the {} indices",
                    (total - first) * 3,
                    total * 3
                ),
            ));
        }
        m.triangles = tris as u32;
        meshes.push(Mesh {
            name: m.name.clone(),
            material: i,
            first_triangle: first as u32,
            num_triangles: tris as u32,
            first_vertex: 0,
            num_vertices: nv as u32,
            two_sided: m.flags & material_flags::TWO_SIDED != 0,
            uv_animation: None,
        });
        materials.push(material(m));
        first += tris;
    }
    if first < total {
        w.at(rules.face_unassigned, faces_at, format!("{} triangles belong to no material; not drawn", total - first));
    }
    Ok((meshes, materials))
}

/// What a built MMD model is made of, besides its metadata and [`MmdInfo`].
pub struct Body {
    pub vertices: VertexStreams,
    pub triangles: Vec<[u32; 3]>,
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    pub skeleton: Skeleton,
    pub morphs: Vec<Morph>,
    pub constraints: Constraints,
}

/// The scene of an MMD model: left-handed Y-up, counter-clockwise front faces (as MikuMikuDance draws them).
pub fn scene(meta: Metadata, body: Body, info: MmdInfo) -> Scene {
    Scene {
        vertices: body.vertices,
        triangles: body.triangles,
        meshes: body.meshes,
        materials: body.materials,
        skeleton: body.skeleton,
        up: UpAxis::YLeftHanded,
        front_face: crate::scene::FrontFace::Ccw,
        morphs: body.morphs,
        constraints: body.constraints,
        mmd: Some(Box::new(info)),
        ..Scene::empty(meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{SphereBlend, ToonRamp};

    #[test]
    fn shared_toon_names_fall_back_quietly_and_own_toons_do_not() {
        let ramp = |t: &Toon| toon_ramp(t).map(|r| (r.texture, r.shared));
        assert_eq!(ramp(&Toon::Shared(0)), Some((Some("toon01.bmp".into()), true)));
        assert_eq!(ramp(&Toon::Shared(9)), Some((Some("toon10.bmp".into()), true)));
        assert_eq!(ramp(&Toon::Texture("TOON05.BMP".into())), Some((Some("TOON05.BMP".into()), true)));
        for own in ["toon11.bmp", "toon1.bmp", "sub/toon01.bmp", "mytoon.png"] {
            assert_eq!(ramp(&Toon::Texture(own.into())), Some((Some(own.into()), false)), "{own}");
        }
        assert_eq!(toon_ramp(&Toon::None), None::<ToonRamp>);
        assert_eq!(toon_ramp(&Toon::Texture(String::new())), None);
    }

    #[test]
    fn materials_are_coloured_as_mikumikudance_lights_them() {
        let mut m = MmdMaterial {
            name: "m".into(),
            name_en: String::new(),
            diffuse: glam::Vec4::new(0.5, 1.0, 0.0, 0.5),
            specular: Vec3::ZERO,
            specular_power: 1.0,
            ambient: Vec3::new(0.2, 0.5, 0.0),
            flags: 0,
            edge_color: glam::Vec4::ONE,
            edge_size: 1.0,
            texture: None,
            sphere: Some("s.sph".into()),
            sphere_mode: SphereMode::Multiply,
            toon: Toon::None,
            memo: String::new(),
            triangles: 0,
        };
        let scene = material(&m);
        let c = scene.color.unwrap();
        // ambient + diffuse × 154/255 (0.502 and 1.0 after clamping), sRGB to linear; alpha as it is.
        let want = crate::scene::color::srgba_to_linear(glam::Vec4::new(0.2 + 0.5 * MMD_LIGHT_TEST, 1.0, 0.0, 0.5));
        assert!((c - want).abs().max_element() < 1e-6, "{c} vs {want}");
        assert_eq!(
            scene.sphere.as_ref().map(|s| (s.texture.as_str(), s.blend)),
            Some(("s.sph", SphereBlend::Multiply))
        );
        m.sphere_mode = SphereMode::SubTexture;
        assert!(material(&m).sphere.is_none(), "sub-texture spheres are not drawn");
    }

    const MMD_LIGHT_TEST: f32 = 154.0 / 255.0;
}
