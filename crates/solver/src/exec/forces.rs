//! Force passes of the step: air on cloth triangles before the
//! prediction (`solver::aero`), and the capped hand after the constraint
//! passes (`solver::hand`).

use std::ops::Range;

use glam::Vec3;

use super::shared::Shared;
use super::step::RawParticles;
use crate::aero::AirFace;
use crate::hand::{RIGID_STRAIN, pull};

/// Cloth triangles' drag and lift: read only, but for `dv`, where each
/// thread writes its own particles' entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawAero {
    pub triangles: Shared<[u32; 3]>,
    pub coefficients: Shared<(f32, f32)>,
    /// Per particle (one more at the end): where its triangles start in `around`.
    pub start: Shared<u32>,
    pub around: Shared<u32>,
    pub dv: Shared<Vec3>,
    /// Per triangle: its air this substep, each thread writing its share.
    pub faces: Shared<AirFace>,
}

impl RawAero {
    /// Finds triangles `range`' air this substep ([`AirFace`]).
    ///
    /// # Safety
    /// No thread writes positions or velocities during the call; no other
    /// thread writes the faces of triangles `range`.
    #[inline(never)]
    pub unsafe fn faces(self, p: RawParticles, range: Range<usize>, air: (f32, Vec3)) {
        let (density, wind) = air;
        for t in range {
            // SAFETY: triangle `t` is this thread's; particles are only read.
            unsafe {
                let corners = self.triangles.get(t);
                let x = corners.map(|c| p.pos.get(c as usize));
                let v = corners.map(|c| p.vel.get(c as usize));
                self.faces.set(t, AirFace::of(x, v, density, wind));
            }
        }
    }

    /// The velocity change air gives particles `range` this substep, from
    /// the faces around each; in the wind's frame air never speeds a
    /// particle up.
    ///
    /// # Safety
    /// After every thread's [`RawAero::faces`]; no thread writes positions
    /// or velocities during the call; no other thread writes `dv` of
    /// particles `range`.
    // Once a substep: kept out of the step's loop, whose speed moved by
    // 5 % when the compiler chose to inline this and `Held::pull`.
    #[inline(never)]
    pub unsafe fn blow(self, p: RawParticles, range: Range<usize>, h: f32, wind: Vec3) {
        for i in range {
            // SAFETY: `i` is this thread's; faces and velocities are only read.
            unsafe {
                let w = p.inv_mass.get(i);
                let mut dv = Vec3::ZERO;
                if w > 0.0 {
                    for k in self.start.get(i)..self.start.get(i + 1) {
                        let t = self.around.get(k as usize) as usize;
                        let (cd, cl) = self.coefficients.get(t);
                        dv += self.faces.get(t).corner_dv(w, h, cd, cl);
                    }
                    let u = p.vel.get(i) - wind;
                    let (before, after) = (u.length(), (u + dv).length());
                    if after > before {
                        dv = (u + dv) * (before / after) - u;
                    }
                }
                self.dv.set(i, dv);
            }
        }
    }
}

/// The particle held by the hand during a frame: the hand moves linearly
/// from `from` to `to`; the held particle follows kinematically or is
/// pulled with at most `max_force`.
#[derive(Debug)]
pub(crate) struct Held<'a> {
    pub particle: usize,
    pub from: Vec3,
    pub to: Vec3,
    pub kinematic: bool,
    pub max_force: f32,
    /// The held particle's rigid links: (other end, rest length), which
    /// the pull may not stretch past `hand::RIGID_STRAIN`.
    pub rigid: &'a [(u32, f32)],
    /// The pins within the hand's reach: (particle, largest distance from
    /// the held one), which the pull may not pass either.
    pub pins: &'a [(u32, f32)],
    /// Where the force of the last substep is written (N); only the
    /// thread owning the particle writes it.
    pub force: Shared<f32>,
}

impl Held<'_> {
    /// The capped hand: pulls the held particle toward the hand's position
    /// a fraction `f` through the frame.
    ///
    /// # Safety
    /// The held particle is this thread's; no thread moves its rigid
    /// links' other ends meanwhile.
    #[inline(never)] // once a substep, as `RawAero::blow`
    pub unsafe fn pull(&self, p: RawParticles, h: f32, f: f32) {
        let at = |i: usize| {
            // SAFETY: `i` is the held particle or a link's end, both checked
            // against the particle count before the step; read only.
            unsafe { p.prev.get(i).truncate() + p.delta.get(i).truncate() }
        };
        let i = self.particle;
        // SAFETY: as for `at`; the held particle is this thread's to write.
        unsafe {
            let w = p.inv_mass.get(i);
            let rigid =
                (self.rigid.iter()).map(|&(o, rest)| (at(o as usize), rest * (1.0 + RIGID_STRAIN)));
            let pins = self.pins.iter().map(|&(o, far)| (at(o as usize), far));
            let target = self.from.lerp(self.to, f);
            let (pull, force) = pull(at(i), target, (w, h), self.max_force, rigid.chain(pins));
            *p.delta.at(i) += pull.extend(0.0);
            self.force.set(0, force);
        }
    }
}
