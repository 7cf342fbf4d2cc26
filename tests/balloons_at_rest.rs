//! Issue 21 part 1: nothing moves that you did not move. A balloon's
//! links, hinges and gas pull it from within, so they may not turn it:
//! the step takes out of each substep's solve the turn its joins do not
//! explain (`solver::volume`, `Enclosed::unspin`).

mod common;

use catenary::solver::{LinkKind, World};
use common::*;
use glam::Vec3;

/// The balloon on a string of `scenes/balloon_on_string.ron` at `pressure`.
fn on_a_string(pressure: f32) -> World {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/balloon_on_string.ron");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("pressure: 1.0,"));
    world(&text.replace("pressure: 1.0,", &format!("pressure: {pressure},")))
}

/// Mean speed of body `b`'s particles (m/s).
fn mean_speed(w: &World, b: usize) -> f32 {
    let r = w.bodies()[b].range();
    let n = r.len() as f32;
    w.particles.vel()[r].iter().map(|v| v.length()).sum::<f32>() / n
}

#[test]
fn a_free_inflated_balloon_does_not_spin_itself_up_at_any_pressure() {
    // No gravity, nothing to push on: angular momentum stays what it was
    // (0). Before, the links' order spun it up: 0.054 kg·m²/s (0.12 J) in
    // 20 s at pressure 3, 0.20 (0.73 J) at 10. Measured now: 0 to within
    // f32 rounding; bound 1e-4 J.
    for pressure in [1.2, 3.0, 10.0] {
        let mut w = small_balloon(pressure, false);
        for _ in 0..1200 {
            w.step();
        }
        let c = centre(&w, 0);
        let p = &w.particles;
        let spin: Vec3 = (0..p.len())
            .map(|i| (p.pos()[i] - c).cross(p.vel()[i]) * p.mass()[i])
            .sum();
        let kinetic = w.kinetic_energy();
        println!("pressure {pressure}: angular momentum {spin} kg·m²/s, kinetic {kinetic} J");
        assert!(spin.length() < 1e-4, "pressure {pressure}: {spin}");
        assert!(kinetic < 1e-4, "pressure {pressure}: {kinetic} J");
    }
}

/// `small_balloon` at `pressure` dropped on rough ground at `substeps`:
/// its kinetic energy (J) after 30 s and how far its centre moved in the
/// last 10 (m).
fn on_rough_ground(pressure: f32, substeps: u32) -> (f64, f32) {
    let mut w = small_balloon(pressure, true);
    w.settings.substeps = substeps;
    let (_, moved) = last_ten_of_thirty_seconds(&mut w);
    let kinetic = w.kinetic_energy();
    println!(
        "pressure {pressure}, {substeps} substeps: {kinetic} J, moved {moved} m in the last 10 s"
    );
    (kinetic, moved)
}

/// [`on_rough_ground`] for every case: at rest after 30 s (see the tests).
fn comes_to_rest_on_rough_ground(cases: &[(f32, u32)]) {
    for &(pressure, substeps) in cases {
        let (kinetic, moved) = on_rough_ground(pressure, substeps);
        assert!(
            kinetic < 1e-6,
            "pressure {pressure}, {substeps}: {kinetic} J"
        );
        assert!(
            moved < 0.01,
            "pressure {pressure}, {substeps}: rolled {moved} m"
        );
    }
}

// The gas used to press the skin into the ground every substep and the
// ground, pushing after the solve, pushed it back: the skin pumped and
// friction rolled the balloon about, 0.02-3.1 mJ and up to 1.02 m in the
// last 10 s of 20 (0.12 J and 1.1 m before the gas was made spin-free).
// The gas's move now stops at the colliders, and what it could not push
// into them it pushes into the rest of the skin (`exec/gas.rs`). Bounds
// for "at rest" after 30 s: 1e-6 J (a mean speed of 4.5 mm/s) and 1 cm
// in the last 10 s.

