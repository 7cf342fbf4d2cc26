//! The distance-link kind: views of a colour's links that the threads of
//! a step share, the XPBD/PBD position update and the velocity-level
//! dashpot (DESIGN §2, steps 3 and 6). Its store is
//! `solver::distance::DistanceConstraints`.

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::kinds::{Coloured, Ctx};
use super::shared::Shared;
use crate::particles::{Losses, kinetic_drop};

/// DESIGN §2's dashpot along the line between particles a and b (of
/// `pos`, `vel`, `inv_mass`, `lost`): it removes the fraction
/// `factor(w_a + w_b)`·(w_a + w_b) of their relative normal velocity (the
/// factor β·h/(1 + β·(w_a + w_b)·h)) and books the kinetic energy taken.
/// Nothing for fixed or coincident ends.
///
/// # Safety
/// Particles a and b are in the tables and no other thread touches them.
pub(crate) unsafe fn dashpot(
    (pos, vel, inv_mass, lost): (Shared<Vec3>, Shared<Vec3>, Shared<f32>, Shared<Losses>),
    (ia, ib): (usize, usize),
    factor: impl FnOnce(f32) -> f32,
) {
    // SAFETY: the caller's contract.
    unsafe {
        let (wa, wb) = (inv_mass.get(ia), inv_mass.get(ib));
        let d = pos.get(ia) - pos.get(ib);
        let len2 = d.length_squared();
        if wa + wb == 0.0 || len2 <= 1e-18 {
            return;
        }
        let n = d / len2.sqrt();
        let (va, vb) = (vel.get(ia), vel.get(ib));
        let p = -n.dot(va - vb) * factor(wa + wb);
        let (va2, vb2) = (va + n * (wa * p), vb - n * (wb * p));
        vel.set(ia, va2);
        vel.set(ib, vb2);
        use crate::particles::losses::DAMPING;
        if wa > 0.0 {
            lost.at(ia)[DAMPING] += kinetic_drop(wa, va, va2);
        }
        if wb > 0.0 {
            lost.at(ib)[DAMPING] += kinetic_drop(wb, vb, vb2);
        }
    }
}

/// One colour's links, for threads that each own a disjoint range of
/// them during a step (see `super::step`). Every column has `len` entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawBatch {
    pub a: Shared<u32>,
    pub b: Shared<u32>,
    pub rest: Shared<f32>,
    pub compliance: Shared<f32>,
    pub lambda: Shared<f32>,
    /// Σλ over the frame's substeps (see `Batch::impulse`).
    pub impulse: Shared<f32>,
    pub alpha_t: Shared<f32>,
    pub inv_denom: Shared<f32>,
    pub damp: Shared<f32>,
    /// Number of constraints.
    pub len: usize,
    /// True for the overflow batch, whose constraints may share particles:
    /// one thread solves it, in order, without SIMD lanes.
    pub sequential: bool,
    /// True when some of its links hold only tension (negative rest
    /// length): only then do the kernels check for slack.
    pub slack: bool,
    /// True when the world can tear: each substep adds λ to `impulse`.
    pub tally: bool,
    /// False: every constraint goes through [`RawBatch::project_one`]
    /// instead of the SIMD lanes (the world's debugging switch, see
    /// `World::set_simd`; results are the same bits).
    pub simd: bool,
}

/// The particle arrays the projections read and write: x_prev with the
/// inverse mass in w, and the displacement Δx.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawState {
    pub prev: Shared<Vec4>,
    pub delta: Shared<Vec4>,
}

/// The inverse of a denominator, or 0 when it is 0 or so small that its
/// inverse is not finite (both ends fixed and α̃ ≈ 0): the constraint is
/// then skipped, and only then — never by a threshold on the denominator,
/// which would switch off rigid links between very heavy particles.
#[inline(always)]
pub(crate) fn inverse_or_zero(denom: f32) -> f32 {
    let inv = 1.0 / denom;
    if inv.is_finite() { inv } else { 0.0 }
}

