//! Where file bytes come from: the disk, or folders held in memory. Every loader that reads a file beside the
//! model (textures, a `.gltf`'s external buffers, the model and its motions when opened or reloaded) reads
//! through here, so none of them knows where its bytes live.
//!
//! - On the desktop a path is a file on disk, except under [`MEMORY_ROOT`].
//! - Files handed over as bytes (the web page's drops, a dropped `.zip`, `?open=` downloads, the built-in demo's
//!   texture) are [`mount`]ed as a folder in memory under [`MEMORY_ROOT`]; paths inside it resolve exactly as
//!   on disk, case-insensitive lookups included, since those go through [`list`].
//! - In the browser there is no disk: only mounted folders exist.
//!
//! The memory folders are process-wide (one mutex), as the disk is: the loaders that read beside a model take a
//! folder path, and a path is all they need to be handed.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The root under which memory folders are mounted; never a folder on disk.
pub const MEMORY_ROOT: &str = "/rigscope-memory";

/// The mounted files by normalised path, and the number of the next mount.
static MEMORY: Mutex<Memory> = Mutex::new(Memory { files: BTreeMap::new(), live: BTreeSet::new(), next: 0 });

struct Memory {
    files: BTreeMap<PathBuf, Arc<[u8]>>,
    /// Memory files that stand for a file the page can read again when it changes (one it holds a browser
    /// file handle of): hot reload watches them ([`live`]).
    live: BTreeSet<PathBuf>,
    next: u64,
}

/// `path` without `.` components, with `..` applied: the key memory files are stored under. `None` when it
/// climbs above its start.
pub fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    Some(out)
}

/// How `path` is named to the user: as given on disk; in a memory folder, by its path inside the folder (what
/// the user dropped), without the mount's own folders.
pub fn display_name(path: &Path) -> String {
    match path.strip_prefix(MEMORY_ROOT) {
        Ok(rest) => {
            let mut parts = rest.components();
            parts.next();
            parts.as_path().display().to_string()
        }
        Err(_) => path.display().to_string(),
    }
}

/// Whether `path` names a file on disk (one a watcher can watch), not one in memory.
pub fn on_disk(path: &Path) -> bool {
    !in_memory(path)
}

/// Whether `path` can change under the app, so hot reload can watch it: a file on disk, or a memory file marked
/// [`set_live`] (the web page holds a file handle it polls).
pub fn live(path: &Path) -> bool {
    if !in_memory(path) {
        return true;
    }
    let (Some(key), Ok(memory)) = (normalise(path), MEMORY.lock()) else { return false };
    memory.live.contains(&key)
}

/// Marks the memory file `path` as standing for a file that can change ([`live`]); its new bytes come through
/// [`add`].
pub fn set_live(path: &Path) {
    if let (Some(key), Ok(mut memory)) = (normalise(path), MEMORY.lock()) {
        memory.live.insert(key);
    }
}

/// Whether `path` lies in memory rather than on disk.
fn in_memory(path: &Path) -> bool {
    cfg!(target_arch = "wasm32") || path.starts_with(MEMORY_ROOT)
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{} is not among the files given", path.display()))
}

/// Mounts `files` (paths relative to the folder, `/` or `\` between folders) as a new folder in memory and
/// returns its path. Names that are absolute or climb out (`..`) are left out; a later file of the same name
/// replaces an earlier one.
pub fn mount(files: impl IntoIterator<Item = NamedBytes>) -> PathBuf {
    let Ok(mut memory) = MEMORY.lock() else { return PathBuf::from(MEMORY_ROOT) };
    let root = Path::new(MEMORY_ROOT).join(memory.next.to_string());
    memory.next += 1;
    for (name, bytes) in files {
        let rel = PathBuf::from(name.replace('\\', "/"));
        if rel.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
            && let Some(path) = normalise(&root.join(rel))
            && path != root
        {
            memory.files.insert(path, bytes);
        }
    }
    root
}

