//! The Open… dialog. rfd's dialog blocks until the user chooses, so it runs on a thread of its own and sends the
//! choice back to the event loop as a user event; the window keeps drawing meanwhile.

use std::path::PathBuf;

use winit::event_loop::EventLoopProxy;

use super::UserEvent;

/// The filter the open dialog offers first: every extension of the format table, named in its label.
fn readable_filter() -> (String, Vec<&'static str>) {
    let extensions: Vec<&str> = crate::formats::extensions().collect();
    (format!("Models and animations ({})", extensions.join(", ")), extensions)
}

/// Opens the dialog on a new thread; its answer arrives as [`UserEvent::DialogClosed`] (an empty list when
/// cancelled, or when no dialog could be shown). Fails only when no thread can be started.
pub fn spawn_open_dialog(proxy: EventLoopProxy<UserEvent>, start_dir: Option<PathBuf>) -> std::io::Result<()> {
    std::thread::Builder::new().name("rigscope open dialog".into()).spawn(move || {
        let (label, extensions) = readable_filter();
        let mut dialog = rfd::FileDialog::new()
            .set_title("Open a model or animation")
            .add_filter(label, &extensions)
            .add_filter("All files", &["*"]);
        if let Some(dir) = start_dir {
            dialog = dialog.set_directory(dir);
        }
        let files: Vec<PathBuf> = dialog.pick_files().unwrap_or_default();
        // The loop may be gone if the window closed meanwhile; nothing to do then.
        let _ = proxy.send_event(UserEvent::DialogClosed(files));
    })?;
    Ok(())
}

/// The Export glTF dialog on a new thread: a save dialog starting in `start_dir` with `name` filled in; the
/// answer arrives as [`UserEvent::ExportTo`] (`None` when cancelled).
pub fn spawn_export_dialog(
    proxy: EventLoopProxy<UserEvent>,
    start_dir: Option<PathBuf>,
    name: String,
) -> std::io::Result<()> {
    std::thread::Builder::new().name("rigscope export dialog".into()).spawn(move || {
        let mut dialog = rfd::FileDialog::new()
            .set_title("Export glTF")
            .add_filter("glTF binary (glb)", &["glb"])
            .add_filter("glTF with its buffer and images beside it (gltf)", &["gltf"])
            .set_file_name(name);
        if let Some(dir) = start_dir {
            dialog = dialog.set_directory(dir);
        }
        let _ = proxy.send_event(UserEvent::ExportTo(dialog.save_file()));
    })?;
    Ok(())
}

/// The Compare with… dialog on a new thread: one model file; the answer arrives as [`UserEvent::CompareWith`].
pub fn spawn_compare_dialog(proxy: EventLoopProxy<UserEvent>, start_dir: Option<PathBuf>) -> std::io::Result<()> {
    std::thread::Builder::new().name("rigscope compare dialog".into()).spawn(move || {
        let mut dialog = rfd::FileDialog::new()
            .set_title("Compare with another version of the model")
            .add_filter("Models", &crate::formats::extensions_of(crate::formats::Role::Model).collect::<Vec<_>>())
            .add_filter("All files", &["*"]);
        if let Some(dir) = start_dir {
            dialog = dialog.set_directory(dir);
        }
        let _ = proxy.send_event(UserEvent::CompareWith(dialog.pick_file()));
    })?;
    Ok(())
}
