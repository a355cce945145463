//! The built-in demo model, opened when the window starts with no file. Both files are compiled into the
//! program, so `cargo run --release` works from any folder and an installed binary needs no assets beside it.
//!
//! The model is handed to the app as bytes; its texture (the materials name `demo` and `demo.png`) is looked up
//! beside the model like any other, so it is written once into a private temporary folder that serves as the
//! model's folder and is removed when the window closes.

use std::path::{Path, PathBuf};

/// `assets/demo.iqm`, the demo robot Pip (see `crate::demo`).
pub const DEMO_IQM: &[u8] = include_bytes!("../../assets/demo.iqm");
/// `assets/demo.png`, its texture.
const DEMO_PNG: &[u8] = include_bytes!("../../assets/demo.png");
/// The name the demo is opened under.
pub const DEMO_NAME: &str = "demo.iqm";

/// A temporary folder holding the demo's texture; removed on drop.
pub struct DemoTextures {
    dir: PathBuf,
}

impl DemoTextures {
    /// Writes the texture into a new folder under the system's temporary folder.
    pub fn create() -> std::io::Result<DemoTextures> {
        let base = std::env::temp_dir();
        let mut attempt = 0u32;
        let dir = loop {
            let dir = base.join(format!("rigscope-demo-{}-{attempt}", std::process::id()));
            // create_dir (not _all) fails on an existing folder: never write into someone else's.
            match std::fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(e),
            }
        };
        let textures = DemoTextures { dir };
        std::fs::write(textures.dir.join("demo.png"), DEMO_PNG)?;
        Ok(textures)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for DemoTextures {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.dir.join("demo.png"));
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_texture_resolves_for_both_materials_and_is_cleaned_up() {
        let textures = DemoTextures::create().unwrap();
        let dir = textures.dir().to_path_buf();
        for name in ["demo", "demo.png"] {
            assert!(crate::textures::resolve_texture(&dir, name).is_some(), "{name}");
        }
        drop(textures);
        assert!(!dir.exists());
    }

    #[test]
    fn the_embedded_demo_loads() {
        let scene = crate::load_bytes(DEMO_NAME, DEMO_IQM).unwrap();
        assert!(!scene.clips.is_empty() && !scene.vertices.is_empty());
    }
}