#[test]
fn an_inflated_balloon_dropped_on_rough_ground_comes_to_rest() {
    // Measured: under 1e-9 J and 0.5 mm (6e-9 J at 10
    // substeps, 2.5 mm; the issue measured 0.43 J at pressure 1.2 there).
    comes_to_rest_on_rough_ground(&[
        (1.2, 10),
        (1.2, 20),
        (1.5, 20),
        (3.0, 20),
        (10.0, 20),
        (3.0, 40),
        (10.0, 80),
    ]);
}

#[test]
fn a_deflated_balloon_dropped_on_rough_ground_comes_to_rest() {
    // Measured: under 2e-8 J and 3.1 mm, the landing's bounces dying away
    // (pressure 1 keeps 3e-6 J after 20 s, 1.4e-8 J after 30).
    comes_to_rest_on_rough_ground(&[(0.1, 20), (0.3, 20), (0.5, 20), (1.0, 20), (0.5, 40)]);
}

/// Runs `w` for 30 s: the most kinetic energy of the world in the last 10
/// (J) and how far body 0's centre moved in them (m).
fn last_ten_of_thirty_seconds(w: &mut World) -> (f64, f32) {
    for _ in 0..1200 {
        w.step();
    }
    let before = centre(w, 0);
    let mut most = 0f64;
    for _ in 0..600 {
        w.step();
        most = most.max(w.kinetic_energy());
    }
    assert_sane(w, 10.0);
    (most, centre(w, 0).distance(before))
}

/// The balloon of [`small_balloon`] at `pressure` dropped from 1.5 m on
/// `under` (bodies of a scene, with collisions between bodies): the most
/// kinetic energy of the world in the last 10 s of 30 (J), and how far the
/// balloon's centre moved in them (m).
fn dropped_on(under: &str, pressure: f32) -> (f64, f32) {
    let mut w = world(&format!(
        "Scene(solver: (substeps: 20, body_collisions: true),
          bodies: [Balloon(center: (0.0, 1.5, 0.0), sphere_radius: 0.3, subdivisions: 3,
                           mass: 0.1, stretch_compliance: 0.002, bend_compliance: 0.2,
                           pressure: {pressure}, radius: 0.02), {under}],
          colliders: [Ground(friction: 0.6)])"
    ));
    let (most, moved) = last_ten_of_thirty_seconds(&mut w);
    let what = under.split('(').next().unwrap_or(under);
    println!("pressure {pressure} on a {what}: up to {most} J, moved {moved} m in the last 10 s");
    (most, moved)
}

#[test]
fn a_balloon_dropped_on_a_heavy_rigid_box_comes_to_rest() {
    // The same push and push-back as on the ground, through the particles'
    // contacts with the box (a 2-tonne rigid box on the ground): the
    // balloon wandered 0.06-0.42 m every 5 s and kept 1.4 mJ. The gas's
    // move now stops at a rigid body by the share of the overlap its
    // contact would give the particle (nearly all of it against a body
    // this heavy). Measured in the last 10 s of 30: up to 1.9e-5 J (2e-6
    // at the end), 8 mm (a creep left by the box's contacts). Bounds:
    // 1e-4 J and 2 cm.
    let (kinetic, moved) = dropped_on(
        "Rigid(shape: Box(half_extents: (1.0, 0.5, 1.0)), position: (0.0, 0.5, 0.0),
               density: 1000.0, friction: 0.6)",
        3.0,
    );
    assert!(kinetic < 1e-4, "{kinetic} J");
    assert!(moved < 0.02, "rolled {moved} m");
}

/// A 2 m cloth of 21 × 21 particles (1 kg), lying at height `y`, with
/// `pins`.
fn cloth(y: f32, pins: &str) -> String {
    format!(
        "Cloth(origin: (-1.0, {y}, -1.0), size: (2.0, 2.0), resolution: (21, 21),
               orientation: Horizontal, mass: 1.0, radius: 0.02, pins: [{pins}])"
    )
}

