//! Four distance constraints at once with SSE (x86-64 always has SSE2).
//!
//! Constraints of one colour share no particle, so four of them are four
//! independent lanes: gather the eight particles (x_prev with w = inverse
//! mass, and Δx), transpose them into x, y, z, w registers, run the update
//! of [`RawBatch::project_one`] lane-wise with exactly the same operations
//! in the same order (IEEE sqrt and division, no fused multiply-add), then
//! transpose back and scatter. Per-constraint columns load contiguously.

use std::arch::x86_64::*;

use super::distance::{RawBatch, RawState};

/// Rows (x, y, z, w) of four particles → columns x, y, z, w.
#[inline(always)]
unsafe fn transpose(r: [__m128; 4]) -> [__m128; 4] {
    unsafe {
        let t0 = _mm_unpacklo_ps(r[0], r[1]);
        let t1 = _mm_unpacklo_ps(r[2], r[3]);
        let t2 = _mm_unpackhi_ps(r[0], r[1]);
        let t3 = _mm_unpackhi_ps(r[2], r[3]);
        [
            _mm_movelh_ps(t0, t1),
            _mm_movehl_ps(t1, t0),
            _mm_movelh_ps(t2, t3),
            _mm_movehl_ps(t3, t2),
        ]
    }
}

/// Constraints `i .. i + 4` of `batch`; see [`RawBatch::project`].
///
/// # Safety
/// As for [`RawBatch::project`]; `i + 4` is within the batch.
#[inline(always)]
pub(crate) unsafe fn project4<const FIRST: bool>(batch: &RawBatch, i: usize, p: RawState, k: f32) {
    unsafe {
        let c = batch.columns();
        let ia = [0, 1, 2, 3].map(|j| *c.a.add(i + j) as usize);
        let ib = [0, 1, 2, 3].map(|j| *c.b.add(i + j) as usize);
        let load = |base: *const glam::Vec4, idx: [usize; 4]| {
            transpose(idx.map(|j| _mm_loadu_ps(base.add(j) as *const f32)))
        };
        let [pax, pay, paz, wa] = load(p.prev, ia);
        let [pbx, pby, pbz, wb] = load(p.prev, ib);
        let [dax, day, daz, daw] = load(p.delta, ia);
        let [dbx, dby, dbz, dbw] = load(p.delta, ib);

        let (mx, my, mz) = (
            _mm_sub_ps(dax, dbx),
            _mm_sub_ps(day, dby),
            _mm_sub_ps(daz, dbz),
        );
        let dx = _mm_add_ps(_mm_sub_ps(pax, pbx), mx);
        let dy = _mm_add_ps(_mm_sub_ps(pay, pby), my);
        let dz = _mm_add_ps(_mm_sub_ps(paz, pbz), mz);
        let len2 = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)),
            _mm_mul_ps(dz, dz),
        );
        let ok = _mm_cmpgt_ps(len2, _mm_set1_ps(1e-18));
        let inv_len = _mm_and_ps(ok, _mm_div_ps(_mm_set1_ps(1.0), _mm_sqrt_ps(len2)));
        let (nx, ny, nz) = (
            _mm_mul_ps(dx, inv_len),
            _mm_mul_ps(dy, inv_len),
            _mm_mul_ps(dz, inv_len),
        );
        let cval = _mm_sub_ps(_mm_mul_ps(len2, inv_len), _mm_loadu_ps(c.rest.add(i)));
        let lambda = if FIRST {
            _mm_setzero_ps()
        } else {
            _mm_loadu_ps(c.lambda.add(i))
        };
        let n_moved = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(nx, mx), _mm_mul_ps(ny, my)),
            _mm_mul_ps(nz, mz),
        );
        let num = _mm_sub_ps(
            _mm_sub_ps(
                _mm_mul_ps(_mm_set1_ps(-k), cval),
                _mm_mul_ps(_mm_loadu_ps(c.alpha_t.add(i)), lambda),
            ),
            _mm_mul_ps(_mm_loadu_ps(c.gamma.add(i)), n_moved),
        );
        let dl = _mm_and_ps(ok, _mm_mul_ps(num, _mm_loadu_ps(c.inv_denom.add(i))));
        _mm_storeu_ps(c.lambda.add(i), _mm_add_ps(lambda, dl));

        let (sa, sb) = (_mm_mul_ps(wa, dl), _mm_mul_ps(wb, dl));
        let out_a = transpose([
            _mm_add_ps(dax, _mm_mul_ps(nx, sa)),
            _mm_add_ps(day, _mm_mul_ps(ny, sa)),
            _mm_add_ps(daz, _mm_mul_ps(nz, sa)),
            daw,
        ]);
        let out_b = transpose([
            _mm_sub_ps(dbx, _mm_mul_ps(nx, sb)),
            _mm_sub_ps(dby, _mm_mul_ps(ny, sb)),
            _mm_sub_ps(dbz, _mm_mul_ps(nz, sb)),
            dbw,
        ]);
        for j in 0..4 {
            _mm_storeu_ps(p.delta.add(ia[j]) as *mut f32, out_a[j]);
            _mm_storeu_ps(p.delta.add(ib[j]) as *mut f32, out_b[j]);
        }
    }
}

/// Eight rows (x, y, z, w) → columns, each `[row0..3 | row4..7]`.
#[inline(always)]
unsafe fn transpose8(r: [__m128; 8]) -> [__m256; 4] {
    unsafe {
        let pair = |lo: __m128, hi: __m128| _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1);
        let (r0, r1, r2, r3) = (
            pair(r[0], r[4]),
            pair(r[1], r[5]),
            pair(r[2], r[6]),
            pair(r[3], r[7]),
        );
        let t0 = _mm256_unpacklo_ps(r0, r1);
        let t1 = _mm256_unpacklo_ps(r2, r3);
        let t2 = _mm256_unpackhi_ps(r0, r1);
        let t3 = _mm256_unpackhi_ps(r2, r3);
        [
            _mm256_shuffle_ps(t0, t1, 0x44),
            _mm256_shuffle_ps(t0, t1, 0xEE),
            _mm256_shuffle_ps(t2, t3, 0x44),
            _mm256_shuffle_ps(t2, t3, 0xEE),
        ]
    }
}

