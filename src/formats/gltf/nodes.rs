//! The node hierarchy (parents, a parents-first order, rest transforms, the default scene) and the rig: which
//! nodes become skeleton joints, and how each skin's inverse bind matrices relate to them.
//!
//! Joints: every skin's joints, every node an animation moves, and all their ancestors, in a parents-first
//! order. Ancestors that are not joints are kept (not folded in) so each joint's bind pose is exactly the node's
//! local TRS and animated ancestors (an armature node) move their children as in glTF.
//!
//! Inverse bind matrices: rigscope skins with `world · inverse(bind_world)`, glTF with `world · IBM`. Per
//! joint the two differ by `C = bind_world · IBM` (the identity when a file's IBMs are its nodes' rest pose
//! inverted, as rigscope's exporter writes them): skinned vertices are brought into agreement by the
//! weight-blended `C` of their joints ([`Rig::skin_correction`]). That is exact in the rest pose and for vertices
//! whose joints share one `C`; elsewhere a warning says the posed mesh may differ slightly.

use glam::{Mat4, Quat, Vec3};

use super::accessor::Buffers;
use super::warn;
use crate::error::{LoadError, Warning};
use crate::scene::{Joint, Skeleton, Transform};

/// Nodes, their parents and rest transforms.
pub struct Graph {
    pub parent: Vec<Option<usize>>,
    /// Every node, parents before children.
    pub order: Vec<usize>,
    pub local: Vec<Transform>,
    /// Rest-pose model-space transform of each node (its matrix as the file gives it).
    pub world: Vec<Mat4>,
    /// Nodes of the default scene (every node when the file has no scene).
    pub in_scene: Vec<bool>,
    pub names: Vec<String>,
}

fn node_transform(node: &gltf::Node) -> (Transform, Mat4) {
    match node.transform() {
        gltf::scene::Transform::Matrix { matrix } => {
            let m = Mat4::from_cols_array_2d(&matrix);
            let (scale, rotation, translation) = m.to_scale_rotation_translation();
            let rotation = if rotation.is_finite() { rotation.normalize() } else { Quat::IDENTITY };
            (Transform { translation, rotation, scale }, m)
        }
        gltf::scene::Transform::Decomposed { translation, rotation, scale } => {
            let q = Quat::from_array(rotation);
            let rotation = if q.length_squared() > 0.0 && q.is_finite() { q.normalize() } else { Quat::IDENTITY };
            let t = Transform { translation: Vec3::from(translation), rotation, scale: Vec3::from(scale) };
            (t, t.to_mat4())
        }
    }
}

impl Graph {
    pub fn new(doc: &gltf::Document, w: &mut Vec<Warning>) -> Graph {
        let n = doc.nodes().len();
        let mut parent: Vec<Option<usize>> = vec![None; n];
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let (mut local, mut matrix, mut names) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n));
        for node in doc.nodes() {
            let (t, m) = node_transform(&node);
            local.push(t);
            matrix.push(m);
            // An unnamed node's joint is unnamed too (shown by its index, as other formats' unnamed joints).
            names.push(node.name().unwrap_or_default().to_string());
            for child in node.children() {
                let c = child.index();
                if parent[c].is_some() || c == node.index() {
                    warn(w, "gltf.node.parents", format!("node {c} has more than one parent: the first is kept"));
                    continue;
                }
                parent[c] = Some(node.index());
                children[node.index()].push(c);
            }
        }
        // Parents first, breadth first from the roots; nodes only reachable through a cycle are cut loose.
        let mut order = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        let roots: Vec<usize> = (0..n).filter(|&i| parent[i].is_none()).collect();
        let visit = |start: usize, order: &mut Vec<usize>, placed: &mut Vec<bool>| {
            let first = order.len();
            order.push(start);
            placed[start] = true;
            let mut k = first;
            while k < order.len() {
                for &c in &children[order[k]] {
                    if !placed[c] {
                        placed[c] = true;
                        order.push(c);
                    }
                }
                k += 1;
            }
        };
        for r in roots {
            visit(r, &mut order, &mut placed);
        }
        for i in 0..n {
            if !placed[i] {
                warn(w, "gltf.node.cycle", format!("node {i} is its own ancestor: its parent link is ignored"));
                parent[i] = None;
                visit(i, &mut order, &mut placed);
            }
        }
        let mut world = matrix.clone();
        for &i in &order {
            if let Some(p) = parent[i] {
                world[i] = world[p] * matrix[i];
            }
        }
        let in_scene = scene_nodes(doc, n, &children);
        Graph { parent, order, local, world, in_scene, names }
    }

    /// `node` and its ancestors, nearest first.
    pub fn ancestors(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(Some(node), |&i| self.parent[i])
    }
}

