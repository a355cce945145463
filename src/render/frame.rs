//! One frame, assembled: view uniforms, the pose's palette, overlay lines, then mesh, wireframe, grid, bounds
//! and skeleton in that order.

use glam::{Mat4, Vec3};

use super::camera::Camera;
use super::lines::{self, LineVertex, colors};
use super::model::GpuModel;
use super::{Renderer, bytes, grid, mesh};
use crate::anim::{Ghost, OnionSpacing, Pose, onion_ghosts, skinned_bounds};
use crate::scene::{FrameBounds, Scene};

/// What to draw besides the lit mesh, and how. The UI keeps one of these as its toggles.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlays {
    /// The textured, lit mesh itself.
    pub mesh: bool,
    pub cull_back_faces: bool,
    pub grid: bool,
    /// A picked point (model space, posed), marked with a small cross over everything.
    pub marker: Option<Vec3>,
    /// Where the grid sits along the model's up axis (model space, [`super::ground_height`] of the shown
    /// clip's bounds); `None`: through the file's origin.
    pub ground: Option<f32>,
    /// Bones from each joint to its parent (`Pose::world`), drawn over everything.
    pub skeleton: bool,
    pub selected_joint: Option<usize>,
    /// Joints selected with `selected_joint` (a display frame's bones, joints Ctrl+clicked), drawn selected in
    /// the skeleton too.
    pub selected_group: Vec<usize>,
    /// Tint the vertices weighted to this joint, by their weight (the selected joint's geometry).
    pub highlight_joint: Option<usize>,
    pub wireframe: bool,
    /// This frame's bounds as the file stores them (`Clip::bounds`), drawn in green when present (its corners
    /// also over the computed box, so both show where they coincide).
    pub stored_bounds: Option<FrameBounds>,
    /// This frame's bounds computed by skinning, drawn in pink when present. See [`frame_bounds`].
    pub computed_bounds: Option<FrameBounds>,
    /// Meshes not to draw, by index into `Scene::meshes` (`true` = hidden; missing entries are shown). The
    /// wireframe still shows every triangle.
    pub hidden_meshes: Vec<bool>,
    /// Boxes the file declares, as transforms of the cube [−1, 1]³ in model space, drawn in orange.
    pub boxes: Vec<Mat4>,
    /// An animated camera's path, world space (a polyline through its eye positions), drawn in cyan.
    pub camera_path: Vec<Vec3>,
    /// An animated camera's frustum at the current time, world space segments, drawn in white.
    pub camera_frustum: Vec<[Vec3; 2]>,
    /// The reference's bones (Compare with…), model space: drawn as a ghost skeleton, or side by side in the
    /// reference's own view when `skeleton` is on.
    pub reference_bones: Vec<[Vec3; 2]>,
    /// Compare side by side: the reference is drawn solid in a view of its own ([`ViewState::paint_reference`]),
    /// not as a ghost over the model.
    pub reference_beside: bool,
    /// The reference's joint matching `selected_joint` (side by side, its tint and weight view).
    pub reference_joint: Option<usize>,
    /// Weight view: the mesh painted as a heat map of `selected_joint`'s weights (dark blue 0, through cyan,
    /// green and yellow, to red 1) instead of texture and lighting; with no joint selected everything is 0.
    pub weights: bool,
    /// A UV checker (with a u/v colour gradient) in place of the materials' textures.
    pub uv_checker: bool,
    /// Each vertex's skinned normal as a short line (skinned on the CPU, only while on); a normal pointing
    /// against its triangles' front side is drawn longer, in yellow, over everything.
    pub normals: bool,
    /// Each vertex's skinned tangent as a short line, when the model has tangents.
    pub tangents: bool,
    /// The axes of `selected_joint` in the pose (X red, Y green, Z blue), drawn over everything.
    pub joint_axes: bool,
    /// Onion-skin ghosts: the mesh under other poses, translucent, drawn after the mesh without writing depth.
    pub ghosts: Vec<Ghost>,
    /// Motion trails, model space: each a path drawn over everything, with a cross at each key on it.
    pub trails: Vec<crate::anim::Trail>,
    /// IK chains (goal, effector, links; [`crate::scene::Constraints::ik`]), drawn over everything.
    pub ik_chains: bool,
    /// Outlines of the materials that have one (MMD's edge).
    pub outline: bool,
    /// Wire shapes in model space drawn over everything (MMD rigid bodies and joints).
    pub shapes: Vec<WireShape>,
    /// The scene light's direction ([`FrameInput::light`]) as an arrow above the model, travelling the way the
    /// light does.
    pub light: bool,
    /// MikuMikuDance's ground shadow of the materials that cast one, along [`FrameInput::light`] (drawn only
    /// when the frame has a light).
    pub ground_shadow: bool,
    /// MikuMikuDance's self-shadow: a shadow map from [`FrameInput::light`] of the materials that cast into it,
    /// read by those that receive it, as [`FrameInput::self_shadow`] asks (drawn only when the frame has both).
    pub self_shadow: bool,
    /// The same self-shadow for a scene without a light of its own (every material casts and receives), from
    /// the viewer's key light (from the eye and above), over the model's bounds.
    pub view_self_shadow: bool,
    /// Every vertex blended linearly: the model's SDEF and QDEF vertices too (shaders/skin.wgsl
    /// `vertex_transform`), for comparing with what an engine without them draws.
    pub linear_skinning: bool,
}

