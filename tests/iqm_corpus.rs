//! Every corpus IQM loads (or fails clearly), never panics on a prefix, and skins to its stored bounds.

mod common;

use common::{corpus, corpus_files, read};
use rigscope::anim::{Pose, attach, skinned_bounds};
use rigscope::scene::{DEFAULT_FPS, FrameBounds};

#[test]
fn every_corpus_iqm_loads_or_fails_clearly() {
    for p in corpus_files("iqm", &["iqm"]) {
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let result = rigscope::load_path(&p);
        if name == "assimp_InvalidMeshOffset.iqm" {
            let e = result.expect_err("the assimp invalid-offset file must fail");
            let msg = e.to_string();
            assert!(msg.contains("meshes") && msg.contains("past end of file"), "{msg}");
            assert!(msg.contains(&name), "error names the file: {msg}");
        } else {
            let s = result.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!s.skeleton.is_empty() || !s.vertices.is_empty(), "{name} loaded empty");
        }
    }
}

#[test]
fn corpus_facts_from_the_notes() {
    let s = rigscope::load_path(&corpus("iqm/lsalzman_mrfixit.iqm")).unwrap();
    assert_eq!((s.meshes.len(), s.vertices.len(), s.triangles.len(), s.skeleton.len()), (2, 1861, 2988, 75));
    assert_eq!(s.skeleton.joints.iter().filter(|j| j.parent.is_none()).count(), 3);
    assert_eq!(s.clips.len(), 1);
    assert_eq!((s.clips[0].name.as_str(), s.clips[0].frame_count, s.clips[0].frame_rate), ("idle", 101, 24.0));
    assert!(s.adjacency.is_some());
    let materials: Vec<_> = s.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(materials, ["Body.tga", "Head.tga"]);

    let guy = rigscope::load_path(&corpus("iqm/raylib_guy.iqm")).unwrap();
    let clips: Vec<_> = guy.clips.iter().map(|c| (c.name.as_str(), c.first_frame, c.frame_count)).collect();
    assert_eq!(clips, [("jump", 0, 61), ("dance", 61, 61)]);

    let rifle = rigscope::load_path(&corpus("iqm/redeclipse_rifle.iqm")).unwrap();
    assert_eq!((rifle.meshes.len(), rifle.vertices.len(), rifle.triangles.len()), (9, 16709, 12830));
    assert_eq!((rifle.skeleton.len(), rifle.clips.len()), (6, 0));

    let dead = rigscope::load_path(&corpus("iqm/redeclipse_player_dead.iqm")).unwrap();
    assert_eq!(dead.skeleton.len(), 78);
    assert!(!dead.skeleton.has_bind_pose && !dead.skeleton.is_named());
    assert_eq!(dead.clips[0].frame_count, 2);
    assert!(!dead.clips[0].has_stored_fps());
    let rules: Vec<_> = dead.meta.warnings.iter().map(|w| w.rule).collect();
    assert!(rules.contains(&"iqm.align"), "poses at 130 are unaligned: {rules:?}");
    assert!(rules.contains(&"iqm.framerate.zero"), "{rules:?}");
}

/// Every prefix of every corpus file gives Ok or Err, never a panic. Every prefix is tried as cut; the
/// header's size check stops most of them early, so prefixes are tried again with the header's filesize
/// patched to the cut length, letting the parser reach each section cut short: at every byte around each
/// section's start and end, and at evenly spaced cuts in between.
#[test]
fn truncation_sweep_never_panics() {
    for p in corpus_files("iqm", &["iqm"]) {
        let data = read(&p);
        for len in 0..data.len() {
            let _ = rigscope::load_bytes("t.iqm", &data[..len]);
        }
        for len in patched_cuts(&data) {
            let mut buf = data[..len].to_vec();
            buf[20..24].copy_from_slice(&(len as u32).to_le_bytes());
            if let Err(e) = rigscope::load_bytes("t.iqm", &buf) {
                assert!(!e.message.is_empty());
            }
        }
    }
}

