//! Neo-Hookean tetrahedra: the two constraints of Macklin & Müller 2021,
//! "A Constraint-based Formulation of Stable Neo-Hookean Materials".
//!
//! With corners x₀ … x₃, Dₛ = [x₁ − x₀, x₂ − x₀, x₃ − x₀] and its value at
//! rest D_m, the deformation gradient is F = Dₛ·D_m⁻¹. Per tetrahedron:
//!
//!   deviatoric   C_D = √tr(FᵀF) = ‖F‖,        α = 1/(μ·V₀)
//!   hydrostatic  C_H = det F − (1 + μ/λ'),   α = 1/(λ'·V₀)
//!
//! from Lamé μ = E/(2(1+ν)) and λ = Eν/((1+ν)(1−2ν)), with λ' = λ + μ:
//! the energy ½μ(‖F‖² − 3) + ½λ'(det F − 1 − μ/λ')² linearises to Lamé
//! coefficients μ and λ' − μ = λ, so small strains follow E and ν (with λ'
//! = λ the material would have Lamé λ − μ, unstable at ν = 0.1). At rest
//! the two are balanced, not zero: the deviatoric pulls the corners in
//! with μ·V₀·F and the hydrostatic, at det F − 1 = 0 short of its target
//! by μ/λ', pushes them out by as much.
//!
//! ∂C/∂F maps to the corners as ∂C/∂Dₛ = (∂C/∂F)·D_m⁻ᵀ: columns 1–3 are
//! ∇₁C … ∇₃C and ∇₀C = −(∇₁C + ∇₂C + ∇₃C). ∂C_D/∂F = F/‖F‖ and
//! ∂det F/∂F = [f₂ × f₃, f₃ × f₁, f₁ × f₂] (fᵢ the columns of F). An
//! inverted tetrahedron has det F < 0 and the hydrostatic constraint
//! pushes it back through zero: the formulation is stable under
//! inversion, which is its point. Geometry in f64.

use glam::{DMat3, DVec3};

use super::QuadKind;

/// D_m⁻¹ of a tetrahedron at rest, column-major, or None when it is flat.
pub fn rest_shape(x: [DVec3; 4]) -> Option<[f32; 9]> {
    let dm = DMat3::from_cols(x[1] - x[0], x[2] - x[0], x[3] - x[0]);
    let det = dm.determinant();
    let scale = (x[1] - x[0])
        .length()
        .max((x[2] - x[0]).length())
        .max((x[3] - x[0]).length());
    let flat = det.abs() <= 1e-9 * scale * scale * scale;
    if flat || !det.is_finite() {
        return None;
    }
    Some(dm.inverse().to_cols_array().map(|v| v as f32))
}

/// Lamé μ and the shifted λ' = λ + μ (Pa) of Young's modulus `e` (Pa)
/// and Poisson's ratio `nu` in [0, 0.5).
pub fn lame(e: f32, nu: f32) -> (f32, f32) {
    let (e, nu) = (e as f64, nu as f64);
    let mu = e / (2.0 * (1.0 + nu));
    let lambda = e * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
    (mu as f32, (lambda + mu) as f32)
}

/// The hydrostatic constraint's rest value 1 + μ/λ' for Lamé `mu` and
/// shifted `lambda_nh`.
pub fn hydrostatic_target(mu: f32, lambda_nh: f32) -> f32 {
    1.0 + mu / lambda_nh
}

/// Young's modulus and Poisson's ratio of Lamé `mu` and shifted
/// `lambda_nh` ([`lame`] inverted).
pub fn young_and_poisson(mu: f32, lambda_nh: f32) -> (f32, f32) {
    let (mu, lambda) = (mu as f64, (lambda_nh - mu) as f64);
    let e = mu * (3.0 * lambda + 2.0 * mu) / (lambda + mu);
    (e as f32, (lambda / (2.0 * (lambda + mu))) as f32)
}

