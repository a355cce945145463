//! Self-shadow: a depth map of the casting materials seen from the scene's light, drawn before the frame and
//! read by the receiving materials in `fs_mesh` (shaders/mesh.wgsl `self_shadow`).
//!
//! MikuMikuDance's own light projection ([`crate::scene::SelfShadow`]) starts at the camera and is warped
//! toward it (a trapezoid, wider away from the camera; mode 2 reaches to infinity). rigscope's map is
//! orthographic instead: a square across the light centred on the camera's target, as wide as MikuMikuDance's
//! map is where it starts (±1 / (2 × scale) in mode 1, ±1 / (3 × scale) in mode 2), with MikuMikuDance's depth
//! range and its depth comparison. An orthographic map doesn't swim as the orbit camera turns, and a viewer
//! looks at the model rather than a stage, so the camera-warped detail would buy little.

use glam::{Mat4, Vec3};

use super::camera::Camera;
use crate::scene::FrameBounds;

/// The side of the shadow map in texels (nanoem's default for MikuMikuDance's map): 0.043 units a texel at
/// MikuMikuDance's default distance, about 460 texels down a 20-unit character.
pub(crate) const MAP_SIZE: u32 = 2048;

/// The light's view of one frame, for the `View` uniforms: `matrix` world → the map's clip space, `params` as
/// shaders/view.wgsl's `shadow`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ShadowView {
    pub matrix: Mat4,
    pub params: [f32; 4],
}

impl ShadowView {
    /// The `shadow_matrix` and `shadow` fields of the uniforms; zeros (no self-shadow) for `None`.
    pub fn uniforms(view: Option<&ShadowView>) -> [f32; 20] {
        let mut u = [0.0; 20];
        if let Some(v) = view {
            u[..16].copy_from_slice(&v.matrix.to_cols_array());
            u[16..].copy_from_slice(&v.params);
        }
        u
    }
}

/// Where the map lies and how shadow sets in, in world units.
struct Coverage {
    /// The direction the light travels (world space, unit length).
    travel: Vec3,
    /// The centre of the covered square (world space).
    centre: Vec3,
    /// Half the square's side.
    half_extent: f32,
    /// Half the depth range along the light, either side of the centre.
    half_depth: f32,
    /// How fast shadow sets in per world unit behind the nearest caster.
    rate: f32,
}

/// What of a frame the self-shadow depends on (from [`super::FrameInput`]; the frame passes it in, so this file
/// and the frame's don't import each other).
#[derive(Clone, Copy)]
pub(crate) struct ShadowInput<'a> {
    pub camera: &'a Camera,
    pub light: Option<crate::scene::Light>,
    pub self_shadow: Option<crate::scene::SelfShadow>,
    /// [`super::Overlays::self_shadow`] and [`super::Overlays::view_self_shadow`].
    pub mmd_shadow: bool,
    pub view_shadow: bool,
}

/// The frame's self-shadow view, or `None` when no self-shadow is drawn: MikuMikuDance's, when the overlays
/// ask for it ([`super::Overlays::self_shadow`]) and the frame has a light and a self-shadow
/// ([`super::FrameInput::self_shadow`]); for a scene without a light of its own, one from the viewer's key light (from
/// the eye and above it, as `fs_mesh` lights toon ramps) when [`super::Overlays::view_self_shadow`] asks,
/// covering `bounds` (the model's, model space) around the camera's target.
pub(crate) fn shadow_view(frame: ShadowInput<'_>, bounds: Option<FrameBounds>) -> Option<ShadowView> {
    let camera = frame.camera;
    let to_world = camera.model_matrix();
    let centre = camera.fixed.map_or(camera.target, |f| f.target);
    let coverage = match (frame.light, frame.self_shadow) {
        (Some(light), Some(s)) if frame.mmd_shadow => Coverage {
            travel: to_world.transform_vector3(light.direction).normalize_or_zero(),
            centre,
            half_extent: s.half_extent(),
            half_depth: s.half_depth(),
            rate: s.rate(),
        },
        (None, _) if frame.view_shadow => {
            let size = bounds.map_or(1.0, |b| b.diagonal()).max(1e-6);
            let to_eye = (camera.eye() - centre).normalize_or(Vec3::Z);
            Coverage {
                travel: -(to_eye + 0.8 * Vec3::Y).normalize_or_zero(),
                centre,
                half_extent: 0.75 * size,
                half_depth: 2.0 * size,
                // Shadow sets in 0.5% of the model's size behind a caster, full at 2.2%: about what
                // MikuMikuDance's default gives its 20-unit characters (0.12 and 0.51 units).
                rate: 60.0 / size,
            }
        }
        _ => return None,
    };
    coverage.view()
}