/// A wire shape in model space: a sphere, box or capsule (along its local Y) placed by `transform`, or a joint's
/// axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WireShape {
    pub transform: Mat4,
    pub kind: WireKind,
    pub color: [f32; 4],
}

/// The kinds of [`WireShape`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WireKind {
    Sphere {
        radius: f32,
    },
    Box {
        half: Vec3,
    },
    Capsule {
        radius: f32,
        half_height: f32,
    },
    /// X red, Y green, Z blue, each `length` long.
    Axes {
        length: f32,
    },
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            mesh: true,
            cull_back_faces: true,
            grid: false,
            marker: None,
            ground: None,
            skeleton: false,
            selected_joint: None,
            selected_group: Vec::new(),
            highlight_joint: None,
            wireframe: false,
            stored_bounds: None,
            computed_bounds: None,
            hidden_meshes: Vec::new(),
            boxes: Vec::new(),
            camera_path: Vec::new(),
            camera_frustum: Vec::new(),
            reference_bones: Vec::new(),
            reference_beside: false,
            reference_joint: None,
            light: false,
            ground_shadow: false,
            self_shadow: false,
            view_self_shadow: false,
            linear_skinning: false,
            weights: false,
            uv_checker: false,
            normals: false,
            tangents: false,
            joint_axes: false,
            ghosts: Vec::new(),
            trails: Vec::new(),
            ik_chains: false,
            outline: true,
            shapes: Vec::new(),
        }
    }
}

/// The length of the normal and tangent lines, as a fraction of the bind-pose bounds' diagonal.
const DIRECTION_LINE: f32 = 0.025;
/// The length of the selected joint's axes, as a fraction of the bind-pose bounds' diagonal.
const JOINT_AXIS: f32 = 0.12;

/// The stored and the computed bounds of a frame, for [`Overlays`]. `clip_frame` is the clip and (fractional)
/// frame the pose was sampled at; the stored box is the one of the frame at or before it. Computing the box
/// skins every vertex on the CPU, so call this only while the bounds overlay is on.
pub fn frame_bounds(
    scene: &Scene,
    clip_frame: Option<(usize, f32)>,
    pose: &Pose,
) -> (Option<FrameBounds>, Option<FrameBounds>) {
    let stored = clip_frame.and_then(|(c, f)| scene.clips.get(c)?.stored_bounds_at(f));
    (stored, skinned_bounds(&crate::anim::morphed_vertices(scene, &pose.morphs), &pose.palette))
}

/// The overlays that belong to one frame, for pictures of frames other than the one shown (contact sheets,
/// recordings, `render` of a clip): which of them are on. [`FrameOverlays::at`] redoes them for each frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameOverlays {
    /// The frame's bounds as the file stores them (green).
    pub stored_bounds: bool,
    /// The frame's bounds computed by skinning (pink).
    pub computed_bounds: bool,
    /// Onion-skin ghosts: how many either side, how far apart.
    pub onion: Option<OnionSpacing>,
    /// Motion trails of these joints, this many frames either side.
    pub trails: Option<(Vec<usize>, u32)>,
}

impl FrameOverlays {
    /// `base` for `clip_frame` (clip and fractional frame; `None`: the bind pose) posed as `pose`: its bounds,
    /// onion ghosts and trails are that frame's, and what belongs to the instant shown alone is left out (the picked
    /// point, the animated camera's frustum, the reference's bones).
    pub fn at(
        &self,
        base: &Overlays,
        scene: &Scene,
        clip_frame: Option<(usize, f32)>,
        pose: &Pose,
        default_fps: f32,
    ) -> Overlays {
        let mut overlays = base.clone();
        overlays.marker = None;
        overlays.camera_frustum.clear();
        overlays.reference_bones.clear();
        overlays.ghosts = match (self.onion, clip_frame) {
            (Some(n), Some((c, f))) => {
                scene.clips.get(c).map_or_else(Vec::new, |clip| onion_ghosts(&scene.skeleton, clip, f, n, default_fps))
            }
            _ => Vec::new(),
        };
        overlays.trails = match (&self.trails, clip_frame.and_then(|(c, f)| Some((scene.clips.get(c)?, f)))) {
            (Some((joints, n)), Some((clip, f))) => joints
                .iter()
                .map(|&j| {
                    let keys = clip.joint_key_frames(j, default_fps);
                    crate::anim::motion_trail(&scene.skeleton, clip, j, f, *n, &keys, default_fps)
                })
                .collect(),
            _ => Vec::new(),
        };
        (overlays.stored_bounds, overlays.computed_bounds) = if self.stored_bounds || self.computed_bounds {
            let (stored, computed) = frame_bounds(scene, clip_frame, pose);
            (stored.filter(|_| self.stored_bounds), computed.filter(|_| self.computed_bounds))
        } else {
            (None, None)
        };
        overlays
    }
}

