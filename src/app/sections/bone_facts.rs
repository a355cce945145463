//! What constrains the selected joint (the IK chain it leads or belongs to, the bone it takes a share of
//! motion from) and, for MMD models, the bone's flags, layer and physics, under the joint tree.

use crate::scene::{Scene, bone_flags as f};

/// The facts about joint `j`, as lines under the joint's transforms; nothing for a joint nothing constrains
/// in a model that is not an MMD one.
pub fn show(ui: &mut egui::Ui, scene: &Scene, j: usize, steps: Option<[crate::scene::Transform; 3]>) {
    let mut lines = facts(scene, j);
    lines.extend(steps.as_ref().map(contribution_lines).unwrap_or_default());
    if lines.is_empty() {
        return;
    }
    ui.separator();
    for line in lines {
        ui.label(line);
    }
}

/// What the motion's key, the appends and IK each do to a joint's local transform at the shown frame
/// (`Document::contributions`: key, with appends, as shown), as lines; empty when nothing but the key moves it.
pub fn contribution_lines(steps: &[crate::scene::Transform; 3]) -> Vec<String> {
    let [key, appended, shown] = steps;
    let turn = |from: glam::Quat, to: glam::Quat| {
        let (axis, angle) = (from.inverse() * to).normalize().to_axis_angle();
        let angle = if angle > std::f32::consts::PI { angle - std::f32::consts::TAU } else { angle };
        if angle.abs() < 1e-5 {
            "no turn".to_string()
        } else {
            format!("{:+.2}° about ({:.3}, {:.3}, {:.3})", angle.to_degrees(), axis.x, axis.y, axis.z)
        }
    };
    let moved = |from: glam::Vec3, to: glam::Vec3| {
        let d = to - from;
        if d.length() < 1e-6 { String::new() } else { format!(", moved ({:.4}, {:.4}, {:.4})", d.x, d.y, d.z) }
    };
    vec![
        "At this frame:".to_string(),
        format!("  key: {}", turn(glam::Quat::IDENTITY, key.rotation)),
        format!("  append: {}{}", turn(key.rotation, appended.rotation), moved(key.translation, appended.translation)),
        format!("  IK: {}", turn(appended.rotation, shown.rotation)),
    ]
}

/// The lines [`show`] draws (a function of its own so tests can read them).
pub fn facts(scene: &Scene, j: usize) -> Vec<String> {
    let name = |k: usize| scene.skeleton.display_name(k);
    let c = &scene.constraints;
    let mut out = Vec::new();
    for chain in c.ik.iter().filter(|ch| ch.joint == j) {
        out.push(format!(
            "IK bone: moves {} by {} link(s), {} loops, at most {:.1}° a step",
            name(chain.target),
            chain.links.len(),
            chain.loop_count,
            chain.limit_angle.to_degrees()
        ));
        for l in &chain.links {
            let limits = l.limits.map_or(String::new(), |a| {
                let (lo, hi) = (a.min * 180.0 / std::f32::consts::PI, a.max * 180.0 / std::f32::consts::PI);
                format!(
                    ", limits {:.0}..{:.0}° X, {:.0}..{:.0}° Y, {:.0}..{:.0}° Z",
                    lo.x, hi.x, lo.y, hi.y, lo.z, hi.z
                )
            });
            out.push(format!("  link {}{limits}", name(l.joint)));
        }
    }
    for chain in c.ik.iter().filter(|ch| ch.links.iter().any(|l| l.joint == j)) {
        out.push(format!("Turned by the IK of {} (to bring {} to it)", name(chain.joint), name(chain.target)));
    }
    for chain in c.ik.iter().filter(|ch| ch.target == j) {
        out.push(format!("Effector of the IK of {}", name(chain.joint)));
    }
    for a in c.append.iter().filter(|a| a.joint == j) {
        let what = match (a.rotation, a.translation) {
            (true, true) => "rotation and translation",
            (false, true) => "translation",
            _ => "rotation",
        };
        let local = if a.local { ", local" } else { "" };
        out.push(format!("Takes {:.0}% of {}'s {what}{local}", a.ratio * 100.0, name(a.source)));
    }
    for a in c.append.iter().filter(|a| a.source == j) {
        out.push(format!("Gives {:.0}% of its motion to {}", a.ratio * 100.0, name(a.joint)));
    }
    if let Some(mmd) = &scene.mmd
        && let Some(b) = mmd.bone_of_joint.get(j).and_then(|&i| mmd.bones.get(i))
    {
        let flags: Vec<&str> = [
            (f::ROTATABLE, "rotatable"),
            (f::TRANSLATABLE, "translatable"),
            (f::VISIBLE, "visible"),
            (f::OPERABLE, "operable"),
            (f::IK, "IK"),
            (f::FIXED_AXIS, "fixed axis"),
            (f::LOCAL_AXES, "local axes"),
            (f::AFTER_PHYSICS, "after physics"),
            (f::EXTERNAL_PARENT, "external parent"),
        ]
        .iter()
        .filter(|(bit, _)| b.flags & bit != 0)
        .map(|(_, word)| *word)
        .collect();
        let english = if b.name_en.is_empty() { String::new() } else { format!(" ({})", b.name_en) };
        out.push(format!("MMD bone {}{english}: {}; deform layer {}", b.name, flags.join(", "), b.layer));
        if let Some(kind) = b.pmd_kind {
            out.push(format!("PMD bone kind {kind}"));
        }
        let bodies = mmd
            .rigid_bodies
            .iter()
            .filter(|r| r.bone.is_some_and(|rb| mmd.bones.get(rb).is_some_and(|x| x.joint == j)))
            .count();
        if bodies > 0 {
            out.push(format!("{bodies} rigid bod{} on this bone (Physics tab)", if bodies == 1 { "y" } else { "ies" }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pmx_sample_bone_lists_its_ik_append_and_flags() {
        let doc = crate::formats::pmx::write::sample_document(crate::scene::MmdEncoding::Utf8, 2);
        let scene = crate::load_bytes("sample.pmx", &doc.to_bytes()).unwrap();
        let joint = |n: &str| scene.skeleton.find(n).unwrap();
        let ik = facts(&scene, joint("ik"));
        assert!(ik[0].starts_with("IK bone: moves axes by 2 link(s), 40 loops"), "{ik:?}");
        assert!(ik.iter().any(|l| l.starts_with("  link child, limits -172..-1° X")), "{ik:?}");
        let append = facts(&scene, joint("append"));
        assert!(append.contains(&"Takes 50% of child's rotation and translation, local".to_string()), "{append:?}");
        let child = facts(&scene, joint("child"));
        assert!(child.contains(&"Turned by the IK of ik (to bring axes to it)".to_string()), "{child:?}");
        assert!(child.contains(&"Gives 50% of its motion to append".to_string()), "{child:?}");
        assert!(
            child.iter().any(|l| l.starts_with("MMD bone child (child_en): rotatable, visible, operable")),
            "{child:?}"
        );
        assert!(child.iter().any(|l| l == "1 rigid body on this bone (Physics tab)"), "{child:?}");
    }
}
