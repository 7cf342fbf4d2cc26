//! Rigid bodies against what mechanics says: a hinged bar's period, the
//! tennis-racket flip about the middle axis (and none without the
//! gyroscopic term), angular momentum kept in free flight, boxes that
//! rest, joints and contacts that add no energy.

mod common;

use catenary::solver::World;
use common::world;
use glam::Vec3;

fn run(mut w: World, frames: usize) -> World {
    for _ in 0..frames {
        w.step();
    }
    w
}

/// A bar of half length 0.5 m hinged at one end about z, released at
/// `theta` from hanging straight down.
fn hinged_bar(theta: f32) -> World {
    let (s, c) = theta.sin_cos();
    let centre = Vec3::new(0.5 * s, 2.0 - 0.5 * c, 0.0);
    // The bar's long axis is x: turned by θ − 90° about z it hangs at θ.
    let turn = theta - std::f32::consts::FRAC_PI_2;
    world(&format!(
        "Scene(solver: (air_drag: 0.0),
          bodies: [Rigid(shape: Box(half_extents: (0.5, 0.02, 0.02)),
                         position: ({}, {}, 0.0), rotation: (0.0, 0.0, {turn}))],
          joints: [(a: 0, kind: Hinge(axis: (0.0, 0.0, 1.0)), anchor: (0.0, 2.0, 0.0))])",
        centre.x, centre.y
    ))
}

#[test]
fn a_bar_hinged_at_one_end_swings_with_the_physical_pendulums_period() {
    // T = 2π·√(I_pivot/(m·g·d)) · (1 + θ₀²/16 + 11θ₀⁴/3072): the series
    // for a pendulum of amplitude θ₀, whose next term at 0.3 rad is below
    // 1e−5. Tolerance 0.5 % (the issue's), against crossings read to
    // a frame's 1/60 s by linear interpolation (~1e−4 of T).
    let theta = 0.3f32;
    let mut w = hinged_bar(theta);
    let dt = w.settings.dt as f64;
    let mut signal = Vec::new();
    for _ in 0..1200 {
        w.step();
        signal.push(w.rigids().bodies[0].x.x);
    }
    let period = common::mean_period(&common::upward_crossings(&signal, dt));
    let (a, b) = (0.5f64, 0.02f64);
    let (d, g) = (0.5f64, 9.81f64);
    let i_pivot_per_mass = (a * a + b * b) / 3.0 + d * d;
    let t0 = std::f64::consts::TAU * (i_pivot_per_mass / (g * d)).sqrt();
    let th = theta as f64;
    let expected = t0 * (1.0 + th * th / 16.0 + 11.0 * th.powi(4) / 3072.0);
    let error = period / expected - 1.0;
    assert!(
        error.abs() < 0.005,
        "period {period:.5} s against {expected:.5} s ({:+.3} %)",
        100.0 * error
    );
}

/// A 0.6 × 0.2 × 0.1 m box in free flight spun at 5 rad/s about its body
/// axis `axis` with a 0.01 rad/s wobble about x.
fn spinning(axis: Vec3, gyroscopic: bool) -> World {
    let w = axis * 5.0 + Vec3::new(0.01, 0.0, 0.0);
    let mut world = world(&format!(
        "Scene(solver: (gravity: (0.0, 0.0, 0.0), air_drag: 0.0),
          bodies: [Rigid(shape: Box(half_extents: (0.3, 0.1, 0.05)),
                         position: (0.0, 1.0, 0.0), angular_velocity: ({}, {}, {}))])",
        w.x, w.y, w.z
    ));
    world.set_gyroscopic(gyroscopic);
    world
}

/// The lowest value over 6 s of the spin axis's component along itself:
/// −1 when the body turned over.
fn least_alignment(mut w: World, axis: Vec3) -> f32 {
    let mut least = 1.0f32;
    for _ in 0..360 {
        w.step();
        least = least.min((w.rigids().bodies[0].q * axis).dot(axis));
    }
    least
}