/// Everything that changes from frame to frame.
#[derive(Debug, Clone, Copy)]
pub struct FrameInput<'a> {
    pub camera: &'a Camera,
    /// The pose to draw; its palette is uploaded and its `world` matrices place the skeleton.
    pub pose: &'a Pose,
    pub overlays: &'a Overlays,
    /// Seconds into the clip shown (0 without one): animated UVs are evaluated here.
    pub time: f32,
    /// The pose of the view's reference model ([`ViewState::set_reference`]), drawn as a ghost; `None`: not drawn.
    pub reference_pose: Option<&'a Pose>,
    /// The scene's directional light ([`crate::scene::Scene::light_at`]): its direction (model space) shades
    /// toon materials, its colour lights MikuMikuDance materials (`ambient + diffuse × colour`). `None`: the
    /// viewer's own light (from the eye).
    pub light: Option<crate::scene::Light>,
    /// The scene's self-shadow ([`crate::scene::Scene::self_shadow_at`]): its mode and distance size the shadow
    /// map cast along `light`. `None`: none (MikuMikuDance's mode 0, or a scene without one).
    pub self_shadow: Option<crate::scene::SelfShadow>,
}

impl<'a> FrameInput<'a> {
    /// A still: `pose` seen by `camera` with `overlays` at time 0, in the viewer's own light, with no reference
    /// ghost and no self-shadow (set the fields for more).
    pub fn still(camera: &'a Camera, pose: &'a Pose, overlays: &'a Overlays) -> FrameInput<'a> {
        FrameInput { camera, pose, overlays, time: 0.0, reference_pose: None, light: None, self_shadow: None }
    }
}

/// Colour, optional MSAA resolve, and depth views for [`Renderer::paint_frame`]. With MSAA, `color` is the
/// multisampled texture and `resolve` the single-sample one that receives the picture.
#[derive(Debug, Clone, Copy)]
pub struct Targets<'a> {
    pub color: &'a wgpu::TextureView,
    pub resolve: Option<&'a wgpu::TextureView>,
    pub depth: &'a wgpu::TextureView,
    /// Width and height in pixels (for the aspect ratio).
    pub size: (u32, u32),
}

/// A rectangle of a frame's target in physical pixels: where a view goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PixelRect {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
}

impl PixelRect {
    /// The smallest rectangle holding both.
    pub fn union(self, other: PixelRect) -> PixelRect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        let right = (self.x + self.width).max(other.x + other.width);
        let bottom = (self.y + self.height).max(other.y + other.height);
        PixelRect { x, y, width: right - x, height: bottom - y }
    }

    /// Viewport and scissor of `pass` set to this rectangle.
    fn bound(self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_viewport(self.x as f32, self.y as f32, self.width as f32, self.height as f32, 0.0, 1.0);
        pass.set_scissor_rect(self.x, self.y, self.width, self.height);
    }

    fn is_empty(self) -> bool {
        self.width == 0 || self.height == 0
    }
}

/// Where a frame's views go in its target: the model's, and with Compare side by side the reference's (of the
/// same size, so one projection serves both).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panes {
    pub model: PixelRect,
    pub reference: Option<PixelRect>,
}

impl Panes {
    /// What the panes cover together (a screenshot's crop).
    pub fn bounds(&self) -> PixelRect {
        self.reference.map_or(self.model, |r| self.model.union(r))
    }
}

