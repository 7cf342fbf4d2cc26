//! The lanes in the browser: distance links and hinges 4 at a time with
//! wasm SIMD (`simd128`, which the web build enables for every browser
//! that runs WebAssembly SIMD: Chrome 91, Firefox 89, Safari 16.4 and
//! later). The kernels are [`super::lanes`]'; wasm's f32x4 arithmetic is
//! IEEE like its scalar f32, so a constraint gets the same bits in a lane
//! as alone.

use std::arch::wasm32::*;
use std::ops::{Add, BitAnd, Div, Mul, Range, Sub};

use glam::Vec4;

use super::kinds::Ctx;
use super::lanes::{Lanes, project_hinges, project_lanes, shapes_lanes};
use super::links::{RawBatch, RawState};
use super::quads::RawQuads;
use crate::quads::QuadKind;
use crate::real::Real;
use crate::sheets::Shape;

/// Four wasm SIMD lanes.
#[derive(Clone, Copy)]
pub(crate) struct W4(v128);

impl Add for W4 {
    type Output = Self;
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        W4(f32x4_add(self.0, o.0))
    }
}
impl Sub for W4 {
    type Output = Self;
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        W4(f32x4_sub(self.0, o.0))
    }
}
impl Mul for W4 {
    type Output = Self;
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        W4(f32x4_mul(self.0, o.0))
    }
}
impl Div for W4 {
    type Output = Self;
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        W4(f32x4_div(self.0, o.0))
    }
}
impl BitAnd for W4 {
    type Output = Self;
    #[inline(always)]
    fn bitand(self, o: Self) -> Self {
        W4(v128_and(self.0, o.0))
    }
}

/// The 4×4 transpose of rows `r` (SSE's `_MM_TRANSPOSE4_PS`).
#[inline(always)]
fn transpose(r: [v128; 4]) -> [v128; 4] {
    let t0 = i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]);
    let t1 = i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]);
    let t2 = i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]);
    let t3 = i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]);
    [
        i32x4_shuffle::<0, 1, 4, 5>(t0, t1),
        i32x4_shuffle::<2, 3, 6, 7>(t0, t1),
        i32x4_shuffle::<0, 1, 4, 5>(t2, t3),
        i32x4_shuffle::<2, 3, 6, 7>(t2, t3),
    ]
}

impl Lanes for W4 {
    const N: usize = 4;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        W4(f32x4_splat(x))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        W4(f32x4_sqrt(self.0))
    }
    #[inline(always)]
    fn gt(self, o: Self) -> Self {
        W4(f32x4_gt(self.0, o.0))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        W4(f32x4_abs(self.0))
    }
    #[inline(always)]
    fn and_not(self, o: Self) -> Self {
        // wasm's andnot(a, b) is a & !b.
        W4(v128_andnot(o.0, self.0))
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller gives 4 readable floats; wasm loads need no alignment.
        unsafe { W4(v128_load(p as *const v128)) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller gives 4 writable floats; wasm stores need no alignment.
        unsafe { v128_store(p as *mut v128, self.0) }
    }
    #[inline(always)]
    unsafe fn gather(base: *const Vec4, idx: &[usize]) -> [Self; 4] {
        // SAFETY: the caller gives 4 valid indices into `base`.
        unsafe {
            let row = |j: usize| v128_load(base.add(idx[j]) as *const v128);
            let t = transpose([row(0), row(1), row(2), row(3)]);
            [W4(t[0]), W4(t[1]), W4(t[2]), W4(t[3])]
        }
    }
    #[inline(always)]
    unsafe fn scatter(base: *mut Vec4, idx: &[usize], c: [Self; 4]) {
        // SAFETY: the caller gives 4 valid, distinct indices into `base`.
        unsafe {
            let rows = transpose([c[0].0, c[1].0, c[2].0, c[3].0]);
            for j in 0..4 {
                v128_store(base.add(idx[j]) as *mut v128, rows[j]);
            }
        }
    }
    #[inline(always)]
    unsafe fn store_rows(c: &[Self], rows: *mut f32, stride: usize) {
        // SAFETY: the caller gives 4 columns and 4 writable rows.
        unsafe {
            let r = transpose([c[0].0, c[1].0, c[2].0, c[3].0]);
            for (j, row) in r.into_iter().enumerate() {
                v128_store(rows.add(j * stride) as *mut v128, row);
            }
        }
    }
}

impl Real for W4 {
    type Mask = W4;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        <W4 as Lanes>::splat(x)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        <W4 as Lanes>::sqrt(self)
    }
    #[inline(always)]
    fn gt(self, other: Self) -> W4 {
        <W4 as Lanes>::gt(self, other)
    }
    #[inline(always)]
    fn both(a: W4, b: W4) -> W4 {
        a & b
    }
    #[inline(always)]
    fn select(mask: W4, yes: Self, no: Self) -> Self {
        W4(v128_bitselect(yes.0, no.0, mask.0))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        <W4 as Lanes>::abs(self)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        let bit = f32x4_splat(-0.0);
        W4(v128_bitselect(sign.0, self.0, bit))
    }
}

/// Links `range` of `batch` four at a time, as far as whole groups of
/// four go; returns where the rest begins.
///
/// # Safety
/// As for [`RawBatch::project`] for every group of four in `range`.
#[inline(always)]
pub(crate) unsafe fn project4<const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    range: Range<usize>,
    p: RawState,
    k: f32,
) -> usize {
    let mut i = range.start;
    while i + 4 <= range.end {
        // SAFETY: lanes i..i+4 are in `range`; the caller's contract.
        unsafe { project_lanes::<W4, FIRST, SLACK>(batch, i, p, k) };
        i += 4;
    }
    i
}

/// Quads `range` of colour `d`: each run of four hinges in lanes, every
/// other quad alone with [`RawQuads::project_one`] — the same kernel.
///
/// # Safety
/// As for [`RawQuads::project_one`] for every quad of `range`.
pub(crate) unsafe fn project_hinges4(d: &RawQuads, range: Range<usize>, ctx: &Ctx, first: bool) {
    let mut c = range.start;
    while c < range.end {
        let mut four = c + 4 <= range.end;
        let mut i = c;
        while four && i < c + 4 {
            // SAFETY: quad i is in `range`.
            four = unsafe { d.kind.get(i) } == QuadKind::Dihedral;
            i += 1;
        }
        if four {
            // SAFETY: the caller's contract for quads c..c + 4, which are
            // hinges on distinct particles (`World::add_quad` checks each).
            unsafe { project_hinges::<W4>(d, c, ctx, first) };
            c += 4;
        } else {
            // SAFETY: the caller's contract for quad c.
            unsafe { d.project_one(c, ctx, first) };
            c += 1;
        }
    }
}

/// Triangles `range` of `tri` four at a time ([`shapes_lanes`]);
/// returns where the rest begins.
///
/// # Safety
/// As for [`shapes_lanes`].
pub(crate) unsafe fn shapes4(
    tri: &[[u32; 3]],
    range: Range<usize>,
    particles: (*const Vec4, *const Vec4, *const f32),
    out: (*mut Shape, *mut f32),
) -> usize {
    // SAFETY: the caller's contract.
    unsafe { shapes_lanes::<W4>(tri, range, particles, out) }
}
