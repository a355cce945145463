//! Pip's texture: the layout of the parts' rectangles, the palette and the painters that fill them.

use glam::DVec2;

use super::TEXTURE_SIZE;

/// Texture rectangles in pixels (x, y, width, height); each part's surface unrolls into one.
pub(super) mod rect {
    pub const HEAD: [f64; 4] = [0.0, 0.0, 256.0, 112.0];
    pub const TORSO: [f64; 4] = [0.0, 112.0, 128.0, 96.0];
    pub const ARM: [f64; 4] = [128.0, 112.0, 64.0, 96.0];
    pub const LEG: [f64; 4] = [192.0, 112.0, 64.0, 96.0];
    pub const FOOT: [f64; 4] = [0.0, 208.0, 96.0, 48.0];
    pub const NECK: [f64; 4] = [96.0, 208.0, 32.0, 48.0];
    pub const EAR: [f64; 4] = [128.0, 208.0, 64.0, 48.0];
    pub const ANTENNA: [f64; 4] = [192.0, 208.0, 64.0, 48.0];
}

/// UVs stay this many pixels inside their rectangle, so bilinear filtering never pulls in a neighbour's colour.
pub(super) const INSET: f64 = 1.5;

/// Palette, in sRGB bytes.
mod color {
    pub const CREAM: [f64; 3] = [240.0, 235.0, 222.0];
    pub const CREAM_LINE: [f64; 3] = [186.0, 178.0, 162.0];
    pub const ORANGE: [f64; 3] = [247.0, 136.0, 50.0];
    pub const ORANGE_LINE: [f64; 3] = [196.0, 92.0, 28.0];
    pub const NAVY: [f64; 3] = [28.0, 36.0, 64.0];
    pub const NAVY_LIGHT: [f64; 3] = [52.0, 66.0, 108.0];
    pub const CHARCOAL: [f64; 3] = [60.0, 64.0, 80.0];
    pub const SLATE: [f64; 3] = [78.0, 86.0, 110.0];
    pub const GREY: [f64; 3] = [150.0, 156.0, 168.0];
    pub const CYAN: [f64; 3] = [96.0, 228.0, 255.0];
    pub const PINK: [f64; 3] = [255.0, 120.0, 156.0];
    pub const RED: [f64; 3] = [236.0, 64.0, 96.0];
    pub const WHITE: [f64; 3] = [252.0, 252.0, 250.0];
}

/// A pixel being painted, in surface units: `x` across from the front centre line, `y` down the part from its
/// start, `aa` the size of one pixel (for anti-aliased edges).
struct Canvas {
    x: f64,
    y: f64,
    aa: f64,
    rgb: [f64; 3],
}

impl Canvas {
    /// Paints `rgb` where the signed distance `d` (negative inside) says, with a one-pixel soft edge.
    fn fill(&mut self, d: f64, rgb: [f64; 3], opacity: f64) {
        let cover = (0.5 - d / self.aa).clamp(0.0, 1.0) * opacity;
        for (c, n) in self.rgb.iter_mut().zip(rgb) {
            *c += (n - *c) * cover;
        }
    }

    /// Distance to a rounded box centred at (cx, cy) with half-size (hx, hy) and corner radius r.
    fn rounded_box(&self, cx: f64, cy: f64, hx: f64, hy: f64, r: f64) -> f64 {
        let q = DVec2::new((self.x - cx).abs() - hx + r, (self.y - cy).abs() - hy + r);
        q.max(DVec2::ZERO).length() + q.x.max(q.y).min(0.0) - r
    }

    /// Approximate distance to an ellipse (exact for circles), good enough for soft edges.
    fn ellipse(&self, cx: f64, cy: f64, rx: f64, ry: f64) -> f64 {
        let p = DVec2::new((self.x - cx) / rx, (self.y - cy) / ry);
        (p.length() - 1.0) * rx.min(ry)
    }

    /// Distance to a horizontal band between y0 and y1.
    fn band(&self, y0: f64, y1: f64) -> f64 {
        (y0 - self.y).max(self.y - y1)
    }

    /// Distance to a heart of height `size` whose point is at (cx, cy), pointing down the texture.
    fn heart(&self, cx: f64, cy: f64, size: f64) -> f64 {
        let p = DVec2::new((self.x - cx).abs() / size, (cy - self.y) / size);
        let d = if p.x + p.y > 1.0 {
            (p - DVec2::new(0.25, 0.75)).length() - std::f64::consts::SQRT_2 / 4.0
        } else {
            let a = (p - DVec2::new(0.0, 1.0)).length_squared();
            let b = (p - DVec2::splat(0.5 * (p.x + p.y).max(0.0))).length_squared();
            a.min(b).sqrt() * (p.x - p.y).signum()
        };
        d * size
    }
}

