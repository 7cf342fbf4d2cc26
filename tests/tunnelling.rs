//! Fast particles against thin colliders: swept (continuous) collision.

mod common;

use catenary::solver::World;
use common::*;

/// A thin rope (radius 5 mm) dropped from 20 m onto a box 2 mm thick: at
/// impact it falls 19.8 m/s, 16.5 mm per substep — more than the 12 mm
/// the box and the particle's radius span together.
fn dropped_rope(half_thickness: f32) -> World {
    world(&format!(
        "Scene(solver: (substeps: 20),
          bodies: [Rope(start: (-0.5, 21.0, 0.0), end: (0.5, 21.0, 0.0), segments: 20, mass: 0.2,
                        compliance: 0.00001, radius: 0.005)],
          colliders: [Ground(height: 0.0), Box(center: (0.0, 1.0, 0.0), half_extents: (1.0, {half_thickness}, 1.0), friction: 0.5)])"
    ))
}

#[test]
fn a_rope_dropped_twenty_metres_onto_a_2_mm_shelf_ends_resting_on_it() {
    let mut w = dropped_rope(0.001);
    for _ in 0..240 {
        w.step();
    }
    let lowest = w
        .particles
        .pos()
        .iter()
        .map(|p| p.y)
        .fold(f32::MAX, f32::min);
    let highest = w
        .particles
        .pos()
        .iter()
        .map(|p| p.y)
        .fold(f32::MIN, f32::max);
    println!("after 4 s: rope between {lowest:.4} m and {highest:.4} m (shelf top 1.001 m)");
    assert_sane(&w, 30.0);
    // Resting on the shelf: every particle one radius above its top face.
    assert!(
        lowest > 1.001 + 0.005 - 1e-3,
        "fell through: lowest {lowest}"
    );
    assert!(highest < 1.2, "still bouncing: {highest}");
}

#[test]
fn a_cloth_falling_twenty_metres_lands_on_a_2_mm_slab() {
    // A 0.6 m sheet (radius 3 mm) dropped flat from 20 m, tilted so one
    // corner strikes first, onto a 2 mm slab wider than itself, 30 cm
    // above the ground. Without swept contacts it lay on the ground.
    let mut w = world(
        "Scene(solver: (substeps: 20),
          bodies: [Cloth(origin: (0.0, 20.3, 0.0), size: (0.6, 0.6), resolution: (13, 13),
                         orientation: Horizontal, mass: 0.1, radius: 0.003)],
          colliders: [Ground(), Box(center: (0.3, 0.3, 0.3), half_extents: (0.5, 0.001, 0.5), friction: 0.8)])",
    );
    // Tilt: each particle starts 5 cm higher per metre along x + z.
    for i in 0..w.particles.len() {
        let p = w.particles.pos()[i];
        w.set_particle(i, p + glam::Vec3::Y * 0.05 * (p.x + p.z), glam::Vec3::ZERO);
    }
    for _ in 0..240 {
        w.step();
    }
    let lowest = w
        .particles
        .pos()
        .iter()
        .map(|p| p.y)
        .fold(f32::MAX, f32::min);
    println!("lowest particle at {lowest:.4} m; slab top 0.301 m");
    assert_sane(&w, 30.0);
    assert!(lowest > 0.304 - 1e-3, "{lowest}");
}

/// A 1 m square hammock of 10 cm cells pinned at its corners (cloth
/// particles `cloth_radius` m) with `rope` above or under it (a body
/// definition) and `rest` (more scene fields), on the ground.
fn hammock(body_collisions: bool, cloth_radius: f32, rope: &str, rest: &str) -> World {
    world(&format!(
        "Scene(solver: (substeps: 20, body_collisions: {body_collisions}),
               bodies: [
                 Cloth(origin: (-0.5, 1.0, -0.5), size: (1.0, 1.0), resolution: (11, 11),
                       orientation: Horizontal, mass: 0.5, stretch_compliance: 0.0,
                       radius: {cloth_radius}, pins: [(0, 0), (0, -1), (-1, 0), (-1, -1)]),
                 {rope},
               ],
               colliders: [Ground()],
               {rest})"
    ))
}

