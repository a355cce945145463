//! MToon, VRM's toon material, approximated with the toon path MikuMikuDance's materials already draw with.
//!
//! MToon (three-vrm 3.5.5's shader) mixes a shade colour and the lit colour by
//! `s = linearstep(−1 + toony, 1 − toony, N·L + shift)`: `colour = base · mix(shade, 1, s)` for an untextured
//! shade. The toon path draws `base · ramp(0.5 − 0.5·N·L)`, so each MToon material gets a ramp image that holds
//! `mix(shade, 1, s)` down its rows (sRGB, as toon ramps are read), embedded in the scene as an image the
//! material's toon ramp names. World-space outlines (`outlineWidthMode` `worldCoordinates`) become the material's
//! outline, sized as it stands 2.5 m from the eye (the toon path's outlines keep their width on screen).
//!
//! Read: VRM 1.0's `VRMC_materials_mtoon` (shade colour, shading shift and toony, outline), and VRM 0.x's MToon
//! material properties converted as three-vrm's v0 compatibility plugin converts them (`_ShadeColor` from
//! gamma, `toony' = lerp(toony, 1, ½ + ½·shift)`, `shift' = −shift − (1 − toony')`, `_OutlineWidth` in
//! centimetres). Not drawn: the shade texture, the shading shift texture, rim light and matcap, GI
//! equalization, the screen-space outline and UV scrolling.

use glam::Vec3;
use serde_json::Value;

use crate::scene::color::{linear_to_srgb, srgb_to_linear};
use crate::scene::{EmbeddedImage, Material, Outline, TextureSearch, ToonRamp};

/// Rows in a generated ramp (the toon path reads it between rows 3 % and 97 % down).
const RAMP_ROWS: u32 = 64;
/// The eye distance at which a world-space outline is given its width (a whole body in view).
const OUTLINE_DISTANCE: f32 = 2.5;
/// The toon path's outline width per unit of size and of eye distance (`OUTLINE_WIDTH` in shaders/mesh.wgsl).
const OUTLINE_WIDTH: f32 = 0.0008;

/// One material's MToon, as three-vrm's VRM 1.0 material holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MToon {
    /// Linear RGB.
    pub shade: Vec3,
    pub shift: f32,
    pub toony: f32,
    /// World-space outline: width in metres and linear colour.
    pub outline: Option<(f32, Vec3)>,
}

impl MToon {
    /// The lit share at `key` (N·L).
    pub fn lit(&self, key: f32) -> f32 {
        let (a, b) = (-1.0 + self.toony, 1.0 - self.toony);
        if (b - a).abs() < 1e-6 {
            return if key + self.shift >= a { 1.0 } else { 0.0 };
        }
        ((key + self.shift - a) / (b - a)).clamp(0.0, 1.0)
    }

    /// The ramp image: row `y` holds the colour at `N·L = 1 − 2·(y + ½)/rows`, sRGB.
    pub fn ramp(&self) -> image::RgbaImage {
        image::RgbaImage::from_fn(4, RAMP_ROWS, |_, y| {
            let key = 1.0 - 2.0 * (y as f32 + 0.5) / RAMP_ROWS as f32;
            let c = self.shade.lerp(Vec3::ONE, self.lit(key)).to_array().map(srgb_byte);
            image::Rgba([c[0], c[1], c[2], 255])
        })
    }
}

/// A linear value as an sRGB byte.
fn srgb_byte(v: f32) -> u8 {
    (linear_to_srgb(v.clamp(0.0, 1.0)) * 255.0).round() as u8
}

fn number(v: Option<&Value>) -> Option<f32> {
    v.and_then(Value::as_f64).map(|x| x as f32)
}

fn colour(v: Option<&Value>) -> Option<Vec3> {
    let a = v?.as_array()?;
    Some(Vec3::new(number(a.first())?, number(a.get(1))?, number(a.get(2))?))
}

/// VRM 1.0's `VRMC_materials_mtoon` of one glTF material.
fn mtoon_1(ext: &Value) -> MToon {
    let outline = (ext.get("outlineWidthMode").and_then(Value::as_str) == Some("worldCoordinates"))
        .then(|| {
            let width = number(ext.get("outlineWidthFactor")).unwrap_or(0.0);
            (width, colour(ext.get("outlineColorFactor")).unwrap_or(Vec3::ZERO))
        })
        .filter(|(w, _)| *w > 0.0);
    MToon {
        shade: colour(ext.get("shadeColorFactor")).unwrap_or(Vec3::ONE),
        shift: number(ext.get("shadingShiftFactor")).unwrap_or(0.0),
        toony: number(ext.get("shadingToonyFactor")).unwrap_or(0.9),
        outline,
    }
}