/// Adds file `name` (a path inside the folder, as [`mount`] takes it) to the memory folder `root`, replacing one
/// of the same name; returns its path, or `None` for a name that is absolute or climbs out.
pub fn add(root: &Path, name: &str, bytes: Arc<[u8]>) -> Option<PathBuf> {
    let rel = PathBuf::from(name.replace('\\', "/"));
    if !root.starts_with(MEMORY_ROOT)
        || !rel.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    let path = normalise(&root.join(rel)).filter(|p| p != root)?;
    MEMORY.lock().ok()?.files.insert(path.clone(), bytes);
    Some(path)
}

/// A file given by its path inside a folder, and its bytes.
pub type NamedBytes = (String, Arc<[u8]>);

/// The most a `.zip` may unpack to: a browser tab's memory is the limit, and an archive that claims more is
/// far more likely a zip bomb than a model.
pub const MAX_UNZIPPED: u64 = 1 << 30;

/// The files in the `.zip` `bytes`, as [`mount`] takes them: each entry's path inside the archive and its
/// bytes; folders left out. Names are UTF-8 where they are valid UTF-8, else Shift_JIS (MikuMikuDance models
/// are shared as archives made on Japanese Windows, whose names are Shift_JIS without the UTF-8 flag), else
/// CP437 as the format says. Fails on a damaged archive, an entry whose data doesn't match its checksum, an
/// unsupported compression method, or more than [`MAX_UNZIPPED`] bytes in all.
pub fn unzip(bytes: &[u8]) -> Result<Vec<NamedBytes>, String> {
    use std::io::Read;
    let mut archive =
        zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(|e| format!("not a readable zip archive: {e}"))?;
    let mut files = Vec::with_capacity(archive.len().min(bytes.len() / 22));
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| format!("entry {i}: {e}"))?;
        if !entry.is_file() {
            continue;
        }
        let name = entry_name(entry.name_raw(), || entry.name().map(|n| n.into_owned()).unwrap_or_default());
        let left = MAX_UNZIPPED - total;
        // The declared size only sizes the first allocation (and no more than the archive could hold, deflate
        // packing at most about 1032:1); the read itself is bounded by what is left.
        let declared = entry.size().min(left).min(bytes.len() as u64 * 1032);
        let mut data = Vec::with_capacity(usize::try_from(declared).unwrap_or(0).min(256 << 20));
        (&mut entry).take(left + 1).read_to_end(&mut data).map_err(|e| format!("{name}: {e}"))?;
        if data.len() as u64 > left {
            return Err(format!("the archive unpacks to more than {} MiB", MAX_UNZIPPED >> 20));
        }
        total += data.len() as u64;
        files.push((name, Arc::from(data)));
    }
    Ok(files)
}

/// An entry's name from its raw bytes: UTF-8, else Shift_JIS when that decodes cleanly, else the archive's own
/// reading (`fallback`, CP437).
fn entry_name(raw: &[u8], fallback: impl FnOnce() -> String) -> String {
    if let Ok(name) = std::str::from_utf8(raw) {
        return name.to_string();
    }
    let (name, _, bad) = encoding_rs::SHIFT_JIS.decode(raw);
    if bad { fallback() } else { name.into_owned() }
}

/// Forgets the memory folder `root` ([`mount`]'s answer) and everything in it.
pub fn unmount(root: &Path) {
    if let Ok(mut memory) = MEMORY.lock() {
        memory.files.retain(|p, _| !p.starts_with(root));
        memory.live.retain(|p| !p.starts_with(root));
    }
}

/// The bytes of file `path`. A file on disk is read straight into the buffer returned: going through
/// [`read_shared`] copied it twice more (into the `Arc`, then out of it), 100 MB of copies and fresh pages
/// for a 50 MB model.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    #[cfg(not(target_arch = "wasm32"))]
    if !in_memory(path) {
        return std::fs::read(path);
    }
    read_shared(path).map(|b| b.to_vec())
}

