//! The one table of formats: each format rigscope reads, declared once with its extensions, how its bytes are
//! recognised, its reader, and whether its files are models or motions. Loading, `check`'s folder walk and rule
//! ids, the open dialogs, drops and the web page's picker all derive from [`FORMATS`]; adding a format is a
//! reader in its own folder and a row here.

use std::path::Path;

use crate::error::LoadError;
use crate::scene::Scene;

/// What a format's files are to the viewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Opens on its own (meshes, a skeleton, clips of its own).
    Model,
    /// Animation only: attaches to the model shown, so files given together open it after the models.
    Motion,
}

/// What to do with a file named with one of a format's extensions whose bytes no format recognises.
#[derive(Debug, Clone, Copy)]
pub enum Unrecognised {
    /// The reader reads it anyway and says where it stopped and what it expected there.
    Read,
    /// Read when the bytes pass the test (a .gltf that is a JSON object), else refused with the message.
    ReadIf(fn(&[u8]) -> bool, &'static str),
    /// Refused with the message (a binary format whose reader would only repeat that the magic is missing).
    Refuse(&'static str),
}

/// A format's reader: the file's name (for errors), its bytes, and its folder where it has one.
pub type Reader = fn(&str, &[u8], Option<&Path>) -> Result<Scene, LoadError>;

/// A file format rigscope reads.
#[derive(Debug)]
pub struct FileFormat {
    /// Short name: `check`'s rule ids (`iqm.unreadable`) and the formats' folder under `src/formats/`.
    pub id: &'static str,
    /// Lower-case extensions without the dot, the usual one first.
    pub extensions: &'static [&'static str],
    pub role: Role,
    /// Recognises the format by a file's first bytes (64 are enough for every format).
    pub sniff: fn(&[u8]) -> bool,
    /// For a file with this format's extension that no format's `sniff` recognised.
    pub unrecognised: Unrecognised,
    /// The reader: the file's name (for errors), its bytes, and its folder where it has one (a .gltf's external
    /// buffers are read from there).
    pub read: Reader,
}

impl FileFormat {
    /// Whether `ext` (any case, no dot) is one of this format's extensions.
    pub fn has_extension(&self, ext: &str) -> bool {
        self.extensions.iter().any(|e| e.eq_ignore_ascii_case(ext))
    }
}

/// Every format, in the order their `sniff`s are tried.
pub static FORMATS: [FileFormat; 10] = [
    FileFormat {
        id: "gltf",
        extensions: &["glb", "gltf", "vrm"],
        role: Role::Model,
        sniff: super::gltf::sniff,
        unrecognised: Unrecognised::ReadIf(
            super::gltf::looks_like_json,
            "not a glTF file: it neither starts with \"glTF\" (GLB) nor is a JSON object",
        ),
        read: super::gltf::read_in,
    },
    // A VRMA motion is a GLB (which the glTF entry's sniff recognises first): its own entry makes it a motion,
    // attached to the avatar shown and opened after the models given with it.
    FileFormat {
        id: "vrma",
        extensions: &["vrma"],
        role: Role::Motion,
        sniff: |_| false,
        unrecognised: Unrecognised::Refuse("not a VRMA motion: a VRMA is a GLB file, which starts with \"glTF\""),
        read: super::gltf::read_in,
    },
    FileFormat {
        id: "iqm",
        extensions: &["iqm"],
        role: Role::Model,
        sniff: super::iqm::sniff,
        unrecognised: Unrecognised::Refuse("not an IQM file: it does not start with \"INTERQUAKEMODEL\\0\""),
        read: |name, data, _| super::iqm::read(name, data),
    },
    FileFormat {
        id: "iqe",
        extensions: &["iqe"],
        role: Role::Model,
        sniff: super::iqe::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::iqe::read(name, data),
    },
    FileFormat {
        id: "mvd",
        extensions: &["mvd"],
        role: Role::Motion,
        sniff: super::mvd::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::mvd::read(name, data),
    },
    FileFormat {
        id: "vmd",
        extensions: &["vmd"],
        role: Role::Motion,
        sniff: super::vmd::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::vmd::read(name, data),
    },
    FileFormat {
        id: "vpd",
        extensions: &["vpd"],
        role: Role::Motion,
        sniff: super::vpd::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::vpd::read(name, data),
    },
    FileFormat {
        id: "pmx",
        extensions: &["pmx"],
        role: Role::Model,
        sniff: super::pmx::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::pmx::read(name, data),
    },
    FileFormat {
        id: "pmd",
        extensions: &["pmd"],
        role: Role::Model,
        sniff: super::pmd::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::pmd::read(name, data),
    },
    FileFormat {
        id: "rsm",
        extensions: &["rsm", "rsm2"],
        role: Role::Model,
        sniff: super::rsm::sniff,
        unrecognised: Unrecognised::Read,
        read: |name, data, _| super::rsm::read(name, data),
    },
];

/// Extensions of files that go with a model rather than open on their own (textures, sphere maps, toon ramps,
/// a `.gltf`'s buffers): dropped or picked with a model, they are found beside it.
pub const COMPANION_EXTENSIONS: [&str; 10] = ["png", "bmp", "tga", "jpg", "jpeg", "spa", "sph", "dds", "bin", "gif"];

/// The format whose `sniff` recognises `head`, in table order.
pub fn sniffed(head: &[u8]) -> Option<&'static FileFormat> {
    FORMATS.iter().find(|f| (f.sniff)(head))
}

