//! Finding a material's texture on disk: beside the model by name (IQM, IQE), or under a game data tree
//! (`TextureSearch::DataTexture`, Ragnarok's `data\texture\` paths). Names come from untrusted files, so
//! absolute names and names that climb out (`..`) are refused.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::vfs;

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
    let mut listing: Option<Arc<Listing>> = None;
    let candidates = std::iter::once(file.to_string()).chain(EXTENSIONS.iter().map(|ext| format!("{file}.{ext}")));
    for candidate in candidates {
        // Exact spelling first, so a folder with both `Body.png` and `body.png` picks the one named.
        let exact = folder.join(&candidate);
        if vfs::is_file(&exact) {
            return Some(exact);
        }
        let names = listing.get_or_insert_with(|| folder_names(&folder));
        let want = candidate.to_lowercase();
        let mut matches: Vec<PathBuf> =
            names.iter().filter(|(n, _)| *n == want).map(|(_, f)| folder.join(f)).filter(|p| vfs::is_file(p)).collect();
        matches.sort();
        if let Some(p) = matches.into_iter().next() {
            return Some(p);
        }
    }
    None
}

/// A folder's entry names, lower-cased, with the names as they are.
type Listing = Vec<(String, std::ffi::OsString)>;

/// Folder listings by path and the folder's modification time when listed. Models in one folder (a `check`
/// batch of thousands) share one listing instead of each reading the folder; a folder whose entries changed
/// (a texture saved, renamed or deleted changes its modification time) is listed again.
static LISTINGS: Mutex<Option<ListingCache>> = Mutex::new(None);

/// Each folder's modification time when listed, and the listing.
type ListingCache = HashMap<PathBuf, (SystemTime, Arc<Listing>)>;

/// The names in `folder` (empty when it can't be read), from [`LISTINGS`] while the folder is unchanged.
fn folder_names(folder: &Path) -> Arc<Listing> {
    let modified = vfs::modified(folder);
    if let Some(m) = modified
        && let Some((when, names)) = LISTINGS.lock().ok().and_then(|c| c.as_ref()?.get(folder).cloned())
        && when == m
    {
        return names;
    }
    let names: Arc<Listing> = Arc::new(
        vfs::list(folder)
            .map(|d| d.into_iter().filter_map(|n| Some((n.to_str()?.to_lowercase(), n))).collect())
            .unwrap_or_default(),
    );
    if let (Some(m), Ok(mut cache)) = (modified, LISTINGS.lock()) {
        let cache = cache.get_or_insert_with(HashMap::new);
        // Bounded: a long session that looks through many folders starts over rather than growing.
        if cache.len() >= 4096 {
            cache.clear();
        }
        cache.insert(folder.to_path_buf(), (m, names.clone()));
    }
    names
}

/// Finds the texture `name` refers to from the model's folder `dir`, the way `search` says.
pub fn find_texture(dir: &Path, name: &str, search: TextureSearch) -> Option<PathBuf> {
    match search {
        TextureSearch::BesideModel => resolve_texture(dir, name),
        TextureSearch::DataTexture => resolve_data_texture(dir, name),
        // In the model file, not on disk: `TextureSet::load` looks these up among the scene's images.
        TextureSearch::Embedded => None,
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
        let fits = |p: &Path| if last { vfs::is_file(p) } else { vfs::is_dir(p) };
        if fits(&exact) {
            here = exact;
            continue;
        }
        let want = part.to_str()?.to_lowercase();
        let mut found: Vec<PathBuf> = vfs::list(&here)
            .ok()?
            .into_iter()
            .filter(|n| n.to_str().is_some_and(|n| n.to_lowercase() == want))
            .map(|n| here.join(n))
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

    #[test]
    fn a_texture_saved_after_a_lookup_missed_is_found_the_next_time() {
        let dir = std::env::temp_dir().join(format!("rigscope-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("other.png"), b"x").unwrap();
        assert_eq!(resolve_texture(&dir, "skin"), None, "missing: the folder is listed and the listing kept");
        std::fs::write(dir.join("SKIN.png"), b"x").unwrap();
        assert_eq!(resolve_texture(&dir, "skin"), Some(dir.join("SKIN.png")), "the folder changed: listed again");
        std::fs::remove_file(dir.join("SKIN.png")).unwrap();
        assert_eq!(resolve_texture(&dir, "skin"), None, "and again when it goes");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
