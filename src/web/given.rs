//! Files the browser hands over with their folders and, where it can, their handles:
//!
//! - drops of files and folders: the page's own `drop` listener (eframe's passes only files, emilk/egui#3702)
//!   walks a dropped folder through its File System Access handle (Chromium) or its `webkitGetAsEntry` entry
//!   (every browser), naming each file by its path inside what was dropped;
//! - the File System Access picker (`showOpenFilePicker`, Chromium) for Open…, where the browser has it;
//! - [`Watch`]: polling the handles of the files the app shows, so a file re-exported on disk reloads as hot
//!   reload does on the desktop. Browsers offer no change events for files (`FileSystemObserver` is an origin
//!   trial), so each handle's `lastModified` and size are read twice a second.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};

/// Calls `object.method()` (an API only some browsers have, looked up at run time) with `args`, for a promise.
fn call_for_promise(object: &JsValue, method: &str, args: &js_sys::Array) -> Result<js_sys::Promise, JsValue> {
    let function: js_sys::Function = js_sys::Reflect::get(object, &method.into())?.dyn_into()?;
    function.apply(object, args)?.dyn_into()
}

/// The most files one drop may hold: a folder of model exports holds hundreds; more is a drop of the wrong
/// folder, read into the tab's memory.
pub const MAX_FILES: usize = 20_000;

/// How often the watched handles are read.
const POLL_MS: i32 = 500;

/// A file handed over: its path inside what was given (`/` between folders), the browser's `File`, and the
/// handle it can be read again through.
pub struct Given {
    pub name: String,
    pub file: web_sys::File,
    pub handle: Option<web_sys::FileSystemFileHandle>,
}

/// A file's handle and the version of it that was read (`lastModified` in ms and size in bytes).
#[derive(Clone)]
pub struct Handle {
    pub handle: web_sys::FileSystemFileHandle,
    pub version: (f64, f64),
}

/// What a dropped item offers; each must be asked for during the drop event itself.
pub struct DroppedItem {
    handle: Option<js_sys::Promise>,
    entry: Option<web_sys::FileSystemEntry>,
    file: Option<web_sys::File>,
}

/// What a JavaScript error or value says: a string as it is, an `Error`'s message, else the value as JSON.
pub fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .or_else(|| js_sys::JSON::stringify(e).ok().and_then(|s| s.as_string()))
        .unwrap_or_else(|| format!("{e:?}"))
}

/// The file items of a drop, each with its handle promise, its entry and its `File` as the browser offers them.
pub fn dropped_items(transfer: &web_sys::DataTransfer) -> Vec<DroppedItem> {
    let items = transfer.items();
    let mut out = Vec::with_capacity(items.length() as usize);
    for i in 0..items.length() {
        let Some(item) = items.get(i).filter(|item| item.kind() == "file") else { continue };
        // `getAsFileSystemHandle()` (Chromium): a promise of the dropped file's or folder's handle, or of null.
        let handle = call_for_promise(&item, "getAsFileSystemHandle", &js_sys::Array::new()).ok();
        let entry = item.webkit_get_as_entry().ok().flatten();
        let file = item.get_as_file().ok().flatten();
        out.push(DroppedItem { handle, entry, file });
    }
    out
}

/// Every file of the dropped items, folders walked; fails past [`MAX_FILES`] or when a folder can't be read.
pub async fn walk_dropped(items: Vec<DroppedItem>) -> Result<Vec<Given>, String> {
    let mut out = Vec::new();
    for item in items {
        if let Some(promise) = item.handle
            && let Ok(handle) = JsFuture::from(promise).await
            && !handle.is_null()
            && !handle.is_undefined()
        {
            walk_handle(handle.unchecked_into(), &mut out).await?;
        } else if let Some(entry) = item.entry {
            walk_entry(entry, &mut out).await?;
        } else if let Some(file) = item.file {
            out.push(Given { name: file.name(), file, handle: None });
        }
        if out.len() > MAX_FILES {
            return Err(too_many());
        }
    }
    Ok(out)
}

fn too_many() -> String {
    format!("more than {MAX_FILES} files were dropped; drop the model's own folder")
}

/// `name` inside folder `prefix` (empty at the top).
fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { name.to_string() } else { format!("{prefix}/{name}") }
}

