//! The mouse's hand: a particle held and pulled toward a target.
//!
//! With an unlimited strength the held particle is kinematic (w = 0): it
//! goes exactly where the hand is, whatever that does to the body. With a
//! finite strength F_max it stays dynamic and, once per substep after the
//! constraint passes, is pulled toward the hand's position by a rigid
//! point constraint C = |x − target| whose force is capped: the
//! correction is min(C, w·F_max·h²) along the way to the target, so the
//! hand never exerts more than F_max (force = correction/(w·h²), as for
//! λ/h² of any constraint). Past that force the particle lags the cursor
//! instead of the body turning into a rubber band.
//!
//! The cap alone does not keep a rigid body rigid: one pass a substep
//! lets a rigid link carry only about ε·L/((w_a + w_b)·h²) at a stretch ε
//! (0.7 N at 5% on the default scene's 0.4 g particles, against a 38 N
//! hand), so a capped pull applied to one light particle still stretched
//! its links to 146%. The pull is therefore also shortened so that no
//! rigid link of the held particle ends it longer than (1 + [`RIGID_STRAIN`])
//! times its rest length (or longer than it already was): the hand pulls
//! as hard as the body, as solved, can pass on, and lags the cursor
//! beyond that. Soft links stretch as their compliance says.
//!
//! Nor does that keep rigid a chain between the hand and a pin: one pass
//! a substep carries the pull up many light particles only as a stretch
//! (the hand on the 3 kg weight of a rope of 60 rigid links stretched a
//! link 43–50 %). So the pull is also kept within the hand's
//! *reach* ([`Reach`]), the tethers' idea (`solver::tether`) turned
//! around: the held particle may be no farther from a pin (or a driven
//! particle) that rigid, untearable links connect it to than along those
//! links and [`RIGID_STRAIN`] more (the slack its own links get; without
//! it a flapping flag's corner met the bound and changed course), or
//! than it was when the hand took hold. Past that, the hand lags.
//! (Tethering the free particles to the held one as well was tried and is
//! not done: moving them, or the held particle, alone after the pull
//! stretched their neighbours' links 10–285 % on `curtain_128`,
//! `default` and `lesson_tethers`.)

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::Vec3;

use super::distance::DistanceConstraints;

/// How the hand holds (a setting of the world, kept between grabs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hand {
    /// The largest force the hand exerts (N); ∞ = kinematic, no limit
    /// (default ∞; the window sets a finite one from the scene's weight).
    pub max_force: f32,
}

impl Default for Hand {
    fn default() -> Self {
        Self {
            max_force: f32::INFINITY,
        }
    }
}

impl Hand {
    /// A hand that feels like one for the world's masses (the window's):
    /// five times the weight of everything that can move (at Earth's
    /// gravity when the world has less), within the accepted range.
    pub fn suited_to(world: &super::World) -> Self {
        let p = &world.particles;
        let mass: f32 = (0..p.len())
            .filter(|&i| !p.is_pinned(i) && !p.is_driven(i))
            .map(|i| p.mass()[i])
            .sum::<f32>()
            + (world.rigids().bodies.iter())
                .filter(|r| !r.fixed)
                .map(|r| r.mass)
                .sum::<f32>();
        let g = world.settings.gravity.length().max(9.81);
        let range = super::limits::HAND_FORCE;
        Self {
            max_force: (5.0 * mass * g).clamp(range.min, range.max),
        }
    }

    /// True when the held particle is moved kinematically.
    pub fn is_kinematic(&self) -> bool {
        self.max_force == f32::INFINITY
    }
}

/// A particle held by the hand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grab {
    pub particle: usize,
    /// Where the hand is at the end of the next frame (m).
    pub target: Vec3,
    /// Where it was at the end of the last frame (m): the hand moves
    /// linearly from here to `target` over a frame.
    pub from: Vec3,
    /// The force the hand exerted in the last substep (N).
    pub force: f32,
}

/// The pins and driven particles the held one reaches through rigid,
/// untearable links, with how far it may be from each (see the module
/// doc); empty for a kinematic hand.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    /// (particle, the largest distance from the held particle (m)).
    pub pins: Vec<(u32, f32)>,
    /// How many links had broken when it was found: a tear since may have
    /// moved links between particles, and the reach is then let go.
    broken_seen: usize,
}