/// The face: a cream shell with an orange crest, a dark visor with glowing eyes, a smile and blushing cheeks.
fn paint_head(c: &mut Canvas, width: f64) {
    use color::*;
    c.rgb = CREAM;
    // The crest runs over the top from the forehead to the back of the head.
    c.fill(c.rounded_box(0.0, 0.0, 0.045, 0.14, 0.045), ORANGE, 1.0);
    for back in [-width / 2.0, width / 2.0] {
        c.fill(c.rounded_box(back, 0.0, 0.045, 0.3, 0.045), ORANGE, 1.0);
    }
    // Jaw seam.
    c.fill((c.y - 0.455).abs() - 0.004, CREAM_LINE, 1.0);
    let visor = c.rounded_box(0.0, 0.27, 0.30, 0.118, 0.085);
    c.fill(visor - 0.014, CREAM_LINE, 1.0);
    c.fill(visor, NAVY, 1.0);
    c.fill(c.ellipse(-0.12, 0.19, 0.16, 0.05).max(visor), NAVY_LIGHT, 0.35);
    for side in [-1.0, 1.0] {
        let (ex, ey) = (0.115 * side, 0.245);
        c.fill(c.ellipse(ex, ey, 0.05, 0.064) - 0.012, CYAN, 0.25);
        c.fill(c.ellipse(ex, ey, 0.05, 0.064), CYAN, 1.0);
        c.fill(c.ellipse(ex - 0.016, ey - 0.022, 0.016, 0.018), WHITE, 1.0);
        c.fill(c.ellipse(0.2 * side, 0.32, 0.04, 0.024), PINK, 0.8);
    }
    let smile = DVec2::new(c.x, c.y - 0.28).length();
    c.fill(((smile - 0.055).abs() - 0.009).max(0.292 - c.y), CYAN, 1.0);
}

/// Orange body with a cream chest plate and a heart, panel lines, a belt and dark shorts.
fn paint_torso(c: &mut Canvas, width: f64) {
    use color::*;
    c.rgb = ORANGE;
    c.fill(c.y - 0.05, CHARCOAL, 1.0);
    for side in [-1.0, 1.0] {
        c.fill(((c.x - side * width / 4.0).abs() - 0.005).max(c.band(0.07, 0.49)), ORANGE_LINE, 1.0);
    }
    c.fill((c.y - 0.07).abs() - 0.005, ORANGE_LINE, 1.0);
    let plate = c.rounded_box(0.0, 0.24, 0.17, 0.13, 0.05);
    c.fill(plate - 0.01, ORANGE_LINE, 1.0);
    c.fill(plate, CREAM, 1.0);
    c.fill(c.heart(0.0, 0.305, 0.13), RED, 1.0);
    c.fill(c.ellipse(-0.025, 0.215, 0.012, 0.012), WHITE, 0.8);
    c.fill(c.band(0.5, 0.56), CHARCOAL, 1.0);
    c.fill(0.56 - c.y, SLATE, 1.0);
    let buckle = c.rounded_box(0.0, 0.53, 0.05, 0.034, 0.012);
    c.fill(buckle, GREY, 1.0);
    c.fill(buckle + 0.012, CHARCOAL, 1.0);
}

/// Orange shoulder pad, cream upper arm, dark elbow, orange forearm, cream cuff, white glove.
fn paint_arm(c: &mut Canvas) {
    use color::*;
    c.rgb = ORANGE;
    c.fill(c.band(0.15, 0.3), CREAM, 1.0);
    c.fill((c.y - 0.15).abs() - 0.005, ORANGE_LINE, 1.0);
    c.fill(c.band(0.3, 0.37), CHARCOAL, 1.0);
    c.fill(c.band(0.545, 0.6), CREAM, 1.0);
    c.fill(0.6 - c.y, WHITE, 1.0);
    c.fill((c.y - 0.6).abs() - 0.004, CREAM_LINE, 1.0);
}

