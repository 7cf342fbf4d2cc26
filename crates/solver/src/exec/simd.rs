//! The lanes on x86-64: distance links 8 at a time with AVX (detected at
//! run time) and 4 with SSE (every x86-64 has it), hinges 8 at a time
//! with AVX (16 links with AVX-512: `super::simd512`). The kernels are
//! [`super::lanes`]'.

use std::arch::x86_64::*;
use std::ops::Range;
use std::ops::{Add, BitAnd, Div, Mul, Sub};

use glam::Vec4;

use super::kinds::Ctx;
use super::lanes::{Lanes, project_hinges, project_lanes};
use super::links::{RawBatch, RawState};
use super::quads::RawQuads;
use crate::quads::QuadKind;
use crate::real::Real;

/// Four SSE lanes.
#[derive(Clone, Copy)]
struct Sse(__m128);

/// Eight AVX lanes; only ever made inside [`project8`], which runs when
/// the CPU has AVX.
#[derive(Clone, Copy)]
struct Avx(__m256);

macro_rules! lane_ops {
    ($t:ident: $add:ident $sub:ident $mul:ident $div:ident $and:ident) => {
        impl Add for $t {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                // SAFETY: SSE is baseline on x86-64; an Avx or Avx512 value
                // exists only on a CPU with those instructions.
                unsafe { $t($add(self.0, o.0)) }
            }
        }
        impl Sub for $t {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                // SAFETY: SSE is baseline on x86-64; an Avx or Avx512 value
                // exists only on a CPU with those instructions.
                unsafe { $t($sub(self.0, o.0)) }
            }
        }
        impl Mul for $t {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                // SAFETY: SSE is baseline on x86-64; an Avx or Avx512 value
                // exists only on a CPU with those instructions.
                unsafe { $t($mul(self.0, o.0)) }
            }
        }
        impl Div for $t {
            type Output = Self;
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                // SAFETY: SSE is baseline on x86-64; an Avx or Avx512 value
                // exists only on a CPU with those instructions.
                unsafe { $t($div(self.0, o.0)) }
            }
        }
        impl BitAnd for $t {
            type Output = Self;
            #[inline(always)]
            fn bitand(self, o: Self) -> Self {
                // SAFETY: SSE is baseline on x86-64; an Avx or Avx512 value
                // exists only on a CPU with those instructions.
                unsafe { $t($and(self.0, o.0)) }
            }
        }
    };
}

lane_ops!(Sse: _mm_add_ps _mm_sub_ps _mm_mul_ps _mm_div_ps _mm_and_ps);
lane_ops!(Avx: _mm256_add_ps _mm256_sub_ps _mm256_mul_ps _mm256_div_ps _mm256_and_ps);

/// The 4×4 transpose of `_MM_TRANSPOSE4_PS`, per 128-bit half for AVX.
macro_rules! transpose4 {
    ($r:expr, $unpacklo:ident, $unpackhi:ident, $shuffle:ident) => {{
        let r = $r;
        let t0 = $unpacklo(r[0], r[1]);
        let t1 = $unpacklo(r[2], r[3]);
        let t2 = $unpackhi(r[0], r[1]);
        let t3 = $unpackhi(r[2], r[3]);
        [
            $shuffle::<0x44>(t0, t1),
            $shuffle::<0xEE>(t0, t1),
            $shuffle::<0x44>(t2, t3),
            $shuffle::<0xEE>(t2, t3),
        ]
    }};
}

