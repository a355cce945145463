//! The overlay toggles: what the view draws besides the mesh, and the views that replace its shading.

/// The sidebar's view switches; [`crate::app::App::overlays`] turns them into the renderer's `Overlays`. Remembered
/// in the settings file (a field missing there takes its default; following a camera is never remembered).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ViewToggles {
    pub mesh: bool,
    pub cull_back_faces: bool,
    pub grid: bool,
    /// The grid through the file's origin instead of under the model's lowest point in the shown clip.
    pub grid_at_origin: bool,
    pub skeleton: bool,
    pub wireframe: bool,
    pub stored_bounds: bool,
    pub computed_bounds: bool,
    /// Tint the selected joint's vertices by their weight.
    pub highlight_selected: bool,
    /// Boxes the file declares besides its geometry (RSM volume boxes).
    pub boxes: bool,
    /// The animated camera's path and its frustum at the current time (when a camera exists and isn't followed).
    pub camera_path: bool,
    /// The view follows the animated camera (set through `Action::SetFollowCamera`, which checks one exists).
    #[serde(skip)]
    pub follow_camera: bool,
    /// Weight view: the mesh painted as a heat map of the selected joint's influence.
    pub weights: bool,
    /// Each vertex's skinned normal as a short line.
    pub normals: bool,
    /// Each vertex's skinned tangent as a short line.
    pub tangents: bool,
    /// A UV checker texture in place of the materials' textures.
    pub uv_checker: bool,
    /// The bind pose instead of the animated pose.
    pub bind_pose: bool,
    /// Ghosts of the previous and next [`ViewToggles::onion_frames`] frames.
    pub onion: bool,
    /// Ghosts each side of the current frame that the onion skin shows.
    pub onion_frames: u32,
    /// Frames between two onion-skin ghosts.
    pub onion_step: u32,
    /// The selected joints' motion trails (their paths over the frames around the current one).
    pub trail: bool,
    /// Frames each side of the current one a motion trail covers.
    pub trail_frames: u32,
    /// The selected joint's axes (X red, Y green, Z blue).
    pub joint_axes: bool,
    /// Joint names as labels in the view.
    pub joint_names: bool,
    /// IK chains: goal, effector and links.
    pub ik_chains: bool,
    /// Outlines of the materials that have one (MMD's edge).
    pub outline: bool,
    /// Screenshots (F12) carry the clip's frame and time in their bottom-left corner.
    pub frame_in_screenshots: bool,
    /// Simulate MMD rigid bodies (hair, skirts) while playing and scrubbing.
    pub physics: bool,
    /// Rigid bodies as wire shapes coloured by mode, joints as small axes.
    pub rigid_bodies: bool,
    /// Light MikuMikuDance models with the motion's light keys (VMD, MVD) where it has them; off, or without
    /// keys, MikuMikuDance's default light.
    pub motion_light: bool,
    /// The scene light's direction as an arrow above the model (MMD models, which are drawn with a light).
    pub light_arrow: bool,
    /// MikuMikuDance's ground shadow (the model flattened on the floor along the light), for models drawn with
    /// a light of their own.
    pub ground_shadow: bool,
    /// MikuMikuDance's self-shadow (a shadow map from the light), for models drawn with a light of their own.
    pub self_shadow: bool,
    /// A self-shadow from the viewer's key light for models without a light of their own (off by default).
    pub view_self_shadow: bool,
    /// Skin every vertex by linear blending, PMX's SDEF and QDEF vertices too (what an engine without them
    /// shows); the renderer's switch, so picking and bounds keep the file's blending.
    pub linear_skinning: bool,
    /// Compare with…: the reference in a view of its own beside the model's (the same camera), instead of as a
    /// ghost over it.
    pub compare_side_by_side: bool,
    /// The Outliner panel (left) is shown.
    pub outliner: bool,
    /// The Inspector panel (right) is shown.
    pub inspector: bool,
    /// The timeline (bottom) is shown.
    pub timeline: bool,
    /// A VRM avatar's eyes (its look-at) follow the view's camera, in place of the motion's look-at.
    pub eyes_follow_camera: bool,
}

impl Default for ViewToggles {
    fn default() -> Self {
        ViewToggles {
            mesh: true,
            cull_back_faces: true,
            grid: true,
            grid_at_origin: false,
            skeleton: false,
            wireframe: false,
            stored_bounds: false,
            computed_bounds: false,
            highlight_selected: true,
            boxes: false,
            camera_path: true,
            follow_camera: false,
            weights: false,
            normals: false,
            tangents: false,
            uv_checker: false,
            bind_pose: false,
            onion: false,
            onion_frames: 2,
            onion_step: 1,
            trail: false,
            trail_frames: 30,
            joint_axes: true,
            joint_names: false,
            ik_chains: false,
            outline: true,
            frame_in_screenshots: false,
            physics: true,
            rigid_bodies: false,
            motion_light: true,
            light_arrow: false,
            ground_shadow: true,
            self_shadow: true,
            view_self_shadow: false,
            linear_skinning: false,
            compare_side_by_side: false,
            outliner: true,
            inspector: true,
            timeline: true,
            eyes_follow_camera: false,
        }
    }
}

