//! What changed between two exports of one asset (`rigscope diff`): geometry counts, meshes and materials by
//! name, the skeleton (joints added, removed, renamed, re-parented, bind pose moved), clips (added, removed,
//! length or rate), and per clip and joint the largest change of world position and rotation over the clip's
//! frames, the largest skinned-vertex change, and stored bounds that changed. Joints and clips match by name;
//! the files may be in any formats rigscope reads (an IQM against its IQE). Vertices pair by index when the
//! bind poses agree index by index, else by content ([`super::vertex_match`]): a converter's own order and
//! welding is no difference, a vertex with no counterpart is.

use glam::Mat4;
use serde::Serialize;

use super::vertex_match::{Unmatched, match_vertices};
use crate::anim::{Pose, morphed_vertices, skin_positions};
use crate::scene::{Clip, Scene};

/// What counts as a change.
#[derive(Debug, Clone, Copy)]
pub struct DiffOptions {
    /// Positions (model units) and bounds closer than this are equal.
    pub tolerance: f32,
    /// Rotations closer than this (degrees) are equal.
    pub angle_tolerance: f32,
    /// Frame rate for clips whose file stores none.
    pub default_fps: f32,
    /// Skinned vertices are compared only while vertices × frames stays under this (the rest is said).
    pub skin_budget: u64,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            tolerance: 1e-4,
            angle_tolerance: 0.01,
            default_fps: crate::scene::DEFAULT_FPS,
            skin_budget: 50_000_000,
        }
    }
}

/// The largest change of one joint's world transform over a clip.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct JointChange {
    pub clip: String,
    pub joint: String,
    /// Largest distance between the two world positions, and the frame where it is.
    pub position: f32,
    pub position_frame: u32,
    /// Largest angle (degrees) between the two world rotations, and the frame where it is.
    pub rotation: f32,
    pub rotation_frame: u32,
}

/// The largest skinned-vertex change over a clip.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SkinChange {
    pub clip: String,
    pub distance: f32,
    /// OLD's vertex, and its counterpart in NEW (the same index unless the vertices were paired by content).
    pub vertex: usize,
    pub new_vertex: usize,
    pub frame: u32,
}

/// How the vertices paired when their order (or number) differs: by content, within each mesh.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Reordered {
    pub old_vertices: usize,
    pub new_vertices: usize,
    /// Vertices of OLD that share their counterpart with another vertex of OLD (welded in NEW), and the other
    /// way round.
    pub welded_old: usize,
    pub welded_new: usize,
    /// Vertices with no counterpart in the other file: the only vertex differences.
    pub unmatched_old: usize,
    pub unmatched_new: usize,
    /// Of those, the ones no triangle uses (a glTF export drops them).
    pub unmatched_loose_old: usize,
    pub unmatched_loose_new: usize,
    /// Of those, the one farthest from the nearest vertex of the other file (one a triangle uses first).
    pub worst: Option<Unmatched>,
}

/// Everything `diff` found; `changes` are the lines of the text report, in order.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Diff {
    pub old: String,
    pub new: String,
    /// One line per change of geometry, materials, skeleton, clips, skinning or bounds.
    pub changes: Vec<String>,
    /// Joints whose world transform moved beyond the tolerance, largest first.
    pub joints: Vec<JointChange>,
    pub skinning: Vec<SkinChange>,
    /// What was not compared, and why (over the budget).
    pub skipped: Vec<String>,
    /// Set when the vertices were paired by content because their order differs.
    pub reordered: Option<Reordered>,
    /// Facts that are no difference (vertices reordered or welded), first in the text report.
    pub notes: Vec<String>,
}

impl Diff {
    /// Equal within the tolerance.
    pub fn equal(&self) -> bool {
        self.changes.is_empty() && self.joints.is_empty() && self.skinning.is_empty()
    }
}

/// Compares `old` (named `old_name`) with `new`.
pub fn diff(old: &Scene, old_name: &str, new: &Scene, new_name: &str, o: &DiffOptions) -> Diff {
    let mut d = Diff { old: old_name.to_string(), new: new_name.to_string(), ..Diff::default() };
    let pairs = vertices(old, new, o, &mut d);
    geometry(old, new, &mut d.changes);
    skeleton(old, new, o, &mut d.changes);
    clips(old, new, o, &pairs, &mut d);
    // Largest first; equal changes (a joint and the children it carries) keep skeleton order, parents first.
    let size = |j: &JointChange| {
        ((j.position / o.tolerance.max(1e-9)).round(), (j.rotation / o.angle_tolerance.max(1e-9)).round())
    };
    d.joints.sort_by(|a, b| {
        let (x, y) = (size(a), size(b));
        y.0.total_cmp(&x.0).then(y.1.total_cmp(&x.1))
    });
    d
}

