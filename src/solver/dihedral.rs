//! Dihedral bending: the angle between the two triangles of an edge.
//!
//! Distance links across two cells resist bending only through stretch,
//! so their stiffness depends on the mesh and they cannot hold a fold
//! angle. A dihedral constraint works on the angle itself. For wing
//! vertices x₁, x₂ and the shared edge x₃ → x₄ (Bridson, Marino and Fedkiw
//! 2003), E = x₄ − x₃, N₁ = (x₁ − x₃) × (x₁ − x₄), N₂ = (x₂ − x₄) × (x₂ − x₃):
//!
//!   θ = atan2((N₂ × N₁)·Ê, N₁·N₂)      (signed, 0 when flat, ±π folded shut)
//!   ∇₁θ = |E| N₁/|N₁|²,  ∇₂θ = |E| N₂/|N₂|²,
//!   ∇₃θ = (x₁ − x₄)·Ê N₁/|N₁|² + (x₂ − x₄)·Ê N₂/|N₂|²,
//!   ∇₄θ = −(x₁ − x₃)·Ê N₁/|N₁|² − (x₂ − x₃)·Ê N₂/|N₂|²,
//!
//! and C = θ − θ₀ wrapped into (−π, π], so a hinge folded past π comes
//! back the short way. The XPBD skeleton is the distance constraint's:
//! Δλ = (−C − α̃λ)/(Σ wᵢ|∇ᵢC|² + α̃), xᵢ += wᵢΔλ∇ᵢC, α in rad/(N·m).
//! A degenerate triangle (|N|² or |E| about zero) has no angle: skipped.
//! The geometry is done in f64, so flat and folded pairs lose nothing.
//!
//! Stored, coloured and solved with the other four-particle kind in
//! [`super::quads`].

use glam::{DVec3, Vec3};

/// The dihedral angle of wing vertices `x1`, `x2` over edge `x3` → `x4`
/// and its gradient per vertex; None for a degenerate pair.
pub fn angle_and_gradient(x: [DVec3; 4]) -> Option<(f64, [DVec3; 4])> {
    let [x1, x2, x3, x4] = x;
    let e = x4 - x3;
    let len = e.length();
    let n1 = (x1 - x3).cross(x1 - x4);
    let n2 = (x2 - x4).cross(x2 - x3);
    let (a1, a2) = (n1.length_squared(), n2.length_squared());
    let tiny = 1e-24 * len.powi(4).max(1e-300);
    if !(len > 1e-12 && a1 > tiny && a2 > tiny) {
        return None;
    }
    let ue = e / len;
    let theta = n2.cross(n1).dot(ue).atan2(n1.dot(n2));
    let (m1, m2) = (n1 / a1, n2 / a2);
    let g1 = len * m1;
    let g2 = len * m2;
    let g3 = (x1 - x4).dot(ue) * m1 + (x2 - x4).dot(ue) * m2;
    let g4 = -(x1 - x3).dot(ue) * m1 - (x2 - x3).dot(ue) * m2;
    Some((theta, [g1, g2, g3, g4]))
}

/// `angle` wrapped into (−π, π].
pub fn wrap(angle: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    let a = angle.rem_euclid(tau);
    if a > std::f64::consts::PI { a - tau } else { a }
}

/// The largest angle error one projection corrects (rad): the gradient is
/// a linearisation, and a fold far from rest corrected in one step would
/// overshoot; larger errors close over a few substeps.
const MAX_TURN: f64 = 0.5;

/// How far a hinge may grow past its rest size (the longest distance
/// between two of its corners) and still bend; past it, it holds nothing.
///
/// Why: a projection moves a wing along a straight line to turn it about
/// the edge, which lengthens the wing's distance from the edge by about
/// C²/2 of it, and the move is proportional to the triangles' size. With
/// stiff hinges on soft links (a balloon of stretch 10 m/N, a cloth of
/// soft shear) or on links torn away, nothing pulls that growth back: the
/// hinge grew its triangles exponentially, to NaN within 60 frames. A
/// hinge twice its size is a ripped or torn sheet, where bending means
/// nothing; no shipped scene stretches a hinge by half.
const MAX_GROWTH: f64 = 2.0;

/// The longest distance between two of the corners `x` (m): a hinge's
/// size, stored at rest by `World::add_quad`.
pub(crate) fn span(x: [DVec3; 4]) -> f64 {
    let mut longest = 0f64;
    for i in 0..4 {
        for j in i + 1..4 {
            longest = longest.max(x[i].distance_squared(x[j]));
        }
    }
    longest.sqrt()
}

