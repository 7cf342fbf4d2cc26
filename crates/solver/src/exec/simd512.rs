//! Distance links sixteen at a time with AVX-512 (detected at run time):
//! [`super::lanes`]' kernel in registers twice as wide as AVX's, with the
//! same IEEE operations per lane, so the same bits.

use std::arch::x86_64::*;
use std::ops::{Add, BitAnd, Div, Mul, Sub};

use glam::Vec4;

mod rows;

use super::lanes::{Lanes, project_lanes};
use super::links::{RawBatch, RawState};

/// Sixteen AVX-512 lanes; only ever made inside [`project16`], which runs
/// when the CPU has AVX-512F.
#[derive(Clone, Copy)]
struct Avx512(__m512);

/// `a & b` (AVX-512F has its logic on integers; the float forms need
/// AVX-512DQ). No closures here or below: a closure would not inherit
/// AVX-512 and would leave each intrinsic a call.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn and512(a: __m512, b: __m512) -> __m512 {
    // SAFETY: the caller's contract; the casts reinterpret bits.
    unsafe {
        _mm512_castsi512_ps(_mm512_and_si512(
            _mm512_castps_si512(a),
            _mm512_castps_si512(b),
        ))
    }
}

lane_ops!(Avx512: _mm512_add_ps _mm512_sub_ps _mm512_mul_ps _mm512_div_ps and512);

impl Lanes for Avx512 {
    const N: usize = 16;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: an Avx512 value exists only inside `project16`, which runs on CPUs with AVX-512F.
        unsafe { Avx512(_mm512_set1_ps(x)) }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: as for `splat`.
        unsafe { Avx512(_mm512_sqrt_ps(self.0)) }
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        // SAFETY: as for `splat`.
        unsafe {
            let m = _mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, o.0);
            Avx512(_mm512_castsi512_ps(_mm512_maskz_set1_epi32(m, -1)))
        }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: as for `splat`.
        unsafe { Avx512(_mm512_abs_ps(self.0)) }
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: as for `splat`; the casts reinterpret bits.
        unsafe {
            let (a, b) = (_mm512_castps_si512(self.0), _mm512_castps_si512(o.0));
            Avx512(_mm512_castsi512_ps(_mm512_andnot_si512(a, b)))
        }
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller gives 16 readable floats; as for `splat`.
        unsafe { Avx512(_mm512_loadu_ps(p)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller gives 16 writable floats; as for `splat`.
        unsafe { _mm512_storeu_ps(p, self.0) }
    }
    /// Rows j, j + 4, j + 8 and j + 12 share a 512-bit register: the 4×4
    /// transpose per 128-bit quarter then gives columns in lane order.
    #[inline(always)]
    unsafe fn gather(base: *const Vec4, idx: &[usize]) -> [Self; 4] {
        // SAFETY: the caller gives 16 valid indices; as for `splat`.
        unsafe {
            let row = |j: usize| _mm_loadu_ps(base.add(idx[j]) as *const f32);
            let mut r = [_mm512_setzero_ps(); 4];
            for (j, r) in r.iter_mut().enumerate() {
                let v = _mm512_castps128_ps512(row(j));
                let v = _mm512_insertf32x4::<1>(v, row(j + 4));
                let v = _mm512_insertf32x4::<2>(v, row(j + 8));
                *r = _mm512_insertf32x4::<3>(v, row(j + 12));
            }
            transpose4!(r, _mm512_unpacklo_ps, _mm512_unpackhi_ps, _mm512_shuffle_ps).map(Avx512)
        }
    }
    #[inline(always)]
    unsafe fn scatter(base: *mut Vec4, idx: &[usize], c: [Self; 4]) {
        // SAFETY: the caller gives 16 valid, distinct indices; as for `splat`.
        unsafe {
            let rows = transpose4!(
                c.map(|v| v.0),
                _mm512_unpacklo_ps,
                _mm512_unpackhi_ps,
                _mm512_shuffle_ps
            );
            let at = |j: usize| base.add(idx[j]) as *mut f32;
            for (j, r) in rows.iter().enumerate() {
                _mm_storeu_ps(at(j), _mm512_castps512_ps128(*r));
                _mm_storeu_ps(at(j + 4), _mm512_extractf32x4_ps::<1>(*r));
                _mm_storeu_ps(at(j + 8), _mm512_extractf32x4_ps::<2>(*r));
                _mm_storeu_ps(at(j + 12), _mm512_extractf32x4_ps::<3>(*r));
            }
        }
    }
}

/// Constraints `range` of `batch` sixteen at a time with AVX-512, as far
/// as whole groups of sixteen go; returns where the rest begins (for
/// [`super::simd::project8`]). A group whose ends each lie at one, or
/// every other, particle after another ([`rows::strided`]: a grid
/// cloth's links, as its builder orders them) loads them whole
/// ([`rows::project_strided`]); any other gathers them row by row.
///
/// # Safety
/// As for [`super::simd::project8`], and the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn project16<const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    range: std::ops::Range<usize>,
    p: RawState,
    k: f32,
) -> usize {
    let c = batch.columns();
    let mut i = range.start;
    while i + 16 <= range.end {
        // SAFETY: lanes i..i+16 are in `range`; the caller's contract.
        unsafe {
            match (rows::strided(c.a.add(i)), rows::strided(c.b.add(i))) {
                (Some(a), Some(b)) => rows::project_strided::<FIRST, SLACK>(batch, i, (a, b), p, k),
                _ => project_lanes::<Avx512, FIRST, SLACK>(batch, i, p, k),
            }
        }
        i += 16;
    }
    i
}