/// The bytes of file `path`, shared with the memory folder when it is there (no copy).
pub fn read_shared(path: &Path) -> io::Result<Arc<[u8]>> {
    if !in_memory(path) {
        #[cfg(not(target_arch = "wasm32"))]
        return std::fs::read(path).map(Arc::from);
    }
    let key = normalise(path).ok_or_else(|| not_found(path))?;
    let memory = MEMORY.lock().map_err(|_| io::Error::other("the memory folders are unusable"))?;
    memory.files.get(&key).cloned().ok_or_else(|| not_found(path))
}

/// Whether `path` is a file.
pub fn is_file(path: &Path) -> bool {
    if !in_memory(path) {
        return path.is_file();
    }
    let (Some(key), Ok(memory)) = (normalise(path), MEMORY.lock()) else { return false };
    memory.files.contains_key(&key)
}

/// Whether `path` is a folder (in memory: a folder some mounted file lies in).
pub fn is_dir(path: &Path) -> bool {
    if !in_memory(path) {
        return path.is_dir();
    }
    let (Some(key), Ok(memory)) = (normalise(path), MEMORY.lock()) else { return false };
    memory.files.range(key.clone()..).next().is_some_and(|(p, _)| p.starts_with(&key) && *p != key)
}

/// The names of the files and folders directly in folder `dir`, in no particular order.
pub fn list(dir: &Path) -> io::Result<Vec<OsString>> {
    #[cfg(not(target_arch = "wasm32"))]
    if !in_memory(dir) {
        return std::fs::read_dir(dir)?.map(|e| e.map(|e| e.file_name())).collect();
    }
    let key = normalise(dir).ok_or_else(|| not_found(dir))?;
    let memory = MEMORY.lock().map_err(|_| io::Error::other("the memory folders are unusable"))?;
    let mut names: Vec<OsString> = memory
        .files
        .range(key.clone()..)
        .take_while(|(p, _)| p.starts_with(&key))
        .filter_map(|(p, _)| p.strip_prefix(&key).ok()?.components().next().map(|c| c.as_os_str().to_owned()))
        .collect();
    names.dedup();
    // A folder exists in memory only while some file lies in it.
    if names.is_empty() {
        return Err(not_found(dir));
    }
    Ok(names)
}

