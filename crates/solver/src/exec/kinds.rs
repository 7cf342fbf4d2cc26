//! The verbs every constraint kind answers, so the step runs kinds it
//! does not name (as Box2D's `b2PrepareJoint`/`b2SolveJoint` per joint
//! file, or Jolt's one `Apply…Constraints` line per kind).
//!
//! Two shapes of kind:
//! - [`Coloured`]: constraints grouped in colours that share no particle
//!   (distance links, the four-particle quads). All kinds' constraints of
//!   colour c run in one phase, split across the team, and the threads
//!   meet once after it.
//! - [`Pass`]: a kind solved after the colours in each Gauss–Seidel pass,
//!   however it splits its work (a balloon's gas on one thread, tethers by
//!   particle share). The threads meet after each.
//!
//! A new kind is a file here implementing one trait, plus its line in
//! `super::step_frame`'s list.

use std::ops::Range;

use super::pool::Team;
use super::step::RawParticles;

/// What every kind's verbs read of the frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    /// The particle tables.
    pub p: RawParticles,
    /// Substep length h (s).
    pub h: f32,
    /// PBD stiffness k per projection (1 in XPBD).
    pub k: f32,
    /// True: XPBD (α̃ = α/h²); false: PBD (α̃ = 0).
    pub xpbd: bool,
    /// Constraint damping β (kg/s).
    pub damping: f32,
}

/// A kind whose constraints are grouped in colours (see the module doc).
pub(crate) trait Coloured: Sync {
    /// The number of colours it has (some may be empty).
    fn colours(&self) -> usize;

    /// The number of constraints in `colour` (0 past the last).
    fn len(&self, colour: usize) -> usize;

    /// True when `colour`'s constraints may share particles, so one
    /// thread solves them all, in order (the links' overflow batch).
    fn whole(&self, _colour: usize) -> bool {
        false
    }

    /// This thread's share of `colour`; None: nothing for it.
    fn mine(&self, colour: usize, team: &Team) -> Option<Range<usize>> {
        match self.whole(colour) {
            false => Some(team.share(self.len(colour))),
            true => (team.index == 0).then(|| 0..self.len(colour)),
        }
    }

    /// Fills the per-step caches of constraints `range` (settings, masses
    /// or compliances changed since the last step).
    ///
    /// # Safety
    /// No other thread touches these constraints.
    unsafe fn prepare(&self, _colour: usize, _range: Range<usize>, _ctx: &Ctx) {}

    /// One projection of constraints `range`; `first` is the substep's
    /// first pass, which starts λ from 0.
    ///
    /// # Safety
    /// No other thread touches these constraints or their particles (a
    /// colour's constraints share none; the threads' ranges are disjoint).
    unsafe fn project(&self, colour: usize, range: Range<usize>, ctx: &Ctx, first: bool);

    /// True when `colour` books λ into a frame's impulse (tearing).
    fn tallies(&self, _colour: usize) -> bool {
        false
    }

    /// Adds each constraint's λ to its frame's impulse, after a substep's
    /// passes (`first`: the frame's first substep, which starts it).
    ///
    /// # Safety
    /// No other thread touches these constraints.
    unsafe fn tally(&self, _colour: usize, _range: Range<usize>, _first: bool) {}

    /// Step 6's dashpot along constraints `range`: velocities only.
    ///
    /// # Safety
    /// As for [`Coloured::project`].
    unsafe fn damp(&self, colour: usize, range: Range<usize>, ctx: &Ctx);
}

/// A kind solved after the colours in each pass (see the module doc).
pub(crate) trait Pass: Sync {
    /// True when it has anything to do this frame.
    fn active(&self) -> bool;

    /// Step 1 for the kind's own state (a rod's orientations), called by
    /// every thread beside the particles' prediction, at time `t` with the
    /// air's velocity factor `drag`.
    ///
    /// # Safety
    /// The kind's state only; every thread touches the same share of it
    /// in [`Pass::predict`], [`Pass::project`] and [`Pass::finish`].
    unsafe fn predict(&self, _ctx: &Ctx, _team: &Team, _t: f64, _drag: f32) {}

    /// Step 5 for the kind's own state: its velocities from the substep's
    /// motion, beside the particles'.
    ///
    /// # Safety
    /// As for [`Pass::predict`].
    unsafe fn finish(&self, _ctx: &Ctx, _team: &Team) {}

    /// One projection, called by every thread of the team; `mine` is the
    /// thread's share of the particles.
    ///
    /// # Safety
    /// Every thread has passed the barrier that ended the last phase, and
    /// none moves a particle until the barrier after this call.
    unsafe fn project(&self, ctx: &Ctx, team: &Team, mine: Range<usize>, first: bool);

    /// True when it has a dashpot ([`Pass::damp`]).
    fn damps(&self) -> bool {
        false
    }

    /// Step 6's dashpot, called by every thread of the team.
    ///
    /// # Safety
    /// As for [`Pass::project`].
    unsafe fn damp(&self, _ctx: &Ctx, _team: &Team, _mine: Range<usize>) {}
}
