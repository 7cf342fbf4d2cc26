//! Constraint damping β on rods (issue 25: "damping as for other kinds"):
//! a joint's dashpot, solved with the rod's direct solve, damps a
//! cantilever's bending swing at the Kelvin–Voigt rate, leaves its
//! statics alone and takes energy out.

mod common;

use catenary::solver::World;
use common::world;

/// A steel-stiff rod of 1 m, 20 segments (ℓ = 5 cm), radius 1 cm, E =
/// 1e9 Pa, clamped at its root and released straight into gravity, with
/// constraint damping `beta` and no air.
fn cantilever(beta: f32, solver: &str) -> World {
    world(&format!(
        "Scene(solver: (substeps: 20, air_drag: 0.0, damping: {beta}),
          bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 20,
                       radius: 0.01, density: 1000.0, clamped: [0], young_modulus: 1e9,
                       solver: {solver})])"
    ))
}

/// The tip's height at each of `frames` frames.
fn tip_heights(mut w: World, frames: usize) -> Vec<f32> {
    (0..frames)
        .map(|_| {
            w.step();
            w.particles.pos().last().unwrap().y
        })
        .collect()
}

/// The swing about `rest` of `ys` (60 frames a second): its decay rate
/// (1/s, a least-squares line through the logarithms of its extremes'
/// amplitudes, while they are above 1 % of the first) and its angular
/// frequency (rad/s, from the extremes' spacing).
fn decay(ys: &[f32], rest: f32) -> (f64, f64) {
    let mut extremes = Vec::new();
    for i in 1..ys.len() - 1 {
        if (ys[i] - ys[i - 1]) * (ys[i + 1] - ys[i]) < 0.0 {
            extremes.push((i as f64 / 60.0, ((ys[i] - rest).abs() as f64)));
        }
    }
    let first = extremes[0].1;
    extremes.retain(|&(_, a)| a > 0.01 * first);
    let n = extremes.len() as f64;
    assert!(n >= 8.0, "only {n} extremes");
    let (mt, ma) = extremes.iter().fold((0.0, 0.0), |(t, a), &(ti, ai)| {
        (t + ti / n, a + ai.ln() / n)
    });
    let (mut num, mut den) = (0.0, 0.0);
    for &(t, a) in &extremes {
        num += (t - mt) * (a.ln() - ma);
        den += (t - mt) * (t - mt);
    }
    let half_periods = (extremes.len() - 1) as f64;
    let period = 2.0 * (extremes.last().unwrap().0 - extremes[0].0) / half_periods;
    (-num / den, std::f64::consts::TAU / period)
}

#[test]
fn a_joints_dashpot_adds_the_kelvin_voigt_rate_beta_omega2_over_2_ei_l_to_a_cantilevers_swing() {
    // A joint's bending row has compliance α = 1/(E·I·ℓ) and, with β, the
    // constraint force −C/α − β·Ċ: a Kelvin–Voigt joint of retardation
    // time β·α, the same at every joint, so each mode of the swing decays
    // at β·α·ω²/2. The solver's own damping (implicit in h, 0.14/s here)
    // comes on top, so the test compares rates with and without β. The
    // rest position is the heavily damped rod's (β = 0.05, 8 s).
    let frames = 480;
    let rest = *tip_heights(cantilever(0.05, "Direct"), frames)
        .last()
        .unwrap();
    let (undamped, omega) = decay(&tip_heights(cantilever(0.0, "Direct"), frames), rest);
    let ei = 1e9 * std::f64::consts::PI * 1e-8 / 4.0;
    for beta in [0.001, 0.002] {
        let (rate, _) = decay(&tip_heights(cantilever(beta, "Direct"), frames), rest);
        let expected = beta as f64 * omega * omega / (2.0 * ei * 0.05);
        let added = rate - undamped;
        println!("β {beta}: {added:.3}/s added, Kelvin–Voigt {expected:.3}/s (ω {omega:.2})");
        // 10 %: the amplitudes are read at frames, 21 a period, and the
        // swing is not one pure mode.
        assert!(
            (added / expected - 1.0).abs() < 0.1,
            "β {beta}: {added}/s against {expected}/s"
        );
    }
}

#[test]
fn damping_leaves_a_rods_sag_where_it_was_and_only_takes_energy_out() {
    // β acts on velocities only: rods damped 20× apart come to the same
    // rest, and the damped one's energy never rises from frame to frame.
    let mut w = cantilever(0.01, "Direct");
    let mut before = f64::INFINITY;
    for _ in 0..480 {
        w.step();
        let total = w.kinetic_energy() + w.potential_energy() + w.elastic_energy();
        assert!(total <= before + 1e-6, "{total} J after {before} J");
        before = total;
    }
    let light = *w.particles.pos().last().unwrap();
    let heavy = *tip_heights(cantilever(0.2, "Direct"), 480).last().unwrap();
    assert!(
        (light.y - heavy).abs() < 1e-4,
        "{} against {heavy}",
        light.y
    );
}

#[test]
fn a_gauss_seidel_rods_segments_get_a_links_dashpot() {
    // A Gauss–Seidel rod's frames carry no angular velocity between
    // substeps, so its joints have no dashpot; its segments' stretch has
    // a rope link's. An extensible rod hung from its clamp rings along
    // its length (2.3 cm in the second second); β = 10 kg/s takes that
    // out at about β·(w_a + w_b)·(π/2N)² ≈ 17/s for the slowest mode of N
    // = 10 links, as for a chain of links (measured: 30× less ringing).
    let swing = |beta: f32| {
        let mut w = world(&format!(
            "Scene(solver: (substeps: 20, air_drag: 0.0, damping: {beta}),
              bodies: [Rod(start: (0.0, 2.0, 0.0), end: (0.0, 1.0, 0.0), segments: 10,
                           radius: 0.01, clamped: [0], stretch_compliance: 0.001,
                           solver: GaussSeidel)])"
        ));
        // The tip's highest and lowest points in the second second.
        let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
        for frame in 0..120 {
            w.step();
            let y = w.particles.pos().last().unwrap().y;
            if frame >= 60 {
                (low, high) = (low.min(y), high.max(y));
            }
        }
        high - low
    };
    let (free, damped) = (swing(0.0), swing(10.0));
    println!("the tip rings {free:.2e} m undamped, {damped:.2e} m at β = 10");
    assert!(damped < 0.1 * free, "{damped} m against {free} m");
}

#[test]
fn a_damped_cable_twisted_between_two_clamps_gains_no_energy_at_any_beta_or_substeps() {
    // Clamped at both ends, a rod has six redundant rows; its driven end's
    // spin along them, taken into the dashpot's right-hand side, made the
    // solve's impulses huge in rounding and `plectoneme` gain 10⁴ J at
    // β = 0.001. Here the plate its sliding end carries has 4.5 mJ, and
    // undamped the whole keeps 4.8–7.4 mJ of kinetic energy.
    for beta in [1e-3, 10.0, 1e4] {
        for substeps in [20, 200] {
            let mut w = common::scene_world("plectoneme.ron");
            w.settings.damping = beta;
            w.settings.substeps = substeps;
            for _ in 0..60 {
                w.step();
            }
            common::assert_sane(&w, 10.0);
            let kinetic = w.kinetic_energy();
            assert!(kinetic < 1e-2, "β {beta}, {substeps} substeps: {kinetic} J");
        }
    }
}