#[test]
fn a_box_spun_about_its_middle_axis_flips_over_and_about_its_major_axis_does_not() {
    // Moments of inertia about x, y, z: 0.05, 0.37, 0.40 kg·m² — y is the
    // middle one. The wobble grows as e^{λt}, λ = ω·√((I_y−I_x)(I_z−I_y)/(I_x·I_z))
    // ≈ 1.2 /s, from 0.002 to a flip in ~5 s.
    let middle = least_alignment(spinning(Vec3::Y, true), Vec3::Y);
    assert!(
        middle < -0.9,
        "about the middle axis its axis only reached {middle}"
    );
    let major = least_alignment(spinning(Vec3::Z, true), Vec3::Z);
    assert!(major > 0.999, "about the major axis it wandered to {major}");
    // Without ω × Iω the body keeps turning about its first axis: the
    // flip is the gyroscopic term's.
    let ungyroscopic = least_alignment(spinning(Vec3::Y, false), Vec3::Y);
    assert!(
        ungyroscopic > 0.999,
        "with no gyroscopic term it still turned to {ungyroscopic}"
    );
}

#[test]
fn angular_momentum_and_energy_are_kept_in_free_flight_over_ten_seconds() {
    // Through two flips. Angular momentum within the 1 %; the
    // energy within 0.1 % (the implicit midpoint rule keeps ½ωᵀIω; a
    // first-order step gained 0.4 % in 10 s, and a world → body → world
    // round trip of ω a substep 0.3 % in 20 s).
    let mut w = spinning(Vec3::Y, true);
    w.step();
    let (start, energy) = (w.rigids().bodies[0].angular_momentum(), w.kinetic_energy());
    let (mut worst, mut worst_energy) = (0.0f32, 0.0f64);
    for _ in 0..600 {
        w.step();
        let l = w.rigids().bodies[0].angular_momentum();
        worst = worst.max((l - start).length() / start.length());
        worst_energy = worst_energy.max((w.kinetic_energy() / energy - 1.0).abs());
    }
    assert!(
        worst < 0.01,
        "angular momentum drifted {:.3} %",
        100.0 * worst
    );
    assert!(
        worst_energy < 1e-3,
        "energy drifted {:.3} %",
        100.0 * worst_energy
    );
}

const GROUND: &str = "colliders: [Ground(height: 0.0, friction: 0.5)]";

#[test]
fn a_box_on_the_ground_and_a_stack_of_three_come_to_rest_without_drift() {
    for (what, bodies) in [
        (
            "one box",
            "Rigid(shape: Box(half_extents: (0.2, 0.1, 0.3)), position: (0.0, 0.15, 0.0))",
        ),
        (
            "a stack of three",
            "Rigid(shape: Box(half_extents: (0.2, 0.1, 0.2)), position: (0.0, 0.1, 0.0)),
             Rigid(shape: Box(half_extents: (0.2, 0.1, 0.2)), position: (0.02, 0.3, 0.0)),
             Rigid(shape: Box(half_extents: (0.2, 0.1, 0.2)), position: (-0.02, 0.5, 0.0))",
        ),
    ] {
        let w = run(world(&format!("Scene(bodies: [{bodies}], {GROUND})")), 60);
        let before: Vec<Vec3> = w.rigids().bodies.iter().map(|r| r.x).collect();
        let w = run(w, 120);
        let kinetic = w.rigids().kinetic_energy();
        assert!(
            kinetic < 1e-4,
            "{what}: {kinetic} J of kinetic energy after 3 s"
        );
        for (r, b) in w.rigids().bodies.iter().zip(&before) {
            let drift = r.x.distance(*b);
            assert!(
                drift < 1e-3,
                "{what}: a box drifted {drift} m from 1 s to 3 s"
            );
        }
        let top = w.rigids().bodies.last().unwrap().x.y;
        let expected = 0.1 + 0.2 * (w.rigids().bodies.len() - 1) as f32;
        assert!(
            (top - expected).abs() < 0.01,
            "{what}: the top box's centre at {top} m, not {expected}"
        );
    }
}

