//! Coloured lines in model space: the skeleton (bones from each joint to its parent), the bounds boxes and the
//! grid. The CPU builds them each frame (a few hundred vertices at most); two pipelines draw them, one
//! depth-tested and one on top of everything (the skeleton, an X-ray of the pose).

use glam::{Mat4, Vec3};

use super::{Layouts, shaders};
use crate::scene::FrameBounds;

/// One end of a line: model-space position and linear RGBA colour.
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct LineVertex {
    pub position: [f32; 3],
    pub color: [f32; 4],
}

/// Overlay colours (linear RGBA).
pub(crate) mod colors {
    pub const BONE: [f32; 4] = [1.0, 0.78, 0.1, 1.0];
    pub const JOINT: [f32; 4] = [1.0, 0.95, 0.6, 1.0];
    pub const SELECTED: [f32; 4] = [0.0, 0.9, 1.0, 1.0];
    /// Bounds as the file stores them.
    pub const STORED_BOUNDS: [f32; 4] = [0.15, 0.85, 0.2, 1.0];
    /// Bounds computed by skinning.
    pub const COMPUTED_BOUNDS: [f32; 4] = [1.0, 0.2, 0.75, 1.0];
    pub const GRID: [f32; 4] = [0.32, 0.33, 0.36, 1.0];
    pub const GRID_MAJOR: [f32; 4] = [0.5, 0.52, 0.56, 1.0];
    pub const AXIS_X: [f32; 4] = [0.75, 0.15, 0.15, 1.0];
    pub const AXIS_FORWARD: [f32; 4] = [0.15, 0.35, 0.85, 1.0];
    /// Wireframe over the mesh, and alone.
    pub const WIRE_ON_MESH: [f32; 4] = [0.02, 0.03, 0.05, 1.0];
    pub const WIRE: [f32; 4] = [0.9, 0.95, 1.0, 1.0];
    /// Boxes the file declares (collision or volume boxes).
    pub const MARKED_BOX: [f32; 4] = [1.0, 0.55, 0.1, 1.0];
    /// An animated camera's path and its frustum.
    pub const CAMERA_PATH: [f32; 4] = [0.1, 0.85, 0.95, 1.0];
    pub const CAMERA_FRUSTUM: [f32; 4] = [0.95, 0.95, 0.95, 1.0];
    /// The scene light's arrow.
    pub const LIGHT: [f32; 4] = [1.0, 0.85, 0.2, 1.0];
    /// Motion trails, and the keys on them.
    pub const TRAIL: [f32; 4] = [0.75, 0.5, 1.0, 1.0];
    pub const TRAIL_KEY: [f32; 4] = [1.0, 0.9, 0.2, 1.0];
    /// The reference's skeleton (Compare with…).
    pub const REFERENCE: [f32; 4] = [1.0, 0.55, 0.1, 1.0];
    /// Skinned normals and tangents.
    pub const NORMAL: [f32; 4] = [0.95, 0.3, 0.95, 1.0];
    pub const TANGENT: [f32; 4] = [0.15, 0.85, 1.0, 1.0];
    /// A normal pointing against its faces' front side.
    pub const FLIPPED_NORMAL: [f32; 4] = [1.0, 0.95, 0.0, 1.0];
    /// The selected joint's axes: pure red, green and blue.
    pub const JOINT_X: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
    pub const JOINT_Y: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
    pub const JOINT_Z: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
    /// An IK chain: its IK bone (the goal) and the line from the effector to it.
    pub const IK_GOAL: [f32; 4] = [1.0, 0.25, 0.2, 1.0];
    /// An IK chain's links, from the effector up.
    pub const IK_LINK: [f32; 4] = [0.75, 0.35, 1.0, 1.0];
}

/// Lines of the skinned normals and tangents.
pub(crate) struct Directions<'a> {
    pub streams: &'a crate::scene::VertexStreams,
    /// Per vertex: its normal is flipped against its faces (`GpuModel::flipped`).
    pub flipped: &'a [bool],
    pub normals: bool,
    pub tangents: bool,
    pub length: f32,
}

