//! What runs the window around the world: stepping and pacing, the mouse
//! and keyboard's hand, scene files (open, reload, save, watch), the edit
//! stream and the answers to the panel's asks, compare mode's two lanes,
//! recording and replay, and the automation tests and scripts use.

pub mod asks;
// Files on the command line: the browser has neither.
#[cfg(not(target_arch = "wasm32"))]
pub mod automation;
pub mod edits;
pub mod interact;
pub mod keys;
pub mod lanes;
pub mod platform;
pub mod probe;
pub mod recording;
pub mod reload;
pub mod scene_io;
pub mod stepping;
