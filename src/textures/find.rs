//! Finding a material's texture on disk: beside the model by name (IQM, IQE), or under a game data tree
//! (`TextureSearch::DataTexture`, Ragnarok's `data\texture\` paths). Names come from untrusted files, so
//! absolute names and names that climb out (`..`) are refused.

use std::path::{Component, Path, PathBuf};

use crate::scene::TextureSearch;

/// Extensions tried after the name as given.
const EXTENSIONS: [&str; 4] = ["png", "tga", "jpg", "bmp"];

/// Finds the texture `name` refers to in `dir`: the name as given, then with .png, .tga, .jpg and .bmp
/// appended, each matched case-insensitively against the files that exist. Names that are absolute or climb
/// out of `dir` (`..`) are refused, since they come from an untrusted file.
pub fn resolve_texture(dir: &Path, name: &str) -> Option<PathBuf> {
    let name = name.replace('\\', "/");
    let rel = Path::new(&name);
    if name.is_empty() || rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return None;
    }
    let folder = dir.join(rel.parent().unwrap_or(Path::new("")));
    let file = rel.file_name()?.to_str()?;
    // The folder's names, lower-cased, listed once and only when an exact spelling misses. No entry is looked
    // at beyond its name until it matches: a model in a folder of thousands of files (a `check` batch) must not
    // stat every one of them per texture.
    let mut listing: Option<Vec<(String, std::ffi::OsString)>> = None;
    let candidates = std::iter::once(file.to_string()).chain(EXTENSIONS.iter().map(|ext| format!("{file}.{ext}")));
    for candidate in candidates {
        // Exact spelling first, so a folder with both `Body.png` and `body.png` picks the one named.
        let exact = folder.join(&candidate);
        if exact.is_file() {
            return Some(exact);
        }
        let names = listing.get_or_insert_with(|| {
            std::fs::read_dir(&folder)
                .map(|d| {
                    d.filter_map(|e| e.ok())
                        .filter_map(|e| Some((e.file_name().to_str()?.to_lowercase(), e.file_name())))
                        .collect()
                })
                .unwrap_or_default()
        });
        let want = candidate.to_lowercase();
        let mut matches: Vec<PathBuf> =
            names.iter().filter(|(n, _)| *n == want).map(|(_, f)| folder.join(f)).filter(|p| p.is_file()).collect();
        matches.sort();
        if let Some(p) = matches.into_iter().next() {
            return Some(p);
        }
    }
    None
}

/// Finds the texture `name` refers to from the model's folder `dir`, the way `search` says.
pub fn find_texture(dir: &Path, name: &str, search: TextureSearch) -> Option<PathBuf> {
    match search {
        TextureSearch::BesideModel => resolve_texture(dir, name),
        TextureSearch::DataTexture => resolve_data_texture(dir, name),
    }
}

/// A game-data texture path (`model\missing.bmp`, relative to `data\texture\`): `\` becomes `/`, then
/// `A/data/texture/NAME` is tried for `dir` and each folder above it, then NAME and its bare file name beside the
/// model. Every path component matches case-insensitively (the game's archives ignore case), the exact spelling
/// first. Absolute names and names with `..` are refused.
pub fn resolve_data_texture(dir: &Path, name: &str) -> Option<PathBuf> {
    let rel = safe_relative(name)?;
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    for ancestor in absolute.ancestors() {
        if let Some(p) = find_ignoring_case(ancestor, &Path::new("data/texture").join(&rel)) {
            return Some(p);
        }
    }
    find_ignoring_case(dir, &rel).or_else(|| find_ignoring_case(dir, Path::new(rel.file_name()?)))
}

/// `name` with `\` as `/`, when it is a non-empty relative path that stays inside its folder.
fn safe_relative(name: &str) -> Option<PathBuf> {
    let name = name.replace('\\', "/");
    let rel = PathBuf::from(name.trim_start_matches("./"));
    let ok = rel.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    (ok && rel.file_name().is_some()).then_some(rel)
}

/// `base/rel`, each component of `rel` matched against what exists: the exact name, else the first (sorted)
/// that equals it ignoring case. The last component must be a file.
fn find_ignoring_case(base: &Path, rel: &Path) -> Option<PathBuf> {
    let parts: Vec<&std::ffi::OsStr> =
        rel.components().filter_map(|c| if let Component::Normal(n) = c { Some(n) } else { None }).collect();
    let mut here = base.to_path_buf();
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let exact = here.join(part);
        let fits = |p: &Path| if last { p.is_file() } else { p.is_dir() };
        if fits(&exact) {
            here = exact;
            continue;
        }
        let want = part.to_str()?.to_lowercase();
        let mut found: Vec<PathBuf> = std::fs::read_dir(&here)
            .ok()?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_str().is_some_and(|n| n.to_lowercase() == want))
            .map(|e| e.path())
            .filter(|p| fits(p))
            .collect();
        found.sort();
        here = found.into_iter().next()?;
    }
    Some(here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_by_name_then_extension_case_insensitively_and_stays_inside() {
        let dir = std::env::temp_dir().join(format!("rigscope-texture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("Body.TGA"), b"x").unwrap();
        std::fs::write(dir.join("skin.png"), b"x").unwrap();
        assert_eq!(resolve_texture(&dir, "body.tga"), Some(dir.join("Body.TGA")));
        assert_eq!(resolve_texture(&dir, "BODY"), Some(dir.join("Body.TGA")));
        assert_eq!(resolve_texture(&dir, "skin"), Some(dir.join("skin.png")));
        assert_eq!(resolve_texture(&dir, "head"), None);
        assert_eq!(resolve_texture(&dir, "../skin.png"), None);
        assert_eq!(resolve_texture(&dir, ""), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn data_textures_resolve_through_ancestors_ignoring_case_and_backslashes() {
        let root = std::env::temp_dir().join(format!("rigscope-data-texture-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let models = root.join("Data/Model/sub");
        let textures = root.join("Data/Texture/La_SciFi");
        std::fs::create_dir_all(&models).unwrap();
        std::fs::create_dir_all(&textures).unwrap();
        std::fs::write(textures.join("Error_01.BMP"), b"x").unwrap();
        std::fs::write(models.join("beside.bmp"), b"x").unwrap();
        std::fs::create_dir_all(models.join("tex")).unwrap();
        std::fs::write(models.join("tex/Inner.tga"), b"x").unwrap();
        let abs = |p: PathBuf| std::path::absolute(p).unwrap();

        // Three folders up, every component in another case, backslashes.
        let found = resolve_data_texture(&models, "la_scifi\\error_01.bmp").map(abs);
        assert_eq!(found, Some(abs(textures.join("Error_01.BMP"))));
        // Not under data/texture: the path beside the model, then its file name alone.
        assert_eq!(resolve_data_texture(&models, "TEX\\inner.TGA").map(abs), Some(abs(models.join("tex/Inner.tga"))));
        assert_eq!(
            resolve_data_texture(&models, "elsewhere\\Beside.bmp").map(abs),
            Some(abs(models.join("beside.bmp")))
        );
        assert_eq!(resolve_data_texture(&models, "la_scifi\\nothing.bmp"), None);
        assert_eq!(resolve_data_texture(&models, "..\\..\\Texture\\La_SciFi\\Error_01.BMP"), None);
        assert_eq!(resolve_data_texture(&models, "/etc/passwd"), None);
        assert_eq!(resolve_data_texture(&models, ""), None);
        // The Inter-Quake search is unchanged: beside the model only.
        assert_eq!(find_texture(&models, "la_scifi\\error_01.bmp", TextureSearch::BesideModel), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