/// Per-view GPU state: the uniform buffer and the overlay line buffer. A window's viewport keeps one; so does
/// the headless renderer. `prepare` writes through the queue, so it takes effect at the next submission: use
/// one submission per prepared frame.
pub struct ViewState {
    /// The view uniforms and their bind group (the skinning capture draws with them too).
    pub(super) uniforms: wgpu::Buffer,
    pub(super) group: wgpu::BindGroup,
    lines: wgpu::Buffer,
    line_capacity: u64,
    /// Depth-tested lines (grid, bounds) then on-top lines (skeleton).
    tested: std::ops::Range<u32>,
    on_top: std::ops::Range<u32>,
    overlays: Overlays,
    /// The motion hides the model at this frame ([`Pose::hidden`]): overlays are drawn, the mesh is not.
    hidden: bool,
    /// Ground shadows are drawn this frame: asked for ([`Overlays::ground_shadow`]) and the frame has a light.
    ground_shadow: bool,
    /// The self-shadow map (1×1 until one is drawn), the view group that binds it with the uniforms, and the
    /// group of the uniforms alone that the map's own pass binds.
    shadow_map: super::shadow::ShadowMap,
    uniforms_group: wgpu::BindGroup,
    /// The model's blended draws, back to front for this frame's camera and pose.
    blend_order: Vec<usize>,
    /// One palette buffer and bind group per onion-skin ghost, kept between frames (the first
    /// `ghosts_used` hold this frame's ghosts).
    ghosts: Vec<(super::data_texture::DataTexture, wgpu::BindGroup)>,
    ghosts_used: usize,
    /// The normal and tangent lines (depth-tested, and flipped normals drawn on top) for the key they were
    /// skinned for.
    directions: Option<(DirectionKey, Vec<LineVertex>, Vec<LineVertex>)>,
    /// A second model drawn in the view as a translucent ghost (Compare with…), with its palette buffer and
    /// group; `reference_drawn`: posed for this frame.
    reference: Option<(GpuModel, super::data_texture::DataTexture, wgpu::BindGroup)>,
    reference_drawn: bool,
    /// Side by side ([`Overlays::reference_beside`]): the reference's view uniforms (the same camera; its own
    /// selected joint, no self-shadow) and their group, its draws in order, and its lines: the grid
    /// (depth-tested) and its bones (on top).
    beside_uniforms: wgpu::Buffer,
    beside_group: wgpu::BindGroup,
    reference_order: Vec<usize>,
    beside_tested: std::ops::Range<u32>,
    beside_on_top: std::ops::Range<u32>,
}

/// The tint of the reference ghost (Compare with…): the orange of its skeleton lines, translucent.
const REFERENCE_GHOST: [f32; 4] = [1.0, 0.55, 0.1, 0.35];

/// What the normal and tangent lines depend on.
#[derive(Debug, Clone, PartialEq)]
struct DirectionKey {
    model: u64,
    palette: Vec<Mat4>,
    normals: bool,
    tangents: bool,
}