/// The rest volume V₀ of a tetrahedron whose D_m⁻¹ is `shape`, m³.
pub fn rest_volume(shape: &[f32; 9]) -> f64 {
    let dm_inv = DMat3::from_cols_array(&shape.map(|v| v as f64));
    1.0 / (6.0 * dm_inv.determinant().abs())
}

impl super::World {
    /// Gives body `body`'s neo-Hookean tetrahedra Young's modulus `e` (Pa)
    /// and Poisson's ratio `nu`: their compliances and hydrostatic target.
    pub fn set_neo_hookean(&mut self, body: usize, e: f32, nu: f32) {
        let (mu, lambda) = lame(e, nu);
        let target = hydrostatic_target(mu, lambda);
        self.quads
            .for_each_of(body, |kind, shape, rest, compliance| {
                let v0 = rest_volume(shape) as f32;
                match kind {
                    QuadKind::Deviatoric => *compliance = 1.0 / (mu * v0),
                    QuadKind::Hydrostatic => {
                        *compliance = 1.0 / (lambda * v0);
                        *rest = target;
                    }
                    _ => {}
                }
            });
    }

    /// Body `body`'s Young's modulus (Pa) and Poisson's ratio, if it is a
    /// neo-Hookean solid.
    pub fn neo_hookean(&self, body: usize) -> Option<(f32, f32)> {
        let mut stiffness = [None; 2];
        for (kind, shape, compliance) in self.quads.of_body(body) {
            let s = 1.0 / (compliance * rest_volume(shape) as f32);
            match kind {
                QuadKind::Deviatoric => stiffness[0] = stiffness[0].or(Some(s)),
                QuadKind::Hydrostatic => stiffness[1] = stiffness[1].or(Some(s)),
                _ => {}
            }
            if stiffness.iter().all(Option::is_some) {
                break;
            }
        }
        let [Some(mu), Some(lambda)] = stiffness else {
            return None;
        };
        Some(young_and_poisson(mu, lambda))
    }
}

/// F for corners `x` and D_m⁻¹ `shape`.
#[inline(always)]
fn deformation(x: [DVec3; 4], shape: &[f32; 9]) -> (DMat3, DMat3) {
    let dm_inv = DMat3::from_cols_array(&shape.map(|v| v as f64));
    let ds = DMat3::from_cols(x[1] - x[0], x[2] - x[0], x[3] - x[0]);
    (ds * dm_inv, dm_inv)
}

/// The corners' gradients of a constraint whose derivative by F is `dcdf`.
#[inline(always)]
fn corner_gradient(dcdf: DMat3, dm_inv: DMat3) -> [DVec3; 4] {
    let h = dcdf * dm_inv.transpose();
    let (g1, g2, g3) = (h.col(0), h.col(1), h.col(2));
    [-(g1 + g2 + g3), g1, g2, g3]
}

/// C_D = ‖F‖ − `target` (0 in XPBD) and its gradient; None when F
/// vanishes (all corners together).
// Not inlined: the solver's colour loop stays as small as it was without them.
#[inline(never)]
pub(crate) fn deviatoric(
    x: [DVec3; 4],
    shape: &[f32; 9],
    target: f32,
) -> Option<(f64, [DVec3; 4])> {
    let (f, dm_inv) = deformation(x, shape);
    let norm =
        (f.col(0).length_squared() + f.col(1).length_squared() + f.col(2).length_squared()).sqrt();
    if norm <= 1e-12 || !norm.is_finite() {
        return None;
    }
    Some((
        norm - target as f64,
        corner_gradient(f * (1.0 / norm), dm_inv),
    ))
}

