//! What the Outliner's and the Inspector's tabs show, one file per part: every section borrows the shown
//! [`crate::app::Document`] (or the app's switches), draws itself and returns [`crate::app::Action`]s, which
//! `App` applies in one place. The Outliner's tabs: Scene (`files`, `compare`, `meshes`, `animations`, `mvd`,
//! `nodes`), Skeleton (`skeleton`, with `ik` and `display_frames`), Morphs (`morphs`), Physics (`bodies`).
//! The Inspector's: Selection (`selected`, with `bone_facts` and `picked`), Display (`physics`, `toggles`), Info
//! (`file_info`, `bounds`); its Problems tab is `notices::problems_list`.

pub mod animations;
pub mod bodies;
pub mod bone_facts;
pub mod bounds;
pub mod compare;
pub mod display_frames;
pub mod file_info;
pub mod files;
pub mod ik;
pub mod meshes;
pub mod morphs;
pub mod mvd;
pub mod nodes;
pub mod physics;
pub mod picked;
pub mod selected;
pub mod skeleton;
pub mod toggles;