/// One on/off view switch, for shortcuts and menus ([`ViewToggles::flip`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Toggle {
    Mesh,
    Wireframe,
    CullBackFaces,
    Grid,
    Skeleton,
    StoredBounds,
    ComputedBounds,
    Highlight,
    Boxes,
    CameraPath,
    Weights,
    Normals,
    Tangents,
    UvChecker,
    BindPose,
    Onion,
    Trail,
    JointAxes,
    JointNames,
    IkChains,
    Outline,
    Physics,
    RigidBodies,
    Outliner,
    Inspector,
    Timeline,
    GridAtOrigin,
    MotionLight,
    LightArrow,
    GroundShadow,
    SelfShadow,
    ViewSelfShadow,
    LinearSkinning,
    FrameInScreenshots,
    CompareSideBySide,
    EyesFollowCamera,
}

impl ViewToggles {
    /// The onion skin's and the trails' counts brought inside what the view draws (a settings file may hold
    /// anything).
    pub fn clamp_counts(&mut self) {
        self.onion_frames = self.onion_frames.clamp(1, crate::anim::MAX_ONION_FRAMES);
        self.onion_step = self.onion_step.clamp(1, crate::anim::MAX_ONION_STEP);
        self.trail_frames = self.trail_frames.clamp(1, crate::anim::MAX_TRAIL_FRAMES);
    }

    /// The switch behind `toggle`.
    pub fn get_mut(&mut self, toggle: Toggle) -> &mut bool {
        match toggle {
            Toggle::Mesh => &mut self.mesh,
            Toggle::Wireframe => &mut self.wireframe,
            Toggle::CullBackFaces => &mut self.cull_back_faces,
            Toggle::Grid => &mut self.grid,
            Toggle::Skeleton => &mut self.skeleton,
            Toggle::StoredBounds => &mut self.stored_bounds,
            Toggle::ComputedBounds => &mut self.computed_bounds,
            Toggle::Highlight => &mut self.highlight_selected,
            Toggle::Boxes => &mut self.boxes,
            Toggle::CameraPath => &mut self.camera_path,
            Toggle::Weights => &mut self.weights,
            Toggle::Normals => &mut self.normals,
            Toggle::Tangents => &mut self.tangents,
            Toggle::UvChecker => &mut self.uv_checker,
            Toggle::BindPose => &mut self.bind_pose,
            Toggle::Onion => &mut self.onion,
            Toggle::Trail => &mut self.trail,
            Toggle::JointAxes => &mut self.joint_axes,
            Toggle::JointNames => &mut self.joint_names,
            Toggle::IkChains => &mut self.ik_chains,
            Toggle::Outline => &mut self.outline,
            Toggle::Physics => &mut self.physics,
            Toggle::RigidBodies => &mut self.rigid_bodies,
            Toggle::Outliner => &mut self.outliner,
            Toggle::Inspector => &mut self.inspector,
            Toggle::Timeline => &mut self.timeline,
            Toggle::GridAtOrigin => &mut self.grid_at_origin,
            Toggle::MotionLight => &mut self.motion_light,
            Toggle::LightArrow => &mut self.light_arrow,
            Toggle::GroundShadow => &mut self.ground_shadow,
            Toggle::SelfShadow => &mut self.self_shadow,
            Toggle::ViewSelfShadow => &mut self.view_self_shadow,
            Toggle::LinearSkinning => &mut self.linear_skinning,
            Toggle::FrameInScreenshots => &mut self.frame_in_screenshots,
            Toggle::CompareSideBySide => &mut self.compare_side_by_side,
            Toggle::EyesFollowCamera => &mut self.eyes_follow_camera,
        }
    }

    /// Turns `toggle` on when off and off when on.
    pub fn flip(&mut self, toggle: Toggle) {
        let v = self.get_mut(toggle);
        *v = !*v;
    }

