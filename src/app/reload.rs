//! Hot reload and detaching: the files to watch, rebuilding the shown document when one of its files changes
//! on disk (documents in other tabs are rebuilt when shown), and removing an attached file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::document::{Source, build};
use super::{App, Notice, ViewChange};

impl App {
    /// The files to watch for hot reload: every open model's files and attachments (none while hot reload is
    /// off). Files opened from memory have no path and are not watched.
    pub fn watched_files(&self) -> Vec<PathBuf> {
        if !self.prefs.watch {
            return Vec::new();
        }
        let mut out: Vec<PathBuf> =
            self.documents.iter().flat_map(|d| d.sources.iter()).filter_map(|s| s.path.clone()).collect();
        out.sort();
        out.dedup();
        out
    }

    /// Files changed on disk (from the watcher): the shown model is rebuilt from its files, keeping its
    /// animation, frame, joint and hidden meshes (the window keeps the camera); models in other tabs are
    /// rebuilt when shown. A file that fails to load leaves the last good version shown, with the error as a
    /// notice that goes once the file loads again. Returns the names of the files reloaded now.
    pub fn files_changed(&mut self, paths: &[PathBuf]) -> Vec<String> {
        if !self.prefs.watch {
            return Vec::new();
        }
        let keys: Vec<PathBuf> = paths.iter().map(|p| crate::watch::watch_key(p)).collect();
        let active = self.active;
        for (_, d) in self.documents.iter_mut().enumerate().filter(|(i, _)| *i != active) {
            if d.reads_any(&keys) || d.reads_texture(&keys) {
                d.stale = true;
            }
        }
        let mut reloaded = self.reload_shown(&keys);
        reloaded.extend(self.reload_textures(&keys));
        self.refresh();
        reloaded
    }

    /// Files the shown model looked for and didn't find have appeared (the web page fetched them from beside a
    /// model opened by URL, or from the game data tree above it, where they have other paths than the ones the
    /// model looked for first): its textures are read again, whatever the hot-reload switch says. Returns the
    /// files.
    pub fn files_arrived(&mut self, paths: &[PathBuf]) -> Vec<String> {
        let Some(doc) = self.documents.get_mut(self.active).filter(|_| !paths.is_empty()) else { return Vec::new() };
        doc.load_textures();
        self.changes.push(ViewChange::Rebuilt { document: doc.id(), geometry: true });
        self.revisions.geometry += 1;
        paths.iter().map(|p| p.display().to_string()).collect()
    }

    /// Loads the shown model's textures again when one of them lives at `keys` (re-exported, or a missing one
    /// saved); returns the texture files that changed. The scene stays; the window uploads the model again.
    fn reload_textures(&mut self, keys: &[PathBuf]) -> Vec<String> {
        let Some(doc) = self.documents.get_mut(self.active) else { return Vec::new() };
        let changed: Vec<String> = doc
            .texture_files()
            .iter()
            .filter(|t| keys.contains(&crate::watch::watch_key(t)))
            .map(|t| t.display().to_string())
            .collect();
        if !changed.is_empty() {
            doc.load_textures();
            self.changes.push(ViewChange::Rebuilt { document: doc.id(), geometry: true });
            self.revisions.geometry += 1;
        }
        changed
    }

    /// Re-reads the shown model's files that live at `keys` and rebuilds it when any changed.
    pub(super) fn reload_shown(&mut self, keys: &[PathBuf]) -> Vec<String> {
        let Some(doc) = self.documents.get(self.active) else { return Vec::new() };
        let mut sources = doc.sources.clone();
        let mmd_axes = doc.mmd_axes;
        let mut changed = Vec::new();
        let mut unchanged = Vec::new();
        for (i, s) in sources.iter_mut().enumerate() {
            let Some(path) = s.path.clone().filter(|p| keys.contains(&crate::watch::watch_key(p))) else { continue };
            match crate::vfs::read(&path) {
                Ok(bytes) if *bytes != *s.bytes => {
                    s.bytes = Arc::from(bytes);
                    changed.push(i);
                }
                // Back to the version shown (a failed save undone): its failure no longer applies.
                Ok(_) => unchanged.push(s.name.clone()),
                // Gone for now (an exporter deleting before writing): the next write reloads it.
                Err(e) => {
                    let message = format!("{}: cannot reload: {e}; showing the last good version", s.name);
                    self.notices.reload_failed(&s.name, message);
                }
            }
        }
        self.notices.clear_reload_errors(&unchanged);
        if changed.is_empty() {
            return Vec::new();
        }
        let names: Vec<String> = changed.iter().map(|&i| sources[i].name.clone()).collect();
        match build(&sources, mmd_axes, None) {
            Ok(built) => {
                // "Keep the previous version as reference": the model as it was before its own file changed.
                let previous = {
                    let doc = &self.documents[self.active];
                    (doc.keep_previous && changed.contains(&0)).then(|| doc.scene().clone())
                };
                self.install(built, sources, changed.contains(&0));
                let doc = &mut self.documents[self.active];
                if let Some(old) = previous {
                    let name = doc.sources.first().map_or(String::new(), |s| s.name.clone());
                    let short = std::path::Path::new(&name)
                        .file_name()
                        .map_or(name.clone(), |n| n.to_string_lossy().into_owned());
                    let label = format!("{short} before reload {}", doc.reloads + 1);
                    let reference = super::document::Reference::new(label, old, doc.scene(), doc.model_name());
                    let dir = doc.texture_dir().map(Path::to_path_buf);
                    doc.reference = Some(Box::new(reference.with_texture_dir(dir)));
                } else if let Some(r) = doc.reference.take() {
                    // The comparison is with the new version now.
                    doc.reference = Some(Box::new(r.against(doc.scene(), doc.model_name())));
                }
                doc.reloads += 1;
                doc.last_reload = names.last().cloned();
                // The files load again: their failure notices go.
                self.notices.clear_reload_errors(&names);
                names
            }
            Err(e) => {
                let name = sources.get(e.source).map_or_else(String::new, |s| s.name.clone());
                let message = format!("reload failed, showing the last good version: {}", e.message);
                self.notices.reload_failed(&name, message);
                Vec::new()
            }
        }
    }

    /// Removes attached file `i`: the model is rebuilt from the rest (its clips go; the view stays).
    pub(super) fn detach(&mut self, i: usize) {
        let Some(doc) = self.documents.get(self.active) else { return };
        if i + 1 >= doc.sources.len() {
            return;
        }
        let mut sources = doc.sources.clone();
        let gone: Source = sources.remove(i + 1);
        match build(&sources, doc.mmd_axes, None) {
            Ok(built) => {
                self.install(built, sources, false);
                self.notices.push(Notice::info(format!("{}: detached", gone.name)));
            }
            Err(e) => self.notices.report(e.message, Some(gone.name)),
        }
    }

    /// The files the shown model was built from: the model, then its attachments.
    pub fn sources(&self) -> &[Source] {
        self.document().map_or(&[], |d| d.sources())
    }

    /// How often the shown model was reloaded, and the file that changed last.
    pub fn reloads(&self) -> (u64, Option<&str>) {
        self.document().map_or((0, None), |d| (d.reloads, d.last_reload.as_deref()))
    }
}
