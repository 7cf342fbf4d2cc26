//! The lanes on x86-64: distance links 8 at a time with AVX (detected at
//! run time) and 4 with SSE (every x86-64 has it), hinges 8 at a time
//! with AVX (16 links with AVX-512: `super::simd512`). The kernels are
//! [`super::lanes`]'.

use std::arch::x86_64::*;
use std::ops::Range;
use std::ops::{Add, BitAnd, Div, Mul, Sub};

use glam::Vec4;

use super::kinds::Ctx;
use super::lanes::{Lanes, fars_lanes, project_hinges, project_lanes, shapes_lanes};
use super::links::{RawBatch, RawState};
use super::quads::RawQuads;
use crate::quads::QuadKind;
use crate::real::Real;
use crate::sheets::Shape;

/// Four SSE lanes.
#[derive(Clone, Copy)]
struct Sse(__m128);

/// Eight AVX lanes; only ever made inside functions compiled for AVX
/// ([`project8`], [`project_hinges8`], [`shapes8`]), which run when the
/// CPU has it.
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
        // SAFETY: an Avx value exists only inside AVX code, which runs on CPUs with AVX.
        unsafe { Avx(_mm256_set1_ps(x)) }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // SAFETY: an Avx value exists only inside AVX code, which runs on CPUs with AVX.
        unsafe { Avx(_mm256_sqrt_ps(self.0)) }
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        // SAFETY: an Avx value exists only inside AVX code, which runs on CPUs with AVX.
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
    /// Each 128-bit half transposed (rows 0–3 low, 4–7 high), then the
    /// halves of columns 0–3 and 4–7 joined.
    #[inline(always)]
    unsafe fn store_rows(c: &[Self], rows: *mut f32, stride: usize) {
        // SAFETY: the caller gives 8 columns and 8 writable rows; Avx is
        // only used on CPUs with AVX.
        unsafe {
            let a = transpose4!(
                [c[0].0, c[1].0, c[2].0, c[3].0],
                _mm256_unpacklo_ps,
                _mm256_unpackhi_ps,
                _mm256_shuffle_ps
            );
            let b = transpose4!(
                [c[4].0, c[5].0, c[6].0, c[7].0],
                _mm256_unpacklo_ps,
                _mm256_unpackhi_ps,
                _mm256_shuffle_ps
            );
            for j in 0..4 {
                _mm256_storeu_ps(
                    rows.add(j * stride),
                    _mm256_permute2f128_ps::<0x20>(a[j], b[j]),
                );
                let high = _mm256_permute2f128_ps::<0x31>(a[j], b[j]);
                _mm256_storeu_ps(rows.add((j + 4) * stride), high);
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

/// Triangles `range` of `tri` eight at a time with AVX
/// ([`shapes_lanes`]); returns where the rest begins.
///
/// # Safety
/// As for [`shapes_lanes`], and the CPU supports AVX.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn shapes8(
    tri: &[[u32; 3]],
    range: Range<usize>,
    particles: (*const Vec4, *const Vec4, *const f32),
    out: (*mut Shape, *mut f32),
) -> usize {
    // SAFETY: the caller's contract.
    unsafe { shapes_lanes::<Avx>(tri, range, particles, out) }
}

/// Triangles `range` of `tri` eight at a time with AVX: only their
/// farthest corners ([`fars_lanes`]); returns where the rest begins.
///
/// # Safety
/// As for [`fars_lanes`], and the CPU supports AVX.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn fars8(
    tri: &[[u32; 3]],
    range: Range<usize>,
    particles: (*const Vec4, *const Vec4),
    far: *mut f32,
) -> usize {
    // SAFETY: the caller's contract.
    unsafe { fars_lanes::<Avx>(tri, range, particles, far) }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;
    use crate::lcg::Lcg;
    use crate::sheets::shape::columns;

    /// Equal bits, or both NaN (a NaN's payload is not part of the claim).
    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn shapes_and_fars_in_avx_lanes_have_the_bits_of_those_found_alone() {
        if !std::is_x86_feature_detected!("avx") {
            return; // nothing to compare: every shape is found alone
        }
        let mut rng = Lcg(7);
        let n = 120;
        let mut v = |scale: f32| Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * scale;
        let mut prev: Vec<Vec4> = (0..n).map(|_| v(2.0).extend(1.0)).collect();
        let mut delta: Vec<Vec4> = (0..n).map(|_| v(0.01).extend(0.0)).collect();
        // Corners that make degenerate triangles (no normal, no
        // barycentric coordinates, an old normal of zero), far ones whose
        // products overflow, and a NaN.
        prev[1] = prev[0];
        delta[1] = delta[0];
        prev[2] = prev[0] + (prev[1] - prev[0]) * 2.0;
        prev[5] = Vec4::new(3e19, -2e19, 1e19, 1.0);
        prev[6] = Vec4::new(-1e-20, 1e-20, 0.0, 1.0);
        delta[6] = Vec4::ZERO;
        prev[7] = Vec4::new(f32::NAN, 0.0, 0.0, 1.0);
        let radius: Vec<f32> = (0..n).map(|k| 0.01 + 0.001 * k as f32).collect();
        let mut tri: Vec<[u32; 3]> = (0..61)
            .map(|_| std::array::from_fn(|_| ((rng.next() + 0.5) * n as f64) as u32 % n as u32))
            .collect();
        tri[..5].copy_from_slice(&[[0, 1, 3], [0, 2, 4], [5, 8, 9], [6, 10, 11], [7, 12, 13]]);
        let mut shapes = vec![Shape::default(); tri.len()];
        let mut far = vec![0.0f32; tri.len()];
        let particles = (prev.as_ptr(), delta.as_ptr(), radius.as_ptr());
        let out = (shapes.as_mut_ptr(), far.as_mut_ptr());
        // SAFETY: every corner indexes the tables; the CPU has AVX.
        let rest = unsafe { shapes8(&tri, 0..tri.len(), particles, out) };
        assert_eq!(rest, tri.len() - tri.len() % 8);
        for (t, ids) in tri[..rest].iter().enumerate() {
            let at = |i: u32| prev[i as usize];
            let was = ids.map(|i| at(i).truncate().to_array());
            let now = ids.map(|i| (at(i) + delta[i as usize]).truncate().to_array());
            let (alone, alone_far) = columns::<f32>(was, now, ids.map(|i| radius[i as usize]));
            for (k, (&lanes, &alone)) in shapes[t].0.iter().zip(&alone).enumerate() {
                assert!(
                    same(lanes, alone),
                    "triangle {t}, column {k}: {lanes} in lanes, {alone} alone"
                );
            }
            assert!(same(far[t], alone_far), "triangle {t}: far");
        }
        assert!(shapes[0].face().is_none() && shapes[1].face().is_none());
        assert!(shapes[5].face().is_some(), "a plain triangle has a face");
        // `far` alone, as a substep whose lists hold few triangles finds it.
        let mut fars = vec![-1.0f32; tri.len()];
        let particles = (prev.as_ptr(), delta.as_ptr());
        // SAFETY: as above.
        assert_eq!(rest, unsafe {
            fars8(&tri, 0..tri.len(), particles, fars.as_mut_ptr())
        });
        for t in 0..rest {
            assert!(same(fars[t], far[t]), "triangle {t}: far alone");
        }
    }
}
