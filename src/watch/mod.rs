//! Watching files for hot reload: the window reloads a model when its file (or an attached file) changes on
//! disk, and `render --watch` renders again.
//!
//! notify reports file-system events; notify-debouncer-full folds an exporter's burst of writes (truncate,
//! several writes, close) and an editor's write-a-temporary-then-rename into one event per file, delivered
//! once the file has been quiet for [`DEBOUNCE`]. Folders are watched rather than files: a rename replaces
//! the file's inode, and a watch on the old inode would never fire again.
//!
//! The web page has no file system to watch: it has only the path helpers here; the watcher is `native.rs`,
//! the desktop's, compiled out of the browser build in one place (the page polls file handles instead,
//! `src/web/given.rs`).

use std::path::{Path, PathBuf};

#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
pub use native::{DEBOUNCE, FileWatcher};

/// Where a file is written before it is renamed over `path`: `path` with `.partial` appended, beside it. Every
/// command and window action that writes a file a viewer may be watching writes there first, so a watcher
/// never reads half a file.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    name.into()
}

/// Writes `parts` one after another to [`partial_path`] and renames the result over `path`; on failure the
/// partial file is removed.
pub fn write_atomically(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    use std::io::Write;
    write_atomically_with(path, |f| parts.iter().try_for_each(|part| f.write_all(part)))
}

/// As [`write_atomically`], with `write` filling the partial file (an encoder that writes as it goes).
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = partial_path(path);
    let result = std::fs::File::create(&tmp).and_then(|f| {
        let mut f = std::io::BufWriter::new(f);
        write(&mut f)?;
        f.flush()
    });
    result.and_then(|()| std::fs::rename(&tmp, path)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// `image` written as a PNG at `path`, atomically ([`write_atomically_with`]).
pub fn save_png(image: &image::RgbaImage, path: &Path) -> Result<(), String> {
    write_atomically_with(path, |f| image.write_to(f, image::ImageFormat::Png).map_err(std::io::Error::other))
        .map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

/// The key a watched file is known by: its folder made absolute and canonical (symlinks resolved, the way
/// the operating system reports events) joined with its own name. Files that don't exist yet keep their
/// folder as given, made absolute.
pub fn watch_key(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf()).join(name),
        _ => absolute,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_relative_paths_and_missing_files() {
        let key = watch_key(Path::new("Cargo.toml"));
        assert!(key.is_absolute());
        assert_eq!(key.file_name().unwrap(), "Cargo.toml");
        assert_eq!(watch_key(&std::env::current_dir().unwrap().join("Cargo.toml")), key);
        assert!(watch_key(Path::new("no/such/dir/x.iqm")).ends_with("no/such/dir/x.iqm"));
    }
}
