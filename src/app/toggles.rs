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
        }
    }
}

impl ViewToggles {
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::CollapsingHeader::new("Overlays").default_open(true).show(ui, |ui| {
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
