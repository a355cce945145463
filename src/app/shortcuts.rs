//! The keyboard shortcuts, as one table: the keys (`menu::shortcuts`), the menus' shortcut texts and the help
//! overlay (`help.rs`) all read it, so they can't disagree.

use std::sync::LazyLock;

use egui::{Key, KeyboardShortcut, Modifiers};

use super::settings::clamp_speed;
use super::{Action, Intent, Toggle};

/// Where a shortcut is listed in the help overlay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    Playback,
    View,
    Views,
    Panels,
    Models,
    Files,
}

impl Group {
    /// In the order the help overlay lists them.
    pub const ALL: [Group; 6] =
        [Group::Playback, Group::View, Group::Views, Group::Panels, Group::Models, Group::Files];

    pub fn title(self) -> &'static str {
        match self {
            Group::Playback => "Playback",
            Group::View => "View",
            Group::Views => "Views",
            Group::Panels => "Panels and selection",
            Group::Models => "Models",
            Group::Files => "Files",
        }
    }
}

/// What a shortcut does: a fixed action, or a speed change worked out from the current speed.
#[derive(Debug, Clone, PartialEq)]
pub enum Does {
    Act(Action),
    /// Half the playback speed (at least [`super::settings::MIN_SPEED`]).
    Slower,
    /// Twice the playback speed (at most [`super::settings::MAX_SPEED`]).
    Faster,
}

