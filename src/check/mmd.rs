//! Checks on a PMX/PMD model's rig and morphs: weights that don't sum to 1, IK links that are not an ancestor chain, cyclic append relations, group morphs that contain
//! themselves, duplicate bone and morph names. Index ranges are the readers' own warnings.

use std::collections::HashMap;

use super::{Finding, Place, Severity};
use crate::scene::{MorphKind, Scene};

fn finding(file: &str, rule: &str, place: Place, message: String) -> Finding {
    Finding { file: file.to_string(), rule: rule.to_string(), severity: Severity::Warning, place, message }
}

pub fn check(file: &str, scene: &Scene) -> Vec<Finding> {
    let Some(mmd) = scene.mmd.as_deref() else { return Vec::new() };
    let mut out = Vec::new();
    let sk = &scene.skeleton;

    if let Some(weights) = &scene.vertices.weights {
        let off: Vec<usize> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| (w.iter().sum::<f32>() - 1.0).abs() > 1e-3)
            .map(|(i, _)| i)
            .collect();
        if let Some(&first) = off.first() {
            out.push(finding(
                file,
                "mmd.weights.sum",
                Place { vertex: Some(first), ..Default::default() },
                format!(
                    "{} vertices have weights that don't sum to 1 (first: vertex {first}, {:?})",
                    off.len(),
                    weights[first]
                ),
            ));
        }
    }
    // IK: the first link is an ancestor of the target, each next link an ancestor of the one before.
    let is_ancestor = |a: usize, mut j: usize| {
        while let Some(p) = sk.joints.get(j).and_then(|x| x.parent) {
            if p == a {
                return true;
            }
            j = p;
        }
        false
    };
    for chain in &scene.constraints.ik {
        let mut below = chain.target;
        for (k, link) in chain.links.iter().enumerate() {
            if !is_ancestor(link.joint, below) {
                out.push(finding(
                    file,
                    "mmd.ik.chain",
                    Place { joint: Some(chain.joint), ..Default::default() },
                    format!(
                        "IK \"{}\": link {k} \"{}\" is not an ancestor of \"{}\"",
                        sk.display_name(chain.joint),
                        sk.display_name(link.joint),
                        sk.display_name(below)
                    ),
                ));
                break;
            }
            below = link.joint;
        }
    }

    // Append relations that lead back to where they started.
    let source: HashMap<usize, usize> = scene.constraints.append.iter().map(|a| (a.joint, a.source)).collect();
    let mut reported = vec![false; sk.len()];
    for a in &scene.constraints.append {
        let mut j = a.source;
        let mut steps = 0;
        while let Some(&s) = source.get(&j) {
            if j == a.joint || steps > source.len() {
                break;
            }
            j = s;
            steps += 1;
        }
        if j == a.joint && !reported.get(a.joint).copied().unwrap_or(true) {
            reported[a.joint] = true;
            out.push(finding(
                file,
                "mmd.append.cycle",
                Place { joint: Some(a.joint), ..Default::default() },
                format!("bone \"{}\": its append sources lead back to it", sk.display_name(a.joint)),
            ));
        }
    }

    // Group morphs that contain themselves, directly or through other groups.
    for (i, m) in scene.morphs.iter().enumerate() {
        let mut stack: Vec<usize> = group_members(&scene.morphs[i].kind);
        let mut seen = vec![false; scene.morphs.len()];
        let mut cyclic = false;
        while let Some(g) = stack.pop() {
            if g == i {
                cyclic = true;
                break;
            }
            if g < seen.len() && !seen[g] {
                seen[g] = true;
                stack.extend(group_members(&scene.morphs[g].kind));
            }
        }
        if cyclic {
            out.push(finding(
                file,
                "mmd.morph.group_self",
                Place::default(),
                format!("group morph {i} \"{}\" contains itself", m.name),
            ));
        }
    }

    // Duplicate names: a motion addresses bones and morphs by name.
    let mut dup = |rule: &str, what: &str, names: Vec<&str>| {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for n in &names {
            *count.entry(n).or_default() += 1;
        }
        let mut d: Vec<(&str, usize)> = count.into_iter().filter(|&(_, c)| c > 1).collect();
        d.sort();
        for (n, c) in d {
            out.push(finding(
                file,
                rule,
                Place::default(),
                format!("{c} {what}s are named \"{n}\"; a motion drives only one"),
            ));
        }
    };
    dup("mmd.bone.duplicate_name", "bone", mmd.bones.iter().map(|b| b.name.as_str()).collect());
    dup("mmd.morph.duplicate_name", "morph", scene.morphs.iter().map(|m| m.name.as_str()).collect());
    out
}

fn group_members(kind: &MorphKind) -> Vec<usize> {
    match kind {
        MorphKind::Group(v) => v.iter().map(|w| w.morph).collect(),
        _ => Vec::new(),
    }
}