#[test]
fn joints_and_contacts_add_no_energy() {
    // A swinging hinged bar and a tumbling box dropped on the ground: the
    // total (kinetic + gravity) never rises frame to frame by more than
    // 1 mJ, rounding of 50 J in f32 over a frame's 20 substeps.
    common::assert_energy_never_rises(hinged_bar(1.2), 600, 1e-3);
    let dropped = world(&format!(
        "Scene(bodies: [Rigid(shape: Box(half_extents: (0.2, 0.1, 0.3)), position: (0.0, 1.0, 0.0),
                              rotation: (0.4, 0.3, 0.2), angular_velocity: (3.0, 1.0, 0.0))],
               {GROUND})"
    ));
    common::assert_energy_never_rises(dropped, 300, 1e-3);
}

/// A 16 kg box hung on a 0.1 kg rope of 40 rigid links (3,200 : 1 per
/// particle), tethered or not.
fn heavy_box(tethers: bool) -> World {
    world(&format!(
        "Scene(bodies: [
            Rope(start: (0.0, 3.0, 0.0), end: (0.0, 1.0, 0.0), segments: 40, mass: 0.1,
                 compliance: 0.0, pins: [0], tethers: {tethers}),
            Rigid(shape: Box(half_extents: (0.2, 0.1, 0.2)), position: (0.0, 0.9, 0.0), density: 500.0)],
          attachments: [(body: 0, particle: -1, rigid: 1, anchor: (0.0, 0.1, 0.0))])"
    ))
}

#[test]
fn tethers_reach_through_an_attachment_so_a_heavy_box_does_not_stretch_a_light_rope() {
    // One Gauss–Seidel pass a substep moves the heavy box by 1/3,200 of
    // each attachment error; without reaching through, the rope's
    // tethers hold the particles and the box hangs on nothing. With it,
    // the box's point stays within the last particle's tether length.
    let w = run(heavy_box(true), 300);
    let stretch = 2.0 - (3.0 - w.particles.pos()[40].y);
    assert!(
        stretch.abs() < 0.01,
        "the tethered rope is {:+.2} % long",
        50.0 * stretch
    );
    let box_y = w.rigids().bodies[0].x.y;
    assert!(
        (box_y - 0.9).abs() < 0.01,
        "the box hangs at {box_y} m, not 0.9"
    );
    assert!(w.rigids().kinetic_energy() < 1e-3, "the box still moves");
    let loose = run(heavy_box(false), 300);
    let sag = 0.9 - loose.rigids().bodies[0].x.y;
    assert!(
        sag > 0.1,
        "untethered, the box sank only {sag} m: the test could not fail"
    );
}

