//! The IQM version 2 layout, declared once: the magic, the header's fields in file order, the size of every
//! record, and the vertex array types and component formats. The reader, the linter and the writer all take
//! their numbers from here, so a field or a size is spelled in one place.

/// The file starts with this; the NUL is part of the 16-byte field.
pub const MAGIC: &[u8; 16] = b"INTERQUAKEMODEL\0";
/// The only version rigscope reads and writes.
pub const VERSION: u32 = 2;

/// Declares the header's `u32` fields after the magic, in file order, once: their names (as error messages
/// and `Header::get` spell them) and their byte offsets (the [`field`] constants tests patch files with).
macro_rules! header_fields {
    ($($konst:ident $name:literal),* $(,)?) => {
        /// Field positions, in file order.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(usize)]
        enum FieldIndex {
            $($konst),*
        }

        /// Header field names after the magic, in file order.
        pub const HEADER_FIELDS: [&str; [$($name),*].len()] = [$($name),*];

        /// Byte positions of the header fields, so tests can patch a written file into a broken one.
        pub mod field {
            $(pub const $konst: usize = super::field_offset(super::FieldIndex::$konst as usize);)*
        }
    };
}

header_fields! {
    VERSION "version",
    FILESIZE "filesize",
    FLAGS "flags",
    NUM_TEXT "num_text",
    OFS_TEXT "ofs_text",
    NUM_MESHES "num_meshes",
    OFS_MESHES "ofs_meshes",
    NUM_VERTEXARRAYS "num_vertexarrays",
    NUM_VERTEXES "num_vertexes",
    OFS_VERTEXARRAYS "ofs_vertexarrays",
    NUM_TRIANGLES "num_triangles",
    OFS_TRIANGLES "ofs_triangles",
    OFS_ADJACENCY "ofs_adjacency",
    NUM_JOINTS "num_joints",
    OFS_JOINTS "ofs_joints",
    NUM_POSES "num_poses",
    OFS_POSES "ofs_poses",
    NUM_ANIMS "num_anims",
    OFS_ANIMS "ofs_anims",
    NUM_FRAMES "num_frames",
    NUM_FRAMECHANNELS "num_framechannels",
    OFS_FRAMES "ofs_frames",
    OFS_BOUNDS "ofs_bounds",
    NUM_COMMENT "num_comment",
    OFS_COMMENT "ofs_comment",
    NUM_EXTENSIONS "num_extensions",
    OFS_EXTENSIONS "ofs_extensions",
}

/// How many `u32` fields follow the magic.
pub const HEADER_FIELD_COUNT: usize = HEADER_FIELDS.len();
/// Magic plus the `u32` fields: 124 bytes.
pub const HEADER_SIZE: usize = field_offset(HEADER_FIELD_COUNT);

/// Byte offset of the header field at `index` in [`HEADER_FIELDS`].
pub const fn field_offset(index: usize) -> usize {
    MAGIC.len() + 4 * index
}

/// Record sizes in bytes.
/// name, material, first_vertex, num_vertexes, first_triangle, num_triangles.
pub const MESH_SIZE: usize = 24;
/// type, flags, format, size, offset.
pub const VERTEXARRAY_SIZE: usize = 20;
/// Three vertex indices.
pub const TRIANGLE_SIZE: usize = 12;
/// Three neighbouring triangles (`u32::MAX` for none).
pub const ADJACENCY_SIZE: usize = 12;
/// name, parent, translate ×3, rotate ×4, scale ×3.
pub const JOINT_SIZE: usize = 48;
/// parent, channel mask, channel offset ×10, channel scale ×10.
pub const POSE_SIZE: usize = 88;
/// name, first_frame, num_frames, framerate, flags.
pub const ANIM_SIZE: usize = 20;
/// One `u16` channel value in the frame data.
pub const FRAME_VALUE_SIZE: usize = 2;
/// min ×3, max ×3, xy radius, radius.
pub const BOUNDS_SIZE: usize = 32;
/// name, num_data, ofs_data, ofs_extensions (the next one).
pub const EXTENSION_SIZE: usize = 16;