/// The angle between two rotations in degrees, precise near 0 (where `2·acos(dot)` loses digits).
fn angle(a: glam::Quat, b: glam::Quat) -> f32 {
    let d = a.inverse() * b;
    (2.0 * d.xyz().length().atan2(d.w.abs())).to_degrees()
}

fn count(what: &str, a: usize, b: usize, out: &mut Vec<String>) {
    if a != b {
        out.push(format!("{what}: {a} → {b}"));
    }
}

/// Pairs the vertices of OLD and NEW, by index when their bind poses agree index by index, else by content, and
/// reports the vertices left without a counterpart. Returns the (OLD, NEW) pairs whose skinned vertices the
/// clips compare; none when either file has no vertices.
fn vertices(old: &Scene, new: &Scene, o: &DiffOptions, d: &mut Diff) -> Vec<(u32, u32)> {
    let (na, nb) = (old.vertices.len(), new.vertices.len());
    if na == 0 || nb == 0 {
        count("vertices", na, nb, &mut d.changes);
        return Vec::new();
    }
    let (p, q) = (&old.vertices.positions, &new.vertices.positions);
    if na == nb && p.iter().zip(q).all(|(p, q)| p.distance(*q) <= o.tolerance) {
        return (0..na as u32).map(|i| (i, i)).collect();
    }
    let m = match_vertices(old, new, o.tolerance);
    let r = Reordered {
        old_vertices: na,
        new_vertices: nb,
        welded_old: m.welded_old(),
        welded_new: m.welded_new(),
        unmatched_old: m.unmatched_old(),
        unmatched_new: m.unmatched_new(),
        unmatched_loose_old: m.loose_unmatched[0],
        unmatched_loose_new: m.loose_unmatched[1],
        worst: m.worst.clone(),
    };
    let welded = match (r.welded_old, r.welded_new) {
        (0, 0) => String::new(),
        (a, 0) => format!("; {a} of OLD's welded into others"),
        (0, b) => format!("; {b} of NEW's welded into others"),
        (a, b) => format!("; {a} of OLD's and {b} of NEW's welded into others"),
    };
    if m.complete() {
        d.notes.push(format!(
            "same geometry, vertices reordered/welded: {na} → {nb} vertices, each matched by content within its mesh{welded}"
        ));
    } else {
        count("vertices", na, nb, &mut d.changes);
        let drawn = (r.unmatched_old - r.unmatched_loose_old, r.unmatched_new - r.unmatched_loose_new);
        if drawn != (0, 0) {
            d.changes.push(format!(
                "bind-pose vertices without a counterpart (paired by content within each mesh, as the order differs{welded}): \
                 {} of OLD's {na}, {} of NEW's {nb}{}",
                drawn.0,
                drawn.1,
                r.worst.as_ref().map_or(String::new(), farthest)
            ));
        }
        if (r.unmatched_loose_old, r.unmatched_loose_new) != (0, 0) {
            d.changes.push(format!(
                "vertices no triangle uses without a counterpart: {} of OLD's, {} of NEW's",
                r.unmatched_loose_old, r.unmatched_loose_new
            ));
        }
    }
    d.reordered = Some(r);
    m.pairs()
}

/// "; the farthest, OLD's vertex 469 (mesh "pad"), is 0.5000 from NEW's vertex 12, whose uv differ".
fn farthest(u: &Unmatched) -> String {
    let (this, other) = if u.file == "old" { ("OLD", "NEW") } else { ("NEW", "OLD") };
    let mesh = u.mesh.as_ref().map_or("in no triangle".to_string(), |m| format!("mesh \"{m}\""));
    let mut s = format!("; the farthest, {this}'s vertex {} ({mesh}), ", u.vertex);
    match (u.nearest, u.distance) {
        (Some(n), Some(dist)) => s += &format!("is {dist:.4} from {other}'s vertex {n}"),
        _ => s += &format!("has no vertex of {other} to measure from"),
    }
    if !u.differs.is_empty() {
        s += &format!(", whose {} differ", u.differs.join(" and "));
    }
    s
}

