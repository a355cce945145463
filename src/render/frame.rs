//! One frame, assembled: view uniforms, the pose's palette, overlay lines, then mesh, wireframe, grid, bounds
//! and skeleton in that order.

use glam::{Mat4, Vec3};

use super::camera::Camera;
use super::lines::{self, LineVertex, colors};
use super::model::GpuModel;
use super::{Renderer, bytes, grid, mesh};
use crate::anim::{Pose, skinned_bounds};
use crate::scene::{FrameBounds, Scene};

/// What to draw besides the lit mesh, and how. The UI keeps one of these as its toggles.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlays {
    /// The textured, lit mesh itself.
    pub mesh: bool,
    pub cull_back_faces: bool,
    pub grid: bool,
    /// Bones from each joint to its parent (`Pose::world`), drawn over everything.
    pub skeleton: bool,
    pub selected_joint: Option<usize>,
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
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            mesh: true,
            cull_back_faces: true,
            grid: false,
            skeleton: false,
            selected_joint: None,
            highlight_joint: None,
            wireframe: false,
            stored_bounds: None,
            computed_bounds: None,
            hidden_meshes: Vec::new(),
            boxes: Vec::new(),
            camera_path: Vec::new(),
            camera_frustum: Vec::new(),
        }
    }
}

/// The stored and the computed bounds of a frame, for [`Overlays`]. `clip_frame` is the clip and (fractional)
/// frame the pose was sampled at; the stored box is the one of the frame at or before it. Computing the box
/// skins every vertex on the CPU, so call this only while the bounds overlay is on.
pub fn frame_bounds(
    scene: &Scene,
    clip_frame: Option<(usize, f32)>,
    pose: &Pose,
) -> (Option<FrameBounds>, Option<FrameBounds>) {
    let stored = clip_frame.and_then(|(c, f)| scene.clips.get(c)?.stored_bounds_at(f));
    (stored, skinned_bounds(&scene.vertices, &pose.palette))
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
}

/// Colour, optional MSAA resolve, and depth views for [`Renderer::render`]. With MSAA, `color` is the
/// multisampled texture and `resolve` the single-sample one that receives the picture.
#[derive(Debug, Clone, Copy)]
pub struct Targets<'a> {
    pub color: &'a wgpu::TextureView,
    pub resolve: Option<&'a wgpu::TextureView>,
    pub depth: &'a wgpu::TextureView,
    /// Width and height in pixels (for the aspect ratio).
    pub size: (u32, u32),
}

/// Per-view GPU state: the uniform buffer and the overlay line buffer. A window's viewport keeps one; so does
/// the headless renderer. `prepare` writes through the queue, so it takes effect at the next submission: use
/// one submission per prepared frame.
pub struct ViewState {
    uniforms: wgpu::Buffer,
    group: wgpu::BindGroup,
    lines: wgpu::Buffer,
    line_capacity: u64,
    /// Depth-tested lines (grid, bounds) then on-top lines (skeleton).
    tested: std::ops::Range<u32>,
    on_top: std::ops::Range<u32>,
    overlays: Overlays,
    /// The model's blended draws, back to front for this frame's camera and pose.
    blend_order: Vec<usize>,
}

impl ViewState {
    pub fn new(renderer: &Renderer) -> Self {
        let uniforms = renderer.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("rigscope view uniforms"),
            size: UNIFORM_FLOATS as u64 * 4,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = renderer.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("rigscope view"),
            layout: &renderer.layouts.view,
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
            blend_order: Vec::new(),
        }
    }

    pub(crate) fn bind_group(&self) -> &wgpu::BindGroup {
        &self.group
    }

    pub(crate) fn uniforms(&self) -> &wgpu::Buffer {
        &self.uniforms
    }

    /// Uploads the view uniforms, the pose's palette and the overlay lines for a `size` viewport.
    pub fn prepare(&mut self, renderer: &Renderer, model: &GpuModel, input: &FrameInput<'_>, size: (u32, u32)) {
        let aspect = size.0.max(1) as f32 / size.1.max(1) as f32;
        let wire = if input.overlays.mesh { colors::WIRE_ON_MESH } else { colors::WIRE };
        // params.w: the highlighted joint + 1 (0 = none), exact as a float below 2^24.
        let highlight = input.overlays.highlight_joint.map_or(0.0, |j| (j as f32) + 1.0);
        write_uniforms(renderer, &self.uniforms, input.camera, aspect, wire, [0.002, 0.0, 0.0, highlight]);
        model.write_palette(renderer, &input.pose.palette);
        model.write_draw_params(renderer, input.time);
        let camera = input.camera;
        self.blend_order = mesh::blend_order(model, &input.pose.palette, camera.model_matrix(), camera.eye());

        let o = input.overlays;
        let mut v: Vec<LineVertex> = Vec::new();
        if o.grid {
            grid::grid(&mut v, model.up, model.bind_bounds().as_ref());
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
        // Where the two boxes coincide the stored one still shows, at the corners.
        if let Some(b) = &o.stored_bounds {
            lines::box_corners(&mut v, b, colors::STORED_BOUNDS);
        }
        let tested = v.len() as u32;
        if o.skeleton {
            let size = model.bind_bounds().map_or(0.01, |b| b.diagonal() * 0.006);
            lines::skeleton(&mut v, &input.pose.world, &model.parents, o.selected_joint, size);
        }
        self.tested = 0..tested;
        self.on_top = tested..v.len() as u32;
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

    /// Records the prepared frame into `pass`, whose targets match the renderer's format and sample count and
    /// have a depth attachment.
    pub fn paint(&self, renderer: &Renderer, model: &GpuModel, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(0, &self.group, &[]);
        pass.set_bind_group(1, &model.palette_group, &[]);
        if self.overlays.mesh {
            let o = &self.overlays;
            renderer.mesh.draw(pass, model, o.cull_back_faces, &o.hidden_meshes, &self.blend_order);
        }
        if self.overlays.wireframe {
            renderer.wire.draw(pass, model);
        }
        renderer.lines.draw(pass, &self.lines, self.tested.clone(), false);
        renderer.lines.draw(pass, &self.lines, self.on_top.clone(), true);
    }
}

impl Renderer {
    /// Prepares and draws one frame into `targets`, cleared to `clear` (linear RGBA), recorded into `encoder`.
    /// Submit the encoder before preparing `view` again.
    pub fn render(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        targets: &Targets<'_>,
        clear: wgpu::Color,
        model: &GpuModel,
        view: &mut ViewState,
        input: &FrameInput<'_>,
    ) {
        view.prepare(self, model, input, targets.size);
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
        view.paint(self, model, &mut pass);
    }
}

/// The `View` uniform block of shaders/view.wgsl, in floats.
const UNIFORM_FLOATS: usize = 16 * 2 + 4 * 4;

pub(crate) fn write_uniforms(
    renderer: &Renderer,
    buffer: &wgpu::Buffer,
    camera: &Camera,
    aspect: f32,
    wire: [f32; 4],
    params: [f32; 4],
) {
    let mut u: Vec<f32> = Vec::with_capacity(UNIFORM_FLOATS);
    u.extend(camera.view_proj(aspect).to_cols_array());
    u.extend(camera.model_matrix().to_cols_array());
    u.extend(camera.eye().extend(1.0).to_array());
    u.extend(Vec3::Y.extend(0.0).to_array());
    u.extend(wire);
    u.extend(params);
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
