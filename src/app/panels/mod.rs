//! What surrounds the 3D view rather than the sidebar: the menu bar, the document tabs, the timeline along the
//! bottom, the start screen, the help overlay, and what is drawn over the view (the axis gizmo, joint labels).

pub mod curves;
pub mod gizmo;
pub mod help;
pub mod labels;
pub mod menu;
pub mod start;
pub mod tabs;
pub mod timeline;