fn geometry(old: &Scene, new: &Scene, out: &mut Vec<String>) {
    count("triangles", old.triangles.len(), new.triangles.len(), out);
    count("meshes", old.meshes.len(), new.meshes.len(), out);
    count("materials", old.materials.len(), new.materials.len(), out);
    // Meshes match by name and, among meshes of one name (an exporter's "GunLowPoly" per material), by order.
    for (i, m) in old.meshes.iter().enumerate() {
        match find(&new.meshes, &m.name, nth(&old.meshes, i)) {
            None => out.push(format!("mesh \"{}\" removed", m.name)),
            Some(n) if n.num_triangles != m.num_triangles => {
                out.push(format!("mesh \"{}\": {} → {} triangles", m.name, m.num_triangles, n.num_triangles))
            }
            Some(_) => {}
        }
    }
    for (i, m) in new.meshes.iter().enumerate() {
        if find(&old.meshes, &m.name, nth(&new.meshes, i)).is_none() {
            out.push(format!("mesh \"{}\" added ({} triangles)", m.name, m.num_triangles));
        }
    }
    for m in &old.materials {
        match new.materials.iter().find(|n| n.name == m.name) {
            None => out.push(format!("material \"{}\" removed", m.name)),
            Some(n) if n.texture != m.texture => out.push(format!(
                "material \"{}\": texture {:?} → {:?}",
                m.name,
                m.texture.as_deref().unwrap_or(""),
                n.texture.as_deref().unwrap_or("")
            )),
            Some(_) => {}
        }
    }
    for m in new.materials.iter().filter(|m| !old.materials.iter().any(|o| o.name == m.name)) {
        out.push(format!("material \"{}\" added", m.name));
    }
}

fn skeleton(old: &Scene, new: &Scene, o: &DiffOptions, out: &mut Vec<String>) {
    let (a, b) = (&old.skeleton, &new.skeleton);
    count("joints", a.len(), b.len(), out);
    let parent = |s: &crate::scene::Skeleton, i: usize| s.joints[i].parent.map(|p| s.display_name(p));
    let removed: Vec<usize> = (0..a.len()).filter(|&i| b.counterpart(a, i).is_none()).collect();
    let added: Vec<usize> = (0..b.len()).filter(|&i| a.counterpart(b, i).is_none()).collect();
    // A joint gone from one index and another come at the same index, under the same parent: a rename.
    let mut renamed = Vec::new();
    for &i in &removed {
        if added.contains(&i) && parent(a, i) == parent(b, i) {
            renamed.push(i);
            out.push(format!("joint #{i} renamed \"{}\" → \"{}\"", a.display_name(i), b.display_name(i)));
        }
    }
    for &i in removed.iter().filter(|i| !renamed.contains(i)) {
        out.push(format!("joint \"{}\" removed", a.display_name(i)));
    }
    for &i in added.iter().filter(|i| !renamed.contains(i)) {
        let p = parent(b, i).map_or("a root".to_string(), |p| format!("under \"{p}\""));
        out.push(format!("joint \"{}\" added ({p})", b.display_name(i)));
    }
    for (i, j) in a.joints.iter().enumerate() {
        let Some(k) = b.counterpart(a, i).or_else(|| renamed.contains(&i).then_some(i)) else { continue };
        let (pa, pb) = (parent(a, i), parent(b, k));
        if pa != pb && !renamed.contains(&i) {
            let name = |p: Option<String>| p.map_or("none".to_string(), |p| format!("\"{p}\""));
            out.push(format!("joint \"{}\" re-parented: {} → {}", j.name, name(pa), name(pb)));
        }
        let (ta, tb) = (j.bind, b.joints[k].bind);
        let moved = ta.translation.distance(tb.translation);
        let turned = angle(ta.rotation, tb.rotation);
        if moved > o.tolerance || turned > o.angle_tolerance || (ta.scale - tb.scale).abs().max_element() > o.tolerance
        {
            out.push(format!("joint \"{}\" bind pose moved {moved:.4}, turned {turned:.3}°", j.name));
        }
    }
}

fn clips(old: &Scene, new: &Scene, o: &DiffOptions, pairs: &[(u32, u32)], d: &mut Diff) {
    for c in &old.clips {
        let Some(n) = new.clips.iter().find(|n| n.name == c.name) else {
            d.changes.push(format!("clip \"{}\" removed", c.name));
            continue;
        };
        if c.frame_count != n.frame_count {
            d.changes.push(format!("clip \"{}\": {} → {} frames", c.name, c.frame_count, n.frame_count));
        }
        let (ra, rb) = (c.fps(o.default_fps), n.fps(o.default_fps));
        if (ra - rb).abs() > 1e-3 {
            d.changes.push(format!("clip \"{}\": {ra} → {rb} frames per second", c.name));
        }
        motion(old, c, new, n, o, pairs, d);
    }
    for n in new.clips.iter().filter(|n| !old.clips.iter().any(|c| c.name == n.name)) {
        d.changes.push(format!("clip \"{}\" added ({} frames)", n.name, n.frame_count));
    }
}