/// The nodes of the default scene (or the first scene), or every node when there is none.
fn scene_nodes(doc: &gltf::Document, n: usize, children: &[Vec<usize>]) -> Vec<bool> {
    let Some(scene) = doc.default_scene().or_else(|| doc.scenes().next()) else { return vec![true; n] };
    let mut in_scene = vec![false; n];
    let mut stack: Vec<usize> = scene.nodes().map(|n| n.index()).collect();
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut in_scene[i], true) {
            stack.extend(&children[i]);
        }
    }
    in_scene
}

/// One skin mapped onto the skeleton.
pub struct SkinMap {
    /// Skeleton joint of each of the skin's joints.
    pub joints: Vec<usize>,
    /// `bind_world · IBM` per skin joint; `None` when every one is the identity (the usual case).
    pub correction: Option<Vec<Mat4>>,
    /// Skin joints that stand for "no joint" (rigscope's exports bind vertices without weights to an unmoving
    /// joint marked `extras.rigscope.unweighted`): their influences are dropped without a warning.
    pub unweighted: Vec<usize>,
}

/// The skeleton and how nodes and skins map onto it.
pub struct Rig {
    pub skeleton: Skeleton,
    pub joint_of_node: Vec<Option<usize>>,
    /// By skin index.
    pub skins: Vec<SkinMap>,
}

impl Rig {
    /// The rig of `doc`: the nodes that skins, animations or `forced` (a VRM's humanoid bones) name, with their
    /// ancestors.
    pub fn new(
        doc: &gltf::Document,
        graph: &Graph,
        buffers: &Buffers,
        forced: &[usize],
        w: &mut Vec<Warning>,
    ) -> Result<Rig, LoadError> {
        let n = graph.parent.len();
        let unweighted = unweighted_nodes(doc);
        let mut direct = vec![false; n];
        let skin_joints = doc.skins().flat_map(|s| s.joints().map(|j| j.index()).collect::<Vec<_>>());
        let animated = doc.animations().flat_map(|a| {
            a.channels()
                .filter(|c| c.target().property() != gltf::animation::Property::MorphTargetWeights)
                .map(|c| c.target().node().index())
                .collect::<Vec<_>>()
        });
        // Camera nodes are read as cameras, not joints.
        let cameras: Vec<bool> = doc.nodes().map(|n| n.camera().is_some()).collect();
        for node in skin_joints.chain(animated).filter(|j| !unweighted[*j] && !cameras[*j]) {
            direct[node] = true;
        }
        for &node in forced.iter().filter(|&&j| j < n && !cameras[j]) {
            direct[node] = true;
        }
        // Ancestors are joints too, except those that neither move nor are moved (an identity armature node that
        // only groups root joints): folding them in changes no world transform.
        let mut wanted = vec![false; n];
        for node in (0..n).filter(|&i| direct[i]) {
            for a in graph.ancestors(node) {
                let transparent = !direct[a] && graph.local[a] == Transform::IDENTITY;
                if !transparent && std::mem::replace(&mut wanted[a], true) && a != node {
                    break;
                }
            }
        }
        let mut joint_of_node = vec![None; n];
        let mut joints = Vec::new();
        for &i in graph.order.iter().filter(|&&i| wanted[i]) {
            joint_of_node[i] = Some(joints.len());
            let parent = graph.ancestors(i).skip(1).find_map(|p| joint_of_node[p]);
            joints.push(Joint { name: graph.names[i].clone(), parent, bind: graph.local[i] });
        }
        let skeleton = Skeleton::new(joints, true)
            .map_err(|j| LoadError::whole(format!("joint {j} comes before its parent (internal ordering error)")))?;
        let mut skins = Vec::new();
        for skin in doc.skins() {
            let mut map = skin_map(&skin, &skeleton, &joint_of_node, buffers, w)?;
            map.unweighted = skin.joints().enumerate().filter(|(_, j)| unweighted[j.index()]).map(|(k, _)| k).collect();
            skins.push(map);
        }
        Ok(Rig { skeleton, joint_of_node, skins })
    }