#[test]
fn a_saved_rigid_world_resumes_bit_exactly() {
    let text = std::fs::read_to_string(format!(
        "{}/scenes/wrecking_ball.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let path = std::path::Path::new("<test>");
    let mut scene = catenary::scene::parse(&text, path).unwrap();
    let whole = run(scene.build(), 120);
    let first = run(scene.build(), 60);
    scene.capture_state(&first);
    let resumed = run(
        catenary::scene::parse(&scene.to_ron(), path)
            .unwrap()
            .build(),
        60,
    );
    assert_eq!(resumed.particles.pos(), whole.particles.pos());
    assert_eq!(resumed.rigids().bodies, whole.rigids().bodies);
}

#[test]
fn rigid_bodies_give_the_same_bits_on_one_and_two_threads() {
    let go = |threads: usize| {
        let mut w = common::scene_world("plank_bridge.ron");
        w.set_threads(threads);
        let w = run(w, 90);
        (w.particles.pos().to_vec(), w.rigids().bodies.clone())
    };
    assert_eq!(go(1), go(2));
}

#[test]
fn joints_and_attachments_name_what_is_wrong_with_them() {
    let problems = |text: &str| match catenary::scene::parse(text, std::path::Path::new("x.ron")) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    };
    let rope = "Rope(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 4)";
    let cube = "Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 1.0, 0.0))";
    let err = problems(&format!(
        "Scene(bodies: [{rope}, {cube}], joints: [(a: 0, kind: Ball, anchor: (0.0, 1.0, 0.0))])"
    ));
    assert!(err.contains("joints[0].a") && err.contains("Rope"), "{err}");
    let err = problems(&format!(
        "Scene(bodies: [{rope}, {cube}], joints: [(a: 1, kind: Hinge(axis: (0.0, 0.0, 0.0)),
                anchor: (0.0, 1.0, 0.0), limits: Some((1.0, -1.0)))])"
    ));
    assert!(
        err.contains("joints[0].kind.axis") && err.contains("joints[0].limits"),
        "{err}"
    );
    let err = problems(&format!(
        "Scene(bodies: [{rope}, {cube}], attachments: [(body: 0, particle: 9, rigid: 1)])"
    ));
    assert!(err.contains("attachments[0].particle"), "{err}");
    let err = problems(&format!(
        "Scene(bodies: [{cube}], drivers: [(body: 0, particle: 0,
                motion: Sine(axis: (0.0, 1.0, 0.0), amplitude: 0.1, frequency: 1.0))])"
    ));
    assert!(
        err.contains("drivers[0].motion") && err.contains("Moment only"),
        "{err}"
    );
    let err =
        problems("Scene(bodies: [Rigid(shape: Sphere(radius: 0.0), position: (0.0, 1.0, 0.0))])");
    assert!(err.contains("bodies[0].shape.radius"), "{err}");
}

#[test]
fn a_moment_driver_spins_a_free_body_up_as_torque_over_inertia() {
    // τ = 0.1 N·m about z, ramped over 0 s, on a 0.2 m cube of 8 kg
    // (I = m·a²/6 = 0.0533 kg·m²) in no gravity: ω = τ·t/I after 1 s.
    let mut w = world(
        "Scene(solver: (gravity: (0.0, 0.0, 0.0), air_drag: 0.0),
          bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 1.0, 0.0))],
          drivers: [(body: 0, particle: 0, motion: Moment(axis: (0.0, 0.0, 1.0), newton_metres: 0.1, seconds: 0.0))])",
    );
    w = run(w, 60);
    let spin = w.rigids().bodies[0].omega.z;
    let expected = 0.1 * 1.0 / (8.0 * 0.04 / 6.0);
    assert!(
        (spin / expected - 1.0).abs() < 1e-3,
        "ω {spin} rad/s against {expected}"
    );
}

#[cfg(feature = "cli")]
#[test]
fn run_reports_a_rigid_body_and_writes_its_pose_as_four_csv_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (scene, csv) = (dir.path().join("box.ron"), dir.path().join("out.csv"));
    std::fs::write(
        &scene,
        "Scene(bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 0.1, 0.0),
                              rotation: (0.0, 1.5707964, 0.0))],
               colliders: [Ground()])",
    )
    .unwrap();
    let out = common::catenary_ok(&[
        "run".as_ref(),
        scene.as_os_str(),
        "--frames".as_ref(),
        "60".as_ref(),
        "--out".as_ref(),
        csv.as_os_str(),
    ]);
    assert!(
        out.contains("body 0 (Rigid): mass 8.000 kg, speed 0.0000 m/s, spin 0.0000 rad/s"),
        "{out}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<f32>> = (text.lines().skip(1))
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    // Turned a quarter about y: the body's x axis points along −z.
    let (centre, x_axis) = (&rows[0], &rows[1]);
    assert_eq!((centre[1], centre[2], x_axis[2]), (0.0, 0.0, 1.0));
    assert!((x_axis[5] - centre[5] + 1.0).abs() < 1e-4, "{text}");
    assert!((centre[4] - 0.1).abs() < 1e-3, "{text}");
}