/// The files under `root` (a file's or a folder's handle), with their handles.
async fn walk_handle(root: web_sys::FileSystemHandle, out: &mut Vec<Given>) -> Result<(), String> {
    let mut stack = vec![(String::new(), root)];
    while let Some((prefix, handle)) = stack.pop() {
        let name = join(&prefix, &handle.name());
        match handle.kind() {
            web_sys::FileSystemHandleKind::File => {
                let handle: web_sys::FileSystemFileHandle = handle.unchecked_into();
                let file = JsFuture::from(handle.get_file()).await.map_err(|e| format!("{name}: {}", js_text(&e)))?;
                out.push(Given { name, file: file.unchecked_into(), handle: Some(handle) });
            }
            web_sys::FileSystemHandleKind::Directory => {
                let dir: web_sys::FileSystemDirectoryHandle = handle.unchecked_into();
                let entries = dir.values();
                loop {
                    let step = entries.next().map_err(|e| js_text(&e))?;
                    let step = JsFuture::from(step).await.map_err(|e| format!("{name}: {}", js_text(&e)))?;
                    if js_sys::Reflect::get(&step, &"done".into()).is_ok_and(|d| d.is_truthy()) {
                        break;
                    }
                    let value = js_sys::Reflect::get(&step, &"value".into()).map_err(|e| js_text(&e))?;
                    stack.push((name.clone(), value.unchecked_into()));
                }
            }
            _ => {}
        }
        if out.len() + stack.len() > MAX_FILES {
            return Err(too_many());
        }
    }
    Ok(())
}

/// The files under `root` (a dropped file's or folder's entry), without handles.
async fn walk_entry(root: web_sys::FileSystemEntry, out: &mut Vec<Given>) -> Result<(), String> {
    let mut stack = vec![root];
    while let Some(entry) = stack.pop() {
        let name = entry.full_path().trim_start_matches('/').to_string();
        if entry.is_file() {
            let entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let file = JsFuture::from(js_sys::Promise::new(&mut |ok, fail| {
                entry.file_with_callback_and_error_callback(&ok, &error_callback(&fail));
            }))
            .await
            .map_err(|e| format!("{name}: {}", js_text(&e)))?;
            out.push(Given { name, file: file.unchecked_into(), handle: None });
        } else if entry.is_directory() {
            let reader = entry.unchecked_into::<web_sys::FileSystemDirectoryEntry>().create_reader();
            // readEntries gives a folder in parts, then an empty list.
            loop {
                let part = JsFuture::from(js_sys::Promise::new(&mut |ok, fail| {
                    if let Err(e) = reader.read_entries_with_callback_and_error_callback(&ok, &error_callback(&fail)) {
                        let _ = fail.call1(&JsValue::NULL, &e);
                    }
                }))
                .await
                .map_err(|e| format!("{name}: {}", js_text(&e)))?;
                let part: js_sys::Array = part.unchecked_into();
                if part.length() == 0 {
                    break;
                }
                stack.extend(part.iter().map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()));
            }
        }
        if out.len() + stack.len() > MAX_FILES {
            return Err(too_many());
        }
    }
    Ok(())
}

fn error_callback(fail: &js_sys::Function) -> web_sys::ErrorCallback {
    let callback = web_sys::ErrorCallback::new();
    callback.set_handle_event(fail);
    callback
}

/// Whether the browser has the File System Access picker (Chromium), whose files come with handles.
pub fn has_picker() -> bool {
    web_sys::window().is_some_and(|w| js_sys::Reflect::has(&w, &"showOpenFilePicker".into()).unwrap_or(false))
}

/// The files picked with the File System Access picker (several when `multiple`), with their handles; none when
/// the user cancelled.
pub async fn pick(multiple: bool) -> Result<Vec<Given>, String> {
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"multiple".into(), &multiple.into()).map_err(|e| js_text(&e))?;
    // Offered first: what the format table reads and what goes with it; the browser keeps "All files".
    let dotted = js_sys::Array::new();
    for ext in super::files::picker_extensions() {
        dotted.push(&format!(".{ext}").into());
    }
    let accept = js_sys::Object::new();
    js_sys::Reflect::set(&accept, &"application/octet-stream".into(), &dotted).map_err(|e| js_text(&e))?;
    let kind = js_sys::Object::new();
    js_sys::Reflect::set(&kind, &"description".into(), &super::files::PICKER_LABEL.into()).map_err(|e| js_text(&e))?;
    js_sys::Reflect::set(&kind, &"accept".into(), &accept).map_err(|e| js_text(&e))?;
    js_sys::Reflect::set(&options, &"types".into(), &js_sys::Array::of1(&kind)).map_err(|e| js_text(&e))?;
    let window = web_sys::window().ok_or("no window")?;
    let picker = call_for_promise(&window, "showOpenFilePicker", &js_sys::Array::of1(&options));
    let picked = match JsFuture::from(picker.map_err(|e| js_text(&e))?).await {
        Ok(picked) => picked,
        // AbortError: the picker was closed without a choice.
        Err(e)
            if js_sys::Reflect::get(&e, &"name".into()).ok().and_then(|n| n.as_string()).as_deref()
                == Some("AbortError") =>
        {
            return Ok(Vec::new());
        }
        Err(e) => return Err(js_text(&e)),
    };
    let mut out = Vec::new();
    for handle in js_sys::Array::from(&picked).iter() {
        walk_handle(handle.unchecked_into(), &mut out).await?;
    }
    Ok(out)
}

