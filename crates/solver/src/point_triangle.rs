//! One particle against one triangle: the constraint of `sheets`'
//! contacts, in two verbs: [`hit`] (whether it touches, how deep) and
//! [`moves`] (the particle's and the corners' moves, found only for a
//! particle's deepest hit); the triangle comes as a [`Face`], found once a
//! substep. See the `sheets` module doc for the math.

use glam::Vec3;

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

impl Face {
    /// The face of a triangle that moved `was` → `now`; None for a
    /// degenerate one (no normal, or no barycentric coordinates).
    #[inline(always)]
    pub fn of(was: [Vec3; 3], now: [Vec3; 3]) -> Option<Self> {
        let n = (now[1] - now[0]).cross(now[2] - now[0]).try_normalize()?;
        // Only the sign of a distance along the old normal is used (the
        // side a particle started on), so it is left at its length; it is
        // degenerate where normalizing it would fail.
        let n0 = (was[1] - was[0]).cross(was[2] - was[0]);
        let n0_length_squared = n0.length_squared();
        if !(n0_length_squared > 0.0 && n0_length_squared.is_finite()) {
            return None;
        }
        let (e0, e1) = (now[1] - now[0], now[2] - now[0]);
        let (d00, d01, d11) = (e0.dot(e0), e0.dot(e1), e1.dot(e1));
        let det = d00 * d11 - d01 * d01;
        if det <= 1e-12 * d00 * d11 || !det.is_finite() {
            return None;
        }
        Some(Self {
            n,
            n0,
            now0: now[0],
            was0: was[0],
            e0,
            e1,
            d00,
            d01,
            d11,
            det,
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

/// Whether a particle may [`hit`] a triangle in any substep while it
/// and the triangle's corners stay within `margin` of where they were
/// when the lists were gathered (`sheets::cached`): `p` the particle's
/// anchor, `a` the corners' anchors, `reach` at least r + r_t. False only
/// where no hit can pass; it prunes what the lists' box test keeps beside
/// a flat sheet (a particle resting on a sheet touches the one triangle
/// under it, while the boxes of its neighbours, grown by the contact
/// distance, hold it too).
///
/// Why it holds, with every point within M of its anchor:
/// - a hit's projection q = Σ bₖ·nowₖ has bₖ ≥ −s ([`EDGE_SLACK`]), so
///   Σ|bₖ| ≤ 1 + 4s and q is within (1 + 4s)·M of Σ bₖ·aₖ, a point of
///   the anchored triangle grown by s (T′);
/// - the normal now, n, is within an angle θ of the anchored one, n_a:
///   n is square to the edges now, each within 2M of its anchored one eₖ,
///   so |n·eₖ| ≤ 2M; n·eₖ = sin θ·(u·eₖ) for a unit u in the anchored
///   plane, and the largest |u·eₖ| (the triangle's width across u) is at
///   least its least altitude h, so sin θ ≤ σ = 2M/h; while σ < 1 no
///   corner can cross the opposite edge, so θ < 90°;
/// - the particle's distance d₁ from the plane now is below the reach on
///   its side, and above −2κ: the side is read from the plane at the start
///   of the substep, and either plane's distance to a point within M of
///   `p` is within κ = 2M + |p − aₖ|·σ·(1 + σ²) of the anchors' (aₖ the
///   nearest corner; the unit normals differ by 2·sin(θ/2), at most
///   σ·(1 + σ²) below 90°); so |d₁| is at most the anchors' distance + κ,
///   and below the reach where that distance passes κ (one side
///   throughout);
/// - so `p`, projected on the anchored plane, is within
///   ρ = (2 + 4s)·M + |d₁|·σ of T′, and for each corner k the distance of
///   the projection from T′'s edge opposite k, (bₖ + s)·hₖ (hₖ that
///   corner's altitude), is at least −ρ.
///
/// Rounding is covered by 1% more margin and 10⁻³ more slack; a triangle
/// too thin for them (an angle under about half a degree) or for its
/// margin (2M ≥ h) is kept.
#[inline]
pub(crate) fn may_hit(p: Vec3, a: [Vec3; 3], margin: f32, reach: f32) -> bool {
    let m = margin * 1.01 + 1e-6;
    let reach = reach * 1.01;
    let (e0, e1) = (a[1] - a[0], a[2] - a[0]);
    let c = e0.cross(e1);
    // Squares first: most triangles a fast fall lists are kept by them.
    let area_sq = c.length_squared(); // (twice the area)²
    let sides_sq = [
        (a[2] - a[1]).length_squared(),
        e1.length_squared(),
        e0.length_squared(),
    ];
    let longest_sq = sides_sq[0].max(sides_sq[1]).max(sides_sq[2]);
    if !(4.0 * m * m * longest_sq < area_sq && area_sq > 1e-4 * longest_sq * longest_sq) {
        return true;
    }
    // Barycentric coordinates of p's projection on the anchored plane
    // (d00·d11 − d01² = |c|²): bₖ·hₖ is the signed distance from the
    // edge opposite corner k.
    let d = p - a[0];
    let (d00, d01, d11) = (e0.dot(e0), e0.dot(e1), e1.dot(e1));
    let (d20, d21) = (d.dot(e0), d.dot(e1));
    let v = (d11 * d20 - d01 * d21) / area_sq;
    let w = (d00 * d21 - d01 * d20) / area_sq;
    let slack = EDGE_SLACK + 1e-3;
    let out = [1.0 - v - w + slack, v + slack, w + slack];
    if out.iter().all(|&b| b >= 0.0) {
        return true; // over the grown triangle already
    }
    let twice_area = area_sq.sqrt();
    let sigma = 2.0 * m * longest_sq.sqrt() / twice_area;
    // |n − n_a| = 2·sin(θ/2) = σ/cos(θ/2) ≤ σ·(1 + σ²) for sin θ ≤ σ ≤ 1.
    let turn = sigma * (1.0 + sigma * sigma);
    let nearest = (d.length_squared())
        .min((p - a[1]).length_squared())
        .min((p - a[2]).length_squared())
        .sqrt();
    let kappa = 2.0 * m + nearest * turn;
    let height = d.dot(c).abs() / twice_area;
    // Beyond κ from the plane the particle was on one side throughout.
    let side = if height > kappa {
        reach
    } else {
        reach.max(2.0 * kappa)
    };
    let d1 = side.min(height + kappa);
    let rho = (2.0 + 4.0 * EDGE_SLACK) * m + d1 * sigma;
    // (bₖ + s)·hₖ ≥ −ρ with hₖ = |c|/sideₖ, squared where bₖ + s < 0.
    (0..3).all(|k| out[k] >= 0.0 || out[k] * out[k] * area_sq <= rho * rho * sides_sq[k])
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

    /// A point within `m` of `x`, at most `m` away in a random direction
    /// (on the sphere's surface for half the draws: the worst moves).
    fn near(x: Vec3, m: f32, r: &mut crate::lcg::Lcg) -> Vec3 {
        let dir = Vec3::new(r.next_f32(), r.next_f32(), r.next_f32()).normalize_or_zero();
        let length = if r.next() < 0.0 {
            m
        } else {
            m * (r.next_f32() + 0.5)
        };
        x + dir * length * 0.999
    }

    #[test]
    fn no_hit_is_pruned_while_everything_stays_within_the_margin() {
        let mut r = crate::lcg::Lcg(7);
        let (mut hits, mut pruned) = (0, 0);
        for _ in 0..400_000 {
            // Triangles of any shape from a right one to a thin sliver,
            // tilted; a particle near it, above, below or beside.
            let size = 0.01 + (r.next_f32() + 0.5) * 0.05;
            let thin = if r.next() < 0.0 {
                1.0
            } else {
                0.05 + (r.next_f32() + 0.5)
            };
            let a = [
                Vec3::ZERO,
                Vec3::new(size, 0.1 * size * r.next_f32(), 0.0),
                Vec3::new(size * r.next_f32(), 0.1 * size * r.next_f32(), size * thin),
            ];
            let reach = 0.005 + (r.next_f32() + 0.5) * 0.02;
            let margin = (r.next_f32() + 0.5) * 0.2 * reach;
            let p = Vec3::new(
                size * 1.6 * r.next_f32() + 0.3 * size,
                reach * 2.4 * r.next_f32(),
                size * 1.6 * r.next_f32() + 0.3 * size,
            );
            let may = may_hit(p, a, margin, reach);
            for _ in 0..4 {
                let (was, now) = (
                    a.map(|c| near(c, margin, &mut r)),
                    a.map(|c| near(c, margin, &mut r)),
                );
                let (from, to) = (near(p, margin, &mut r), near(p, margin, &mut r));
                let Some(face) = Face::of(was, now) else {
                    continue;
                };
                if hit(from, to, &face, reach, 1.0, || [1.0; 3]).is_some() {
                    hits += 1;
                    assert!(
                        may,
                        "a hit pruned: p {p} a {a:?} margin {margin} reach {reach}"
                    );
                }
            }
            pruned += usize::from(!may);
        }
        assert!(
            hits > 10_000 && pruned > 50_000,
            "{hits} hits, {pruned} pruned"
        );
        // Backwards from a hit near the grown triangle's edge, with the
        // anchors a full margin away from where the points are.
        let mut hits = 0;
        for _ in 0..400_000 {
            let size = 0.01 + (r.next_f32() + 0.5) * 0.05;
            let thin = if r.next() < 0.0 {
                1.0
            } else {
                0.05 + (r.next_f32() + 0.5)
            };
            let now = [
                Vec3::ZERO,
                Vec3::new(size, 0.1 * size * r.next_f32(), 0.0),
                Vec3::new(size * r.next_f32(), 0.1 * size * r.next_f32(), size * thin),
            ];
            let reach = 0.005 + (r.next_f32() + 0.5) * 0.02;
            let margin = (r.next_f32() + 0.5) * 0.2 * reach;
            let a = now.map(|c| near(c, margin, &mut r));
            let was = a.map(|c| near(c, margin, &mut r));
            let (k, t) = ((r.next() + 0.5) as f32 * 3.0, r.next_f32() + 0.5);
            let b = match k as usize {
                0 => [-EDGE_SLACK * 0.99, t, 1.0 + EDGE_SLACK * 0.99 - t],
                1 => [t, -EDGE_SLACK * 0.99, 1.0 + EDGE_SLACK * 0.99 - t],
                _ => [t, 1.0 + EDGE_SLACK * 0.99 - t, -EDGE_SLACK * 0.99],
            };
            let n = (now[1] - now[0]).cross(now[2] - now[0]).normalize();
            let q = now[0] * b[0] + now[1] * b[1] + now[2] * b[2];
            let to = q + n * reach * (r.next_f32() * 1.8 + 0.05);
            let p = near(to, margin, &mut r);
            let from = near(p, margin, &mut r);
            let Some(face) = Face::of(was, now) else {
                continue;
            };
            if hit(from, to, &face, reach, 1.0, || [1.0; 3]).is_some() {
                hits += 1;
                assert!(
                    may_hit(p, a, margin, reach),
                    "a hit pruned: p {p} a {a:?} margin {margin} reach {reach}"
                );
            }
        }
        assert!(hits > 100_000, "{hits} hits");
    }

    #[test]
    fn a_particle_resting_on_a_sheet_keeps_only_the_triangles_around_its_own() {
        // A 3 cm grid's two triangles a cell, a particle 2 cm above (the
        // contact distance) a point of one, the lists' least margin.
        let (cell, reach, margin) = (0.03, 0.02, 0.002);
        let p = Vec3::new(0.25 * cell, reach, 0.25 * cell);
        let (mut boxed, mut kept) = (0, 0);
        for dx in -3i32..=3 {
            for dz in -3..=3 {
                let o = Vec3::new(dx as f32 * cell, 0.0, dz as f32 * cell);
                let (x, z) = (Vec3::X * cell, Vec3::Z * cell);
                for a in [[o, o + x, o + z], [o + x + z, o + z, o + x]] {
                    // The lists' box test: the corners' box grown by the
                    // contact distance and twice the margin.
                    let grow = reach + 2.0 * margin;
                    let (lo, hi) = (a[0].min(a[1]).min(a[2]), a[0].max(a[1]).max(a[2]));
                    if (p - grow).cmpgt(hi).any() || (p + grow).cmplt(lo).any() {
                        assert!(!may_hit(p, a, margin, reach) || dx.abs() <= 1);
                        continue;
                    }
                    boxed += 1;
                    kept += usize::from(may_hit(p, a, margin, reach));
                }
            }
        }
        // Of the 18 the boxes hold, the particle's own triangle and those
        // that pass within about a centimetre of it.
        assert_eq!((boxed, kept), (18, 4));
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
