//! The graph-coloured parallel solver: results independent of the thread
//! count, colourings valid through run-time edits (DESIGN §6).

mod common;

use catenary::scene::bench_cloth;
use catenary::solver::{LinkKind, Tag, ThreadChoice, World};
use common::*;

/// `frames` frames on a team fixed at `threads` (the chooser would run
/// some frames on fewer).
fn run(mut w: World, threads: usize, frames: usize) -> World {
    w.choose_threads(ThreadChoice::Fixed(threads));
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

/// A rope with a weight and tethers, a balloon tied to it, a soft box
/// tied to the balloon, a tethered cloth with dihedral bending and air on
/// its faces, all colliding.
fn every_new_kind() -> World {
    world(
        "Scene(solver: (body_collisions: true, wind: (2.0, 0.0, 1.0), damping: 2.0),
          bodies: [
            Rope(start: (0.0, 3.0, 0.0), end: (1.2, 3.0, 0.0), segments: 12, tip_mass: 0.5,
                 tethers: true, pins: [0]),
            Balloon(center: (1.2, 2.6, 0.0), sphere_radius: 0.3, subdivisions: 2, radius: 0.02,
                    stretch_compliance: 0.001, pressure: 1.2),
            SoftBox(center: (1.2, 2.0, 0.0), size: (0.3, 0.3, 0.3), resolution: (3, 3, 3),
                    edge_compliance: 0.001, volume_compliance: 0.000001),
            Cloth(origin: (-1.5, 2.5, -0.5), size: (1.0, 1.0), resolution: (12, 12), tethers: true,
                  bending: Dihedral, aero_drag: 1.0, aero_lift: 0.5, pins: [(0, 0), (0, -1)]),
          ],
          joins: [(a: (0, -1), b: (1, 16)), (a: (1, 0), b: (2, -1), compliance: 0.001)],
          colliders: [Ground()])",
    )
}

