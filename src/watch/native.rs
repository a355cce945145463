//! The desktop's file watcher (notify and its debouncer); the browser build has none.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use super::watch_key;

/// How long a file must stay quiet after a write before it is reloaded. Exporters write a file in bursts
/// over a few milliseconds to a few hundred; a re-export still appears well within a second.
pub const DEBOUNCE: Duration = Duration::from_millis(200);
/// How often the debouncer looks for expired events.
const TICK: Duration = Duration::from_millis(20);

/// The debouncer's own timeout: long enough to pair a rename's halves and fold a few writes; the quiet time
/// proper is measured after it (see [`FileWatcher::with_debounce`]).
const FIRST_STAGE: Duration = Duration::from_millis(40);

/// Watches a set of files and calls back with the ones that changed (as they were given to
/// [`FileWatcher::set_files`]), debounced.
pub struct FileWatcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// Watch key → the paths given for it.
    files: Arc<Mutex<HashMap<PathBuf, Vec<PathBuf>>>>,
    /// Folders watched now.
    dirs: HashSet<PathBuf>,
}

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

    /// The test's quiet time: long beside the 15 ms between its writes, so that a loaded machine (CI runs the
    /// GPU tests beside this one on two cores) stalling the writer for most of a second still makes one burst.
    const QUIET: Duration = Duration::from_millis(1000);

    #[test]
    fn writes_and_renames_onto_a_watched_file_are_reported_once_per_burst() {
        let dir = std::env::temp_dir().join(format!("rigscope-watch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("model.iqe");
        let other = dir.join("other.iqe");
        std::fs::write(&file, "one").unwrap();
        let (tx, rx) = mpsc::channel();
        let mut watcher = FileWatcher::with_debounce(QUIET, move |p| {
            let _ = tx.send(p);
        })
        .unwrap();
        watcher.set_files(std::slice::from_ref(&file)).unwrap();
        assert_eq!(watcher.files(), vec![file.clone()]);

        // A burst of writes spread over several of the debouncer's ticks: one report.
        let mut last = Instant::now();
        let mut longest = Duration::ZERO;
        for i in 0..5 {
            std::fs::write(&file, format!("burst {i}")).unwrap();
            longest = longest.max(last.elapsed());
            last = Instant::now();
            std::thread::sleep(Duration::from_millis(15));
        }
        wait(&rx, &file).unwrap();
        std::thread::sleep(QUIET + Duration::from_millis(200));
        let extra: Vec<_> = rx.try_iter().collect();
        assert!(
            extra.is_empty(),
            "one burst gave {} more reports (longest gap between writes {longest:?})",
            extra.len()
        );

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
}
