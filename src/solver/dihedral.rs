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
//! Constraints are coloured among themselves (no two of a colour share a
//! particle) and solved colour by colour after the distance colours, each
//! colour split among the threads: bit-identical for any thread count.

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

/// Every dihedral constraint, by colour.
#[derive(Clone, Debug, Default)]
pub struct Dihedrals {
    /// Per colour: (x₁, x₂, x₃, x₄) world particle indices.
    pub(crate) idx: Vec<Vec<[u32; 4]>>,
    /// Per colour: rest angle θ₀ (rad).
    pub(crate) rest: Vec<Vec<f32>>,
    /// Per colour: compliance α (rad/(N·m)).
    pub(crate) compliance: Vec<Vec<f32>>,
    /// Per colour: the body each belongs to.
    pub(crate) body: Vec<Vec<u32>>,
    /// Per colour: accumulated λ of the current substep.
    pub(crate) lambda: Vec<Vec<f32>>,
    /// Per particle: bit k set when a constraint of colour k touches it.
    used: Vec<u64>,
}

impl Dihedrals {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.idx.iter().map(Vec::len).sum()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of colours.
    pub fn colour_count(&self) -> usize {
        self.idx.len()
    }

    /// Adds a constraint on wings `x1`, `x2` and edge `x3` → `x4` with
    /// rest angle `rest` (rad) and compliance (rad/(N·m)), in the first
    /// colour none of its particles has.
    pub fn add(&mut self, p: [usize; 4], rest: f32, compliance: f32, body: usize) {
        let top = p.iter().copied().max().unwrap_or(0);
        if self.used.len() <= top {
            self.used.resize(top + 1, 0);
        }
        let taken = p.iter().fold(0u64, |m, &i| m | self.used[i]);
        let colour = (!taken).trailing_zeros() as usize;
        assert!(
            colour < 64,
            "a particle with more than 63 dihedral constraints"
        );
        if colour == self.idx.len() {
            for v in [&mut self.rest, &mut self.compliance, &mut self.lambda] {
                v.push(Vec::new());
            }
            self.idx.push(Vec::new());
            self.body.push(Vec::new());
        }
        for &i in &p {
            self.used[i] |= 1 << colour;
        }
        self.idx[colour].push(p.map(|i| i as u32));
        self.rest[colour].push(rest);
        self.compliance[colour].push(compliance);
        self.lambda[colour].push(0.0);
        self.body[colour].push(body as u32);
    }

    /// Sets the compliance of every constraint of `body`.
    pub fn set_compliance(&mut self, body: usize, compliance: f32) {
        for (c, b) in self.compliance.iter_mut().zip(&self.body) {
            for (c, &b) in c.iter_mut().zip(b) {
                if b as usize == body {
                    *c = compliance;
                }
            }
        }
    }

    /// The compliance of `body`'s constraints, if it has any.
    pub fn compliance(&self, body: usize) -> Option<f32> {
        self.compliance
            .iter()
            .zip(&self.body)
            .find_map(|(c, b)| b.iter().position(|&x| x as usize == body).map(|k| c[k]))
    }

    /// The angle (rad) of the constraint on these positions, for tests.
    pub fn angle_of(pos: &[Vec3], p: [usize; 4]) -> Option<f32> {
        angle_and_gradient(p.map(|i| pos[i].as_dvec3())).map(|(t, _)| t as f32)
    }
}

/// The largest angle error one projection corrects (rad): the gradient is
/// a linearisation, and a fold far from rest corrected in one step would
/// overshoot; larger errors close over a few substeps.
const MAX_TURN: f64 = 0.5;

/// One XPBD (or, with `k` < 1 and α̃ = 0, PBD) projection of a dihedral
/// constraint on displacements: `x[i]` are the current positions, `w[i]`
/// the inverse masses; returns the moves to add, or None when skipped.
/// `alpha_t` = α/h²; `lambda` is updated.
#[inline]
pub(crate) fn project(
    x: [Vec3; 4],
    w: [f32; 4],
    rest: f32,
    alpha_t: f32,
    k: f32,
    lambda: &mut f32,
) -> Option<[Vec3; 4]> {
    let (theta, grad) = angle_and_gradient(x.map(|p| p.as_dvec3()))?;
    let c = wrap(theta - rest as f64).clamp(-MAX_TURN, MAX_TURN);
    let denom: f64 = (0..4)
        .map(|i| w[i] as f64 * grad[i].length_squared())
        .sum::<f64>()
        + alpha_t as f64;
    if !(denom > 0.0 && denom.is_finite()) {
        return None;
    }
    let dl = (-(k as f64) * c - alpha_t as f64 * *lambda as f64) / denom;
    *lambda += dl as f32;
    Some(std::array::from_fn(|i| {
        (grad[i] * (w[i] as f64 * dl)).as_vec3()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rnd(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
    }

    /// A hinge: edge on the x axis from 0 to 1, wings at angle `a` and `b`
    /// around it (radians from +y), with some offsets along the edge.
    fn hinge(a: f64, b: f64) -> [DVec3; 4] {
        let wing = |t: f64, along: f64| DVec3::new(along, t.cos(), t.sin());
        [wing(a, 0.3), wing(b, 0.6), DVec3::ZERO, DVec3::X]
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_random_flat_and_folded_pairs() {
        let mut seed = 7;
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