impl Does {
    /// The action for playback at `speed`.
    pub fn action(&self, speed: f32) -> Action {
        match self {
            Does::Act(a) => a.clone(),
            Does::Slower => Action::SetSpeed(clamp_speed(speed / 2.0)),
            Does::Faster => Action::SetSpeed(clamp_speed(speed * 2.0)),
        }
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Shortcut {
    pub keys: KeyboardShortcut,
    pub group: Group,
    pub description: &'static str,
    pub does: Does,
    /// Key repeats count (holding an arrow scrubs); otherwise a held key acts once.
    pub repeats: bool,
}

impl Shortcut {
    /// The keys as the menus and the help show them ("Ctrl+Shift+S").
    pub fn text(&self, ctx: &egui::Context) -> String {
        let text = ctx.format_shortcut(&self.keys);
        // Punctuation reads better as itself ("[" rather than "OpenBracket"); arrows keep their names.
        let key = self.keys.logical_key;
        let (name, symbol) = (key.name(), key.symbol_or_name());
        match text.strip_suffix(name) {
            Some(modifiers) if symbol.len() == 1 && symbol.is_ascii() => format!("{modifiers}{symbol}"),
            _ => text,
        }
    }
}

fn row(modifiers: Modifiers, key: Key, group: Group, description: &'static str, does: Does) -> Shortcut {
    Shortcut { keys: KeyboardShortcut::new(modifiers, key), group, description, does, repeats: false }
}

const NONE: Modifiers = Modifiers::NONE;
const CMD: Modifiers = Modifiers::COMMAND;
const SHIFT: Modifiers = Modifiers::SHIFT;
const ALT: Modifiers = Modifiers::ALT;
const CMD_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);

static TABLE: LazyLock<Vec<Shortcut>> = LazyLock::new(|| {
    use crate::render::record::AnimatedFormat;
    use Action as A;
    use Group::*;
    let act = Does::Act;
    let window = |i| Does::Act(A::Window(i));
    let toggle = |t| Does::Act(A::Toggle(t));
    let mut rows = vec![
        row(NONE, Key::Space, Playback, "Play or pause", act(A::TogglePlay)),
        row(SHIFT, Key::Space, Playback, "Play backwards or pause", act(A::TogglePlayBackwards)),
        Shortcut { repeats: true, ..row(NONE, Key::ArrowLeft, Playback, "Previous frame", act(A::Step(-1))) },
        Shortcut { repeats: true, ..row(NONE, Key::ArrowRight, Playback, "Next frame", act(A::Step(1))) },
        Shortcut { repeats: true, ..row(SHIFT, Key::ArrowLeft, Playback, "Ten frames back", act(A::Step(-10))) },
        Shortcut { repeats: true, ..row(SHIFT, Key::ArrowRight, Playback, "Ten frames on", act(A::Step(10))) },
        Shortcut {
            repeats: true,
            ..row(CMD, Key::ArrowLeft, Playback, "Previous key (of the selected joint)", act(A::StepKey(-1)))
        },
        Shortcut {
            repeats: true,
            ..row(CMD, Key::ArrowRight, Playback, "Next key (of the selected joint)", act(A::StepKey(1)))
        },
        row(NONE, Key::Home, Playback, "First frame", act(A::JumpStart)),
        row(NONE, Key::End, Playback, "Last frame", act(A::JumpEnd)),
        row(NONE, Key::P, Playback, "Set the loop range (then drag on the ruler)", act(A::ArmLoopRange)),
        row(ALT, Key::P, Playback, "Clear the loop range", act(A::SetLoopRange(None))),
        row(NONE, Key::OpenBracket, Playback, "Slower (half speed)", Does::Slower),
        row(NONE, Key::CloseBracket, Playback, "Faster (double speed)", Does::Faster),
        row(NONE, Key::F, View, "Frame the selection, else the model as it stands", window(Intent::FrameModel)),
        row(NONE, Key::R, View, "Reset the view", window(Intent::ResetView)),
        row(NONE, Key::G, View, "Grid", toggle(Toggle::Grid)),
        row(NONE, Key::K, View, "Skeleton", toggle(Toggle::Skeleton)),
        row(NONE, Key::I, View, "IK chains", toggle(Toggle::IkChains)),
        row(NONE, Key::E, View, "Outlines (MMD edges)", toggle(Toggle::Outline)),
        row(SHIFT, Key::E, View, "Eyes follow the camera (VRM look-at)", toggle(Toggle::EyesFollowCamera)),
        row(NONE, Key::X, View, "Wireframe", toggle(Toggle::Wireframe)),
        row(NONE, Key::J, View, "Joint names", toggle(Toggle::JointNames)),
        row(NONE, Key::A, View, "Joint axes of the selected joint", toggle(Toggle::JointAxes)),
        row(NONE, Key::M, View, "Mesh", toggle(Toggle::Mesh)),
        row(NONE, Key::C, View, "Backface culling", toggle(Toggle::CullBackFaces)),
        row(ALT, Key::G, View, "Grid at the file's origin", toggle(Toggle::GridAtOrigin)),
        row(SHIFT, Key::B, View, "Stored bounds", toggle(Toggle::StoredBounds)),
        row(ALT, Key::B, View, "Computed bounds", toggle(Toggle::ComputedBounds)),
        row(NONE, Key::H, View, "Tint the selected joint's vertices", toggle(Toggle::Highlight)),
        row(NONE, Key::V, View, "Volume boxes", toggle(Toggle::Boxes)),
        row(ALT, Key::C, View, "Camera path and frustum", toggle(Toggle::CameraPath)),
        row(NONE, Key::L, View, "Light from motion", toggle(Toggle::MotionLight)),
        row(SHIFT, Key::L, View, "Light direction", toggle(Toggle::LightArrow)),
        row(SHIFT, Key::G, View, "Ground shadow", toggle(Toggle::GroundShadow)),
        row(SHIFT, Key::S, View, "Self-shadow", toggle(Toggle::SelfShadow)),
        row(ALT, Key::S, View, "Self-shadow from the view's light", toggle(Toggle::ViewSelfShadow)),
        row(NONE, Key::F1, View, "Keyboard shortcuts (this list)", act(A::ToggleHelp)),
        row(NONE, Key::Questionmark, View, "Keyboard shortcuts (this list)", act(A::ToggleHelp)),
        row(NONE, Key::W, Views, "Weight view (selected joint's influence)", toggle(Toggle::Weights)),
        row(NONE, Key::N, Views, "Normals", toggle(Toggle::Normals)),
        row(NONE, Key::T, Views, "Tangents", toggle(Toggle::Tangents)),
        row(NONE, Key::U, Views, "UV checker", toggle(Toggle::UvChecker)),
        row(NONE, Key::B, Views, "Bind pose", toggle(Toggle::BindPose)),
        row(NONE, Key::O, Views, "Onion skin", toggle(Toggle::Onion)),
        row(SHIFT, Key::O, Views, "Motion trails of the selected joints", toggle(Toggle::Trail)),
        row(SHIFT, Key::K, Views, "Linear skinning (no SDEF, QDEF)", toggle(Toggle::LinearSkinning)),
        row(SHIFT, Key::P, Views, "Physics simulation", toggle(Toggle::Physics)),
        row(SHIFT, Key::R, Views, "Rigid bodies", toggle(Toggle::RigidBodies)),
        row(ALT, Key::R, Views, "Reset physics", act(A::ResetPhysics)),
        row(ALT, Key::M, Views, "Let the animation drive every morph", act(A::ResetMorphs)),
        row(CMD, Key::F, Panels, "Filter the Outliner's tab", act(A::FocusFilter)),
        row(CMD, Key::K, Panels, "Command palette", act(A::TogglePalette)),
        row(CMD_SHIFT, Key::B, Panels, "Outliner panel", toggle(Toggle::Outliner)),
        row(CMD_SHIFT, Key::I, Panels, "Inspector panel", toggle(Toggle::Inspector)),
        row(CMD_SHIFT, Key::T, Panels, "Timeline panel", toggle(Toggle::Timeline)),
        row(ALT, Key::ArrowLeft, Panels, "Selection back", act(A::SelectionStep(-1))),
        row(ALT, Key::ArrowRight, Panels, "Selection forward", act(A::SelectionStep(1))),
        row(CMD_SHIFT, Key::P, Panels, "Pin the selection", act(A::PinSelection(true))),
        row(CMD_SHIFT, Key::U, Panels, "Unpin the selection", act(A::PinSelection(false))),
        row(CMD_SHIFT, Key::Backspace, Panels, "Clear problems", act(A::ClearProblems)),
        row(NONE, Key::PageUp, Models, "Previous model", act(A::PrevModel)),
        row(NONE, Key::PageDown, Models, "Next model", act(A::NextModel)),
        row(CMD, Key::W, Models, "Close the model", act(A::CloseModel(usize::MAX))),
        row(CMD_SHIFT, Key::O, Models, "Compare with…", window(Intent::CompareDialog)),
        row(CMD_SHIFT, Key::X, Models, "Stop comparing", act(A::ClearReference)),
        row(CMD_SHIFT, Key::D, Models, "Compare side by side (else a ghost)", toggle(Toggle::CompareSideBySide)),
        row(CMD, Key::O, Files, "Open…", window(Intent::OpenDialog)),
        row(NONE, Key::F12, Files, "Screenshot (PNG)", window(Intent::Screenshot)),
        row(CMD_SHIFT, Key::S, Files, "Contact sheet (PNG)", window(Intent::ContactSheet)),
        row(CMD_SHIFT, Key::C, Files, "Copy pose as JSON", act(A::CopyPose)),
        row(CMD, Key::E, Files, "Export glTF…", window(Intent::ExportGltf)),
        row(CMD_SHIFT, Key::G, Files, "Record GIF", window(Intent::RecordClip(AnimatedFormat::Gif))),
        row(CMD_SHIFT, Key::A, Files, "Record APNG", window(Intent::RecordClip(AnimatedFormat::Apng))),
        row(ALT, Key::F12, Files, "Frame and time in screenshots", toggle(Toggle::FrameInScreenshots)),
        row(CMD, Key::Q, Files, "Quit", window(Intent::Quit)),
    ];
    // Listed by group, in table order within a group.
    rows.sort_by_key(|r| Group::ALL.iter().position(|g| *g == r.group));
    rows
});

/// Every shortcut, grouped ([`Group::ALL`] order).
pub fn table() -> &'static [Shortcut] {
    &TABLE
}

