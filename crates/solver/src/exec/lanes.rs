//! Several constraints of a colour at once, one per lane: the register
//! interface ([`Lanes`]) and the kernels written once on it — a distance
//! link's update and a dihedral hinge's projection. Each architecture's
//! module implements the registers and the entry points: `simd` (x86-64:
//! SSE and AVX) and `simd128` (the browser's wasm SIMD).
//!
//! Constraints of one colour share no particle, so N of them are N
//! independent lanes: gather their particles (x_prev with w = inverse
//! mass, and Δx), transpose them into x, y, z, w registers, run the update
//! lane-wise with exactly the same operations in the same order as the
//! constraint alone (IEEE sqrt and division, no fused multiply-add), then
//! transpose back and scatter. Per-constraint columns load contiguously.
//! No closures in a kernel: they would not inherit its target features.

use std::ops::{Add, BitAnd, Div, Mul, Sub};

use glam::Vec4;

use super::kinds::Ctx;
use super::links::{RawBatch, RawState};
use super::quads::RawQuads;
use crate::dihedral;
use crate::real::Real;
use crate::sheets::Shape;
use crate::sheets::shape::{SHAPE_COLUMNS, columns, mid_far};

/// A register of `N` f32 lanes.
pub(crate) trait Lanes:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + BitAnd<Output = Self>
{
    const N: usize;
    fn splat(x: f32) -> Self;
    fn sqrt(self) -> Self;
    /// All ones in lanes where `self > other`, zero elsewhere.
    fn gt(self, other: Self) -> Self;
    /// |self|, lane-wise (the sign bit cleared).
    fn abs(self) -> Self;
    /// `other` in lanes where `self` is all zeros, zero where all ones.
    fn and_not(self, other: Self) -> Self;
    /// # Safety
    /// `N` readable floats at `p`.
    unsafe fn load(p: *const f32) -> Self;
    /// # Safety
    /// `N` writable floats at `p`.
    unsafe fn store(self, p: *mut f32);
    /// Particles `base[idx[j]]` (rows x, y, z, w) → columns x, y, z, w.
    /// # Safety
    /// `idx` has `N` valid indices.
    unsafe fn gather(base: *const Vec4, idx: &[usize]) -> [Self; 4];
    /// The inverse of [`Lanes::gather`].
    /// # Safety
    /// `idx` has `N` valid, distinct indices.
    unsafe fn scatter(base: *mut Vec4, idx: &[usize], columns: [Self; 4]);
    /// Lane j of each of `columns` as row j: `N` floats at `rows + j·stride`
    /// (here lane by lane; a register transpose where it pays).
    /// # Safety
    /// `columns` holds `N` registers; the `N` rows are writable.
    #[inline(always)]
    unsafe fn store_rows(columns: &[Self], rows: *mut f32, stride: usize) {
        let mut lanes = [0f32; 16];
        for (k, column) in columns.iter().enumerate() {
            // SAFETY: `lanes` holds 16 ≥ N floats; the caller's rows.
            unsafe {
                column.store(lanes.as_mut_ptr());
                for (j, &x) in lanes[..Self::N].iter().enumerate() {
                    *rows.add(j * stride + k) = x;
                }
            }
        }
    }
}

/// Constraints `i .. i + L::N` of `batch`: [`RawBatch::project_one`] lane-wise.
///
/// # Safety
/// As for [`RawBatch::project`]; `i + L::N` is within the batch.
#[inline(always)]
pub(crate) unsafe fn project_lanes<L: Lanes, const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    i: usize,
    p: RawState,
    k: f32,
) {
    // SAFETY: the caller guarantees the pointers and indices are valid (see the `# Safety` section).
    unsafe {
        let c = batch.columns();
        let (mut ia, mut ib) = ([0usize; 16], [0usize; 16]);
        for j in 0..L::N {
            ia[j] = *c.a.add(i + j) as usize;
            ib[j] = *c.b.add(i + j) as usize;
        }
        let (ia, ib) = (&ia[..L::N], &ib[..L::N]);
        let pa = L::gather(p.prev.ptr(), ia);
        let pb = L::gather(p.prev.ptr(), ib);
        let da = L::gather(p.delta.ptr(), ia);
        let db = L::gather(p.delta.ptr(), ib);
        let lambda = if FIRST {
            L::splat(0.0)
        } else {
            L::load(c.lambda.add(i))
        };
        let columns = [
            L::load(c.rest.add(i)),
            lambda,
            L::load(c.alpha_t.add(i)),
            L::load(c.inv_denom.add(i)),
        ];
        let (lambda, da, db) = update::<L, SLACK>([pa, pb, da, db], columns, k);
        lambda.store(c.lambda.add(i));
        L::scatter(p.delta.ptr(), ia, da);
        L::scatter(p.delta.ptr(), ib, db);
    }
}