/// Frame by frame over the frames both clips have: world transforms of the joints both skeletons name, the
/// skinned vertices of the vertex pairs (within the budget), stored bounds when both have them.
/// Skinned vertices are compared to the tolerance, but never finer than 16 steps of an f32 at the model's
/// largest coordinate: two files that store the same bind chain round its rotations apart by an f32 step or so
/// (an IQE's decimals against the reference converter's IQM), and skinning carries that out to the vertices, up
/// to 8 steps on the corpus medistat 140 units from its origin. Below that scale nothing a file stores differs.
fn skin_tolerance(old: &Scene, o: &DiffOptions) -> f32 {
    let reach =
        old.vertices.positions.iter().map(|p| p.abs().max_element()).filter(|r| r.is_finite()).fold(0.0, f32::max);
    o.tolerance.max(16.0 * f32::EPSILON * reach)
}

fn motion(old: &Scene, a: &Clip, new: &Scene, b: &Clip, o: &DiffOptions, vertex_pairs: &[(u32, u32)], d: &mut Diff) {
    let frames = a.frame_count.min(b.frame_count).max(1);
    let pairs: Vec<(usize, usize)> =
        (0..old.skeleton.len()).filter_map(|i| Some((i, new.skeleton.counterpart(&old.skeleton, i)?))).collect();
    let nv = old.vertices.len().max(new.vertices.len());
    let skin = !vertex_pairs.is_empty() && (nv as u64).saturating_mul(u64::from(frames)) <= o.skin_budget;
    if !vertex_pairs.is_empty() && !skin {
        d.skipped.push(format!(
            "clip \"{}\": skinned vertices not compared ({nv} × {frames} frames is over the budget)",
            a.name
        ));
    }
    let mut best: Vec<(f32, u32, f32, u32)> = vec![(0.0, 0, 0.0, 0); pairs.len()];
    let mut worst_skin = SkinChange { clip: a.name.clone(), distance: 0.0, vertex: 0, new_vertex: 0, frame: 0 };
    let mut bounds_changed = (0u32, 0.0f32, 0u32);
    let (mut pa, mut pb) = (Pose::default(), Pose::default());
    // Posed as the viewer poses them: constraints (IK, appends) and morphs included, so an export that bakes
    // them compares equal to its source.
    for f in 0..frames {
        pa.update_scene(old, Some(a), f as f32, o.default_fps, &[]);
        pb.update_scene(new, Some(b), f as f32, o.default_fps, &[]);
        for (k, &(i, j)) in pairs.iter().enumerate() {
            let (wa, wb): (Mat4, Mat4) = (pa.world[i], pb.world[j]);
            let moved = wa.w_axis.truncate().distance(wb.w_axis.truncate());
            let (_, ra, _) = wa.to_scale_rotation_translation();
            let (_, rb, _) = wb.to_scale_rotation_translation();
            let turned = angle(ra, rb);
            if moved > best[k].0 {
                best[k].0 = moved;
                best[k].1 = f;
            }
            if turned.is_finite() && turned > best[k].2 {
                best[k].2 = turned;
                best[k].3 = f;
            }
        }
        if skin {
            let (ma, mb) = (morphed_vertices(old, &pa.morphs), morphed_vertices(new, &pb.morphs));
            let (va, vb) = (skin_positions(&ma, &pa.palette), skin_positions(&mb, &pb.palette));
            for &(i, j) in vertex_pairs {
                let dist = va[i as usize].distance(vb[j as usize]);
                if dist > worst_skin.distance {
                    let (vertex, new_vertex) = (i as usize, j as usize);
                    worst_skin = SkinChange { clip: a.name.clone(), distance: dist, vertex, new_vertex, frame: f };
                }
            }
        }
        if let (Some(x), Some(y)) = (a.stored_bounds_at(f as f32), b.stored_bounds_at(f as f32)) {
            let off = x.min.distance(y.min).max(x.max.distance(y.max));
            if off > o.tolerance {
                bounds_changed.0 += 1;
                if off > bounds_changed.1 {
                    (bounds_changed.1, bounds_changed.2) = (off, f);
                }
            }
        }
    }
    for (k, &(i, _)) in pairs.iter().enumerate() {
        let (moved, mf, turned, tf) = best[k];
        if moved > o.tolerance || turned > o.angle_tolerance {
            d.joints.push(JointChange {
                clip: a.name.clone(),
                joint: old.skeleton.display_name(i),
                position: moved,
                position_frame: mf,
                rotation: turned,
                rotation_frame: tf,
            });
        }
    }
    if worst_skin.distance > skin_tolerance(old, o) {
        d.skinning.push(worst_skin);
    }
    if bounds_changed.0 > 0 {
        d.changes.push(format!(
            "clip \"{}\": stored bounds changed at {} frame(s), most ({:.4}) at frame {}",
            a.name, bounds_changed.0, bounds_changed.1, bounds_changed.2
        ));
    }
}

