//! The MMD sections, driven through egui_kittest (no GPU) on the real PMD character: a Morphs slider holds a
//! morph's weight in the pose the window draws, × lets the animation drive it again, and with a VMD dance
//! attached the sliders follow the motion's morph keys; an IK chain switched off leaves its leg to the motion;
//! with a CJK font the Japanese names draw.

use std::path::PathBuf;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigscope::app::{App, Intent};

mod common;
use common::click_tab;

fn mmd(rel: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus/mmd/threejs")).join(rel);
    assert!(p.is_file(), "corpus file missing: {}", p.display());
    p
}

struct State {
    app: App,
    intents: Vec<Intent>,
}

fn harness(app: App) -> Harness<'static, State> {
    // MMD names are Japanese: boxes for glyphs the default fonts lack, as the window draws them.
    Harness::builder().with_size([1400.0, 3200.0]).allow_missing_glyphs().build_ui_state(
        |ui, s: &mut State| {
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        State { app, intents: Vec::new() },
    )
}

/// The PMD character with the three.js dance attached.
fn miku_dancing() -> App {
    let mut app = App::new();
    app.open_path(&mmd("miku/miku_v2.pmd"));
    app.open_path(&mmd("vmds/wavefile_v2.vmd"));
    app
}

fn morph_index(app: &App, name: &str) -> usize {
    app.scene().unwrap().morphs.iter().position(|m| m.name == name).unwrap()
}

/// The timeline ends where its slider and its time do: the dance's last frame is 2809 (93.633 s at 30 frames a
/// second), as the view's corner says, not its count of 2810 frames.
#[test]
fn the_timeline_ends_at_the_motions_last_frame() {
    let mut h = harness(miku_dancing());
    h.run();
    h.get_by_label("/ 2809").hover();
    h.get_by_label("Frame unit").click();
    h.run();
    h.get_by_label("/ 93.633 s").hover();
    assert!(h.state().app.frame_text().unwrap().contains("/ 2809 "), "{:?}", h.state().app.frame_text());
}

#[test]
fn a_slider_holds_a_morph_and_the_cross_lets_go() {
    let mut app = App::new();
    app.open_path(&mmd("miku/miku_v2.pmd"));
    let a = morph_index(&app, "あ");
    let mut h = harness(app);
    h.run();
    click_tab(&mut h, "Morphs");
    assert!(h.query_by_label("Mouth (11)").is_some(), "morphs are grouped by panel");
    h.get_by_role_and_label(Role::Slider, "a (あ)").set_value_accesskit(1.0);
    h.run();
    let app = &h.state().app;
    assert_eq!(app.document().unwrap().morph_weight(a), (1.0, true));
    assert_eq!(app.pose().morphs.get(a), Some(&1.0), "the pose the window draws carries the weight");
    assert!(h.query_by_label("1 held by a slider").is_some());
    h.get_by_label("×").click();
    h.run();
    let app = &h.state().app;
    assert_eq!(app.document().unwrap().morph_weight(a), (0.0, false));
    assert_eq!(app.pose().morphs.get(a), Some(&0.0));
}

#[test]
fn with_a_dance_attached_the_morphs_follow_its_keys() {
    let app = miku_dancing();
    let blink = morph_index(&app, "まばたき");
    let mut h = harness(app);
    h.run();
    // Scrub until the blink track gives a weight: the dance blinks 136 times over its keys.
    let mut seen = 0.0f32;
    for frame in (0..3000).step_by(5) {
        h.state_mut().app.apply(rigscope::app::Action::SetFrame(frame as f32));
        h.run();
        let (w, held) = h.state().app.document().unwrap().morph_weight(blink);
        assert!(!held);
        assert_eq!(h.state().app.pose().morphs.get(blink), Some(&w), "the pose carries the motion's weight");
        seen = seen.max(w);
    }
    assert!(seen > 0.9, "the eyes close at some point of the dance (max blink {seen})");
}

/// With the machine's CJK font added (CI installs Droid Sans Fallback), the Japanese morph names draw with no
/// missing glyph: this harness, unlike the others, fails on a box.
#[test]
fn with_a_cjk_font_the_japanese_names_draw_without_boxes() {
    // The model is opened once the font is in: the first frame would draw its Japanese comment.
    let mut h = Harness::builder().with_size([1400.0, 3200.0]).build_ui_state(
        |ui, s: &mut State| {
            let intents = s.app.show(ui);
            s.intents.extend(intents);
        },
        State { app: App::new(), intents: Vec::new() },
    );
    let ctx = h.ctx.clone();
    let font = h.state_mut().app.install_cjk_font(&ctx);
    assert!(font.is_some(), "a CJK font is installed (fonts-droid-fallback or fonts-noto-cjk)");
    h.run();
    h.state_mut().app.open_path(&mmd("miku/miku_v2.pmd"));
    h.run();
    click_tab(&mut h, "Morphs");
    assert!(h.query_all_by_label("blink (まばたき)").next().is_some());
}

