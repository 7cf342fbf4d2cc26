//! The distance-constraint kernels: raw views of a colour's constraints
//! that the threads of a step share, the XPBD/PBD position update and the
//! velocity-level dashpot (DESIGN §2, steps 3 and 6).

use glam::{Vec3, Vec4};

/// Raw pointers into one batch, for threads that each own a disjoint
/// range of its constraints during a step (see `super::step`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawBatch {
    pub a: *const u32,
    pub b: *const u32,
    pub rest: *const f32,
    pub compliance: *const f32,
    pub lambda: *mut f32,
    /// Σλ over the frame's substeps (see `Batch::impulse`).
    pub impulse: *mut f32,
    pub alpha_t: *mut f32,
    pub inv_denom: *mut f32,
    pub damp: *mut f32,
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

// SAFETY: the pointers are only dereferenced inside a step, while the
// world is mutably borrowed, by threads owning disjoint ranges.
unsafe impl Send for RawBatch {}
// SAFETY: as for Send; shared references only hand out the same pointers.
unsafe impl Sync for RawBatch {}

/// Raw pointers to the particle arrays the projections read and write:
/// x_prev with the inverse mass in w, and the displacement Δx.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawState {
    pub prev: *const Vec4,
    pub delta: *mut Vec4,
}

// SAFETY: used only inside a step by threads that write disjoint particles.
unsafe impl Send for RawState {}
// SAFETY: as for Send.
unsafe impl Sync for RawState {}

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
        range: std::ops::Range<usize>,
        inv_mass: *const f32,
        h: f32,
        damping: f32,
        xpbd: bool,
    ) {
        for i in range {
            // SAFETY: `i` is in the batch; its particle indices are in range.
            unsafe {
                let w =
                    *inv_mass.add(*self.a.add(i) as usize) + *inv_mass.add(*self.b.add(i) as usize);
                let alpha = if xpbd { *self.compliance.add(i) } else { 0.0 };
                let alpha_t = alpha / (h * h);
                *self.alpha_t.add(i) = alpha_t;
                *self.inv_denom.add(i) = inverse_or_zero(w + alpha_t);
                *self.damp.add(i) = damping * h / (1.0 + damping * w * h);
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
    pub unsafe fn project<const FIRST: bool>(
        &self,
        range: std::ops::Range<usize>,
        p: RawState,
        k: f32,
    ) {
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
        range: std::ops::Range<usize>,
        p: RawState,
        k: f32,
    ) {
        #[cfg(target_arch = "x86_64")]
        let range = if self.sequential || !self.simd {
            range
        } else {
            let mut i = range.start;
            if std::is_x86_feature_detected!("avx") {
                while i + 8 <= range.end {
                    // SAFETY: lanes i..i+8 are in `range`, share no particle, and the CPU has AVX.
                    unsafe { super::simd::project8::<FIRST, SLACK>(self, i, p, k) };
                    i += 8;
                }
            }
            while i + 4 <= range.end {
                // SAFETY: lanes i..i+4 are in `range` and share no particle.
                unsafe { super::simd::project4::<FIRST, SLACK>(self, i, p, k) };
                i += 4;
            }
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
            let (ia, ib) = (*self.a.add(i) as usize, *self.b.add(i) as usize);
            let (pa, pb) = (*p.prev.add(ia), *p.prev.add(ib));
            let (da, db) = (*p.delta.add(ia), *p.delta.add(ib));
            let (mx, my, mz) = (da.x - db.x, da.y - db.y, da.z - db.z);
            let (dx, dy, dz) = ((pa.x - pb.x) + mx, (pa.y - pb.y) + my, (pa.z - pb.z) + mz);
            let len2 = (dx * dx + dy * dy) + dz * dz;
            // Coincident particles have no direction: no correction.
            let ok = len2 > 1e-18;
            let inv_len = if ok { 1.0 / len2.sqrt() } else { 0.0 };
            let (nx, ny, nz) = (dx * inv_len, dy * inv_len, dz * inv_len);
            // A negative rest length −L: a tension-only link, slack when shorter than L.
            let rest = *self.rest.add(i);
            let c = len2 * inv_len - if SLACK { rest.abs() } else { rest };
            let slack = SLACK && rest < 0.0 && c < 0.0;
            let lambda = if FIRST { 0.0 } else { *self.lambda.add(i) };
            let num = -k * c - *self.alpha_t.add(i) * lambda;
            let dl = if ok && !slack {
                num * *self.inv_denom.add(i)
            } else {
                0.0
            };
            *self.lambda.add(i) = lambda + dl;
            let (sa, sb) = (pa.w * dl, pb.w * dl);
            *p.delta.add(ia) = Vec4::new(da.x + nx * sa, da.y + ny * sa, da.z + nz * sa, da.w);
            *p.delta.add(ib) = Vec4::new(db.x - nx * sb, db.y - ny * sb, db.z - nz * sb, db.w);
        }
    }

    /// After a substep's passes, adds each constraint's λ to its frame's
    /// Σλ (`FIRST`: the frame's first substep, which starts the sum).
    ///
    /// # Safety
    /// Pointers valid; no other thread touches these constraints.
    pub unsafe fn tally<const FIRST: bool>(&self, range: std::ops::Range<usize>) {
        for i in range {
            // SAFETY: `i` is in the batch, owned by this thread.
            unsafe {
                let before = if FIRST { 0.0 } else { *self.impulse.add(i) };
                *self.impulse.add(i) = before + *self.lambda.add(i);
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
        range: std::ops::Range<usize>,
        pos: *const Vec3,
        vel: *mut Vec3,
        inv_mass: *const f32,
        lost: *mut crate::solver::particles::Losses,
    ) {
        for i in range {
            // SAFETY: `i` is in the batch, its particles in range and owned by this thread.
            unsafe {
                let (ia, ib) = (*self.a.add(i) as usize, *self.b.add(i) as usize);
                let (wa, wb) = (*inv_mass.add(ia), *inv_mass.add(ib));
                let d = *pos.add(ia) - *pos.add(ib);
                let len2 = d.length_squared();
                if wa + wb == 0.0 || len2 <= 1e-18 {
                    continue;
                }
                let n = d / len2.sqrt();
                let (va, vb) = (*vel.add(ia), *vel.add(ib));
                let p = -n.dot(va - vb) * *self.damp.add(i);
                let (va2, vb2) = (va + n * (wa * p), vb - n * (wb * p));
                *vel.add(ia) = va2;
                *vel.add(ib) = vb2;
                use crate::solver::particles::losses::DAMPING;
                if wa > 0.0 {
                    (*lost.add(ia))[DAMPING] += super::step::kinetic_drop(wa, va, va2);
                }
                if wb > 0.0 {
                    (*lost.add(ib))[DAMPING] += super::step::kinetic_drop(wb, vb, vb2);
                }
            }
        }
    }

    /// Field pointers for the SIMD path.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn columns(&self) -> Columns {
        Columns {
            a: self.a,
            b: self.b,
            rest: self.rest,
            lambda: self.lambda,
            alpha_t: self.alpha_t,
            inv_denom: self.inv_denom,
        }
    }
}

/// The per-constraint columns of a [`RawBatch`] the projection reads.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Columns {
    pub a: *const u32,
    pub b: *const u32,
    pub rest: *const f32,
    pub lambda: *mut f32,
    pub alpha_t: *const f32,
    pub inv_denom: *const f32,
}
