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
    let lowest = w.particles.pos.iter().map(|p| p.y).fold(f32::MAX, f32::min);
    let highest = w.particles.pos.iter().map(|p| p.y).fold(f32::MIN, f32::max);
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
        let p = w.particles.pos[i];
        w.set_particle(i, p + glam::Vec3::Y * 0.05 * (p.x + p.z), glam::Vec3::ZERO);
    }
    for _ in 0..240 {
        w.step();
    }
    let lowest = w.particles.pos.iter().map(|p| p.y).fold(f32::MAX, f32::min);
    println!("lowest particle at {lowest:.4} m; slab top 0.301 m");
    assert_sane(&w, 30.0);
    assert!(lowest > 0.304 - 1e-3, "{lowest}");
}