impl Directions<'_> {
    /// A line of `length` from each skinned vertex along its skinned normal (`normals`) and tangent
    /// (`tangents`, when the streams have them), skinned on the CPU with `palette` as the shader does, into
    /// `out`; flipped normals go into `flipped` instead, in their own colour, to be drawn over everything (a
    /// flipped normal points into the mesh, where a depth-tested line would hide).
    pub fn build(&self, palette: &[Mat4], out: &mut Vec<LineVertex>, flipped: &mut Vec<LineVertex>) {
        let positions = crate::anim::skin_positions(self.streams, palette);
        if self.normals
            && let Some(n) = crate::anim::skin_normals(self.streams, palette)
        {
            for (i, (p, n)) in positions.iter().zip(&n).enumerate() {
                if self.flipped.get(i).copied().unwrap_or(false) {
                    line(flipped, *p, *p + *n * self.length * 1.5, colors::FLIPPED_NORMAL);
                } else {
                    line(out, *p, *p + *n * self.length, colors::NORMAL);
                }
            }
        }
        if self.tangents
            && let Some(t) = crate::anim::skin_tangents(self.streams, palette)
        {
            for (p, t) in positions.iter().zip(&t) {
                line(out, *p, *p + t.truncate() * self.length, colors::TANGENT);
            }
        }
    }
}

/// A joint's axes from its model-space transform: X red, Y green, Z blue, each `length` long whatever the
/// joint's scale.
pub(crate) fn joint_axes(out: &mut Vec<LineVertex>, world: &Mat4, length: f32) {
    let origin = world.w_axis.truncate();
    let axes = [(world.x_axis, colors::JOINT_X), (world.y_axis, colors::JOINT_Y), (world.z_axis, colors::JOINT_Z)];
    for (axis, color) in axes {
        let d = axis.truncate().normalize_or_zero();
        if d != Vec3::ZERO {
            line(out, origin, origin + d * length, color);
        }
    }
}

/// An arrow for a directional light travelling along `direction` (model space), a quarter of the box's
/// diagonal long, centred beside the top of the box (off its +X side, where it neither hides the model nor leaves
/// the picture), with a four-line head at the end the light travels to.
pub(crate) fn light_arrow(out: &mut Vec<LineVertex>, bounds: &FrameBounds, direction: Vec3, color: [f32; 4]) {
    let Some(d) = direction.try_normalize() else { return };
    let size = bounds.diagonal().max(1e-6);
    let (centre, extent) = ((bounds.min + bounds.max) * 0.5, bounds.max - bounds.min);
    // The box's larger of Y and Z is taken as up (Y-up and Z-up models alike).
    let up = Vec3::AXES[if extent.y >= extent.z { 1 } else { 2 }];
    let anchor = centre + up * (extent.dot(up) * 0.4) + Vec3::X * (extent.x * 0.5 + size * 0.12);
    let (tail, tip) = (anchor - d * size / 8.0, anchor + d * size / 8.0);
    line(out, tail, tip, color);
    let side = d.any_orthonormal_vector();
    let other = d.cross(side);
    for s in [side, -side, other, -other] {
        line(out, tip, tip - d * size * 0.05 + s * size * 0.025, color);
    }
}

pub(crate) fn line(out: &mut Vec<LineVertex>, a: Vec3, b: Vec3, color: [f32; 4]) {
    out.push(LineVertex { position: a.to_array(), color });
    out.push(LineVertex { position: b.to_array(), color });
}

/// Bones from each joint to its parent, and a small cross at each joint. The selected joint's bones and a larger
/// cross are drawn in the selection colour, and so are the bones and crosses of the joints selected with it
/// (`group`: a display frame's bones, or joints Ctrl+clicked), their crosses at twice the size.
pub(crate) fn skeleton(
    out: &mut Vec<LineVertex>,
    world: &[Mat4],
    parents: &[Option<usize>],
    (selected, group): (Option<usize>, &[usize]),
    size: f32,
) {
    let at = |i: usize| world[i].w_axis.truncate();
    let picked = |i: usize| selected == Some(i) || group.contains(&i);
    for (i, parent) in parents.iter().enumerate().take(world.len()) {
        if let Some(p) = parent.filter(|&p| p < world.len()) {
            let color = if picked(i) || picked(p) { colors::SELECTED } else { colors::BONE };
            line(out, at(p), at(i), color);
        }
        let (r, color) = match (selected == Some(i), picked(i)) {
            (true, _) => (size * 3.0, colors::SELECTED),
            (false, true) => (size * 2.0, colors::SELECTED),
            _ => (size, colors::JOINT),
        };
        for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
            line(out, at(i) - axis * r, at(i) + axis * r, color);
        }
    }
}

