//! catenary: ropes, chains, cloth and soft bodies with XPBD and classic
//! PBD.
//!
//! Layers, each depending only on those below: [`solver`] (pure physics
//! on glam: a [`solver::World`] and its step), [`scene`] (scenes ⇄ worlds:
//! RON files, or built from Rust, validated with the field and range of
//! every problem) and [`analytic`] (closed-form answers to check against).
//! With the `cli` feature (on by default) come the command line's modules
//! (`headless`, `record`, `sweep`, `compare`, `clock`), and with `window`
//! the sandbox (`app`). `catenary = { default-features = false }` is the
//! library alone, on glam, serde, ron, thiserror and tempfile.
//!
//! A rope pinned at both ends, built from Rust, settles into a catenary;
//! its tension is largest at the pins:
//!
//! ```
//! use catenary::scene::{BodyDef, RopeDef, Scene};
//!
//! let mut scene = Scene::new("a rope between two pins");
//! let mut rope = RopeDef::new([0.0, 2.0, 0.0], [1.0, 2.0, 0.0], 20);
//! rope.length = Some(1.2); // 20 % longer than the span: it sags
//! rope.pins = vec![0, -1];
//! scene.bodies.push(BodyDef::Rope(rope));
//! scene.validate(std::path::Path::new("<rust>")).expect("every value in range");
//! let mut world = scene.build();
//! for _ in 0..600 {
//!     world.step(); // 10 s of 1/60 s frames
//! }
//! // The tension (N) of the link from particle k to k + 1.
//! let tension = |k: usize| {
//!     let link = world.constraints.iter().find(|l| l.a.min(l.b) == k).unwrap();
//!     world.tension(link.lambda)
//! };
//! let (end, middle) = (tension(0), tension(10));
//! // 1 kg: the two pins carry its weight, and pull it taut as well.
//! assert!(end > middle && 2.0 * end > 9.81, "{end} N at a pin, {middle} N mid-span");
//! ```
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod analytic;
#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "cli")]
pub mod clock;
#[cfg(feature = "cli")]
pub mod compare;
#[cfg(feature = "cli")]
pub mod edit;
#[cfg(all(feature = "cli", not(target_arch = "wasm32")))]
pub mod export;
#[cfg(feature = "cli")]
pub mod headless;
#[cfg(feature = "cli")]
pub mod record;
pub mod scene;
pub use catenary_solver as solver;
#[cfg(feature = "cli")]
pub mod sweep;
#[cfg(all(target_arch = "wasm32", feature = "window"))]
pub mod web;