impl RawBatch {
    /// Fills the per-step caches of constraints `range` for substep `h`:
    /// α̃ = α/h² (0 in PBD), 1/(w_a + w_b + α̃) and the dashpot factor
    /// β·h/(1 + β(w_a + w_b)h) of step 6.
    ///
    /// # Safety
    /// Pointers valid; no other thread touches these constraints.
    pub unsafe fn prepare(
        &self,
        range: Range<usize>,
        inv_mass: Shared<f32>,
        h: f32,
        damping: f32,
        xpbd: bool,
    ) {
        for i in range {
            // SAFETY: `i` is in the batch; its particle indices are in range.
            unsafe {
                let w = inv_mass.get(self.a.get(i) as usize) + inv_mass.get(self.b.get(i) as usize);
                let alpha = if xpbd { self.compliance.get(i) } else { 0.0 };
                let alpha_t = alpha / (h * h);
                self.alpha_t.set(i, alpha_t);
                self.inv_denom.set(i, inverse_or_zero(w + alpha_t));
                self.damp.set(i, damping * h / (1.0 + damping * w * h));
            }
        }
    }

    /// One Gauss–Seidel pass over constraints `range` (DESIGN §2):
    ///
    /// Δλ = (−k·C − α̃λ) / (w_a + w_b + α̃)  (0 for a slack tension-only link),
    /// λ += Δλ, Δx_a += w_a Δλ n, Δx_b −= w_b Δλ n,
    ///
    /// with k = 1 in XPBD and α̃ = 0 in PBD. Positions are x = x_prev + Δx.
    /// `FIRST` is the substep's first pass, where λ = 0: it overwrites λ
    /// instead of reading it, which is the reset of step 2 without a pass
    /// of its own.
    ///
    /// On x86-64 eight constraints of a colour go through AVX at once when
    /// the CPU has it, then four through SSE; the rest, the sequential
    /// overflow batch (whose constraints may share a particle, so lanes
    /// would lose corrections) and every constraint elsewhere go through
    /// [`Self::project_one`] in order. All paths do the same IEEE
    /// operations in the same order, so a constraint gets the same bits
    /// whichever path (and so whichever thread split) it takes.
    ///
    /// # Safety
    /// Pointers valid; no other thread touches these constraints or their
    /// particles (constraints of one colour share no particle).
    pub unsafe fn project<const FIRST: bool>(&self, range: Range<usize>, p: RawState, k: f32) {
        // SAFETY: the caller's contract.
        unsafe {
            if self.slack {
                self.project_in::<FIRST, true>(range, p, k)
            } else {
                self.project_in::<FIRST, false>(range, p, k)
            }
        }
    }

    /// [`Self::project`], checking for slack tension-only links (`SLACK`)
    /// or not: a batch without them runs no check at all.
    ///
    /// # Safety
    /// As for [`Self::project`].
    unsafe fn project_in<const FIRST: bool, const SLACK: bool>(
        &self,
        range: Range<usize>,
        p: RawState,
        k: f32,
    ) {
        #[cfg(target_arch = "x86_64")]
        let range = if self.sequential || !self.simd {
            range
        } else {
            let mut i = range.start;
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: `range`'s lanes share no particle, and the CPU has AVX-512.
                i = unsafe { super::simd512::project16::<FIRST, SLACK>(self, range.clone(), p, k) };
            }
            if std::is_x86_feature_detected!("avx") {
                // SAFETY: `range`'s lanes share no particle, and the CPU has AVX.
                i = unsafe { super::simd::project8::<FIRST, SLACK>(self, i..range.end, p, k) };
            }
            while i + 4 <= range.end {
                // SAFETY: lanes i..i+4 are in `range` and share no particle.
                unsafe { super::simd::project4::<FIRST, SLACK>(self, i, p, k) };
                i += 4;
            }
            i..range.end
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        let range = if self.sequential || !self.simd {
            range
        } else {
            // SAFETY: `range`'s lanes share no particle.
            let i = unsafe { super::simd128::project4::<FIRST, SLACK>(self, range.clone(), p, k) };
            i..range.end
        };
        for i in range {
            // SAFETY: the caller's contract, for one constraint at a time.
            unsafe { self.project_one::<FIRST, SLACK>(i, p, k) };
        }
    }

