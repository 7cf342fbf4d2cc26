//! A hinge's motor against mechanics: torque-limited, it spins a wheel up
//! as τ·t/I and then holds its speed; a load past its torque slows it.

mod common;

use catenary::solver::World;
use common::world;

/// A 0.2 m cube of 8 kg (I = m·a²/6 = 0.0533 kg·m² about any axis)
/// hinged at its centre about z, with a motor of `speed` and `torque`,
/// in gravity (which turns nothing about the centre).
fn wheel(speed: f32, torque: f32) -> World {
    world(&format!(
        "Scene(solver: (air_drag: 0.0),
          bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 1.0, 0.0))],
          joints: [(a: 0, kind: Hinge(axis: (0.0, 0.0, 1.0)), anchor: (0.0, 1.0, 0.0),
                    motor: (speed: {speed}, max_torque: {torque}))])"
    ))
}

fn run(w: &mut World, seconds: f32) {
    for _ in 0..(seconds * 60.0).round() as usize {
        w.step();
    }
}

const INERTIA: f32 = 8.0 * 0.04 / 6.0;

#[test]
fn a_hinge_motor_spins_a_wheel_up_as_torque_over_inertia_then_holds_its_speed() {
    let mut w = wheel(3.0, 0.1);
    run(&mut w, 1.0);
    let spin = w.rigids().bodies[0].omega.z;
    let expected = 0.1 * 1.0 / INERTIA;
    // The motor's impulse is capped at τ·h each substep, and nothing else
    // turns the wheel: ω = τ·t/I to rounding.
    assert!(
        (spin / expected - 1.0).abs() < 1e-3,
        "ω {spin} rad/s after 1 s against τ·t/I = {expected}"
    );
    assert!(
        (w.rigids().joints[0].motor_torque - 0.1).abs() < 1e-4,
        "torque {} N·m while it spins up",
        w.rigids().joints[0].motor_torque
    );
    // τ·t/I reaches 3 rad/s at 1.6 s; from there it holds the speed.
    run(&mut w, 2.0);
    let b = &w.rigids().bodies[0];
    assert!(
        (b.omega.z - 3.0).abs() < 1e-3 && b.omega.x.abs() < 1e-4 && b.omega.y.abs() < 1e-4,
        "ω {} rad/s after 3 s against 3",
        b.omega
    );
    assert!(
        (b.x - glam::Vec3::new(0.0, 1.0, 0.0)).length() < 1e-3,
        "the hinge let its centre go to {}",
        b.x
    );
}

#[test]
fn a_load_past_the_motors_torque_slows_it_and_a_backward_speed_turns_it_back() {
    // The cube hinged at a corner's height: its weight's arm 0.1 m gives
    // 7.85 N·m at most; a 2 N·m motor cannot lift it over, a 20 N·m one
    // turns it round at its 2 rad/s.
    let hinged_off_centre = |torque: f32| {
        world(&format!(
            "Scene(solver: (air_drag: 0.0),
              bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.1, 1.0, 0.0))],
              joints: [(a: 0, kind: Hinge(axis: (0.0, 0.0, 1.0)), anchor: (0.0, 1.0, 0.0),
                        motor: (speed: 2.0, max_torque: {torque}))])"
        ))
    };
    let turns = |w: &World| w.rigids().joints[0].angle(&w.rigids().bodies);
    let mut weak = hinged_off_centre(2.0);
    let mut strong = hinged_off_centre(20.0);
    let mut weak_most = 0f32;
    let mut strong_least = f32::MAX;
    let mut strong_total = 0.0;
    let mut last = 0.0;
    for _ in 0..240 {
        weak.step();
        strong.step();
        weak_most = weak_most.max(turns(&weak));
        let a = turns(&strong);
        let mut d = a - last;
        if d < -std::f32::consts::PI {
            d += std::f32::consts::TAU;
        }
        strong_total += d;
        last = a;
        strong_least = strong_least.min(strong.rigids().bodies[0].omega.z);
    }
    // The weak motor tips it back from the horizontal: it swings below.
    assert!(
        weak_most < 1.0,
        "a 2 N·m motor lifted a 7.85 N·m load to {weak_most} rad"
    );
    assert!(
        (strong_total - 8.0).abs() < 0.2,
        "a 20 N·m motor at 2 rad/s turned it {strong_total} rad in 4 s, not 8"
    );
    assert!(strong_least > 0.0, "the strong motor's wheel ran backward");
    let mut back = wheel(-2.0, 1.0);
    run(&mut back, 2.0);
    assert!((back.rigids().bodies[0].omega.z + 2.0).abs() < 1e-3);
}

#[test]
fn only_a_hinge_has_a_motor_and_its_values_are_checked() {
    let problems = |joint: &str| {
        let text = format!(
            "Scene(bodies: [Rigid(shape: Box(half_extents: (0.1, 0.1, 0.1)), position: (0.0, 1.0, 0.0))],
              joints: [{joint}])"
        );
        match catenary::scene::parse(&text, std::path::Path::new("x.ron")) {
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        }
    };
    let err = problems(
        "(a: 0, kind: Ball, anchor: (0.0, 1.0, 0.0), motor: (speed: 1.0, max_torque: 1.0))",
    );
    assert!(
        err.contains("joints[0].motor") && err.contains("Hinge"),
        "{err}"
    );
    let err = problems(
        "(a: 0, kind: Hinge(axis: (0.0, 0.0, 1.0)), anchor: (0.0, 1.0, 0.0),
          motor: (speed: 1.0, max_torque: -1.0))",
    );
    assert!(err.contains("joints[0].motor.max_torque"), "{err}");
    assert!(err.contains("x.ron:"), "no line and column: {err}");
}

#[cfg(feature = "cli")]
#[test]
fn a_recorded_session_that_edits_bodies_and_joints_replays_bit_exactly() {
    // The panel's edits — here a rigid body's mass, friction and
    // restitution and a joint's compliance, limits and motor — go through
    // one stream: applied to the world and given to the recorder as they
    // are (what the window's App::edit does), they replay bit-exactly.
    use catenary::edit::Edit;
    let edits = [
        (10, Edit::RigidMass(1, 9.0)),
        (20, Edit::RigidSurface(2, 0.05, 0.4)),
        (30, Edit::Joint(0, 1e-3, Some((-0.3, 0.3)), None)),
        (40, Edit::Joint(2, 0.0, None, None)),
        (50, Edit::Joint(6, 0.0, None, Some((-4.0, 0.5)))),
        (70, Edit::Joint(1, 0.0, None, Some((2.0, 1.0)))),
    ];
    let (w, recording) = common::recorded_edits("hinges.ron", &edits, 120);
    let events = &recording.events;
    let count = (events.iter())
        .filter(|(_, e)| matches!(e, catenary::record::Event::Edit(_)))
        .count();
    assert_eq!(count, 6, "{events:?}");
    let text = catenary::record::to_text(&recording);
    let back = catenary::record::parse(&text, std::path::Path::new("r.ron")).unwrap();
    let replayed = catenary::record::replay(&back);
    assert_eq!(replayed.rigids().bodies, w.rigids().bodies);
    assert_eq!(replayed.rigids().joints, w.rigids().joints);
    // A recorded value outside its range is refused with its place.
    let bad = text.replacen("RigidMass(1, 9.0)", "RigidMass(1, -9.0)", 1);
    assert_ne!(bad, text);
    let err = catenary::record::parse(&bad, std::path::Path::new("r.ron")).unwrap_err();
    assert!(err.to_string().contains("mass -9"), "{err}");
}
