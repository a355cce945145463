//! Checks on a VRM avatar's humanoid and meta: a required humanoid bone the file doesn't map (retargeting and
//! VRMA motions have nothing to drive), a humanoid bone with a non-positive scale (VRM 1.0 requires positive
//! scale), a bone listed twice, and licence fields absent (VRM 1.0's meta requires `name`, `authors` and
//! `licenseUrl`; VRM 0.x's meta names its licence in `licenseName`).

use super::{Finding, Place, Severity};
use crate::scene::Scene;

fn finding(file: &str, rule: &str, severity: Severity, joint: Option<usize>, message: String) -> Finding {
    let place = Place { joint, ..Default::default() };
    Finding { file: file.to_string(), rule: rule.to_string(), severity, place, message }
}

pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    let Some(vrm) = scene.vrm.as_deref() else { return Vec::new() };
    let mut out = Vec::new();
    let missing = vrm.missing_required();
    if !missing.is_empty() {
        let message = format!(
            "required humanoid bone(s) not mapped to a joint: {}; retargeted motions can't drive them",
            missing.join(", ")
        );
        out.push(finding(file, "vrm.humanoid.missing", Severity::Error, None, message));
    }
    for (i, b) in vrm.humanoid.iter().enumerate() {
        if vrm.humanoid[..i].iter().any(|a| a.name == b.name) {
            let message = format!("humanoid bone {} is listed twice; the first is used", b.name);
            out.push(finding(file, "vrm.humanoid.duplicate", Severity::Warning, b.joint, message));
        }
        let Some(j) = b.joint.filter(|&j| j < scene.skeleton.len()) else { continue };
        let scale = scene.skeleton.joints[j].bind.scale;
        if scale.min_element() <= 0.0 || !scale.is_finite() {
            let message = format!(
                "humanoid bone {} (joint \"{}\") has scale {:?}; VRM asks for positive scale on every bone",
                b.name,
                scene.skeleton.joints[j].name,
                scale.to_array()
            );
            out.push(finding(file, "vrm.humanoid.scale", Severity::Warning, Some(j), message));
        }
    }
    let required: &[&str] =
        if vrm.major == 0 { &["title", "author", "licenseName"] } else { &["name", "authors", "licenseUrl"] };
    let absent: Vec<&str> = required.iter().copied().filter(|k| vrm.meta_value(k).is_none()).collect();
    if !absent.is_empty() {
        let message = format!(
            "meta field(s) {} absent: who made the avatar and under which licence it may be used can't be shown",
            absent.join(", ")
        );
        out.push(finding(file, "vrm.meta.missing", Severity::Warning, None, message));
    }
    out
}
