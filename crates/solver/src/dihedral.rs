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
//!
//! A balloon has thousands of hinges, each projected every substep, so
//! the kernel is f32, written once on [`Real`] so that eight hinges of a
//! colour run in AVX lanes (`exec::simd`) with the same bits as one alone,
//! and its angle is a polynomial [`atan2`] (within 3e-7 rad of libm's,
//! f32's own rounding at π). The tests hold the angle and its gradient to
//! an f64 evaluation of the same formulas, flat and folded shut included.
//! ∇₄θ is −(∇₁θ + ∇₂θ + ∇₃θ), so a projection moves no centre of mass of
//! equal-mass corners.
//!
//! Stored, coloured and solved with the other four-particle kind in
//! [`super::quads`].

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

use glam::{Vec3, Vec3A};

use super::real::{Real, V3, add, cross, dot, scale, sub};

/// atan2(y, x) in [−π, π] (−π for y = −0, as libm); 0 for y = x = 0:
/// Cephes' atanf polynomial after reducing the ratio to [0, tan(π/8)].
#[inline(always)]
pub(crate) fn atan2<R: Real>(y: R, x: R) -> R {
    let (ax, ay) = (x.abs(), y.abs());
    let (lo, hi) = (ax.min(ay), ax.max(ay));
    let one = R::splat(1.0);
    let t = lo / hi;
    let big = t.gt(R::splat(0.414_213_57));
    let u = R::select(big, (t - one) / (t + one), t);
    let z = u * u;
    let poly = ((R::splat(8.053_744_5e-2) * z - R::splat(1.387_768_6e-1)) * z
        + R::splat(1.997_771_1e-1))
        * z
        - R::splat(3.333_295e-1);
    let r = poly * z * u + u;
    let r = r + R::select(big, R::splat(FRAC_PI_4), R::splat(0.0));
    let r = R::select(ay.gt(ax), R::splat(FRAC_PI_2) - r, r);
    let r = R::select(R::splat(0.0).gt(x), R::splat(PI) - r, r);
    // r ≥ +0 here, so this negates it where y's sign bit is set.
    let r = r.copysign(y);
    R::select(hi.gt(R::splat(0.0)), r, R::splat(0.0))
}

/// A hinge's angle θ, its gradient, and whether it has them (false for a
/// degenerate pair, or lanes where it does not).
pub(crate) struct Angle<R: Real> {
    pub ok: R::Mask,
    pub theta: R,
    pub grad: [V3<R>; 4],
}

/// The dihedral angle of wing vertices `x1`, `x2` over edge `x3` → `x4`
/// and its gradient per vertex.
#[inline(always)]
pub(crate) fn angle<R: Real>(x: [V3<R>; 4]) -> Angle<R> {
    let [x1, x2, x3, x4] = x;
    let e = sub(x4, x3);
    let len2 = dot(e, e);
    let n1 = cross(sub(x1, x3), sub(x1, x4));
    let n2 = cross(sub(x2, x4), sub(x2, x3));
    let (a1, a2) = (dot(n1, n1), dot(n2, n2));
    // A wing whose height is under 1e-5 of the edge has no plane (f32
    // cross products of nearly parallel sides are noise below that).
    let tiny = R::splat(1e-10) * len2 * len2;
    let ok = R::both(
        R::both(len2.gt(R::splat(1e-20)), len2.finite()),
        R::both(a1.gt(tiny), a2.gt(tiny)),
    );
    let len = len2.sqrt();
    let ue = scale(e, R::splat(1.0) / len);
    let theta = atan2(dot(cross(n2, n1), ue), dot(n1, n2));
    let one = R::splat(1.0);
    let (m1, m2) = (scale(n1, one / a1), scale(n2, one / a2));
    let g1 = scale(m1, len);
    let g2 = scale(m2, len);
    let g3 = add(
        scale(m1, dot(sub(x1, x4), ue)),
        scale(m2, dot(sub(x2, x4), ue)),
    );
    let g4 = sub([R::splat(0.0); 3], add(add(g1, g2), g3));
    Angle {
        ok,
        theta,
        grad: [g1, g2, g3, g4],
    }
}

/// The largest angle error one projection corrects (rad): the gradient is
/// a linearisation, and a fold far from rest corrected in one step would
/// overshoot; larger errors close over a few substeps.
const MAX_TURN: f32 = 0.5;

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
const MAX_GROWTH: f32 = 2.0;

