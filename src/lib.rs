//! rigscope: a real-time viewer and debugger for game-model exports.
//!
//! Bytes flow one way: `formats` parse files into the format-neutral `scene` model; `anim` samples clips into
//! poses; `textures` finds and decodes material textures without a GPU; `render` skins on the GPU and draws;
//! `report` holds the text and JSON descriptions the command line and the window share; the command line and
//! the `window` (with the `app` state and sidebar) read only the scene. Nothing below them imports them.
//! See ARCHITECTURE.md.

#![forbid(unsafe_code)]
// The house limit: a function over 150 lines is split into named stages (clippy.toml sets the threshold).
#![warn(clippy::too_many_lines)]

pub mod anim;
pub mod app;
pub mod check;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod convert;
pub mod demo;
pub mod error;
pub mod formats;
pub mod physics;
pub mod render;
pub mod report;
pub mod scene;
pub mod synth;
pub mod textures;
pub mod vfs;
pub mod view;
pub mod watch;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(not(target_arch = "wasm32"))]
pub mod window;

pub use error::{LoadError, Location, Warning};
pub use formats::{load_bytes, load_path};
pub use scene::Scene;