    /// `has_camera`: the scene has an animated camera; `has_light`: light keys; `lit`: the scene is drawn with a
    /// light of its own; `blended`: some vertices skin by SDEF or QDEF; `looks`: a VRM look-at (their toggles
    /// show only then).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        (has_camera, has_light, lit, blended, looks): (bool, bool, bool, bool, bool),
        out: &mut Vec<crate::app::Action>,
    ) {
        egui::CollapsingHeader::new("Overlays").default_open(true).show(ui, |ui| {
            if has_light {
                ui.checkbox(&mut self.motion_light, "Light from motion")
                    .on_hover_text("The motion's light keys (colour, direction); off: MikuMikuDance's default light");
            }
            if lit {
                ui.checkbox(&mut self.light_arrow, "Light direction (yellow arrow)");
                ui.checkbox(&mut self.ground_shadow, "Ground shadow");
                ui.checkbox(&mut self.self_shadow, "Self-shadow").on_hover_text(
                    "A shadow map from the light, as the motion's self-shadow keys set it (mode 0: off)",
                );
            } else {
                ui.checkbox(&mut self.view_self_shadow, "Self-shadow (from the view's light)")
                    .on_hover_text("Every material shades every other from a light above the camera");
            }
            if has_camera {
                let mut follow = self.follow_camera;
                if ui.checkbox(&mut follow, "Follow MVD camera").on_hover_text("View > Follow MVD camera").changed() {
                    out.push(crate::app::actions::Action::SetFollowCamera(follow));
                }
                ui.checkbox(&mut self.camera_path, "Camera path and frustum (cyan, white)");
            }
            if looks {
                ui.checkbox(&mut self.eyes_follow_camera, "Eyes follow the camera")
                    .on_hover_text("The VRM look-at turns the eyes toward the view's camera, in place of the motion's");
            }
            ui.checkbox(&mut self.mesh, "Mesh");
            ui.checkbox(&mut self.outline, "Outlines (MMD edges)");
            ui.checkbox(&mut self.wireframe, "Wireframe");
            ui.checkbox(&mut self.cull_back_faces, "Backface culling");
            ui.checkbox(&mut self.grid, "Grid");
            if self.grid {
                ui.checkbox(&mut self.grid_at_origin, "  at the file's origin")
                    .on_hover_text("Off: the grid lies under the model's lowest point in the clip shown");
            }
            ui.checkbox(&mut self.skeleton, "Skeleton");
            ui.checkbox(&mut self.ik_chains, "IK chains (goal red, links violet)");
            ui.checkbox(&mut self.stored_bounds, "Stored bounds (green)");
            ui.checkbox(&mut self.computed_bounds, "Computed bounds (pink)");
            ui.checkbox(&mut self.highlight_selected, "Tint the selected joint's vertices");
            ui.checkbox(&mut self.boxes, "Volume boxes (orange)");
            ui.checkbox(&mut self.frame_in_screenshots, "Frame and time in screenshots");
        });
        egui::CollapsingHeader::new("Debug views").default_open(true).show(ui, |ui| {
            ui.checkbox(&mut self.weights, "Weights of the selected joint")
                .on_hover_text("Heat map: dark blue 0, cyan, green, yellow, red 1");
            ui.checkbox(&mut self.normals, "Normals (magenta; flipped: yellow)");
            ui.checkbox(&mut self.tangents, "Tangents (light blue)");
            ui.checkbox(&mut self.uv_checker, "UV checker")
                .on_hover_text("Red grows along u, green along v; white marks each repeat's first cell");
            ui.checkbox(&mut self.bind_pose, "Bind pose");
            if blended {
                ui.checkbox(&mut self.linear_skinning, "Linear skinning (no SDEF, QDEF)").on_hover_text(
                    "Every vertex blended linearly, as an engine without SDEF and QDEF draws it: a bent elbow pinches",
                );
            }
            ui.checkbox(&mut self.joint_axes, "Axes of the selected joint");
            ui.checkbox(&mut self.joint_names, "Joint names");
            ui.checkbox(&mut self.onion, "Onion skin");
            ui.add_enabled_ui(self.onion, |ui| {
                let mut n = self.onion_frames;
                let slider = egui::Slider::new(&mut n, 1..=crate::anim::MAX_ONION_FRAMES).text("Onion frames");
                if ui.add(slider).changed() {
                    out.push(crate::app::actions::Action::SetOnionFrames(n));
                }
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_turns_each_switch_over_and_back() {
        let all = [
            Toggle::Mesh,
            Toggle::Wireframe,
            Toggle::CullBackFaces,
            Toggle::Grid,
            Toggle::Skeleton,
            Toggle::StoredBounds,
            Toggle::ComputedBounds,
            Toggle::Highlight,
            Toggle::Boxes,
            Toggle::CameraPath,
            Toggle::Weights,
            Toggle::Normals,
            Toggle::Tangents,
            Toggle::UvChecker,
            Toggle::BindPose,
            Toggle::Onion,
            Toggle::Trail,
            Toggle::JointAxes,
            Toggle::JointNames,
            Toggle::IkChains,
            Toggle::Outline,
            Toggle::Physics,
            Toggle::RigidBodies,
            Toggle::Outliner,
            Toggle::Inspector,
            Toggle::Timeline,
            Toggle::GridAtOrigin,
            Toggle::MotionLight,
            Toggle::LightArrow,
            Toggle::GroundShadow,
            Toggle::SelfShadow,
            Toggle::ViewSelfShadow,
            Toggle::LinearSkinning,
            Toggle::FrameInScreenshots,
            Toggle::CompareSideBySide,
            Toggle::EyesFollowCamera,
        ];
        let mut t = ViewToggles::default();
        for toggle in all {
            let before = t.clone();
            t.flip(toggle);
            assert_ne!(t, before, "{toggle:?}");
            t.flip(toggle);
            assert_eq!(t, before, "{toggle:?}");
        }
    }
}
