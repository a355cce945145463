//! The Inspector's physics settings (MMD models with rigid bodies, on the Display tab): physics on or off,
//! Reset, gravity, fixed step and warm-up, and how the pose shown was reached. The bodies themselves are listed
//! by the Outliner's Physics tab (`bodies.rs`).

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::sections::toggles::{Toggle, ViewToggles};
use crate::physics::{PhysicsSettings, Reached};

/// The steps offered: MikuMikuDance's 1/60 and the finer ones some runtimes use.
const STEPS: [(f32, &str); 3] = [(1.0 / 60.0, "1/60 s"), (1.0 / 120.0, "1/120 s"), (1.0 / 240.0, "1/240 s")];

pub fn section(
    ui: &mut egui::Ui,
    doc: &Document,
    toggles: &ViewToggles,
    settings: PhysicsSettings,
    out: &mut Vec<Action>,
) {
    let scene = doc.scene();
    let mut parts = Vec::new();
    if let Some(mmd) = scene.mmd.as_ref().filter(|m| !m.rigid_bodies.is_empty()) {
        parts.push(format!("{} rigid bodies, {} joints", mmd.rigid_bodies.len(), mmd.joints.len()));
    }
    if let Some(s) = scene.springs.as_ref().filter(|s| !s.is_empty()) {
        parts.push(format!("{} spring joints, {} colliders", s.joints().count(), s.colliders.len()));
    }
    if parts.is_empty() {
        return;
    }
    let title = format!("Physics simulation ({})", parts.join("; "));
    egui::CollapsingHeader::new(title).id_salt("physics").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            let mut on = toggles.physics;
            if ui
                .checkbox(&mut on, "Simulate")
                .on_hover_text("Hair, skirts and the like swing as MikuMikuDance plays them")
                .changed()
            {
                out.push(Action::Toggle(Toggle::Physics));
            }
            if ui
                .add_enabled(toggles.physics, egui::Button::new("Reset"))
                .on_hover_text("Start over from the pose shown")
                .clicked()
            {
                out.push(Action::ResetPhysics);
            }
        });
        let mut show = toggles.rigid_bodies;
        if ui
            .checkbox(&mut show, "Show rigid bodies")
            .on_hover_text(
                "Follow bone: blue; physics: orange; physics + bone position: green; joints: small axes; VRM spring \
                 colliders: blue, spring tails: orange",
            )
            .changed()
        {
            out.push(Action::Toggle(Toggle::RigidBodies));
        }
        let mut s = settings;
        ui.horizontal(|ui| {
            ui.label("Gravity Y");
            let field = egui::DragValue::new(&mut s.gravity.y).speed(1.0).range(-1000.0..=1000.0).suffix(" /s²");
            // A gravity set here wins over the motion's.
            if ui.add(field).changed() {
                s.motion_gravity = false;
            }
            ui.checkbox(&mut s.motion_gravity, "Motion's gravity")
                .on_hover_text("Where the motion keys gravity (MVD project keys), use it instead of the field's");
        });
        if let Some(sim) = doc.physics().filter(|_| doc.physics_shown()) {
            let keyed = doc.current_clip().is_some_and(|c| !c.gravity.is_empty());
            if keyed {
                let g = sim.gravity();
                let whose = if s.motion_gravity && keyed { "the motion's" } else { "the field's" };
                ui.weak(format!("Gravity now: ({:.1}, {:.1}, {:.1}) /s², {whose}", g.x, g.y, g.z));
            }
        }
        ui.horizontal(|ui| {
            let current = STEPS.iter().find(|(v, _)| (v - s.step).abs() < 1e-6).map_or("other", |(_, n)| n);
            egui::ComboBox::from_label("Step").selected_text(current).show_ui(ui, |ui| {
                for (v, name) in STEPS {
                    ui.selectable_value(&mut s.step, v, name);
                }
            });
            ui.label("Warm-up");
            ui.add(egui::DragValue::new(&mut s.warmup_steps).range(0..=PhysicsSettings::MAX_WARMUP).suffix(" steps"))
                .on_hover_text("Steps the pose is held for after a reset, so the hair settles before the motion runs");
        });
        if s != settings {
            out.push(Action::SetPhysicsSettings(s));
        }
        let status = match doc.physics().filter(|_| doc.physics_shown()).map(|p| p.reached()) {
            Some(Reached::Reset) => "This frame: reset (bodies placed at the pose, then the warm-up)",
            Some(Reached::Restored) => "This frame: simulated from the last snapshot before it",
            Some(Reached::Stepped) => "This frame: simulated forward from the one before",
            None => "Off: the motion's pose alone",
        };
        ui.label(status);
    });
}

/// Colours of the rigid-body overlay by mode, and of the selected body.
const FOLLOW: [f32; 4] = [0.35, 0.6, 1.0, 1.0];
const DYNAMIC: [f32; 4] = [1.0, 0.55, 0.15, 1.0];
const DYNAMIC_ROTATION: [f32; 4] = [0.45, 0.9, 0.35, 1.0];
const SELECTED: [f32; 4] = [1.0, 1.0, 1.0, 1.0];

