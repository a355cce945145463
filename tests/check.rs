//! `rigscope check`: the rules it names on corpus files and on files made to break one rule each, its JSON,
//! and its exit codes.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{corpus, corpus_files, read};
use rigscope::check::{Finding, Severity, check_bytes};
use rigscope::formats::iqm::write::{Bounds, IQM_HALF, IQM_NORMAL, IQM_POSITION, field, patch_u32};
use rigscope::synth::{SynthSpec, document};

fn rules(findings: &[Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.rule.as_str()).collect()
}

fn check(rel: &str) -> Vec<Finding> {
    let p = corpus(rel);
    rigscope::check::check_file(&p, &read(&p))
}

#[test]
fn clean_corpus_files_have_no_findings_and_none_has_a_false_error() {
    // The corpus ships without these models' textures (see its PROVENANCE.md): that is their only finding.
    for rel in ["iqm/raylib_guy.iqm", "iqm/redeclipse_rifle.iqm", "iqm/unv_medistat.iqe", "iqm/unv_rocket.iqe"] {
        let mut f = check(rel);
        // Besides, the medistat's "destroyed" is 31 frames of one pose: a state Unvanquished holds, which the
        // still-clip rule names as it should (BENCHMARKS.md, "Motion detectors").
        if rel.ends_with("unv_medistat.iqe") {
            let still: Vec<_> = f.iter().filter(|f| f.rule == "anim.clip.still").map(|f| f.place.clip).collect();
            assert_eq!(still, [Some(9)], "{rel}: only \"destroyed\" is still");
            f.retain(|f| f.rule != "anim.clip.still");
        }
        assert!(!f.is_empty() && f.iter().all(|f| f.rule == "texture.missing"), "{rel}: {f:?}");
    }
    assert_eq!(check("rsm/box_error_01.rsm"), vec![], "its texture is in the corpus");
    for p in corpus_files("iqm", &["iqm", "iqe"]).into_iter().chain(corpus_files("rsm", &["rsm", "rsm2"])) {
        let name = p.display().to_string();
        let errors: Vec<_> =
            check_bytes(&name, &read(&p)).into_iter().filter(|f| f.severity == Severity::Error).collect();
        if name.ends_with("assimp_InvalidMeshOffset.iqm") {
            assert_eq!(rules(&errors), ["iqm.unreadable"], "{name}");
            assert_eq!(errors[0].place.offset, Some(40), "the meshes offset field");
        } else {
            assert!(errors.is_empty(), "{name}: {errors:?}");
        }
    }
}

#[test]
fn corpus_problems_are_named() {
    // The reference converter's adjacency, and the exporter's in mrfixit, disagree with the triangles.
    for rel in ["iqm/lsalzman_mrfixit.iqm", "iqm/derived/unv_rocket.iqmtool.iqm"] {
        let f = check(rel);
        assert!(rules(&f).contains(&"iqm.adjacency.mismatch"), "{rel}: {f:?}");
    }
    let dead = rules(&check("iqm/redeclipse_player_dead.iqm")).join(" ");
    assert!(dead.contains("iqm.align") && dead.contains("iqm.framerate.zero"), "{dead}");
    assert!(rules(&check("rsm/missing.rsm")).contains(&"rsm.trailing"));
    assert!(rules(&check("rsm/raglite_v0202.rsm2")).contains(&"mesh.triangle.degenerate"));
}

/// The synthetic model as IQM bytes after `edit`.
fn synth(edit: impl FnOnce(&mut rigscope::formats::iqm::write::IqmDocument)) -> Vec<u8> {
    let mut doc = document(SynthSpec { vertices: 600, joints: 4, frames: 3 });
    edit(&mut doc);
    doc.to_bytes()
}

