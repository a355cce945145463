//! Animation: sampling a clip into local transforms, evaluating a pose into world matrices and the skinning
//! palette, skinning on the CPU (for `pose`, bounds and checks; the renderer skins on the GPU), attaching
//! animation-only files to a model (by joint name, or through a humanoid), and sampling the onion skin's ghost poses.

mod attach;
mod axes;
mod bounds;
mod constraint;
mod frame;
pub mod humanoid;
pub mod look;
mod morph;
mod onion;
mod pick;
mod pose;
mod reach;
mod retarget;
mod sample;
mod skin;
mod trail;

pub use attach::{AttachError, AttachReport, attach};
pub use axes::{convert_deltas, mmd_to_model};
pub use bounds::{BOUNDS_TOLERANCE, BoundsMiss, bounds_miss_warnings, stored_bounds_misses, stored_bounds_warnings};
pub use constraint::{IkFinish, apply_constraints, apply_constraints_phase, apply_constraints_switched};
pub use frame::PoseInput;
pub use morph::{
    apply_bone_morphs, apply_morphs, clip_morph_weights, color_morphs, color_shifts, effective_morph_weights,
    light_parts, lit_colors, material_colors, material_morphs, morph_weights, morphed_vertices, overridden_weights,
    sample_morph_track, texture_transform_morphs, vrm_expression_weights,
};
pub use onion::{Ghost, MAX_ONION_FRAMES, MAX_ONION_STEP, OnionSpacing, onion_ghosts};
pub use pick::{Picked, pick, pick_vertex};
pub use pose::{Pose, ik_switched_on};
pub use reach::{IkMiss, ik_misses};
pub(crate) use sample::sample_clip_hinted;
pub use sample::{sample_clip, sample_joint, sample_keys, sample_keys_eased, sample_track};
pub use skin::{
    BoundsSkinner, skin_normal, skin_normals, skin_positions, skin_tangents, skinned_bounds, skinned_bounds_many,
    spherical_points,
};
pub use trail::{MAX_TRAIL_FRAMES, Trail, motion_trail};
