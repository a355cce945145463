//! Checks on an MVD's light, project, accessory and effect keys whose values the reader keeps but nothing can
//! use: a light with no direction, a gravity with no direction or no number (left out of the physics), a
//! self-shadow model MikuMikuMoving doesn't have, an opacity outside 0–1 and a scale that isn't a size. Sizes,
//! minors and effect parameter types are the reader's own warnings (`mvd.section.size`, `mvd.minor`,
//! `mvd.effect.parameter`); an undersized section is the reader's error (`mvd.unreadable`).

use glam::Vec3;

use super::{Finding, Place, Severity};
use crate::scene::{MvdAccessoryKey, MvdObject, Scene};

fn finding(file: &str, rule: &str, offset: u64, message: String) -> Finding {
    let place = Place { offset: Some(offset), ..Default::default() };
    Finding { file: file.to_string(), rule: rule.to_string(), severity: Severity::Warning, place, message }
}

pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    let Some(mvd) = scene.mvd.as_deref() else { return Vec::new() };
    let mut out = Vec::new();
    for o in &mvd.objects {
        object(file, o, &mut out);
    }
    out
}

fn object(file: &str, o: &MvdObject, out: &mut Vec<Finding>) {
    let name = &o.name;
    for k in &o.lights {
        if Vec3::from_array(k.position).try_normalize().is_none() {
            let message =
                format!("object \"{name}\": light key at tick {}: direction {:?} has no direction", k.time, k.position);
            out.push(finding(file, "mvd.light.direction", k.offset, message));
        }
    }
    for k in &o.project {
        if k.gravity.is_some() && k.acceleration().is_none() {
            let message = format!(
                "object \"{name}\": project key at tick {}: gravity {:?} along {:?} is not an acceleration; the \
                 physics keeps the gravity in force before it",
                k.time,
                k.gravity.unwrap_or_default(),
                k.gravity_vector.unwrap_or_default()
            );
            out.push(finding(file, "mvd.project.gravity", k.offset, message));
        }
        if !(0..=1).contains(&k.shadow_model) {
            let message = format!(
                "object \"{name}\": project key at tick {}: self-shadow model {}: expected 0 (none) or 1 (depth \
                 shadow); read as 1",
                k.time, k.shadow_model
            );
            out.push(finding(file, "mvd.project.shadow", k.offset, message));
        }
    }
    let heads = o.accessory.iter().map(|k| ("accessory", k));
    let heads = heads.chain(o.effects.iter().flat_map(|e| e.keys.iter().map(|k| ("effect", &k.head))));
    for (what, k) in heads {
        property(file, name, what, k, out);
    }
}

/// An accessory or effect key's opacity and scale.
fn property(file: &str, name: &str, what: &str, k: &MvdAccessoryKey, out: &mut Vec<Finding>) {
    if !(0.0..=1.0).contains(&k.alpha) {
        let message = format!("object \"{name}\": {what} key at tick {}: opacity {}: expected 0 to 1", k.time, k.alpha);
        out.push(finding(file, "mvd.property.alpha", k.offset, message));
    }
    if !(k.scale.is_finite() && k.scale >= 0.0) {
        let message =
            format!("object \"{name}\": {what} key at tick {}: scale {}: expected 0 or more", k.time, k.scale);
        out.push(finding(file, "mvd.property.scale", k.offset, message));
    }
}