/// Cut points for the patched sweep: a few bytes either side of every section boundary the header names,
/// plus 1500 evenly spaced cuts.
fn patched_cuts(data: &[u8]) -> Vec<usize> {
    let u32_at = |i: usize| u32::from_le_bytes(data[i..i + 4].try_into().unwrap()) as usize;
    let field = |i: usize| u32_at(16 + 4 * i);
    // (offset field, count field or None for num_frames-style, record size)
    let sections = [
        (4, field(3), 1),
        (6, field(5), 24),
        (9, field(7), 20),
        (11, field(10), 12),
        (12, field(10), 12),
        (14, field(13), 48),
        (16, field(15), 88),
        (18, field(17), 20),
        (21, field(19) * field(20), 2),
        (22, field(19), 32),
        (24, field(23), 1),
    ];
    let mut cuts: Vec<usize> = (124..data.len()).step_by((data.len() / 1500).max(1)).collect();
    for (ofs_field, count, size) in sections {
        let start = field(ofs_field);
        for edge in [start, start.saturating_add(count.saturating_mul(size))] {
            cuts.extend(edge.saturating_sub(3)..edge.saturating_add(4));
        }
    }
    cuts.retain(|&c| (124..data.len()).contains(&c));
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

/// Skinning at frame k reproduces the bounds the exporter stored for frame k, within 1e-3 of the model's
/// size, on every corpus file that stores bounds: this checks joints, frames, interpolation-free sampling,
/// inverse bind matrices and skinning together.
#[test]
fn skinning_reproduces_stored_bounds() {
    let mut checked = 0;
    for p in corpus_files("iqm", &["iqm"]) {
        let Ok(s) = rigscope::load_path(&p) else { continue };
        for clip in s.clips.iter().filter(|c| c.bounds.is_some()) {
            let stored = clip.bounds.as_ref().unwrap();
            let size = stored.iter().skip(1).fold(stored[0], |a, b| a.union(b)).diagonal();
            let mut pose = Pose::default();
            for (k, b) in stored.iter().enumerate() {
                pose.update(&s.skeleton, clip, k as f32, DEFAULT_FPS);
                let got = skinned_bounds(&s.vertices, &pose.palette).unwrap();
                let err = (got.min - b.min).abs().max((got.max - b.max).abs()).max_element();
                assert!(
                    err <= 1e-3 * size,
                    "{} \"{}\" frame {k}: skinned bounds {got:?} vs stored {b:?} (error {err}, size {size})",
                    p.display(),
                    clip.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 101 + 122 + 350, "checked {checked} frames");
}

/// raylib's animation-only guyanim.iqm has unnamed poses; it attaches to guy.iqm by index because the joint
/// count and parents agree, and then drives the same bounds the model stores.
#[test]
fn attach_unnamed_animation_by_index() {
    let mut guy = rigscope::load_path(&corpus("iqm/raylib_guy.iqm")).unwrap();
    let anim = rigscope::load_path(&corpus("iqm/raylib_guyanim.iqm")).unwrap();
    assert!(anim.is_animation_only());
    let own = guy.clips.len();
    let report = attach(&mut guy, &anim, "guyanim.iqm").unwrap();
    assert!(report.by_index);
    assert_eq!(report.matched.len(), 14);
    assert!(report.unmatched_joints.is_empty() && report.unused_tracks.is_empty());
    assert!(report.reparented.is_empty(), "by index, parents agree: {:?}", report.reparented);
    assert_eq!(guy.clips.len(), own + anim.clips.len());
    let attached = &guy.clips[own];
    assert_eq!(attached.source.as_deref(), Some("guyanim.iqm"));
    let stored = guy.clips[0].bounds.as_ref().unwrap()[30];
    let pose = Pose::sample(&guy.skeleton, attached, 30.0, DEFAULT_FPS);
    let got = skinned_bounds(&guy.vertices, &pose.palette).unwrap();
    assert!(
        got.max_difference(&FrameBounds { xy_radius: got.xy_radius, radius: got.radius, ..stored }) < 1e-2,
        "{got:?} vs {stored:?}"
    );
}

#[test]
fn attach_refuses_unnamed_poses_that_do_not_fit() {
    let mut rifle = rigscope::load_path(&corpus("iqm/redeclipse_rifle.iqm")).unwrap();
    let dead = rigscope::load_path(&corpus("iqm/redeclipse_player_dead.iqm")).unwrap();
    let e = attach(&mut rifle, &dead, "dead.iqm").unwrap_err();
    assert!(e.to_string().contains("78 unnamed poses, the model has 6 joints"), "{e}");
    assert!(rifle.clips.is_empty(), "a refused attachment leaves the model as it was");
}