/// The square of the longest distance between two of the corners `x`.
#[inline(always)]
fn span_squared<R: Real>(x: [V3<R>; 4]) -> R {
    let mut longest = R::splat(0.0);
    for i in 0..4 {
        for j in i + 1..4 {
            let d = sub(x[i], x[j]);
            longest = longest.max(dot(d, d));
        }
    }
    longest
}

/// The longest distance between two of the corners `x` (m): a hinge's
/// size, stored at rest by `World::add_quad`.
pub(crate) fn span(x: [Vec3A; 4]) -> f32 {
    span_squared(x.map(|p| p.to_array())).sqrt()
}

/// `angle` wrapped into [−π, π].
pub fn wrap(angle: f32) -> f32 {
    wrap_once(if angle.abs() <= 3.0 * PI {
        angle
    } else {
        angle.rem_euclid(TAU)
    })
}

/// `angle` in [−3π, 3π] wrapped into [−π, π].
#[inline(always)]
fn wrap_once<R: Real>(a: R) -> R {
    let (pi, tau) = (R::splat(PI), R::splat(TAU));
    let a = R::select(a.gt(pi), a - tau, a);
    R::select(R::splat(-PI).gt(a), a + tau, a)
}

/// The constraint C = θ − θ₀ (wrapped, clamped to ±[`MAX_TURN`]) and its
/// gradient for wing vertices and edge `x` with rest angle `rest` in
/// [−π, π] and rest size `size` (m); not ok for a degenerate pair or one
/// grown past [`MAX_GROWTH`] × `size`.
#[inline(always)]
pub(crate) fn constraint<R: Real>(x: [V3<R>; 4], rest: R, size: R) -> (R, Angle<R>) {
    let limit = R::splat(MAX_GROWTH) * size;
    let fits = (limit * limit).gt(span_squared(x));
    let mut a = angle(x);
    a.ok = R::both(a.ok, fits);
    let turn = R::splat(MAX_TURN);
    let c = wrap_once(a.theta - rest)
        .min(turn)
        .max(R::splat(0.0) - turn);
    (c, a)
}

/// One XPBD projection of hinges (one per lane) on positions `x` with
/// inverse masses `w`, rest angle and size `rest`, α̃ = α/h² `alpha_t`,
/// PBD stiffness `k` and accumulated `lambda`: Δλ and the four moves of
/// the four-particle kinds' one skeleton, [`super::quads::step`].
#[inline(always)]
pub(crate) fn project<R: Real>(
    x: [V3<R>; 4],
    w: [R; 4],
    (rest, size): (R, R),
    alpha_t: R,
    k: R,
    lambda: R,
) -> (R, [V3<R>; 4]) {
    let (c, a) = constraint(x, rest, size);
    super::quads::step(a.ok, c, a.grad, w, alpha_t, k, lambda)
}

/// The dihedral angle of `x` and its gradient; None for a degenerate pair.
pub fn angle_and_gradient(x: [Vec3A; 4]) -> Option<(f32, [Vec3A; 4])> {
    let a = angle(x.map(|p| p.to_array()));
    a.ok.then(|| (a.theta, a.grad.map(Vec3A::from_array)))
}

