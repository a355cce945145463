//! The Files section: the shown model's file and everything attached to it (animation-only IQMs and IQEs, MVD
//! motions and cameras), each with its name-matching report and a Detach button; and hot reload's switch and
//! count.

use crate::anim::AttachReport;
use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::document::model::Model;

/// What an attached file brought, for its row: "IQE animation", "MVD motion", "MVD camera", ….
fn kind(format: &str, report: &AttachReport) -> String {
    let what = match (report.clips.is_empty(), report.cameras.is_empty(), format) {
        (false, false, _) => "motion and camera",
        (true, false, _) => "camera",
        (false, true, "MVD" | "VMD") => "motion",
        (false, true, "VPD") => "pose",
        _ => "animation",
    };
    format!("{format} {what}")
}

/// The section: model file, attachments, hot reload (`watch`: its switch is on).
pub fn section(ui: &mut egui::Ui, doc: &Document, (watch, play_on_open): (bool, bool), out: &mut Vec<Action>) {
    let (model, sources) = (&doc.model, &doc.sources);
    let reloads = (doc.reloads, doc.last_reload.as_deref());
    let title = format!("Files ({})", sources.len().max(1));
    egui::CollapsingHeader::new(title).id_salt("files").default_open(true).show(ui, |ui| {
        let path = sources.first().and_then(|s| s.path.as_ref());
        ui.horizontal(|ui| {
            ui.strong("Model");
            // Cut to the panel's width (a long path would widen it); the whole path on hover.
            ui.add(egui::Label::new(&model.name).truncate())
                .on_hover_text(path.map_or("opened from memory".into(), |p| p.display().to_string()));
        });
        for (i, a) in model.attachments.iter().enumerate() {
            let r = &a.report;
            ui.horizontal(|ui| {
                ui.label(kind(&a.format, r));
                ui.add(egui::Label::new(&r.source).truncate());
            });
            // Wrapping where the panel is narrow, rather than widening it.
            ui.horizontal_wrapped(|ui| {
                ui.add_space(12.0);
                let how = r.how();
                ui.weak(format!(
                    "{} matched {how}, {} unmatched, {} unused",
                    r.matched.len(),
                    r.unmatched_joints.len(),
                    r.unused_tracks.len()
                ));
                if ui
                    .small_button("Report")
                    .on_hover_text("Which joints matched, which tracks were left over")
                    .clicked()
                {
                    out.push(Action::ShowAttachReport(Some(i)));
                }
                if ui.small_button("Detach").on_hover_text(format!("Remove {} from the model", r.source)).clicked() {
                    out.push(Action::Detach(i));
                }
            });
        }
        let mut on = watch;
        let hint = "Reload the model and its attached files when they change on disk, keeping the animation, \
                    frame, camera and selection";
        if ui.checkbox(&mut on, "Reload on change").on_hover_text(hint).changed() {
            out.push(Action::SetWatch(on));
        }
        let mut play = play_on_open;
        let hint = "A model with animations, or a motion, opened or dropped starts playing from frame 0 (a reload \
                    keeps playing or paused as it was)";
        if ui.checkbox(&mut play, "Play on open").on_hover_text(hint).changed() {
            out.push(Action::SetPlayOnOpen(play));
        }
        let mut keep = doc.keep_previous;
        let hint = "On a reload, compare with the version before it (the Compare section, a ghost skeleton)";
        if ui.checkbox(&mut keep, "Keep the previous version as reference").on_hover_text(hint).changed() {
            out.push(Action::SetKeepPrevious(keep));
        }
        if !sources.iter().any(|s| s.path.as_deref().is_some_and(crate::vfs::live)) {
            nothing_to_watch(ui);
        } else if let (n @ 1.., Some(last)) = reloads {
            ui.weak(format!("Reloaded {n}× (last: {last})"));
        }
    });
}

