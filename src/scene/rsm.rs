//! Facts about an RSM/RSM2 file that have no place in the format-neutral model but that the command line and
//! the sidebar show: the layout that read the file, shading, the node tree with its texture lists, per-face
//! flags, volume boxes and UV animations. Geometry, the node skeleton and node animation live in the scene
//! proper; this is description only.

use glam::{EulerRot, Mat4, Quat, Vec3};

/// Which byte layout read the file (see the RSM note, §1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RsmLayout {
    /// The layout of BrowEdit3, Tokeiburu, roBrowserLegacy and lifthrasir; 1.5's 4 extra bytes at the end.
    B,
    /// Layout B with 1.5's 4 extra bytes before the model-level key block (RagLite).
    BExtraBeforeBlock,
    /// The classic description (flaviojs `rsm.txt`): 1.5 per-node position keys, 16-byte model-level keys.
    Fjs,
}

impl RsmLayout {
    pub fn describe(self) -> &'static str {
        match self {
            RsmLayout::B => "layout B",
            RsmLayout::BExtraBeforeBlock => "layout B (1.5 extra i32 before the model-level block)",
            RsmLayout::Fjs => "FJS layout (classic rsm.txt)",
        }
    }
}

/// One node as the file declares it, in file order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RsmNode {
    pub name: String,
    /// The parent name as written (empty for none).
    pub parent_name: String,
    /// File index of the parent node the name resolved to; `None` for a root.
    pub parent: Option<usize>,
    /// The skeleton joint made from this node.
    pub joint: usize,
    /// The node's texture slots, as paths written in the file (RSM1 and 2.2 through the global list).
    pub textures: Vec<String>,
    pub vertices: usize,
    pub faces: usize,
    /// Faces marked two-sided.
    pub two_sided_faces: usize,
    pub rotation_keys: usize,
    pub position_keys: usize,
    pub scale_keys: usize,
    /// Scene meshes drawn for this node, one per texture slot used.
    pub meshes: Vec<usize>,
}

/// A collision box (RSM1 and RSM2): not drawn by the game.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct RsmVolumeBox {
    pub size: Vec3,
    pub position: Vec3,
    pub rotation: Vec3,
    /// 1.3 and later; 0 before.
    pub flag: i32,
}

impl RsmVolumeBox {
    /// The box as a transform of the cube [−1, 1]³ in model space: T(position + centring) · R · S(size / 2),
    /// R the rotation as XYZ Euler angles in radians. Size as the full extent and the angle order are this
    /// viewer's reading (no real file in the corpus has boxes to confirm it).
    pub fn transform(&self, centring: Vec3) -> Mat4 {
        let r = Quat::from_euler(EulerRot::XYZ, self.rotation.x, self.rotation.y, self.rotation.z);
        let finite = |v: Vec3, d: Vec3| if v.is_finite() { v } else { d };
        let r = if r.is_finite() { r } else { Quat::IDENTITY };
        Mat4::from_scale_rotation_translation(
            finite(self.size, Vec3::ZERO) * 0.5,
            r,
            finite(self.position, Vec3::ZERO) + centring,
        )
    }
}

/// One UV-animation channel of RSM 2.3: a node's texture slot, a kind and its keys (file frames).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RsmUvAnimation {
    /// File index of the node.
    pub node: usize,
    pub texture_slot: i32,
    /// 0 translate U, 1 translate V, 2 scale U, 3 scale V, 4 rotate.
    pub kind: i32,
    pub keys: Vec<(i32, f32)>,
}

/// RSM-specific facts carried by [`super::Scene::rsm`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RsmInfo {
    pub layout: RsmLayout,
    /// RSM1 centring C = T(−center.x, −max.y, −center.z) of the rest-pose box, already folded into the root
    /// joints' translations; zero for RSM2.
    pub centring: Vec3,
    /// Animation length as stored: milliseconds (RSM1) or frames at `fps` (RSM2).
    pub anim_len: i32,
    /// 0 none (unlit), 1 flat, 2 smooth, 3 black.
    pub shade_type: i32,
    /// Header alpha (1.4 and later, RSM2); shown, not applied.
    pub alpha: Option<u8>,
    /// RSM2 frames per second as stored.
    pub fps: Option<f32>,
    /// RSM1: the main node name; RSM2: the root names.
    pub roots: Vec<String>,
    /// The global texture list (RSM1, 2.2); empty for 2.3, whose nodes name their own.
    pub textures: Vec<String>,
    pub nodes: Vec<RsmNode>,
    /// Per scene triangle: true when the face is two-sided.
    pub two_sided: Vec<bool>,
    /// Entries in the unused model-level key block (below 1.6).
    pub model_keys: usize,
    pub volume_boxes: Vec<RsmVolumeBox>,
    pub uv_animations: Vec<RsmUvAnimation>,
    /// Scene joint index → file node index (the skeleton is parents-first; the file need not be).
    pub node_of_joint: Vec<usize>,
}

impl RsmInfo {
    /// True when the file asks for no lighting (shadeType 0 or 3).
    pub fn unlit(&self) -> bool {
        matches!(self.shade_type, 0 | 3)
    }
}
