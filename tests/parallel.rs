//! The graph-coloured parallel solver: results independent of the thread
//! count, colourings valid through run-time edits (DESIGN §6).

mod common;

use catenary::headless::bench_scene;
use catenary::solver::{LinkKind, Tag, World};
use common::*;

fn run(mut w: World, threads: usize, frames: usize) -> World {
    w.set_threads(threads);
    for _ in 0..frames {
        w.step();
    }
    w
}

/// A hub with 100 spokes: more constraints at one particle than there are
/// colours, so the sequential overflow batch is used too.
const STAR: &str = "Scene(bodies: [Mesh(particles: [(position: (0.0, 2.0, 0.0), pinned: true), PARTICLES], links: [LINKS])])";

fn star() -> World {
    let particles: Vec<String> = (1..=100)
        .map(|i| {
            let a = i as f32 * 0.0628;
            format!(
                "(position: ({}, {}, 0.0), mass: 0.1)",
                a.cos(),
                2.0 + a.sin()
            )
        })
        .collect();
    let links: Vec<String> = (1..=100)
        .map(|i| format!("(a: 0, b: {i}, compliance: 0.001)"))
        .collect();
    world(
        &STAR
            .replace("PARTICLES", &particles.join(", "))
            .replace("LINKS", &links.join(", ")),
    )
}

#[test]
fn positions_are_bit_identical_for_1_2_and_4_threads() {
    let worlds: Vec<(&str, World)> = vec![
        ("curtain", scene_world("curtain.ron")),
        ("cloth_on_sphere", scene_world("cloth_on_sphere.ron")),
        ("tearing", scene_world("tearing.ron")),
        ("rope_bridge", scene_world("rope_bridge.ron")),
        ("waves", scene_world("waves.ron")),
        ("rope_pile", scene_world("rope_pile.ron")),
        ("hammock", scene_world("hammock.ron")),
        ("star", star()),
    ];
    for (name, w) in worlds {
        let one = run(w.clone(), 1, 90);
        for threads in [2, 4] {
            let many = run(w.clone(), threads, 90);
            assert_eq!(many.threads(), threads);
            assert!(
                one.particles.pos == many.particles.pos,
                "{name}: {threads} threads differ from 1"
            );
            assert!(
                one.particles.vel == many.particles.vel,
                "{name}: velocities differ"
            );
            assert_eq!(
                one.constraints.len(),
                many.constraints.len(),
                "{name}: tearing differs"
            );
        }
        assert_sane(&one, 100.0);
    }
}

#[test]
fn a_cloth_grid_needs_at_most_12_colours() {
    for n in [4, 17, 64] {
        let w = bench_scene(n, 20).unwrap().build();
        let colours = w.constraints.colour_count();
        assert!(colours <= 12, "{n}×{n}: {colours} colours");
        assert!(w.constraints.colouring_is_valid(w.particles.len()));
    }
}

#[test]
fn colourings_stay_valid_through_tearing_pins_and_new_constraints() {
    let mut w = scene_world("tearing.ron");
    w.set_threads(2);
    let before = w.constraints.len();
    for frame in 0..120 {
        w.step();
        if frame == 30 {
            w.set_pinned(500, true);
            w.set_pinned(0, false);
        }
        if frame == 60 {
            // Links added at run time (e.g. a later constraint kind) join a free colour.
            for i in 0..50 {
                let tag = Tag {
                    body: 0,
                    kind: LinkKind::Bend,
                };
                w.constraints.add(i, i + 80, 0.1, 0.01, f32::INFINITY, tag);
            }
        }
        assert!(
            w.constraints.colouring_is_valid(w.particles.len()),
            "frame {frame}"
        );
    }
    assert!(
        w.constraints.len() < before + 50,
        "the sheet should have torn"
    );
    assert_sane(&w, 100.0);
    let star = run(star(), 2, 10);
    assert!(star.constraints.colouring_is_valid(star.particles.len()));
}
