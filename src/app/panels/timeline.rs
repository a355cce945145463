//! The timeline: a scrub bar along the bottom of the window, with the frame number and time, and for a keyed
//! clip a strip of its key frames and one of the selected joint's own keys (click or drag either to scrub too),
//! and a row of the clip's findings at their frames (click one to go to it). Its Curves tab (`curves.rs`)
//! plots the selected joint's channels instead of the key strips.

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::scene::DEFAULT_FPS;

/// Dragging the bar sets the frame every frame of the drag, so the pose follows live.
pub fn panel(ui: &mut egui::Ui, doc: Option<&Document>) -> Vec<Action> {
    let mut out = Vec::new();
    let Some((doc, (c, frame))) = doc.and_then(|d| Some((d, d.current_clip_frame()?))) else { return out };
    let Some(clip) = doc.scene().clips.get(c) else { return out };
    egui::Panel::bottom("rigscope timeline").show(ui, |ui| {
        // Keys or Curves below the bar, chosen at the bar's start: the choice is the panel's own, kept in
        // egui's memory.
        let tab_id = egui::Id::unique("rigscope timeline curves tab");
        let mut curves_tab = ui.data_mut(|d| *d.get_persisted_mut_or_default::<bool>(tab_id));
        // The bar (wrapping where the window is narrow), then the scrub bar across the whole width.
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut curves_tab, false, "Keys");
            ui.selectable_value(&mut curves_tab, true, "Curves");
            ui.separator();
            if doc.pose().hidden {
                ui.colored_label(ui.visuals().warn_fg_color, "model hidden by the motion")
                    .on_hover_text("A visibility key of the motion hides the model here; the skeleton still shows.");
            }
            let fps = clip.fps(DEFAULT_FPS);
            // The frame the slider and the time end at: a motion's last frame, or a looping clip's wrap.
            ui.monospace(format!(
                "frame {frame:7.2} / {}   time {:6.3} s / {:.3} s",
                clip.frame_span(),
                frame / fps,
                clip.duration(DEFAULT_FPS)
            ));
            ui.separator();
            transport(ui, doc, clip, &mut out);
        });
        ui.horizontal(|ui| {
            let mut f = frame;
            ui.spacing_mut().slider_width = (ui.available_width() - 120.0).max(100.0);
            let r = ui.add(egui::Slider::new(&mut f, 0.0..=clip.frame_span()).text("Frame"));
            if r.changed() {
                out.push(Action::SetFrame(f));
            }
        });
        ui.data_mut(|d| d.insert_persisted(tab_id, curves_tab));
        let keys = if curves_tab { std::rc::Rc::from([]) } else { doc.key_frames(c, None) };
        if curves_tab {
            match doc.selection.joint.filter(|&j| j < doc.scene().skeleton.len()) {
                Some(j) => out.extend(super::curves::tab(ui, doc, c, j, frame)),
                None => {
                    ui.weak("Select a joint (click a bone, or a row of the Skeleton tab) to plot its curves.");
                }
            }
        }
        if !keys.is_empty() {
            ui.horizontal(|ui| {
                ui.label(format!("{} key frames", keys.len()));
                if let Some(f) = key_strip(ui, &keys, frame, clip.frame_span()) {
                    out.push(Action::SetFrame(f));
                }
            });
            // The selected joint's own keys, to find where its motion changes.
            if let Some(j) = doc.selection.joint.filter(|&j| j < doc.scene().skeleton.len()) {
                let own = doc.key_frames(c, Some(j));
                ui.horizontal(|ui| {
                    ui.label(format!("{}: {} keys", doc.scene().skeleton.display_name(j), own.len()));
                    if let Some(f) = key_strip(ui, &own, frame, clip.frame_span()) {
                        out.push(Action::SetFrame(f));
                    }
                });
            }
        }
        // Findings of this clip that name a frame (the motion detectors' pops, flips and seams, bounds misses):
        // a mark at each, the finding's text on hover, a click goes to it as the Problems list's link does.
        let marks: Vec<(f32, usize)> = doc
            .findings
            .iter()
            .enumerate()
            .filter(|(_, f)| f.place.clip == Some(c))
            .filter_map(|(i, f)| Some((f.place.frame? as f32, i)))
            .collect();
        // In frame order, so marks sharing a pixel column are next to each other.
        let mut marks = marks;
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        if !marks.is_empty() {
            ui.horizontal(|ui| {
                ui.label(format!("{} problems", marks.len()));
                if let Some(i) = problem_strip(ui, doc, &marks, frame, clip.frame_span()) {
                    out.push(Action::GoToFinding(i));
                }
            });
        }
    });
    out
}

