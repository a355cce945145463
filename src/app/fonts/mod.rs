//! Japanese (and Chinese, Korean) text in the window: MMD bone, morph and material names are Japanese, and
//! egui's own fonts have no CJK glyphs, so they would draw as boxes. A CJK font already installed on the
//! machine is added as a fallback of both font families, then a symbol font for the shapes MMD names use
//! (▲, ω, ∧) that some CJK fonts lack; none is shipped (they are 2 to 20 MB). `RIGSCOPE_CJK_FONT` names a
//! font file to use instead of looking for the CJK one. The web page has no fonts to look for: it fetches one
//! from beside itself and adds it with [`add_font_bytes`]; looking on the machine is `system.rs`, the
//! desktop's, compiled out of the browser build here and nowhere else.

#[cfg(not(target_arch = "wasm32"))]
mod system;
#[cfg(not(target_arch = "wasm32"))]
pub use system::{add_fallback_font, find_cjk_font, install_cjk_font};

/// Adds the font file `bytes` under `name` as the last fallback of the proportional and monospace families
/// (the web page's CJK font, fetched from beside the page). Fails when the bytes are not a font.
pub fn add_font_bytes(ctx: &egui::Context, bytes: Vec<u8>, name: &str) -> Result<(), String> {
    // A font file starts with a known tag; anything else would only fail later, inside egui.
    let tag = bytes.get(..4).unwrap_or_default();
    if ![b"\x00\x01\x00\x00".as_slice(), b"OTTO", b"true", b"ttcf"].contains(&tag) {
        return Err("not a TrueType or OpenType font".to_string());
    }
    let families = [egui::FontFamily::Proportional, egui::FontFamily::Monospace]
        .map(|family| egui::epaint::text::InsertFontFamily {
            family,
            priority: egui::epaint::text::FontPriority::Lowest,
        })
        .to_vec();
    ctx.add_font(egui::epaint::text::FontInsert::new(name, egui::FontData::from_owned(bytes), families));
    Ok(())
}