/// The bytes of `file`.
pub async fn read_file(file: &web_sys::File) -> Result<Vec<u8>, String> {
    // The browser refuses reads past 4 GiB.
    if file.size() > f64::from(u32::MAX) {
        return Err(format!("{:.1} GB is more than a browser can read", file.size() / 1e9));
    }
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(|e| js_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// A memory file that stands for a file on the user's disk, and the handle it is read again through.
struct Watched {
    root: PathBuf,
    name: String,
    path: PathBuf,
    handle: Handle,
    /// A version seen once, read when the next poll sees it again (a file still being written changes
    /// between polls).
    seen: Option<(f64, f64)>,
}

#[derive(Default)]
struct WatchState {
    files: Vec<Watched>,
    /// The memory paths the app showed at its first frame after the last poll (its files and the shown
    /// model's textures): only these are polled.
    wanted: Vec<PathBuf>,
    /// A poll has run, or files were added, since `wanted` was last set: the app is asked again at its next
    /// frame.
    wanted_stale: bool,
    /// Files read again since the app last took them: the memory folder, the name in it, the new bytes.
    changed: Vec<(PathBuf, String, Vec<u8>)>,
}

/// The handles of the files given, polled for changes while the app shows them.
#[derive(Clone, Default)]
pub struct Watch {
    state: Rc<RefCell<WatchState>>,
}

impl Watch {
    /// Starts polling (for the life of the page); `changed` is called when files were read again.
    pub fn start(&self, changed: impl Fn() + 'static) {
        let state = self.state.clone();
        spawn_local(async move {
            loop {
                sleep(POLL_MS).await;
                if poll(&state).await {
                    changed();
                }
            }
        });
    }

    /// Watches file `name` of memory folder `root`, read at `handle`'s version.
    pub fn add(&self, root: &Path, name: &str, handle: Handle) {
        let Some(path) = crate::vfs::normalise(&root.join(name)) else { return };
        crate::vfs::set_live(&path);
        let watched = Watched { root: root.to_path_buf(), name: name.to_string(), path, handle, seen: None };
        let mut state = self.state.borrow_mut();
        state.files.push(watched);
        state.wanted_stale = true;
    }

    /// Whether the next poll wants the app's files again ([`Watch::set_wanted`]): once per poll, not per frame.
    pub fn wants_files(&self) -> bool {
        let state = self.state.borrow();
        !state.files.is_empty() && state.wanted_stale
    }

    /// Polls only `wanted` (memory paths).
    pub fn set_wanted(&self, wanted: Vec<PathBuf>) {
        let mut wanted: Vec<PathBuf> = wanted.iter().filter_map(|p| crate::vfs::normalise(p)).collect();
        wanted.sort();
        wanted.dedup();
        let mut state = self.state.borrow_mut();
        state.wanted = wanted;
        state.wanted_stale = false;
    }

    /// The files read again since the last call: their memory folder, name and new bytes.
    pub fn take_changed(&self) -> Vec<(PathBuf, String, Vec<u8>)> {
        std::mem::take(&mut self.state.borrow_mut().changed)
    }
}

/// Reads the version of every wanted handle; a version new to the app and the same as at the last poll is read.
/// Returns whether anything was read.
async fn poll(state: &Rc<RefCell<WatchState>>) -> bool {
    let handles: Vec<(usize, web_sys::FileSystemFileHandle)> = {
        let s = state.borrow();
        let wanted = |p: &PathBuf| s.wanted.binary_search(p).is_ok();
        s.files.iter().enumerate().filter(|(_, w)| wanted(&w.path)).map(|(i, w)| (i, w.handle.handle.clone())).collect()
    };
    state.borrow_mut().wanted_stale = true;
    let mut read_any = false;
    for (i, handle) in handles {
        // A file deleted for now (an exporter replacing it) or no longer allowed: tried again at the next poll.
        let Ok(file) = JsFuture::from(handle.get_file()).await else { continue };
        let file: web_sys::File = file.unchecked_into();
        let version = (file.last_modified(), file.size());
        let steady = {
            let mut s = state.borrow_mut();
            let Some(w) = s.files.get_mut(i) else { continue };
            if version == w.handle.version {
                w.seen = None;
                continue;
            }
            let steady = w.seen == Some(version);
            w.seen = Some(version);
            steady
        };
        if !steady {
            continue;
        }
        let Ok(bytes) = read_file(&file).await else { continue };
        let mut s = state.borrow_mut();
        let Some(w) = s.files.get_mut(i) else { continue };
        w.handle.version = version;
        w.seen = None;
        let (root, name) = (w.root.clone(), w.name.clone());
        s.changed.push((root, name, bytes));
        read_any = true;
    }
    read_any
}

/// Resolves after `ms` milliseconds.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |ok, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&ok, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
}
