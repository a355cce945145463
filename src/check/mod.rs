//! `rigscope check`: every problem rigscope can name in a file, as findings with a stable rule id.
//!
//! Findings come from three places, cheapest first: the reader (a load error, or the warnings it attached to
//! the scene), the format's own lint of the raw records (`formats::iqm::lint`), and checks on the loaded scene
//! that cost more than loading should (degenerate triangles, unused vertices, stored adjacency against the
//! edges, stored bounds against the skinned mesh at every frame). The window's Problems panel and the command
//! line show the same list.

mod frames;
mod mmd;
pub mod motion;
mod mvd;
mod physics;
mod scene;
mod vrm;

use serde::Serialize;

use crate::error::{LoadError, Location, Warning};

/// How bad a finding is: an error makes the file unusable or wrong; a warning is a spec violation it survives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// Where a finding is, as precisely as the check knows.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Place {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub joint: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertex: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub triangle: Option<usize>,
    /// An MMD rigid body, by its index in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<usize>,
    /// With `clip`: the frame within that animation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clip: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<u32>,
}

impl Place {
    fn of(location: Location) -> Place {
        match location {
            Location::Offset(o) => Place { offset: Some(o), ..Default::default() },
            Location::Line(l) => Place { line: Some(l), ..Default::default() },
            Location::File => Place::default(),
        }
    }

    /// `@offset`, `line N`, `mesh 2 vertex 17`, … for text output.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(o) = self.offset {
            parts.push(format!("@{o}"));
        }
        if let Some(l) = self.line {
            parts.push(format!("line {l}"));
        }
        let named = [
            ("mesh", self.mesh),
            ("joint", self.joint),
            ("triangle", self.triangle),
            ("vertex", self.vertex),
            ("rigid body", self.body),
            ("animation", self.clip),
        ];
        for (what, v) in named {
            if let Some(v) = v {
                parts.push(format!("{what} {v}"));
            }
        }
        if let Some(f) = self.frame {
            parts.push(format!("frame {f}"));
        }
        parts.join(" ")
    }
}

/// One problem in one file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub file: String,
    /// Stable id, `format.topic[.detail]` (`iqm.blendweights.sum`, `mesh.triangle.degenerate`, …).
    pub rule: String,
    pub severity: Severity,
    pub place: Place,
    /// What is wrong and what the spec expects.
    pub message: String,
}

impl Finding {
    fn warning(file: &str, w: &Warning) -> Finding {
        Finding {
            file: file.to_string(),
            rule: w.rule.to_string(),
            severity: Severity::Warning,
            place: Place::of(w.location),
            message: w.message.clone(),
        }
    }

    fn load_error(file: &str, rule: String, e: &LoadError) -> Finding {
        Finding {
            file: file.to_string(),
            rule,
            severity: Severity::Error,
            place: Place::of(e.location),
            message: e.message.clone(),
        }
    }
}

/// Bone tracks of a motion (`motion`, e.g. an MVD) that name no joint of `model`: they would animate nothing
/// when attached.
pub fn unmatched_bones(motion_file: &str, motion: &crate::scene::Scene, model: &crate::scene::Scene) -> Vec<Finding> {
    let missing: Vec<&str> = motion
        .skeleton
        .joints
        .iter()
        .map(|j| j.name.as_str())
        .filter(|n| !n.is_empty() && model.skeleton.find(n).is_none())
        .collect();
    if missing.is_empty() {
        return Vec::new();
    }
    vec![Finding {
        file: motion_file.to_string(),
        rule: "mvd.bone.unmatched".into(),
        severity: Severity::Warning,
        place: Place::default(),
        message: format!(
            "{} of {} bone tracks name no joint of the model, so they animate nothing: {}",
            missing.len(),
            motion.skeleton.len(),
            missing.join(", ")
        ),
    }]
}

/// The rule id of a file the reader refused: its format's (`FORMATS`' id), by content and then by extension.
fn refusal_rule(name: &str, data: &[u8]) -> String {
    let format = crate::formats::format_of(name, data).map_or("file", |f| f.id);
    format!("{format}.unreadable")
}

/// Checks a file's bytes. `name` names it in the findings. Textures are not looked for: there is no folder.
pub fn check_bytes(name: &str, data: &[u8]) -> Vec<Finding> {
    check_with_dir(name, data, None)
}

/// Checks a file read from `path`, looking for its textures from its folder as the viewer does.
pub fn check_file(path: &std::path::Path, data: &[u8]) -> Vec<Finding> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    check_with_dir(&path.display().to_string(), data, Some(dir))
}

fn check_with_dir(name: &str, data: &[u8], dir: Option<&std::path::Path>) -> Vec<Finding> {
    match crate::formats::load_bytes_in(name, data, dir) {
        Ok(scene) => {
            let misses = crate::anim::stored_bounds_misses(&scene, crate::anim::BOUNDS_TOLERANCE);
            check_loaded(name, data, &scene, Some(&misses), dir)
        }
        Err(e) => vec![Finding::load_error(name, refusal_rule(name, data), &e)],
    }
}

/// The findings for a file already loaded into `scene` (the window has just loaded it). `misses` are its stored
/// bounds checked against the skinned mesh (`anim::stored_bounds_misses`, which skins every frame): the caller
/// computes them once and may keep them (the window's Bounds section shows the same list); `None` leaves the
/// bounds unchecked. Textures are looked up from `dir` (the model's folder) when given.
pub fn check_loaded(
    name: &str,
    data: &[u8],
    scene: &crate::scene::Scene,
    misses: Option<&[crate::anim::BoundsMiss]>,
    dir: Option<&std::path::Path>,
) -> Vec<Finding> {
    let mut out = check_loaded_but_motion(name, data, scene, misses, dir);
    out.extend(motion::check(name, scene));
    out.sort_by_key(|f| f.severity);
    out
}

/// [`check_loaded`] without the motion rules, for a motion the caller checks as played on a model
/// ([`motion::check_clips`]): sampling every frame of it alone would be work thrown away.
pub fn check_loaded_but_motion(
    name: &str,
    data: &[u8],
    scene: &crate::scene::Scene,
    misses: Option<&[crate::anim::BoundsMiss]>,
    dir: Option<&std::path::Path>,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = scene.meta.warnings.iter().map(|w| Finding::warning(name, w)).collect();
    if crate::formats::iqm::sniff(data) {
        out.extend(crate::formats::iqm::lint(data).iter().map(|l| {
            let mut f = Finding::warning(name, &l.warning);
            f.place.joint = l.joint;
            f
        }));
    }
    out.extend(scene::check(name, scene, misses.unwrap_or_default(), dir));
    out.extend(mmd::check(name, scene));
    out.extend(mvd::check(name, scene));
    out.extend(physics::check(name, scene));
    out.extend(vrm::check(name, scene));
    out.sort_by_key(|f| f.severity);
    out
}
