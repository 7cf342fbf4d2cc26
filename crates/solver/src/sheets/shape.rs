//! A triangle as the sheets' contacts test it in a substep ([`Shape`]),
//! found by one computation written once on [`Real`] ([`columns`]), so a
//! triangle's shape has the same bits whether it was found alone
//! ([`super::Sheets::shape`]) or with seven others in AVX lanes
//! (`exec::simd::shapes8`).

use glam::Vec3;

use crate::point_triangle::{FACE_COLUMNS, Face};
use crate::real::{Real, V3, dot, sub};

/// Floats in a [`Shape`].
pub(crate) const SHAPE_COLUMNS: usize = 32;

/// Where each part of a [`Shape`] starts.
const LO: usize = 0;
const HI: usize = 3;
const RADIUS: usize = 6;
const MID: usize = 7;
const FACE: usize = 10;

/// A triangle this substep (see [`super::Sheets::shape`]), as 32 floats
/// in a row, two cache lines, so that lanes store eight triangles' shapes
/// as rows: the box around its corners at the start of the substep and
/// now (low and high corners) and the mean radius of its corners (m) — the
/// cheap test every candidate meets first —, its centroid now, and what
/// [`crate::point_triangle::hit`] needs of it ([`Face::columns`]; a
/// degenerate triangle has none).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Shape(pub [f32; SHAPE_COLUMNS]);

impl Default for Shape {
    /// No face, a box and centroid at the origin.
    fn default() -> Self {
        let mut c = [0.0; SHAPE_COLUMNS];
        c[SHAPE_COLUMNS - 1] = f32::NAN;
        Self(c)
    }
}

impl Shape {
    /// The box (low and high corners) and the corners' mean radius (m).
    #[inline(always)]
    pub fn bound(&self) -> (Vec3, Vec3, f32) {
        (self.v(LO), self.v(HI), self.0[RADIUS])
    }

    /// The centroid now.
    #[inline(always)]
    pub fn mid(&self) -> Vec3 {
        self.v(MID)
    }

    /// The face; None for a degenerate triangle.
    #[inline(always)]
    pub fn face(&self) -> Option<Face> {
        let (_, face) = self.0.split_first_chunk::<FACE>()?;
        Face::from_columns(face.first_chunk::<FACE_COLUMNS>()?)
    }

    #[inline(always)]
    fn v(&self, k: usize) -> Vec3 {
        Vec3::new(self.0[k], self.0[k + 1], self.0[k + 2])
    }
}

/// The centroid of triangles whose corners are at `now`, one per lane,
/// and the squared distance from it to the farthest corner: the part of
/// [`columns`] that sizes the hash's cells, alone for the substeps that
/// need no other part of most triangles' shapes (`exec::contacts`).
#[inline(always)]
pub(crate) fn mid_far<R: Real>(now: [V3<R>; 3]) -> (V3<R>, R) {
    let third = R::splat(3.0);
    let mut mid = now[0];
    for a in 0..3 {
        mid[a] = (now[0][a] + now[1][a] + now[2][a]) / third;
    }
    let mut far = R::splat(0.0);
    for corner in now {
        let d = sub(corner, mid);
        far = dot(d, d).max(far);
    }
    (mid, far)
}

/// The [`Shape`]s of triangles whose corners moved `was` → `now`, of radii
/// `radius`, one triangle per lane, as columns in a shape's order; and the
/// squared distance from each centroid to its farthest corner (they size
/// the hash's cells). The box is folded from +∞ and −∞ corner
/// by corner with [`Real::min`] and [`Real::max`] (which differ from
/// `f32::min` only in the sign of an equal zero: the box is only
/// compared).
#[inline(always)]
pub(crate) fn columns<R: Real>(
    was: [V3<R>; 3],
    now: [V3<R>; 3],
    radius: [R; 3],
) -> ([R; SHAPE_COLUMNS], R) {
    let third = R::splat(3.0);
    let (mid, far) = mid_far(now);
    let mut lo = [R::splat(f32::INFINITY); 3];
    let mut hi = [R::splat(f32::NEG_INFINITY); 3];
    for corner in [was[0], was[1], was[2], now[0], now[1], now[2]] {
        for a in 0..3 {
            lo[a] = corner[a].min(lo[a]);
            hi[a] = corner[a].max(hi[a]);
        }
    }
    let mut c = [R::splat(0.0); SHAPE_COLUMNS];
    c[LO..LO + 3].copy_from_slice(&lo);
    c[HI..HI + 3].copy_from_slice(&hi);
    c[RADIUS] = (radius[0] + radius[1] + radius[2]) / third;
    c[MID..MID + 3].copy_from_slice(&mid);
    c[FACE..].copy_from_slice(&Face::columns(was, now));
    (c, far)
}
