//! catenary: ropes, chains and cloth with XPBD and classic PBD.
//!
//! Layers, each depending only on those below: [`solver`] (pure physics
//! on glam), [`scene`] (RON files ⇄ worlds), [`headless`] (the `run`,
//! `check` and `bench` commands) and `app` (the window).
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod analytic;
#[cfg(feature = "window")]
pub mod app;
pub mod clock;
pub mod compare;
pub mod headless;
pub mod record;
pub mod scene;
pub mod solver;
pub mod sweep;
#[cfg(all(target_arch = "wasm32", feature = "window"))]
pub mod web;
