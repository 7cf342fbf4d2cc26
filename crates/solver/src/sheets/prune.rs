//! Which triangles a particle's candidate list may leave out
//! ([`may_hit`]): those it cannot [`hit`](crate::point_triangle::hit)
//! while it and the triangle's corners stay within the lists' margin of
//! their anchors (`sheets::cached`).

use glam::Vec3;

use crate::point_triangle::EDGE_SLACK;

/// Whether a particle may [`hit`](crate::point_triangle::hit) a triangle in any substep while it
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::point_triangle::{Face, hit};

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

    /// A triangle of any shape from a right one to a thin sliver, tilted:
    /// (corners, size, contact distance, margin).
    fn drawn(r: &mut crate::lcg::Lcg) -> ([Vec3; 3], f32, f32, f32) {
        let size = 0.01 + (r.next_f32() + 0.5) * 0.05;
        let thin = if r.next() < 0.0 {
            1.0
        } else {
            0.05 + (r.next_f32() + 0.5)
        };
        let corners = [
            Vec3::ZERO,
            Vec3::new(size, 0.1 * size * r.next_f32(), 0.0),
            Vec3::new(size * r.next_f32(), 0.1 * size * r.next_f32(), size * thin),
        ];
        let reach = 0.005 + (r.next_f32() + 0.5) * 0.02;
        (corners, size, reach, (r.next_f32() + 0.5) * 0.2 * reach)
    }

    #[test]
    fn no_hit_is_pruned_while_everything_stays_within_the_margin() {
        let mut r = crate::lcg::Lcg(7);
        let (mut hits, mut pruned) = (0, 0);
        for _ in 0..400_000 {
            // A particle near the triangle, above, below or beside.
            let (a, size, reach, margin) = drawn(&mut r);
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
            let (now, _, reach, margin) = drawn(&mut r);
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
}