impl ViewState {
    pub fn new(renderer: &Renderer) -> Self {
        let uniforms = renderer.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("rigscope view uniforms"),
            size: UNIFORM_FLOATS as u64 * 4,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let shadow_map = super::shadow::ShadowMap::new(&renderer.device, 1);
        let group = view_group(renderer, &uniforms, &shadow_map);
        let beside_uniforms = renderer.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("rigscope reference view uniforms"),
            size: UNIFORM_FLOATS as u64 * 4,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let beside_group = view_group(renderer, &beside_uniforms, &shadow_map);
        let uniforms_group = renderer.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("rigscope view uniforms"),
            layout: &renderer.layouts.view_uniforms,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniforms.as_entire_binding() }],
        });
        let line_capacity = 1024;
        let lines = line_buffer(&renderer.device, line_capacity);
        ViewState {
            uniforms,
            group,
            lines,
            line_capacity,
            tested: 0..0,
            on_top: 0..0,
            overlays: Overlays::default(),
            hidden: false,
            ground_shadow: false,
            shadow_map,
            uniforms_group,
            blend_order: Vec::new(),
            ghosts: Vec::new(),
            ghosts_used: 0,
            directions: None,
            reference: None,
            reference_drawn: false,
            beside_uniforms,
            beside_group,
            reference_order: Vec::new(),
            beside_tested: 0..0,
            beside_on_top: 0..0,
        }
    }

    /// Sets (or with `None` removes) the second model this view draws as a ghost, posed by
    /// [`FrameInput::reference_pose`] each frame.
    pub fn set_reference(&mut self, renderer: &Renderer, model: Option<GpuModel>) {
        self.reference = model.map(|m| {
            let (buffer, group) = super::model::palette_buffer(renderer, m.palette_len(), "reference ghost palette");
            (m, buffer, group)
        });
        // Its blended draws in the file's order (only the model's are sorted back to front each frame).
        self.reference_order = self.reference.as_ref().map_or_else(Vec::new, |(m, ..)| (0..m.draws.len()).collect());
        self.reference_drawn = false;
    }

    /// Uploads the view uniforms, the pose's palette and the overlay lines for a `size` viewport.
    pub fn prepare(&mut self, renderer: &Renderer, model: &GpuModel, input: &FrameInput<'_>, size: (u32, u32)) {
        let o = input.overlays;
        self.hidden = input.pose.hidden;
        let shadow = self.write_view(renderer, model, input, size);
        self.ground_shadow = o.ground_shadow && input.light.is_some();
        self.upload_poses(renderer, model, input);
        if shadow {
            self.draw_shadow_map(renderer, model, &o.hidden_meshes);
        }
        let camera = input.camera;
        self.blend_order = mesh::blend_order(model, &input.pose.palette, camera.model_matrix(), camera.eye());
        let (mut v, tested) = self.overlay_lines(model, input);
        self.tested = 0..tested;
        self.on_top = tested..v.len() as u32;
        // Side by side, the reference's view: the model's grid, so both stand on one floor, and its bones.
        let start = v.len() as u32;
        if o.reference_beside && o.grid {
            grid::grid(&mut v, model.up, model.bind_bounds().as_ref(), o.ground);
        }
        let middle = v.len() as u32;
        if o.reference_beside && o.skeleton {
            for [a, b] in &o.reference_bones {
                lines::line(&mut v, *a, *b, colors::REFERENCE);
            }
        }
        (self.beside_tested, self.beside_on_top) = (start..middle, middle..v.len() as u32);
        if !v.is_empty() {
            let need = v.len() as u64;
            if need > self.line_capacity {
                self.line_capacity = need.next_power_of_two();
                self.lines = line_buffer(&renderer.device, self.line_capacity);
            }
            renderer.queue.write_buffer(&self.lines, 0, bytes(&v));
        }
        self.overlays = o.clone();
    }

    /// Writes the `View` uniforms for a `size` viewport: camera, line and debug-view parameters, the light and
    /// the self-shadow's view. Returns whether a self-shadow map is drawn this frame.
    fn write_view(&self, renderer: &Renderer, model: &GpuModel, input: &FrameInput<'_>, size: (u32, u32)) -> bool {
        let aspect = size.0.max(1) as f32 / size.1.max(1) as f32;
        let o = input.overlays;
        let wire = if o.mesh { colors::WIRE_ON_MESH } else { colors::WIRE };
        // params.w: the highlighted joint + 1 (0 = none), exact as a float below 2^24.
        let highlight = o.highlight_joint.map_or(0.0, |j| (j as f32) + 1.0);
        let weight_joint = o.selected_joint.map_or(0.0, |j| (j as f32) + 1.0);
        let modes = [
            f32::from(u8::from(o.weights)),
            f32::from(u8::from(o.uv_checker)),
            weight_joint,
            f32::from(u8::from(o.linear_skinning)),
        ];
        let params = [0.002, 0.0, 0.0, highlight];
        let light = input.light.map_or([0.0; 8], |l| {
            let [x, y, z] = l.direction.to_array();
            let [r, g, b] = l.color.to_array();
            [x, y, z, 1.0, r, g, b, 1.0]
        });
        let frame = super::shadow::ShadowInput {
            camera: input.camera,
            light: input.light,
            self_shadow: input.self_shadow,
            mmd_shadow: o.self_shadow,
            view_shadow: o.view_self_shadow,
        };
        let shadow = super::shadow::shadow_view(frame, model.bind_bounds()).filter(|_| o.mesh && !self.hidden);
        let shadow_uniforms = super::shadow::ShadowView::uniforms(shadow.as_ref());
        write_uniforms(renderer, &self.uniforms, input.camera, aspect, [wire, params, modes], light, &shadow_uniforms);
        if o.reference_beside && self.reference.is_some() {
            // The reference's own joint for the tint and the weight view; the self-shadow map is the model's.
            let joint = o.reference_joint.map_or(0.0, |j| (j as f32) + 1.0);
            let params = [params[0], params[1], params[2], if o.highlight_joint.is_some() { joint } else { 0.0 }];
            let modes = [modes[0], modes[1], joint, modes[3]];
            let none = super::shadow::ShadowView::uniforms(None);
            write_uniforms(renderer, &self.beside_uniforms, input.camera, aspect, [wire, params, modes], light, &none);
        }
        shadow.is_some()
    }

    /// Uploads the pose (palette, morphs, draw parameters), the onion ghosts and the reference model's pose.
    fn upload_poses(&mut self, renderer: &Renderer, model: &GpuModel, input: &FrameInput<'_>) {
        model.write_palette(renderer, &input.pose.palette);
        model.morphs.write(renderer, &input.pose.morphs);
        self.prepare_ghosts(renderer, model, &input.overlays.ghosts);
        self.reference_drawn = false;
        if let (Some((r, buffer, _)), Some(pose)) = (&self.reference, input.reference_pose) {
            r.write_palette_into(renderer, buffer, &pose.palette, REFERENCE_GHOST);
            r.morphs.write(renderer, &pose.morphs);
            r.write_draw_params(renderer, input.time, &pose.morphs, input.light.map(|l| l.color));
            self.reference_drawn = true;
        }
        model.write_draw_params(renderer, input.time, &input.pose.morphs, input.light.map(|l| l.color));
    }

    /// The normal and tangent lines of the pose, skinned on the CPU only when model, pose or switches change (a
    /// paused view costs nothing); `None` when neither is shown.
    fn update_directions(&mut self, model: &GpuModel, input: &FrameInput<'_>, length: f32) {
        let o = input.overlays;
        if !(o.normals || o.tangents) {
            self.directions = None;
            return;
        }
        let key = DirectionKey {
            model: model.id,
            palette: input.pose.palette.clone(),
            normals: o.normals,
            tangents: o.tangents,
        };
        if self.directions.as_ref().is_none_or(|(k, _, _)| *k != key) {
            let d = lines::Directions {
                streams: &model.cpu,
                flipped: &model.flipped,
                normals: o.normals,
                tangents: o.tangents,
                length,
            };
            let (mut lines, mut flipped) = (Vec::new(), Vec::new());
            d.build(&input.pose.palette, &mut lines, &mut flipped);
            self.directions = Some((key, lines, flipped));
        }
    }

    /// The overlay lines of this frame, and how many of them are depth-tested (the rest draw on top).
    fn overlay_lines(&mut self, model: &GpuModel, input: &FrameInput<'_>) -> (Vec<LineVertex>, u32) {
        let (o, camera) = (input.overlays, input.camera);
        let mut v: Vec<LineVertex> = Vec::new();
        let scale = model.bind_bounds().map_or(1.0, |b| b.diagonal()).max(1e-6);
        self.update_directions(model, input, scale * DIRECTION_LINE);
        if let Some((_, lines, _)) = &self.directions {
            v.extend_from_slice(lines);
        }
        if o.grid {
            grid::grid(&mut v, model.up, model.bind_bounds().as_ref(), o.ground);
        }
        if let Some(b) = &o.stored_bounds {
            lines::bounds_box(&mut v, b, colors::STORED_BOUNDS);
        }
        if let Some(b) = &o.computed_bounds {
            lines::bounds_box(&mut v, b, colors::COMPUTED_BOUNDS);
        }
        for b in &o.boxes {
            lines::oriented_box(&mut v, b, colors::MARKED_BOX);
        }
        // Camera overlays are in world space; lines are drawn in model space.
        let to_model = camera.model_matrix().inverse();
        for pair in o.camera_path.windows(2) {
            let (a, b) = (to_model.transform_point3(pair[0]), to_model.transform_point3(pair[1]));
            lines::line(&mut v, a, b, colors::CAMERA_PATH);
        }
        for [a, b] in &o.camera_frustum {
            lines::line(&mut v, to_model.transform_point3(*a), to_model.transform_point3(*b), colors::CAMERA_FRUSTUM);
        }
        for [a, b] in o.reference_bones.iter().filter(|_| !o.reference_beside) {
            lines::line(&mut v, *a, *b, colors::REFERENCE);
        }
        if let (true, Some(light), Some(bounds)) = (o.light, input.light, model.bind_bounds()) {
            lines::light_arrow(&mut v, &bounds, light.direction, colors::LIGHT);
        }
        // Where the two boxes coincide the stored one still shows, at the corners.
        if let Some(b) = &o.stored_bounds {
            lines::box_corners(&mut v, b, colors::STORED_BOUNDS);
        }
        let tested = v.len() as u32;
        if o.skeleton {
            let size = model.bind_bounds().map_or(0.01, |b| b.diagonal() * 0.006);
            let selected = (o.selected_joint, o.selected_group.as_slice());
            lines::skeleton(&mut v, &input.pose.world, &model.parents, selected, size);
        }
        if o.ik_chains {
            let size = model.bind_bounds().map_or(0.01, |b| b.diagonal() * 0.006);
            lines::ik_chains(&mut v, &input.pose.world, &model.ik_chains, size);
        }
        if let Some((_, _, flipped)) = &self.directions {
            v.extend_from_slice(flipped);
        }
        if let Some(world) = o.selected_joint.filter(|_| o.joint_axes).and_then(|j| input.pose.world.get(j)) {
            lines::joint_axes(&mut v, world, scale * JOINT_AXIS);
        }
        for shape in &o.shapes {
            lines::wire_shape(&mut v, shape);
        }
        for trail in &o.trails {
            for pair in trail.path.windows(2) {
                lines::line(&mut v, pair[0], pair[1], colors::TRAIL);
            }
            let r = scale * JOINT_AXIS * 0.1;
            for &k in &trail.keys {
                for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                    lines::line(&mut v, k - axis * r, k + axis * r, colors::TRAIL_KEY);
                }
            }
        }
        if let Some(p) = o.marker {
            let r = scale * JOINT_AXIS * 0.5;
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                lines::line(&mut v, p - axis * r, p + axis * r, colors::SELECTED);
            }
        }
        (v, tested)
    }

    /// Draws the self-shadow map of `model` (its palette, morphs and the uniforms written) in a submission of its
    /// own, ahead of the frame that reads it; the map is made full size the first time.
    fn draw_shadow_map(&mut self, renderer: &Renderer, model: &GpuModel, hidden: &[bool]) {
        let size = super::shadow::MAP_SIZE.min(renderer.device.limits().max_texture_dimension_2d);
        if self.shadow_map.size() != size {
            self.shadow_map = super::shadow::ShadowMap::new(&renderer.device, size);
            self.group = view_group(renderer, &self.uniforms, &self.shadow_map);
            self.beside_group = view_group(renderer, &self.beside_uniforms, &self.shadow_map);
        }
        let mut encoder =
            renderer.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("self-shadow") });
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("rigscope self-shadow map"),
                // White is the packed depth 1: nothing casts there.
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.shadow_map.view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::WHITE),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.shadow_map.depth,
                    depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, &self.uniforms_group, &[]);
            pass.set_bind_group(1, &model.palette_group, &[]);
            pass.set_bind_group(3, &model.morphs.group, &[]);
            renderer.mesh.draw_shadow(&mut pass, model, hidden);
        }
        renderer.queue.submit([encoder.finish()]);
    }

    /// Writes each ghost's palette and colour into a palette buffer of its own (made or remade as the
    /// model's joint count needs).
    fn prepare_ghosts(&mut self, renderer: &Renderer, model: &GpuModel, ghosts: &[Ghost]) {
        let texels = super::model::palette_texels(model.palette_len());
        for (i, g) in ghosts.iter().enumerate() {
            if self.ghosts.get(i).is_none_or(|(b, _)| b.capacity() < texels) {
                let slot = super::model::palette_buffer(renderer, model.palette_len(), "onion ghost palette");
                if i < self.ghosts.len() {
                    self.ghosts[i] = slot;
                } else {
                    self.ghosts.push(slot);
                }
            }
            model.write_palette_into(renderer, &self.ghosts[i].0, &g.palette, g.color);
        }
        self.ghosts_used = ghosts.len();
    }

    /// Records the prepared frame into `pass`, whose targets match the renderer's format and sample count and
    /// have a depth attachment.
    pub fn paint(&self, renderer: &Renderer, model: &GpuModel, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_bind_group(1, &model.palette_group, &[]);
        pass.set_bind_group(3, &model.morphs.group, &[]);
        if self.overlays.mesh && !self.hidden {
            let o = &self.overlays;
            let passes = (o.outline, self.ground_shadow);
            renderer.mesh.draw(pass, model, o.cull_back_faces, &o.hidden_meshes, &self.blend_order, passes);
            let ghosts: Vec<&wgpu::BindGroup> = self.ghosts[..self.ghosts_used].iter().map(|(_, g)| g).collect();
            renderer.mesh.draw_ghosts(pass, model, o.cull_back_faces, &o.hidden_meshes, &ghosts);
            pass.set_bind_group(1, &model.palette_group, &[]);
        }
        let ghost = self.reference_drawn && self.overlays.mesh && !self.overlays.reference_beside;
        if let Some((r, _, group)) = self.reference.as_ref().filter(|_| ghost) {
            pass.set_bind_group(3, &r.morphs.group, &[]);
            renderer.mesh.draw_ghosts(pass, r, self.overlays.cull_back_faces, &[], &[group]);
            pass.set_bind_group(1, &model.palette_group, &[]);
            pass.set_bind_group(3, &model.morphs.group, &[]);
        }
        if self.overlays.wireframe {
            renderer.wire.draw(pass, model);
        }
        renderer.lines.draw(pass, &self.lines, self.tested.clone(), false);
        renderer.lines.draw(pass, &self.lines, self.on_top.clone(), true);
    }

    /// Side by side ([`Overlays::reference_beside`]): records the reference's view into `pass`: its mesh,
    /// textured and lit as the model's is (outlines too, no ground shadow), the grid and its bones. Nothing
    /// without a reference posed this frame.
    pub fn paint_reference(&self, renderer: &Renderer, pass: &mut wgpu::RenderPass<'_>) {
        let o = &self.overlays;
        let Some((r, _, palette)) = self.reference.as_ref().filter(|_| self.reference_drawn && o.reference_beside)
        else {
            return;
        };
        pass.set_bind_group(0, &self.beside_group, &[]);
        if o.mesh {
            pass.set_bind_group(1, palette, &[]);
            pass.set_bind_group(3, &r.morphs.group, &[]);
            renderer.mesh.draw(pass, r, o.cull_back_faces, &[], &self.reference_order, (o.outline, false));
        }
        renderer.lines.draw(pass, &self.lines, self.beside_tested.clone(), false);
        renderer.lines.draw(pass, &self.lines, self.beside_on_top.clone(), true);
    }

    /// Records the prepared frame's views into `pass`, each inside its pane: the model's, then side by side the
    /// reference's.
    pub fn paint_panes(&self, renderer: &Renderer, model: &GpuModel, pass: &mut wgpu::RenderPass<'_>, panes: Panes) {
        if !panes.model.is_empty() {
            panes.model.bound(pass);
            self.paint(renderer, model, pass);
        }
        if let Some(rect) = panes.reference.filter(|r| !r.is_empty()) {
            rect.bound(pass);
            self.paint_reference(renderer, pass);
        }
    }
}