/// IK chains: the goal (IK bone) as a diamond and a line from the effector to it, in red; the links from the
/// effector up through each link joint, in violet, each link joint marked. `size` scales the marks.
pub(crate) fn ik_chains(out: &mut Vec<LineVertex>, world: &[Mat4], chains: &[crate::scene::IkChain], size: f32) {
    let n = world.len();
    let at = |i: usize| world[i].w_axis.truncate();
    for c in chains.iter().filter(|c| c.joint < n && c.target < n && c.links.iter().all(|l| l.joint < n)) {
        let goal = at(c.joint);
        let r = size * 3.0;
        for (a, b) in [(Vec3::X, Vec3::Y), (Vec3::Y, Vec3::Z), (Vec3::Z, Vec3::X)] {
            for (s, t) in [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)] {
                line(out, goal + a * r * s, goal + b * r * t, colors::IK_GOAL);
            }
        }
        line(out, at(c.target), goal, colors::IK_GOAL);
        let mut from = at(c.target);
        for l in &c.links {
            let p = at(l.joint);
            line(out, from, p, colors::IK_LINK);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                line(out, p - axis * size * 2.0, p + axis * size * 2.0, colors::IK_LINK);
            }
            from = p;
        }
    }
}

/// The twelve edges of a box.
pub(crate) fn bounds_box(out: &mut Vec<LineVertex>, b: &FrameBounds, color: [f32; 4]) {
    let corner = |i: u32| b.corner(i);
    for i in 0..8u32 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                line(out, corner(i), corner(i | bit), color);
            }
        }
    }
}

/// The twelve edges of the cube [−1, 1]³ carried by `transform` (an oriented box).
pub(crate) fn oriented_box(out: &mut Vec<LineVertex>, transform: &Mat4, color: [f32; 4]) {
    let corner = |i: u32| {
        let unit = Vec3::new(
            if i & 1 == 0 { -1.0 } else { 1.0 },
            if i & 2 == 0 { -1.0 } else { 1.0 },
            if i & 4 == 0 { -1.0 } else { 1.0 },
        );
        transform.transform_point3(unit)
    };
    for i in 0..8u32 {
        for bit in [1, 2, 4] {
            if i & bit == 0 {
                line(out, corner(i), corner(i | bit), color);
            }
        }
    }
}

/// The corners of a box as short brackets (a quarter of each edge), drawn over another box so that coinciding
/// boxes both stay visible.
pub(crate) fn box_corners(out: &mut Vec<LineVertex>, b: &FrameBounds, color: [f32; 4]) {
    let corner = |i: u32| b.corner(i);
    for i in 0..8u32 {
        for bit in [1, 2, 4] {
            let (a, other) = (corner(i), corner(i ^ bit));
            line(out, a, a + (other - a) * 0.25, color);
        }
    }
}

pub(crate) struct LinePipelines {
    depth_tested: wgpu::RenderPipeline,
    on_top: wgpu::RenderPipeline,
}