#[test]
fn an_ik_chain_switched_off_leaves_its_leg_to_the_motion() {
    let app = miku_dancing();
    let scene = app.scene().unwrap();
    let joint = |n: &str| scene.skeleton.find(n).unwrap();
    let (ankle, goal) = (joint("左足首"), joint("左足ＩＫ"));
    let chain = scene.constraints.ik.iter().position(|c| c.joint == goal).unwrap();
    let mut h = harness(app);
    h.state_mut().app.apply(rigscope::app::Action::SetFrame(1200.0));
    h.run();
    let miss = |h: &Harness<'_, State>| {
        let p = h.state().app.pose();
        p.world[ankle].w_axis.truncate().distance(p.world[goal].w_axis.truncate())
    };
    assert!(miss(&h) < 0.2, "solved: the ankle is on its IK bone ({})", miss(&h));
    click_tab(&mut h, "Skeleton");
    h.get_by_label("IK chains (7)").click();
    h.run();
    assert_eq!(h.state().app.document().unwrap().ik_enabled(chain), (true, false), "the dance leaves it on");
    h.get_by_label("左足ＩＫ → 左足首 (2 links)").click();
    h.run();
    assert_eq!(h.state().app.document().unwrap().ik_enabled(chain), (false, true));
    assert!(miss(&h) > 0.5, "off: the ankle is where the motion alone puts it ({})", miss(&h));
    h.get_all_by_label("×").next().expect("the chain's release button").click();
    h.run();
    assert_eq!(h.state().app.document().unwrap().ik_enabled(chain), (true, false));
    assert!(miss(&h) < 0.2);
}

#[test]
fn the_timeline_marks_the_selected_bones_keys() {
    let app = miku_dancing();
    let center = app.scene().unwrap().skeleton.find("センター").unwrap();
    let clip = app.scene().unwrap().clips[0].clone();
    let own = clip.joint_key_frames(center, 30.0);
    assert!(!own.is_empty() && own.len() < clip.key_frames(30.0).len(), "a bone has fewer keys than the clip");
    let mut h = harness(app);
    h.state_mut().app.apply(rigscope::app::Action::SelectJoint(Some(center)));
    h.run();
    // Its row counts the VMD's keys of the bone by channel.
    let rigscope::scene::ClipData::Keyed { tracks } = &clip.data else { panic!("a VMD is keyed") };
    let track = tracks.iter().find(|t| t.joint == center).unwrap();
    let (t, r) = (track.translation.len(), track.rotation.len());
    h.get_by_label_contains(&format!("センター keys: {t} translation, {r} rotation"));
}

#[test]
fn display_frames_list_bones_that_select_their_joint() {
    let mut app = App::new();
    app.open_path(&mmd("miku/miku_v2.pmd"));
    let frames = app.scene().unwrap().mmd.as_ref().unwrap().display_frames.len();
    let mut h = harness(app);
    h.run();
    click_tab(&mut h, "Skeleton");
    h.get_by_label(&format!("Display frames ({frames})")).click();
    h.run();
    assert!(h.query_by_label_contains("(listed in the Physics tab)").is_some());
    // The first named bone frame: open it and click its first bone.
    let (name, bone) = {
        let mmd = h.state().app.scene().unwrap().mmd.clone().unwrap();
        let f = mmd.display_frames.iter().find(|f| !f.special && !f.items.is_empty()).unwrap().clone();
        let rigscope::scene::DisplayItem::Bone(b) = f.items[0] else { panic!("a bone frame starts with a bone") };
        let label = if f.name_en.is_empty() || f.name_en == f.name {
            f.name.clone()
        } else {
            format!("{} ({})", f.name_en, f.name)
        };
        (format!("{label} ({})", f.items.len()), mmd.bones[b].clone())
    };
    h.get_by_label(&name).click();
    h.run();
    h.get_by_label(&format!("bone {}", bone.name)).click();
    h.run();
    assert_eq!(h.state().app.selected_joint(), Some(bone.joint));
}

