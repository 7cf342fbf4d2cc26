//! The panel's rod controls as edits: a rod given E, G or a solver while
//! it runs is the rod built with them, bit for bit; a clamp set or let go
//! holds or frees the end's position and frame; recordings of these edits
//! replay bit-exactly, and values out of range are refused. (Edits and
//! recordings are the command line's and the window's: `cli` feature.)
#![cfg(feature = "cli")]

mod common;

use catenary::edit::Edit;
use catenary::solver::World;
use common::world;

/// A 1 m rod of 40 segments along +x, clamped at particle 0, with extra
/// fields `more`.
fn rod(more: &str) -> World {
    world(&format!(
        "Scene(solver: (substeps: 20, air_drag: 0.5),
          bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40,
                       radius: 0.01, density: 1000.0, clamped: [0], {more})])"
    ))
}

fn run(w: &mut World, frames: usize) {
    for _ in 0..frames {
        w.step();
    }
}

#[test]
fn a_rod_given_e_g_or_a_solver_while_it_runs_is_the_rod_built_with_them() {
    // Each segment's inertia and compliances come from the material in
    // one place, at build time and on an edit, so an edit at the start is
    // the scene that says so, bit for bit — and so is an edit later on.
    let cases = [
        (
            Edit::RodModuli(0, 5e8, 2e8),
            "young_modulus: 5e8, shear_modulus: 2e8",
        ),
        (Edit::RodDirect(0, false), "solver: GaussSeidel"),
    ];
    for (edit, fields) in cases {
        let mut edited = rod("");
        assert_eq!(edit.problem(&edited), None);
        edit.apply(&mut edited);
        let mut built = rod(fields);
        run(&mut edited, 120);
        run(&mut built, 120);
        assert_eq!(
            edited.particles.pos(),
            built.particles.pos(),
            "{edit:?} differs from a rod built with {fields}"
        );
    }
    // Halving E while it hangs doubles its sag (10 s each to settle;
    // tolerance 5 %, the cantilever test's for the stiffening of a 9 %
    // deflection).
    let mut w = rod("");
    run(&mut w, 600);
    let stiff = 1.0 - w.particles.pos()[40].y;
    Edit::RodModuli(0, 5e8, 4e8).apply(&mut w);
    run(&mut w, 600);
    let soft = 1.0 - w.particles.pos()[40].y;
    println!("sag at E = 1 GPa {stiff} m, after halving E {soft} m");
    assert!(
        (soft / stiff - 2.0).abs() < 0.1 && soft > stiff,
        "halving E took the sag from {stiff} m to {soft} m"
    );
}

#[test]
fn a_rod_given_a_radius_while_it_runs_sags_as_the_rod_built_with_it() {
    // The radius sets stiffness (r⁴), inertia and the particles' masses
    // (r²): given at the start it is the rod built with it, to within
    // 1e-6 m after 2 s (its masses come from the segments' lengths as
    // built, the scene's from the rod's length over its segments: a few
    // ulps apart). Doubled while the rod hangs, the cantilever's sag
    // q·L⁴/(8·E·I) ∝ r²/r⁴ falls to a quarter (tolerance 5 %, as above).
    let rod_of = |radius: f32| {
        world(&format!(
            "Scene(solver: (substeps: 20, air_drag: 0.5),
              bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40,
                           radius: {radius}, density: 1000.0, clamped: [0])])"
        ))
    };
    let mut edited = rod_of(0.01);
    let edit = Edit::RodRadius(0, 0.02);
    assert_eq!(edit.problem(&edited), None);
    edit.apply(&mut edited);
    let mut built = rod_of(0.02);
    run(&mut edited, 120);
    run(&mut built, 120);
    let apart = (edited.particles.pos().iter().zip(built.particles.pos()))
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max);
    assert!(apart < 1e-6, "{apart} m apart");
    let mut w = rod_of(0.01);
    run(&mut w, 600);
    let thin = 1.0 - w.particles.pos()[40].y;
    Edit::RodRadius(0, 0.02).apply(&mut w);
    run(&mut w, 600);
    let thick = 1.0 - w.particles.pos()[40].y;
    println!("sag at r = 1 cm {thin} m, at 2 cm {thick} m");
    assert!((thick / thin - 0.25).abs() < 0.0125, "{thin} m → {thick} m");
}

