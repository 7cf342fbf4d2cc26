//! The projection kernel: raw views of a colour's constraints that the
//! threads of a step share, and the XPBD/PBD update on them (DESIGN §2).

use glam::Vec4;

/// Raw pointers into one batch, for threads that each own a disjoint
/// range of its constraints during a step (see `super::step`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawBatch {
    pub(super) a: *const u32,
    pub(super) b: *const u32,
    pub(super) rest: *const f32,
    pub(super) compliance: *const f32,
    pub(super) lambda: *mut f32,
    pub(super) alpha_t: *mut f32,
    pub(super) gamma: *mut f32,
    pub(super) inv_denom: *mut f32,
    /// Number of constraints.
    pub len: usize,
    /// True for the overflow batch, whose constraints may share particles:
    /// only one thread may solve it.
    pub sequential: bool,
}

// SAFETY: the pointers are only dereferenced inside a step, while the
// world is mutably borrowed, by threads owning disjoint ranges.
unsafe impl Send for RawBatch {}
unsafe impl Sync for RawBatch {}

/// Raw pointers to the particle arrays the projections read and write:
/// x_prev with the inverse mass in w, and the displacement Δx.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawState {
    pub prev: *const Vec4,
    pub delta: *mut Vec4,
}

/// The per-constraint columns of a [`RawBatch`].
#[cfg(target_arch = "x86_64")]
pub(crate) struct Columns {
    pub a: *const u32,
    pub b: *const u32,
    pub rest: *const f32,
    pub lambda: *mut f32,
    pub alpha_t: *const f32,
    pub gamma: *const f32,
    pub inv_denom: *const f32,
}

unsafe impl Send for RawState {}
unsafe impl Sync for RawState {}

impl RawBatch {
    /// Fills the per-step caches of constraints `range` for substep `h`:
    /// α̃ = α/h², γ = α·β/h (both 0 in PBD) and 1/((1+γ)(w_a+w_b) + α̃),
    /// or 0 when that denominator is below 1e−9 (both ends fixed).
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
            unsafe {
                let w =
                    *inv_mass.add(*self.a.add(i) as usize) + *inv_mass.add(*self.b.add(i) as usize);
                let alpha = if xpbd { *self.compliance.add(i) } else { 0.0 };
                let alpha_t = alpha / (h * h);
                let gamma = alpha * damping / h;
                let denom = (1.0 + gamma) * w + alpha_t;
                *self.alpha_t.add(i) = alpha_t;
                *self.gamma.add(i) = gamma;
                *self.inv_denom.add(i) = if denom >= 1e-9 { 1.0 / denom } else { 0.0 };
            }
        }
    }

    /// One Gauss–Seidel pass over constraints `range` (DESIGN §2):
    ///
    /// Δλ = (−k·C − α̃λ − γ n·(Δx_a − Δx_b)) / ((1+γ)(w_a+w_b) + α̃),
    /// λ += Δλ, Δx_a += w_a Δλ n, Δx_b −= w_b Δλ n,
    ///
    /// with k = 1 in XPBD and α̃ = γ = 0 in PBD. Positions are
    /// x = x_prev + Δx. `FIRST` is the substep's first pass, where λ = 0:
    /// it overwrites λ instead of reading it, which is the reset of step 2
    /// without a pass of its own.
    ///
    /// On x86-64 eight constraints go through AVX at once when the CPU has
    /// it, then four through SSE; the rest, and every constraint elsewhere,
    /// through [`Self::project_one`]. All paths do the same IEEE operations
    /// in the same order, so a constraint gets the same bits whichever path
    /// (and so whichever thread split) it takes.
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
        #[cfg(target_arch = "x86_64")]
        let range = {
            let mut i = range.start;
            if std::is_x86_feature_detected!("avx") {
                while i + 8 <= range.end {
                    unsafe { super::simd::project8::<FIRST>(self, i, p, k) };
                    i += 8;
                }
            }
            while i + 4 <= range.end {
                unsafe { super::simd::project4::<FIRST>(self, i, p, k) };
                i += 4;
            }
            i..range.end
        };
        for i in range {
            unsafe { self.project_one::<FIRST>(i, p, k) };
        }
    }

    /// Constraint `i` of [`Self::project`], written out component by component.
    ///
    /// # Safety
    /// As for [`Self::project`].
    #[inline(always)]
    pub(crate) unsafe fn project_one<const FIRST: bool>(&self, i: usize, p: RawState, k: f32) {
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
            let c = len2 * inv_len - *self.rest.add(i);
            let lambda = if FIRST { 0.0 } else { *self.lambda.add(i) };
            let n_moved = (nx * mx + ny * my) + nz * mz;
            let num = (-k * c - *self.alpha_t.add(i) * lambda) - *self.gamma.add(i) * n_moved;
            let dl = if ok {
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

    /// Field pointers for the SIMD path.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn columns(&self) -> Columns {
        Columns {
            a: self.a,
            b: self.b,
            rest: self.rest,
            lambda: self.lambda,
            alpha_t: self.alpha_t,
            gamma: self.gamma,
            inv_denom: self.inv_denom,
        }
    }
}
