//! Opening files: a model from disk, bytes or the demo becomes a new document (or replaces the shown one's
//! model), an animation-only file attaches to the shown model, files given together open in [`open_order`],
//! and Compare with… makes a file the shown model's reference. Reloading what is open is `reload.rs`.

use std::path::{Path, PathBuf};

use super::document::{self, Document, Source};
use super::*;

impl App {
    /// Reads and opens a file: a model opens in a tab of its own (replacing a model opened from memory, such as
    /// the demo; a file already open is shown and re-read), an animation-only file attaches to the shown model.
    /// Any failure becomes a notice and a problem; the current model stays.
    pub fn open_path(&mut self, path: &Path) {
        let name = crate::vfs::display_name(path);
        match crate::vfs::read(path) {
            Ok(bytes) => {
                let generation = self.revisions.model;
                self.open(&name, &bytes, Some(path.to_path_buf()), None);
                self.remember_opened(path, generation); // recent files, when the file loaded
            }
            Err(e) => self.notices.report(format!("{name}: cannot read: {e}"), Some(name)),
        }
    }

    /// Opens the files of a folder given as a whole (the web page's drops: a model with its textures and
    /// motions): models first, then animations attached to them, in name order within each; textures and
    /// buffers are not opened, the files that open find them in `dir`. Returns the files opened.
    pub fn open_folder_files(&mut self, dir: &Path, names: &[String]) -> Vec<String> {
        let opened = open_order(names);
        for name in &opened {
            self.open_path(&dir.join(name));
        }
        opened
    }

    /// Compare with…: `path` becomes the shown model's reference (a notice says why not: unreadable, or an
    /// animation-only file).
    pub fn compare_with_path(&mut self, path: &Path) {
        let name = crate::vfs::display_name(path);
        let scene = match crate::load_path(path) {
            Ok(s) if s.is_animation_only() => {
                return self.notices.report(format!("{name}: an animation, not a model to compare with"), Some(name));
            }
            Ok(s) => s,
            Err(e) => return self.notices.report(e.to_string(), Some(name)),
        };
        let Some(doc) = self.documents.get_mut(self.active) else { return };
        let short = path.file_name().map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        let reference = document::Reference::new(short, scene, doc.scene(), doc.model_name());
        doc.reference = Some(Box::new(reference.with_texture_dir(path.parent().map(Path::to_path_buf))));
    }

    /// Opens a file from memory (tests, the demo); as [`App::open_path`], with no folder for textures and
    /// nothing to reload.
    pub fn open_bytes(&mut self, name: &str, bytes: &[u8]) {
        self.open(name, bytes, None, None);
    }

    /// Opens the built-in demo model. Its texture is looked up beside it like any other, in a memory folder
    /// ([`crate::vfs::mount`]) that holds it.
    pub fn open_demo(&mut self) {
        let dir = crate::vfs::mount([("demo.png".to_string(), Arc::from(crate::demo::EMBEDDED_PNG))]);
        self.open_bytes_in(crate::demo::NAME, crate::demo::EMBEDDED_IQM, &dir);
    }

    /// As [`App::open_bytes`], with textures looked for in `texture_dir` (a memory folder of dropped files).
    pub fn open_bytes_in(&mut self, name: &str, bytes: &[u8], texture_dir: &Path) {
        self.open(name, bytes, None, Some(texture_dir.to_path_buf()));
    }

    fn open(&mut self, name: &str, bytes: &[u8], path: Option<PathBuf>, texture_dir: Option<PathBuf>) {
        let scene = match crate::load_bytes(name, bytes) {
            Ok(s) => s,
            Err(e) => return self.notices.report(e.to_string(), Some(name.to_string())),
        };
        let source = Source { name: name.to_string(), path, bytes: Arc::from(bytes) };
        if self.document().is_some() && scene.is_animation_only() {
            self.attach(source, scene);
            return self.refresh();
        }
        // A file already open as a model: show its tab and take the bytes just read.
        let key = source.path.as_deref().map(crate::watch::watch_key);
        if let Some(i) = key.and_then(|k| self.documents.iter().position(|d| d.is_model_at(&k))) {
            self.select_model(i);
            let doc = &self.documents[self.active];
            let mut sources = doc.sources.clone();
            sources[0] = source;
            match document::build(&sources, doc.mmd_axes, Some((0, scene))) {
                Ok(built) => self.install(built, sources, true),
                Err(e) => self.notices.report(e.message, Some(name.to_string())),
            }
            return self.refresh();
        }
        match document::build(std::slice::from_ref(&source), false, Some((0, scene))) {
            Ok(built) => {
                let id = self.next_id;
                self.next_id += 1;
                let doc = Document::new(id, built, vec![source], self.idle.speed, texture_dir);
                // A model from a file gets a tab of its own; one from memory (the demo) gives its tab up.
                match self.documents.get_mut(self.active) {
                    Some(shown) if !shown.is_from_file() => {
                        let old = std::mem::replace(shown, doc);
                        self.changes.push(ViewChange::Closed(old.id()));
                    }
                    _ => {
                        self.documents.push(doc);
                        self.active = self.documents.len() - 1;
                    }
                }
                self.chrome.report_open = None;
                self.toggles.follow_camera = false;
                self.changes.push(ViewChange::Frame(id));
                self.revisions.model += 1;
                self.revisions.geometry += 1;
                self.revisions.framing += 1;
                self.play_opened();
            }
            Err(e) => self.notices.report(e.message, Some(name.to_string())),
        }
        self.refresh();
    }