#[test]
fn a_clamp_set_holds_an_end_and_one_let_go_frees_it() {
    // Clamped at both ends the rod hangs between them: straight and
    // inextensible between two fixed points it cannot sag (its middle
    // stays within 1 mm; q·L⁴/(384·E·I) = 1.0 mm is for a beam free to
    // slide along its length, measured 0.18 mm); let go at the start, it hangs from its end
    // as a cantilever, the free start sagging about as the clamped
    // cantilever's tip (47 mm); let go there too, it falls.
    let mut w = rod("");
    Edit::Clamp(0, 40, true).apply(&mut w);
    run(&mut w, 600);
    let both = w.particles.pos()[20].y;
    Edit::Clamp(0, 0, false).apply(&mut w);
    assert!(!w.particles.is_pinned(0), "the clamp took its pin along");
    run(&mut w, 240);
    let (start, end) = (w.particles.pos()[0], w.particles.pos()[40]);
    println!("middle at {both} m clamped at both ends; start then at {start}, end at {end}");
    let sag = 1.0 - both;
    assert!(sag.abs() < 1e-3, "the middle sagged {sag} m");
    assert!(
        start.y < 0.97 && start.y > 0.9,
        "the freed start does not hang as a cantilever's tip: {start}"
    );
    assert!((end - glam::Vec3::new(1.0, 1.0, 0.0)).length() < 1e-6);
    Edit::Clamp(0, 40, false).apply(&mut w);
    run(&mut w, 60);
    assert!(w.particles.pos()[40].y < 0.9, "the freed rod did not fall");
}

#[test]
fn a_clamped_end_turned_from_the_panel_adds_its_turns_to_the_twist_from_then_on() {
    // A straight rod clamped at both ends, no gravity, its end given a
    // quarter turn by the scene's Twist driver in its first half second;
    // at 1 s the panel turns that end half a turn more and at 3 s the
    // start a half turn back. The twist the rod reports follows, 0.25 →
    // 0.75 → 1.25 turns (each to within 0.005 turn: the discrete twist of
    // a straight rod is the end's turn), and it stays straight.
    let mut w = world(
        "Scene(solver: (substeps: 20, air_drag: 2.0, gravity: (0.0, 0.0, 0.0)),
          bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40,
                       radius: 0.01, density: 1000.0, clamped: [0, -1])],
          drivers: [(body: 0, particle: -1, motion: Twist(turns: 0.25, seconds: 0.5))])",
    );
    let twist = |w: &World| w.rods().twist_turns(0).unwrap();
    run(&mut w, 60);
    assert!((twist(&w) - 0.25).abs() < 0.005, "{}", twist(&w));
    let turn = Edit::RodTurn(0, 40, 0.5);
    assert_eq!(turn.problem(&w), None);
    turn.apply(&mut w);
    run(&mut w, 120);
    assert!((twist(&w) - 0.75).abs() < 0.005, "{}", twist(&w));
    // The start turned back is the same twist the other way round; a
    // turn of a particle that is not clamped does nothing.
    Edit::RodTurn(0, 0, -0.5).apply(&mut w);
    Edit::RodTurn(0, 20, 3.0).apply(&mut w);
    run(&mut w, 120);
    assert!((twist(&w) - 1.25).abs() < 0.005, "{}", twist(&w));
    let off = (w.particles.pos().iter())
        .map(|x| (x.y - 1.0).abs().max(x.z.abs()))
        .fold(0.0, f32::max);
    assert!(off < 1e-4, "the rod left its line by {off} m");
}

#[test]
fn an_end_turned_from_the_panel_resumes_turned_from_a_saved_state() {
    // The scene's Twist driver gives the end a quarter turn; the panel
    // adds a half; saved with its state and resumed, the driver rebuilt
    // from the scene goes on from the saved end, not back to its own
    // quarter turn, and a driver the panel did not touch resumes bit for
    // bit (`rods.rs`).
    let text = "Scene(solver: (substeps: 20, air_drag: 2.0, gravity: (0.0, 0.0, 0.0)),
      bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40,
                   radius: 0.01, density: 1000.0, clamped: [0, -1])],
      drivers: [(body: 0, particle: -1, motion: Twist(turns: 0.25, seconds: 0.5))])";
    let path = std::path::Path::new("<test>");
    let mut scene = catenary::scene::parse(text, path).unwrap();
    let mut w = scene.build();
    run(&mut w, 60);
    Edit::RodTurn(0, 40, 0.5).apply(&mut w);
    run(&mut w, 120);
    let turns = |w: &World| w.rods().twist_turns(0).unwrap();
    assert!((turns(&w) - 0.75).abs() < 0.005, "{}", turns(&w));
    scene.capture_state(&w);
    let mut resumed = catenary::scene::parse(&scene.to_ron(), path)
        .unwrap()
        .build();
    run(&mut resumed, 60);
    assert!(
        (turns(&resumed) - 0.75).abs() < 0.005,
        "resumed at {}",
        turns(&resumed)
    );
}

