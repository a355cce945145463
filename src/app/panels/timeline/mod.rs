//! The timeline along the bottom of the window. Its bar: Keys or Curves, the clip, the frame (in frames or
//! seconds), the transport, the speed, the loop switch and the loop range. The Keys tab is a dope sheet: a
//! ruler, the clip's keys, a row per selected or pinned joint, morph or camera with its keys by channel and bars
//! over held keys, the motion's IK and physics switches, the stored bounds' height and the clip's findings, all
//! on one time axis (`view.rs`: Ctrl+wheel zooms, a middle drag pans, a double-click fits). Dragging on any row
//! scrubs and pauses, and playback goes on when the button is let go; Shift+drag on the ruler, or P and a drag,
//! sets the loop range. The Curves tab (`curves.rs`) plots the selected joint's channels instead.

mod curves;
mod rows;
pub mod view;

use std::collections::HashMap;

use egui::PointerButton;

use rows::{LABEL_WIDTH, ROW_HEIGHT, Strip};
use view::TimeView;

use crate::app::actions::Action;
use crate::app::document::Document;
use crate::app::document::dopesheet::{self, RowItem};
use crate::app::sections::toggles::{Toggle, ViewToggles};
use crate::scene::{Clip, DEFAULT_FPS, UpAxis, WHOLE_MODEL};

/// The timeline's own state for the session: the zoom of each document's clips, the frame field's unit, and a
/// drag under way.
#[derive(Debug, Default)]
pub struct Timeline {
    /// The next drag on the ruler sets the loop range (P).
    pub arm_range: bool,
    /// The frame field shows seconds.
    seconds: bool,
    /// What each (document, clip) shows; a clip not here shows whole.
    views: HashMap<(u64, usize), TimeView>,
    /// Playback paused by a scrub under way, and its direction (true: backwards), resumed on release.
    resume: Option<bool>,
    /// Where a drag setting the loop range started (a frame).
    range_from: Option<f32>,
}

/// The rows under the ruler, in order.
enum Row {
    /// Every key of the clip.
    Summary(std::rc::Rc<[f32]>),
    /// A joint's, morph's or camera's keys, under its name.
    Item(RowItem, String),
    /// Where a switch is off: "IK" or "Physics", the chain's or bone's name, the spans.
    Switch(&'static str, String, Vec<(f32, f32)>),
    /// The stored bounds' height at each frame, and the frames where they miss the mesh.
    Bounds(Vec<f32>, Vec<f32>),
    /// The clip's findings that name a frame: (frame, finding index), by frame.
    Problems(Vec<(f32, usize)>),
}

/// The panel, for the shown document; its actions are applied by the caller.
pub fn panel(ui: &mut egui::Ui, doc: Option<&Document>, state: &mut Timeline, toggles: &ViewToggles) -> Vec<Action> {
    let mut out = Vec::new();
    let Some((doc, (c, frame))) = doc.and_then(|d| Some((d, d.current_clip_frame()?))) else { return out };
    let Some(clip) = doc.scene().clips.get(c) else { return out };
    egui::Panel::bottom("rigscope timeline").show(ui, |ui| {
        // Keys or Curves, chosen at the bar's start: the choice is the panel's own, kept in egui's memory.
        let tab_id = egui::Id::unique(TAB_ID);
        let mut curves_tab = ui.data_mut(|d| *d.get_persisted_mut_or_default::<bool>(tab_id));
        // The bar, wrapping where the window is narrow.
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut curves_tab, false, "Keys");
            ui.selectable_value(&mut curves_tab, true, "Curves");
            ui.separator();
            clip_selector(ui, doc, c, &mut out);
            frame_field(ui, clip, frame, state, &mut out);
            ui.separator();
            transport(ui, doc, clip, &mut out);
            loop_range(ui, doc, state, &mut out);
            ui.separator();
            ghosts(ui, toggles, &mut out);
            if doc.pose().hidden {
                ui.colored_label(ui.visuals().warn_fg_color, "model hidden by the motion")
                    .on_hover_text("A visibility key of the motion hides the model here; the skeleton still shows.");
            }
        });
        ui.data_mut(|d| d.insert_persisted(tab_id, curves_tab));
        if curves_tab {
            let (joints, morph) = plotted(doc);
            if joints.is_empty() && morph.is_none() {
                ui.weak("Select a joint (click a bone, or a row of the Skeleton tab) or a morph to plot its curves.");
            } else {
                out.extend(curves::tab(ui, doc, c, curves::Plotted { joints: &joints, morph }, frame));
            }
        } else {
            keys_tab(ui, doc, c, clip, frame, state, &mut out);
        }
    });
    out
}

