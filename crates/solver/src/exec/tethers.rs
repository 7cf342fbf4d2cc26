//! Tethers (`solver::tether`) in the step: each particle farther from
//! its pin than its tether's length moves back onto the sphere of that
//! radius, by the thread that owns the particle.

use std::ops::Range;

use super::kinds::{Ctx, Pass};
use super::pool::Team;
use super::shared::Shared;
use crate::tether::NONE;

/// The tether table: per particle its pin (or `NONE`) and maximum
/// distance; read only during the step. None: no particle has one.
pub(crate) struct TetherPass(pub Option<(Shared<u32>, Shared<f32>)>);

impl Pass for TetherPass {
    fn active(&self) -> bool {
        self.0.is_some()
    }

    /// Pins are not written during the pass (w = 0, no tether of their own).
    unsafe fn project(&self, ctx: &Ctx, _team: &Team, mine: Range<usize>, _first: bool) {
        let (p, Some((anchor, length))) = (ctx.p, self.0) else {
            return;
        };
        for i in mine {
            // SAFETY: `i` is this thread's; its pin is only read.
            unsafe {
                let a = anchor.get(i);
                if a == NONE || p.inv_mass.get(i) == 0.0 {
                    continue;
                }
                let a = a as usize;
                let pin = (p.prev.get(a) + p.delta.get(a)).truncate();
                let prev = p.prev.get(i).truncate();
                let x = prev + p.delta.get(i).truncate();
                let d = x - pin;
                let length = length.get(i);
                let dist = d.length();
                if dist > length && dist > 0.0 {
                    let on_sphere = pin + d * (length / dist);
                    p.delta.set(i, (on_sphere - prev).extend(0.0));
                }
            }
        }
    }
}