/// C_H = det F − `target` and its gradient.
#[inline(never)]
pub(crate) fn hydrostatic(x: [DVec3; 4], shape: &[f32; 9], target: f32) -> (f64, [DVec3; 4]) {
    let (f, dm_inv) = deformation(x, shape);
    let (f1, f2, f3) = (f.col(0), f.col(1), f.col(2));
    let cofactor = DMat3::from_cols(f2.cross(f3), f3.cross(f1), f1.cross(f2));
    (
        f.determinant() - target as f64,
        corner_gradient(cofactor, dm_inv),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner_tet() -> [DVec3; 4] {
        [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z].map(|p| p * 0.1)
    }

    #[test]
    fn both_gradients_match_finite_differences_on_stretched_sheared_and_inverted_tetrahedra() {
        let shape = rest_shape(corner_tet()).unwrap();
        let mut seed = crate::lcg::Lcg(17);
        let mut rnd = || seed.next();
        let mut cases: Vec<[DVec3; 4]> = (0..100)
            .map(|_| {
                let mut x = corner_tet();
                for p in &mut x {
                    *p += DVec3::new(rnd(), rnd(), rnd()) * 0.05;
                }
                x
            })
            .collect();
        let mut inverted = corner_tet();
        inverted[3].z = -0.05;
        cases.push(inverted);
        let step = 1e-7;
        for x in cases {
            let value = |x: [DVec3; 4]| {
                (
                    deviatoric(x, &shape, 0.0).unwrap().0,
                    hydrostatic(x, &shape, 1.5).0,
                )
            };
            let (_, gd) = deviatoric(x, &shape, 0.0).unwrap();
            let (_, gh) = hydrostatic(x, &shape, 1.5);
            for i in 0..4 {
                for axis in 0..3 {
                    let (mut plus, mut minus) = (x, x);
                    plus[i][axis] += step;
                    minus[i][axis] -= step;
                    let (dp, hp) = value(plus);
                    let (dm, hm) = value(minus);
                    let (fd_d, fd_h) = ((dp - dm) / (2.0 * step), (hp - hm) / (2.0 * step));
                    // The gradients are O(1/edge) = O(10); f32 D_m⁻¹ and a
                    // central difference leave about 1e-5 of that.
                    assert!(
                        (fd_d - gd[i][axis]).abs() <= 1e-4,
                        "C_D {i}/{axis}: {} vs {fd_d}",
                        gd[i][axis]
                    );
                    assert!(
                        (fd_h - gh[i][axis]).abs() <= 1e-4,
                        "C_H {i}/{axis}: {} vs {fd_h}",
                        gh[i][axis]
                    );
                }
            }
        }
    }

    #[test]
    fn at_rest_f_is_the_identity_and_the_two_forces_balance() {
        let x = corner_tet();
        let shape = rest_shape(x).unwrap();
        let (e, nu) = (1e5, 0.3);
        let (mu, lnh) = lame(e, nu);
        let (cd, gd) = deviatoric(x, &shape, 0.0).unwrap();
        let (ch, gh) = hydrostatic(x, &shape, hydrostatic_target(mu, lnh));
        assert!((cd - 3f64.sqrt()).abs() < 1e-6, "{cd}");
        // Force on each corner, −∇E = −(C/α)∇C with 1/α = stiffness·V₀.
        for i in 0..4 {
            let f = gd[i] * (mu as f64 * cd) + gh[i] * (lnh as f64 * ch);
            assert!(f.length() < 1e-6 * mu as f64, "corner {i}: {f}");
        }
    }

    #[test]
    fn lame_coefficients_of_rubber_and_the_shift() {
        let (e, nu) = young_and_poisson(4e5, 8e5);
        assert!(
            (e - 1e6).abs() < 1.0 && (nu - 0.25).abs() < 1e-6,
            "{e} {nu}"
        );
        assert!((rest_volume(&rest_shape(corner_tet()).unwrap()) - 1e-3 / 6.0).abs() < 1e-9);
        let (mu, lnh) = lame(1e6, 0.25);
        assert!((mu - 4e5).abs() < 1.0, "{mu}");
        assert!((lnh - (4e5 + 4e5)).abs() < 1.0, "{lnh}");
        assert!(rest_shape([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)]).is_none());
    }
}
