//! Bytes in and out of the page, without paths. Files arrive in batches (one drop of files and folders, one
//! Open… pick, the `?open=` URLs, the CJK font), each read asynchronously by the browser; a finished batch is
//! mounted as one memory folder ([`crate::vfs::mount`]) and opened from it with [`App::open_folder_files`], so
//! a model finds the textures dropped with it (case-insensitively, as beside a model on disk) and a motion
//! dropped with it attaches. Files that came with a handle (`given.rs`) are polled while shown and reloaded
//! when they change. Downloads (glTF export, screenshots) go out through an object URL.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{JsFuture, spawn_local};

use super::given::{self, Given, Handle, Watch, js_text};
use crate::app::{App, Notice};

/// Where the page's CJK font is, beside `index.html` (`web/build.sh` puts it there).
const CJK_FONT_URL: &str = "fonts/cjk-fallback.ttf";

/// What a batch of files is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// Open: models first, then motions attached (a drop, Open…, `?open=`).
    Open,
    /// Open what `?open=` named, downloaded from this folder of the site: the textures the model then misses
    /// are downloaded from there too.
    OpenUrls(String),
    /// Textures a model opened by URL looked for, downloaded from beside it into its memory folder.
    Textures(std::path::PathBuf),
    /// Compare with…: the one model picked becomes the reference.
    Compare,
    /// The CJK font for Japanese names.
    Font,
}

/// One file of a batch: its name (its path inside the batch), its bytes or why they couldn't be read, and its
/// handle when the browser gave one.
struct Read {
    name: String,
    bytes: Result<Vec<u8>, String>,
    handle: Option<Handle>,
}

impl Read {
    fn bytes(name: String, bytes: Result<Vec<u8>, String>) -> Read {
        Read { name, bytes, handle: None }
    }
}

/// A batch read.
struct Batch {
    purpose: Purpose,
    files: Vec<Read>,
}

/// The batches under way and those read, shared with the futures that read them; the handles polled.
#[derive(Clone)]
pub struct Inbox {
    ctx: egui::Context,
    done: Rc<RefCell<Vec<Batch>>>,
    pending: Rc<Cell<usize>>,
    watch: Watch,
}

impl Inbox {
    pub fn new(ctx: egui::Context) -> Inbox {
        let watch = Watch::default();
        let repaint = ctx.clone();
        watch.start(move || repaint.request_repaint());
        Inbox { ctx, done: Rc::default(), pending: Rc::default(), watch }
    }

    /// Asks for another frame (something changed outside egui's input).
    pub fn repaint(&self) {
        self.ctx.request_repaint();
    }

    /// Batches still being read.
    pub fn pending(&self) -> usize {
        self.pending.get()
    }

    /// Reads `reads` (name and a future of the bytes) in the background as one batch.
    fn spawn<F>(&self, purpose: Purpose, reads: F)
    where
        F: std::future::Future<Output = Vec<Read>> + 'static,
    {
        let (done, pending, ctx) = (self.done.clone(), self.pending.clone(), self.ctx.clone());
        pending.set(pending.get() + 1);
        spawn_local(async move {
            let files = reads.await;
            done.borrow_mut().push(Batch { purpose, files });
            pending.set(pending.get().saturating_sub(1));
            ctx.request_repaint();
        });
    }

    /// The files of one drop as eframe hands them over (only where the page's own drop listener, which also
    /// takes folders and handles, could not be installed), read as one batch.
    pub fn read_drops(&self, dropped: Vec<egui::DroppedFileHandle>) {
        if dropped.is_empty() {
            return;
        }
        self.spawn(Purpose::Open, async move {
            let mut files = Vec::with_capacity(dropped.len());
            for file in &dropped {
                let name = file.path().to_string_lossy().into_owned();
                files.push(Read::bytes(name, file.bytes_async().await));
            }
            files
        });
    }