/// Columns x, y, z, w of eight particles → their rows.
#[inline(always)]
unsafe fn untranspose8(c: [__m256; 4]) -> [__m128; 8] {
    unsafe {
        let t0 = _mm256_unpacklo_ps(c[0], c[1]);
        let t1 = _mm256_unpacklo_ps(c[2], c[3]);
        let t2 = _mm256_unpackhi_ps(c[0], c[1]);
        let t3 = _mm256_unpackhi_ps(c[2], c[3]);
        let rows = [
            _mm256_shuffle_ps(t0, t1, 0x44),
            _mm256_shuffle_ps(t0, t1, 0xEE),
            _mm256_shuffle_ps(t2, t3, 0x44),
            _mm256_shuffle_ps(t2, t3, 0xEE),
        ];
        let lo = |v: __m256| _mm256_castps256_ps128(v);
        let hi = |v: __m256| _mm256_extractf128_ps(v, 1);
        [
            lo(rows[0]),
            lo(rows[1]),
            lo(rows[2]),
            lo(rows[3]),
            hi(rows[0]),
            hi(rows[1]),
            hi(rows[2]),
            hi(rows[3]),
        ]
    }
}

/// Constraints `i .. i + 8` of `batch` with AVX: [`project4`] eight lanes wide.
///
/// # Safety
/// As for [`project4`], and the CPU supports AVX.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn project8<const FIRST: bool>(batch: &RawBatch, i: usize, p: RawState, k: f32) {
    unsafe {
        let c = batch.columns();
        let ia: [usize; 8] = std::array::from_fn(|j| *c.a.add(i + j) as usize);
        let ib: [usize; 8] = std::array::from_fn(|j| *c.b.add(i + j) as usize);
        let load = |base: *const glam::Vec4, idx: [usize; 8]| {
            transpose8(idx.map(|j| _mm_loadu_ps(base.add(j) as *const f32)))
        };
        let [pax, pay, paz, wa] = load(p.prev, ia);
        let [pbx, pby, pbz, wb] = load(p.prev, ib);
        let [dax, day, daz, daw] = load(p.delta, ia);
        let [dbx, dby, dbz, dbw] = load(p.delta, ib);

        let (mx, my, mz) = (
            _mm256_sub_ps(dax, dbx),
            _mm256_sub_ps(day, dby),
            _mm256_sub_ps(daz, dbz),
        );
        let dx = _mm256_add_ps(_mm256_sub_ps(pax, pbx), mx);
        let dy = _mm256_add_ps(_mm256_sub_ps(pay, pby), my);
        let dz = _mm256_add_ps(_mm256_sub_ps(paz, pbz), mz);
        let len2 = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)),
            _mm256_mul_ps(dz, dz),
        );
        let ok = _mm256_cmp_ps(len2, _mm256_set1_ps(1e-18), _CMP_GT_OQ);
        let inv_len = _mm256_and_ps(ok, _mm256_div_ps(_mm256_set1_ps(1.0), _mm256_sqrt_ps(len2)));
        let (nx, ny, nz) = (
            _mm256_mul_ps(dx, inv_len),
            _mm256_mul_ps(dy, inv_len),
            _mm256_mul_ps(dz, inv_len),
        );
        let cval = _mm256_sub_ps(_mm256_mul_ps(len2, inv_len), _mm256_loadu_ps(c.rest.add(i)));
        let lambda = if FIRST {
            _mm256_setzero_ps()
        } else {
            _mm256_loadu_ps(c.lambda.add(i))
        };
        let n_moved = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(nx, mx), _mm256_mul_ps(ny, my)),
            _mm256_mul_ps(nz, mz),
        );
        let num = _mm256_sub_ps(
            _mm256_sub_ps(
                _mm256_mul_ps(_mm256_set1_ps(-k), cval),
                _mm256_mul_ps(_mm256_loadu_ps(c.alpha_t.add(i)), lambda),
            ),
            _mm256_mul_ps(_mm256_loadu_ps(c.gamma.add(i)), n_moved),
        );
        let dl = _mm256_and_ps(ok, _mm256_mul_ps(num, _mm256_loadu_ps(c.inv_denom.add(i))));
        _mm256_storeu_ps(c.lambda.add(i), _mm256_add_ps(lambda, dl));

        let (sa, sb) = (_mm256_mul_ps(wa, dl), _mm256_mul_ps(wb, dl));
        let out_a = untranspose8([
            _mm256_add_ps(dax, _mm256_mul_ps(nx, sa)),
            _mm256_add_ps(day, _mm256_mul_ps(ny, sa)),
            _mm256_add_ps(daz, _mm256_mul_ps(nz, sa)),
            daw,
        ]);
        let out_b = untranspose8([
            _mm256_sub_ps(dbx, _mm256_mul_ps(nx, sb)),
            _mm256_sub_ps(dby, _mm256_mul_ps(ny, sb)),
            _mm256_sub_ps(dbz, _mm256_mul_ps(nz, sb)),
            dbw,
        ]);
        for j in 0..8 {
            _mm_storeu_ps(p.delta.add(ia[j]) as *mut f32, out_a[j]);
            _mm_storeu_ps(p.delta.add(ib[j]) as *mut f32, out_b[j]);
        }
    }
}