impl LinePipelines {
    pub fn new(device: &wgpu::Device, layouts: &Layouts, format: wgpu::TextureFormat, samples: u32) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("rigscope line shader"),
            source: wgpu::ShaderSource::Wgsl(shaders::LINES.into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("rigscope lines"),
            bind_group_layouts: &[Some(&layouts.view)],
            immediate_size: 0,
        });
        let buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<LineVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4],
        })];
        let make = |compare: wgpu::CompareFunction| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("rigscope lines"),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &shader,
                    entry_point: Some("vs_line"),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState { topology: wgpu::PrimitiveTopology::LineList, ..Default::default() },
                depth_stencil: super::depth_test(false, compare),
                multisample: wgpu::MultisampleState { count: samples, ..Default::default() },
                fragment: Some(wgpu::FragmentState {
                    module: &shader,
                    entry_point: Some("fs_line"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend: None,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        LinePipelines {
            depth_tested: make(wgpu::CompareFunction::LessEqual),
            on_top: make(wgpu::CompareFunction::Always),
        }
    }

    /// Draws `range` of the vertex buffer's lines, depth-tested or on top. Group 0 (view) must be set.
    pub fn draw(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        buffer: &wgpu::Buffer,
        range: std::ops::Range<u32>,
        on_top: bool,
    ) {
        if range.is_empty() {
            return;
        }
        pass.set_pipeline(if on_top { &self.on_top } else { &self.depth_tested });
        pass.set_vertex_buffer(0, buffer.slice(..));
        pass.draw(range, 0..1);
    }
}

/// A [`super::WireShape`]: a sphere as three great circles, a box as its twelve edges, a capsule as its two
/// hemispheres' circles joined by four lines, axes as three coloured lines.
pub(crate) fn wire_shape(out: &mut Vec<LineVertex>, shape: &super::WireShape) {
    use super::WireKind;
    const SEGMENTS: usize = 24;
    let m = shape.transform;
    let p = |v: Vec3| m.transform_point3(v);
    // A circle of `radius` about `centre` in the plane of local axes `a` and `b`; `half` keeps the half on the
    // side of `b` that `sign` says (0: the whole circle).
    let circle = |out: &mut Vec<LineVertex>, centre: Vec3, a: Vec3, b: Vec3, radius: f32, sign: f32| {
        let point = |i: usize| {
            let t = i as f32 / SEGMENTS as f32 * std::f32::consts::TAU;
            let (s, c) = t.sin_cos();
            let s = if sign != 0.0 { s.abs() * sign } else { s };
            centre + (a * c + b * s) * radius
        };
        let count = if sign != 0.0 { SEGMENTS / 2 } else { SEGMENTS };
        for i in 0..count {
            line(out, p(point(i)), p(point(i + 1)), shape.color);
        }
    };
    match shape.kind {
        WireKind::Sphere { radius } => {
            circle(out, Vec3::ZERO, Vec3::X, Vec3::Y, radius, 0.0);
            circle(out, Vec3::ZERO, Vec3::Y, Vec3::Z, radius, 0.0);
            circle(out, Vec3::ZERO, Vec3::Z, Vec3::X, radius, 0.0);
        }
        WireKind::Box { half } => oriented_box(out, &(m * Mat4::from_scale(half)), shape.color),
        WireKind::Capsule { radius, half_height } => {
            let (top, bottom) = (Vec3::Y * half_height, -Vec3::Y * half_height);
            for c in [top, bottom] {
                circle(out, c, Vec3::X, Vec3::Z, radius, 0.0);
            }
            circle(out, top, Vec3::X, Vec3::Y, radius, 1.0);
            circle(out, top, Vec3::Z, Vec3::Y, radius, 1.0);
            circle(out, bottom, Vec3::X, Vec3::Y, radius, -1.0);
            circle(out, bottom, Vec3::Z, Vec3::Y, radius, -1.0);
            for side in [Vec3::X, -Vec3::X, Vec3::Z, -Vec3::Z] {
                line(out, p(top + side * radius), p(bottom + side * radius), shape.color);
            }
        }
        WireKind::Axes { length } => {
            line(out, p(Vec3::ZERO), p(Vec3::X * length), colors::JOINT_X);
            line(out, p(Vec3::ZERO), p(Vec3::Y * length), colors::JOINT_Y);
            line(out, p(Vec3::ZERO), p(Vec3::Z * length), colors::JOINT_Z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many line segments are drawn in the selection colour.
    fn selected_segments(v: &[LineVertex]) -> usize {
        v.chunks_exact(2).filter(|s| s[0].color == colors::SELECTED).count()
    }

    #[test]
    fn the_selected_joint_and_its_group_draw_in_the_selection_colour() {
        // A chain 0 → 1 → 2 → 3.
        let world: Vec<Mat4> = (0..4).map(|i| Mat4::from_translation(Vec3::new(0.0, i as f32, 0.0))).collect();
        let parents = [None, Some(0), Some(1), Some(2)];
        let mut v = Vec::new();
        skeleton(&mut v, &world, &parents, (None, &[]), 0.01);
        assert_eq!(selected_segments(&v), 0);
        v.clear();
        // Joint 1 alone: its cross (3 segments) and its two bones.
        skeleton(&mut v, &world, &parents, (Some(1), &[]), 0.01);
        assert_eq!(selected_segments(&v), 5);
        v.clear();
        // Joints 1 and 3 selected together: both crosses, and the bones touching either (0-1, 1-2, 2-3).
        skeleton(&mut v, &world, &parents, (Some(3), &[1, 3]), 0.01);
        assert_eq!(selected_segments(&v), 9);
    }
}