    /// Takes every drop of files on the page (before eframe's canvas listener, which can't take folders):
    /// files and folders are walked and read as one batch, with their handles where the browser gives them.
    pub fn listen_for_drops(&self, canvas: &web_sys::HtmlCanvasElement) -> Result<(), wasm_bindgen::JsValue> {
        let window = web_sys::window().ok_or("no window")?;
        let (inbox, canvas) = (self.clone(), canvas.clone());
        let listener =
            wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::DragEvent)>::new(move |event: web_sys::DragEvent| {
                let Some(transfer) = event.data_transfer() else { return };
                if !transfer.types().includes(&"Files".into(), 0) {
                    return;
                }
                event.prevent_default();
                event.stop_propagation();
                let items = given::dropped_items(&transfer);
                inbox.read_given(Purpose::Open, given::walk_dropped(items));
                // eframe's drop listener, stopped here, would end its preview of the files hovering.
                if let Ok(leave) = web_sys::Event::new("dragleave") {
                    let _ = canvas.dispatch_event(&leave);
                }
            });
        window.add_event_listener_with_callback_and_bool("drop", listener.as_ref().unchecked_ref(), true)?;
        // The listener lives as long as the page.
        listener.forget();
        Ok(())
    }

    /// Reads the files `given` finds (a drop walked, a File System Access pick) as one batch: the bytes of each,
    /// keeping their handles; nothing past [`crate::vfs::MAX_UNZIPPED`] bytes in all.
    fn read_given<F>(&self, purpose: Purpose, given: F)
    where
        F: std::future::Future<Output = Result<Vec<Given>, String>> + 'static,
    {
        self.spawn(purpose, async move {
            let given = match given.await {
                Ok(given) => given,
                Err(e) => return vec![Read::bytes("the files given".into(), Err(e))],
            };
            let total: f64 = given.iter().map(|g| g.file.size()).sum();
            if total > crate::vfs::MAX_UNZIPPED as f64 {
                let e = format!(
                    "{} files of {:.1} GB in all, more than the page reads at once ({} GiB)",
                    given.len(),
                    total / 1e9,
                    crate::vfs::MAX_UNZIPPED >> 30
                );
                return vec![Read::bytes("the files given".into(), Err(e))];
            }
            let mut files = Vec::with_capacity(given.len());
            for g in given {
                let bytes = given::read_file(&g.file).await;
                let version = (g.file.last_modified(), g.file.size());
                let handle = g.handle.map(|handle| Handle { handle, version });
                files.push(Read { name: g.name, bytes, handle });
            }
            files
        });
    }

    /// Open… or Compare with…: the browser's file picker (several files at once for Open); the File System
    /// Access picker where the browser has it, so the files come with handles and reload when they change.
    pub fn pick(&self, purpose: Purpose) {
        let compare = purpose == Purpose::Compare;
        if given::has_picker() {
            return self.read_given(purpose, given::pick(!compare));
        }
        self.spawn(purpose, async move {
            let dialog = rfd::AsyncFileDialog::new()
                .set_title("Open a model and its textures and motions")
                .add_filter(PICKER_LABEL, &picker_extensions());
            let picked = if compare {
                dialog.pick_file().await.into_iter().collect()
            } else {
                dialog.pick_files().await.unwrap_or_default()
            };
            let mut files = Vec::with_capacity(picked.len());
            for handle in picked {
                files.push(Read::bytes(handle.file_name(), Ok(handle.read().await)));
            }
            files
        });
    }

    /// Downloads `urls` (relative to the page) as one batch to open.
    pub fn fetch(&self, urls: Vec<String>) {
        let base = urls.first().map_or(String::new(), |u| url_folder(u));
        self.spawn(Purpose::OpenUrls(base), async move {
            let mut files = Vec::with_capacity(urls.len());
            for url in urls {
                let name = url_file_name(&url);
                files.push(Read::bytes(name, fetch_bytes(&url).await));
            }
            files
        });
    }

    /// Downloads the CJK font from beside the page.
    pub fn fetch_cjk_font(&self) {
        self.spawn(Purpose::Font, async move {
            vec![Read::bytes(CJK_FONT_URL.to_string(), fetch_bytes(CJK_FONT_URL).await)]
        });
    }

    /// Hands every batch read since the last frame to `app`.
    pub fn take_into(&self, app: &mut App, ctx: &egui::Context) {
        let batches = std::mem::take(&mut *self.done.borrow_mut());
        for batch in batches {
            let mut readable = Vec::with_capacity(batch.files.len());
            let mut handles = Vec::new();
            for Read { name, bytes, handle } in batch.files {
                match bytes {
                    Ok(bytes) => {
                        if let Some(handle) = handle {
                            handles.push((name.clone(), handle));
                        }
                        readable.push((name, bytes));
                    }
                    Err(e) if batch.purpose == Purpose::Font => {
                        app.set_cjk_font_missing(format!("the page's CJK font ({name}) could not be read: {e}"));
                    }
                    // A texture that isn't beside the model stays missing; the Problems tab lists it.
                    Err(_) if matches!(batch.purpose, Purpose::Textures(_)) => {}
                    Err(e) => app.add_notice(Notice::error(format!("{name}: cannot read: {e}"))),
                }
            }
            match batch.purpose {
                Purpose::Font => {
                    if let Some((_, bytes)) = readable.pop() {
                        app.install_cjk_font_bytes(ctx, bytes);
                    }
                }
                Purpose::Textures(dir) => {
                    let paths: Vec<_> =
                        readable.into_iter().filter_map(|(n, b)| crate::vfs::add(&dir, &n, Arc::from(b))).collect();
                    if !paths.is_empty() {
                        app.files_arrived(&paths);
                    }
                }
                Purpose::Open | Purpose::OpenUrls(_) | Purpose::Compare => {
                    let readable = unpack_zips(app, readable);
                    let names: Vec<String> = readable.iter().map(|(n, _)| n.clone()).collect();
                    let dir = crate::vfs::mount(readable);
                    for (name, handle) in handles {
                        self.watch.add(&dir, &name, handle);
                    }
                    if batch.purpose == Purpose::Compare {
                        if let Some(name) = names.first() {
                            app.compare_with_path(&dir.join(name));
                        }
                    } else if app.open_folder_files(&dir, &names).is_empty() && !names.is_empty() {
                        app.add_notice(Notice::error(format!(
                            "nothing to open among {}: only textures or buffers",
                            names.join(", ")
                        )));
                    } else if let Purpose::OpenUrls(base) = batch.purpose {
                        self.fetch_missing(app, dir, &base);
                        // Files named in the address open moving, as files named on the window's command line.
                        app.play();
                    }
                }
            }
        }
    }
}