/// A 5 mm rope dropped from `height` m above a hammock pinned at its
/// corners whose particles are 10 cm apart and 5 mm in radius: the rope
/// fits between them many times over.
fn rope_over_hammock(height: f32, body_collisions: bool) -> World {
    let y = 1.0 + height;
    hammock(
        body_collisions,
        0.005,
        &format!(
            "Rope(start: (-0.3, {y}, 0.03), end: (0.3, {y}, -0.03), segments: 30, mass: 0.1, radius: 0.005)"
        ),
        "",
    )
}

/// The lowest rope particle's height above the cloth directly under it
/// (the cloth's mean height over the particles of the cell it is in).
fn lowest_rope_above_cloth(w: &World) -> f32 {
    let rope = w.bodies()[1].range();
    let cloth = w.bodies()[0].range();
    rope.map(|i| {
        let p = w.particles.pos()[i];
        // The cloth particle nearest in x, z stands for the sheet there.
        let under = cloth
            .clone()
            .min_by(|&a, &b| {
                let d = |j: usize| {
                    let q = w.particles.pos()[j];
                    (q.x - p.x).powi(2) + (q.z - p.z).powi(2)
                };
                d(a).total_cmp(&d(b))
            })
            .unwrap();
        p.y - w.particles.pos()[under].y
    })
    .fold(f32::INFINITY, f32::min)
}

#[test]
fn a_rope_thinner_than_a_cloths_grid_spacing_lies_on_the_cloth_not_through_it() {
    for (height, frames) in [(0.3, 120), (20.0, 240)] {
        let mut with = rope_over_hammock(height, true);
        let mut without = rope_over_hammock(height, false);
        for _ in 0..frames {
            with.step();
            without.step();
        }
        assert_sane(&with, 100.0);
        let (on, through) = (
            lowest_rope_above_cloth(&with),
            lowest_rope_above_cloth(&without),
        );
        println!(
            "dropped {height} m: rope's lowest particle {on:.4} m above the cloth with triangle contacts, \
             {through:.4} m without; rope's lowest height {:.3} m vs {:.3} m",
            with.bodies()[1]
                .range()
                .map(|i| with.particles.pos()[i].y)
                .fold(f32::INFINITY, f32::min),
            without.bodies()[1]
                .range()
                .map(|i| without.particles.pos()[i].y)
                .fold(f32::INFINITY, f32::min),
        );
        // Above the sheet by about r + r_t = 1 cm (the nearest cloth
        // particle can sit a little higher than the sheet under the rope
        // in a sagging cell): above −1 cm. Without, it falls through to
        // the ground, a metre below.
        assert!(on > -0.01, "{on}");
        assert!(through < -0.5, "{through}");
    }
}

/// A rope hanging from the middle of a hammock by a join of rest length 0
/// (its top particle on the cloth's middle particle), for 2 s; the join's
/// largest length (m) in the last second.
fn rope_tied_under_hammock() -> f32 {
    let mut w = hammock(
        true,
        0.01,
        "Rope(start: (0.0, 1.0, 0.0), end: (0.0, 0.4, 0.0), segments: 12, mass: 0.2, radius: 0.01, compliance: 0.0)",
        "joins: [(a: (0, 60), b: (1, 0), compliance: 0.0)]",
    );
    let (knot, top) = (60, 121);
    let mut widest = 0f32;
    for frame in 0..120 {
        w.step();
        if frame >= 60 {
            widest = widest.max(w.particles.pos()[knot].distance(w.particles.pos()[top]));
        }
    }
    assert_sane(&w, 10.0);
    widest
}