/// Where egui's memory keeps whether the Curves tab is shown.
const TAB_ID: &str = "rigscope timeline curves tab";

/// Shows the Curves tab (`true`) or the Keys tab.
pub fn show_tab(ctx: &egui::Context, curves: bool) {
    ctx.data_mut(|d| d.insert_persisted(egui::Id::unique(TAB_ID), curves));
}

/// What the Curves tab plots: the selected joints (a display frame's all) and the pinned selection's, at most
/// [`MAX_CURVE_JOINTS`]; the selected morph, else the pinned one.
fn plotted(doc: &Document) -> (Vec<usize>, Option<usize>) {
    let n = doc.scene().skeleton.len();
    let mut joints: Vec<usize> = Vec::new();
    let mut morph = None;
    for s in [Some(&doc.selection), doc.history.pinned.as_ref()].into_iter().flatten() {
        for j in s.joints() {
            if j < n && !joints.contains(&j) && joints.len() < MAX_CURVE_JOINTS {
                joints.push(j);
            }
        }
        morph = morph.or(s.morph.filter(|&m| m < doc.scene().morphs.len()));
    }
    (joints, morph)
}

/// The most joints the Curves tab plots at once (a display frame may hold dozens; past a few the plot is a tangle).
const MAX_CURVE_JOINTS: usize = 8;

/// The clip shown, and a menu of the others (choosing one plays it from its start).
fn clip_selector(ui: &mut egui::Ui, doc: &Document, c: usize, out: &mut Vec<Action>) {
    let clips = &doc.scene().clips;
    let name = |i: usize| format!("{i}: {}", clips[i].name);
    let r =
        egui::ComboBox::from_id_salt("rigscope timeline clip").selected_text(name(c)).width(140.0).show_ui(ui, |ui| {
            for i in 0..clips.len() {
                if ui.selectable_label(i == c, name(i)).clicked() && i != c {
                    out.push(Action::SelectClip(i));
                }
            }
        });
    ui.ctx().accesskit_node_builder(r.response.id, |n| n.set_label("Clip"));
    r.response.on_hover_text(format!("{} clips", clips.len()));
}

