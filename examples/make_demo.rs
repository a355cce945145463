//! Regenerates the built-in demo model, `assets/demo.iqm` and `assets/demo.png`, from `src/demo/`.
//!
//! The assets are committed so the viewer can embed them without running the generator; `tests/demo_asset.rs`
//! fails until they match the generator again after a change.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    rigscope::demo::write_assets(&dir)?;
    for name in ["demo.iqm", "demo.png"] {
        let path = dir.join(name);
        println!("wrote {} ({} bytes)", path.display(), std::fs::metadata(&path)?.len());
    }
    Ok(())
}
