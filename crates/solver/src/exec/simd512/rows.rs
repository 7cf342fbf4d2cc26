//! [`super::project16`]'s groups whose particles' rows load whole: a
//! group of 16 links whose ends a, and ends b, each lie one after another
//! or every other particle (a grid cloth's links as its builder orders
//! them). Its 16 rows of a table are 4 loads, or 8 masked ones, instead of
//! 16 row loads and 12 inserts; the transpose then gives the columns in
//! its own lane order ([`order`]), and the links' own columns are put in
//! that order to match.

use std::arch::x86_64::*;

use glam::Vec4;

use super::Avx512;
use crate::exec::lanes::{Lanes, update};
use crate::exec::links::{RawBatch, RawState};

/// Where a group's 16 ends lie: (the first one's particle, the step
/// between them, 1 or 2).
pub(super) type Strided = (usize, usize);

/// The layout of the 16 indices at `idx`, when they are `first + step·j`
/// with a step of 1 or 2.
///
/// # Safety
/// 16 readable indices at `idx`; the CPU has AVX-512F.
#[inline(always)]
pub(super) unsafe fn strided(idx: *const u32) -> Option<Strided> {
    // SAFETY: the caller's contract.
    unsafe {
        let (first, step) = (*idx, (*idx.add(1)).wrapping_sub(*idx));
        if step != 1 && step != 2 {
            return None;
        }
        let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        let steps = if step == 1 {
            iota
        } else {
            _mm512_add_epi32(iota, iota)
        };
        let want = _mm512_add_epi32(_mm512_set1_epi32(first as i32), steps);
        let have = _mm512_loadu_si512(idx as *const __m512i);
        (_mm512_cmpeq_epi32_mask(have, want) == 0xFFFF).then_some((first as usize, step as usize))
    }
}

/// Blocks 0 and 2 of a 512-bit register: the rows of every other
/// particle, two to a 256-bit half.
const EVEN_ROWS: __mmask16 = 0x0F0F;

/// The 16 rows (x, y, z, w) of particles `first + step·j` of `base`, four
/// to a register in order: register r holds rows 4r .. 4r + 4. With a step
/// of 2 only the group's own rows are read (masked loads).
///
/// # Safety
/// Those 16 particles are in the table; the CPU has AVX-512F.
#[inline(always)]
unsafe fn load_rows(base: *const Vec4, (first, step): Strided) -> [__m512; 4] {
    // SAFETY: the caller's contract; a masked load touches only the rows
    // of its mask, all of them particles of the group.
    unsafe {
        let p = base.add(first) as *const f32;
        let mut r = [_mm512_setzero_ps(); 4];
        for (k, r) in r.iter_mut().enumerate() {
            *r = if step == 1 {
                _mm512_loadu_ps(p.add(16 * k))
            } else {
                let lo = _mm512_maskz_loadu_ps(EVEN_ROWS, p.add(32 * k));
                let hi = _mm512_maskz_loadu_ps(EVEN_ROWS, p.add(32 * k + 16));
                _mm512_shuffle_f32x4::<0x88>(lo, hi)
            };
        }
        r
    }
}

/// The inverse of [`load_rows`]: writes only the group's 16 rows.
///
/// # Safety
/// As for [`load_rows`], and no other thread touches those particles.
#[inline(always)]
unsafe fn store_rows(base: *mut Vec4, (first, step): Strided, r: [__m512; 4]) {
    // SAFETY: the caller's contract; a masked store writes only the rows
    // of its mask.
    unsafe {
        let p = base.add(first) as *mut f32;
        for (k, &r) in r.iter().enumerate() {
            if step == 1 {
                _mm512_storeu_ps(p.add(16 * k), r);
            } else {
                let lo = _mm512_shuffle_f32x4::<0x50>(r, r);
                let hi = _mm512_shuffle_f32x4::<0xFA>(r, r);
                _mm512_mask_storeu_ps(p.add(32 * k), EVEN_ROWS, lo);
                _mm512_mask_storeu_ps(p.add(32 * k + 16), EVEN_ROWS, hi);
            }
        }
    }
}