#[test]
fn positions_are_bit_identical_for_1_2_and_4_threads() {
    let worlds: Vec<(&str, World)> = vec![
        ("curtain", scene_world("curtain.ron")),
        ("cloth_on_sphere", scene_world("cloth_on_sphere.ron")),
        ("tearing (dashpots)", scene_world("tearing.ron")),
        (
            "lesson_damping (dashpots)",
            scene_world("lesson_damping.ron"),
        ),
        ("rope_bridge", scene_world("rope_bridge.ron")),
        ("waves", scene_world("waves.ron")),
        ("rope_pile", scene_world("rope_pile.ron")),
        ("hammock", scene_world("hammock.ron")),
        ("lesson_tethers", scene_world("lesson_tethers.ron")),
        ("flag_in_wind (aero)", scene_world("flag_in_wind.ron")),
        ("cloth_dihedral", scene_world("cloth_dihedral.ron")),
        ("tied_hammock (joins)", scene_world("tied_hammock.ron")),
        (
            "soft_wrecking_ball (soft box, joins, contacts)",
            scene_world("soft_wrecking_ball.ron"),
        ),
        (
            "balloon_on_string (gas)",
            scene_world("balloon_on_string.ron"),
        ),
        ("every new kind at once", every_new_kind()),
        ("star", star()),
        ("free hub", free_hub(100, 0.01)),
    ];
    for (name, w) in worlds {
        let one = run(w.clone(), 1, 90);
        for threads in [2, 4] {
            let many = run(w.clone(), threads, 90);
            assert_eq!(many.threads(), threads);
            assert!(
                one.particles.pos() == many.particles.pos(),
                "{name}: {threads} threads differ from 1"
            );
            assert!(
                one.particles.vel() == many.particles.vel(),
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
fn links_in_simd_lanes_give_the_bits_of_links_projected_one_by_one() {
    // The cloth bench's sheet: sixteen links of a colour share an AVX-512
    // register where the CPU has one, eight an AVX one, four an SSE one;
    // the thread split moves which lanes each link gets, and the last few
    // of a share go alone, so every width must give the scalar bits.
    let w = bench_cloth(40, 20).unwrap().build();
    let lanes = run(w.clone(), 1, 60);
    let mut alone = w.clone();
    alone.set_simd(false);
    let alone = run(alone, 1, 60);
    let split = run(w, 2, 60);
    for (name, other) in [("one by one", &alone), ("two threads", &split)] {
        assert!(
            lanes.particles.pos() == other.particles.pos(),
            "lanes and {name} differ"
        );
        assert!(lanes.particles.vel() == other.particles.vel(), "{name}");
    }
    assert_sane(&lanes, 10.0);
}

#[test]
fn hinges_in_simd_lanes_give_the_bits_of_hinges_projected_one_by_one() {
    // Balloons and dihedral cloth: eight hinges of a colour share an AVX
    // register where the CPU has one; the thread split moves which hinges
    // share one and which go alone, so both must be the same bits.
    for (name, w) in [
        ("balloon_on_string", scene_world("balloon_on_string.ron")),
        ("cloth_dihedral", scene_world("cloth_dihedral.ron")),
        ("every new kind at once", every_new_kind()),
    ] {
        assert!(w.quads.count(catenary::solver::QuadKind::Dihedral) > 100);
        let lanes = run(w.clone(), 1, 90);
        let mut alone = w;
        alone.set_simd(false);
        let alone = run(alone, 2, 90);
        assert!(
            lanes.particles.pos() == alone.particles.pos(),
            "{name}: lanes and one by one differ"
        );
        assert!(lanes.particles.vel() == alone.particles.vel(), "{name}");
    }
}

#[test]
fn triangle_shapes_in_simd_lanes_give_the_bits_of_shapes_found_alone() {
    // Collisions between bodies: each substep every triangle's shape (box,
    // centroid, face) is found eight at a time in AVX lanes (four with
    // wasm SIMD), the last few of a thread's piece alone; a sheet dropped
    // onto another and a rope in a hammock must move to the same bits
    // either way, on one thread or two.
    let pile = world(
        "Scene(solver: (substeps: 20, body_collisions: true),
          bodies: [
            Cloth(origin: (-0.5, 0.05, -0.5), size: (1.0, 1.0), resolution: (21, 21),
                  orientation: Horizontal, radius: 0.01),
            Cloth(origin: (-0.4, 0.3, -0.4), size: (0.8, 0.8), resolution: (17, 17),
                  orientation: Horizontal, radius: 0.01)],
          colliders: [Ground()])",
    );
    for (name, w, frames) in [
        ("pile", pile, 90),
        ("hammock", scene_world("hammock.ron"), 30),
    ] {
        let lanes = run(w.clone(), 1, frames);
        let mut alone = w;
        alone.set_simd(false);
        let alone = run(alone, 2, frames);
        assert!(
            lanes.particles.pos() == alone.particles.pos(),
            "{name}: lanes and one by one differ"
        );
        assert!(lanes.particles.vel() == alone.particles.vel(), "{name}");
        assert_sane(&lanes, 10.0);
    }
}

#[test]
fn a_cloth_grid_needs_at_most_12_colours() {
    for n in [4, 17, 64] {
        let w = bench_cloth(n, 20).unwrap().build();
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
                w.add_link((i, i + 80), 0.1, 0.01, f32::INFINITY, tag);
            }
        }
        assert!(
            w.constraints.colouring_is_valid(w.particles.len()),
            "frame {frame}"
        );
    }
    assert!(!w.tears().is_empty(), "the sheet should have torn");
    assert!(w.constraints.len() != before + 50, "tears change the links");
    assert_sane(&w, 100.0);
    let star = run(star(), 2, 10);
    assert!(star.constraints.colouring_is_valid(star.particles.len()));
}

#[test]
fn links_and_four_particle_constraints_share_colours_without_sharing_a_particle() {
    // Colouring them together (issue 11) runs a colour's links, hinges and
    // tetrahedra in one phase: fewer barriers than one set of colours
    // after the other, and still no particle twice in a colour.
    for name in [
        "soft_bodies.ron",
        "balloon_on_string.ron",
        "cloth_dihedral.ron",
    ] {
        let mut w = scene_world(name);
        w.set_threads(2);
        let (links, quads) = (w.constraints.colour_count(), w.quads.colour_count());
        println!(
            "{name}: {} phases for {links} link and {quads} quad colours",
            w.colour_count()
        );
        assert!(w.colour_count() < links + quads, "{name}");
        for _ in 0..30 {
            w.step();
        }
        assert!(w.colouring_is_valid(), "{name}");
        assert_sane(&w, 100.0);
    }
}

/// A free 1 kg hub hanging from `n` links of compliance α to pinned
/// anchors on a ring of radius 0.5 m, 1 m above it.
fn free_hub(n: usize, alpha: f32) -> World {
    let anchors: Vec<String> = (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            format!(
                "(position: ({}, 1.0, {}), pinned: true)",
                0.5 * a.cos(),
                0.5 * a.sin()
            )
        })
        .collect();
    let links: Vec<String> = (1..=n)
        .map(|i| format!("(a: 0, b: {i}, compliance: {alpha})"))
        .collect();
    world(&format!(
        "Scene(solver: (air_drag: 5.0), bodies: [Mesh(particles: [(position: (0.0, 0.0, 0.0), mass: 1.0), {}], links: [{}])])",
        anchors.join(", "),
        links.join(", ")
    ))
}

