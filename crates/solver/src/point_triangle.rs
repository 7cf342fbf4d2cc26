//! One particle against one triangle: the constraint of `sheets`'
//! contacts, in two verbs: [`hit`] (whether it touches, how deep) and
//! [`moves`] (the particle's and the corners' moves, found only for a
//! particle's deepest hit); the triangle comes as a [`Face`], found once a
//! substep. See the `sheets` module doc for the math.

use glam::Vec3;

use crate::real::{Real, V3, cross, dot, scale, sub};

/// How far outside a triangle (in barycentric units) a projection still
/// counts as inside.
pub const EDGE_SLACK: f32 = 0.05;

/// Coulomb friction coefficient μ between a particle and a sheet.
pub const FRICTION: f32 = 0.4;

/// One particle against one triangle.
pub(crate) struct Touch {
    /// The particle's move.
    pub push: Vec3,
    /// The corners' moves.
    pub corners: [Vec3; 3],
}

/// A triangle as [`hit`] needs it, found once a substep per triangle
/// (`Sheets::build`) rather than once per particle that might touch it:
/// its unit normal now and its normal (of any length) at the start of
/// the substep, its first corner then and now, and its edges' products
/// for barycentric coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    n: Vec3,
    n0: Vec3,
    now0: Vec3,
    was0: Vec3,
    e0: Vec3,
    e1: Vec3,
    d00: f32,
    d01: f32,
    d11: f32,
    det: f32,
}

/// Floats in a face's [`Face::columns`].
pub(crate) const FACE_COLUMNS: usize = 22;

impl Face {
    /// The face of a triangle that moved `was` → `now`; None for a
    /// degenerate one (no normal, or no barycentric coordinates).
    #[inline(always)]
    pub fn of(was: [Vec3; 3], now: [Vec3; 3]) -> Option<Self> {
        let (was, now) = (
            [was[0].to_array(), was[1].to_array(), was[2].to_array()],
            [now[0].to_array(), now[1].to_array(), now[2].to_array()],
        );
        Self::from_columns(&Self::columns::<f32>(was, now))
    }

    /// The faces of triangles that moved `was` → `now`, one per lane of
    /// `R`, as columns in the order of [`Face`]'s fields, with `det` NaN
    /// for a degenerate one: the one computation of a face, alone
    /// ([`Face::of`]) or in lanes (`exec::lanes::shape_lanes`), so either
    /// gives the same bits. The normal is normalized as glam's
    /// `try_normalize` does it (by the reciprocal of the length, which
    /// must be finite and positive).
    #[inline(always)]
    pub fn columns<R: Real>(was: [V3<R>; 3], now: [V3<R>; 3]) -> [R; FACE_COLUMNS] {
        let zero = R::splat(0.0);
        let (e0, e1) = (sub(now[1], now[0]), sub(now[2], now[0]));
        let raw = cross(e0, e1);
        let rcp = R::splat(1.0) / dot(raw, raw).sqrt();
        let n = scale(raw, rcp);
        let normal = R::both(rcp.finite(), rcp.gt(zero));
        // Only the sign of a distance along the old normal is used (the
        // side a particle started on), so it is left at its length; it is
        // degenerate where normalizing it would fail.
        let n0 = cross(sub(was[1], was[0]), sub(was[2], was[0]));
        let n0_length_squared = dot(n0, n0);
        let turned = R::both(n0_length_squared.gt(zero), n0_length_squared.finite());
        let (d00, d01, d11) = (dot(e0, e0), dot(e0, e1), dot(e1, e1));
        let det = d00 * d11 - d01 * d01;
        // det > 1e-12·d00·d11 and finite (where that threshold is NaN, so
        // is det, or it is infinite).
        let solvable = R::both(det.gt(R::splat(1e-12) * d00 * d11), det.finite());
        let det = R::select(
            R::both(normal, R::both(turned, solvable)),
            det,
            R::splat(f32::NAN),
        );
        let [now0, was0] = [now[0], was[0]];
        [
            n[0], n[1], n[2], n0[0], n0[1], n0[2], now0[0], now0[1], now0[2], was0[0], was0[1],
            was0[2], e0[0], e0[1], e0[2], e1[0], e1[1], e1[2], d00, d01, d11, det,
        ]
    }

    /// The face of [`Face::columns`] for one triangle.
    #[inline(always)]
    pub fn from_columns(c: &[f32; FACE_COLUMNS]) -> Option<Self> {
        let v = |k: usize| Vec3::new(c[k], c[k + 1], c[k + 2]);
        (!c[21].is_nan()).then(|| Self {
            n: v(0),
            n0: v(3),
            now0: v(6),
            was0: v(9),
            e0: v(12),
            e1: v(15),
            d00: c[18],
            d01: c[19],
            d11: c[20],
            det: c[21],
        })
    }

    /// Its unit normal now.
    pub fn normal(&self) -> Vec3 {
        self.n
    }

    /// Barycentric coordinates of `q`'s projection on it now.
    fn barycentric(&self, q: Vec3) -> [f32; 3] {
        let d = q - self.now0;
        let (d20, d21) = (d.dot(self.e0), d.dot(self.e1));
        let v = (self.d11 * d20 - self.d01 * d21) / self.det;
        let w = (self.d00 * d21 - self.d01 * d20) / self.det;
        [1.0 - v - w, v, w]
    }
}

/// Where a particle touches a triangle: how deep, on which side, at which
/// barycentric point, and the constraint's denominator.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    /// How far the particle is inside the contact distance (m).
    pub depth: f32,
    side: f32,
    b: [f32; 3],
    denom: f32,
}

