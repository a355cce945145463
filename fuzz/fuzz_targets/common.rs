//! What every target does with a parsed file: what the window and the command line would do next. A file the
//! reader accepts must also survive `check` (lint and scene checks), posing at a few instants and skinning, so
//! data that is valid to the parser but odd downstream (huge frame rates, empty clips, extreme weights) is
//! exercised too. Any panic or abort is a finding.

use rigscope::Scene;
use rigscope::anim::{Pose, skin_positions};

pub fn exercise(name: &str, data: &[u8], parsed: Result<Scene, rigscope::LoadError>) {
    let Ok(scene) = parsed else { return };
    // Bounded work per input: the checks skin every frame, which is fine for small fuzz inputs only.
    if data.len() <= 64 * 1024 {
        let _ = rigscope::check::check_bytes(name, data);
    }
    let _ = skin_positions(&scene.vertices, &Pose::bind(&scene.skeleton).palette);
    for clip in scene.clips.iter().take(4) {
        for frame in [0.0, 0.5, clip.frame_span(), clip.frame_span() + 3.25, -1.0] {
            let pose = Pose::sample(&scene.skeleton, clip, frame, 24.0);
            let _ = skin_positions(&scene.vertices, &pose.palette);
        }
    }
    for camera in scene.cameras.iter().take(2) {
        let _ = camera.view_at(0.5);
    }
}