/// The frame as an editable number, in frames or seconds (the unit button switches), and the clip's length.
fn frame_field(ui: &mut egui::Ui, clip: &Clip, frame: f32, state: &mut Timeline, out: &mut Vec<Action>) {
    let (fps, span) = (clip.fps(DEFAULT_FPS), clip.frame_span());
    let (label, r) = if state.seconds {
        let mut t = frame / fps;
        let field = egui::DragValue::new(&mut t).range(0.0..=span / fps).speed(0.1 / fps).max_decimals(3).suffix(" s");
        let r = ui.add(field);
        if r.changed() {
            out.push(Action::SetFrame(t * fps));
        }
        ui.monospace(format!("/ {:.3} s", span / fps)).on_hover_text(format!("frame {frame:.2} / {span}"));
        ("Time", r)
    } else {
        let mut f = frame;
        let r = ui.add(egui::DragValue::new(&mut f).range(0.0..=span).speed(0.25).max_decimals(2));
        if r.changed() {
            out.push(Action::SetFrame(f));
        }
        ui.monospace(format!("/ {span}")).on_hover_text(format!("{:.3} s / {:.3} s", frame / fps, span / fps));
        ("Frame", r)
    };
    ui.ctx().accesskit_node_builder(r.id, |n| n.set_label(label));
    let unit = if state.seconds { "s" } else { "f" };
    let other = if state.seconds { "Show frames" } else { "Show seconds" };
    let r = ui.small_button(unit).on_hover_text(other);
    ui.ctx().accesskit_node_builder(r.id, |n| n.set_label("Frame unit"));
    if r.clicked() {
        state.seconds = !state.seconds;
    }
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

/// The onion skin (on or off, ghosts each side, frames between them) and the motion trails (on or off, frames
/// each side), which the View menu and O and Shift+O switch too.
fn ghosts(ui: &mut egui::Ui, toggles: &ViewToggles, out: &mut Vec<Action>) {
    let mut onion = toggles.onion;
    if ui.checkbox(&mut onion, "Onion").on_hover_text("Ghosts of the frames around this one (O)").changed() {
        out.push(Action::Toggle(Toggle::Onion));
    }
    ui.add_enabled_ui(toggles.onion, |ui| {
        let (_, n) = count(ui, (toggles.onion_frames, crate::anim::MAX_ONION_FRAMES), "Onion ghosts", |d| {
            d.suffix(" each side")
        });
        out.extend(n.map(Action::SetOnionFrames));
        let (r, k) = count(ui, (toggles.onion_step, crate::anim::MAX_ONION_STEP), "Onion step", |d| d.prefix("every "));
        r.on_hover_text("Frames between two ghosts");
        out.extend(k.map(Action::SetOnionStep));
    });
    let mut trail = toggles.trail;
    let hover = "The selected joints' paths over the frames around this one, keys marked (Shift+O)";
    if ui.checkbox(&mut trail, "Trail").on_hover_text(hover).changed() {
        out.push(Action::Toggle(Toggle::Trail));
    }
    ui.add_enabled_ui(toggles.trail, |ui| {
        let (_, n) =
            count(ui, (toggles.trail_frames, crate::anim::MAX_TRAIL_FRAMES), "Trail frames", |d| d.suffix(" frames"));
        out.extend(n.map(Action::SetTrailFrames));
    });
}

/// A count from 1 to `max` as a field named `label` for a screen reader, dressed by `dress` (a prefix or a
/// suffix); the new count when it was changed. Its response is there for a hover text.
fn count(
    ui: &mut egui::Ui,
    (value, max): (u32, u32),
    label: &str,
    dress: impl FnOnce(egui::DragValue<'_>) -> egui::DragValue<'_>,
) -> (egui::Response, Option<u32>) {
    let mut n = value;
    let r = ui.add(dress(egui::DragValue::new(&mut n).range(1..=max)));
    ui.ctx().accesskit_node_builder(r.id, |b| b.set_label(label));
    let changed = r.changed().then_some(n);
    (r, changed)
}

/// The loop range: what it is, a button that clears it (Alt+P), or one that arms the ruler to set it (P).
fn loop_range(ui: &mut egui::Ui, doc: &Document, state: &Timeline, out: &mut Vec<Action>) {
    let ctx = ui.ctx().clone();
    let keys = |a: &Action| crate::app::shortcuts::text_for(&ctx, a);
    match doc.player().range {
        Some((a, b)) => {
            ui.label(format!("range {a:.0}–{b:.0}"));
            let clear = Action::SetLoopRange(None);
            if ui.small_button("×").on_hover_text(format!("Clear the loop range ({})", keys(&clear))).clicked() {
                out.push(clear);
            }
        }
        None => {
            let arm = Action::ArmLoopRange;
            let text = if state.arm_range { "Drag on the ruler…" } else { "Set range" };
            let hover = format!("Loop a range: drag on the ruler after this, or Shift+drag it ({})", keys(&arm));
            if ui.selectable_label(state.arm_range, text).on_hover_text(hover).clicked() {
                out.push(arm);
            }
        }
    }
}

/// The Keys tab: the ruler, then the rows in a scrolling area that draws only the rows in sight.
fn keys_tab(
    ui: &mut egui::Ui,
    doc: &Document,
    c: usize,
    clip: &Clip,
    frame: f32,
    state: &mut Timeline,
    out: &mut Vec<Action>,
) {
    let span = clip.frame_span();
    let key = (doc.id(), c);
    let view = *state.views.entry(key).or_insert_with(|| TimeView::fit(span));
    let range = doc.player().range;
    let label = |ui: &mut egui::Ui, text: &str| {
        ui.add_sized([LABEL_WIDTH, ROW_HEIGHT], egui::Label::new(egui::RichText::new(text).small()).truncate())
    };
    ui.horizontal(|ui| {
        let zoomed = if view.is_fit(span) { String::new() } else { format!("{:.0}–{:.0}", view.start, view.end) };
        label(ui, &zoomed).on_hover_text("Ctrl+wheel zooms, a middle drag pans, a double-click shows the whole clip");
        let (strip, response) = Strip::new(ui, view, ROW_HEIGHT);
        rows::ruler(ui, &strip);
        let shown = match (state.range_from, response.interact_pointer_pos()) {
            (Some(a), Some(p)) => Some((a.min(strip.frame_at(p.x)), a.max(strip.frame_at(p.x)))),
            _ => range,
        };
        strip.overlay(ui, frame, shown);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Row, true, "Ruler"));
        // Its value says which frames are in view, for a screen reader.
        let shows = format!("frames {:.0}–{:.0}", view.start, view.end);
        ui.ctx().accesskit_node_builder(response.id, |n| n.set_value(shows));
        drive(ui, &response, &strip, doc, state, key, span, true, out);
    });
    let rows = rows_of(doc, c, clip);
    if rows.is_empty() {
        ui.weak("Select a joint or a morph to see its keys here.");
        return;
    }
    let spacing = ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical().max_height(8.0 * (ROW_HEIGHT + spacing)).auto_shrink([false, true]).show_rows(
        ui,
        ROW_HEIGHT,
        rows.len(),
        |ui, shown| {
            for row in &rows[shown] {
                ui.horizontal(|ui| {
                    let (name, text) = describe(doc, c, row);
                    label(ui, &name).on_hover_text(&text);
                    let (strip, response) = Strip::new(ui, view, ROW_HEIGHT);
                    match row {
                        Row::Summary(keys) => rows::ticks(ui, &strip, keys),
                        Row::Item(item, _) => rows::channels(ui, &strip, &doc.row_keys(c, *item)),
                        Row::Switch(_, _, spans) => rows::spans(ui, &strip, spans),
                        Row::Bounds(heights, misses) => rows::sparkline(ui, &strip, heights, misses),
                        Row::Problems(marks) => {
                            if let Some(i) = problem_marks(ui, doc, &strip, marks) {
                                out.push(Action::GoToFinding(i));
                            }
                        }
                    }
                    strip.overlay(ui, frame, range);
                    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Row, true, &text));
                    drive(ui, &response, &strip, doc, state, key, span, false, out);
                });
            }
        },
    );
}

