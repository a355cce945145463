//! Fonts found on the machine (the desktop's; the web page fetches its own).

use std::path::{Path, PathBuf};

use super::add_font_bytes;

/// Where CJK fonts are usually installed (Debian/Ubuntu, Fedora, Arch, macOS, Windows), best first. A `.ttc`
/// collection is read at face 0, the Japanese one in Noto Sans CJK and the Windows and macOS collections.
const CANDIDATES: &[&str] = &[
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/vlgothic/VL-Gothic-Regular.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/google-droid-sans-fonts/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/ヒラギノ角ゴシック W3.ttc",
    "/System/Library/Fonts/Hiragino Sans GB.ttc",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:\\Windows\\Fonts\\YuGothM.ttc",
    "C:\\Windows\\Fonts\\meiryo.ttc",
    "C:\\Windows\\Fonts\\msgothic.ttc",
];

/// Fonts with the geometric shapes and Greek letters MMD names use, best first.
const SYMBOL_CANDIDATES: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/System/Library/Fonts/Apple Symbols.ttf",
    "C:\\Windows\\Fonts\\seguisym.ttf",
];

/// The CJK font to use: `RIGSCOPE_CJK_FONT` when set, else the first of the usual places that exists.
pub fn find_cjk_font() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RIGSCOPE_CJK_FONT") {
        return Some(PathBuf::from(p));
    }
    CANDIDATES.iter().map(Path::new).find(|p| p.is_file()).map(Path::to_path_buf)
}

/// Adds the font at `path` as the last fallback of the proportional and monospace families. Fails (with the
/// reason) when the file can't be read or is not a font; the fonts stay as they were then.
pub fn add_fallback_font(ctx: &egui::Context, path: &Path) -> Result<(), String> {
    add_font_as(ctx, path, "cjk fallback")
}

fn add_font_as(ctx: &egui::Context, path: &Path, name: &str) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    add_font_bytes(ctx, bytes, name).map_err(|e| format!("{}: {e}", path.display()))
}

/// [`find_cjk_font`] then [`add_fallback_font`], then the first symbol font found after it: the CJK font
/// added, or why none was.
pub fn install_cjk_font(ctx: &egui::Context) -> Result<PathBuf, String> {
    let path = find_cjk_font().ok_or_else(|| "no CJK font found; Japanese names draw as boxes".to_string())?;
    add_fallback_font(ctx, &path)?;
    if let Some(symbols) = SYMBOL_CANDIDATES.iter().map(Path::new).find(|p| p.is_file()) {
        // Without it a few shapes draw as boxes; the Japanese still draws.
        let _ = add_font_as(ctx, symbols, "symbol fallback");
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_a_font_is_refused_and_the_fonts_stay() {
        let dir = std::env::temp_dir().join(format!("rigscope-fonts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("not-a-font.ttf");
        std::fs::write(&p, b"hello, not a font").unwrap();
        let ctx = egui::Context::default();
        let e = add_fallback_font(&ctx, &p).unwrap_err();
        assert!(e.contains("not a TrueType or OpenType font"), "{e}");
        assert!(add_fallback_font(&ctx, &dir.join("missing.ttf")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