#[test]
fn iqm_rules_the_reader_tolerates() {
    assert_eq!(check_bytes("clean.iqm", &synth(|_| {})), vec![]);

    // An offset left set for an empty section.
    let mut bytes = synth(|_| {});
    patch_u32(&mut bytes, field::OFS_COMMENT, 124);
    let f = check_bytes("ofs.iqm", &bytes);
    assert_eq!(rules(&f), ["iqm.ofs.empty"]);
    assert_eq!(f[0].place.offset, Some(field::OFS_COMMENT as u64));

    // Normals before positions, and half positions.
    let f = check_bytes(
        "arrays.iqm",
        &synth(|d| {
            let p = d.vertex_arrays.iter().position(|a| a.kind == IQM_POSITION).unwrap();
            let n = d.vertex_arrays.iter().position(|a| a.kind == IQM_NORMAL).unwrap();
            d.vertex_arrays.swap(p, n);
        }),
    );
    // Normal, texcoord, position: the last two each come after a later type.
    assert_eq!(rules(&f), ["iqm.vertexarray.order"; 2]);
    let f = check_bytes(
        "half.iqm",
        &synth(|d| {
            let a = d.vertex_arrays.iter_mut().find(|a| a.kind == IQM_POSITION).unwrap();
            let values: Vec<f32> = a.data.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            *a = rigscope::formats::iqm::write::VertexArray::from_f32(IQM_POSITION, IQM_HALF, 3, &values, false);
        }),
    );
    assert_eq!(rules(&f), ["iqm.vertexarray.format"]);
    assert!(f[0].message.contains("half×3") && f[0].message.contains("float×3"), "{}", f[0].message);

    // Joint rotations: w > 0, and not unit length.
    let f = check_bytes("sign.iqm", &synth(|d| d.joints[1].rotate = [0.0, 0.0, 0.6, 0.8]));
    assert_eq!(rules(&f), ["iqm.joint.quat.sign"]);
    let f = check_bytes("length.iqm", &synth(|d| d.joints[2].rotate = [0.0, 0.0, 0.0, -2.0]));
    assert_eq!(rules(&f), ["iqm.joint.quat.length"]);

    // Stored bounds that miss the mesh, by frame.
    let f = check_bytes(
        "bounds.iqm",
        &synth(|d| {
            d.bounds = Some(vec![Bounds { min: [0.0; 3], max: [0.1; 3], xy_radius: 0.1, radius: 0.1 }; 3]);
        }),
    );
    assert_eq!(rules(&f), ["iqm.bounds.miss"; 3]);
    assert_eq!((f[2].place.clip, f[2].place.frame), (Some(0), Some(2)));
}

#[test]
fn geometry_and_iqe_rules() {
    let iqe = "# Inter-Quake Export\njoint a\npq 0 0 0 0 0 0 -1\nmesh m\nvp 0 0 0\nvp 1 0 0\nvp 2 0 0\nvp 0 1 0\nvp 9 9 9\n\
               vb 0 0.2 0 0.2 0 0.2 0 0.2 0 0.2\nvb 0 1\nvb 0 1\nvb 0 1\nvb 0 1\nfm 0 1 3\nfm 0 1 2\nbogus 1 2\n";
    let f = check_bytes("geo.iqe", iqe.as_bytes());
    let r = rules(&f);
    for want in ["iqe.vb.many", "iqe.command.unknown", "mesh.triangle.degenerate", "mesh.vertex.unused"] {
        assert!(r.contains(&want), "{want} missing from {r:?}");
    }
    let by_rule = |rule: &str| f.iter().find(|x| x.rule == rule).unwrap();
    assert_eq!(by_rule("iqe.vb.many").place.line, Some(10));
    assert_eq!(by_rule("iqe.command.unknown").place.line, Some(17));
    assert_eq!(by_rule("mesh.triangle.degenerate").place.triangle, Some(1));
    assert_eq!(by_rule("mesh.vertex.unused").place.vertex, Some(4));
    // A face past the vertices is an error naming the line.
    let f = check_bytes("bad.iqe", b"# Inter-Quake Export\nvp 0 0 0\nfa 0 0 5\n");
    assert_eq!((f[0].severity, f[0].rule.as_str(), f[0].place.line), (Severity::Error, "iqe.unreadable", Some(3)));
}

// ---- the command line ----

fn rigscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rigscope")).args(args).output().expect("run rigscope")
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn exit_codes_json_and_strict() {
    let (guy, mrfixit, broken) =
        (corpus("iqm/raylib_guy.iqm"), corpus("iqm/lsalzman_mrfixit.iqm"), corpus("iqm/assimp_InvalidMeshOffset.iqm"));
    assert_eq!(rigscope(&["check", &s(&guy)]).status.code(), Some(0));
    assert_eq!(rigscope(&["check", &s(&mrfixit)]).status.code(), Some(0), "warnings only");
    assert_eq!(rigscope(&["check", "--strict", &s(&mrfixit)]).status.code(), Some(1));
    assert_eq!(rigscope(&["check", &s(&guy), &s(&broken)]).status.code(), Some(1));
    let missing = PathBuf::from("/nonexistent/rigscope/x.iqm");
    assert_eq!(rigscope(&["check", &s(&guy), &s(&missing)]).status.code(), Some(2));

    let out = rigscope(&["check", "--json", &s(&mrfixit), &s(&broken)]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let items = v.as_array().unwrap();
    let item_rules: Vec<&str> = items.iter().map(|i| i["rule"].as_str().unwrap()).collect();
    assert!(item_rules.contains(&"iqm.adjacency.mismatch") && item_rules.contains(&"iqm.unreadable"), "{item_rules:?}");
    for item in items {
        for key in ["file", "rule", "severity", "place", "message"] {
            assert!(item.get(key).is_some(), "{key} missing in {item}");
        }
    }
    assert!(items.iter().any(|i| i["severity"] == "error" && i["place"]["offset"] == 40));
    let text = String::from_utf8(rigscope(&["check", &s(&broken)]).stdout).unwrap();
    assert!(text.contains("@40: error[iqm.unreadable]: meshes"), "{text}");
}

#[test]
fn motions_name_cuts_key_order_and_bones_a_model_lacks() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check-mvd");
    std::fs::create_dir_all(&dir).unwrap();
    let mvd = dir.join("sample.mvd");
    let doc = rigscope::formats::mvd::write::sample_document(rigscope::scene::MvdEncoding::Utf8);
    std::fs::write(&mvd, doc.to_bytes()).unwrap();
    let f = check_bytes(&s(&mvd), &read(&mvd));
    let r = rules(&f);
    for want in ["mvd.camera.cut", "mvd.key.order", "mvd.section.unknown"] {
        assert!(r.contains(&want), "{want} missing from {r:?}");
    }
    let guy = corpus("iqm/raylib_guy.iqm");
    let out = rigscope(&["check", "--json", "--model", &s(&guy), &s(&mvd)]);
    assert_eq!(out.status.code(), Some(0), "warnings only");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let unmatched = v.as_array().unwrap().iter().find(|i| i["rule"] == "mvd.bone.unmatched").expect("unmatched bones");
    assert!(unmatched["message"].as_str().unwrap().contains("3 of 3 bone tracks"), "{unmatched}");
}