#[test]
fn a_rope_tied_to_a_cloth_is_not_pushed_off_its_knot_by_the_cloth() {
    // The rope's top particle sits on the cloth's middle particle, inside
    // the contact distance of the four triangles around it; they must not
    // push it (a join of rest length 0 would fight them every substep).
    let gap = rope_tied_under_hammock();
    println!("join of rest length 0: at most {:.3} mm long", gap * 1e3);
    // 1 mm: the rigid join carries the rope's 2 N in a few Gauss–Seidel
    // passes; a triangle pushing the knot 2 cm (r + r_t) apart would show.
    assert!(gap < 1e-3, "{gap}");
}

/// A short 5 mm rope (6 cm) dropped 0.3 m onto the middle of the hammock
/// of [`rope_over_hammock`], whose middle particle has lost every link when
/// `torn`; where the rope's lowest particle is after 1 s (m).
fn short_rope_onto_middle(torn: bool) -> f32 {
    let mut w = hammock(
        true,
        0.005,
        "Rope(start: (-0.03, 1.3, 0.0), end: (0.03, 1.3, 0.0), segments: 2, mass: 0.01, radius: 0.005)",
        "",
    );
    let middle = 60; // row 5, column 5: (0, 1, 0)
    if torn {
        let pairs: Vec<(usize, usize)> = (w.constraints.iter())
            .filter(|l| l.a == middle || l.b == middle)
            .map(|l| (l.a, l.b))
            .collect();
        for (a, b) in pairs {
            assert!(w.constraints.break_link(a, b));
        }
    }
    for _ in 0..60 {
        w.step();
    }
    assert_sane(&w, 10.0);
    w.bodies()[1]
        .range()
        .map(|i| w.particles.pos()[i].y)
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn a_rope_falls_through_a_hole_torn_in_a_cloth() {
    // The six triangles around the middle particle lose their links: they
    // must stop holding the rope up (their particles are still there, so
    // without this they would catch it like an unbroken sheet).
    let (whole, torn) = (short_rope_onto_middle(false), short_rope_onto_middle(true));
    println!("rope's lowest particle after 1 s: {whole:.3} m on the whole cloth, {torn:.3} m torn");
    assert!(whole > 0.9, "{whole}");
    assert!(torn < 0.5, "{torn}");
}

#[test]
fn a_rope_pushed_along_a_cloth_stops_by_friction() {
    // The short rope of `short_rope_onto_middle` resting on the whole
    // hammock, pushed along it at 1 m/s: friction with the sheet (μ = 0.4)
    // stops it after about v²/(2μg) = 0.127 m; without it, it would slide
    // on toward the corners.
    let mut w = world(
        "Scene(solver: (substeps: 20, body_collisions: true, air_drag: 0.0),
               bodies: [
                 Cloth(origin: (-0.5, 1.0, -0.5), size: (1.0, 1.0), resolution: (11, 11),
                       orientation: Horizontal, mass: 2.0, stretch_compliance: 0.0,
                       radius: 0.005, pins: [(0, 0), (0, -1), (-1, 0), (-1, -1), (5, 0), (5, -1), (0, 5), (-1, 5)]),
                 Rope(start: (-0.03, 1.02, 0.0), end: (0.03, 1.02, 0.0), segments: 2,
                      mass: 0.01, radius: 0.005),
               ])",
    );
    for _ in 0..60 {
        w.step(); // settle into the sag
    }
    let rope = w.bodies()[1].range();
    for i in rope.clone() {
        w.set_particle(i, w.particles.pos()[i], glam::Vec3::new(1.0, 0.0, 0.0));
    }
    let start = w.particles.pos()[rope.start].x;
    for _ in 0..60 {
        w.step();
    }
    assert_sane(&w, 10.0);
    let slid = w.particles.pos()[rope.start].x - start;
    // Along the push: the sheet itself still bounces up and down a little.
    let speed = w.particles.vel()[rope.start].x.abs();
    println!("slid {slid:.3} m in 1 s (v²/2μg = 0.127 m), speed along the push now {speed:.3} m/s");
    // 0.2 m: the sheet sags and gives under the rope, so it is not a
    // flat floor; without friction the rope slides past 0.4 m.
    assert!(slid > 0.05 && slid < 0.2, "{slid}");
    assert!(speed < 0.05, "{speed}");
}
