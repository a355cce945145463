//! sRGB transfer functions: file colours (MMD diffuse, background choices) are sRGB-encoded, the renderer works
//! in linear light.

use glam::Vec4;

/// One sRGB-encoded component (0..1) as linear light.
pub fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// One linear component (0..1) sRGB-encoded.
pub fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// An sRGB-encoded colour as linear light, alpha as it is.
pub fn srgba_to_linear(c: Vec4) -> Vec4 {
    Vec4::new(srgb_to_linear(c.x), srgb_to_linear(c.y), srgb_to_linear(c.z), c.w)
}

/// A linear colour sRGB-encoded, alpha as it is.
pub fn linear_to_srgba(c: Vec4) -> Vec4 {
    Vec4::new(linear_to_srgb(c.x), linear_to_srgb(c.y), linear_to_srgb(c.z), c.w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_directions_undo_each_other() {
        for i in 0..=20 {
            let c = i as f32 / 20.0;
            assert!((srgb_to_linear(linear_to_srgb(c)) - c).abs() < 1e-5, "{c}");
        }
        assert!((srgb_to_linear(0.5) - 0.214).abs() < 1e-3);
    }
}