/// When `path` last changed, where that is known (files on disk); memory folders don't change, so listings of
/// them are never cached by time.
pub fn modified(path: &Path) -> Option<std::time::SystemTime> {
    if in_memory(path) {
        return None;
    }
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(s: &str) -> Arc<[u8]> {
        Arc::from(s.as_bytes())
    }

    #[test]
    fn a_mounted_folder_reads_lists_and_refuses_names_that_climb_out() {
        let root = mount([
            ("Model.pmd".to_string(), bytes("m")),
            ("tex\\Body.PNG".to_string(), bytes("b")),
            ("tex/sub/x.bmp".to_string(), bytes("x")),
            ("../escape.png".to_string(), bytes("e")),
            ("/abs.png".to_string(), bytes("a")),
        ]);
        assert!(root.starts_with(MEMORY_ROOT));
        assert_eq!(read(&root.join("Model.pmd")).unwrap(), b"m");
        assert_eq!(read(&root.join("./tex/../tex/Body.PNG")).unwrap(), b"b");
        assert!(is_file(&root.join("tex/Body.PNG")) && !is_file(&root.join("tex")));
        assert!(is_dir(&root.join("tex")) && is_dir(&root.join("tex/sub")) && !is_dir(&root.join("Model.pmd")));
        let mut names = list(&root).unwrap();
        names.sort();
        assert_eq!(names, ["Model.pmd", "tex"]);
        let mut names = list(&root.join("tex")).unwrap();
        names.sort();
        assert_eq!(names, ["Body.PNG", "sub"]);
        assert!(list(&root.join("nothing")).is_err());
        assert_eq!(read(&root.join("missing.png")).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert!(!is_file(Path::new(MEMORY_ROOT).join("escape.png").as_path()));
        assert!(!is_file(&root.join("abs.png")));
        assert_eq!(modified(&root.join("Model.pmd")), None);
        assert_eq!(display_name(&root.join("tex/Body.PNG")), "tex/Body.PNG");
        assert_eq!(display_name(Path::new("/home/a/b.pmd")), "/home/a/b.pmd");
        // Files added later join the folder.
        assert_eq!(add(&root, "tex/late.png", bytes("l")), Some(root.join("tex/late.png")));
        assert_eq!(add(&root, "../out.png", bytes("o")), None);
        assert_eq!(read(&root.join("tex/late.png")).unwrap(), b"l");
        // Memory files don't change unless marked live (the page holds a handle it polls); disk files can.
        assert!(!live(&root.join("Model.pmd")) && live(Path::new("/home/a/b.pmd")));
        set_live(&root.join("./tex/Body.PNG"));
        assert!(live(&root.join("tex/Body.PNG")) && !live(&root.join("Model.pmd")));
        // A second mount is a folder of its own; unmounting one leaves the other.
        let other = mount([("Model.pmd".to_string(), bytes("2"))]);
        assert_ne!(other, root);
        unmount(&root);
        assert!(!is_file(&root.join("Model.pmd")));
        assert!(!live(&root.join("tex/Body.PNG")));
        assert_eq!(read(&other.join("Model.pmd")).unwrap(), b"2");
        unmount(&other);
    }

    #[test]
    fn a_zip_unpacks_into_named_files_and_a_damaged_one_says_why() {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        let deflated = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        zip.add_directory("Model/", deflated).unwrap();
        zip.start_file("Model/miku.pmd", deflated).unwrap();
        zip.write_all(&[7u8; 5000]).unwrap();
        zip.start_file("Model/tex/Body.png", zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(b"png").unwrap();
        let bytes = zip.finish().unwrap().into_inner();
        let files = unzip(&bytes).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Model/miku.pmd", "Model/tex/Body.png"]);
        assert_eq!(&*files[0].1, &[7u8; 5000][..]);
        let root = mount(files);
        assert!(is_file(&root.join("Model/tex/Body.png")));
        unmount(&root);
        // A flipped byte inside the deflated data: the checksum (or the inflater) refuses it.
        let mut broken = bytes.clone();
        let name = bytes.windows(14).position(|w| w == b"Model/miku.pmd").unwrap();
        let extra = u16::from_le_bytes([bytes[name - 2], bytes[name - 1]]) as usize;
        broken[name + 14 + extra + 3] ^= 0xff;
        assert!(unzip(&broken).is_err());
        assert!(unzip(b"not a zip").unwrap_err().starts_with("not a readable zip"));
    }

    #[test]
    fn entry_names_are_utf8_else_shift_jis_else_the_archives_reading() {
        assert_eq!(entry_name("初音ミク.pmd".as_bytes(), String::new), "初音ミク.pmd");
        let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("初音ミク/髪.bmp");
        assert_eq!(entry_name(&sjis, String::new), "初音ミク/髪.bmp");
        assert_eq!(entry_name(&[0x81, 0x20], || "cp437".to_string()), "cp437");
    }

    #[test]
    fn paths_outside_the_memory_root_are_the_disk() {
        let dir = std::env::temp_dir().join(format!("rigscope-vfs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), "disk").unwrap();
        assert_eq!(read(&dir.join("a.txt")).unwrap(), b"disk");
        assert!(is_file(&dir.join("a.txt")) && is_dir(&dir));
        assert_eq!(list(&dir).unwrap(), ["a.txt"]);
        assert!(modified(&dir.join("a.txt")).is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
