//! MToon, VRM's toon material, approximated with the toon path MikuMikuDance's materials already draw with.
//!
//! MToon (three-vrm 3.5.5's shader) mixes a shade colour and the lit colour by
//! `s = linearstep(−1 + toony, 1 − toony, N·L + shift)`: `colour = mix(shade, base, s)`. The toon path reads a
//! ramp at `0.5 − 0.5·N·L`, so each MToon material gets a ramp image that holds `s` down its rows (grey),
//! embedded in the scene as an image the material's toon ramp names, and its [`ToonShading`] gives the renderer
//! the shade colour to mix by it, the parametric rim light (`rim · saturate(1 − N·V + lift)^power`, scaled by
//! `mix(1, light, rimLightingMix)`) and the UV scrolling. World-space outlines (`outlineWidthMode`
//! `worldCoordinates`) become the material's outline, sized as it stands 2.5 m from the eye (the toon path's
//! outlines keep their width on screen).
//!
//! Read: VRM 1.0's `VRMC_materials_mtoon`, and VRM 0.x's MToon material properties converted as three-vrm's v0
//! compatibility plugin converts them (colours from gamma by `c^2.2`, its base colour and emission in place of
//! the glTF material's fallback values, `toony' = lerp(toony, 1, ½ + ½·shift)`,
//! `shift' = −shift − (1 − toony')`, `_OutlineWidth` in centimetres, the V scroll negated). A shade texture is
//! drawn as the colour texture (exporters write the same image into both). Not drawn: the shading shift
//! texture, the rim multiply texture, matcap, GI equalization, the UV animation mask, the outline's lighting mix
//! and the screen-space outline.

use glam::{Vec2, Vec3};
use serde_json::Value;

use crate::scene::color::linear_to_srgb;
use crate::scene::{EmbeddedImage, Material, Outline, TextureSearch, ToonRamp, ToonShading};

/// Rows in a generated ramp (the toon path reads it between rows 3 % and 97 % down).
const RAMP_ROWS: u32 = 64;
/// The eye distance at which a world-space outline is given its width (a whole body in view).
const OUTLINE_DISTANCE: f32 = 2.5;
/// The toon path's outline width per unit of size and of eye distance (`OUTLINE_WIDTH` in shaders/mesh.wgsl).
const OUTLINE_WIDTH: f32 = 0.0008;

/// One material's MToon, as three-vrm's VRM 1.0 material holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MToon {
    pub shift: f32,
    pub toony: f32,
    /// World-space outline: width in metres and linear colour.
    pub outline: Option<(f32, Vec3)>,
    /// Shade colour, rim light and UV scrolling.
    pub shading: ToonShading,
    /// VRM 0.x: the base colour (linear RGBA) and emission (linear RGB) its MToon properties give, which three-vrm
    /// draws in place of the glTF material's fallback values; `None` for VRM 1.0 (the glTF material's own).
    pub base: Option<(glam::Vec4, Vec3)>,
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

    /// The ramp image: row `y` holds the lit share at `N·L = 1 − 2·(y + ½)/rows`, grey, sRGB-encoded (the toon
    /// path reads ramps as sRGB images).
    pub fn ramp(&self) -> image::RgbaImage {
        image::RgbaImage::from_fn(4, RAMP_ROWS, |_, y| {
            let key = 1.0 - 2.0 * (y as f32 + 0.5) / RAMP_ROWS as f32;
            let c = srgb_byte(self.lit(key));
            image::Rgba([c, c, c, 255])
        })
    }
}

/// A linear value as an sRGB byte.
fn srgb_byte(v: f32) -> u8 {
    (linear_to_srgb(v.clamp(0.0, 1.0)) * 255.0).round() as u8
}

/// A finite number (a value past f32's range, 1e39, is not one).
fn number(v: Option<&Value>) -> Option<f32> {
    v.and_then(Value::as_f64).map(|x| x as f32).filter(|x| x.is_finite())
}

fn colour(v: Option<&Value>) -> Option<Vec3> {
    let a = v?.as_array()?;
    Some(Vec3::new(number(a.first())?, number(a.get(1))?, number(a.get(2))?))
}

/// VRM 1.0's `VRMC_materials_mtoon` of one glTF material. What it leaves out takes the schema's defaults (shade
/// white, rim black with fresnel power 1 and lighting mix 0); three-vrm 3.5.5 takes its shader's instead (shade
/// black, power 5, mix 1), which only a file that leaves them out sees.
fn mtoon_1(ext: &Value) -> MToon {
    let float = |k: &str, d: f32| number(ext.get(k)).unwrap_or(d);
    let outline = (ext.get("outlineWidthMode").and_then(Value::as_str) == Some("worldCoordinates"))
        .then(|| (float("outlineWidthFactor", 0.0), colour(ext.get("outlineColorFactor")).unwrap_or(Vec3::ZERO)))
        .filter(|(w, _)| *w > 0.0);
    MToon {
        shift: float("shadingShiftFactor", 0.0),
        toony: float("shadingToonyFactor", 0.9),
        outline,
        base: None,
        shading: ToonShading {
            shade: colour(ext.get("shadeColorFactor")).unwrap_or(Vec3::ONE),
            shade_textured: ext.get("shadeMultiplyTexture").is_some(),
            rim: colour(ext.get("parametricRimColorFactor")).unwrap_or(Vec3::ZERO),
            rim_power: float("parametricRimFresnelPowerFactor", 1.0),
            rim_lift: float("parametricRimLiftFactor", 0.0),
            rim_lighting: float("rimLightingMixFactor", 0.0),
            scroll: Vec2::new(float("uvAnimationScrollXSpeedFactor", 0.0), float("uvAnimationScrollYSpeedFactor", 0.0)),
            spin: float("uvAnimationRotationSpeedFactor", 0.0),
        },
    }
}