/// The angle (rad) of wings `p[0]`, `p[1]` over edge `p[2]` → `p[3]`.
pub fn angle_of(pos: &[Vec3], p: [usize; 4]) -> Option<f32> {
    angle_and_gradient(p.map(|i| pos[i].into())).map(|(t, _)| t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    /// The angle by the same formula in f64 with libm's atan2: the
    /// reference the f32 kernel is held to.
    fn angle64(x: [DVec3; 4]) -> f64 {
        let [x1, x2, x3, x4] = x;
        let ue = (x4 - x3).normalize();
        let n1 = (x1 - x3).cross(x1 - x4);
        let n2 = (x2 - x4).cross(x2 - x3);
        n2.cross(n1).dot(ue).atan2(n1.dot(n2))
    }

    /// A hinge: edge on the x axis from 0 to 1, wings at angle `a` and `b`
    /// around it (radians from +y), with some offsets along the edge.
    fn hinge(a: f64, b: f64) -> [DVec3; 4] {
        let wing = |t: f64, along: f64| DVec3::new(along, t.cos(), t.sin());
        [wing(a, 0.3), wing(b, 0.6), DVec3::ZERO, DVec3::X]
    }

    /// 200 random pairs, then flat (θ = 0 and a hair off), folded nearly
    /// shut (θ → ±π) and right angles both ways; in f32, as the solver
    /// sees them.
    fn cases() -> Vec<[DVec3; 4]> {
        let mut seed = crate::lcg::Lcg(7);
        let mut cases: Vec<[DVec3; 4]> = (0..200)
            .map(|_| std::array::from_fn(|_| DVec3::new(seed.next(), seed.next(), seed.next())))
            .collect();
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
        cases
            .into_iter()
            .map(|x| x.map(|p| p.as_vec3().as_dvec3()))
            .collect()
    }

    #[test]
    fn the_polynomial_atan2_is_within_3e_7_rad_of_libms_all_round_the_circle() {
        let mut worst = 0f64;
        for k in 0..200_000 {
            let t = -std::f64::consts::PI + std::f64::consts::TAU * k as f64 / 200_000.0;
            for r in [1e-30, 1e-3, 1.0, 7.5e3, 1e30] {
                let (y, x) = ((r * t.sin()) as f32, (r * t.cos()) as f32);
                let exact = (y as f64).atan2(x as f64);
                worst = worst.max((atan2(y, x) as f64 - exact).abs());
            }
        }
        println!("largest error {worst:.2e} rad");
        assert!(worst < 3e-7, "{worst}");
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert_eq!(atan2(0.0, -1.0), std::f32::consts::PI);
        assert_eq!(atan2(-0.0, -1.0), -std::f32::consts::PI);
    }

    #[test]
    fn the_f32_angle_matches_the_f64_formula_on_random_flat_and_folded_pairs() {
        for x in cases() {
            let (theta, _) = angle_and_gradient(x.map(|p| Vec3A::from(p.as_vec3()))).unwrap();
            let exact = angle64(x);
            // Both ends of the ±π cut are the same fold.
            let diff = wrap((theta as f64 - exact) as f32).abs();
            // f32 positions of size ~1 give cross products good to
            // ~1e-7 of their length; 2e-5 rad is a thin wing's worth.
            assert!(diff < 2e-5, "{theta} vs {exact}");
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_random_flat_and_folded_pairs() {
        let h = 1e-6;
        let mut checked = 0;
        for x in cases() {
            let Some((theta, grad)) = angle_and_gradient(x.map(|p| Vec3A::from(p.as_vec3())))
            else {
                continue;
            };
            // Skip where θ sits on the ±π cut: the finite difference jumps.
            if std::f32::consts::PI - theta.abs() < 1e-4 {
                continue;
            }
            for i in 0..4 {
                for axis in 0..3 {
                    let mut plus = x;
                    let mut minus = x;
                    plus[i][axis] += h;
                    minus[i][axis] -= h;
                    let fd = (angle64(plus) - angle64(minus)) / (2.0 * h);
                    let scale = grad[i].length().max(1.0) as f64;
                    assert!(
                        (fd - grad[i][axis] as f64).abs() <= 1e-4 * scale,
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
        let f32s = |x: [DVec3; 4]| x.map(|p| Vec3A::from(p.as_vec3()));
        let (flat, _) = angle_and_gradient(f32s(hinge(0.0, std::f64::consts::PI))).unwrap();
        assert!(flat.abs() < 1e-6, "{flat}");
        let quarter = std::f64::consts::FRAC_PI_2;
        let (up, _) = angle_and_gradient(f32s(hinge(0.0, quarter))).unwrap();
        let (down, _) = angle_and_gradient(f32s(hinge(0.0, -quarter))).unwrap();
        assert!((up.abs() - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert!((up + down).abs() < 1e-6, "{up} vs {down}");
    }

    #[test]
    fn a_degenerate_pair_has_no_angle() {
        let x = [Vec3A::ZERO, Vec3A::X, Vec3A::ZERO, Vec3A::X];
        assert!(angle_and_gradient(x).is_none());
    }

    #[test]
    fn wrapping_takes_the_short_way_round() {
        for (a, want) in [
            (0.5, 0.5),
            (PI + 0.5, 0.5 - PI),
            (-PI - 0.5, PI - 0.5),
            (PI, PI),
        ] {
            assert!((wrap(a) - want).abs() < 1e-6, "{a}: {}", wrap(a));
        }
        assert!((wrap(7.0 * PI + 0.25) - (0.25 - PI)).abs() < 1e-5);
    }
}