/// A pose's channels: Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz.
pub const POSE_CHANNELS: usize = 10;
/// The mask bits a pose may set, one per channel.
pub const POSE_CHANNEL_MASK: u32 = (1 << POSE_CHANNELS) - 1;
/// Anim flag bit 0: the animation loops.
pub const ANIM_LOOP: u32 = 1;

/// Vertex array types.
pub const POSITION: u32 = 0;
pub const TEXCOORD: u32 = 1;
pub const NORMAL: u32 = 2;
pub const TANGENT: u32 = 3;
pub const BLENDINDEXES: u32 = 4;
pub const BLENDWEIGHTS: u32 = 5;
pub const COLOR: u32 = 6;
/// Types from here on are custom: `type - CUSTOM` is the text offset of the array's name. Types between
/// [`COLOR`] and this are reserved.
pub const CUSTOM: u32 = 16;

/// True for the types the spec reserves (between color and custom).
pub fn is_reserved(kind: u32) -> bool {
    (COLOR + 1..CUSTOM).contains(&kind)
}

/// The name of a vertex array type, as `info`, IQE `vertexarray` and the converter spell it.
pub fn type_name(kind: u32) -> &'static str {
    match kind {
        POSITION => "position",
        TEXCOORD => "texcoord",
        NORMAL => "normal",
        TANGENT => "tangent",
        BLENDINDEXES => "blendindexes",
        BLENDWEIGHTS => "blendweights",
        COLOR => "color",
        k if is_reserved(k) => "reserved",
        _ => "custom",
    }
}

/// Component formats.
pub const BYTE: u32 = 0;
pub const UBYTE: u32 = 1;
pub const SHORT: u32 = 2;
pub const USHORT: u32 = 3;
pub const INT: u32 = 4;
pub const UINT: u32 = 5;
pub const HALF: u32 = 6;
pub const FLOAT: u32 = 7;
pub const DOUBLE: u32 = 8;

/// Every component format by number: its name and bytes per component.
const FORMATS: [(&str, usize); 9] = [
    ("byte", 1),
    ("ubyte", 1),
    ("short", 2),
    ("ushort", 2),
    ("int", 4),
    ("uint", 4),
    ("half", 2),
    ("float", 4),
    ("double", 8),
];

/// The highest defined component format.
pub const MAX_FORMAT: u32 = FORMATS.len() as u32 - 1;

/// Component format names by number.
pub const FORMAT_NAMES: [&str; FORMATS.len()] = {
    let mut names = [""; FORMATS.len()];
    let mut i = 0;
    while i < FORMATS.len() {
        names[i] = FORMATS[i].0;
        i += 1;
    }
    names
};

/// Bytes per component of a format; `None` for codes the format doesn't define.
pub const fn format_size(format: u32) -> Option<usize> {
    if (format as usize) < FORMATS.len() { Some(FORMATS[format as usize].1) } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_sit_where_the_spec_puts_them() {
        assert_eq!(HEADER_SIZE, 124);
        assert_eq!(field::VERSION, 16);
        assert_eq!(field::NUM_VERTEXES, 48);
        assert_eq!(field::OFS_EXTENSIONS, 120);
        assert_eq!(HEADER_FIELDS[(field::OFS_BOUNDS - 16) / 4], "ofs_bounds");
    }

    #[test]
    fn formats_and_types_are_named_and_sized() {
        assert_eq!(FORMAT_NAMES[FLOAT as usize], "float");
        assert_eq!(format_size(DOUBLE), Some(8));
        assert_eq!(format_size(HALF), Some(2));
        assert_eq!(format_size(MAX_FORMAT + 1), None);
        assert_eq!(type_name(BLENDWEIGHTS), "blendweights");
        assert_eq!(type_name(7), "reserved");
        assert_eq!(type_name(CUSTOM), "custom");
        assert_eq!(POSE_CHANNEL_MASK, 0x3ff);
    }
}