/// The first shortcut that does `action`, for the menus' shortcut texts.
pub fn for_action(action: &Action) -> Option<&'static Shortcut> {
    table().iter().find(|s| matches!(&s.does, Does::Act(a) if a == action))
}

/// The shortcut text of `action` ("" when it has none).
pub fn text_for(ctx: &egui::Context, action: &Action) -> String {
    for_action(action).map(|s| s.text(ctx)).unwrap_or_default()
}

/// How many presses of `s` the input holds, consumed (repeats are consumed too, but counted only when `s`
/// repeats).
fn consume(input: &mut egui::InputState, s: &Shortcut) -> usize {
    let mut n = 0;
    input.events.retain(|e| match e {
        egui::Event::Key { key, pressed: true, repeat, modifiers, .. }
            if *key == s.keys.logical_key && modifiers.matches_logically(s.keys.modifiers) =>
        {
            n += usize::from(!*repeat || s.repeats);
            false
        }
        _ => true,
    });
    n
}

/// The actions the keys pressed this pass ask for, consumed from the input. `has_clip`: playback keys act
/// (otherwise they are left to the widgets); `speed`: the current playback speed; `help_open`: Escape closes
/// the help overlay.
pub fn actions(input: &mut egui::InputState, has_clip: bool, speed: f32, help_open: bool) -> Vec<Action> {
    let mut out = Vec::new();
    // Most modifiers first: Ctrl+Shift+C must not be taken by a shortcut for Ctrl+C or C (modifiers match
    // logically, ignoring an extra Shift).
    let mut rows: Vec<&Shortcut> = table().iter().collect();
    rows.sort_by_key(|s| {
        let m = s.keys.modifiers;
        std::cmp::Reverse(u8::from(m.command || m.ctrl || m.mac_cmd) + u8::from(m.shift) + u8::from(m.alt))
    });
    for s in rows {
        if s.group == Group::Playback && !has_clip {
            continue;
        }
        let n = consume(input, s);
        out.extend(std::iter::repeat_n(s.does.action(speed), n));
    }
    if help_open && input.consume_key(NONE, Key::Escape) {
        out.push(Action::ToggleHelp);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_keys_read_as_themselves() {
        let ctx = egui::Context::default();
        let text = |m: Modifiers, k: Key| row(m, k, Group::View, "", Does::Slower).text(&ctx);
        assert_eq!(text(NONE, Key::OpenBracket), "[");
        assert_eq!(text(NONE, Key::CloseBracket), "]");
        assert_eq!(text(NONE, Key::F1), "F1");
        assert_eq!(text(CMD_SHIFT, Key::S), "Ctrl+Shift+S");
        assert_eq!(text(NONE, Key::ArrowLeft), "Left");
    }

    #[test]
    fn no_two_shortcuts_share_keys_and_every_group_is_used() {
        let t = table();
        for (i, a) in t.iter().enumerate() {
            for b in &t[i + 1..] {
                assert_ne!(a.keys, b.keys, "{} and {}", a.description, b.description);
            }
        }
        for g in Group::ALL {
            assert!(t.iter().any(|s| s.group == g), "{g:?}");
        }
        let groups: Vec<usize> = t.iter().map(|s| Group::ALL.iter().position(|g| *g == s.group).unwrap()).collect();
        assert!(groups.is_sorted(), "grouped");
    }

    #[test]
    fn every_command_has_a_name_and_none_is_listed_twice() {
        let c = table();
        for (i, a) in c.iter().enumerate() {
            assert!(!a.description.is_empty());
            for b in &c[i + 1..] {
                assert!(a.does != b.does || a.keys != b.keys, "{} and {}", a.description, b.description);
            }
        }
    }

    #[test]
    fn speed_changes_halve_and_double_within_limits() {
        assert_eq!(Does::Slower.action(1.0), Action::SetSpeed(0.5));
        assert_eq!(Does::Faster.action(1.0), Action::SetSpeed(2.0));
        assert_eq!(Does::Slower.action(1.0 / 16.0), Action::SetSpeed(1.0 / 16.0));
        assert_eq!(Does::Faster.action(16.0), Action::SetSpeed(16.0));
        assert_eq!(Does::Faster.action(12.0), Action::SetSpeed(16.0));
    }

    #[test]
    fn modified_shortcuts_are_not_taken_by_plain_ones() {
        let ctx = egui::Context::default();
        let key =
            |modifiers, key, pressed| egui::Event::Key { key, physical_key: None, pressed, repeat: false, modifiers };
        // Pressed and released, as a keyboard does (a second press of a key held down counts as a repeat).
        let press = |modifiers, k| [key(modifiers, k, true), key(modifiers, k, false)];
        let raw = egui::RawInput {
            events: [
                press(CMD_SHIFT, Key::C),
                press(CMD, Key::W),
                press(NONE, Key::W),
                press(Modifiers::SHIFT, Key::Questionmark),
            ]
            .concat(),
            ..Default::default()
        };
        let mut got = Vec::new();
        let mut full = ctx.run_pass(raw, |ctx| got = ctx.input_mut(|i| actions(i, false, 1.0, false)));
        full.textures_delta.clear();
        let expected =
            [Action::CloseModel(usize::MAX), Action::CopyPose, Action::ToggleHelp, Action::Toggle(Toggle::Weights)];
        for a in &expected {
            assert_eq!(got.iter().filter(|g| *g == a).count(), 1, "{a:?} in {got:?}");
        }
        assert_eq!(got.len(), expected.len(), "{got:?}");
    }
}
