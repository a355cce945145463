//! Writes the bending arm of `rigscope::synth::arm` for trying SDEF and QDEF by hand and for the pictures in
//! docs/skinning.md. Usage: `make_arm [DIR]` (default /tmp): `arm_sdef.pmx`, `arm_qdef.pmx`, `elbow_bend.vmd`
//! (the elbow bent 100°) and `forearm_twist.vmd` (the forearm twisted 90°).

use glam::Quat;
use rigscope::synth::arm::{ArmBlend, arm_document, elbow_motion};

fn main() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "/tmp".into()));
    let files = [
        ("arm_sdef.pmx", arm_document(ArmBlend::Spherical).to_bytes()),
        ("arm_qdef.pmx", arm_document(ArmBlend::DualQuaternion).to_bytes()),
        ("elbow_bend.vmd", elbow_motion(Quat::from_rotation_z(100f32.to_radians()))),
        ("forearm_twist.vmd", elbow_motion(Quat::from_rotation_x(90f32.to_radians()))),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
