//! The `catenary` program: the command line on the desktop (DESIGN.md §4),
//! the sandbox alone in a browser tab.

#![deny(unsafe_code)]

#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(all(feature = "window", not(target_arch = "wasm32")))]
mod display;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

/// A browser tab has no command line: the sandbox opens on the built-in
/// scene, or on the scene in the link (`#scene=…`).
#[cfg(target_arch = "wasm32")]
fn main() {
    catenary::app::run(Default::default());
}