/// VRM 0.x's MToon material properties, converted as three-vrm's v0 compatibility plugin converts them (its
/// colours from gamma by `c^2.2`, alpha as it is).
fn mtoon_0(props: &Value) -> MToon {
    let float = |k: &str| number(props.get("floatProperties").and_then(|f| f.get(k)));
    let vector = |k: &str| colour(props.get("vectorProperties").and_then(|f| f.get(k)));
    let gamma = |c: Vec3| c.max(Vec3::ZERO).powf(2.2);
    let alpha = number(props.pointer("/vectorProperties/_Color/3")).unwrap_or(1.0);
    let color = gamma(vector("_Color").unwrap_or(Vec3::ONE)).extend(alpha);
    let emissive = gamma(vector("_EmissionColor").unwrap_or(Vec3::ZERO));
    let shade = gamma(vector("_ShadeColor").unwrap_or(Vec3::new(0.97, 0.81, 0.86)));
    let shift = float("_ShadeShift").unwrap_or(0.0);
    let toony = float("_ShadeToony").unwrap_or(0.9);
    let toony = toony + (1.0 - toony) * (0.5 + 0.5 * shift);
    let outline = (float("_OutlineWidthMode") == Some(1.0))
        .then(|| (0.01 * float("_OutlineWidth").unwrap_or(0.0), gamma(vector("_OutlineColor").unwrap_or(Vec3::ZERO))))
        .filter(|(w, _)| *w > 0.0);
    let texture = |k: &str| props.pointer(&format!("/textureProperties/{k}")).is_some();
    MToon {
        shift: -shift - (1.0 - toony),
        toony,
        outline,
        base: Some((color, emissive)),
        shading: ToonShading {
            shade,
            shade_textured: texture("_ShadeTexture"),
            rim: gamma(vector("_RimColor").unwrap_or(Vec3::ZERO)),
            rim_power: float("_RimFresnelPower").unwrap_or(1.0),
            rim_lift: float("_RimLift").unwrap_or(0.0),
            rim_lighting: float("_RimLightingMix").unwrap_or(0.0),
            scroll: Vec2::new(float("_UvAnimScrollX").unwrap_or(0.0), -float("_UvAnimScrollY").unwrap_or(0.0)),
            spin: float("_UvAnimRotation").unwrap_or(0.0),
        },
    }
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
/// toon ramp made for it, embedded in `images`, its [`ToonShading`] and its world-space outline; lit, though it also says
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
        m.toon_shading = Some(mtoon.shading);
        if let Some((color, emissive)) = mtoon.base {
            m.color = Some(color);
            m.emissive = emissive;
        }
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
    fn the_ramp_holds_mtoons_lit_share_down_its_rows() {
        let m = mtoon_1(&json!({"shadeColorFactor": [0.2, 0.1, 0.05]}));
        let ramp = m.ramp();
        // Lit at the top (N·L = 1), unlit at the bottom, the step at N·L = 0 (the middle rows).
        assert_eq!(ramp.get_pixel(0, 0).0, [255, 255, 255, 255]);
        assert_eq!(ramp.get_pixel(0, RAMP_ROWS - 1).0, [0, 0, 0, 255]);
        assert_eq!(m.shading.shade, Vec3::new(0.2, 0.1, 0.05));
        assert!(m.lit(0.1) > 1.0 - 1e-6 && m.lit(-0.1) < 1e-6);
        assert!((m.lit(0.0) - 0.5).abs() < 1e-6);
        let shifted = MToon { shift: 0.5, ..m };
        assert!(shifted.lit(-0.4) > 1.0 - 1e-6, "a positive shift lights further round");
    }

    #[test]
    fn vrm_0_properties_convert_as_three_vrm_converts_them() {
        let props = json!({
            "shader": "VRM/MToon",
            "floatProperties": {"_ShadeShift": -0.2, "_ShadeToony": 0.6, "_OutlineWidthMode": 1, "_OutlineWidth": 0.5,
                "_UvAnimScrollX": 0.25, "_UvAnimScrollY": 0.5, "_RimFresnelPower": 3},
            "vectorProperties": {"_ShadeColor": [0.5, 0.5, 0.5, 1], "_OutlineColor": [1, 0, 0, 1], "_RimColor": [0.5, 0, 1, 1]},
            "textureProperties": {"_ShadeTexture": 0},
        });
        let m = mtoon_0(&props);
        // toony' = lerp(0.6, 1, 0.5 + 0.5·(−0.2)) = 0.76; shift' = 0.2 − 0.24 = −0.04; 0.5 from gamma, 0.5^2.2.
        assert!((m.toony - 0.76).abs() < 1e-6 && (m.shift + 0.04).abs() < 1e-6, "{m:?}");
        assert!((m.shading.shade.x - 0.217_638).abs() < 1e-5, "{m:?}");
        assert_eq!(m.outline, Some((0.005, Vec3::new(1.0, 0.0, 0.0))));
        // Unity's V runs up: the V scroll is negated. The rim colour from gamma, 0.x's rim defaults otherwise.
        assert_eq!(m.shading.scroll, Vec2::new(0.25, -0.5));
        assert!((m.shading.rim - Vec3::new(0.217_638, 0.0, 1.0)).abs().max_element() < 1e-5, "{m:?}");
        assert_eq!((m.shading.rim_power, m.shading.rim_lift, m.shading.rim_lighting), (3.0, 0.0, 0.0));
        assert!(m.shading.shade_textured);
    }
}
