//! No input can crash rigscope's readers: truncation and single-bit-flip sweeps over every corpus file and every
//! file the project generates, and a thousand seeded structure-aware mutations per format. Every input must
//! load or give an error with a message; a panic fails the test. (Fuzzing with cargo-fuzz goes further; see
//! ROBUSTNESS.md. These run in CI on every change.)

mod common;

use common::mutate::{Rng, inputs, mutate};

/// Loads `data` as `name`; an error must say something. A panic propagates and fails the test.
fn survive(name: &str, data: &[u8]) {
    if let Err(e) = rigscope::load_bytes(name, data) {
        assert!(!e.message.is_empty(), "{name}: an error without a message");
    }
}

/// Positions to try in a file: every one of a small file; for a large one the first and last 512 (headers,
/// tables and tails) and an even spread of the rest, so each file costs about the same parsing work.
fn positions(len: usize) -> Vec<usize> {
    let budget = (100_000_000 / len.max(1)).clamp(1500, 20_000);
    if len <= budget {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..512).chain(len - 512..len).collect();
    let step = (len - 1024) / (budget - 1024);
    v.extend((512..len - 512).step_by(step.max(1)));
    v
}

#[test]
fn every_truncation_loads_or_fails_cleanly() {
    for (name, data) in inputs() {
        for cut in positions(data.len()) {
            survive(&name, &data[..cut]);
        }
    }
}

#[test]
fn every_single_bit_flip_loads_or_fails_cleanly() {
    for (name, data) in inputs() {
        let mut copy = data.clone();
        for at in positions(data.len()) {
            let bit = 1u8 << (at % 8);
            copy[at] ^= bit;
            survive(&name, &copy);
            copy[at] ^= bit;
        }
    }
}

#[test]
fn a_thousand_structure_aware_mutations_per_format() {
    let inputs = inputs();
    for ext in ["iqm", "iqe", "rsm", "mvd", "vmd", "vpd", "pmx", "pmd", "glb", "gltf", "vrm"] {
        let bases: Vec<&(String, Vec<u8>)> = inputs
            .iter()
            .filter(|(n, d)| n.to_ascii_lowercase().contains(&format!(".{ext}")) && d.len() < 300_000)
            .collect();
        assert!(!bases.is_empty(), "no {ext} inputs");
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ ext.len() as u64);
        let (mut ok, mut refused) = (0, 0);
        for _ in 0..1000 {
            let (name, data) = bases[rng.below(bases.len())];
            let mutated = mutate(name, data, &mut rng);
            match rigscope::load_bytes(name, &mutated) {
                Ok(_) => ok += 1,
                Err(e) => {
                    assert!(!e.message.is_empty(), "{name}: an error without a message");
                    refused += 1;
                }
            }
        }
        // Both outcomes occur, or the mutations are not reaching the parser's decisions.
        assert!(ok > 0 && refused > 0, "{ext}: {ok} loaded, {refused} refused");
    }
}

/// The exporter's files in the sweeps carry what only they reach: sparse morph targets (one as long as its
/// accessor, one with no data at all) and `KHR_animation_pointer` channels, in both containers, and they load.
#[test]
fn the_exported_gltf_inputs_have_sparse_morphs_and_pointer_channels() {
    let files = rigscope::synth::exports::gltf_exports();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["exported_morphs.glb", "exported_morphs.gltf", "exported_uv.glb", "exported_uv.gltf"]);
    for (name, bytes) in &files {
        let scene = rigscope::load_bytes(name, bytes).unwrap_or_else(|e| panic!("{e}"));
        let has = |s: &[u8]| bytes.windows(s.len()).any(|w| w == s);
        if name.contains("morphs") {
            assert!(has(b"\"sparse\""), "{name}: sparse accessors");
            let names: Vec<&str> = scene.morphs.iter().map(|m| m.name.as_str()).collect();
            assert_eq!(names, ["vertex", "all", "none", "negative"], "{name}");
            assert_eq!(scene.clips[0].morphs.len(), 4, "{name}: weight channels");
        } else {
            assert!(has(b"KHR_animation_pointer"), "{name}: pointer channels");
            assert!(scene.meshes.iter().any(|m| m.uv_animation.is_some()), "{name}: UV animation read back");
        }
    }
}

#[test]
fn deep_and_cyclic_hierarchies_load_without_recursion() {
    use rigscope::formats::rsm::write::{Node, RsmDocument};
    // 20 000 nodes in one chain, listed leaf first, and a cycle: loading, posing and checking stay iterative.
    let n = 20_000;
    let mut doc = RsmDocument::new(1, 4);
    doc.main_node = b"n0".to_vec();
    for i in (0..n).rev() {
        let parent = if i == 0 { String::new() } else { format!("n{}", i - 1) };
        let mut node = Node::new(&format!("n{i}"), &parent);
        node.pos = [0.0, -1.0, 0.0];
        doc.nodes.push(node);
    }
    doc.nodes.push(Node::new("a", "b"));
    doc.nodes.push(Node::new("b", "a"));
    let bytes = doc.to_bytes();
    let scene = rigscope::load_bytes("chain.rsm", &bytes).expect("a deep chain loads");
    assert_eq!(scene.skeleton.len(), n + 2);
    let pose = rigscope::anim::Pose::bind(&scene.skeleton);
    let deepest = scene.skeleton.joints.iter().position(|j| j.name == format!("n{}", n - 1)).unwrap();
    assert!((pose.world[deepest].w_axis.y.abs() - n as f32).abs() < 1.0, "the chain is evaluated in full");
    assert!(rigscope::check::check_bytes("chain.rsm", &bytes).iter().any(|f| f.rule == "rsm.node.parent_cycle"));
}