#[test]
fn rod_edits_out_of_range_or_on_another_kind_are_refused() {
    let w = world(
        "Scene(bodies: [Rope(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 4),
                        Rod(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 4)])",
    );
    let refused = [
        (Edit::RodModuli(1, 0.0, 1e9), "Young's modulus 0"),
        (Edit::RodModuli(1, 1e9, f32::NAN), "shear modulus NaN"),
        (Edit::RodModuli(0, 1e9, 1e9), "body 0: not a rod"),
        (Edit::RodDirect(2, true), "body 2"),
        (Edit::Clamp(1, 5, true), "particle 5 of rod 1"),
        (Edit::RodTurn(1, 5, 0.5), "particle 5 of rod 1"),
        (Edit::RodTurn(1, 4, f32::NAN), "turns NaN"),
        (Edit::RodTurn(0, 0, 0.5), "body 0: not a rod"),
        (Edit::RodRadius(1, 0.0), "radius 0"),
        (Edit::RodRadius(1, 2.0), "radius 2"),
    ];
    for (edit, says) in refused {
        let problem = edit.problem(&w).unwrap_or_default();
        assert!(problem.contains(says), "{edit:?}: {problem:?}");
    }
    assert_eq!(Edit::Clamp(1, 4, true).problem(&w), None);
    // Colliding particles 0.25 m apart take a radius of at most 0.5 m.
    let colliding = world(
        "Scene(bodies: [Rod(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 4,
                            self_collision: true)])",
    );
    let problem = Edit::RodRadius(0, 0.6)
        .problem(&colliding)
        .unwrap_or_default();
    assert!(problem.contains("at most 0.5 m"), "{problem}");
    assert_eq!(Edit::RodRadius(0, 0.4).problem(&colliding), None);
}

#[test]
fn a_rod_given_the_extreme_radii_stays_finite() {
    // 10 µm and 1 m, the accepted ends, given to the shipped rods mid-run.
    for scene in [
        "rod_cantilever.ron",
        "hair.ron",
        "plectoneme.ron",
        "twisted_cable.ron",
    ] {
        for radius in [1e-5, 1.0] {
            let mut w = common::scene_world(scene);
            run(&mut w, 30);
            for b in 0..w.bodies().len() {
                let edit = Edit::RodRadius(b, radius);
                if edit.problem(&w).is_none() {
                    edit.apply(&mut w);
                }
            }
            run(&mut w, 60);
            common::assert_sane(&w, 100.0);
        }
    }
}

#[test]
fn a_recorded_session_that_edits_a_rod_replays_bit_exactly() {
    let edits = [
        (10, Edit::RodModuli(0, 2e8, 1e8)),
        (30, Edit::RodDirect(1, true)),
        (50, Edit::Clamp(0, 0, false)),
        (70, Edit::Clamp(1, 0, false)),
        (71, Edit::Clamp(1, 40, true)),
        (80, Edit::RodTurn(1, 40, -0.5)),
        (90, Edit::RodRadius(0, 0.005)),
    ];
    let (w, recording) = common::recorded_edits("rod_cantilever.ron", &edits, 120);
    let text = catenary::record::to_text(&recording);
    let back = catenary::record::parse(&text, std::path::Path::new("r.ron")).unwrap();
    let replayed = catenary::record::replay(&back);
    assert_eq!(replayed.particles.pos(), w.particles.pos());
    let bad = text.replacen("RodModuli(0, 200000000.0", "RodModuli(0, -2.0", 1);
    assert_ne!(bad, text, "{text}");
    let err = catenary::record::parse(&bad, std::path::Path::new("r.ron")).unwrap_err();
    assert!(err.to_string().contains("Young's modulus -2"), "{err}");
}
