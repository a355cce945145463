//! Watching files for hot reload: the window reloads a model when its file (or an attached file) changes on
//! disk, and `render --watch` renders again.
//!
//! notify reports file-system events; notify-debouncer-full folds an exporter's burst of writes (truncate,
//! several writes, close) and an editor's write-a-temporary-then-rename into one event per file, delivered
//! once the file has been quiet for [`DEBOUNCE`]. Folders are watched rather than files: a rename replaces
//! the file's inode, and a watch on the old inode would never fire again.
//!
//! The web page has no file system to watch: there only the path helpers exist (`FileWatcher` is desktop-only).

#[cfg(not(target_arch = "wasm32"))]
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Arc, Mutex};
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use notify::RecursiveMode;
#[cfg(not(target_arch = "wasm32"))]
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// How long a file must stay quiet after a write before it is reloaded. Exporters write a file in bursts
/// over a few milliseconds to a few hundred; a re-export still appears well within a second.
#[cfg(not(target_arch = "wasm32"))]
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// How often the debouncer looks for expired events.
#[cfg(not(target_arch = "wasm32"))]
const TICK: Duration = Duration::from_millis(20);

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

/// The debouncer's own timeout: long enough to pair a rename's halves and fold a few writes; the quiet time
/// proper is measured after it (see [`FileWatcher::with_debounce`]).
#[cfg(not(target_arch = "wasm32"))]
const FIRST_STAGE: Duration = Duration::from_millis(40);

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

/// Watches a set of files and calls back with the ones that changed (as they were given to
/// [`FileWatcher::set_files`]), debounced.
#[cfg(not(target_arch = "wasm32"))]
pub struct FileWatcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// Watch key → the paths given for it.
    files: Arc<Mutex<HashMap<PathBuf, Vec<PathBuf>>>>,
    /// Folders watched now.
    dirs: HashSet<PathBuf>,
}

#[cfg(not(target_arch = "wasm32"))]
impl FileWatcher {
    /// A watcher with nothing to watch yet. `on_change` runs on the watcher's own thread with the files that
    /// changed (each once per burst); it should hand them to the thread that reloads.
    pub fn new(on_change: impl FnMut(Vec<PathBuf>) + Send + 'static) -> Result<FileWatcher, String> {
        Self::with_debounce(DEBOUNCE, on_change)
    }

    /// As [`FileWatcher::new`] with another quiet time.
    ///
    /// notify-debouncer-full lets each event expire `timeout` after itself (not after the burst's last one) and
    /// emits the expired ones at each tick, so a burst longer than a tick comes out in parts. A second stage
    /// makes it a quiet time: the changed files are collected until no part has arrived for the rest of
    /// `debounce` after the debouncer's short [`FIRST_STAGE`], then handed over once.
    pub fn with_debounce(
        debounce: Duration,
        mut on_change: impl FnMut(Vec<PathBuf>) + Send + 'static,
    ) -> Result<FileWatcher, String> {
        let files: Arc<Mutex<HashMap<PathBuf, Vec<PathBuf>>>> = Arc::default();
        let known = files.clone();
        let (parts, settled) = std::sync::mpsc::channel::<Vec<PathBuf>>();
        let settle = debounce.saturating_sub(FIRST_STAGE).max(TICK);
        // Ends when the debouncer (holding `parts`) is dropped.
        std::thread::Builder::new()
            .name("rigscope watch settle".into())
            .spawn(move || {
                while let Ok(mut changed) = settled.recv() {
                    while let Ok(more) = settled.recv_timeout(settle) {
                        for p in more {
                            if !changed.contains(&p) {
                                changed.push(p);
                            }
                        }
                    }
                    on_change(changed);
                }
            })
            .map_err(|e| format!("cannot watch files: {e}"))?;
        let handler = move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let changed = {
                let Ok(known) = known.lock() else { return };
                let mut changed: Vec<PathBuf> = Vec::new();
                for event in &events {
                    if !wants(&event.event.kind) {
                        continue;
                    }
                    for path in &event.event.paths {
                        for given in known.get(path).into_iter().flatten() {
                            if !changed.contains(given) {
                                changed.push(given.clone());
                            }
                        }
                    }
                }
                changed
            };
            if !changed.is_empty() {
                let _ = parts.send(changed);
            }
        };
        let debouncer =
            new_debouncer(FIRST_STAGE, Some(TICK), handler).map_err(|e| format!("cannot watch files: {e}"))?;
        Ok(FileWatcher { debouncer, files, dirs: HashSet::new() })
    }

    /// Watches exactly these files from now on (their folders, filtered to them). A folder that can't be
    /// watched is reported; the others are watched all the same.
    pub fn set_files(&mut self, paths: &[PathBuf]) -> Result<(), String> {
        let mut files: HashMap<PathBuf, Vec<PathBuf>> = HashMap::new();
        for p in paths {
            let given = files.entry(watch_key(p)).or_default();
            if !given.contains(p) {
                given.push(p.clone());
            }
        }
        let dirs: HashSet<PathBuf> = files.keys().filter_map(|k| k.parent().map(Path::to_path_buf)).collect();
        for gone in self.dirs.difference(&dirs) {
            let _ = self.debouncer.unwatch(gone);
        }
        let mut failed = Vec::new();
        for dir in dirs.difference(&self.dirs) {
            if let Err(e) = self.debouncer.watch(dir, RecursiveMode::NonRecursive) {
                failed.push(format!("{}: {e}", dir.display()));
            }
        }
        self.dirs = dirs;
        if let Ok(mut known) = self.files.lock() {
            *known = files;
        }
        if failed.is_empty() { Ok(()) } else { Err(format!("cannot watch {}", failed.join("; "))) }
    }

    /// The files watched now, as given.
    pub fn files(&self) -> Vec<PathBuf> {
        self.files.lock().map(|f| f.values().flatten().cloned().collect()).unwrap_or_default()
    }
}