impl Inbox {
    /// Polls the handles of the files `app` shows (its models' files, the shown model's textures; none while
    /// its hot reload is off) and reloads those that changed, as the desktop's watcher does.
    pub fn reload_changed(&self, app: &mut App) {
        if self.watch.wants_files() {
            let mut wanted = app.watched_files();
            wanted.extend(app.texture_files());
            self.watch.set_wanted(wanted);
        }
        let changed = self.watch.take_changed();
        if changed.is_empty() {
            return;
        }
        let paths: Vec<_> = changed
            .into_iter()
            .filter_map(|(root, name, bytes)| crate::vfs::add(&root, &name, Arc::from(bytes)))
            .collect();
        let reloaded = app.files_changed(&paths);
        if !reloaded.is_empty() {
            let names: Vec<String> = reloaded
                .iter()
                .map(|n| std::path::Path::new(n).file_name().map_or(n.clone(), |f| f.to_string_lossy().into_owned()))
                .collect();
            app.add_notice(Notice::transient(format!("Reloaded {}", names.join(", ")), super::NOTICE_TIME));
        }
    }

    /// Downloads the textures the shown model (opened by URL into memory folder `dir`) looked for and missed,
    /// from the site's folder `base` it came from, the way the desktop finds them beside the model; for a model
    /// whose textures live in a game data tree (Ragnarok's `data\texture\`), under `data/texture/` of that folder
    /// or of one above it first.
    fn fetch_missing(&self, app: &mut App, dir: std::path::PathBuf, base: &str) {
        // The textures are looked up when the model is first drawn; look now to know what is missing.
        app.load_textures();
        let Some(doc) = app.document() else { return };
        let wanted: Vec<String> = doc
            .texture_files()
            .iter()
            .filter(|p| !crate::vfs::is_file(p))
            .filter_map(|p| p.strip_prefix(&dir).ok())
            .map(|rel| rel.to_string_lossy().replace('\\', "/"))
            .collect();
        if wanted.is_empty() {
            return;
        }
        let data_tree = app
            .scene()
            .is_some_and(|s| s.materials.iter().any(|m| m.search == crate::scene::TextureSearch::DataTexture));
        let mut roots = if data_tree { url_ancestors(base) } else { Vec::new() };
        let base = base.to_string();
        self.spawn(Purpose::Textures(dir), async move {
            let mut files = Vec::with_capacity(wanted.len());
            for rel in wanted {
                files.push(fetch_texture(&base, &rel, &mut roots).await);
            }
            files
        });
    }
}

/// Texture `rel` (a path as the model names it, `/` between folders) from the site: under `data/texture/` of
/// each folder in `roots` (the model's URL folder and those above it; the one that had a texture is tried first
/// for the next), then beside the model in `base`. Named where the model's memory folder is to hold it, so the
/// desktop's search ([`crate::textures`]) finds it there.
async fn fetch_texture(base: &str, rel: &str, roots: &mut Vec<String>) -> Read {
    let in_tree = format!("data/texture/{rel}");
    for i in 0..roots.len() {
        if let Ok(bytes) = fetch_bytes(&url_in(&roots[i], &in_tree)).await {
            let hit = roots.remove(i);
            roots.insert(0, hit);
            return Read::bytes(in_tree, Ok(bytes));
        }
    }
    Read::bytes(rel.to_string(), fetch_bytes(&url_in(base, rel)).await)
}

/// The URL of `rel` (`/` between folders, each part percent-encoded) in the site's folder `folder`.
fn url_in(folder: &str, rel: &str) -> String {
    let parts: Vec<String> = rel.split('/').map(|part| String::from(js_sys::encode_uri_component(part))).collect();
    format!("{folder}{}", parts.join("/"))
}