    /// Constraint `i` of [`Self::project`], written out component by component.
    ///
    /// # Safety
    /// As for [`Self::project`].
    #[inline(always)]
    pub(crate) unsafe fn project_one<const FIRST: bool, const SLACK: bool>(
        &self,
        i: usize,
        p: RawState,
        k: f32,
    ) {
        // SAFETY: `i` is in the batch, its particles in range and owned by this thread.
        unsafe {
            let (ia, ib) = (self.a.get(i) as usize, self.b.get(i) as usize);
            let (pa, pb) = (p.prev.get(ia), p.prev.get(ib));
            let (da, db) = (p.delta.get(ia), p.delta.get(ib));
            let (mx, my, mz) = (da.x - db.x, da.y - db.y, da.z - db.z);
            let (dx, dy, dz) = ((pa.x - pb.x) + mx, (pa.y - pb.y) + my, (pa.z - pb.z) + mz);
            let len2 = (dx * dx + dy * dy) + dz * dz;
            // Coincident particles have no direction: no correction.
            let ok = len2 > 1e-18;
            let inv_len = if ok { 1.0 / len2.sqrt() } else { 0.0 };
            let (nx, ny, nz) = (dx * inv_len, dy * inv_len, dz * inv_len);
            // A negative rest length −L: a tension-only link, slack when shorter than L.
            let rest = self.rest.get(i);
            let c = len2 * inv_len - if SLACK { rest.abs() } else { rest };
            let slack = SLACK && rest < 0.0 && c < 0.0;
            let lambda = if FIRST { 0.0 } else { self.lambda.get(i) };
            let num = -k * c - self.alpha_t.get(i) * lambda;
            let dl = if ok && !slack {
                num * self.inv_denom.get(i)
            } else {
                0.0
            };
            self.lambda.set(i, lambda + dl);
            let (sa, sb) = (pa.w * dl, pb.w * dl);
            let da2 = Vec4::new(da.x + nx * sa, da.y + ny * sa, da.z + nz * sa, da.w);
            p.delta.set(ia, da2);
            let db2 = Vec4::new(db.x - nx * sb, db.y - ny * sb, db.z - nz * sb, db.w);
            p.delta.set(ib, db2);
        }
    }

    /// After a substep's passes, adds each constraint's λ to its frame's
    /// Σλ (`FIRST`: the frame's first substep, which starts the sum).
    ///
    /// # Safety
    /// Pointers valid; no other thread touches these constraints.
    pub unsafe fn tally<const FIRST: bool>(&self, range: Range<usize>) {
        for i in range {
            // SAFETY: `i` is in the batch, owned by this thread.
            unsafe {
                let before = if FIRST { 0.0 } else { self.impulse.get(i) };
                self.impulse.set(i, before + self.lambda.get(i));
            }
        }
    }

    /// Step 6 for constraints `range`: the backward-Euler dashpot along
    /// each link, p = −v_n·β·h/(1 + β(w_a + w_b)h) with v_n = n·(v_a − v_b),
    /// v_a += w_a·p·n, v_b −= w_b·p·n. It removes the fraction
    /// β(w_a+w_b)h/(1 + β(w_a+w_b)h) < 1 of the relative normal velocity,
    /// so it only ever takes kinetic energy out and never moves a position.
    ///
    /// # Safety
    /// Pointers valid; no other thread touches these constraints or their
    /// particles. `pos`, `vel` and `inv_mass` are indexed by particle.
    pub unsafe fn damp(
        &self,
        range: Range<usize>,
        pos: Shared<Vec3>,
        vel: Shared<Vec3>,
        inv_mass: Shared<f32>,
        lost: Shared<Losses>,
    ) {
        for i in range {
            // SAFETY: `i` is in the batch, its particles in range and owned by this thread.
            unsafe {
                let ends = (self.a.get(i) as usize, self.b.get(i) as usize);
                dashpot((pos, vel, inv_mass, lost), ends, |_| self.damp.get(i));
            }
        }
    }

    /// Field pointers for the SIMD path.
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    pub(crate) fn columns(&self) -> Columns {
        Columns {
            a: self.a.ptr(),
            b: self.b.ptr(),
            rest: self.rest.ptr(),
            lambda: self.lambda.ptr(),
            alpha_t: self.alpha_t.ptr(),
            inv_denom: self.inv_denom.ptr(),
        }
    }
}

/// The per-constraint columns of a [`RawBatch`] the projection reads.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) struct Columns {
    pub a: *const u32,
    pub b: *const u32,
    pub rest: *const f32,
    pub lambda: *mut f32,
    pub alpha_t: *const f32,
    pub inv_denom: *const f32,
}

/// Every colour's links: the kind's verbs for the step.
pub(crate) struct Links<'a>(pub &'a [RawBatch]);