/// The rows the clip has for what is selected or pinned, in order: its keys; the selected joints (a display
/// frame's all), the pinned one's, the selected and pinned morphs, the cameras; the motion's switches that ever
/// turn off; the stored bounds; the findings.
fn rows_of(doc: &Document, c: usize, clip: &Clip) -> Vec<Row> {
    let scene = doc.scene();
    let fps = clip.fps(DEFAULT_FPS);
    let mut rows = Vec::new();
    let all = doc.key_frames(c, None);
    if !all.is_empty() {
        rows.push(Row::Summary(all));
    }
    let mut items: Vec<RowItem> = Vec::new();
    for s in [Some(&doc.selection), doc.history.pinned.as_ref()].into_iter().flatten() {
        items.extend(s.joints().map(RowItem::Joint));
        items.extend(s.morph.map(RowItem::Morph));
    }
    items.extend(scene.cameras.iter().enumerate().filter(|(_, k)| !k.keys.is_empty()).map(|(i, _)| RowItem::Camera(i)));
    let mut seen = std::collections::HashSet::new();
    for item in items.into_iter().filter(|i| seen.insert(*i)) {
        let name = match item {
            RowItem::Joint(j) if j < scene.skeleton.len() => scene.skeleton.display_name(j).to_string(),
            RowItem::Morph(m) if m < scene.morphs.len() => format!("morph {}", scene.morphs[m].name),
            RowItem::Camera(k) if k < scene.cameras.len() => format!("camera {}", scene.cameras[k].name),
            _ => continue,
        };
        rows.push(Row::Item(item, name));
    }
    let span = clip.frame_span();
    for (kind, tracks) in [("IK", &clip.ik_switches), ("Physics", &clip.physics_switches)] {
        for t in tracks {
            let spans = dopesheet::off_spans(t, fps, span);
            if !spans.is_empty() {
                let name = if t.name == WHOLE_MODEL { "whole model".to_string() } else { t.name.clone() };
                rows.push(Row::Switch(kind, name, spans));
            }
        }
    }
    let mut marks: Vec<(f32, usize)> = doc
        .findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.place.clip == Some(c))
        .filter_map(|(i, f)| Some((f.place.frame? as f32, i)))
        .collect();
    marks.sort_by(|a, b| a.0.total_cmp(&b.0));
    if let Some(bounds) = clip.bounds.as_ref().filter(|b| !b.is_empty()) {
        let up = |b: &crate::scene::FrameBounds| match scene.up {
            UpAxis::Z => b.max.z - b.min.z,
            _ => b.max.y - b.min.y,
        };
        let misses = marks.iter().filter(|(_, i)| doc.findings[*i].rule.contains("bounds")).map(|(f, _)| *f).collect();
        rows.push(Row::Bounds(bounds.iter().map(up).collect(), misses));
    }
    if !marks.is_empty() {
        rows.push(Row::Problems(marks));
    }
    rows
}