/// Shorts, cream thigh, dark knee with an orange pad, orange shin, cream sock.
fn paint_leg(c: &mut Canvas) {
    use color::*;
    c.rgb = SLATE;
    c.fill(c.band(0.12, 0.4), CREAM, 1.0);
    c.fill(c.band(0.4, 0.49), CHARCOAL, 1.0);
    c.fill(c.rounded_box(0.0, 0.445, 0.06, 0.045, 0.03), ORANGE, 1.0);
    c.fill(c.band(0.49, 0.7), ORANGE, 1.0);
    c.fill(0.7 - c.y, CREAM, 1.0);
}

/// Orange shoe with a dark sole (at the seam underneath), cream toe cap and heel, and laces.
fn paint_foot(c: &mut Canvas) {
    use color::*;
    c.rgb = ORANGE;
    c.fill(c.y - 0.1, CREAM, 1.0);
    c.fill(0.24 - c.y, CREAM, 1.0);
    c.fill((c.y - 0.24).abs().min((c.y - 0.1).abs()) - 0.004, ORANGE_LINE, 1.0);
    for y in [0.13, 0.16, 0.19] {
        c.fill(c.rounded_box(0.0, y, 0.03, 0.006, 0.006), CREAM, 1.0);
    }
    c.fill(0.16 - c.x.abs(), CHARCOAL, 1.0);
}

/// A dark ribbed neck.
fn paint_neck(c: &mut Canvas) {
    use color::*;
    c.rgb = CHARCOAL;
    let rib = (c.y / 0.04).fract();
    c.fill((rib - 0.5).abs() * 0.04 - 0.006, GREY, 0.7);
}

/// Orange ear pucks with a cream disc and a glowing centre on the outside.
fn paint_ear(c: &mut Canvas) {
    use color::*;
    c.rgb = ORANGE;
    c.fill(0.1 - c.y, CREAM, 1.0);
    c.fill((c.y - 0.1).abs() - 0.0015, ORANGE_LINE, 1.0);
    c.fill(0.114 - c.y, CYAN, 1.0);
}

/// A glowing pink bulb on a grey stalk.
fn paint_antenna(c: &mut Canvas) {
    use color::*;
    c.rgb = GREY;
    c.fill(c.y - 0.085, PINK, 1.0);
    c.fill(c.y - 0.018, WHITE, 0.7);
    c.fill(0.24 - c.y, CHARCOAL, 1.0);
}

/// Which painter covers each rectangle, and the surface size (around, along) its pixels span.
type Painter = fn(&mut Canvas, f64);

const REGIONS: [([f64; 4], [f64; 2], Painter); 8] = [
    (rect::HEAD, [1.9, 0.53], paint_head),
    (rect::TORSO, [1.5, 0.72], paint_torso),
    (rect::ARM, [0.43, 0.725], |c, _| paint_arm(c)),
    (rect::LEG, [0.53, 0.81], |c, _| paint_leg(c)),
    (rect::FOOT, [0.55, 0.33], |c, _| paint_foot(c)),
    (rect::NECK, [0.45, 0.22], |c, _| paint_neck(c)),
    (rect::EAR, [0.5, 0.12], |c, _| paint_ear(c)),
    (rect::ANTENNA, [0.1, 0.26], |c, _| paint_antenna(c)),
];

/// The texture as RGB bytes, row by row from the top (the UV origin).
pub fn texture_rgb() -> Vec<u8> {
    let n = TEXTURE_SIZE as usize;
    let mut out = vec![0u8; n * n * 3];
    for (i, px) in out.chunks_exact_mut(3).enumerate() {
        let (cx, cy) = ((i % n) as f64 + 0.5, (i / n) as f64 + 0.5);
        let Some(&([rx, ry, rw, rh], [around, along], paint)) =
            REGIONS.iter().find(|(r, ..)| cx >= r[0] && cx < r[0] + r[2] && cy >= r[1] && cy < r[1] + r[3])
        else {
            continue;
        };
        // The inverse of `Part::uv`; the inset margin repeats the edge.
        let a = ((cx - rx - INSET) / (rw - 2.0 * INSET)).clamp(0.0, 1.0);
        let b = ((cy - ry - INSET) / (rh - 2.0 * INSET)).clamp(0.0, 1.0);
        let aa = (around / (rw - 2.0 * INSET)).max(along / (rh - 2.0 * INSET));
        let mut canvas = Canvas { x: (a - 0.5) * around, y: b * along, aa, rgb: [0.0; 3] };
        paint(&mut canvas, around);
        for (o, v) in px.iter_mut().zip(canvas.rgb) {
            *o = v.round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}