/// The format `name`'s extension names (any case).
pub fn by_extension(name: &str) -> Option<&'static FileFormat> {
    let ext = extension(name);
    FORMATS.iter().find(|f| f.has_extension(&ext))
}

/// The format of a file: by its content, else by its name's extension.
pub fn format_of(name: &str, data: &[u8]) -> Option<&'static FileFormat> {
    sniffed(data).or_else(|| by_extension(name))
}

/// Every extension rigscope reads, lower case, in table order.
pub fn extensions() -> impl Iterator<Item = &'static str> {
    FORMATS.iter().flat_map(|f| f.extensions.iter().copied())
}

/// The extensions of the formats in `role`, lower case, in table order.
pub fn extensions_of(role: Role) -> impl Iterator<Item = &'static str> {
    FORMATS.iter().filter(move |f| f.role == role).flat_map(|f| f.extensions.iter().copied())
}

/// Whether `name` is a file rigscope reads, by its extension.
pub fn is_readable_name(name: &str) -> bool {
    by_extension(name).is_some()
}

/// Whether `name` names an animation-only file (by extension), which attaches to a model.
pub fn is_motion_name(name: &str) -> bool {
    by_extension(name).is_some_and(|f| f.role == Role::Motion)
}

/// Whether `name` names a file that goes with a model (a texture, a buffer), by extension.
pub fn is_companion_name(name: &str) -> bool {
    let ext = extension(name);
    COMPANION_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(&ext))
}

/// `name`'s extension, lower case ("" without one).
fn extension(name: &str) -> String {
    Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase()
}

/// Loads by the table: the format whose `sniff` recognises the bytes, else the one the extension names (as its
/// [`Unrecognised`] says), else an error naming what was missing.
pub fn load_by_table(name: &str, data: &[u8], dir: Option<&Path>) -> Result<Scene, LoadError> {
    if let Some(format) = sniffed(data) {
        return (format.read)(name, data, dir);
    }
    let msg = match by_extension(name) {
        Some(format) => match format.unrecognised {
            Unrecognised::Read => return (format.read)(name, data, dir),
            Unrecognised::ReadIf(test, _) if test(data) => return (format.read)(name, data, dir),
            Unrecognised::ReadIf(_, msg) | Unrecognised::Refuse(msg) => msg.to_string(),
        },
        None => match extension(name).as_str() {
            "" => "unknown format: no recognised header and no file extension".to_string(),
            e => format!("unknown format: no recognised header, and rigscope does not read .{e} files yet"),
        },
    };
    Err(LoadError::at(0, msg).in_file(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extension_belongs_to_one_format_and_is_lower_case() {
        let all: Vec<&str> = extensions().collect();
        for e in &all {
            assert_eq!(all.iter().filter(|x| *x == e).count(), 1, ".{e} is declared twice");
            assert_eq!(*e, e.to_ascii_lowercase(), ".{e} must be lower case");
            assert!(!COMPANION_EXTENSIONS.contains(e), ".{e} is both a format and a companion");
        }
        let ids: Vec<&str> = FORMATS.iter().map(|f| f.id).collect();
        assert_eq!(ids.len(), ids.iter().collect::<std::collections::HashSet<_>>().len(), "ids are unique");
    }

    #[test]
    fn names_find_their_format_in_any_case() {
        assert_eq!(by_extension("Dance.VMD").map(|f| f.id), Some("vmd"));
        assert_eq!(by_extension("a/b/model.rsm2").map(|f| f.id), Some("rsm"));
        assert_eq!(by_extension("scene.GLB").map(|f| f.id), Some("gltf"));
        assert!(by_extension("notes.txt").is_none() && by_extension("noext").is_none());
        assert!(is_motion_name("pose.vpd") && is_motion_name("m.MVD") && !is_motion_name("m.pmx"));
        assert!(is_motion_name("dance.vrma") && !is_motion_name("avatar.vrm"));
        assert!(is_companion_name("tex/Body.PNG") && !is_companion_name("a.iqm"));
    }

    #[test]
    fn content_wins_over_the_extension() {
        let iqm = b"INTERQUAKEMODEL\0\x02\0\0\0";
        assert_eq!(format_of("misnamed.pmx", iqm).map(|f| f.id), Some("iqm"));
        assert_eq!(format_of("model.iqm", b"garbage").map(|f| f.id), Some("iqm"));
        assert!(format_of("x.bin", b"garbage").is_none());
    }

    #[test]
    fn unrecognised_bytes_are_refused_with_what_was_expected() {
        let err = |name: &str| load_by_table(name, b"\x01\x02 not a model", None).unwrap_err().to_string();
        assert!(err("a.iqm").contains("does not start with \"INTERQUAKEMODEL"), "{}", err("a.iqm"));
        assert!(err("a.gltf").contains("not a glTF file"), "{}", err("a.gltf"));
        assert!(err("a.xyz").contains("does not read .xyz files"), "{}", err("a.xyz"));
        assert!(err("noext").contains("no file extension"), "{}", err("noext"));
        assert!(err("a.txt").starts_with("a.txt"), "the error names the file: {}", err("a.txt"));
    }
}