impl Reach {
    /// The reach of particle `held` at positions `pos` over `links`'
    /// bonds (Dijkstra along rest lengths) to the particles `fixed(i)`
    /// says cannot move; allocates.
    pub fn of(
        held: usize,
        pos: &[Vec3],
        fixed: impl Fn(usize) -> bool,
        links: &DistanceConstraints,
    ) -> Self {
        let n = pos.len();
        let ends = (links.bonds()).flat_map(|(a, b, rest)| [(a, (b, rest)), (b, (a, rest))]);
        let (start, next) = super::particles::by_particle(n, ends);
        let mut along = vec![f32::INFINITY; n];
        let mut done = vec![false; n];
        let mut queue = BinaryHeap::new();
        along[held] = 0.0;
        // Non-negative floats order as their bits.
        queue.push(Reverse((0u32, held as u32)));
        let mut pins = Vec::new();
        while let Some(Reverse((_, i))) = queue.pop() {
            let i = i as usize;
            if std::mem::replace(&mut done[i], true) {
                continue;
            }
            if i != held && fixed(i) {
                let along = along[i] * (1.0 + RIGID_STRAIN);
                pins.push((i as u32, along.max(pos[i].distance(pos[held]))));
                // What lies beyond a pin is held by it, not by the hand.
                continue;
            }
            for &(j, rest) in &next[start[i] as usize..start[i + 1] as usize] {
                let d = along[i] + rest;
                if d < along[j as usize] {
                    along[j as usize] = d;
                    queue.push(Reverse((d.to_bits(), j)));
                }
            }
        }
        Self {
            pins,
            broken_seen: links.broken().len(),
        }
    }

    /// Lets go of the reach when a link broke since it was found.
    pub fn forget_if_torn(&mut self, links: &DistanceConstraints) {
        if links.broken().len() != self.broken_seen {
            self.pins.clear();
        }
    }
}

/// The largest strain the hand's pull leaves on a rigid link of the held
/// particle (see the module doc): under the 5% the hand may stretch any
/// rigid link, since the links beyond it carry the same pull on.
pub(crate) const RIGID_STRAIN: f32 = 0.01;

/// The capped pull of a dynamic particle at `x` with inverse mass `w`
/// toward `target` in a substep `h`, shortened so that it takes the
/// particle no farther from any of `bounds` — (a point, the largest
/// distance from it) — than that distance, or than it already is:
/// (displacement, force in N). The bounds are the far ends of the held
/// particle's rigid links at (1 + [`RIGID_STRAIN`]) × their rest length,
/// and the pins within the hand's reach ([`Reach`]).
pub(crate) fn pull(
    x: Vec3,
    target: Vec3,
    (w, h): (f32, f32),
    max_force: f32,
    bounds: impl Iterator<Item = (Vec3, f32)>,
) -> (Vec3, f32) {
    let d = target - x;
    let c = d.length();
    if c <= 1e-12 || w <= 0.0 {
        return (Vec3::ZERO, 0.0);
    }
    let per_force = w * h * h; // displacement per newton over a substep
    let capped = d * (c.min(max_force * per_force) / c);
    let s = bounds.fold(1.0f32, |s, (point, limit)| {
        s.min(reach(x - point, capped, limit))
    });
    (capped * s, capped.length() * s / per_force)
}