/// VRM spring bones: the colliders where their joints are in the pose shown (in the followers' blue), and with
/// the simulation running each tail as a ball of its hit radius (in the simulated bodies' orange). A collider's
/// radius is not scaled by its joint (three-vrm); a plane is drawn as a square a third of the model across.
fn spring_shapes(doc: &Document) -> Vec<crate::render::WireShape> {
    use crate::render::{WireKind, WireShape};
    use crate::scene::ColliderShape;
    use glam::{Mat4, Quat, Vec3};
    let Some(springs) = doc.scene().springs.as_deref() else { return Vec::new() };
    let world = &doc.pose().world;
    // The model's size at rest (computed once per document revision).
    let across = doc.clip_bounds(None).map_or(1.0, |b| b.diagonal());
    let mut out = Vec::new();
    for c in &springs.colliders {
        let Some(m) = world.get(c.joint) else { continue };
        let (transform, kind) = match c.shape {
            ColliderShape::Sphere { offset, radius, .. } => {
                (Mat4::from_translation(m.transform_point3(offset)), WireKind::Sphere { radius })
            }
            ColliderShape::Capsule { offset, tail, radius, .. } => {
                let (a, b) = (m.transform_point3(offset), m.transform_point3(tail));
                let along = Quat::from_rotation_arc(Vec3::Y, (b - a).normalize_or(Vec3::Y));
                let half_height = a.distance(b) * 0.5;
                (Mat4::from_rotation_translation(along, (a + b) * 0.5), WireKind::Capsule { radius, half_height })
            }
            ColliderShape::Plane { offset, normal } => {
                let n = (glam::Mat3::from_mat4(*m).inverse().transpose() * normal).normalize_or(Vec3::Y);
                let facing = Quat::from_rotation_arc(Vec3::Y, n);
                let half = Vec3::new(across / 6.0, 0.0, across / 6.0);
                (Mat4::from_rotation_translation(facing, m.transform_point3(offset)), WireKind::Box { half })
            }
        };
        out.push(WireShape { transform, kind, color: FOLLOW });
    }
    if let Some(sim) = doc.physics().filter(|_| doc.physics_shown()) {
        for (_, tail, radius) in sim.spring_tails(doc.pose()) {
            let radius = radius.max(across * 0.004);
            out.push(WireShape {
                transform: Mat4::from_translation(tail),
                kind: WireKind::Sphere { radius },
                color: DYNAMIC,
            });
        }
    }
    out
}

/// The rigid bodies of the shown model as wire shapes, where the pose shown puts them (simulated when physics
/// ran for it), and each joint's frame as small axes.
pub fn shapes(doc: &Document) -> Vec<crate::render::WireShape> {
    let mut out = body_shapes(doc);
    out.extend(spring_shapes(doc));
    out
}

/// The MMD rigid bodies and their joints' frames.
fn body_shapes(doc: &Document) -> Vec<crate::render::WireShape> {
    use crate::physics::{Mode, Shape};
    use crate::render::{WireKind, WireShape};
    let own;
    let (rig, places) = match doc.physics() {
        Some(sim) if doc.physics_shown() => (sim.rig(), sim.places()),
        // Physics off: the same rig, each body where its bone puts it in the pose shown.
        Some(sim) => (sim.rig(), sim.rig().places_in(doc.pose())),
        None => {
            let Some(rig) = crate::physics::Rig::of_scene(doc.scene()) else { return Vec::new() };
            own = rig;
            (&own, own.places_in(doc.pose()))
        }
    };
    let mut out = Vec::with_capacity(rig.bodies.len() + rig.joints.len());
    for (i, (b, place)) in rig.bodies.iter().zip(&places).enumerate() {
        let kind = match b.shape {
            Shape::Sphere { radius } => WireKind::Sphere { radius },
            Shape::Box { half } => WireKind::Box { half },
            Shape::Capsule { radius, half_height } => WireKind::Capsule { radius, half_height },
        };
        let color = match (doc.selection.body == Some(i), b.mode) {
            (true, _) => SELECTED,
            (false, Mode::Follow) => FOLLOW,
            (false, Mode::Dynamic) => DYNAMIC,
            (false, Mode::DynamicRotation) => DYNAMIC_ROTATION,
        };
        out.push(WireShape { transform: place.to_mat4(), kind, color });
    }
    for j in &rig.joints {
        // The joint's frame rides on its first body.
        let Some(a) = places.get(j.bodies[0]) else { continue };
        let length = rig.bodies[j.bodies[0]].shape.extent().max(0.05) * 0.5;
        out.push(WireShape {
            transform: a.to_mat4() * j.frame_in[0],
            kind: WireKind::Axes { length },
            color: SELECTED,
        });
    }
    out
}
