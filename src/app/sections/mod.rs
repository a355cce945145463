//! The sidebar's sections, one file each: every section borrows the shown [`crate::app::Document`] (or the
//! app's switches), draws itself and returns [`crate::app::Action`]s, which `App` applies in one place. The
//! outliner's and inspector's tabs to come are files here too.

pub mod animations;
pub mod bone_facts;
pub mod bounds;
pub mod compare;
pub mod display_frames;
pub mod file_info;
pub mod files;
pub mod ik;
pub mod joints;
pub mod meshes;
pub mod morphs;
pub mod mvd;
pub mod nodes;
pub mod physics;
pub mod picked;
pub mod toggles;
