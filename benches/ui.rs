//! The window's UI cost per frame (issue 35): one egui pass of `App::ui` and its tessellation, on a context
//! with no GPU (what the window spends on the CPU before drawing), at 1600×1000, with a clip playing one frame
//! on per pass. Cases:
//! - the corpus character (140 bones, 30 morphs, 45 rigid bodies) with its 2 800-frame dance, the Skeleton tab
//!   and the Selection tab showing a selected joint;
//! - a synthetic 283-joint model with a 2 800-frame clip (a current PMX character's size), Skeleton tab, a
//!   joint selected (its facts in the Inspector, its keys on the timeline);
//! - a synthetic 5 000-joint model, Skeleton tab;
//! - the timeline (issue 36): the 283-joint model with three joints selected (Ctrl+click), its Keys tab (a row
//!   per joint) and its Curves tab (translation and Euler curves of all three over the 2 800 frames);
//! - baseline: the same window with no model.
//!
//! `cargo bench --bench ui`; figures in BENCHMARKS.md ("Window UI per frame").

use criterion::{Criterion, criterion_group, criterion_main};
use rigscope::app::{Action, App, InspectorTab, OutlinerTab};
use rigscope::synth::{SynthSpec, document};

fn corpus(rel: &str) -> std::path::PathBuf {
    let p = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/")).join(rel);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

fn input() -> egui::RawInput {
    let rect = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 1000.0));
    egui::RawInput { screen_rect: Some(rect), ..Default::default() }
}

/// One window frame of the UI: a step of the clip, the pass, the tessellation.
fn pass(ctx: &egui::Context, app: &mut App) -> usize {
    app.apply(Action::Step(1));
    let out = ctx.run_pass(input(), |ctx| {
        std::hint::black_box(app.ui(ctx));
    });
    ctx.tessellate(out.shapes, out.pixels_per_point).len()
}

fn case(c: &mut Criterion, name: &str, app: App, tabs: (OutlinerTab, InspectorTab), setup: &[Action]) {
    timeline_case(c, name, app, tabs, false, setup);
}

fn timeline_case(
    c: &mut Criterion,
    name: &str,
    mut app: App,
    tabs: (OutlinerTab, InspectorTab),
    curves: bool,
    setup: &[Action],
) {
    let ctx = egui::Context::default();
    App::show_tabs(&ctx, tabs.0, tabs.1);
    App::show_timeline_tab(&ctx, curves);
    for a in setup {
        app.apply(a.clone());
    }
    // Fonts, galleys and the panels' sizes settle over the first passes.
    for _ in 0..5 {
        pass(&ctx, &mut app);
    }
    c.bench_function(name, |b| b.iter(|| pass(&ctx, &mut app)));
}

fn synthetic(joints: usize, frames: usize) -> App {
    let mut app = App::new();
    app.open_bytes("synth.iqm", &document(SynthSpec { vertices: 2_000, joints, frames }).to_bytes());
    app
}

fn ui(c: &mut Criterion) {
    let skeleton = (OutlinerTab::Skeleton, InspectorTab::Selection);
    case(c, "ui_frame_no_model_baseline", App::new(), skeleton, &[]);
    let mut miku = App::new();
    miku.open_path(&corpus("mmd/threejs/miku/miku_v2.pmd"));
    miku.open_path(&corpus("mmd/threejs/vmds/wavefile_v2.vmd"));
    case(c, "ui_frame_pmd_140_bones_dance_skeleton_tab", miku, skeleton, &[Action::SelectJoint(Some(40))]);
    let select = [Action::SelectJoint(Some(140))];
    case(c, "ui_frame_283_joints_2800_frames_skeleton_tab", synthetic(283, 2_800), skeleton, &select);
    case(c, "ui_frame_5000_joints_skeleton_tab", synthetic(5_000, 60), skeleton, &[Action::SelectJoint(Some(4_000))]);
    let three = [Action::SelectJoint(Some(100)), Action::ToggleJoint(140), Action::ToggleJoint(200)];
    let timeline =
        |c: &mut Criterion, name, curves| timeline_case(c, name, synthetic(283, 2_800), skeleton, curves, &three);
    timeline(c, "ui_frame_283_joints_2800_frames_three_joints_keys_tab", false);
    timeline(c, "ui_frame_283_joints_2800_frames_three_joints_curves_tab", true);
}

criterion_group!(benches, ui);
criterion_main!(benches);