#[test]
fn a_hinge_stops_at_its_limits_and_a_slider_at_its_travel() {
    // The bar of the pendulum test released level (1.57 rad from hanging)
    // with its angle limited to ±0.5 rad from where it was built: it
    // swings down 0.5 rad and stops there. Tolerance 0.01 rad: one
    // substep's overshoot at the stop, corrected the next.
    let level = std::f32::consts::FRAC_PI_2;
    let (s, c) = level.sin_cos();
    let mut w = world(&format!(
        "Scene(bodies: [Rigid(shape: Box(half_extents: (0.5, 0.02, 0.02)),
                         position: ({}, {}, 0.0))],
          joints: [(a: 0, kind: Hinge(axis: (0.0, 0.0, 1.0)), anchor: (0.0, 2.0, 0.0),
                    limits: Some((-0.5, 0.5)))])",
        0.5 * s,
        2.0 - 0.5 * c
    ));
    let mut widest = 0.0f32;
    for _ in 0..180 {
        w.step();
        let r = &w.rigids().bodies[0];
        let turned = (r.q * Vec3::X).y.asin().abs();
        widest = widest.max(turned);
        let pivot = r.point(Vec3::new(-0.5, 0.0, 0.0));
        assert!(
            pivot.distance(Vec3::new(0.0, 2.0, 0.0)) < 1e-3,
            "the hinge came apart: {pivot}"
        );
    }
    assert!(
        (widest - 0.5).abs() < 0.01,
        "it turned {widest} rad against a 0.5 rad limit"
    );
    // A box on a vertical slider with 0.3 m of travel downwards falls
    // 0.3 m and holds there, neither turning nor leaving the axis.
    let w = run(
        world(
            "Scene(bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 2.0, 0.0),
                                 angular_velocity: (1.0, 2.0, 0.5))],
               joints: [(a: 0, kind: Slider(axis: (0.0, 1.0, 0.0)), anchor: (0.0, 2.0, 0.0),
                         limits: Some((-0.3, 0.1)))])",
        ),
        120,
    );
    let r = &w.rigids().bodies[0];
    assert!(
        (r.x - Vec3::new(0.0, 1.7, 0.0)).length() < 1e-3,
        "the slider's box is at {}",
        r.x
    );
    assert!(
        r.q.angle_between(glam::Quat::IDENTITY) < 1e-3,
        "it turned by {}",
        r.q
    );
}

#[test]
fn a_ball_joint_and_a_fixed_joint_hold_two_bodies_together() {
    // An L of two bars: the first level, held to the world by a ball joint
    // at its end, the second hanging from its other end by a Ball (it
    // swings freely) or a Fixed joint (the L keeps its angle). Over 2 s
    // of swinging at 20 substeps the Ball's points stay within 1 mm
    // (measured 0.4 mm; eight rounds a pass — one left 2.6 mm). A rigid
    // Fixed joint is solved as one 6 × 6 block, point and angle together:
    // within 0.01 mm and 0.005 rad (measured 0.0005 mm and 0.0007 rad;
    // solved one after the other they gave 0.6 mm and 0.048 rad).
    for (kind, fixed) in [("Ball", false), ("Fixed", true)] {
        let mut w = world(&format!(
            "Scene(bodies: [
                Rigid(shape: Box(half_extents: (0.25, 0.02, 0.02)), position: (0.25, 2.0, 0.0)),
                Rigid(shape: Box(half_extents: (0.25, 0.02, 0.02)), position: (0.5, 1.75, 0.0),
                      rotation: (0.0, 0.0, 1.5707964))],
              joints: [(a: 0, kind: Ball, anchor: (0.0, 2.0, 0.0)),
                       (a: 1, b: Some(0), kind: {kind}, anchor: (0.5, 2.0, 0.0))])"
        ));
        let at = Vec3::new(0.5, 2.0, 0.0);
        let [a0, b0] = [&w.rigids().bodies[0], &w.rigids().bodies[1]];
        let (la, lb, rel0) = (a0.local(at), b0.local(at), a0.q.conjugate() * b0.q);
        let (mut turned, mut opened) = (0.0f32, 0.0f32);
        for _ in 0..120 {
            w.step();
            let [a, b] = [&w.rigids().bodies[0], &w.rigids().bodies[1]];
            opened = opened.max(a.point(la).distance(b.point(lb)));
            turned = turned.max((a.q.conjugate() * b.q).angle_between(rel0));
        }
        println!("{kind}: opened {opened} turned {turned}");
        let most = if fixed { 1e-5 } else { 1e-3 };
        assert!(opened < most, "{kind}: the joint opened {opened} m");
        if fixed {
            assert!(
                turned < 0.005,
                "the Fixed pair turned {turned} rad against each other"
            );
        } else {
            assert!(
                turned > 0.3,
                "the Ball pair turned only {turned} rad: it cannot fail"
            );
        }
    }
}