/// Events that may leave a file with new contents: writes, creations, renames onto it. Reads, metadata-only
/// changes and removals don't (a removed file is reloaded when it is written again).
#[cfg(not(target_arch = "wasm32"))]
fn wants(kind: &notify::EventKind) -> bool {
    use notify::EventKind;
    use notify::event::{ModifyKind, RenameMode};
    match kind {
        EventKind::Create(_) => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(ModifyKind::Name(RenameMode::From)) => false,
        EventKind::Modify(_) => true,
        EventKind::Access(notify::event::AccessKind::Close(notify::event::AccessMode::Write)) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    fn wait(rx: &mpsc::Receiver<Vec<PathBuf>>, want: &Path) -> Result<(), String> {
        let end = Instant::now() + Duration::from_secs(10);
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(paths) if paths.iter().any(|p| p == want) => return Ok(()),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        Err(format!("no change reported for {}", want.display()))
    }

    #[test]
    fn writes_and_renames_onto_a_watched_file_are_reported_once_per_burst() {
        let dir = std::env::temp_dir().join(format!("rigscope-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("model.iqe");
        let other = dir.join("other.iqe");
        std::fs::write(&file, "one").unwrap();
        let (tx, rx) = mpsc::channel();
        let mut watcher = FileWatcher::with_debounce(DEBOUNCE, move |p| {
            let _ = tx.send(p);
        })
        .unwrap();
        watcher.set_files(std::slice::from_ref(&file)).unwrap();
        assert_eq!(watcher.files(), vec![file.clone()]);

        // A burst of writes spread over several of the debouncer's ticks: one report.
        for i in 0..5 {
            std::fs::write(&file, format!("burst {i}")).unwrap();
            std::thread::sleep(Duration::from_millis(15));
        }
        wait(&rx, &file).unwrap();
        std::thread::sleep(Duration::from_millis(400));
        let extra: Vec<_> = rx.try_iter().collect();
        assert!(extra.is_empty(), "one burst gave {} more reports", extra.len());

        // Another file in the folder is not reported.
        std::fs::write(&other, "x").unwrap();
        std::thread::sleep(Duration::from_millis(400));
        assert!(rx.try_iter().all(|p| !p.contains(&other)));

        // Write a temporary, rename it over the file (what editors and many exporters do).
        let tmp = dir.join("model.iqe.tmp");
        std::fs::write(&tmp, "renamed").unwrap();
        std::fs::rename(&tmp, &file).unwrap();
        wait(&rx, &file).unwrap();

        // Unwatched: nothing more.
        watcher.set_files(&[]).unwrap();
        let _: Vec<_> = rx.try_iter().collect();
        std::fs::write(&file, "after").unwrap();
        std::thread::sleep(Duration::from_millis(400));
        assert!(rx.try_iter().next().is_none());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn keys_resolve_relative_paths_and_missing_files() {
        let key = watch_key(Path::new("Cargo.toml"));
        assert!(key.is_absolute());
        assert_eq!(key.file_name().unwrap(), "Cargo.toml");
        assert_eq!(watch_key(&std::env::current_dir().unwrap().join("Cargo.toml")), key);
        assert!(watch_key(Path::new("no/such/dir/x.iqm")).ends_with("no/such/dir/x.iqm"));
    }
}
