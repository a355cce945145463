//! The MVD section (from `Scene::mvd` of the open file and of attached files): objects with their key rate,
//! every section (tag, minor type, count, read or skipped), bone, morph and camera tracks with their key
//! counts and stages, light, project, accessory and effect keys; then the curve view of the selected track: each channel's interpolated value over
//! time, with markers at its keys and a line at the current time. Absent for other formats.

use egui_plot::{Legend, Line, MarkerShape, Plot, PlotPoints, Points, VLine};

use crate::app::actions::{Action, CurveTarget};
use crate::app::document::Document;
use crate::scene::{Clip, ClipData, MvdInfo, MvdTrackInfo, Scene, Transform};

/// Points sampled along a curve.
const CURVE_SAMPLES: usize = 240;

pub fn section(ui: &mut egui::Ui, doc: &Document, out: &mut Vec<Action>) {
    let (model, curve) = (&doc.model, doc.selection.curve);
    // The clip shown and where in it (seconds).
    let clip = doc.current_clip();
    let time = clip.map(|_| doc.clip_time());
    let own = model.scene.mvd.as_deref().map(|m| (model.name.as_str(), m));
    let attached = model.attachments.iter().filter_map(|a| Some((a.report.source.as_str(), a.mvd.as_deref()?)));
    let files: Vec<(&str, &MvdInfo)> = own.into_iter().chain(attached).collect();
    if files.is_empty() {
        return;
    }
    let scene = &model.scene;
    egui::CollapsingHeader::new(format!("MVD ({} file(s))", files.len())).id_salt("mvd").default_open(true).show(
        ui,
        |ui| {
            for (fi, (name, info)) in files.iter().enumerate() {
                ui.label(format!(
                    "{name}: version {}, {}, {} object(s)",
                    info.version,
                    info.encoding.name(),
                    info.objects.len()
                ));
                if info.additive_stages {
                    ui.weak("stages other than 0 added on the base stage (an assumption)");
                }
                for (oi, o) in info.objects.iter().enumerate() {
                    let english =
                        if o.english_name.is_empty() { String::new() } else { format!(" ({})", o.english_name) };
                    let title = format!("Object \"{}\"{english}, {} keys/s", o.name, o.key_fps);
                    egui::CollapsingHeader::new(title).id_salt(("mvd object", fi, oi)).default_open(true).show(
                        ui,
                        |ui| {
                            egui::CollapsingHeader::new(format!("Sections ({})", o.sections.len()))
                                .id_salt(("mvd sections", fi, oi))
                                .show(ui, |ui| {
                                    egui::Grid::new(("mvd section grid", fi, oi)).striped(true).show(ui, |ui| {
                                        for h in ["tag", "minor", "count", "item", ""] {
                                            ui.strong(h);
                                        }
                                        ui.end_row();
                                        for s in &o.sections {
                                            ui.label(format!("{} ({})", s.kind, s.tag));
                                            ui.label(s.minor.to_string());
                                            ui.label(s.count.to_string());
                                            ui.label(format!("{} B", s.item_size));
                                            ui.label(if s.read { "read" } else { "skipped" });
                                            ui.end_row();
                                        }
                                    });
                                });
                            tracks(ui, "Bones", &o.bones, curve, out, |t| {
                                scene.skeleton.find(&t.name).map(CurveTarget::Joint)
                            });
                            tracks(ui, "Morphs", &o.morphs, curve, out, |_| None);
                            tracks(ui, "Cameras", &o.cameras, curve, out, |t| {
                                scene.cameras.iter().position(|c| c.name == t.name).map(CurveTarget::Camera)
                            });
                            let mut facts = vec![
                                format!("{} camera property key(s)", o.camera_property_keys),
                                format!("{} model property key(s)", o.model_property_keys),
                            ];
                            if !o.ik_bones.is_empty() {
                                facts.push(format!("IK bones: {}", o.ik_bones.join(", ")));
                            }
                            if !o.motion_clips.is_empty() || !o.motion_blends.is_empty() {
                                facts.push(format!(
                                    "{} motion clip(s), {} blend(s)",
                                    o.motion_clips.len(),
                                    o.motion_blends.len()
                                ));
                            }
                            if o.other_keys > 0 {
                                facts.push(format!("{} filter key(s), not read", o.other_keys));
                            }
                            ui.weak(facts.join("; "));
                            property_keys(ui, o, (fi, oi));
                        },
                    );
                }
            }
            if let Some(c) = curve {
                curve_view(ui, scene, clip, time, c);
            } else {
                ui.weak("Click a bone or camera track to plot its curves.");
            }
        },
    );
}

