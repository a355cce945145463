//! Malformed VRM extensions never panic (issue 38: "a malformed VRM extension gives a clear error or a `check`
//! finding, never a panic"). Every value inside the VRM extensions of the corpus's VRM files and of `test.vrma`
//! (`VRMC_vrm`, VRM 0.x's `VRM`, `VRMC_springBone`, `VRMC_node_constraint`, `VRMC_vrm_animation`, and each
//! material's `VRMC_materials_mtoon`) is replaced in turn by values of the wrong kind or out of range: a string,
//! null, an empty list, an empty object, −1 and 4e9 (indices past anything), and NaN-like 1e39. Each file is
//! loaded, checked and, for a VRMA, attached to the corpus's VRM 1.0 avatar; none may panic, and a load that
//! fails names the file.

mod common;

use serde_json::{Value, json};

/// The JSON pointers of every value under `v` (itself included), depth first.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                pointers(c, format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                pointers(c, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// The VRM extension roots of a glTF's JSON, as pointers.
fn roots(j: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for ext in ["VRMC_vrm", "VRM", "VRMC_springBone", "VRMC_node_constraint", "VRMC_vrm_animation"] {
        if j.pointer(&format!("/extensions/{ext}")).is_some() {
            out.push(format!("/extensions/{ext}"));
        }
    }
    for (i, m) in j["materials"].as_array().into_iter().flatten().enumerate() {
        if m.pointer("/extensions/VRMC_materials_mtoon").is_some() {
            out.push(format!("/materials/{i}/extensions/VRMC_materials_mtoon"));
        }
    }
    for (i, n) in j["nodes"].as_array().into_iter().flatten().enumerate() {
        if n.pointer("/extensions/VRMC_node_constraint").is_some() {
            out.push(format!("/nodes/{i}/extensions/VRMC_node_constraint"));
        }
    }
    out
}

#[test]
fn every_value_of_the_vrm_extensions_made_wrong_never_panics() {
    let avatar = rigscope::load_path(&common::corpus("vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm")).unwrap();
    let files = [
        "vrm/VRMC_vrm_expressions_isBinary_Overrides.vrm",
        "vrm/EmissionMigration_v0.107.0.vrm",
        "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm",
        "vrm/test.vrma",
    ];
    let bad = [json!("x"), Value::Null, json!([]), json!({}), json!(-1), json!(4e9), json!(1e39)];
    let (mut loads, mut failed, mut attached) = (0usize, 0usize, 0usize);
    for file in files {
        let bytes = common::read(&common::corpus(file));
        let mut json = None;
        common::edited_glb(&bytes, |j| json = Some(j.clone()));
        let json = json.unwrap();
        let mut places = Vec::new();
        for root in roots(&json) {
            pointers(json.pointer(&root).unwrap(), root, &mut places);
        }
        assert!(places.len() > 20, "{file}: {} values", places.len());
        for place in &places {
            for value in &bad {
                let edited = common::edited_glb(&bytes, |j| *j.pointer_mut(place).unwrap() = value.clone());
                let name = format!("{file} with {place} = {value}");
                let outcome = std::panic::catch_unwind(|| {
                    let loaded = rigscope::load_bytes("edited.vrm", &edited);
                    rigscope::check::check_bytes("edited.vrm", &edited);
                    let mut attached = false;
                    if let Ok(scene) = &loaded
                        && scene.vrm_animation.is_some()
                    {
                        let mut target = avatar.clone();
                        attached = rigscope::anim::attach(&mut target, scene, "edited.vrma").is_ok();
                    }
                    (loaded.map(|_| ()).map_err(|e| e.to_string()), attached)
                });
                let (loaded, was_attached) = outcome.unwrap_or_else(|_| panic!("{name}: panicked"));
                if let Err(e) = loaded {
                    failed += 1;
                    assert!(e.contains("edited.vrm"), "{name}: the error names no file: {e}");
                }
                loads += 1;
                attached += usize::from(was_attached);
            }
        }
    }
    eprintln!(
        "{loads} edited files loaded and checked without a panic, {attached} VRMA motions of them attached; \
         {failed} failed to load, naming the file"
    );
    assert!(attached > 100, "the edited VRMA motions attach: {attached}");
}
