//! A closed surface's gas (`solver::volume`) in the step: one global
//! volume constraint per balloon, solved by thread 0 alone while the
//! others wait.

use std::ops::Range;

use super::kinds::{Ctx, Pass};
use super::links::RawBatch;
use super::pool::Team;
use super::shared::Shared;
use crate::collision::Collider;
use crate::particles::kinetic_drop;
use crate::particles::losses;
use crate::rigid::Rigids;
use crate::rigid::contact::particle_share;
use crate::sheets::Sheets;
use crate::volume::Enclosed;
use glam::Vec3;

/// Every closed surface's gas, in order, and what it acts with.
pub(crate) struct Gas<'a> {
    pub volumes: Shared<Enclosed>,
    /// The links' colours, whose joins pull the skins from outside.
    pub links: &'a [RawBatch],
    /// What the gas does not press a skin into: the colliders, the rigid
    /// bodies and other bodies' sheets (whose contacts it projects).
    pub colliders: &'a [Collider],
    pub rigids: Option<Shared<Rigids>>,
    pub sheets: Option<Shared<Sheets>>,
}

impl Pass for Gas<'_> {
    fn active(&self) -> bool {
        self.volumes.len() > 0
    }

    unsafe fn project(&self, ctx: &Ctx, team: &Team, _mine: Range<usize>, first: bool) {
        if team.index != 0 {
            return;
        }
        let (p, h) = (ctx.p, ctx.h);
        for g in 0..self.volumes.len() {
            // SAFETY: this thread alone reads and writes particles and
            // volumes, and reads the rigid world and the sheets' table,
            // until the barrier after the call.
            unsafe {
                let gas = self.volumes.at(g);
                let alpha_t = if ctx.xpbd {
                    gas.compliance / (h * h)
                } else {
                    0.0
                };
                // The gas's move stops at the colliders and rigid bodies
                // (their push comes after the solve: the gas pressed a
                // balloon's underside into the ground every substep, the
                // ground pushed it back, and the skin pumped and rolled the
                // balloon away, issue 21); a second round pushes what they
                // took into the rest of the skin.
                for round in 0..2 {
                    let clipped = gas.project(
                        (|i| p.x(i), |i| p.prev.get(i).truncate()),
                        |i| p.inv_mass.get(i),
                        |i, y| {
                            let (x0, r) = (p.prev.get(i).truncate(), p.radius.get(i));
                            let mut out = clear_of(self.colliders, (x0, y), r, h);
                            if let Some(rigids) = self.rigids {
                                // Read only, before the rigid pass.
                                let bodies = &rigids.at(0).bodies;
                                let w = p.inv_mass.get(i);
                                out += particle_share(bodies, y + out, r, w);
                            }
                            if let Some(sheets) = self.sheets {
                                // Another body's sheet: the contact is
                                // projected here, the corners stopped at
                                // the colliders as the skin is; the skin
                                // takes what they could not.
                                let at = |j: usize| (p.prev.get(j) + p.delta.get(j)).truncate();
                                out += sheets.at(0).gas_touch(
                                    i,
                                    (x0, y + out),
                                    (|j| p.prev.get(j).truncate(), at),
                                    (p.inv_mass.slice(), p.radius.slice()),
                                    |c, m| {
                                        let (c0, rc) = (p.prev.get(c).truncate(), p.radius.get(c));
                                        let m =
                                            m + clear_of(self.colliders, (c0, at(c) + m), rc, h);
                                        *p.delta.at(c) += m.extend(0.0);
                                    },
                                );
                            }
                            out
                        },
                        |i, m| *p.delta.at(i) += m.extend(0.0),
                        (alpha_t, ctx.k, h, first && round == 0),
                    );
                    if !clipped {
                        break;
                    }
                }
                if first {
                    // The joins' λ of this pass, and so their pull: each
                    // join's (colour, index) was checked when found.
                    let x = |i: usize| p.x(i);
                    let outside = gas.joins.iter().map(|&[c, k, end]| {
                        let link = &self.links[c as usize];
                        let (a, b) = (link.a.get(k as usize), link.b.get(k as usize));
                        let other = (a ^ b ^ end) as usize;
                        let end = end as usize;
                        let n = (x(end) - x(other)).normalize_or_zero().as_dvec3();
                        (end, n * link.lambda.get(k as usize) as f64)
                    });
                    // The prediction left v·h in Δx and v in `vel`, which
                    // nothing changes before step 5: Δx − v·h is what the
                    // passes so far moved.
                    gas.unspin(
                        (
                            |i| p.delta.get(i).truncate() - p.vel.get(i) * h,
                            |i| p.prev.get(i).truncate(),
                            |i| p.inv_mass.get(i),
                        ),
                        outside,
                        |i, m| *p.delta.at(i) += m.extend(0.0),
                    );
                }
            }
        }
    }

    fn damps(&self) -> bool {
        true
    }

    unsafe fn damp(&self, ctx: &Ctx, team: &Team, _mine: Range<usize>) {
        if team.index != 0 {
            return;
        }
        let p = ctx.p;
        for g in 0..self.volumes.len() {
            // SAFETY: this thread alone reads and writes particles and
            // volumes until the barrier after the call.
            unsafe {
                self.volumes.at(g).damp(
                    |i| p.pos.get(i),
                    |i| p.vel.get(i),
                    |i| p.inv_mass.get(i),
                    |i, dv| {
                        let (w, before) = (p.inv_mass.get(i), p.vel.get(i));
                        p.vel.set(i, before + dv);
                        p.lost.at(i)[losses::DAMPING] += kinetic_drop(w, before, before + dv);
                    },
                    ctx.damping * ctx.h,
                );
            }
        }
    }
}

/// How far a particle of radius `r` that began the substep at `x0` must
/// move from `y` to leave every collider (`Collider::clearance`, each
/// from where the last left it).
fn clear_of(colliders: &[Collider], (x0, y): (Vec3, Vec3), r: f32, h: f32) -> Vec3 {
    let mut out = Vec3::ZERO;
    for c in colliders {
        out += c.clearance(x0, y + out, r, h);
    }
    out
}