/// The object's light, project, accessory and effect keys, each section kind under its own header.
fn property_keys(ui: &mut egui::Ui, o: &crate::scene::MvdObject, id: (usize, usize)) {
    let list = |ui: &mut egui::Ui, title: String, note: Option<String>, keys: Vec<String>, salt: (&str, usize)| {
        egui::CollapsingHeader::new(title).id_salt((salt, id)).show(ui, |ui| {
            if let Some(n) = note {
                ui.weak(n);
            }
            for k in keys {
                ui.label(k);
            }
        });
    };
    if !o.lights.is_empty() {
        let keys = o.lights.iter().map(|k| k.describe()).collect();
        list(ui, format!("Light ({})", keys_n(o.lights.len())), None, keys, ("mvd light", 0));
    }
    if !o.project.is_empty() {
        let note = Some("Gravity drives the physics of a model this motion is attached to".to_string());
        let keys = o.project.iter().map(|k| k.describe()).collect();
        list(ui, format!("Project ({})", keys_n(o.project.len())), note, keys, ("mvd project", 0));
    }
    if !o.accessory.is_empty() {
        let note = Some("The accessory itself (an .x file) is not loaded".to_string());
        let keys = o.accessory.iter().map(|k| k.describe()).collect();
        list(ui, format!("Accessory ({})", keys_n(o.accessory.len())), note, keys, ("mvd accessory", 0));
    }
    for (i, e) in o.effects.iter().enumerate() {
        let note = Some(format!("Parameters: {}; the effect itself is not loaded", e.describe_parameters()));
        let keys = e.keys.iter().map(|k| e.describe_key(k)).collect();
        list(ui, format!("Effect ({})", keys_n(e.keys.len())), note, keys, ("mvd effect", i));
    }
}

fn keys_n(n: usize) -> String {
    if n == 1 { "1 key".into() } else { format!("{n} keys") }
}

/// A list of tracks with key counts per stage; clicking one (where `target` finds it) selects its curves.
fn tracks(
    ui: &mut egui::Ui,
    what: &str,
    list: &[MvdTrackInfo],
    curve: Option<CurveTarget>,
    out: &mut Vec<Action>,
    target: impl Fn(&MvdTrackInfo) -> Option<CurveTarget>,
) {
    if list.is_empty() {
        return;
    }
    ui.label(format!("{what} ({})", list.len()));
    for t in list {
        let keys: usize = t.stages.iter().map(|s| s.keys).sum();
        let stages = if t.stages.len() > 1 {
            let s: Vec<String> = t
                .stages
                .iter()
                .map(|s| match &s.name {
                    Some(n) => format!("{} \"{n}\": {}", s.id, s.keys),
                    None => format!("{}: {}", s.id, s.keys),
                })
                .collect();
            format!(", stages {}", s.join(", "))
        } else {
            String::new()
        };
        let text = format!("  {}: {keys} key(s){stages}", t.name);
        match target(t) {
            Some(tg) => {
                let selected = curve == Some(tg);
                if ui.selectable_label(selected, text).clicked() {
                    out.push(Action::SelectCurve(if selected { None } else { Some(tg) }));
                }
            }
            None => {
                ui.weak(text);
            }
        }
    }
}

/// One plotted channel: its name, sampled (time, value) points and its key markers.
struct Channel {
    name: &'static str,
    line: Vec<[f64; 2]>,
    keys: Vec<[f64; 2]>,
}