/// Registers of rows in order ([`load_rows`]) ↔ columns x, y, z, w: the
/// 4×4 transpose within each 128-bit quarter, its own inverse. Lane
/// 4q + m of a column then holds row 4m + q ([`order`]).
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn transpose(r: [__m512; 4]) -> [__m512; 4] {
    // SAFETY: the caller's contract.
    unsafe { transpose4!(r, _mm512_unpacklo_ps, _mm512_unpackhi_ps, _mm512_shuffle_ps) }
}

/// The lane order of [`transpose`]'s columns: lane l holds link
/// 4·(l mod 4) + l div 4 of the group, a permutation that
/// is its own inverse; the links' own columns are put in that order and
/// λ back.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn order(v: __m512) -> __m512 {
    // SAFETY: the caller's contract.
    unsafe {
        let order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        _mm512_permutexvar_ps(order, v)
    }
}

/// Rows in order → columns in [`order`]'s lane order.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn columns(r: [__m512; 4]) -> [Avx512; 4] {
    // SAFETY: the caller's contract.
    let c = unsafe { transpose(r) };
    [Avx512(c[0]), Avx512(c[1]), Avx512(c[2]), Avx512(c[3])]
}

/// The inverse of [`columns`].
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn rows(c: [Avx512; 4]) -> [__m512; 4] {
    // SAFETY: the caller's contract.
    unsafe { transpose([c[0].0, c[1].0, c[2].0, c[3].0]) }
}

/// Links `i .. i + 16` of a per-link column, in [`order`]'s lane order.
///
/// # Safety
/// 16 readable floats at `col + i`; the CPU has AVX-512F.
#[inline(always)]
unsafe fn own(col: *const f32, i: usize) -> Avx512 {
    // SAFETY: the caller's contract.
    unsafe { Avx512(order(_mm512_loadu_ps(col.add(i)))) }
}

/// Links `i .. i + 16` of `batch`, whose ends a and b lie as `a` and `b`
/// say ([`strided`]): `project_lanes`' update on rows loaded whole instead
/// of gathered one by one (4 or 8 loads a table instead of 16, no
/// inserts), the same bits.
///
/// # Safety
/// As for [`super::project16`]'s group `i`, whose ends lie at `a` and `b`.
#[inline(always)]
pub(super) unsafe fn project_strided<const FIRST: bool, const SLACK: bool>(
    batch: &RawBatch,
    i: usize,
    (a, b): (Strided, Strided),
    p: RawState,
    k: f32,
) {
    // SAFETY: the caller's contract: the rows are the group's particles,
    // 16 links' columns are at `i`.
    unsafe {
        let c = batch.columns();
        let pa = columns(load_rows(p.prev.ptr(), a));
        let pb = columns(load_rows(p.prev.ptr(), b));
        let da = columns(load_rows(p.delta.ptr(), a));
        let db = columns(load_rows(p.delta.ptr(), b));
        let lambda = if FIRST {
            Avx512::splat(0.0)
        } else {
            own(c.lambda, i)
        };
        let links = [
            own(c.rest, i),
            lambda,
            own(c.alpha_t, i),
            own(c.inv_denom, i),
        ];
        let (lambda, da, db) = update::<Avx512, SLACK>([pa, pb, da, db], links, k);
        _mm512_storeu_ps(c.lambda.add(i), order(lambda.0));
        store_rows(p.delta.ptr(), a, rows(da));
        store_rows(p.delta.ptr(), b, rows(db));
    }
}

#[cfg(test)]
mod tests {
    use super::strided;

    #[test]
    fn links_side_by_side_or_every_other_are_found_and_no_others() {
        if !std::is_x86_feature_detected!("avx512f") {
            println!("no AVX-512 on this CPU: nothing to test");
            return;
        }
        let run = |f: fn(u32) -> u32| (0..16).map(f).collect::<Vec<u32>>();
        // SAFETY: 16 indices each; the CPU has AVX-512F.
        let found = |idx: &[u32]| unsafe { strided(idx.as_ptr()) };
        assert_eq!(found(&run(|j| 7 + j)), Some((7, 1)));
        assert_eq!(found(&run(|j| 128 + 2 * j)), Some((128, 2)));
        for other in [
            run(|j| 3 * j),
            run(|j| if j == 15 { 99 } else { j }),
            run(|j| 2 * j + (j == 9) as u32),
            run(|j| 40 - j),
        ] {
            assert_eq!(found(&other), None, "{other:?}");
        }
    }
}