#[test]
fn mvd_property_sections_name_sizes_and_values_nothing_can_use() {
    use rigscope::formats::mvd::write::{
        AccessoryFrame, EffectFrame, LightFrame, MvdDocument, Object, ProjectFrame, Section,
    };
    let mut d = MvdDocument::new(rigscope::scene::MvdEncoding::Utf16Le);
    let mut o = Object::new("小物", 30.0);
    o.sections.push(Section::Light {
        minor: 0,
        item_size: Some(28),
        frames: vec![LightFrame::new(0, [0.0; 3], [255; 3]), LightFrame::new(5, [0.0, -1.0, 0.0], [255; 3])],
    });
    let flat = ProjectFrame { gravity_vector: [0.0; 3], shadow_model: 2, ..ProjectFrame::new(0) };
    o.sections.push(Section::Project { minor: 1, item_size: None, frames: vec![flat] });
    let faint = AccessoryFrame { alpha: 1.5, ..AccessoryFrame::new(0) };
    o.sections.push(Section::Accessory { minor: 0, item_size: None, frames: vec![faint] });
    let inverted = EffectFrame { head: AccessoryFrame { scale: -1.0, ..AccessoryFrame::new(0) }, values: vec![] };
    o.sections.push(Section::Effect { minor: 0, item_size: None, parameters: vec![], frames: vec![inverted] });
    d.objects.push(o);
    let bytes = d.to_bytes();
    let f = check_bytes("props.mvd", &bytes);
    let mut r = rules(&f);
    r.sort();
    assert_eq!(
        r,
        [
            "mvd.light.direction",
            "mvd.project.gravity",
            "mvd.project.shadow",
            "mvd.property.alpha",
            "mvd.property.scale",
            "mvd.section.size"
        ],
        "{f:?}"
    );
    assert!(f.iter().all(|f| f.severity == Severity::Warning && f.place.offset.is_some()));
    // The first light key is the light section's first item: after the header of 2 + 4 × 4 bytes.
    let light = f.iter().find(|f| f.rule == "mvd.light.direction").unwrap();
    let section = f.iter().find(|f| f.rule == "mvd.section.size").unwrap().place.offset.unwrap();
    assert_eq!(light.place.offset, Some(section + 18));
    // An undersized section: the file is refused, at the section.
    if let Section::Light { item_size, .. } = &mut d.objects[0].sections[0] {
        *item_size = Some(20);
    }
    let f = check_bytes("props.mvd", &d.to_bytes());
    assert_eq!(rules(&f), ["mvd.unreadable"]);
    assert_eq!(f[0].place.offset, Some(section), "{f:?}");
    assert!(f[0].message.contains("light section (tag 112") && f[0].message.contains("expected at least 24 B"));
}

#[test]
fn rsm_tolerances_are_named() {
    assert!(rules(&check("rsm/coin_j_01.rsm")).contains(&"rsm.name.garbage"), "garbage after the NUL");
    let mut doc = rigscope::formats::rsm::write::sample_document(1, 4);
    doc.nodes[0].rot_keys.insert(0, (-160, [0.0, 0.0, 0.0, 1.0]));
    let f = check_bytes("pre-roll.rsm", &doc.to_bytes());
    assert!(rules(&f).contains(&"rsm.keys.negative"), "{:?}", rules(&f));
}