impl Coverage {
    fn view(&self) -> Option<ShadowView> {
        if self.travel == Vec3::ZERO || !(self.half_extent.is_finite() && self.half_depth.is_finite()) {
            return None;
        }
        let up = if self.travel.y.abs() > 0.99 { Vec3::Z } else { Vec3::Y };
        let eye = self.centre - self.travel * self.half_depth;
        let view = glam::camera::rh::view::look_at_mat4(eye, self.centre, up);
        let h = self.half_extent;
        let projection = glam::camera::rh::proj::directx::orthographic(-h, h, -h, h, 0.0, 2.0 * self.half_depth);
        let texel = 2.0 * h / MAP_SIZE as f32;
        // The map's depth runs 0..1 over 2 × half_depth world units (params.z converts). Receivers are looked up
        // a texel along their normal (params.w), and compared a little nearer the light where they face it at a
        // slant (shaders/mesh.wgsl `self_shadow`), so a surface doesn't shade itself (acne).
        let depth_per_unit = 1.0 / (2.0 * self.half_depth);
        Some(ShadowView { matrix: projection * view, params: [1.0, self.rate / depth_per_unit, depth_per_unit, texel] })
    }
}

/// The format the map's depths are kept in: each depth packed into 24 bits of RGB (`pack_depth` in
/// shaders/mesh.wgsl). A depth texture can't be read with `textureLoad` under WebGL2 (GLSL has no such read), and
/// an 8-bit colour target is renderable everywhere, where 32-bit float targets need an extension on WebGL2.
pub(crate) const MAP_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The view's shadow map: `size`² texels of packed depth (1 until a self-shadow is first drawn, so views that
/// never draw one hold no 16 MiB map), and the depth buffer its pass tests against.
pub(crate) struct ShadowMap {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub depth: wgpu::TextureView,
}

impl ShadowMap {
    pub fn new(device: &wgpu::Device, size: u32) -> Self {
        let make = |label, format, usage| super::texture_2d(device, label, (size, size), format, 1, usage);
        let texture = make(
            "rigscope self-shadow map",
            MAP_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let depth = make("rigscope self-shadow depth", super::DEPTH_FORMAT, wgpu::TextureUsages::RENDER_ATTACHMENT);
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let depth = depth.create_view(&wgpu::TextureViewDescriptor::default());
        ShadowMap { texture, view, depth }
    }

    pub fn size(&self) -> u32 {
        self.texture.width()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A point on the light's path through the centre lands in the middle of the map, nearer the light means
    /// smaller depth, and the square is as wide as asked.
    #[test]
    fn the_map_looks_along_the_light_and_spans_the_coverage() {
        let c = Coverage {
            travel: Vec3::new(-0.5, -1.0, 0.5).normalize(),
            centre: Vec3::new(0.0, 10.0, 0.0),
            half_extent: 40.0,
            half_depth: 500.0,
            rate: 2.5,
        };
        let v = c.view().unwrap();
        let at = |p: Vec3| v.matrix.project_point3(p);
        let mid = at(c.centre);
        assert!(mid.truncate().length() < 1e-5 && (mid.z - 0.5).abs() < 1e-5, "{mid}");
        let nearer = at(c.centre - c.travel * 10.0);
        assert!(nearer.truncate().length() < 1e-4 && nearer.z < mid.z);
        assert!((mid.z - nearer.z - 10.0 / 1000.0).abs() < 1e-5, "depth runs 0..1 over 2 × half_depth");
        let side = c.travel.cross(Vec3::Y).normalize();
        assert!((at(c.centre + side * 40.0).truncate().length() - 1.0).abs() < 1e-4);
        assert_eq!(v.params[1], 2.5 * 1000.0, "the rate per unit of map depth");
        assert_eq!(v.params[2], 1.0 / 1000.0, "map depth per world unit");
        assert_eq!(v.params[3], 80.0 / MAP_SIZE as f32, "a texel, world units");
        let straight_down = Coverage { travel: Vec3::NEG_Y, ..c };
        assert!(straight_down.view().unwrap().matrix.is_finite());
        assert!(Coverage { travel: Vec3::ZERO, ..straight_down }.view().is_none());
    }
}