#[test]
fn a_balloon_dropped_on_a_cloth_on_the_ground_comes_to_rest() {
    // The push and push-back once removed: the gas pressed the skin into
    // the cloth, the contacts after the solve pushed it back, and the
    // balloon wandered off the cloth and rolled away (pressure 1.2: 8 m
    // in the last 10 s, 0.047 J; 3: 0.14 m, 5e-4 J). The gas now projects
    // the contact with another body's sheet itself: the corners take
    // their share, stopped at the colliders, and the skin the rest.
    // Measured: up to 2.4e-7 and 9e-8 J, 1.8 and 2.7 mm. Bounds as on
    // the ground: 1e-6 J, 1 cm.
    for pressure in [1.2, 3.0] {
        let (kinetic, moved) = dropped_on(&cloth(0.03, ""), pressure);
        assert!(kinetic < 1e-6, "pressure {pressure}: {kinetic} J");
        assert!(moved < 0.01, "pressure {pressure}: rolled {moved} m");
    }
}

#[test]
fn a_balloon_dropped_on_a_trampoline_settles_in_it() {
    // A cloth pinned at its corners 0.6 m up: the sheet and the balloon
    // in it bounce slowly (the sheet alone still has 1e-3 J after 20 s),
    // so "at rest" is bounded by where the balloon stays. Before the gas
    // projected the contact it wandered about the sheet (pressure 1.2:
    // 8.9 cm in the last 10 s, 3: 8.5 cm). Measured: 1.1 and 0.6 cm, up
    // to 9.5e-4 and 6.8e-4 J. Bound: 3 cm.
    let pins = "(0, 0), (0, -1), (-1, 0), (-1, -1)";
    for pressure in [1.2, 3.0] {
        let (_, moved) = dropped_on(&cloth(0.6, pins), pressure);
        assert!(moved < 0.03, "pressure {pressure}: wandered {moved} m");
    }
}

#[test]
fn an_inflated_balloon_hangs_still_on_its_string() {
    // The case: at pressure 1.5 the skin churned at 0.7 m/s (0.014
    // J) while the centre stayed put, at 3 at 1.95 m/s (0.10 J), forever.
    // Now it is still within f32 rounding; bounds 1e-4 J and 1 cm/s.
    for pressure in [1.5, 3.0] {
        let mut w = on_a_string(pressure);
        for _ in 0..1200 {
            w.step();
        }
        let (kinetic, speed) = (w.kinetic_energy(), mean_speed(&w, 1));
        println!("pressure {pressure}: {kinetic} J, skin {speed} m/s");
        assert!(kinetic < 1e-4, "pressure {pressure}: {kinetic} J");
        assert!(speed < 0.01, "pressure {pressure}: {speed} m/s");
    }
}

#[test]
fn a_balloon_swung_on_its_string_turns_with_the_string() {
    // What turns the balloon from outside, its join to the string, is
    // kept: swung by a sideways pull (gravity tilted for a second) up to
    // about 75°, the knot stays on the line from the balloon's centre to
    // the string's end within 4.3° (pressure 1.5) and 2.9° (3). Taking the
    // join's turn out as well left the balloon behind the string: 9.3°
    // and 7.4°.
    for pressure in [1.5, 3.0] {
        let mut w = on_a_string(pressure);
        for _ in 0..120 {
            w.step();
        }
        let g = w.settings.gravity;
        w.settings.gravity = Vec3::new(8.0, -9.81, 0.0);
        let (end, knot) = (w.bodies()[0].range().end - 1, w.bodies()[1].first + 16);
        let (mut worst, mut swing) = (0f32, 0f32);
        for frame in 0..600 {
            if frame == 60 {
                w.settings.gravity = g;
            }
            w.step();
            let (c, p) = (centre(&w, 1), w.particles.pos());
            let off = (p[knot] - c).angle_between(p[end] - c).to_degrees();
            worst = worst.max(off);
            swing = swing.max(
                (p[end] - p[end - 1])
                    .angle_between(Vec3::NEG_Y)
                    .to_degrees(),
            );
        }
        println!("pressure {pressure}: swung to {swing:.1}°, knot off the line by {worst:.2}°");
        assert!(swing > 60.0, "{swing}");
        assert!(worst < 6.5, "pressure {pressure}: {worst}°");
    }
}

