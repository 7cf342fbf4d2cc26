//! Compare mode: one scene in two worlds ("lanes"), one hand for both.
//!
//! The window shows lane 0 (PBD by default) on the left and lane 1 (XPBD)
//! on the right. Every input — a grab, a drag, a release, a pin — goes to
//! lane 0 and is mirrored onto lane 1 by [`mirror`], so the two worlds see
//! the same hand and differ only in their solver settings (method,
//! substeps, iterations, PBD k). Compliances, masses and everything else
//! come from the one scene.

use crate::scene::Scene;
use crate::solver::{Method, World};

/// The two worlds of compare mode, built from one scene.
pub fn lanes(scene: &Scene) -> [World; 2] {
    let mut pbd = scene.build();
    pbd.settings.method = Method::Pbd;
    let mut xpbd = scene.build();
    xpbd.settings.method = Method::Xpbd;
    [pbd, xpbd]
}

/// Makes `to` hold what `from` holds: the same particle grabbed by a hand
/// of the same strength at the same place (or none), the same pins. Call
/// after applying input to `from`, before stepping both.
pub fn mirror(from: &World, to: &mut World) {
    if to.hand() != from.hand() {
        to.set_hand(from.hand());
    }
    // A copy one lane's tear made may be a spare slot in the other: that
    // lane's hand lets go instead.
    let grabbed = from.grabbed().filter(|&i| !to.particles.is_spare(i));
    match (grabbed, to.grabbed()) {
        (Some(i), held) => {
            if held != Some(i) {
                to.grab(i);
            }
            if let Some(goal) = from.hand_goal() {
                to.drag_to(goal);
            }
        }
        // Released in `from`: a kinematic hand hands its particle the
        // velocity it was given there; a capped hand lets it keep its own.
        (None, Some(i)) => {
            let kinematic = to.particles.is_grabbed(i);
            let v = from.particles.vel()[i];
            to.release(kinematic.then_some(v));
        }
        (None, None) => {}
    }
    // A rigid body held: the same point of the same body, the same hand.
    let held = from.rigids().hand.map(|h| (h.rigid, h.local));
    match (held, to.rigids().hand.map(|h| (h.rigid, h.local))) {
        (Some(h), now) => {
            if now != Some(h) {
                to.grab_rigid_local(h.0, h.1);
            }
            if let Some(goal) = from.hand_goal() {
                to.drag_to(goal);
            }
        }
        (None, Some(_)) if from.grabbed().is_none() => to.release(None),
        _ => {}
    }
    for (r, body) in from.rigids().bodies.iter().enumerate() {
        if to
            .rigids()
            .bodies
            .get(r)
            .is_some_and(|b| b.fixed != body.fixed)
        {
            to.set_rigid_fixed(r, body.fixed);
        }
    }
    for i in 0..from.particles.len().min(to.particles.len()) {
        if from.particles.is_spare(i) || to.particles.is_spare(i) {
            continue; // a copy one lane's tear made and the other's did not
        }
        let pinned = from.particles.is_pinned(i);
        if to.particles.is_pinned(i) != pinned {
            to.set_pinned(i, pinned);
        }
    }
}

/// The largest distance between corresponding particles of two lanes (m),
/// copies made by tears in both included.
pub fn largest_difference(a: &World, b: &World) -> f32 {
    let (p, q) = (&a.particles, &b.particles);
    (0..p.len().min(q.len()))
        .filter(|&i| !p.is_spare(i) && !q.is_spare(i))
        .map(|i| p.pos()[i].distance(q.pos()[i]))
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn chain() -> Scene {
        crate::scene::parse(
            "Scene(solver: (air_drag: 0.5), bodies: [Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0),
               segments: 10, compliance: 0.001, pins: [0])])",
            Path::new("<test>"),
        )
        .unwrap()
    }

    #[test]
    fn one_hand_acts_on_both_lanes_and_equal_settings_give_equal_worlds() {
        let [mut a, mut b] = lanes(&chain());
        b.settings = a.settings; // the same settings: the lanes must not drift
        a.set_pinned(5, true);
        a.grab(10);
        a.drag_to(glam::Vec3::new(1.5, 1.0, 0.3));
        mirror(&a, &mut b);
        assert!(
            b.particles.is_pinned(5),
            "a pin in lane 0 appears in lane 1"
        );
        assert_eq!(b.grabbed(), Some(10));
        for _ in 0..60 {
            a.step();
            mirror(&a, &mut b);
            b.step();
        }
        a.release(None);
        mirror(&a, &mut b);
        assert_eq!(b.grabbed(), None);
        for _ in 0..30 {
            a.step();
            b.step();
        }
        assert_eq!(largest_difference(&a, &b), 0.0);
        assert!(a.particles.pos() == b.particles.pos());
    }

    #[test]
    fn pbd_and_xpbd_lanes_of_a_soft_chain_differ() {
        let [mut pbd, mut xpbd] = lanes(&chain());
        for _ in 0..300 {
            pbd.step();
            xpbd.step();
        }
        // XPBD stretches the soft chain as its compliance says; PBD barely.
        assert!(xpbd.max_strain() > 5.0 * pbd.max_strain());
        assert!(largest_difference(&pbd, &xpbd) > 0.01);
    }
}