/// The channels of the selected track, or `None` when it isn't in the scene (or the current clip).
fn channels(scene: &Scene, clip: Option<&Clip>, target: CurveTarget) -> Option<(String, Vec<Channel>)> {
    match target {
        CurveTarget::Joint(j) => {
            let ClipData::Keyed { tracks } = &clip?.data else { return None };
            let track = tracks.iter().find(|t| t.joint == j)?;
            let times = track.translation.iter().map(|k| k.time).chain(track.rotation.iter().map(|k| k.time));
            let (lo, hi) = times.fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), t| (a.min(t), b.max(t)));
            if !lo.is_finite() {
                return None;
            }
            let value = |t: f32| crate::anim::sample_track(track, t, Transform::IDENTITY);
            let angle = |q: glam::Quat| (2.0 * q.w.abs().min(1.0).acos()).to_degrees() as f64;
            let sample = |f: &dyn Fn(&Transform) -> f64| -> Vec<[f64; 2]> {
                samples(lo, hi).map(|t| [t as f64, f(&value(t))]).collect()
            };
            let tkeys = |i: usize| -> Vec<[f64; 2]> {
                track.translation.iter().map(|k| [k.time as f64, k.value[i] as f64]).collect()
            };
            let chans = vec![
                Channel { name: "translation x", line: sample(&|v| v.translation.x as f64), keys: tkeys(0) },
                Channel { name: "translation y", line: sample(&|v| v.translation.y as f64), keys: tkeys(1) },
                Channel { name: "translation z", line: sample(&|v| v.translation.z as f64), keys: tkeys(2) },
                Channel {
                    name: "rotation angle (°)",
                    line: sample(&|v| angle(v.rotation)),
                    keys: track.rotation.iter().map(|k| [k.time as f64, angle(k.value)]).collect(),
                },
            ];
            Some((format!("joint \"{}\"", scene.skeleton.display_name(j)), chans))
        }
        CurveTarget::Camera(c) => {
            let cam = scene.cameras.get(c)?;
            let (lo, hi) = (cam.keys.first()?.time, cam.keys.last()?.time);
            let ch = |name: &'static str, f: &dyn Fn(&crate::scene::CameraKey) -> f32| Channel {
                name,
                line: samples(lo, hi).filter_map(|t| Some([t as f64, f(&cam.key_at(t)?) as f64])).collect(),
                keys: cam.keys.iter().map(|k| [k.time as f64, f(k) as f64]).collect(),
            };
            let chans = vec![
                ch("distance", &|k| k.distance),
                ch("fov (°)", &|k| k.fov_y.to_degrees()),
                ch("target x", &|k| k.target.x),
                ch("target y", &|k| k.target.y),
                ch("target z", &|k| k.target.z),
                ch("rotation x (°)", &|k| k.angles.x.to_degrees()),
                ch("rotation y (°)", &|k| k.angles.y.to_degrees()),
                ch("rotation z (°)", &|k| k.angles.z.to_degrees()),
            ];
            Some((format!("camera \"{}\"", cam.name), chans))
        }
    }
}

/// Evenly spaced times from `lo` to `hi`, both included (one time when they coincide).
fn samples(lo: f32, hi: f32) -> impl Iterator<Item = f32> {
    let n = if hi > lo { CURVE_SAMPLES } else { 1 };
    (0..n).map(move |i| if n == 1 { lo } else { lo + (hi - lo) * i as f32 / (n - 1) as f32 })
}

fn curve_view(ui: &mut egui::Ui, scene: &Scene, clip: Option<&Clip>, time: Option<f32>, target: CurveTarget) {
    ui.separator();
    let Some((name, chans)) = channels(scene, clip, target) else {
        ui.weak("The selected track has no keys in the current clip.");
        return;
    };
    ui.label(format!("Curves: {name}"));
    ui.weak("x: seconds; markers at keys; the vertical line is the current time");
    Plot::new("mvd curve view").height(220.0).legend(Legend::default()).allow_scroll(false).show(ui, |p| {
        for c in chans {
            p.line(Line::new(c.name, PlotPoints::from(c.line)));
            p.points(Points::new(c.name, PlotPoints::from(c.keys)).shape(MarkerShape::Diamond).radius(3.0));
        }
        if let Some(t) = time {
            p.vline(VLine::new("now", t as f64));
        }
    });
}