/// An 8 kg, 0.2 m cube resting on the ground.
fn resting_cube() -> World {
    run(
        world(&format!(
            "Scene(bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 0.1, 0.0))],
               {GROUND})"
        )),
        30,
    )
}

#[test]
fn the_hand_lifts_a_rigid_body_by_the_point_it_holds_with_no_more_than_its_strength() {
    // Taken by a top corner and pulled 1 m straight up. A 200 N hand
    // (2.5 × its 78.5 N weight) lifts it by that corner: the corner
    // reaches the hand (within 1 cm: the sag its weight leaves, g·h·lag)
    // and the box hangs from it, lifted off the ground and swinging about
    // the point held. A 40 N hand cannot lift it and pulls with all of its 40 N.
    let corner = Vec3::new(0.1, 0.2, 0.1);
    let target = corner + Vec3::Y;
    for (strength, lifts) in [(200.0f32, true), (40.0, false)] {
        let mut w = resting_cube();
        w.set_hand(catenary::solver::Hand {
            max_force: strength,
        });
        w.grab_rigid(0, corner);
        w.drag_to(target);
        let mut strongest = 0.0f32;
        for _ in 0..120 {
            w.step();
            strongest = strongest.max(w.hand_force().unwrap());
        }
        assert!(
            strongest <= strength * 1.0001,
            "{strongest} N from a {strength} N hand"
        );
        let held = w.hand_point().unwrap();
        let centre = w.rigids().bodies[0].x;
        if lifts {
            let off = held.distance(target);
            assert!(off < 0.01, "the corner is {off} m from the hand");
            assert!(
                centre.y > 0.9 && centre.y < held.y,
                "the box is not lifted by its corner: {centre}"
            );
        } else {
            assert!(centre.y < 0.2, "a 40 N hand lifted 78.5 N to {}", centre.y);
            let force = w.hand_force().unwrap();
            assert!((force - strength).abs() < 0.01 * strength, "{force} N");
        }
    }
    // Released, the point held keeps the hand's velocity: a flick.
    let mut w = resting_cube();
    w.set_hand(catenary::solver::Hand { max_force: 1000.0 });
    w.grab_rigid(0, corner);
    for k in 1..=20 {
        w.drag_to(corner + Vec3::new(0.05, 0.05, 0.0) * k as f32);
        w.step();
    }
    let held = w.hand_point().unwrap();
    w.release(None);
    let b = &w.rigids().bodies[0];
    let v = b.v + b.omega.cross(held - b.x);
    assert!(
        v.distance(Vec3::new(3.0, 3.0, 0.0)) < 0.5,
        "the held point left at {v} m/s after a hand moving at (3, 3, 0)"
    );
}