    /// The matrix that takes a skinned vertex of skin `skin` with these influences into the space rigscope's
    /// palette expects (identity when the skin's IBMs are its joints' rest pose inverted).
    pub fn skin_correction(&self, skin: usize, joints: [u32; 4], weights: [f32; 4]) -> Option<Mat4> {
        let c = self.skins.get(skin)?.correction.as_ref()?;
        let mut m = Mat4::ZERO;
        let mut total = 0.0;
        for (j, wt) in joints.iter().zip(weights) {
            if let Some(cj) = c.get(*j as usize).filter(|_| wt != 0.0) {
                m += *cj * wt;
                total += wt;
            }
        }
        (total > 0.0).then(|| m * (1.0 / total))
    }
}

fn skin_map(
    skin: &gltf::Skin,
    skeleton: &Skeleton,
    joint_of_node: &[Option<usize>],
    buffers: &Buffers,
    w: &mut Vec<Warning>,
) -> Result<SkinMap, LoadError> {
    let joints: Vec<usize> = skin.joints().filter_map(|j| joint_of_node[j.index()]).collect();
    let Some(ibm) = skin.inverse_bind_matrices() else {
        return Ok(SkinMap { joints, correction: None, unweighted: Vec::new() });
    };
    let (_, m) = buffers.floats(&ibm, "inverseBindMatrices", &[16])?;
    if m.len() / 16 < joints.len() {
        let msg = format!("skin {}: {} inverse bind matrices for {} joints", skin.index(), m.len() / 16, joints.len());
        return Err(LoadError::whole(msg));
    }
    let correction: Vec<Mat4> = joints
        .iter()
        .zip(m.chunks_exact(16))
        .map(|(&j, ibm)| skeleton.bind_world[j] * Mat4::from_cols_slice(ibm))
        .collect();
    let identity =
        correction.iter().all(|c| c.abs_diff_eq(Mat4::IDENTITY, 1e-4 * c.w_axis.truncate().length().max(1.0)));
    if identity {
        return Ok(SkinMap { joints, correction: None, unweighted: Vec::new() });
    }
    let shared = correction.windows(2).all(|p| p[0].abs_diff_eq(p[1], 1e-4));
    if !shared {
        warn(
            w,
            "gltf.skin.bind_pose",
            format!(
                "skin {}: the inverse bind matrices are not the joints' rest pose inverted; vertices were moved into the \
                 rest pose, and posed vertices weighted across joints may differ slightly from other viewers",
                skin.index()
            ),
        );
    }
    Ok(SkinMap { joints, correction: Some(correction), unweighted: Vec::new() })
}

/// Nodes rigscope's exporter marks `extras.rigscope.unweighted`.
fn unweighted_nodes(doc: &gltf::Document) -> Vec<bool> {
    doc.nodes()
        .map(|n| super::extras::rigscope_extras(n.extras()).is_some_and(|e| e["unweighted"].as_bool() == Some(true)))
        .collect()
}
