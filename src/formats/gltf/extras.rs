//! What rigscope's own exports add in `extras.rigscope` (clip rate and looping, mesh names, missing textures,
//! unweighted vertices), read by the animation, mesh, node and material readers alike: its own file so that
//! none of them imports another for it.

/// The `extras.rigscope` object rigscope's exporter writes, when present and valid.
pub(super) fn rigscope_extras(extras: &gltf::json::Extras) -> Option<serde_json::Value> {
    let value: serde_json::Value = serde_json::from_str(extras.as_ref()?.get()).ok()?;
    let own = value.get("rigscope")?;
    own.is_object().then(|| own.clone())
}