#[cfg(feature = "cli")]
#[test]
fn a_recorded_session_with_a_rigid_body_replays_bit_exactly() {
    // Grab, drag, release, fix and free: the recorder writes each as an
    // event, and the replay of the recording is the session.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/wrecking_ball.ron");
    let scene = catenary::scene::load(&path).unwrap();
    let mut w = scene.build();
    w.set_hand(catenary::solver::Hand::suited_to(&w));
    let mut rec = catenary::record::Recorder::new(scene.clone(), &w);
    let top = Vec3::new(1.2, 1.0, 0.0);
    for frame in 0..150 {
        match frame {
            10 => w.grab_rigid(5, top),
            11..=40 => w.drag_to(top + Vec3::new(0.0, 0.02, 0.01) * (frame - 10) as f32),
            41 => w.release(None),
            60 => w.set_rigid_fixed(2, true),
            100 => w.set_rigid_fixed(2, false),
            _ => {}
        }
        rec.before_step(&w);
        w.step();
    }
    let events = &rec.recording().events;
    let has = |name: &str| {
        events
            .iter()
            .any(|(_, e)| format!("{e:?}").starts_with(name))
    };
    assert!(
        has("GrabRigid") && has("Fix") && has("Release") && has("DragTo"),
        "{events:?}"
    );
    let text = catenary::record::to_text(rec.recording());
    let back = catenary::record::parse(&text, std::path::Path::new("r.ron")).unwrap();
    let replayed = catenary::record::replay(&back);
    assert_eq!(replayed.rigids().bodies, w.rigids().bodies);
    assert_eq!(replayed.particles.pos(), w.particles.pos());
}

#[cfg(feature = "cli")]
#[test]
fn compare_mode_mirrors_a_held_rigid_body_and_its_fixed_switch() {
    let (mut left, mut right) = (resting_cube(), resting_cube());
    left.grab_rigid(0, Vec3::new(0.1, 0.2, 0.1));
    left.drag_to(Vec3::new(0.1, 0.8, 0.1));
    catenary::compare::mirror(&left, &mut right);
    assert_eq!(right.rigids().hand, left.rigids().hand);
    let (left, right) = (run(left, 30), run(right, 30));
    assert_eq!(
        left.rigids().bodies,
        right.rigids().bodies,
        "one hand acts on both"
    );
    let (mut left, mut right) = (left, right);
    left.release(None);
    left.set_rigid_fixed(0, true);
    catenary::compare::mirror(&left, &mut right);
    assert!(right.rigids().hand.is_none() && right.rigids().bodies[0].fixed);
}

#[test]
fn a_tearable_cloths_spare_slots_are_not_obstacles_to_rigid_bodies() {
    // A tearable cloth keeps spare slots for its tears' copies where its
    // first particle was built (held, of radius 0). The cloth falls away
    // to the ground and a ball dropped 1 m above that spot follows it
    // down; a contact with a spare slot held it in mid-air on an
    // invisible point.
    let w = run(
        world(
            "Scene(bodies: [
                Cloth(origin: (0.0, 2.0, 0.0), size: (1.0, 1.0), resolution: (4, 4), tear_strain: Some(0.5)),
                Rigid(shape: Sphere(radius: 0.1), position: (0.0, 3.0, 0.0))],
              colliders: [Ground()])",
        ),
        150,
    );
    let ball = w.rigids().bodies[0].x;
    assert!(ball.y < 0.5, "the ball stopped at {ball}");
}

#[test]
fn save_as_keeps_which_of_two_rigid_bodies_was_fixed() {
    // Two rigid bodies in a row have equal `Body` entries (no particles):
    // the capture must find each by its place, not by value.
    let text = "Scene(bodies: [
        Rigid(shape: Sphere(radius: 0.1), position: (0.0, 1.0, 0.0)),
        Rigid(shape: Sphere(radius: 0.1), position: (1.0, 1.0, 0.0))])";
    let mut scene = catenary::scene::parse(text, std::path::Path::new("two.ron")).unwrap();
    let mut w = scene.build();
    w.set_rigid_fixed(1, true);
    scene.capture(&w);
    let fixed: Vec<bool> = (scene.bodies.iter())
        .map(|b| matches!(b, catenary::scene::BodyDef::Rigid(r) if r.fixed))
        .collect();
    assert_eq!(fixed, [false, true]);
}