/// The transport: first frame, previous key, step back, play or pause, step forward, next key, last frame;
/// then the speed (with presets) and the loop switch. Each button's accessible name is its action, and its
/// hover text its key.
fn transport(ui: &mut egui::Ui, doc: &Document, clip: &crate::scene::Clip, out: &mut Vec<Action>) {
    let player = doc.player();
    let (forwards, backwards) = (player.playing && !player.backwards, player.playing && player.backwards);
    let buttons: [(&str, Action); 8] = [
        ("First frame", Action::JumpStart),
        ("Previous key", Action::StepKey(-1)),
        ("Step back", Action::Step(-1)),
        (if backwards { "Pause" } else { "Play backwards" }, Action::TogglePlayBackwards),
        (if forwards { "Pause" } else { "Play" }, Action::TogglePlay),
        ("Step forward", Action::Step(1)),
        ("Next key", Action::StepKey(1)),
        ("Last frame", Action::JumpEnd),
    ];
    for (text, action) in buttons {
        let keys = crate::app::shortcuts::text_for(ui.ctx(), &action);
        let hover = if keys.is_empty() { text.to_string() } else { format!("{text} ({keys})") };
        if ui.small_button(text).on_hover_text(hover).clicked() {
            out.push(action);
        }
    }
    let mut speed = player.speed;
    let field = egui::DragValue::new(&mut speed)
        .range(crate::app::settings::MIN_SPEED..=crate::app::settings::MAX_SPEED)
        .speed(0.01)
        .max_decimals(3)
        .suffix("×");
    let r = ui.add(field).on_hover_text("Playback speed ([ and ] halve and double it)");
    ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("Speed"));
    if r.changed() {
        out.push(Action::SetSpeed(speed));
    }
    let presets = egui::ComboBox::from_id_salt("speed presets").selected_text("").width(16.0).show_ui(ui, |ui| {
        for preset in [0.1, 0.25, 0.5, 1.0, 2.0, 4.0] {
            if ui.selectable_label((player.speed - preset).abs() < 1e-4, format!("{preset}×")).clicked() {
                out.push(Action::SetSpeed(preset));
            }
        }
    });
    ui.ctx().accesskit_node_builder(presets.response.id, |n| n.set_label("Speed presets"));
    let mut looping = clip.looping;
    let model = &doc.model;
    let says = model.file_looping.get(player.clip.unwrap_or(0)).copied().unwrap_or(clip.looping);
    let file = if says { "the file says loop" } else { "the file says play once" };
    if ui.checkbox(&mut looping, "Loop").on_hover_text(file).changed() {
        out.push(Action::SetLoop(looping));
    }
}

/// A strip along the clip, as wide as the room left, on its background: where a clip frame lies on it, and
/// the current frame drawn as a bar (the key strips and the problem row share it).
struct Strip {
    rect: egui::Rect,
    span: f32,
}

impl Strip {
    fn new(ui: &mut egui::Ui, span: f32, sense: egui::Sense) -> (Strip, egui::Response) {
        let width = (ui.available_width() - 8.0).max(100.0);
        let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 14.0), sense);
        ui.painter_at(rect).rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
        (Strip { rect, span: span.max(1e-6) }, response)
    }

    /// The x of clip frame `f`.
    fn x(&self, f: f32) -> f32 {
        self.rect.left() + self.rect.width() * (f / self.span).clamp(0.0, 1.0)
    }

    /// The clip frame at screen x `x`.
    fn frame_at(&self, x: f32) -> f32 {
        ((x - self.rect.left()) / self.rect.width()).clamp(0.0, 1.0) * self.span
    }

    fn playhead(&self, ui: &egui::Ui, frame: f32) {
        let x = self.x(frame);
        ui.painter_at(self.rect).line_segment(
            [egui::pos2(x, self.rect.top()), egui::pos2(x, self.rect.bottom())],
            egui::Stroke::new(2.0, ui.visuals().selection.bg_fill),
        );
    }
}

/// Marks at the frames of findings (`(frame, finding index)`, sorted by frame), the current frame as a bar.
/// Each mark is its own button (named "RULE at frame N" for a screen reader and the UI tests) with the
/// finding's text on hover; a click returns its finding's index. Marks that land on the same pixel column
/// share it: the first is kept.
fn problem_strip(ui: &mut egui::Ui, doc: &Document, marks: &[(f32, usize)], frame: f32, span: f32) -> Option<usize> {
    let (strip, _) = Strip::new(ui, span, egui::Sense::hover());
    let painter = ui.painter_at(strip.rect);
    let mut clicked = None;
    let mut last = f32::NAN;
    for &(f, i) in marks {
        let column = strip.x(f).round();
        if column == last {
            continue;
        }
        last = column;
        let Some(finding) = doc.findings.get(i) else { continue };
        let rect = strip.rect;
        let hit = egui::Rect::from_center_size(egui::pos2(column, rect.center().y), egui::vec2(9.0, rect.height()));
        let response = ui.interact(hit, ui.make_persistent_id(("problem mark", i)), egui::Sense::click());
        let name = format!("{} at frame {}", finding.rule, f.round());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
        let color = if response.hovered() { ui.visuals().strong_text_color() } else { ui.visuals().error_fg_color };
        painter.circle_filled(hit.center(), 3.5, color);
        if response.on_hover_text(format!("{name}: {}", finding.message)).clicked() {
            clicked = Some(i);
        }
    }
    strip.playhead(ui, frame);
    clicked
}

/// Ticks at the key frames along a strip, the current frame as a bar; returns the frame under the pointer
/// while it is pressed on the strip.
fn key_strip(ui: &mut egui::Ui, keys: &[f32], frame: f32, span: f32) -> Option<f32> {
    let (strip, response) = Strip::new(ui, span, egui::Sense::click_and_drag());
    let painter = ui.painter_at(strip.rect);
    let (top, bottom) = (strip.rect.top() + 2.0, strip.rect.bottom() - 2.0);
    // One tick per pixel column however many keys fall in it (keys are sorted).
    let mut last = f32::NAN;
    for &k in keys {
        let column = strip.x(k).round();
        if column == last {
            continue;
        }
        last = column;
        let stroke = egui::Stroke::new(1.0, ui.visuals().warn_fg_color);
        painter.line_segment([egui::pos2(column, top), egui::pos2(column, bottom)], stroke);
    }
    strip.playhead(ui, frame);
    let pressed = response.clicked() || response.dragged();
    let pos = response.interact_pointer_pos().filter(|_| pressed)?;
    Some(strip.frame_at(pos.x))
}