    /// Attaches an animation-only file (already parsed as `scene`) to the shown model and shows its first clip.
    fn attach(&mut self, source: Source, scene: Scene) {
        let Some(doc) = self.documents.get(self.active) else { return };
        let name = source.name.clone();
        let first_new = doc.model.scene.clips.len();
        let mut sources = doc.sources.clone();
        sources.push(source);
        let preloaded = Some((sources.len() - 1, scene));
        match document::build(&sources, doc.mmd_axes, preloaded) {
            Ok(built) => {
                if let Some(report) = built.model.attachments.last().map(|a| &a.report) {
                    self.notices.push(Notice::info(format!(
                        "{name}: attached {} animation(s); {} joint(s) matched{}, {} unmatched",
                        report.clips.len(),
                        report.matched.len(),
                        if report.by_index || report.through_humanoid {
                            format!(" {}", report.how())
                        } else {
                            String::new()
                        },
                        report.unmatched_joints.len()
                    )));
                }
                self.install(built, sources, false);
                let doc = &mut self.documents[self.active];
                let clip = Some(first_new).filter(|&c| c < doc.model.scene.clips.len());
                doc.player.select(clip);
                self.changes.push(ViewChange::Frame(doc.id()));
                self.revisions.framing += 1;
                self.play_opened();
            }
            Err(e) => self.notices.report(e.message, Some(name)),
        }
    }

    /// After a model with clips opened or a motion attached: a preview shows the motion, so the clip shown
    /// (selected at frame 0) starts playing, as the command line opens files, unless "Play on open" is off.
    fn play_opened(&mut self) {
        if self.prefs.play_on_open {
            self.play();
        }
    }

    /// Starts the clip shown playing as the Play button does (a clamped clip at its end starts over); nothing
    /// without a clip, or when it plays already. The command line and the page's `?open=` start this way whatever
    /// "Play on open" says.
    pub fn play(&mut self) {
        if self.current_clip_frame().is_some() && !self.player().playing {
            self.apply(Action::TogglePlay);
        }
    }

    /// Shows a freshly built model in the shown document, keeping what the user was looking at.
    /// `new_geometry`: the model's own file changed, so the GPU data is stale.
    pub(super) fn install(&mut self, built: document::Built, sources: Vec<Source>, new_geometry: bool) {
        let Some(doc) = self.documents.get_mut(self.active) else { return };
        let memory = doc.view_memory();
        doc.install(built, sources, memory, new_geometry);
        if self.chrome.report_open.is_some_and(|i| i + 1 >= doc.sources.len()) {
            self.chrome.report_open = None;
        }
        if doc.camera_track().is_none() {
            self.toggles.follow_camera = false;
        }
        self.changes.push(ViewChange::Rebuilt { document: doc.id(), geometry: new_geometry });
        self.revisions.model += 1;
        if new_geometry {
            self.revisions.geometry += 1;
        }
    }

    /// After opening `path`: when the open model changed since `generation` (it loaded), the file goes first in
    /// the recent files and the start screen goes away.
    fn remember_opened(&mut self, path: &Path, generation: u64) {
        // Files handed over as bytes (the web page's) have no path to open again.
        if self.revisions.model != generation && crate::vfs::on_disk(path) {
            settings::push_recent(&mut self.prefs.recent, path);
            self.chrome.start = false;
        }
    }
}

/// Which of `names` (files given together) to open and in what order: everything but companions, models before
/// motions, each group in name order.
pub fn open_order(names: &[String]) -> Vec<String> {
    let mut opened: Vec<String> = names.iter().filter(|n| !crate::formats::is_companion_name(n)).cloned().collect();
    opened.sort_by_key(|n| (crate::formats::is_motion_name(n), n.to_lowercase()));
    opened.dedup();
    opened
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_given_together_open_models_first_and_leave_textures_to_them() {
        let names: Vec<String> =
            ["dance.vmd", "tex/Body.PNG", "Miku.pmd", "toon01.bmp", "pose.vpd", "a.iqm", "notes.txt", "s.spa"]
                .map(String::from)
                .to_vec();
        assert_eq!(open_order(&names), ["a.iqm", "Miku.pmd", "notes.txt", "dance.vmd", "pose.vpd"]);
    }
}