impl Coloured for Links<'_> {
    fn colours(&self) -> usize {
        self.0.len()
    }

    fn len(&self, colour: usize) -> usize {
        self.0.get(colour).map_or(0, |b| b.len)
    }

    /// The sequential overflow batch, whose links may share particles:
    /// one thread solves it all, in order.
    fn whole(&self, colour: usize) -> bool {
        self.0[colour].sequential
    }

    unsafe fn prepare(&self, colour: usize, range: Range<usize>, ctx: &Ctx) {
        let (p, b) = (ctx.p, &self.0[colour]);
        // SAFETY: the trait's contract; inv_mass is read only.
        unsafe { b.prepare(range, p.inv_mass, ctx.h, ctx.damping, ctx.xpbd) }
    }

    unsafe fn project(&self, colour: usize, range: Range<usize>, ctx: &Ctx, first: bool) {
        let (p, b) = (ctx.p, &self.0[colour]);
        let state = RawState {
            prev: p.prev,
            delta: p.delta,
        };
        // SAFETY: the trait's contract.
        unsafe {
            if first {
                b.project::<true>(range, state, ctx.k);
            } else {
                b.project::<false>(range, state, ctx.k);
            }
        }
    }

    fn tallies(&self, colour: usize) -> bool {
        self.0[colour].tally
    }

    unsafe fn tally(&self, colour: usize, range: Range<usize>, first: bool) {
        let b = &self.0[colour];
        // SAFETY: the trait's contract.
        unsafe {
            if first {
                b.tally::<true>(range);
            } else {
                b.tally::<false>(range);
            }
        }
    }

    unsafe fn damp(&self, colour: usize, range: Range<usize>, ctx: &Ctx) {
        let p = ctx.p;
        // SAFETY: the trait's contract.
        unsafe { self.0[colour].damp(range, p.pos, p.vel, p.inv_mass, p.lost) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DistanceConstraints, LinkKind, Tag};
    use glam::Vec4;

    const TAG: Tag = Tag {
        body: 0,
        kind: LinkKind::Stretch,
    };

    #[test]
    fn simd_and_scalar_projections_give_the_same_bits() {
        // Ends side by side (as a grid cloth's links: AVX-512 loads them
        // whole), a block apart (likewise), and scattered (gathered).
        for ends in [
            |i: usize| (2 * i, 2 * i + 1),
            |i: usize| (i, 40 + i),
            |i: usize| (i * 7 % 40, 40 + i * 11 % 40),
        ] {
            same_bits_either_way(ends);
        }
    }

    /// 40 disjoint constraints between particles `ends(i)` with awkward
    /// numbers, some degenerate, projected in lanes and one by one.
    fn same_bits_either_way(ends: fn(usize) -> (usize, usize)) {
        let mut c = DistanceConstraints::default();
        let mut prev = vec![Vec4::ZERO; 80];
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        for i in 0..40 {
            let a = Vec4::new(rnd(), rnd(), rnd(), rnd().abs() * 3.0);
            let b = if i % 13 == 0 {
                a
            } else {
                Vec4::new(rnd(), rnd(), rnd(), rnd().abs())
            };
            let (ia, ib) = ends(i);
            (prev[ia], prev[ib]) = (a, b);
            let (rest, compliance) = (rnd().abs(), rnd().abs() * 1e-3);
            // Every third link holds only tension (slack when short).
            if i % 3 == 1 {
                c.add_tension_only(ia, ib, rest, compliance, TAG);
            } else {
                c.add(ia, ib, rest, compliance, f32::INFINITY, TAG);
            }
        }
        let delta: Vec<Vec4> = (0..80)
            .map(|_| Vec4::new(rnd(), rnd(), rnd(), 0.0) * 1e-3)
            .collect();
        let inv_mass: Vec<f32> = prev.iter().map(|p| p.w).collect();
        let run = |simd: bool| {
            let mut c = c.clone();
            let mut delta = delta.clone();
            let mut raw = Vec::new();
            c.raw(&mut raw);
            let mut prev = prev.clone();
            let mut inv_mass = inv_mass.clone();
            let state = RawState {
                prev: Shared::new(&mut prev),
                delta: Shared::new(&mut delta),
            };
            let b = raw[0];
            // SAFETY: the arrays outlive the calls and one thread uses them.
            unsafe {
                b.prepare(0..b.len, Shared::new(&mut inv_mass), 1e-3, 5.0, true);
                for first in [true, false] {
                    match (simd, first) {
                        (true, true) => b.project::<true>(0..b.len, state, 1.0),
                        (true, false) => b.project::<false>(0..b.len, state, 1.0),
                        (false, true) => {
                            (0..b.len).for_each(|i| b.project_one::<true, true>(i, state, 1.0))
                        }
                        (false, false) => {
                            (0..b.len).for_each(|i| b.project_one::<false, true>(i, state, 1.0))
                        }
                    }
                }
            }
            (delta, c.batches[0].lambda.clone())
        };
        assert_eq!(c.colour_count(), 1);
        let (simd, scalar) = (run(true), run(false));
        let bits = |v: &[Vec4]| {
            v.iter()
                .flat_map(|x| x.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&simd.0), bits(&scalar.0));
        assert_eq!(
            simd.1.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            scalar.1.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_tension_only_link_pulls_when_long_and_lets_go_when_short() {
        let mut c = DistanceConstraints::default();
        c.add_tension_only(0, 1, 1.0, 0.0, TAG);
        c.add_tension_only(2, 3, 1.0, 0.0, TAG);
        let mut prev = [
            Vec4::new(0.0, 0.0, 0.0, 1.0),
            Vec4::new(1.5, 0.0, 0.0, 1.0), // stretched by 0.5
            Vec4::new(0.0, 1.0, 0.0, 1.0),
            Vec4::new(0.5, 1.0, 0.0, 1.0), // 0.5 short
        ];
        let mut delta = [Vec4::ZERO; 4];
        let mut raw = Vec::new();
        c.raw(&mut raw);
        let b = raw[0];
        let state = RawState {
            prev: Shared::new(&mut prev),
            delta: Shared::new(&mut delta),
        };
        // SAFETY: the arrays outlive the calls and one thread uses them.
        unsafe {
            b.prepare(0..b.len, Shared::new(&mut [1.0f32; 4]), 1e-3, 0.0, true);
            b.project::<true>(0..b.len, state, 1.0);
        }
        assert_eq!(c.len(), 2);
        assert!(
            (delta[0].x - 0.25).abs() < 1e-6 && (delta[1].x + 0.25).abs() < 1e-6,
            "{delta:?}"
        );
        assert_eq!(delta[2], Vec4::ZERO);
        assert_eq!(delta[3], Vec4::ZERO);
    }

    #[test]
    fn the_dashpot_removes_its_fraction_of_the_normal_speed_and_nothing_else() {
        let mut c = DistanceConstraints::default();
        c.add(0, 1, 1.0, 0.0, f32::INFINITY, TAG);
        let mut raw = Vec::new();
        c.raw(&mut raw);
        let b = raw[0];
        let mut pos = [glam::Vec3::ZERO, glam::Vec3::X];
        let mut inv_mass = [2.0f32, 0.5];
        let (beta, h) = (30.0f32, 1e-3f32);
        for beta in [0.0, beta, 1e4, 1e8] {
            let mut vel = [
                glam::Vec3::new(3.0, 1.0, 0.0),
                glam::Vec3::new(-1.0, 0.0, 2.0),
            ];
            let before: f32 = (0..2).map(|i| vel[i].length_squared() / inv_mass[i]).sum();
            // SAFETY: the arrays outlive the calls and one thread uses them.
            unsafe {
                let inv = Shared::new(&mut inv_mass);
                b.prepare(0..1, inv, h, beta, true);
                let mut lost = [[0.0f64; 3]; 2];
                let (x, v) = (Shared::new(&mut pos), Shared::new(&mut vel));
                b.damp(0..1, x, v, inv, Shared::new(&mut lost));
                let after: f64 = (0..2)
                    .map(|i| 0.5 * vel[i].length_squared() as f64 / inv_mass[i] as f64)
                    .sum();
                let taken = lost[0][1] + lost[1][1];
                // The books hold exactly what the dashpot took.
                assert!(
                    (before as f64 * 0.5 - after - taken).abs() < 1e-5,
                    "β = {beta}"
                );
            }
            let w = inv_mass[0] + inv_mass[1];
            let kept = 1.0 / (1.0 + beta * w * h); // of the relative normal speed, 4 → 4·kept
            let vn = vel[0].x - vel[1].x;
            assert!((vn - 4.0 * kept).abs() < 1e-5 * 4.0, "β = {beta}: {vn}");
            // Tangential motion and momentum are untouched.
            assert_eq!(
                (vel[0].y, vel[0].z, vel[1].y, vel[1].z),
                (1.0, 0.0, 0.0, 2.0)
            );
            let p = vel[0] / inv_mass[0] + vel[1] / inv_mass[1];
            assert!((p.x - (1.5 - 2.0)).abs() < 1e-5, "momentum {p}");
            let after: f32 = (0..2).map(|i| vel[i].length_squared() / inv_mass[i]).sum();
            assert!(after <= before + 1e-5, "energy rose at β = {beta}");
        }
    }
}
