//! A Cosserat rod carrying a rigid body by an attachment, both ways: the
//! body's weight bends the rod as a point load at its tip bends a
//! cantilever, and the rod holds the body up.

mod common;

use common::world;

#[test]
fn a_ball_attached_to_a_clamped_rods_tip_bends_it_as_a_point_load_does() {
    // A 1 m rod (r = 1 cm, ρ = 1000, E = 10 GPa: E·I = 78.5 N·m²,
    // q = 3.08 N/m) clamped at one end carries a 0.524 kg ball hung from
    // its tip: the tip sags P·L³/(3·E·I) + q·L⁴/(8·E·I) = 21.8 + 4.9 mm.
    // Tolerance 6 %: the clamped half segment of 40 is rigid (the
    // cantilever test measures 4.8 % less sag at 40 segments than the
    // formula), and 10 s of air drag leave the ball swinging a little.
    let mut w = world(
        "Scene(solver: (substeps: 20, air_drag: 2.0),
          bodies: [Rod(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 40, radius: 0.01,
                       density: 1000.0, young_modulus: 1e10, clamped: [0]),
                   Rigid(shape: Sphere(radius: 0.05), position: (1.0, 1.95, 0.0), density: 1000.0)],
          attachments: [(body: 0, particle: -1, rigid: 1, anchor: (0.0, 0.05, 0.0))])",
    );
    let ball = &w.rigids().bodies[0];
    let (pi, g) = (std::f32::consts::PI, 9.81f32);
    let p = ball.mass * g;
    let ei = 1e10 * pi * 1e-8 / 4.0;
    let q = 1000.0 * pi * 1e-4 * g;
    let expected = p / (3.0 * ei) + q / (8.0 * ei);
    for _ in 0..600 {
        w.step();
    }
    let tip = w.particles.pos()[40];
    let ball = &w.rigids().bodies[0];
    let sag = 2.0 - tip.y;
    let gap = ball.point(glam::Vec3::new(0.0, 0.05, 0.0)).distance(tip);
    println!(
        "tip sag {sag} m (analytic {expected} m), ball at {}, {gap} m from the tip",
        ball.x
    );
    assert!(
        (sag / expected - 1.0).abs() < 0.06,
        "the tip sagged {sag} m, not {expected} m"
    );
    // The rods' pass runs after the attachment's in each pass, so the
    // tip ends each substep a little past where the attachment put it
    // (measured 1.1 mm under a 5 N load).
    assert!(gap < 2e-3, "the ball hangs {gap} m off the tip");
    assert!(ball.x.y < tip.y, "the ball does not hang below the tip");
}