/// The update of `L::N` links, one per lane, from their particles'
/// columns `[x_prev a, x_prev b, Δx a, Δx b]` (x, y, z, w; w of x_prev
/// is the inverse mass) and their own `[rest, λ, α̃, 1/(w_a + w_b + α̃)]`
/// (λ = 0 in a frame's first pass), with stiffness `k` (1 in XPBD):
/// (the new λ, the new Δx of a, of b). Whatever order the lanes hold the
/// links in, each gets the same operations, so the same bits.
#[inline(always)]
pub(crate) fn update<L: Lanes, const SLACK: bool>(
    [pa, pb, da, db]: [[L; 4]; 4],
    [rest, lambda, alpha_t, inv_denom]: [L; 4],
    k: f32,
) -> (L, [L; 4], [L; 4]) {
    let ([pax, pay, paz, wa], [pbx, pby, pbz, wb]) = (pa, pb);
    let ([dax, day, daz, daw], [dbx, dby, dbz, dbw]) = (da, db);
    let (mx, my, mz) = (dax - dbx, day - dby, daz - dbz);
    let (dx, dy, dz) = ((pax - pbx) + mx, (pay - pby) + my, (paz - pbz) + mz);
    let len2 = (dx * dx + dy * dy) + dz * dz;
    let ok = len2.gt(L::splat(1e-18));
    let inv_len = ok & (L::splat(1.0) / len2.sqrt());
    let (nx, ny, nz) = (dx * inv_len, dy * inv_len, dz * inv_len);
    // A negative rest length −L: a tension-only link, slack when shorter than L.
    let cval = len2 * inv_len - if SLACK { rest.abs() } else { rest };
    let num = L::splat(-k) * cval - alpha_t * lambda;
    let mut dl = ok & (num * inv_denom);
    if SLACK {
        let zero = L::splat(0.0);
        dl = (zero.gt(rest) & zero.gt(cval)).and_not(dl);
    }
    let (sa, sb) = (wa * dl, wb * dl);
    (
        lambda + dl,
        [dax + nx * sa, day + ny * sa, daz + nz * sa, daw],
        [dbx - nx * sb, dby - ny * sb, dbz - nz * sb, dbw],
    )
}

/// Hinges `c .. c + L::N` of `d`, one per lane.
///
/// # Safety
/// As for the entry points (`simd::project_hinges8`, `simd128::project_hinges4`);
/// every quad of `c .. c + L::N` is a hinge
/// whose four particles are distinct.
#[inline(always)]
pub(crate) unsafe fn project_hinges<L: Lanes + Real>(
    d: &RawQuads,
    c: usize,
    ctx: &Ctx,
    first: bool,
) {
    let p = ctx.p;
    // SAFETY: the caller's contract: the quads and their particles are
    // this thread's, and no lane's particles meet another's.
    unsafe {
        let mut idx = [[0usize; 8]; 4];
        for (k, corner) in idx.iter_mut().enumerate() {
            for (j, slot) in corner.iter_mut().enumerate().take(L::N) {
                *slot = d.idx.get(c + j)[k] as usize;
            }
        }
        // Loops, not closures: a closure would not inherit AVX.
        let zero = <L as Real>::splat(0.0);
        let (mut prev, mut delta) = ([[zero; 4]; 4], [[zero; 4]; 4]);
        let (mut x, mut w) = ([[zero; 3]; 4], [zero; 4]);
        for k in 0..4 {
            prev[k] = L::gather(p.prev.ptr(), &idx[k][..L::N]);
            delta[k] = L::gather(p.delta.ptr(), &idx[k][..L::N]);
            for a in 0..3 {
                x[k][a] = prev[k][a] + delta[k][a];
            }
            w[k] = prev[k][3];
        }
        let rest = L::load(d.rest.ptr().add(c));
        let size = L::load(d.size.ptr().add(c));
        let alpha_t = if ctx.xpbd {
            L::load(d.compliance.ptr().add(c)) / <L as Real>::splat(ctx.h * ctx.h)
        } else {
            zero
        };
        let lambda = if first {
            zero
        } else {
            L::load(d.lambda.ptr().add(c))
        };
        let k = <L as Real>::splat(ctx.k);
        let (dl, moves) = dihedral::project(x, w, (rest, size), alpha_t, k, lambda);
        (lambda + dl).store(d.lambda.ptr().add(c));
        for k in 0..4 {
            let [mx, my, mz] = moves[k];
            let dk = delta[k];
            let moved = [dk[0] + mx, dk[1] + my, dk[2] + mz, dk[3] + zero];
            L::scatter(p.delta.ptr(), &idx[k][..L::N], moved);
        }
    }
}