/// VRM 0.x's MToon material properties, converted as three-vrm's v0 compatibility plugin converts them.
fn mtoon_0(props: &Value) -> MToon {
    let float = |k: &str| number(props.get("floatProperties").and_then(|f| f.get(k)));
    let vector = |k: &str| colour(props.get("vectorProperties").and_then(|f| f.get(k)));
    let shade = vector("_ShadeColor").unwrap_or(Vec3::new(0.97, 0.81, 0.86)).to_array().map(srgb_to_linear);
    let shift = float("_ShadeShift").unwrap_or(0.0);
    let toony = float("_ShadeToony").unwrap_or(0.9);
    let toony = toony + (1.0 - toony) * (0.5 + 0.5 * shift);
    let outline = (float("_OutlineWidthMode") == Some(1.0))
        .then(|| {
            let colour = vector("_OutlineColor").unwrap_or(Vec3::ZERO).to_array().map(srgb_to_linear);
            (0.01 * float("_OutlineWidth").unwrap_or(0.0), Vec3::from(colour))
        })
        .filter(|(w, _)| *w > 0.0);
    MToon { shade: Vec3::from(shade), shift: -shift - (1.0 - toony), toony, outline }
}

/// Each glTF material's MToon, by glTF material index: VRM 1.0's extension on the material, or VRM 0.x's
/// material properties of an `VRM/MToon` shader named as the material.
pub fn read(root: &Value) -> Vec<Option<MToon>> {
    let materials = root.get("materials").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let props_0 = root.pointer("/extensions/VRM/materialProperties").and_then(Value::as_array);
    materials
        .iter()
        .map(|m| {
            if let Some(ext) = m.pointer("/extensions/VRMC_materials_mtoon") {
                return Some(mtoon_1(ext));
            }
            let name = m.get("name").and_then(Value::as_str)?;
            let props = props_0?.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(name))?;
            (props.get("shader").and_then(Value::as_str) == Some("VRM/MToon")).then(|| mtoon_0(props))
        })
        .collect()
}

/// Gives each scene material whose glTF material has an MToon (`kept[glTF material]` is its scene material) a
/// toon ramp made for it, embedded in `images`, and its world-space outline; lit, though it also says
/// `KHR_materials_unlit` (the fallback exporters write for viewers without MToon). A material whose colour texture
/// is a file beside the model keeps the viewer's shading (its ramp would be looked for beside the model too).
pub fn apply(mtoons: &[Option<MToon>], kept: &[usize], materials: &mut [Material], images: &mut Vec<EmbeddedImage>) {
    for (gltf_material, mtoon) in mtoons.iter().enumerate() {
        let (Some(mtoon), Some(m)) = (mtoon, kept.get(gltf_material).and_then(|&k| materials.get_mut(k))) else {
            continue;
        };
        if m.texture.is_some() && m.search != TextureSearch::Embedded {
            continue;
        }
        let mut png = Vec::new();
        if mtoon.ramp().write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png).is_err() {
            continue;
        }
        let name = format!("rigscope MToon ramp {gltf_material}");
        images.push(EmbeddedImage { name: name.clone(), mime_type: Some("image/png".into()), bytes: png });
        m.search = TextureSearch::Embedded;
        // KHR_materials_unlit beside MToon is the fallback for viewers without MToon.
        m.lit = true;
        m.toon = Some(ToonRamp { texture: Some(name), shared: false, highlight: false });
        if let Some((width, colour)) = mtoon.outline {
            m.outline = Some(Outline { color: colour.extend(1.0), size: width / (OUTLINE_WIDTH * OUTLINE_DISTANCE) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_ramp_holds_mtoons_mix_of_shade_and_lit_colour_down_its_rows() {
        let m = MToon { shade: Vec3::new(0.2, 0.1, 0.05), shift: 0.0, toony: 0.9, outline: None };
        let ramp = m.ramp();
        // Lit at the top (N·L = 1), the shade colour at the bottom, the step at N·L = 0 (the middle rows).
        assert_eq!(ramp.get_pixel(0, 0).0, [255, 255, 255, 255]);
        assert_eq!(ramp.get_pixel(0, RAMP_ROWS - 1).0[..3], [0.2f32, 0.1, 0.05].map(srgb_byte));
        assert!(m.lit(0.1) > 1.0 - 1e-6 && m.lit(-0.1) < 1e-6);
        assert!((m.lit(0.0) - 0.5).abs() < 1e-6);
        let shifted = MToon { shift: 0.5, ..m };
        assert!(shifted.lit(-0.4) > 1.0 - 1e-6, "a positive shift lights further round");
    }

    #[test]
    fn vrm_0_properties_convert_as_three_vrm_converts_them() {
        let props = json!({
            "shader": "VRM/MToon",
            "floatProperties": {"_ShadeShift": -0.2, "_ShadeToony": 0.6, "_OutlineWidthMode": 1, "_OutlineWidth": 0.5},
            "vectorProperties": {"_ShadeColor": [0.5, 0.5, 0.5, 1], "_OutlineColor": [1, 0, 0, 1]},
        });
        let m = mtoon_0(&props);
        // toony' = lerp(0.6, 1, 0.5 + 0.5·(−0.2)) = 0.76; shift' = 0.2 − 0.24 = −0.04; 0.5 from gamma.
        assert!((m.toony - 0.76).abs() < 1e-6 && (m.shift + 0.04).abs() < 1e-6, "{m:?}");
        assert!((m.shade.x - 0.214_041).abs() < 1e-5, "{m:?}");
        assert_eq!(m.outline, Some((0.005, Vec3::new(1.0, 0.0, 0.0))));
    }
}
