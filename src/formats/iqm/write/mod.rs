//! A record-level IQM version 2 writer.
//!
//! Tests need files that real exporters never produce (odd offsets, half and double arrays, broken counts), the
//! demo model needs a generator, and the IQE converter needs an output stage. All three want to pick formats and
//! layout themselves, so this module describes a file record by record and writes exactly that: it validates
//! nothing, and mismatched lengths are written as given. It never panics; sizes beyond `u32` saturate.

mod emit;
mod encode;
mod quantise;
#[cfg(test)]
mod tests;
mod text;

pub use encode::{encode_components, encode_components_into};
pub use quantise::{PoseChannels, quantize_channels, quantize_weights};

use super::layout::POSE_CHANNELS;
pub use super::layout::{
    ADJACENCY_SIZE, ANIM_SIZE, BOUNDS_SIZE, EXTENSION_SIZE, HEADER_SIZE, JOINT_SIZE, MAGIC, MESH_SIZE, POSE_SIZE,
    TRIANGLE_SIZE, VERSION, VERTEXARRAY_SIZE, field, format_size,
};
/// The vertex array types and component formats under the names the writer's users know them by.
pub use super::layout::{
    ANIM_LOOP as IQM_LOOP, BLENDINDEXES as IQM_BLENDINDEXES, BLENDWEIGHTS as IQM_BLENDWEIGHTS, BYTE as IQM_BYTE,
    COLOR as IQM_COLOR, CUSTOM as IQM_CUSTOM, DOUBLE as IQM_DOUBLE, FLOAT as IQM_FLOAT, HALF as IQM_HALF,
    INT as IQM_INT, NORMAL as IQM_NORMAL, POSITION as IQM_POSITION, SHORT as IQM_SHORT, TANGENT as IQM_TANGENT,
    TEXCOORD as IQM_TEXCOORD, UBYTE as IQM_UBYTE, UINT as IQM_UINT, USHORT as IQM_USHORT,
};

/// Overwrites a little-endian `u32` in a written file (tests patch a written file into a broken one).
pub use crate::formats::binwrite::patch_u32;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct VertexArray {
    pub kind: u32,
    pub flags: u32,
    pub format: u32,
    pub size: u32,
    /// Already encoded, so tests can write data of any length or format (see [`encode_components`]).
    pub data: Vec<u8>,
    /// When set, the written type is `IQM_CUSTOM + text offset of the name` and `kind` is ignored, because the
    /// text offset is only known once the whole table is built.
    pub custom_name: Option<String>,
}

impl VertexArray {
    pub fn new(kind: u32, format: u32, size: u32, data: Vec<u8>) -> Self {
        VertexArray { kind, flags: 0, format, size, data, custom_name: None }
    }

    /// Encodes `values` with [`encode_components`]; blend indexes want `normalized = false`.
    pub fn from_f32(kind: u32, format: u32, size: u32, values: &[f32], normalized: bool) -> Self {
        Self::new(kind, format, size, encode_components(format, values, normalized))
    }

    pub fn custom(name: impl Into<String>, format: u32, size: u32, data: Vec<u8>) -> Self {
        VertexArray { kind: IQM_CUSTOM, flags: 0, format, size, data, custom_name: Some(name.into()) }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    pub name: String,
    pub material: String,
    pub first_vertex: u32,
    pub num_vertexes: u32,
    pub first_triangle: u32,
    pub num_triangles: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub name: String,
    pub parent: i32,
    pub translate: [f32; 3],
    /// x y z w, as stored.
    pub rotate: [f32; 4],
    pub scale: [f32; 3],
}

impl Default for Joint {
    /// A root at the origin with identity rotation and unit scale: an all-zero joint would collapse its mesh. The
    /// identity is stored as w = -1, as writers store every rotation with w ≤ 0.
    fn default() -> Self {
        Joint { name: String::new(), parent: -1, translate: [0.0; 3], rotate: [0.0, 0.0, 0.0, -1.0], scale: [1.0; 3] }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pose {
    pub parent: i32,
    pub channel_mask: u32,
    pub channel_offset: [f32; POSE_CHANNELS],
    pub channel_scale: [f32; POSE_CHANNELS],
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Anim {
    pub name: String,
    pub first_frame: u32,
    pub num_frames: u32,
    pub framerate: f32,
    /// Bit 0 ([`IQM_LOOP`]) loops.
    pub flags: u32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bounds {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub xy_radius: f32,
    pub radius: f32,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extension {
    pub name: String,
    pub data: Vec<u8>,
}

/// A whole file as records. Counts the header carries on its own (`num_vertexes`, `num_frames`,
/// `num_framechannels`) are taken from here rather than derived, so tests can make them disagree with the data.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct IqmDocument {
    pub flags: u32,
    pub num_vertexes: u32,
    pub vertex_arrays: Vec<VertexArray>,
    pub triangles: Vec<[u32; 3]>,
    pub adjacency: Option<Vec<[u32; 3]>>,
    pub meshes: Vec<Mesh>,
    pub joints: Vec<Joint>,
    pub poses: Vec<Pose>,
    pub anims: Vec<Anim>,
    pub num_frames: u32,
    pub num_framechannels: u32,
    /// Frame-major: `num_frames * num_framechannels` values.
    pub frames: Vec<u16>,
    /// One per frame.
    pub bounds: Option<Vec<Bounds>>,
    pub comment: Option<String>,
    /// Written as the linked list the format uses, in this order.
    pub extensions: Vec<Extension>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Alignment of every section start and every vertex array's data, and the multiple `num_text` is padded
    /// to. 4 is the spec and the converter; 1 packs sections with no padding, like Red Eclipse files. 0 acts as 1.
    pub align: u32,
    /// Zero bytes after the (aligned) text table, not counted in `num_text`. Every later section keeps its
    /// alignment relative to this shift, so 2 with `align` 4 leaves every later offset at 2 mod 4.
    pub pad_after_text: u32,
}

impl Default for Layout {
    fn default() -> Self {
        Layout { align: 4, pad_after_text: 0 }
    }
}
