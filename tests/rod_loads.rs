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

#[test]
fn the_lessons_ghost_is_the_beam_formula_and_the_direct_rod_lies_on_it() {
    // rod_cantilever.ron draws the beam formula's line over each of its
    // two rods (analytic ghosts): its tip q·L⁴/(8·E·I) = 49.05 mm below
    // the root. After 10 s the direct rod lies within 3 mm of it all
    // along (the clamped half segment leaves its tip 2.4 mm higher);
    // Gauss–Seidel's tip hangs far below it.
    use catenary::analytic::Cantilever;
    let mut w = common::scene_world("rod_cantilever.ron");
    let beam = Cantilever::of_rod(&w, 0).expect("the direct rod is a cantilever");
    let tip_sag = beam.deflection(beam.length as f64);
    println!("ghost's tip sag {tip_sag} m");
    assert!((tip_sag - 0.04905).abs() < 1e-4, "{tip_sag}");
    for _ in 0..600 {
        w.step();
    }
    let n = 40;
    let off = (0..=n)
        .map(|k| {
            let on = beam.point(k as f32 / n as f32);
            w.particles.pos()[k].distance(on)
        })
        .fold(0f32, f32::max);
    let gs = Cantilever::of_rod(&w, 1).expect("so is the Gauss–Seidel rod");
    let gs_off = w.particles.pos()[2 * n + 1].distance(gs.point(1.0));
    println!("direct rod at most {off} m off its ghost; Gauss–Seidel's tip {gs_off} m");
    assert!(off < 3e-3, "the direct rod is {off} m off the beam formula");
    assert!(gs_off > 0.2, "Gauss–Seidel's tip is only {gs_off} m off");
    // Clamped at both ends it is no cantilever, and no ghost is drawn.
    assert!(w.clamp_rod(0, n));
    assert_eq!(Cantilever::of_rod(&w, 0), None);
}

#[test]
fn a_rods_joints_read_the_moments_its_material_holds() {
    // What the window shows under the cursor over a rod: at each joint
    // the bending moment E·I·|κ − κ₀| and the twisting moment G·J·(τ − τ₀),
    // and the twist from the start. A rod clamped at both ends and turned
    // 1.5 times by a Twist driver holds τ = 3π/L′ at every joint, G·J·τ,
    // where L′ = 29/30 m runs between the clamped end segments (whose
    // frames are held whole);
    // one bent into a half circle by an end moment M = π·E·I/L holds M
    // at every joint past the clamp. Tolerance 2 %, the tests' of the
    // shapes themselves.
    let (pi, r4) = (std::f32::consts::PI, 1e-8f32);
    let mut twisted = world(
        "Scene(solver: (substeps: 20, gravity: (0.0, 0.0, 0.0), air_drag: 2.0),
          bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 30,
                       radius: 0.01, young_modulus: 1e8, shear_modulus: 4e7, clamped: [0, -1])],
          drivers: [(body: 0, particle: -1, motion: Twist(turns: 1.5, seconds: 1.0))])",
    );
    let mut bent = world(&format!(
        "Scene(solver: (substeps: 20, gravity: (0.0, 0.0, 0.0), air_drag: 2.0),
          bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40,
                       radius: 0.01, clamped: [0], young_modulus: 1e7, shear_modulus: 4e6)],
          drivers: [(body: 0, particle: -1,
                     motion: Moment(axis: (0.0, 0.0, 1.0), newton_metres: {}, seconds: 2.0))])",
        pi * 1e7 * pi * r4 / 4.0
    ));
    for _ in 0..600 {
        twisted.step();
        bent.step();
    }
    let gj = 4e7 * pi * r4 / 2.0;
    let torque = gj * 3.0 * pi / (29.0 / 30.0);
    for j in 0..29 {
        let at = twisted.rod_joint(0, j).unwrap();
        let turns = 1.5 * (j + 1) as f64 / 29.0;
        assert!(
            (at.twisting / torque - 1.0).abs() < 0.02 && (at.turns - turns).abs() < 0.02 * 1.5,
            "joint {j}: {at:?}, not {torque} N·m and {turns} turns"
        );
        assert!(at.bending < 0.01 * torque, "joint {j} bends: {at:?}");
    }
    let moment = pi * 1e7 * pi * r4 / 4.0;
    for j in 1..39 {
        let at = bent.rod_joint(0, j).unwrap();
        assert!(
            (at.bending / moment - 1.0).abs() < 0.02,
            "joint {j}: {at:?}, not {moment} N·m"
        );
    }
    println!(
        "twisted: {:?} (G·J·τ = {torque}); bent: {:?} (M = {moment})",
        twisted.rod_joint(0, 14),
        bent.rod_joint(0, 20)
    );
    assert_eq!(twisted.rod_joint(0, 29), None, "30 segments have 29 joints");
}

#[test]
fn a_cantilevers_joints_hold_the_weight_beyond_them() {
    // Statics: the bending moment at distance s from the clamp carries
    // the weight beyond it, q·(L − s)²/2. The direct rod of
    // rod_cantilever.ron after 10 s, every joint within 1 % or 0.1 mN·m
    // (the tip's joints hold almost nothing; measured within 0.4 % from
    // the clamp to the middle).
    let mut w = common::scene_world("rod_cantilever.ron");
    for _ in 0..600 {
        w.step();
    }
    let (pi, g) = (std::f32::consts::PI, 9.81f32);
    let q = 1000.0 * pi * 1e-4 * g;
    let l = 0.025f32;
    for j in 0..39 {
        let s = (j + 1) as f32 * l;
        let expected = q * (1.0 - s).powi(2) / 2.0;
        let at = w.rod_joint(0, j).unwrap();
        assert!(
            (at.bending - expected).abs() < (0.01 * expected).max(1e-4),
            "joint {j}: {} N·m, statics {expected}",
            at.bending
        );
    }
}