/// The selected bone's contributions at the frame: the left knee in the dance has no append, and IK turns it
/// away from its key; the last step is the pose shown.
#[test]
fn the_joint_panel_shows_what_key_append_and_ik_each_do() {
    let app = miku_dancing();
    let knee = app.scene().unwrap().skeleton.find("左ひざ").unwrap();
    let mut h = harness(app);
    h.state_mut().app.apply(rigscope::app::Action::SetFrame(1200.0));
    h.state_mut().app.apply(rigscope::app::Action::SelectJoint(Some(knee)));
    h.run();
    let doc = h.state().app.document().unwrap();
    let [key, appended, shown] = doc.contributions(knee).expect("the knee is an IK link");
    assert!(appended.rotation.angle_between(key.rotation) < 1e-6, "no append on the knee");
    assert!(shown.rotation.angle_between(appended.rotation) > 0.05, "IK bends it");
    assert!(shown.rotation.angle_between(h.state().app.pose().locals[knee].rotation) < 1e-6, "as shown");
    assert!(h.query_by_label("  append: no turn").is_some());
    let by = egui_kittest::kittest::by;
    assert!(
        h.query_all(by().label_contains("  IK: +")).chain(h.query_all(by().label_contains("  IK: -"))).count() == 1
    );
}

#[test]
fn the_physics_section_simulates_resets_and_switches_off() {
    let app = miku_dancing();
    let scene = app.scene().unwrap();
    let tip = scene.skeleton.find("右髪６").unwrap();
    let mut h = harness(app);
    // Played forward a second from frame 300: the hair hangs where physics puts it, not where the motion does.
    for f in 300..=330 {
        h.state_mut().app.apply(rigscope::app::Action::SetFrame(f as f32));
    }
    h.run();
    click_tab(&mut h, "Display");
    assert!(h.query_by_label("Physics simulation (45 rigid bodies, 27 joints)").is_some());
    assert!(h.query_by_label("This frame: simulated forward from the one before").is_some());
    let doc = h.state().app.document().unwrap();
    assert!(doc.physics_shown());
    let simulated = h.state().app.pose().world[tip].w_axis;
    let mut motion_only = rigscope::anim::Pose::default();
    let clip = &h.state().app.scene().unwrap().clips[0];
    motion_only.update_scene(h.state().app.scene().unwrap(), Some(clip), 330.0, 30.0, &[]);
    assert!(simulated.distance(motion_only.world[tip].w_axis) > 0.5, "the hair tip is where the motion puts it");
    // Reset: the frame shown starts over from its pose.
    h.get_by_label("Reset").click();
    h.run();
    assert!(h.query_by_label("This frame: reset (bodies placed at the pose, then the warm-up)").is_some());
    // The Physics tab's bodies, with the mode-2 rule applied.
    click_tab(&mut h, "Physics");
    h.get_by_role_and_label(Role::TextInput, "Filter").focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, "Filter").type_text("ネクタイ2");
    h.run();
    assert!(h.query_by_label_contains("ネクタイ2: physics (file: physics + bone position)").is_some());
    // Simulate off: the motion's pose alone.
    h.get_by_label("Simulate").click();
    h.run();
    assert!(h.query_by_label("Off: the motion's pose alone").is_some());
    let off = h.state().app.pose().world[tip].w_axis;
    assert!(off.distance(motion_only.world[tip].w_axis) < 1e-4);
}

/// The Overlays section's Self-shadow box, beside Ground shadow for a model drawn with a light: on by default,
/// it sets the overlays the window draws with; the motion's self-shadow is MikuMikuDance's default mode 1.
#[test]
fn the_self_shadow_box_switches_the_self_shadow() {
    let mut h = harness(miku_dancing());
    h.run();
    assert!(h.state().app.overlays().self_shadow, "on by default");
    assert_eq!(h.state().app.self_shadow(), Some(rigscope::scene::MMD_DEFAULT_SELF_SHADOW));
    click_tab(&mut h, "Display");
    assert!(h.query_by_label("Self-shadow (from the view's light)").is_none(), "that one is for unlit models");
    h.get_by_label("Self-shadow").click();
    h.run();
    assert!(!h.state().app.overlays().self_shadow);
    assert!(h.state().app.overlays().ground_shadow, "the ground shadow has a box of its own");
}

/// A model without a light of its own (Pip, the demo) offers the self-shadow from the view's light instead, off
/// by default.
#[test]
fn an_unlit_model_offers_the_self_shadow_from_the_views_light() {
    let mut h = harness(App::new());
    h.run();
    assert!(!h.state().app.overlays().view_self_shadow, "off by default");
    click_tab(&mut h, "Display");
    assert!(h.query_by_label("Self-shadow").is_none());
    h.get_by_label("Self-shadow (from the view's light)").click();
    h.run();
    assert!(h.state().app.overlays().view_self_shadow);
}