/// `folder` (a URL folder ending in `/`, or empty for the page's own) and each folder above it, nearest first:
/// `corpus/rsm/` gives `corpus/rsm/`, `corpus/` and the page's folder; never above a server's root
/// (`https://host/`) or the site's (`/`).
fn url_ancestors(folder: &str) -> Vec<String> {
    let floor = match folder.find("://") {
        Some(i) => folder[i + 3..].find('/').map_or(folder.len(), |j| i + 3 + j + 1),
        None => usize::from(folder.starts_with('/')),
    };
    let mut out = vec![folder.to_string()];
    // `folder[..end]` is a folder: it ends in `/`, or is empty.
    let mut end = folder.len();
    while end > floor {
        let cut = folder[..end - 1].rfind('/').map_or(0, |i| i + 1).max(floor);
        out.push(folder[..cut].to_string());
        end = cut;
    }
    out
}

/// The files given, each `.zip` among them replaced by what it holds (a model shared as an archive of itself,
/// its textures and motions); an archive that can't be read is a notice.
fn unpack_zips(app: &mut App, files: Vec<(String, Vec<u8>)>) -> Vec<crate::vfs::NamedBytes> {
    let mut out = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        if !name.to_ascii_lowercase().ends_with(".zip") {
            out.push((name, Arc::from(bytes)));
            continue;
        }
        match crate::vfs::unzip(&bytes) {
            Ok(entries) => out.extend(entries),
            Err(e) => app.add_notice(Notice::error(format!("{name}: {e}"))),
        }
    }
    out
}

/// The folder part of `url` (up to and with its last `/`), where the files beside it are.
fn url_folder(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    path.rfind('/').map_or(String::new(), |i| path[..=i].to_string())
}

/// The label of the pickers' filter.
pub const PICKER_LABEL: &str = "Models, animations and their textures";

/// The extensions the pickers offer: every format of the table and the files that go with a model.
pub fn picker_extensions() -> Vec<&'static str> {
    crate::formats::extensions().chain(crate::formats::COMPANION_EXTENSIONS).collect()
}

/// The `open` parameters of the page's address (`index.html?open=a.pmd&open=b.vmd`), in order.
pub fn open_urls() -> Vec<String> {
    let Some(search) = web_sys::window().and_then(|w| w.location().search().ok()) else { return Vec::new() };
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else { return Vec::new() };
    params.get_all("open").iter().filter_map(|v| v.as_string()).filter(|s| !s.is_empty()).collect()
}

/// The last path segment of `url`, without query or fragment, percent-decoded where it can be.
fn url_file_name(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path.rsplit('/').next().unwrap_or(path);
    js_sys::decode_uri_component(last).ok().and_then(|s| s.as_string()).unwrap_or_else(|| last.to_string())
}

/// The bytes at `url`, or why not (an HTTP status, a network error).
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|e| js_text(&e))?;
    let response: web_sys::Response = response.dyn_into().map_err(|e| js_text(&e))?;
    if !response.ok() {
        return Err(format!("HTTP {} {}", response.status(), response.status_text()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(|e| js_text(&e))?).await.map_err(|e| js_text(&e))?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Milliseconds since the page's navigation started (`performance.now()`).
pub fn page_time_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Offers `bytes` as a download named `name`.
pub fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(|e| js_text(&e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| js_text(&e))?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(|e| js_text(&e))?.dyn_into().map_err(|e| js_text(&e))?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Reads `texture` (RGBA8, `size`) back from the GPU and downloads it as a PNG named `name` once the browser
/// has mapped it (asynchronously: the page can't wait).
pub fn download_texture(renderer: &crate::render::Renderer, texture: &wgpu::Texture, size: (u32, u32), name: String) {
    let (w, h) = size;
    let row = w * 4;
    let padded = row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let device = renderer.device();
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("page screenshot"),
        size: u64::from(padded) * u64::from(h),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("screenshot") });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
        },
        wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
    );
    renderer.queue().submit([encoder.finish()]);
    let mapped = buffer.clone();
    buffer.slice(..).map_async(wgpu::MapMode::Read, move |result| {
        if result.is_err() {
            return;
        }
        let texels: Vec<u8> = match mapped.slice(..).get_mapped_range() {
            Ok(view) => view.chunks(padded as usize).flat_map(|r| &r[..row as usize]).copied().collect(),
            Err(_) => return,
        };
        mapped.unmap();
        let Some(image) = image::RgbaImage::from_raw(w, h, texels) else { return };
        let mut png = Vec::new();
        if image.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).is_ok() {
            let _ = download(&name, &png, "image/png");
        }
    });
}