/// The text report: what changed, the joints that moved (largest first, at most `limit`), and what was skipped.
pub fn text(d: &Diff, limit: usize) -> String {
    use std::fmt::Write;
    let mut s = format!("{} → {}\n", d.old, d.new);
    for n in &d.notes {
        let _ = writeln!(s, "  {n}");
    }
    for c in &d.changes {
        let _ = writeln!(s, "  {c}");
    }
    for j in d.joints.iter().take(limit) {
        let _ = writeln!(
            s,
            "  clip \"{}\": joint \"{}\" moved up to {:.4} (frame {}), turned up to {:.3}° (frame {})",
            j.clip, j.joint, j.position, j.position_frame, j.rotation, j.rotation_frame
        );
    }
    if d.joints.len() > limit {
        let _ = writeln!(s, "  … and {} more joints (--json lists all)", d.joints.len() - limit);
    }
    for k in &d.skinning {
        let other = if k.new_vertex == k.vertex { String::new() } else { format!(" (NEW's {})", k.new_vertex) };
        let _ = writeln!(
            s,
            "  clip \"{}\": skinned vertex {}{other} moved up to {:.4} (frame {})",
            k.clip, k.vertex, k.distance, k.frame
        );
    }
    for k in &d.skipped {
        let _ = writeln!(s, "  (not compared: {k})");
    }
    if d.equal() {
        s.push_str("  equal within the tolerance\n");
    }
    s
}

/// How many meshes before `meshes[i]` share its name.
fn nth(meshes: &[crate::scene::Mesh], i: usize) -> usize {
    meshes[..i].iter().filter(|m| m.name == meshes[i].name).count()
}

/// The `k`-th mesh named `name`.
fn find<'a>(meshes: &'a [crate::scene::Mesh], name: &str, k: usize) -> Option<&'a crate::scene::Mesh> {
    meshes.iter().filter(|m| m.name == name).nth(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::ClipData;
    use glam::Vec3;

    fn synth() -> Scene {
        crate::load_bytes(
            "a.iqm",
            &crate::synth::iqm_bytes(crate::synth::SynthSpec { vertices: 64, joints: 6, frames: 20 }),
        )
        .unwrap()
    }

    #[test]
    fn a_scene_equals_itself() {
        let s = synth();
        let d = diff(&s, "a", &s, "a", &DiffOptions::default());
        assert!(d.equal(), "{d:?}");
        assert!(text(&d, 10).contains("equal within the tolerance"));
    }

    #[test]
    fn a_joint_moved_at_one_frame_is_named_with_that_frame() {
        let a = synth();
        let mut b = a.clone();
        let joints = b.skeleton.len();
        let ClipData::Sampled { frames, .. } = &mut b.clips[0].data else { panic!("sampled") };
        frames[12 * joints + 3].translation += Vec3::new(0.0, 0.5, 0.0);
        let d = diff(&a, "a", &b, "b", &DiffOptions::default());
        let first = &d.joints[0];
        assert_eq!((first.joint.as_str(), first.position_frame), (b.skeleton.display_name(3).as_str(), 12));
        assert!((first.position - 0.5).abs() < 1e-3, "{first:?}");
        assert_eq!(d.skinning.first().map(|s| s.frame), Some(12), "{:?}", d.skinning);
        assert!(!d.equal());
    }

    #[test]
    fn skeleton_and_clip_changes_are_named() {
        let a = synth();
        let mut b = a.clone();
        b.skeleton.joints[2].name = "renamed".into();
        b.clips[0].name = "other".into();
        b.meshes[0].num_triangles -= 1;
        let d = diff(&a, "a", &b, "b", &DiffOptions::default());
        let all = d.changes.join("\n");
        assert!(all.contains(&format!("joint #2 renamed \"{}\" → \"renamed\"", a.skeleton.display_name(2))), "{all}");
        assert!(all.contains(&format!("clip \"{}\" removed", a.clips[0].name)), "{all}");
        assert!(all.contains("clip \"other\" added"), "{all}");
        assert!(all.contains("triangles"), "{all}");
    }
}
