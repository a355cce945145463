//! The overlay toggles: what the view draws besides the mesh.

/// The sidebar's view switches; [`super::App::overlays`] turns them into the renderer's `Overlays`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewToggles {
    pub mesh: bool,
    pub cull_back_faces: bool,
    pub grid: bool,
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
    pub follow_camera: bool,
}

impl Default for ViewToggles {
    fn default() -> Self {
        ViewToggles {
            mesh: true,
            cull_back_faces: true,
            grid: true,
            skeleton: false,
            wireframe: false,
            stored_bounds: false,
            computed_bounds: false,
            highlight_selected: true,
            boxes: false,
            camera_path: true,
            follow_camera: false,
        }
    }
}

impl ViewToggles {
    /// `has_camera`: the scene has an animated camera (its toggles show only then).
    pub fn ui(&mut self, ui: &mut egui::Ui, has_camera: bool, out: &mut Vec<super::Action>) {
        egui::CollapsingHeader::new("Overlays").default_open(true).show(ui, |ui| {
            if has_camera {
                let mut follow = self.follow_camera;
                if ui.checkbox(&mut follow, "Follow MVD camera").on_hover_text("View > Follow MVD camera").changed() {
                    out.push(super::Action::SetFollowCamera(follow));
                }
                ui.checkbox(&mut self.camera_path, "Camera path and frustum (cyan, white)");
            }
            ui.checkbox(&mut self.mesh, "Mesh");
            ui.checkbox(&mut self.wireframe, "Wireframe");
            ui.checkbox(&mut self.cull_back_faces, "Backface culling");
            ui.checkbox(&mut self.grid, "Grid");
            ui.checkbox(&mut self.skeleton, "Skeleton");
            ui.checkbox(&mut self.stored_bounds, "Stored bounds (green)");
            ui.checkbox(&mut self.computed_bounds, "Computed bounds (pink)");
            ui.checkbox(&mut self.highlight_selected, "Tint the selected joint's vertices");
            ui.checkbox(&mut self.boxes, "Volume boxes (orange)");
        });
    }
}
