//! A skeleton drawn in 2D over a picture read back: bones as segments at least 2 px wide and joints as dots, for
//! pictures so small that the view's one-pixel lines vanish (a 256 px thumbnail of an animation file). The
//! segments are covered per pixel by distance, so their edges are smooth and the result is the same on every
//! adapter.

use glam::{Mat4, Vec2};
use image::{Rgba, RgbaImage};

use crate::render::lines::colors;

/// Draws the bones of `world` (model-space joint transforms; `parents` as the skeleton lists them) over `image`
/// as seen through `model_to_clip`: each bone `width` pixels wide in the bone colour, each joint a dot twice
/// as wide in the joint colour. Joints behind the camera are left out.
pub fn draw_bones(image: &mut RgbaImage, world: &[Mat4], parents: &[Option<usize>], model_to_clip: Mat4, width: f32) {
    let (w, h) = (image.width() as f32, image.height() as f32);
    let at: Vec<Option<Vec2>> = world
        .iter()
        .map(|m| {
            let clip = model_to_clip * m.w_axis.truncate().extend(1.0);
            (clip.w > 1e-6).then(|| Vec2::new((clip.x / clip.w + 1.0) * 0.5 * w, (1.0 - clip.y / clip.w) * 0.5 * h))
        })
        .collect();
    let bone = rgba(colors::BONE);
    for (i, parent) in parents.iter().enumerate().take(at.len()) {
        if let (Some(a), Some(b)) = (parent.and_then(|p| at.get(p).copied().flatten()), at[i]) {
            segment(image, a, b, width * 0.5, bone);
        }
    }
    let joint = rgba(colors::JOINT);
    for p in at.iter().flatten() {
        segment(image, *p, *p, width, joint);
    }
}

fn rgba(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

/// The pixels within `radius` of the segment from `a` to `b` (a dot when they are equal), covered by how far
/// inside they lie (a pixel's width of soft edge), blended over what is there.
fn segment(image: &mut RgbaImage, a: Vec2, b: Vec2, radius: f32, color: [u8; 4]) {
    let (w, h) = (image.width() as i64, image.height() as i64);
    let lo = a.min(b) - Vec2::splat(radius + 1.0);
    let hi = a.max(b) + Vec2::splat(radius + 1.0);
    let (x0, y0) = ((lo.x.floor() as i64).max(0), (lo.y.floor() as i64).max(0));
    let (x1, y1) = ((hi.x.ceil() as i64).min(w - 1), (hi.y.ceil() as i64).min(h - 1));
    let ab = b - a;
    let len2 = ab.length_squared();
    for y in y0..=y1 {
        for x in x0..=x1 {
            let p = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
            let t = if len2 > 0.0 { ((p - a).dot(ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
            let coverage = (radius + 0.5 - p.distance(a + ab * t)).clamp(0.0, 1.0);
            if coverage > 0.0 {
                blend(image.get_pixel_mut(x as u32, y as u32), color, coverage);
            }
        }
    }
}

/// `color` at `coverage` over `dst` (straight alpha, as PNG stores it).
fn blend(dst: &mut Rgba<u8>, color: [u8; 4], coverage: f32) {
    let src_a = f32::from(color[3]) / 255.0 * coverage;
    let dst_a = f32::from(dst[3]) / 255.0;
    let out_a = src_a + dst_a * (1.0 - src_a);
    if out_a <= 0.0 {
        return;
    }
    for c in 0..3 {
        let v = (f32::from(color[c]) * src_a + f32::from(dst[c]) * dst_a * (1.0 - src_a)) / out_a;
        dst[c] = v.round().clamp(0.0, 255.0) as u8;
    }
    dst[3] = (out_a * 255.0).round() as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A horizontal bone across a transparent picture is solid over its width and no wider than a pixel more.
    #[test]
    fn a_bone_is_as_wide_as_asked_and_joints_are_dots() {
        let mut image = RgbaImage::new(64, 64);
        let world =
            [Mat4::from_translation(glam::Vec3::new(-0.5, 0.0, 0.0)), Mat4::from_translation(glam::Vec3::X * 0.5)];
        draw_bones(&mut image, &world, &[None, Some(0)], Mat4::IDENTITY, 3.0);
        // The bone runs from x = 16 to 48 along y = 32; a column in its middle.
        let column: Vec<u8> = (0..64).map(|y| image.get_pixel(32, y)[3]).collect();
        let solid = column.iter().filter(|&&a| a == 255).count();
        let touched = column.iter().filter(|&&a| a > 0).count();
        assert!((2..=3).contains(&solid), "solid rows across the bone: {solid} ({column:?})");
        assert!(touched <= 5, "rows touched: {touched}");
        // The joint dot is wider than the bone.
        let across_joint = (0..64).filter(|&y| image.get_pixel(16, y)[3] == 255).count();
        assert!(across_joint > solid, "joint {across_joint} against bone {solid}");
        assert_eq!(image.get_pixel(32, 32).0[..3], rgba(colors::BONE)[..3]);
        assert_eq!(image.get_pixel(2, 2)[3], 0, "nothing drawn away from the skeleton");
    }
}
