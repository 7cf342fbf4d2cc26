//! Embedding catenary's solver: a world from Rust and one from RON text,
//! stepped, with a result read back. Runs without the window or the
//! command line: `cargo run --no-default-features --example embed`.

use catenary::scene::{self, BodyDef, RopeDef, Scene};
use std::path::Path;

pub fn main() -> Result<(), scene::SceneErrors> {
    // A soft chain hung from its top particle, built from Rust.
    let mut from_rust = Scene::new("soft chain");
    let mut chain = RopeDef::new([0.0, 2.0, 0.0], [0.0, 1.0, 0.0], 20);
    chain.compliance = 1e-3; // m/N
    chain.pins = vec![0];
    from_rust.bodies.push(BodyDef::Rope(chain));
    from_rust.validate(Path::new("<rust>"))?;

    // The same chain as a scene file would have it.
    let from_text = scene::parse(
        "Scene(name: \"soft chain\",
               bodies: [Rope(start: (0.0, 2.0, 0.0), end: (0.0, 1.0, 0.0), segments: 20,
                             compliance: 1e-3, pins: [0])])",
        Path::new("<text>"),
    )?;

    // Link i carries the 20 − i particles below it, each 1/21 kg, so
    // the chain stretches α·g·Σ(mass below each link) = α·g·10 kg in all.
    let at_rest = 1.0 - 1e-3 * 9.81 * 10.0;
    for (how, scene) in [("from Rust", &from_rust), ("from RON", &from_text)] {
        let mut world = scene.build();
        let mut mean = 0.0;
        for frame in 0..600 {
            world.step();
            if frame >= 540 {
                mean += world.particles.pos()[20].y / 60.0; // the last second
            }
        }
        println!(
            "{how}: the end bobs about y = {mean:.4} m; at rest it would hang at {at_rest:.4} m"
        );
    }
    Ok(())
}