/// The constraint C = θ − θ₀ (wrapped, clamped to ±[`MAX_TURN`]) and its
/// gradient for wing vertices and edge `x` of rest size `size` (m); None
/// for a degenerate pair or one grown past [`MAX_GROWTH`] × `size`.
#[inline]
pub(crate) fn constraint(x: [DVec3; 4], rest: f32, size: f32) -> Option<(f64, [DVec3; 4])> {
    if span(x) > MAX_GROWTH * size as f64 {
        return None;
    }
    let (theta, grad) = angle_and_gradient(x)?;
    Some((wrap(theta - rest as f64).clamp(-MAX_TURN, MAX_TURN), grad))
}

/// The angle (rad) of wings `p[0]`, `p[1]` over edge `p[2]` → `p[3]`.
pub fn angle_of(pos: &[Vec3], p: [usize; 4]) -> Option<f32> {
    angle_and_gradient(p.map(|i| pos[i].as_dvec3())).map(|(t, _)| t as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rnd(seed: &mut crate::solver::lcg::Lcg) -> f64 {
        seed.next()
    }

    /// A hinge: edge on the x axis from 0 to 1, wings at angle `a` and `b`
    /// around it (radians from +y), with some offsets along the edge.
    fn hinge(a: f64, b: f64) -> [DVec3; 4] {
        let wing = |t: f64, along: f64| DVec3::new(along, t.cos(), t.sin());
        [wing(a, 0.3), wing(b, 0.6), DVec3::ZERO, DVec3::X]
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_random_flat_and_folded_pairs() {
        let mut seed = crate::solver::lcg::Lcg(7);
        let mut cases: Vec<[DVec3; 4]> = (0..200)
            .map(|_| {
                std::array::from_fn(|_| DVec3::new(rnd(&mut seed), rnd(&mut seed), rnd(&mut seed)))
            })
            .collect();
        // Flat (θ = 0 and a hair off), folded nearly shut (θ → ±π) and
        // right angles both ways.
        for (a, b) in [
            (0.0, std::f64::consts::PI),
            (0.0, std::f64::consts::PI - 1e-7),
            (0.0, 1e-3),
            (0.0, 0.05),
            (0.0, -0.05),
            (0.0, std::f64::consts::FRAC_PI_2),
            (0.0, -std::f64::consts::FRAC_PI_2),
        ] {
            cases.push(hinge(a, b));
        }
        let h = 1e-6;
        let mut checked = 0;
        for x in cases {
            let Some((theta, grad)) = angle_and_gradient(x) else {
                continue;
            };
            // Skip where θ sits on the ±π cut: the finite difference jumps.
            if std::f64::consts::PI - theta.abs() < 1e-4 {
                continue;
            }
            for i in 0..4 {
                for axis in 0..3 {
                    let mut plus = x;
                    let mut minus = x;
                    plus[i][axis] += h;
                    minus[i][axis] -= h;
                    let fd = (angle_and_gradient(plus).unwrap().0
                        - angle_and_gradient(minus).unwrap().0)
                        / (2.0 * h);
                    let scale = grad[i].length().max(1.0);
                    assert!(
                        (fd - grad[i][axis]).abs() <= 1e-4 * scale,
                        "vertex {i} axis {axis}: analytic {} vs finite difference {fd} at θ = {theta}",
                        grad[i][axis]
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 190, "only {checked} pairs checked");
    }

    #[test]
    fn a_flat_pair_has_angle_zero_and_a_right_angle_a_quarter_turn_with_sign() {
        let (flat, _) = angle_and_gradient(hinge(0.0, std::f64::consts::PI)).unwrap();
        assert!(flat.abs() < 1e-12, "{flat}");
        let (up, _) = angle_and_gradient(hinge(0.0, std::f64::consts::FRAC_PI_2)).unwrap();
        let (down, _) = angle_and_gradient(hinge(0.0, -std::f64::consts::FRAC_PI_2)).unwrap();
        assert!((up.abs() - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        assert!((up + down).abs() < 1e-12, "{up} vs {down}");
    }

    #[test]
    fn a_degenerate_pair_has_no_angle() {
        let x = [DVec3::ZERO, DVec3::X, DVec3::ZERO, DVec3::X];
        assert!(angle_and_gradient(x).is_none());
    }
}
