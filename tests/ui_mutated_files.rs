//! A thousand mutated files opened one after another through the path a dropped file takes (`App::open_bytes`,
//! which `open_path` and the window's drop handler share), with the sidebar drawn after each. The app must
//! survive every one, and the model shown must always be the last one that loaded.

mod common;

use common::mutate::{Rng, inputs, mutate_binary, mutate_text};
use egui_kittest::Harness;
use rigscope::app::App;

#[test]
fn a_thousand_mutated_files_never_take_the_last_good_model_down() {
    let bases: Vec<(String, Vec<u8>)> = inputs().into_iter().filter(|(_, d)| d.len() < 100_000).collect();
    // Mutated names hold any character; the window draws missing glyphs as boxes, so the test allows them too.
    let mut harness = Harness::builder().with_size([1200.0, 1600.0]).allow_missing_glyphs().build_ui_state(
        |ui, app: &mut App| {
            let _ = app.show(ui);
        },
        App::new(),
    );
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut shown: Option<String> = None;
    let (mut loaded, mut refused) = (0, 0);
    for i in 0..1000 {
        let (name, data) = &bases[rng.below(bases.len())];
        let ext = name.rsplit('.').next().unwrap_or("bin");
        let bytes = if ext == "iqe" { mutate_text(data, &mut rng) } else { mutate_binary(data, &mut rng) };
        let file = format!("mutant{i}.{ext}");
        let outcome = rigscope::load_bytes(&file, &bytes);
        harness.state_mut().open_bytes(&file, &bytes);
        harness.run();
        match outcome {
            Ok(scene) if !(scene.is_animation_only() && shown.is_some()) => {
                shown = Some(file);
                loaded += 1;
            }
            Ok(_) => loaded += 1,
            Err(_) => refused += 1,
        }
        let app = harness.state();
        assert_eq!(app.model().map(|m| m.name.clone()), shown, "after {i} files");
        // Notices pile up only until dismissed; keep the banner short as a user would.
        if app.notices().len() > 5 {
            harness.state_mut().apply(rigscope::app::Action::DismissNotice(0));
        }
    }
    assert!(loaded > 50 && refused > 50, "{loaded} loaded, {refused} refused: the mutations must do both");
}