#[test]
fn a_free_hub_on_more_links_than_colours_sags_as_the_analytic_spring_network() {
    // 100 links: 63 in colours, 37 in the overflow batch, all at the hub.
    let (n, alpha, m, g) = (100, 0.01f32, 1.0f32, 9.81f32);
    let (h, l0) = (1.0f32, 1.25f32.sqrt());
    // Each link's vertical stiffness is (H/L₀)²/α, so the sag is m·g·α·L₀²/(N·H²).
    let expected = m * g * alpha * l0 * l0 / (n as f32 * h * h);
    let w = run(free_hub(n, alpha), 1, 600);
    let hub = w.particles.pos()[0];
    println!(
        "sag {:.4} mm (analytic {:.4} mm), sideways {:.2e} mm",
        -hub.y * 1e3,
        expected * 1e3,
        hub.with_y(0.0).length() * 1e3
    );
    // 2%: the anchors' ring is symmetric, so only the small-sag
    // linearisation (sag/L₀ ≈ 0.1%) and f32 rounding remain.
    assert!((-hub.y / expected - 1.0).abs() < 0.02, "sag {}", -hub.y);
    assert!(hub.with_y(0.0).length() < 5e-5, "drifted sideways to {hub}");
    // The lanes are a speed-up only: forcing them off gives the same bits.
    let mut lanes_off = free_hub(n, alpha);
    lanes_off.set_simd(false);
    let scalar = run(lanes_off, 2, 600);
    assert!(scalar.particles.pos() == w.particles.pos());
}

/// The positions after 300 frames, hashed, must match these constants on
/// every machine and for every thread count. An intended change of the
/// physics changes them: run this test with `--nocapture`, check the new
/// behaviour by the physics tests, and paste the printed hashes here.
const GOLDEN: [(&str, u64); 4] = [
    ("tearing.ron", 0xbb4f769e087c3a7b),
    ("waves.ron", 0x19aa293961d3e99d),
    ("rope_pile.ron", 0x7f14c5ee2f621e0d),
    ("rope_bridge.ron", 0x858e33f6f77d4448),
];

#[test]
fn golden_hashes_of_four_scenes_hold_for_1_2_and_4_threads() {
    let mut wrong = Vec::new();
    for (name, golden) in GOLDEN {
        let hashes: Vec<u64> = [1, 2, 4]
            .iter()
            .map(|&t| position_hash(&run(scene_world(name), t, 300)))
            .collect();
        println!("(\"{name}\", {:#018x}),", hashes[0]);
        assert!(
            hashes.iter().all(|&h| h == hashes[0]),
            "{name}: {hashes:x?}"
        );
        if hashes[0] != golden {
            wrong.push(name);
        }
    }
    assert!(wrong.is_empty(), "hashes changed for {wrong:?}");
}

#[test]
fn a_fixed_thread_count_runs_every_frame_and_survives_rechoosing_and_cloning() {
    // The panel's threads control: a fixed count is what runs, frame after
    // frame, whatever the timings say; an edit that re-chooses the threads
    // (as a collisions-between-bodies edit does) and a clone (compare mode's
    // twin) keep it; the bits are those of one thread.
    let alone = position_hash(&run(scene_world("default.ron"), 1, 120));
    let mut w = scene_world("default.ron");
    w.choose_threads(ThreadChoice::Fixed(2));
    w.use_suitable_threads();
    let mut twin = w.clone();
    for world in [&mut w, &mut twin] {
        assert_eq!(world.thread_choice(), ThreadChoice::Fixed(2));
        assert_eq!(world.threads(), 2);
        for frame in 0..120 {
            world.step();
            if frame > 2 {
                assert_eq!(world.team_size(), 2, "frame {frame}");
            }
        }
        assert_eq!(position_hash(world), alone);
    }
    // Back to auto: the threads a fresh world of the scene is given.
    w.choose_threads(ThreadChoice::Auto);
    let mut fresh = scene_world("default.ron");
    fresh.use_suitable_threads();
    assert_eq!(w.thread_choice(), ThreadChoice::Auto);
    assert_eq!(w.threads(), fresh.threads());
}