/// Says why the shown model's files aren't watched: they were handed over as bytes, with nothing to read again.
fn nothing_to_watch(ui: &mut egui::Ui) {
    if cfg!(target_arch = "wasm32") {
        ui.weak("Opened without a file handle: nothing to watch.").on_hover_text(
            "Files dropped from a file manager or opened with Open… in a Chromium-based browser come with \
             file handles and are reloaded when they change; a .zip, a download (?open=) and browsers without \
             the File System Access API give only bytes",
        );
    } else {
        ui.weak("Opened from memory: nothing to watch.");
    }
}

/// The name-matching report of attachment `i` as a window: matched joints (model ← file where the names
/// differ), model joints left at their bind pose, the file's tracks no joint took, reparented joints.
pub fn report_window(ctx: &egui::Context, model: &Model, i: usize, out: &mut Vec<Action>) {
    let Some(a) = model.attachments.get(i) else { return };
    let r = &a.report;
    let mut open = true;
    egui::Window::new(format!("Name matching: {}", r.source))
        .id(egui::Id::unique("rigscope attach report"))
        .open(&mut open)
        .default_width(360.0)
        .default_height(420.0)
        .show(ctx, |ui| {
            let how = if r.by_index { "by index (the file has no joint names)" } else { r.how() };
            ui.label(format!("{} joint(s) of {} matched {how}", r.matched.len(), model.scene.skeleton.len()));
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                egui::CollapsingHeader::new(format!("Matched ({})", r.matched.len())).default_open(true).show(
                    ui,
                    |ui| {
                        for (m, f) in &r.matched {
                            ui.monospace(if m == f { m.clone() } else { format!("{m} ← {f}") });
                        }
                    },
                );
                let title = format!("Unmatched joints, bind pose ({})", r.unmatched_joints.len());
                egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
                    for j in &r.unmatched_joints {
                        ui.weak(j);
                    }
                });
                let title = format!("Unused tracks, no such joint ({})", r.unused_tracks.len());
                egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
                    for t in &r.unused_tracks {
                        ui.colored_label(ui.visuals().warn_fg_color, t);
                    }
                });
                if !r.reparented.is_empty() {
                    let title = format!("Parent differs from the model's ({})", r.reparented.len());
                    egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
                        for j in &r.reparented {
                            ui.colored_label(ui.visuals().warn_fg_color, j);
                        }
                    });
                }
                if !r.prefix_matched.is_empty() {
                    let title = format!("Matched by the start of a cut name ({})", r.prefix_matched.len());
                    egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
                        for (model, file) in &r.prefix_matched {
                            ui.label(format!("{model} ← {file}…"));
                        }
                    });
                }
                if !r.ambiguous.is_empty() {
                    let title = format!("Cut names that start several model names ({})", r.ambiguous.len());
                    egui::CollapsingHeader::new(title).default_open(true).show(ui, |ui| {
                        for (file, models) in &r.ambiguous {
                            ui.colored_label(ui.visuals().warn_fg_color, format!("{file}…: {}", models.join(", ")));
                        }
                    });
                }
                if !r.clips.is_empty() {
                    ui.label(format!("Animations: {}", r.clips.join(", ")));
                }
                if !r.cameras.is_empty() {
                    ui.label(format!("Cameras: {}", r.cameras.join(", ")));
                }
            });
        });
    if !open {
        out.push(Action::ShowAttachReport(None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachment_kinds_name_what_the_file_brought() {
        let report = |clips: &[&str], cameras: &[&str]| AttachReport {
            clips: clips.iter().map(|s| s.to_string()).collect(),
            cameras: cameras.iter().map(|s| s.to_string()).collect(),
            ..AttachReport::default()
        };
        assert_eq!(kind("IQE", &report(&["walk"], &[])), "IQE animation");
        assert_eq!(kind("MVD", &report(&["dance"], &[])), "MVD motion");
        assert_eq!(kind("MVD", &report(&[], &["cam"])), "MVD camera");
        assert_eq!(kind("MVD", &report(&["dance"], &["cam"])), "MVD motion and camera");
    }
}
