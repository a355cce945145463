//! File formats. Each parser works on a byte slice and produces a [`Scene`]; none knows about the GPU.

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
pub mod vmd;
pub mod vpd;

use std::path::Path;

use crate::error::LoadError;
use crate::scene::Scene;

/// True when `head` (a file's first bytes) starts like a file rigscope reads (text formats by their header
/// line), so folders can be searched for exports whatever their extensions.
pub fn sniff_any(head: &[u8]) -> bool {
    iqm::sniff(head)
        || iqe::sniff(head)
        || mvd::sniff(head)
        || rsm::sniff(head)
        || vmd::sniff(head)
        || vpd::sniff(head)
        || pmx::sniff(head)
        || pmd::sniff(head)
        || gltf::sniff(head)
}

/// Loads a model or motion from bytes, choosing the format by content and then by extension. Nothing is read
/// from disk: a .gltf whose buffer is an external file is refused with its URI named (see [`load_bytes_in`]).
pub fn load_bytes(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    load_bytes_in(name, data, None)
}

/// [`load_bytes`] for a file in folder `dir`, from which a .gltf's external buffers are read.
pub fn load_bytes_in(name: &str, data: &[u8], dir: Option<&Path>) -> Result<Scene, LoadError> {
    if gltf::sniff(data) {
        return gltf::read_in(name, data, dir);
    }
    if iqm::sniff(data) {
        return iqm::read(name, data);
    }
    if iqe::sniff(data) {
        return iqe::read(name, data);
    }
    if mvd::sniff(data) {
        return mvd::read(name, data);
    }
    if vmd::sniff(data) {
        return vmd::read(name, data);
    }
    if vpd::sniff(data) {
        return vpd::read(name, data);
    }
    if pmx::sniff(data) {
        return pmx::read(name, data);
    }
    if pmd::sniff(data) {
        return pmd::read(name, data);
    }
    let ext = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if (ext == "gltf" || ext == "glb") && gltf::looks_like_json(data) {
        return gltf::read_in(name, data, dir);
    }
    if rsm::sniff(data) || ext == "rsm" || ext == "rsm2" {
        return rsm::read(name, data);
    }
    let msg = match ext.as_str() {
        // Names line 1 and the expected header.
        "iqe" => return iqe::read(name, data),
        "iqm" => "not an IQM file: it does not start with \"INTERQUAKEMODEL\\0\"".to_string(),
        "mvd" => return mvd::read(name, data),
        "vmd" => return vmd::read(name, data),
        "vpd" => return vpd::read(name, data),
        "pmx" => return pmx::read(name, data),
        "pmd" => return pmd::read(name, data),
        "glb" | "gltf" => "not a glTF file: it neither starts with \"glTF\" (GLB) nor is a JSON object".to_string(),
        "" => "unknown format: no recognised header and no file extension".to_string(),
        e => format!("unknown format: no recognised header, and rigscope does not read .{e} files yet"),
    };
    Err(LoadError::at(0, msg).in_file(name))
}

/// Loads a file from disk.
pub fn load_path(path: &Path) -> Result<Scene, LoadError> {
    let name = path.display().to_string();
    let data = crate::vfs::read(path).map_err(|e| LoadError::whole(format!("cannot read: {e}")).in_file(&name))?;
    load_bytes_in(&name, &data, Some(path.parent().unwrap_or(Path::new("."))))
}