/// The largest s in [0, 1] for which the held particle, `e` away from a
/// bound's point and moved by s·`d`, is no farther from it than `limit`
/// or, when farther already, than it was: the larger root of
/// |e + s·d|² = R². (Stopping there rather than sliding along the sphere:
/// sliding let a 8.6 kN hand swing `wrecking_ball`'s 60 kg ball by the
/// rope's end and stretch the rope's last link 23 %.)
fn reach(e: Vec3, d: Vec3, limit: f32) -> f32 {
    let r2 = limit.powi(2).max(e.length_squared());
    let (dd, ed) = (d.length_squared(), e.dot(d));
    if dd <= 0.0 {
        return 1.0;
    }
    // |e|² ≤ R², so the discriminant is ≥ 0 up to rounding.
    let disc = (ed * ed - dd * (e.length_squared() - r2)).max(0.0);
    ((disc.sqrt() - ed) / dd).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reach_runs_along_rigid_untearable_links_to_the_pins_and_stops_there() {
        use crate::distance::{LinkKind, Tag};
        // A chain 0 - 1 - 2 - 3 - 4 of 0.1 m rigid links, pins at 0 and 4,
        // a soft link 1 - 5 to a pin at 5, a tearable link 3 - 6 to a pin
        // at 6, and a pin at 7 beyond the pin at 0.
        let tag = Tag::new(0, LinkKind::Stretch);
        let mut links = DistanceConstraints::default();
        for (a, b) in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 7)] {
            links.add(a, b, 0.1, 0.0, f32::INFINITY, tag);
        }
        links.add(1, 5, 0.1, 1e-3, f32::INFINITY, tag);
        links.add(3, 6, 0.1, 0.0, 0.5, tag);
        let mut pos: Vec<Vec3> = (0..8).map(|k| Vec3::X * 0.1 * k as f32).collect();
        // Held at 2; the pin at 4 has been pulled 0.3 m away, farther than
        // its 0.2 m reach.
        pos[4] = pos[2] + Vec3::Y * 0.3;
        let pinned = |k: usize| [0, 4, 5, 6, 7].contains(&k);
        let mut reach = Reach::of(2, &pos, pinned, &links);
        reach.pins.sort_by_key(|p| p.0);
        let slack = 1.0 + RIGID_STRAIN;
        assert_eq!(reach.pins.len(), 2, "{:?}", reach.pins);
        assert_eq!(reach.pins[0].0, 0);
        assert!((reach.pins[0].1 - 0.2 * slack).abs() < 1e-6);
        // Where it was when the hand took hold, when that is farther.
        assert_eq!(reach.pins[1], (4, 0.3));
    }

    #[test]
    fn the_pull_reaches_the_target_when_weak_enough_and_is_capped_otherwise() {
        let (w, h) = (2.0, 1e-3);
        // Needs 0.001 / (2 · 1e-6) = 500 N: a 1000 N hand gets there.
        let free = || std::iter::empty();
        let (dx, f) = pull(Vec3::ZERO, Vec3::X * 1e-3, (w, h), 1000.0, free());
        assert!((dx.x - 1e-3).abs() < 1e-9 && (f - 500.0).abs() < 1e-2);
        // A 100 N hand moves it a fifth of the way, at exactly 100 N.
        let (dx, f) = pull(Vec3::ZERO, Vec3::X * 1e-3, (w, h), 100.0, free());
        assert!(
            (dx.x - 2e-4).abs() < 1e-9 && (f - 100.0).abs() < 1e-3,
            "{dx} {f}"
        );
    }

    #[test]
    fn the_pull_stops_where_a_rigid_link_of_the_held_particle_would_pass_its_strain() {
        let (w, h, rest) = (2.0, 1e-2, 0.1);
        let other = Vec3::new(-0.1, 0.0, 0.0);
        let limit = rest * (1.0 + RIGID_STRAIN);
        // Straight away from the other end: stopped at the limit, and the
        // force read-out is what it took to move that far.
        let (dx, f) = pull(
            Vec3::ZERO,
            Vec3::X,
            (w, h),
            1e6,
            std::iter::once((other, limit)),
        );
        assert!((dx.x - (limit - rest)).abs() < 1e-6, "{dx}");
        assert!((f - dx.x / (w * h * h)).abs() < 1e-3, "{f}");
        // Sideways the link turns before it stretches: the particle gets
        // √(limit² − rest²) across.
        let (dx, _) = pull(
            Vec3::ZERO,
            Vec3::Y,
            (w, h),
            1e6,
            std::iter::once((other, limit)),
        );
        assert!(
            (dx.y - (limit * limit - rest * rest).sqrt()).abs() < 1e-5,
            "{dx}"
        );
        // Toward the other end it is free, and a link already past the
        // limit may shorten but not lengthen.
        let (dx, _) = pull(
            Vec3::ZERO,
            -Vec3::X * 0.05,
            (w, h),
            1e6,
            std::iter::once((other, limit)),
        );
        assert!((dx.x + 0.05).abs() < 1e-7);
        let far = Vec3::new(-0.2, 0.0, 0.0);
        let (dx, _) = pull(
            Vec3::ZERO,
            Vec3::X,
            (w, h),
            1e6,
            std::iter::once((far, limit)),
        );
        assert!(dx.length() < 1e-6, "{dx}");
    }
}