impl Renderer {
    /// Draws a frame `view` was prepared for ([`ViewState::prepare`]) into `targets`, cleared to `clear`: over
    /// the whole target, or inside `panes`.
    pub fn paint_frame(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        targets: &Targets<'_>,
        clear: wgpu::Color,
        model: &GpuModel,
        view: &ViewState,
        panes: Option<Panes>,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("rigscope frame"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: targets.color,
                depth_slice: None,
                resolve_target: targets.resolve,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: targets.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        match panes {
            Some(panes) => view.paint_panes(self, model, &mut pass, panes),
            None => view.paint(self, model, &mut pass),
        }
    }
}

/// The `View` uniform block of shaders/view.wgsl, in floats.
const UNIFORM_FLOATS: usize = 16 * 3 + 4 * 8;

/// The view's group 0: its uniforms and its self-shadow map.
fn view_group(renderer: &Renderer, uniforms: &wgpu::Buffer, map: &super::shadow::ShadowMap) -> wgpu::BindGroup {
    renderer.device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("rigscope view"),
        layout: &renderer.layouts.view,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: uniforms.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&map.view) },
        ],
    })
}

/// Writes the `View` block: the camera's matrices and eye, then `[wire, params, modes]`, the light (direction
/// and a flag, colour and a flag; zeros for the viewer's own light) and the self-shadow (the map's matrix and
/// parameters, [`super::shadow::ShadowView::uniforms`]) as shaders/view.wgsl lays them out.
pub(crate) fn write_uniforms(
    renderer: &Renderer,
    buffer: &wgpu::Buffer,
    camera: &Camera,
    aspect: f32,
    [wire, params, modes]: [[f32; 4]; 3],
    light: [f32; 8],
    shadow: &[f32; 20],
) {
    let mut u: Vec<f32> = Vec::with_capacity(UNIFORM_FLOATS);
    u.extend(camera.view_proj(aspect).to_cols_array());
    u.extend(camera.model_matrix().to_cols_array());
    u.extend(camera.eye().extend(1.0).to_array());
    u.extend(Vec3::Y.extend(0.0).to_array());
    u.extend(wire);
    u.extend(params);
    u.extend(modes);
    u.extend(light);
    u.extend(shadow);
    renderer.queue.write_buffer(buffer, 0, bytes(&u));
}

