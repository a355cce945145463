//! File formats. Each parser works on a byte slice and produces a [`Scene`]; none knows about the GPU. Every
//! format is declared once, in [`FORMATS`] (`table.rs`): loading, `check`, the dialogs, drops and the web
//! page's picker derive from it.

pub mod binread;
pub mod binwrite;
pub mod gltf;
pub mod iqe;
pub mod iqm;
mod mmd_common;
pub mod mvd;
pub mod pmd;
pub mod pmx;
pub mod rsm;
mod table;
pub mod vmd;
pub mod vpd;

use std::path::Path;

pub use table::{
    COMPANION_EXTENSIONS, FORMATS, FileFormat, Role, Unrecognised, by_extension, extensions, extensions_of, format_of,
    is_companion_name, is_motion_name, is_readable_name, sniffed,
};

use crate::error::LoadError;
use crate::scene::Scene;

/// True when `head` (a file's first bytes) starts like a file rigscope reads (text formats by their header
/// line), so folders can be searched for exports whatever their extensions.
pub fn sniff_any(head: &[u8]) -> bool {
    table::sniffed(head).is_some()
}

/// Loads a model or motion from bytes, choosing the format by content and then by extension. Nothing is read
/// from disk: a .gltf whose buffer is an external file is refused with its URI named (see [`load_bytes_in`]).
pub fn load_bytes(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    load_bytes_in(name, data, None)
}

/// [`load_bytes`] for a file in folder `dir`, from which a .gltf's external buffers are read. The format is
/// chosen by [`FORMATS`]: by content, then by extension.
pub fn load_bytes_in(name: &str, data: &[u8], dir: Option<&Path>) -> Result<Scene, LoadError> {
    table::load_by_table(name, data, dir)
}

/// Loads a file from disk.
pub fn load_path(path: &Path) -> Result<Scene, LoadError> {
    let name = path.display().to_string();
    let data = crate::vfs::read(path).map_err(|e| LoadError::whole(format!("cannot read: {e}")).in_file(&name))?;
    load_bytes_in(&name, &data, Some(path.parent().unwrap_or(Path::new("."))))
}
