//! Numbers a kernel can be written once for: `f32`, and registers of
//! several f32 lanes (`exec::simd`'s SSE and AVX) that run one
//! constraint per lane.
//!
//! A kernel written on [`Real`] does the same IEEE operations in the same
//! order on every implementation — no fused multiply-add, IEEE division
//! and square root, branches as lane selects — so a constraint gets the
//! same bits whether it went through a lane or alone, and so whichever
//! thread's share it fell in.

use std::ops::{Add, Div, Mul, Sub};

/// An f32, or several in lanes.
pub(crate) trait Real:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// True or false per lane.
    type Mask: Copy;
    fn splat(x: f32) -> Self;
    fn sqrt(self) -> Self;
    /// `self > other` per lane (false where either is NaN).
    fn gt(self, other: Self) -> Self::Mask;
    /// Both masks.
    fn both(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `yes` where `mask`, `no` elsewhere, bit for bit.
    fn select(mask: Self::Mask, yes: Self, no: Self) -> Self;
    /// `self` with its sign bit cleared.
    fn abs(self) -> Self;
    /// The magnitude of `self` with the sign bit of `sign`.
    fn copysign(self, sign: Self) -> Self;

    /// The smaller of `self` and `other` (`other` when either is NaN).
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        Self::select(other.gt(self), self, other)
    }

    /// The larger of `self` and `other` (`other` when either is NaN).
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        Self::select(self.gt(other), self, other)
    }

    /// `self` finite per lane.
    #[inline(always)]
    fn finite(self) -> Self::Mask {
        Self::splat(f32::INFINITY).gt(self.abs())
    }
}

impl Real for f32 {
    type Mask = bool;
    #[inline(always)]
    fn splat(x: f32) -> Self {
        x
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn gt(self, other: Self) -> bool {
        self > other
    }
    #[inline(always)]
    fn both(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn select(mask: bool, yes: Self, no: Self) -> Self {
        if mask { yes } else { no }
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        f32::copysign(self, sign)
    }
}

/// A point or vector of lanes: x, y and z.
pub(crate) type V3<R> = [R; 3];

#[inline(always)]
pub(crate) fn sub<R: Real>(a: V3<R>, b: V3<R>) -> V3<R> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline(always)]
pub(crate) fn add<R: Real>(a: V3<R>, b: V3<R>) -> V3<R> {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

#[inline(always)]
pub(crate) fn scale<R: Real>(a: V3<R>, s: R) -> V3<R> {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// (x·x′ + y·y′) + z·z′.
#[inline(always)]
pub(crate) fn dot<R: Real>(a: V3<R>, b: V3<R>) -> R {
    (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]
}

#[inline(always)]
pub(crate) fn cross<R: Real>(a: V3<R>, b: V3<R>) -> V3<R> {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Zero where not `mask`.
#[inline(always)]
pub(crate) fn keep<R: Real>(mask: R::Mask, a: V3<R>) -> V3<R> {
    // No closures in a kernel: they would not inherit its target features.
    let zero = R::splat(0.0);
    [
        R::select(mask, a[0], zero),
        R::select(mask, a[1], zero),
        R::select(mask, a[2], zero),
    ]
}