fn line_buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("rigscope overlay lines"),
        size: capacity * std::mem::size_of::<LineVertex>() as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each frame of a sheet or a recording gets its own bounds and ghosts; the instant's marker and frustum go.
    #[test]
    fn per_frame_overlays_follow_the_frame_and_drop_the_instants() {
        let bytes = crate::synth::iqm_bytes(crate::synth::SynthSpec { vertices: 600, joints: 20, frames: 30 });
        let mut scene = crate::formats::iqm::read("synth.iqm", &bytes).unwrap();
        // Stored boxes that differ per frame, as an exporter would write them.
        scene.clips[0].bounds = Some(
            (0..30)
                .map(|f| FrameBounds { min: Vec3::ZERO, max: Vec3::splat(f as f32), xy_radius: 0.0, radius: 0.0 })
                .collect(),
        );
        let base = Overlays {
            marker: Some(Vec3::ONE),
            camera_frustum: vec![[Vec3::ZERO, Vec3::X]],
            reference_bones: vec![[Vec3::ZERO, Vec3::Y]],
            ..Overlays::default()
        };
        let per_frame = FrameOverlays {
            stored_bounds: true,
            computed_bounds: true,
            onion: Some(OnionSpacing { ghosts: 2, step: 1 }),
            trails: None,
        };
        let at = |f: f32| {
            let pose = Pose::of_scene(&scene, Some(&scene.clips[0]), f, 30.0, &[]);
            per_frame.at(&base, &scene, Some((0, f)), &pose, 30.0)
        };
        let (a, b) = (at(0.0), at(10.0));
        assert!(a.marker.is_none() && a.camera_frustum.is_empty() && a.reference_bones.is_empty());
        let (ca, cb) = (a.computed_bounds.unwrap(), b.computed_bounds.unwrap());
        assert_ne!((ca.min, ca.max), (cb.min, cb.max), "the synthetic clip moves its grid");
        assert_eq!(a.stored_bounds.map(|s| s.max), Some(Vec3::ZERO));
        assert_eq!(b.stored_bounds.map(|s| s.max), Some(Vec3::splat(10.0)));
        assert_eq!(a.ghosts.len(), 4, "two frames either side");
        assert_ne!(a.ghosts, b.ghosts);
        let off = FrameOverlays::default().at(&base, &scene, Some((0, 10.0)), &Pose::default(), 30.0);
        assert!(off.computed_bounds.is_none() && off.stored_bounds.is_none() && off.ghosts.is_empty());
    }
}