/// A free 0.3 m, 0.1 kg self-colliding balloon at `pressure`.
fn self_colliding(pressure: f32) -> World {
    world(&format!(
        "Scene(solver: (substeps: 20, gravity: (0.0, 0.0, 0.0)),
          bodies: [Balloon(center: (0.0, 1.2, 0.0), sphere_radius: 0.3, subdivisions: 3,
                           mass: 0.1, stretch_compliance: 0.002, bend_compliance: 0.2,
                           self_collision: true, pressure: {pressure}, radius: 0.02)])"
    ))
}

#[test]
fn a_deflated_self_colliding_balloon_does_not_gain_energy_built_or_edited() {
    // Under pressure 1 the gas holds the skin smaller than built, and
    // particles that are neighbours at that size pushed each other apart
    // against it: at pressure 0.8 the kinetic energy grew half again
    // every second, to 14 J in 20 s (400 J at 0.5). Neighbours at the
    // gas's size now never push (`solver::volume::rest_scale`), whether
    // the pressure was built or set while it runs; and the skin now
    // shrinks with its gas, so it rests: 1.1e-10 J (0.016 J while the
    // crumpled skin churned). Bound 1e-6 J.
    let mut edited = self_colliding(1.0);
    edited.step();
    edited.set_pressure(0, 0.8); // what the panel's pressure edit calls
    for (how, mut w) in [("built", self_colliding(0.8)), ("edited", edited)] {
        for _ in 0..1200 {
            w.step();
        }
        let kinetic = w.kinetic_energy();
        println!("{how} at pressure 0.8: {kinetic} J");
        assert_sane(&w, 10.0);
        assert!(kinetic < 1e-6, "{how}: {kinetic} J");
    }
}

#[test]
fn a_deflated_balloon_shrinks_to_its_gas_and_rests_built_or_edited() {
    // Under pressure 1 the gas holds less than the skin encloses. The
    // skin's tension-only links used to go slack, and the crumpled skin's
    // hinges kept it churning: free, 65 mJ at pressure 0.1 with 20
    // substeps, 18 J with 80. Now the skin shrinks with its gas
    // (`World::add_gas`, `World::set_pressure`): built or set while it
    // runs, a smaller sphere at rest. Measured: under 3e-9 J after 20 s,
    // the volume on target within 0.1 %. Bounds 1e-6 J and 1 %.
    for substeps in [20, 80] {
        for pressure in [0.1, 0.5] {
            let mut edited = small_balloon(1.0, false);
            edited.settings.substeps = substeps;
            for _ in 0..60 {
                edited.step();
            }
            edited.set_pressure(0, pressure);
            let mut built = small_balloon(pressure, false);
            built.settings.substeps = substeps;
            for (how, mut w) in [("built", built), ("edited", edited)] {
                for _ in 0..1200 {
                    w.step();
                }
                let gas = &w.volumes()[0];
                let volume = gas.volume(w.particles.pos()) / gas.rest;
                let kinetic = w.kinetic_energy();
                println!("{how} at {pressure}, {substeps} substeps: {kinetic} J, V/V0 {volume}");
                assert!(kinetic < 1e-6, "{how} at {pressure}: {kinetic} J");
                assert!((volume / pressure as f64 - 1.0).abs() < 0.01, "{volume}");
            }
        }
    }
}

#[test]
fn the_rigid_join_that_hangs_the_balloon_holds_its_length_at_20_substeps() {
    // The join ties the string's last particle to the balloon's top
    // vertex (0.08 g). Solved in the lowest colour free at its ends, the
    // top vertex's hinges were solved after it every substep and pulled
    // the vertex back: the join stretched as if its compliance were that
    // vertex's w·h² (9e-3 m/N), 5-11 % under the balloon's 0.49 N. Joins
    // are now solved after every colour their ends have. Measured: under
    // 0.1 % over 5 s. Bound 0.5 %.
    let mut w = on_a_string(1.0);
    let mut worst = 0f32;
    for _ in 0..300 {
        w.step();
        let pos = w.particles.pos();
        let joins = w
            .constraints
            .iter()
            .filter(|l| l.tag.kind == LinkKind::Join);
        for l in joins {
            worst = worst.max(l.strain(pos).abs());
        }
    }
    println!("worst join strain {:.3} %", worst * 100.0);
    assert!(worst < 0.005, "{} %", worst * 100.0);
}