/// Triangles `range` of `tri`, `L::N` at a time as far as whole groups go:
/// each one's whole [`Shape`] into `shapes[t]` and its farthest corner into
/// `far[t]`, with the bits of [`crate::sheets::Sheets::shape`] (see
/// [`shape_lanes`]); returns where the rest begins.
///
/// # Safety
/// As for [`shape_lanes`] for every group in `range`; `shapes` and `far`
/// have room for `range`, and no other thread touches those entries.
#[inline(always)]
pub(crate) unsafe fn shapes_lanes<L: Lanes + Real>(
    tri: &[[u32; 3]],
    range: std::ops::Range<usize>,
    particles: (*const Vec4, *const Vec4, *const f32),
    (shapes, far): (*mut Shape, *mut f32),
) -> usize {
    let mut t = range.start;
    while t + L::N <= range.end {
        // SAFETY: the caller's contract for triangles t..t + N, whose
        // entries are the caller's to write; a Shape is SHAPE_COLUMNS
        // floats in a row (`repr(C)`), stored N columns at a time.
        unsafe {
            let (c, f) = shape_lanes::<L>(tri, t, particles);
            f.store(far.add(t));
            let row = shapes.add(t) as *mut f32;
            let mut column = 0;
            while column < SHAPE_COLUMNS {
                L::store_rows(&c[column..column + L::N], row.add(column), SHAPE_COLUMNS);
                column += L::N;
            }
        }
        t += L::N;
    }
    t
}

/// Triangles `range` of `tri`, `L::N` at a time as far as whole groups
/// go: each one's farthest corner from its centroid into `far[t]`, with
/// the bits of [`crate::sheets::Sheets::far_of`]; returns where the rest
/// begins.
///
/// # Safety
/// As for [`shapes_lanes`], for `far` alone.
#[inline(always)]
#[cfg_attr(target_family = "wasm", allow(dead_code))] // see `Sheets::sparse`
pub(crate) unsafe fn fars_lanes<L: Lanes + Real>(
    tri: &[[u32; 3]],
    range: std::ops::Range<usize>,
    (prev, delta): (*const Vec4, *const Vec4),
    far: *mut f32,
) -> usize {
    let mut t = range.start;
    while t + L::N <= range.end {
        // SAFETY: the caller's contract for triangles t..t + N.
        unsafe {
            let (_, now) = corners_lanes::<L>(tri, t, (prev, delta));
            mid_far(now).1.store(far.add(t));
        }
        t += L::N;
    }
    t
}

/// Triangles `t .. t + L::N` of `tri`, one per lane: their corners'
/// positions at the start of the substep (`prev`, with w the inverse
/// mass) and now (`prev` + `delta`).
///
/// # Safety
/// `t + L::N <= tri.len()`, and every corner of those triangles indexes
/// `prev` and `delta`.
#[inline(always)]
#[allow(clippy::type_complexity)]
unsafe fn corners_lanes<L: Lanes + Real>(
    tri: &[[u32; 3]],
    t: usize,
    (prev, delta): (*const Vec4, *const Vec4),
) -> ([[L; 3]; 3], [[L; 3]; 3]) {
    // SAFETY: the caller's contract.
    unsafe {
        let mut idx = [[0usize; 16]; 3];
        for (j, ids) in tri[t..t + L::N].iter().enumerate() {
            for k in 0..3 {
                idx[k][j] = ids[k] as usize;
            }
        }
        let zero = <L as Lanes>::splat(0.0);
        let (mut was, mut now) = ([[zero; 3]; 3], [[zero; 3]; 3]);
        for k in 0..3 {
            let p = L::gather(prev, &idx[k][..L::N]);
            let d = L::gather(delta, &idx[k][..L::N]);
            for a in 0..3 {
                was[k][a] = p[a];
                now[k][a] = p[a] + d[a];
            }
        }
        (was, now)
    }
}

/// Triangles `t .. t + L::N` of `tri`, one per lane: the columns of their
/// shapes and their centroids' farthest corners
/// ([`crate::sheets::shape::columns`]), from their corners' positions at
/// the start of the substep (`prev`, with w the inverse mass), now
/// (`prev` + `delta`) and radii `radius`.
///
/// # Safety
/// `t + L::N <= tri.len()`, and every corner of those triangles indexes
/// `prev`, `delta` and `radius`.
#[inline(always)]
pub(crate) unsafe fn shape_lanes<L: Lanes + Real>(
    tri: &[[u32; 3]],
    t: usize,
    (prev, delta, radius): (*const Vec4, *const Vec4, *const f32),
) -> ([L; SHAPE_COLUMNS], L) {
    // SAFETY: the caller's contract.
    unsafe {
        let mut r = [[0f32; 16]; 3];
        for (j, ids) in tri[t..t + L::N].iter().enumerate() {
            for k in 0..3 {
                r[k][j] = *radius.add(ids[k] as usize);
            }
        }
        let (was, now) = corners_lanes::<L>(tri, t, (prev, delta));
        let radius = [
            L::load(r[0].as_ptr()),
            L::load(r[1].as_ptr()),
            L::load(r[2].as_ptr()),
        ];
        columns(was, now, radius)
    }
}