impl Lanes for Sse {
    const N: usize = 4;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: SSE is baseline on x86-64.
        unsafe { Sse(_mm_set1_ps(x)) }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: SSE is baseline on x86-64.
        unsafe { Sse(_mm_sqrt_ps(self.0)) }
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        // SAFETY: SSE is baseline on x86-64.
        unsafe { Sse(_mm_cmpgt_ps(self.0, o.0)) }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: SSE is baseline on x86-64.
        unsafe { Sse(_mm_andnot_ps(_mm_set1_ps(-0.0), self.0)) }
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: SSE is baseline on x86-64.
        unsafe { Sse(_mm_andnot_ps(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller gives 4 readable floats; SSE is baseline on x86-64.
        unsafe { Sse(_mm_loadu_ps(p)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller gives 4 writable floats; SSE is baseline on x86-64.
        unsafe { _mm_storeu_ps(p, self.0) }
    }
    #[inline(always)]
    unsafe fn gather(base: *const Vec4, idx: &[usize]) -> [Self; 4] {
        // SAFETY: the caller guarantees the pointers and indices are valid (see the `# Safety` section).
        unsafe {
            let r: [__m128; 4] =
                std::array::from_fn(|j| _mm_loadu_ps(base.add(idx[j]) as *const f32));
            transpose4!(r, _mm_unpacklo_ps, _mm_unpackhi_ps, _mm_shuffle_ps).map(Sse)
        }
    }
    #[inline(always)]
    unsafe fn scatter(base: *mut Vec4, idx: &[usize], c: [Self; 4]) {
        // SAFETY: the caller guarantees the pointers and indices are valid (see the `# Safety` section).
        unsafe {
            let rows = transpose4!(
                c.map(|v| v.0),
                _mm_unpacklo_ps,
                _mm_unpackhi_ps,
                _mm_shuffle_ps
            );
            for j in 0..4 {
                _mm_storeu_ps(base.add(idx[j]) as *mut f32, rows[j]);
            }
        }
    }
}

impl Lanes for Avx {
    const N: usize = 8;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: an Avx value exists only inside `project8`, which runs on CPUs with AVX.
        unsafe { Avx(_mm256_set1_ps(x)) }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: an Avx value exists only inside `project8`, which runs on CPUs with AVX.
        unsafe { Avx(_mm256_sqrt_ps(self.0)) }
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        // SAFETY: an Avx value exists only inside `project8`, which runs on CPUs with AVX.
        unsafe { Avx(_mm256_cmp_ps::<_CMP_GT_OQ>(self.0, o.0)) }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        // SAFETY: as for `gt`.
        unsafe { Avx(_mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0)) }
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // SAFETY: as for `gt`.
        unsafe { Avx(_mm256_andnot_ps(self.0, o.0)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller gives 8 readable floats; Avx is only used on CPUs with AVX.
        unsafe { Avx(_mm256_loadu_ps(p)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller gives 8 writable floats; Avx is only used on CPUs with AVX.
        unsafe { _mm256_storeu_ps(p, self.0) }
    }
    /// Rows j and j + 4 share a 256-bit register: the 4×4 transpose per
    /// half then gives columns `[lane 0..3 | lane 4..7]`.
    #[inline(always)]
    unsafe fn gather(base: *const Vec4, idx: &[usize]) -> [Self; 4] {
        // SAFETY: the caller guarantees the pointers and indices are valid (see the `# Safety` section).
        unsafe {
            let row = |j: usize| _mm_loadu_ps(base.add(idx[j]) as *const f32);
            let r: [__m256; 4] = std::array::from_fn(|j| _mm256_set_m128(row(j + 4), row(j)));
            transpose4!(r, _mm256_unpacklo_ps, _mm256_unpackhi_ps, _mm256_shuffle_ps).map(Avx)
        }
    }
    #[inline(always)]
    unsafe fn scatter(base: *mut Vec4, idx: &[usize], c: [Self; 4]) {
        // SAFETY: the caller guarantees the pointers and indices are valid (see the `# Safety` section).
        unsafe {
            let rows = transpose4!(
                c.map(|v| v.0),
                _mm256_unpacklo_ps,
                _mm256_unpackhi_ps,
                _mm256_shuffle_ps
            );
            for j in 0..4 {
                _mm_storeu_ps(
                    base.add(idx[j]) as *mut f32,
                    _mm256_castps256_ps128(rows[j]),
                );
                _mm_storeu_ps(
                    base.add(idx[j + 4]) as *mut f32,
                    _mm256_extractf128_ps::<1>(rows[j]),
                );
            }
        }
    }
}

/// Constraints `i .. i + 4` with SSE.
///
/// # Safety
/// As for [`RawBatch::project`]; `i + 4` is within the batch.
#[inline(always)]
pub(crate) unsafe fn project4<const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    i: usize,
    p: RawState,
    k: f32,
) {
    // SAFETY: the caller's contract is project_lanes' contract.
    unsafe { project_lanes::<Sse, FIRST, SLACK>(batch, i, p, k) }
}

/// Constraints `range` of `batch` eight at a time with AVX, as far as
/// whole groups of eight go; returns where the rest begins. One call per
/// colour keeps the lanes' loop inside AVX code (a call per group of
/// eight cost the bench 5 %).
///
/// # Safety
/// As for [`project4`], for every group of eight in `range`, and the CPU
/// supports AVX.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn project8<const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    range: std::ops::Range<usize>,
    p: RawState,
    k: f32,
) -> usize {
    let mut i = range.start;
    while i + 8 <= range.end {
        // SAFETY: lanes i..i+8 are in `range`; the caller's contract.
        unsafe { project_lanes::<Avx, FIRST, SLACK>(batch, i, p, k) };
        i += 8;
    }
    i
}

impl Real for Avx {
    type Mask = Avx;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        <Avx as Lanes>::splat(x)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        <Avx as Lanes>::sqrt(self)
    }
    #[inline(always)]
    fn gt(self, other: Self) -> Avx {
        <Avx as Lanes>::gt(self, other)
    }
    #[inline(always)]
    fn both(a: Avx, b: Avx) -> Avx {
        a & b
    }
    #[inline(always)]
    fn select(mask: Avx, yes: Self, no: Self) -> Self {
        // SAFETY: an Avx value exists only where the CPU has AVX; a mask
        // lane is all ones or all zeros, so the blend picks whole lanes.
        unsafe { Avx(_mm256_blendv_ps(no.0, yes.0, mask.0)) }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        <Avx as Lanes>::abs(self)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        // SAFETY: as for `select`.
        unsafe {
            let bit = _mm256_set1_ps(-0.0);
            let magnitude = _mm256_andnot_ps(bit, self.0);
            Avx(_mm256_or_ps(magnitude, _mm256_and_ps(bit, sign.0)))
        }
    }
}

/// Quads `range` of colour `d`: each run of eight hinges in AVX lanes,
/// every other quad alone with [`RawQuads::project_one`] — the same
/// kernel, [`crate::dihedral::project`], so the same bits either way.
///
/// # Safety
/// As for [`RawQuads::project_one`] for every quad of `range`, and the
/// CPU supports AVX.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn project_hinges8(d: &RawQuads, range: Range<usize>, ctx: &Ctx, first: bool) {
    let mut c = range.start;
    while c < range.end {
        let mut eight = c + 8 <= range.end;
        let mut i = c;
        while eight && i < c + 8 {
            // SAFETY: quad i is in `range`.
            eight = unsafe { d.kind.get(i) } == QuadKind::Dihedral;
            i += 1;
        }
        if eight {
            // SAFETY: the caller's contract for quads c..c + 8, which are
            // hinges on distinct particles (`Quads::push` checks each).
            unsafe { project_hinges::<Avx>(d, c, ctx, first) };
            c += 8;
        } else {
            // SAFETY: the caller's contract for quad c.
            unsafe { d.project_one(c, ctx, first) };
            c += 1;
        }
    }
}
