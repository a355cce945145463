//! What the RSM byte layout holds in each version, spelled once for the parser, the writer and the builder.
//!
//! Versions are `major << 8 | minor` (1.4 is `0x104`). Each gate below names one field or block and the
//! versions (and, for RSM1 1.5, layouts) that have it, following the project's RSM note (`shared/notes/rsm.md`).

use crate::scene::RsmLayout;

/// The magic every RSM file starts with.
pub const MAGIC: &[u8; 4] = b"GRSM";

/// A magic some files carry instead of [`MAGIC`]; read as if it were "GRSM" (with a warning).
pub const MAGIC_ALT: &[u8; 4] = b"GRSX";

/// Magic plus major and minor version bytes.
pub const HEADER_LEN: u64 = 6;

/// RSM1's fixed-size name fields (textures, nodes, parents).
pub const NAME_LEN: usize = 40;

/// RSM1's reserved header bytes after shadeType (and alpha).
pub const RSM1_RESERVED: usize = 16;

/// The smallest RSM1 node: 80 B of names, 88 B of transform and four counts.
pub const RSM1_NODE_MIN: u64 = 184;

/// The smallest RSM2 node: two name lengths, a texture count, 48 B of matrix and position, six counts.
pub const RSM2_NODE_MIN: u64 = 84;

/// A face's fixed part: corners, texture vertices, texture slot, padding and the two-sided flag.
pub const FACE_BODY: usize = 20;

/// One smoothing group after the face body.
pub const FACE_GROUP: usize = 4;

/// RSM2 face records say their length: the body plus up to three smoothing groups, in whole groups.
pub fn rsm2_face_len_ok(len: i32) -> bool {
    (FACE_BODY as i32..=(FACE_BODY + 3 * FACE_GROUP) as i32).contains(&len) && len % FACE_GROUP as i32 == 0
}

/// 1.5's four extra bytes (layout B).
pub const EXTRA_1_5: usize = 4;

/// Scale keys: frame, vec3 and an unused float.
pub const SCALE_KEY: usize = 20;

/// Rotation keys: frame and quaternion.
pub const ROT_KEY: usize = 20;

/// RSM2 position keys: frame, vec3 and an unused i32.
pub const RSM2_POS_KEY: usize = 20;

/// FJS 1.5 position keys: frame and vec3.
pub const FJS_POS_KEY: usize = 16;

/// 2.3 UV-animation keys: frame and value.
pub const UV_KEY: usize = 8;

/// The version as one number, `major << 8 | minor`.
pub fn code(major: u8, minor: u8) -> u16 {
    u16::from(major) << 8 | u16::from(minor)
}

/// The versions rigscope reads: 1.1 to 1.6, 2.2 and 2.3.
pub fn supported(v: u16) -> bool {
    (0x101..=0x106).contains(&v) || (0x202..=0x203).contains(&v)
}

/// RSM2 (length-prefixed names, fps, root list, self-sized faces).
pub fn is_rsm2(v: u16) -> bool {
    v >= 0x202
}

/// The header's alpha byte: 1.4 and later (every RSM2, whose header also always has an fps float).
pub fn has_alpha(v: u16) -> bool {
    v >= 0x104
}

/// RSM2 files with a global, length-prefixed texture list (2.2; 2.3 names textures per node instead).
pub fn has_rsm2_texture_list(v: u16) -> bool {
    v == 0x202
}

/// Nodes carry their own texture names instead of indices into a global list: 2.3.
pub fn node_texture_names(v: u16) -> bool {
    v >= 0x203
}

/// RSM1 texture vertices start with a colour, and faces end with a smoothing group: 1.2 and later.
pub fn has_colour_and_group(v: u16) -> bool {
    v >= 0x102
}

/// RSM1 texture-vertex record size.
pub fn rsm1_tex_vertex_size(v: u16) -> usize {
    if has_colour_and_group(v) { 12 } else { 8 }
}

/// RSM1 face record size.
pub fn rsm1_face_size(v: u16) -> usize {
    if has_colour_and_group(v) { FACE_BODY + FACE_GROUP } else { FACE_BODY }
}

/// Per-node scale keys: 1.6 and every RSM2.
pub fn has_scale_keys(v: u16) -> bool {
    v >= 0x106
}

/// Per-node position keys in RSM1: the FJS layout from 1.5.
pub fn has_fjs_pos_keys(v: u16, layout: RsmLayout) -> bool {
    layout == RsmLayout::Fjs && v >= 0x105
}

/// The size of RSM1's model-level keys, or `None` where the block is absent: FJS has 16-byte keys below 1.5,
/// layout B 20-byte keys below 1.6.
pub fn model_key_size(v: u16, layout: RsmLayout) -> Option<usize> {
    if layout == RsmLayout::Fjs { (v < 0x105).then_some(MODEL_KEY_FJS) } else { (v < 0x106).then_some(MODEL_KEY_B) }
}

/// FJS model-level keys: frame and vec3.
pub const MODEL_KEY_FJS: usize = 16;

/// Layout B model-level keys: frame, vec3 and a float.
pub const MODEL_KEY_B: usize = 20;

/// 1.5's extra bytes sit before the model-level block in this layout.
pub fn extra_before_block(v: u16, layout: RsmLayout) -> bool {
    v == 0x105 && layout == RsmLayout::BExtraBeforeBlock
}

/// 1.5's extra bytes sit at the end of the file in this layout.
pub fn extra_at_end(v: u16, layout: RsmLayout) -> bool {
    v == 0x105 && layout == RsmLayout::B
}

/// The layouts to try first for a version: layout B, and for 1.5 also with the extra bytes before the block.
pub fn b_layouts(v: u16) -> Vec<RsmLayout> {
    let mut layouts = vec![RsmLayout::B];
    if v == 0x105 {
        layouts.push(RsmLayout::BExtraBeforeBlock);
    }
    layouts
}

/// The classic (FJS) layout exists up to 1.5.
pub fn fjs_possible(v: u16) -> bool {
    v <= 0x105
}

/// Volume boxes end with a flag: 1.3 and later (every RSM2).
pub fn volume_box_flag(v: u16) -> bool {
    v >= 0x103
}

/// Volume-box record size.
pub fn volume_box_size(v: u16) -> usize {
    if volume_box_flag(v) { 40 } else { 36 }
}

/// 2.3 files may end before the volume-box count.
pub fn volume_count_optional(v: u16) -> bool {
    v >= 0x203
}

/// Per-node UV animations: 2.3.
pub fn has_uv_animations(v: u16) -> bool {
    v >= 0x203
}
