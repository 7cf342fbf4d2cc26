//! Rigid bodies (`solver::rigid`) in the step: thread 0 predicts, projects
//! and finishes the whole rigid world, in order, while the others wait at
//! the barriers after the passes — so its bits do not depend on the
//! thread count. Its contacts and attachments move particles of any
//! thread's share, which the pass contract allows between its barriers.

use std::ops::Range;

use glam::Vec3;

use super::kinds::{Ctx, Pass};
use super::pool::Team;
use super::shared::Shared;
use super::step::RawParticles;
use crate::collision::Collider;
use crate::particles::hold;
use crate::rigid::Rigids;
use crate::rigid::end::{Particles, Tether};
use crate::rigid::motion::Sub;
use crate::tether::NONE;

/// The rigid world and the colliders; None when there is no rigid body.
pub(crate) struct RigidPass<'a> {
    pub rigids: Option<Shared<Rigids>>,
    pub colliders: &'a [Collider],
    pub gravity: Vec3,
    pub wind: Vec3,
    /// The tether table (see `TetherPass`), read only.
    pub tethers: Option<(Shared<u32>, Shared<f32>)>,
    /// Simulated time at the frame's start (s) and the frame's length.
    pub frame: (f64, f32),
}

/// The particle tables as the rigid constraints see them; every index is
/// checked against the tables' length.
struct Step(RawParticles, Option<(Shared<u32>, Shared<f32>)>);

impl Step {
    fn check(&self, i: usize) -> usize {
        assert!(
            i < self.0.len,
            "a rigid constraint names particle {i} of {}",
            self.0.len
        );
        i
    }
}

impl Particles for Step {
    fn x(&self, i: usize) -> Vec3 {
        let i = self.check(i);
        // SAFETY: `i` is checked; a `Step` exists only inside the rigid
        // pass, on the one thread that touches particles between barriers.
        unsafe { self.0.x(i) }
    }
    fn prev(&self, i: usize) -> Vec3 {
        let i = self.check(i);
        // SAFETY: as for `x`.
        unsafe { self.0.prev.get(i).truncate() }
    }
    fn w(&self, i: usize) -> f32 {
        let i = self.check(i);
        // SAFETY: as for `x`.
        unsafe { self.0.inv_mass.get(i) }
    }
    fn radius(&self, i: usize) -> f32 {
        let i = self.check(i);
        // SAFETY: as for `x`.
        unsafe { self.0.radius.get(i) }
    }
    fn spare(&self, i: usize) -> bool {
        let i = self.check(i);
        // SAFETY: as for `x`.
        unsafe { self.0.hold.get(i) & hold::SPARE != 0 }
    }
    fn tether(&self, i: usize) -> Option<Tether> {
        let (anchor, length) = self.1?;
        let i = self.check(i);
        assert!(anchor.len() == self.0.len && length.len() == self.0.len);
        // SAFETY: `i` is checked, the tables have one entry per particle
        // (asserted), and the tether table is only read during the step.
        let (pin, length) = unsafe { (anchor.get(i), length.get(i)) };
        (pin != NONE).then(|| {
            let pin = pin as usize;
            Tether {
                pin: self.x(pin),
                pin_moved: self.x(pin) - self.prev(pin),
                length,
            }
        })
    }
    fn shift(&mut self, i: usize, by: Vec3) {
        let i = self.check(i);
        if by.is_finite() {
            // SAFETY: as for `x`.
            unsafe { *self.0.delta.at(i) += by.extend(0.0) };
        }
    }
}

impl RigidPass<'_> {
    /// The rigid world, on thread 0 only.
    ///
    /// # Safety
    /// Only thread 0 calls this, and nothing else touches the rigid world
    /// during the step.
    unsafe fn world<'r>(&self, team: &Team) -> Option<&'r mut Rigids> {
        // SAFETY: the caller's contract; the table has one entry.
        self.rigids
            .filter(|_| team.index == 0)
            .map(|r| unsafe { r.at(0) })
    }
}

impl Pass for RigidPass<'_> {
    fn active(&self) -> bool {
        self.rigids.is_some()
    }

    unsafe fn predict(&self, ctx: &Ctx, team: &Team, t: f64, drag: f32) {
        // SAFETY: thread 0 alone; the rigid world is nobody else's.
        if let Some(r) = unsafe { self.world(team) } {
            let (gravity, wind) = (self.gravity, self.wind);
            let (t0, dt) = self.frame;
            r.predict(&Sub {
                h: ctx.h,
                gravity,
                wind,
                drag,
                t,
                f: ((t - t0) / dt as f64).min(1.0) as f32,
                dt,
            });
        }
    }

    unsafe fn project(&self, ctx: &Ctx, team: &Team, _mine: Range<usize>, first: bool) {
        // SAFETY: thread 0 alone, between the barriers around the call.
        if let Some(r) = unsafe { self.world(team) } {
            let mut p = Step(ctx.p, self.tethers);
            let n = ctx.p.len;
            r.project(&mut p, self.colliders, (n, ctx.h, ctx.xpbd, ctx.k), first);
        }
    }

    unsafe fn finish(&self, ctx: &Ctx, team: &Team) {
        // SAFETY: thread 0 alone; `finish` reads no particle (contacts
        // with particles take no velocity pass).
        if let Some(r) = unsafe { self.world(team) } {
            r.finish(&mut Step(ctx.p, None), ctx.h);
        }
    }
}