/// Two 48 × 48 sheets, one dropped onto the other lying on the ground,
/// colliding (the pile the sheets' broad phase was measured on, smaller).
const TWO_SHEETS: &str = r#"Scene(
    name: "Two sheets",
    solver: (substeps: 20, body_collisions: true),
    bodies: [
        Cloth(origin: (-1.0, 0.05, -1.0), size: (2.0, 2.0), resolution: (48, 48),
              orientation: Horizontal, mass: 1.0, stretch_compliance: 0.0,
              shear_compliance: 0.0001, bend_compliance: 0.01, radius: 0.01),
        Cloth(origin: (-0.8, 0.6, -0.8), size: (1.6, 1.6), resolution: (48, 48),
              orientation: Horizontal, mass: 1.0, stretch_compliance: 0.0,
              shear_compliance: 0.0001, bend_compliance: 0.01, radius: 0.01),
    ],
    colliders: [Ground(height: 0.0)],
)"#;

#[test]
fn contact_candidates_kept_across_substeps_give_the_full_searchs_bits() {
    // Falling, landing and resting: the lists are gathered again as the
    // sheet falls and kept while it rests; a probe's contact must be the
    // one the full search finds, equally deep ones included (flat sheets
    // on flat sheets tie often).
    for (name, w, frames) in [
        ("two sheets", world(TWO_SHEETS), 90),
        ("hammock", scene_world("hammock.ron"), 120),
        (
            "soft_wrecking_ball",
            scene_world("soft_wrecking_ball.ron"),
            120,
        ),
    ] {
        let mut searched = w.clone();
        searched.set_contact_cache(false);
        let kept = run(w.clone(), 2, frames);
        let full = run(searched, 2, frames);
        assert!(
            kept.particles.pos() == full.particles.pos(),
            "{name}: the kept candidates changed the contacts"
        );
        assert!(kept.particles.pos() == run(w, 1, frames).particles.pos());
    }
}

#[test]
fn a_sheet_pulled_by_the_hand_moves_alike_on_fixed_teams_of_1_2_and_4_threads() {
    // The default scene's sheet, its free corner grabbed with the window's
    // hand and dragged down and out, on teams fixed at 1, 2 and 4 threads
    // (the chooser may run a frame on one): the hand's pull is a piece of
    // its own between the colours and the particles' sweep.
    let pulled = |threads: usize| {
        let mut w = scene_world("default.ron");
        w.choose_threads(ThreadChoice::Fixed(threads));
        w.set_hand(catenary::solver::Hand::suited_to(&w));
        let corner = w.particles.len() - 1;
        let from = w.particles.pos()[corner];
        w.grab(corner);
        for frame in 1..=60 {
            let f = frame as f32 / 30.0;
            w.drag_to(from + glam::Vec3::new(0.4, -0.8, 0.3) * f.min(1.0));
            w.step();
        }
        assert_eq!(w.team_size(), threads);
        w
    };
    let one = pulled(1);
    assert_sane(&one, 50.0);
    for threads in [2, 4] {
        let many = pulled(threads);
        assert!(
            one.particles.pos() == many.particles.pos(),
            "{threads} threads differ from 1"
        );
        assert!(
            one.particles.vel() == many.particles.vel(),
            "{threads} threads: velocities"
        );
    }
}

#[test]
fn a_sheet_torn_by_its_tear_force_tears_alike_on_fixed_teams_of_1_2_and_4_threads() {
    // tear_apart: no contacts, so its substeps run in pieces
    // and each piece of the last pass adds its links' λ to their impulse;
    // the sheet must tear into the same pieces on any team.
    let torn = |threads: usize| {
        let mut w = scene_world("tear_apart.ron");
        assert_eq!(w.pieces(), [1]);
        w.choose_threads(ThreadChoice::Fixed(threads));
        for _ in 0..240 {
            w.step();
        }
        assert_eq!(w.team_size(), threads);
        w
    };
    let one = torn(1);
    assert!(
        one.pieces()[0] > 1,
        "tear_apart did not tear: {:?}",
        one.pieces()
    );
    for threads in [2, 4] {
        let many = torn(threads);
        assert_eq!(one.pieces(), many.pieces(), "{threads} threads: pieces");
        assert!(
            one.particles.pos() == many.particles.pos(),
            "{threads} threads differ from 1"
        );
    }
}
