//! The window's hand (five times the weight of what can move) lags the
//! cursor instead of stretching a rigid body (issue 21 part 2): headless,
//! on the shipped sheets and ropes, and through a recording replayed by
//! `catenary replay`.

mod common;

use catenary::record::{self, Recorder};
use catenary::solver::{Hand, World};
use common::*;
use glam::Vec3;

/// The largest stretch the hand may add to a rigid link (DESIGN's goal).
const ADDED: f32 = 0.05;

/// Strain of every rigid link (compliance 0), in the world's link order.
fn rigid_strains(w: &World) -> Vec<f32> {
    let pos = w.particles.pos();
    (w.constraints.iter())
        .filter(|l| l.compliance == 0.0)
        .map(|l| l.strain(pos))
        .collect()
}

/// Settles `scene` for a second, then grabs particle `pick` with the
/// window's hand and drags it 1.2 m away from its body's centre in half a
/// second, holding for another half. Returns the most any rigid link's
/// largest stretch over that second exceeds the same link's in a twin left
/// alone (per link over the second, not frame by frame: the two drift
/// apart, and a sheet sliding over a sphere stretches its links at other
/// moments).
fn added_stretch(scene: &str, pick: usize) -> f32 {
    let mut w = scene_world(scene);
    for _ in 0..60 {
        w.step();
    }
    let mut alone = w.clone();
    w.set_hand(Hand::suited_to(&w));
    let body = w
        .bodies()
        .iter()
        .find(|b| b.range().contains(&pick))
        .unwrap();
    let range = body.range();
    let centre = range.clone().map(|i| w.particles.pos()[i]).sum::<Vec3>() / range.len() as f32;
    let from = w.particles.pos()[pick];
    let away = (from - centre).try_normalize().unwrap_or(Vec3::Z);
    w.grab(pick);
    let links = rigid_strains(&w).len();
    let (mut held, mut left) = (vec![0f32; links], vec![0f32; links]);
    for frame in 1..=60 {
        w.drag_to(from + away * 1.2 * (frame as f32 / 30.0).min(1.0));
        w.step();
        alone.step();
        for (most, s) in held.iter_mut().zip(rigid_strains(&w)) {
            *most = most.max(s);
        }
        for (most, s) in left.iter_mut().zip(rigid_strains(&alone)) {
            *most = most.max(s);
        }
    }
    assert_sane(&w, 50.0);
    (held.iter().zip(&left))
        .map(|(h, l)| h - l)
        .fold(0f32, f32::max)
}

#[test]
fn the_default_hand_stretches_no_rigid_link_of_a_shipped_scene_past_5_percent() {
    // Every shipped scene with rigid links; a corner, the middle and the last particle of each body. Before, the
    // capped pull moved one light particle up to w·F·h² a substep (6.6 cm
    // on the default sheet, more than a link) and one pass a substep let
    // its links stretch 144% (default), 91% (curtain), 2880% (curtain_128).
    // And before the pull stopped at the reach of the pins the held
    // particle is linked to, the hand on lesson_tethers' weight stretched
    // the rope above it 43%; before joins were solved after their ends'
    // own links and hinges, the balloon's join to its string +27%.
    // The two scenes where a rigid sheet takes a hard load solve 120
    // substeps: hammock's rope pulled into the sheet gave +33 % at 20
    // substeps (6 % at 80), thin_shelf's sheet, caught as it fell and
    // landing on the shelf's edge at 10 m/s, +13 % (6 % at 80 when
    // grabbed after half a second). Measured now: at most +5.0 %
    // (tied_hammock's corner), playground +4.0 %, thin_shelf +4.3 %,
    // hammock +3.1 %, the default sheet +2.6 %.
    let mut tried = 0;
    for scene in shipped_scenes() {
        let w = scene_world(&scene);
        if rigid_strains(&w).is_empty() {
            continue;
        }
        tried += 1;
        for body in w.bodies().iter().filter(|b| b.count > 0) {
            let r = body.range();
            for pick in [r.start, r.start + r.len() / 2, r.end - 1] {
                if w.particles.is_pinned(pick) || w.particles.is_driven(pick) {
                    continue;
                }
                let added = added_stretch(&scene, pick);
                println!("{scene} particle {pick}: +{:.1}%", added * 100.0);
                assert!(
                    added <= ADDED,
                    "{scene}, particle {pick}: +{}%",
                    added * 100.0
                );
            }
        }
    }
    assert!(tried >= 15, "{tried} scenes with rigid links");
}

#[test]
fn a_recorded_drag_of_the_default_sheet_replays_headless_without_stretching_it() {
    // The window's Record, made here with the library's recorder: the
    // default scene, its sheet's free corner grabbed with the window's
    // hand and dragged down and out; `catenary replay` ends holding it.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/default.ron");
    let scene = catenary::scene::load(&path).unwrap();
    let mut w = scene.build();
    let mut alone = scene.build();
    let sheet = (w.bodies().iter()).max_by_key(|b| b.count).unwrap();
    let corner = sheet.range().end - 1;
    w.set_hand(Hand::suited_to(&w));
    let mut rec = Recorder::new(scene.clone(), &w);
    let mut from = Vec3::ZERO;
    for frame in 0..150 {
        match frame {
            60 => {
                from = w.particles.pos()[corner];
                w.grab(corner);
            }
            61..=90 => w.drag_to(from + Vec3::new(0.8, -0.6, 0.6) * ((frame - 60) as f32 / 30.0)),
            _ => {}
        }
        rec.before_step(&w);
        w.step();
        alone.step();
    }
    let dir = TempDir::new("hand-replay");
    let file = dir.join("drag.ron");
    std::fs::write(&file, record::to_text(rec.recording())).unwrap();
    let text = catenary_ok(&[std::ffi::OsStr::new("replay"), file.as_os_str()]);
    let strain: f32 = (text.lines())
        .find_map(|l| l.strip_prefix("final: max strain "))
        .and_then(|rest| rest.split('%').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no final line in:\n{text}"));
    let left = 100.0 * alone.max_strain();
    println!("replayed: max strain {strain}% held, {left:.2}% left alone");
    assert!(strain <= left + 100.0 * ADDED, "{strain}% against {left}%");
    assert!(
        (strain - 100.0 * w.max_strain()).abs() < 1e-3,
        "the replay is the session"
    );
}