impl Hit {
    /// The corners' moves, of inverse masses `wt`, along the face's normal
    /// `n` alone (no friction): their share of the contact's normal
    /// correction, as in [`moves`].
    pub fn corner_moves(&self, n: Vec3, wt: [f32; 3]) -> [Vec3; 3] {
        let dir = n * (self.side * self.depth / self.denom);
        let corner = |k: usize| -dir * (self.b[k] * wt[k]);
        [corner(0), corner(1), corner(2)]
    }

    /// The particle's move out along `n` when the triangle cannot move.
    pub fn full_push(&self, n: Vec3) -> Vec3 {
        n * (self.side * self.depth)
    }
}

/// Whether a particle that moved `from` → `to` touches triangle `f` (see
/// the module doc); `reach` = r + r_t, `wp` and `wt` the inverse masses
/// (the corners' read only for a touch: most candidates miss).
/// Only the deepest of a particle's hits gets its moves ([`moves`]).
#[inline(always)]
pub(crate) fn hit(
    from: Vec3,
    to: Vec3,
    f: &Face,
    reach: f32,
    wp: f32,
    wt: impl FnOnce() -> [f32; 3],
) -> Option<Hit> {
    let (d0, d1) = ((from - f.was0).dot(f.n0), (to - f.now0).dot(f.n));
    let side = if d0 != 0.0 { d0.signum() } else { d1.signum() };
    let depth = reach - side * d1;
    if depth <= 0.0 {
        return None;
    }
    let b = f.barycentric(to);
    if b.iter().any(|&x| x < -EDGE_SLACK) {
        return None;
    }
    let wt = wt();
    let denom = wp + b[0] * b[0] * wt[0] + b[1] * b[1] * wt[1] + b[2] * b[2] * wt[2];
    if denom <= 0.0 || !denom.is_finite() {
        return None;
    }
    Some(Hit {
        depth,
        side,
        b,
        denom,
    })
}

/// The moves of a particle that moved `from` → `to` and of the corners of
/// a triangle that moved `was` → `now`, of normal `n`, at `hit`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn moves(
    hit: Hit,
    from: Vec3,
    to: Vec3,
    was: [Vec3; 3],
    now: [Vec3; 3],
    n: Vec3,
    wp: f32,
    wt: [f32; 3],
) -> Touch {
    let Hit {
        depth,
        side,
        b,
        denom,
    } = hit;
    // Coulomb friction in position form, as on the colliders: the
    // particle's motion relative to the triangle's point under it, along
    // the sheet, is removed up to μ × the normal correction.
    let under = |x: [Vec3; 3]| x[0] * b[0] + x[1] * b[1] + x[2] * b[2];
    let slid = (to - from) - (under(now) - under(was));
    let slid = slid - n * n.dot(slid);
    let (length, grip) = (slid.length(), FRICTION * depth);
    let held = if length <= grip {
        slid
    } else {
        slid * (grip / length)
    };
    let dir = (n * (side * depth) - held) / denom;
    let corner = |k: usize| -dir * (b[k] * wt[k]);
    Touch {
        push: dir * wp,
        corners: [corner(0), corner(1), corner(2)],
    }
}

/// [`hit`], then its [`moves`].
#[cfg(test)]
fn touch(
    (from, to): (Vec3, Vec3),
    (was, now): ([Vec3; 3], [Vec3; 3]),
    reach: f32,
    wp: f32,
    wt: [f32; 3],
) -> Option<Touch> {
    let f = Face::of(was, now)?;
    let h = hit(from, to, &f, reach, wp, || wt)?;
    Some(moves(h, from, to, was, now, f.normal(), wp, wt))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: [Vec3; 3] = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 1.0),
    ];

    #[test]
    fn a_particle_that_crossed_a_triangle_is_put_back_on_its_side() {
        let from = Vec3::new(0.2, 0.05, 0.2);
        let to = Vec3::new(0.2, -0.03, 0.2);
        let c = touch((from, to), (FLAT, FLAT), 0.01, 1.0, [0.0; 3]).expect("a contact");
        // Fixed corners: the particle alone moves, to 0.01 above.
        assert!((to + c.push - Vec3::new(0.2, 0.01, 0.2)).length() < 1e-6);
        assert!(c.corners.iter().all(|m| *m == Vec3::ZERO));
    }

    #[test]
    fn the_moves_conserve_momentum_and_close_the_gap() {
        let to = Vec3::new(0.25, 0.004, 0.5);
        let (wp, wt) = (2.0, [1.0, 0.5, 4.0]);
        let c = touch((to + Vec3::Y, to), (FLAT, FLAT), 0.01, wp, wt).expect("a contact");
        let momentum =
            c.push / wp + c.corners[0] / wt[0] + c.corners[1] / wt[1] + c.corners[2] / wt[2];
        assert!(momentum.length() < 1e-6, "{momentum}");
        // After the moves the particle is 0.01 above the moved triangle at
        // its barycentric point (0.25, 0.25, 0.5).
        let b = [0.25, 0.25, 0.5];
        let under: Vec3 = (0..3).map(|k| (FLAT[k] + c.corners[k]) * b[k]).sum();
        assert!(((to + c.push - under).y - 0.01).abs() < 1e-6);
    }

    #[test]
    fn no_contact_beside_the_triangle_or_clear_of_it() {
        let far_side = Vec3::new(0.9, 0.0, 0.9); // u = −0.8
        assert!(
            touch(
                (far_side + Vec3::Y, far_side),
                (FLAT, FLAT),
                0.01,
                1.0,
                [1.0; 3]
            )
            .is_none()
        );
        let clear = Vec3::new(0.2, 0.02, 0.2);
        assert!(touch((clear, clear), (FLAT, FLAT), 0.01, 1.0, [1.0; 3]).is_none());
        // A degenerate triangle never touches.
        let line = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        assert!(Face::of(line, line).is_none());
    }
}
