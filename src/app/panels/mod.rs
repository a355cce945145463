//! The window's panels around the 3D view: the menu bar, the document tabs, the Outliner (left), the Inspector
//! (right), the timeline and the status line (bottom), the start screen, the help overlay and the command
//! palette, and what is drawn over the view (the axis gizmo, joint labels).

pub mod gizmo;
pub mod help;
pub mod inspector;
pub mod labels;
pub mod menu;
pub mod outliner;
pub mod palette;
pub mod panes;
pub mod start;
pub mod status;
pub mod tabs;
pub mod timeline;