/// A row's name (left of its strip) and what it holds, for its hover text and a screen reader.
fn describe(doc: &Document, c: usize, row: &Row) -> (String, String) {
    match row {
        Row::Summary(keys) => ("All keys".into(), format!("All keys: {} key frames", keys.len())),
        Row::Item(item, name) => {
            let channels = doc.row_keys(c, *item);
            let mut parts: Vec<String> = channels
                .iter()
                .filter(|(_, k)| !k.keys.is_empty())
                .map(|(ch, k)| format!("{} {}", k.keys.len(), ch.name()))
                .collect();
            let held: usize = channels.iter().map(|(_, k)| k.held.len()).sum();
            if held > 0 {
                parts.push(format!("{held} held"));
            }
            let text = if parts.is_empty() { "no keys".to_string() } else { parts.join(", ") };
            (name.clone(), format!("{name} keys: {text}"))
        }
        Row::Switch(kind, name, spans) => {
            let off: Vec<String> = spans.iter().map(|(a, b)| format!("{a:.0}–{b:.0}")).collect();
            (format!("{kind} {name}"), format!("{kind} {name} off: {}", off.join(", ")))
        }
        Row::Bounds(_, misses) => {
            ("Bounds height".into(), format!("Stored bounds height; misses the mesh at {} frames", misses.len()))
        }
        Row::Problems(marks) => ("Problems".into(), format!("Problems at {} frames", marks.len())),
    }
}

/// What the pointer does on a strip: Ctrl+wheel zooms about it, a middle drag pans, a double-click fits; a
/// press or drag of the primary button scrubs (pausing playback until it is let go), except on the `ruler`
/// with Shift held or the range armed (P), where it sets the loop range.
#[allow(clippy::too_many_arguments)]
fn drive(
    ui: &egui::Ui,
    response: &egui::Response,
    strip: &Strip,
    doc: &Document,
    state: &mut Timeline,
    key: (u64, usize),
    span: f32,
    ruler: bool,
    out: &mut Vec<Action>,
) {
    let view = state.views.entry(key).or_insert_with(|| TimeView::fit(span));
    if let Some(p) = response.hover_pos() {
        let zoom = ui.input(|i| i.zoom_delta());
        if zoom != 1.0 {
            view.zoom(strip.frame_at(p.x), zoom, span);
        }
    }
    if response.dragged_by(PointerButton::Middle) {
        view.pan(-response.drag_delta().x / strip.rect.width().max(1.0) * view.len(), span);
    }
    // A third quick click still fits (it follows a click that scrubbed).
    if response.double_clicked() || response.triple_clicked() {
        *view = TimeView::fit(span);
    }
    let Some(pos) = response.interact_pointer_pos() else { return };
    let at = strip.frame_at(pos.x);
    let shift = ui.input(|i| i.modifiers.shift);
    if ruler && response.drag_started_by(PointerButton::Primary) && (state.arm_range || shift) {
        let origin = ui.input(|i| i.pointer.press_origin()).map_or(at, |o| strip.frame_at(o.x));
        state.range_from = Some(origin);
    }
    if let Some(a) = state.range_from {
        if response.drag_stopped() {
            out.push(Action::SetLoopRange(Some((a, at))));
            state.range_from = None;
            state.arm_range = false;
        }
        return;
    }
    let player = doc.player();
    if response.drag_started_by(PointerButton::Primary) && player.playing {
        state.resume = Some(player.backwards);
        out.push(Action::Pause);
    }
    if response.clicked_by(PointerButton::Primary) || response.dragged_by(PointerButton::Primary) {
        out.push(Action::SetFrame(at));
    }
    if response.drag_stopped()
        && let Some(backwards) = state.resume.take()
    {
        out.push(if backwards { Action::TogglePlayBackwards } else { Action::TogglePlay });
    }
}

/// Marks at the frames of findings (`(frame, finding index)`, sorted by frame). Each mark is its own button
/// (named "RULE at frame N" for a screen reader and the UI tests) with the finding's text on hover; a click
/// returns its finding's index. Marks that land on the same pixel column share it: the first is kept.
fn problem_marks(ui: &mut egui::Ui, doc: &Document, strip: &Strip, marks: &[(f32, usize)]) -> Option<usize> {
    let painter = ui.painter_at(strip.rect);
    let mut clicked = None;
    let mut last = f32::NAN;
    for &(f, i) in marks {
        let column = strip.x(f).round();
        if column == last || column < strip.rect.left() - 1.0 || column > strip.rect.right() + 1.0 {
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
    clicked
}
