//! Neo-Hookean tetrahedra: the energy of Macklin & Müller 2021, "A
//! Constraint-based Formulation of Stable Neo-Hookean Materials", as one
//! constraint per tetrahedron.
//!
//! With corners x₀ … x₃, Dₛ = [x₁ − x₀, x₂ − x₀, x₃ − x₀] and its value at
//! rest D_m, the deformation gradient is F = Dₛ·D_m⁻¹, J = det F, and
//!
//!   Ψ = ½μ(‖F‖² − 3) + ½λ'(J − 1 − μ/λ')² − ½μ²/λ'
//!
//! from Lamé μ = E/(2(1+ν)) and λ = Eν/((1+ν)(1−2ν)), with λ' = λ + μ:
//! it linearises to Lamé coefficients μ and λ' − μ = λ, so small strains
//! follow E and ν, and it is 0 at rest (the last term), where its
//! gradient vanishes too. Its J term pushes an inverted tetrahedron (J <
//! 0) back through zero: the formulation is stable under inversion,
//! which is its point. The constraint is C = √(2Ψ) with α = 1/V₀: its
//! XPBD energy ½C²/α is V₀·Ψ. PBD, which has no material, has no α and
//! drives Ψ to 0: the rest shape.
//!
//! The paper's own two constraints, ‖F‖ (α = 1/(μV₀)) and J − 1 − μ/λ'
//! (α = 1/(λ'V₀)), are not zero at rest: they pull against each other
//! along the same direction, held only by their compliances, and each
//! substep's λ starts from zero. Where the tetrahedra are stiff for their
//! mass (α̃ far below Σw|∇C|²) the first pulled a tetrahedron to a point
//! where the second's gradient vanishes, and a block exploded: 1 kg, 0.3
//! m, E = 1 GPa, dropped on the ground, had 56 kJ of kinetic energy
//! after 10 s; 10 g at E = 100 kPa, 152 J; solved as one 2 × 2 system
//! per tetrahedron, 15 kJ and 85 J. On Ψ both rest.
//!
//! ∂Ψ/∂F = μF + λ'(J − 1 − μ/λ')·cof F, cof F = [f₂ × f₃, f₃ × f₁, f₁ ×
//! f₂] (fᵢ the columns of F), maps to the corners as ∂Ψ/∂Dₛ =
//! (∂Ψ/∂F)·D_m⁻ᵀ: columns 1–3 are ∇₁ … ∇₃ and ∇₀ = −(∇₁ + ∇₂ + ∇₃).
//! Geometry in f64.

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
    /// and Poisson's ratio `nu`, and each its compliance 1/V₀.
    pub fn set_neo_hookean(&mut self, body: usize, e: f32, nu: f32) {
        let (mu, lambda) = lame(e, nu);
        self.quads
            .for_each_of(body, |kind, shape, compliance, material| {
                if kind == QuadKind::NeoHookean {
                    *compliance = (1.0 / rest_volume(shape)) as f32;
                    *material = [mu, lambda];
                }
            });
    }

    /// Body `body`'s Young's modulus (Pa) and Poisson's ratio, if it is a
    /// neo-Hookean solid.
    pub fn neo_hookean(&self, body: usize) -> Option<(f32, f32)> {
        let (.., [mu, lambda]) =
            (self.quads.of_body(body)).find(|q| q.0 == QuadKind::NeoHookean)?;
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

/// The constraint of a tetrahedron with Lamé μ and shifted λ' (Pa)
/// `material` at corners `x`: C = √(2Ψ) with Ψ the energy density over
/// its rest value, and ∇C = ∇Ψ/C; None at rest (Ψ = 0 to rounding),
/// where it has nothing to do. Ψ is summed from terms that vanish at
/// rest (F = I + E, ‖F‖² − 3 = ‖E‖² + 2 tr E, and the hydrostatic part
/// as (J − 1)(J − 1 − 2μ/λ')), so a small strain is not lost to rounding.
#[inline(never)]
pub(crate) fn constraint(
    x: [DVec3; 4],
    shape: &[f32; 9],
    [mu, lnh]: [f32; 2],
) -> Option<(f64, [DVec3; 4])> {
    let (f, dm_inv) = deformation(x, shape);
    let (mu, lnh) = (mu as f64, lnh as f64);
    let e = f - DMat3::IDENTITY;
    let norm2_less_3 = e.col(0).length_squared()
        + e.col(1).length_squared()
        + e.col(2).length_squared()
        + 2.0 * (e.col(0).x + e.col(1).y + e.col(2).z);
    let (f1, f2, f3) = (f.col(0), f.col(1), f.col(2));
    let j_less_1 = f.determinant() - 1.0;
    let psi = 0.5 * mu * norm2_less_3 + 0.5 * lnh * j_less_1 * (j_less_1 - 2.0 * mu / lnh);
    let c = (2.0 * psi).sqrt();
    // Ψ is ~δ² for a strain δ, its rounding ~1e-16 of μ: C below 1e-7·√μ
    // is a strain below ~1e-7, what f32 positions hold.
    if !c.is_finite() || c <= 1e-7 * (mu + lnh).sqrt() {
        return None;
    }
    // ∂Ψ/∂F = μF + λ'(J − γ)·cof F, γ = 1 + μ/λ'.
    let cofactor = DMat3::from_cols(f2.cross(f3), f3.cross(f1), f1.cross(f2));
    let dpsi = f * mu + cofactor * (lnh * (j_less_1 - mu / lnh));
    Some((c, corner_gradient(dpsi * (1.0 / c), dm_inv)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corner_tet() -> [DVec3; 4] {
        [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z].map(|p| p * 0.1)
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_stretched_sheared_and_inverted_tetrahedra() {
        let shape = rest_shape(corner_tet()).unwrap();
        let material = [4e5, 8e5];
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
            let value = |x: [DVec3; 4]| constraint(x, &shape, material).unwrap().0;
            let (c, g) = constraint(x, &shape, material).unwrap();
            for i in 0..4 {
                for axis in 0..3 {
                    let (mut plus, mut minus) = (x, x);
                    plus[i][axis] += step;
                    minus[i][axis] -= step;
                    let fd = (value(plus) - value(minus)) / (2.0 * step);
                    // C is O(√μ) = O(1e3) a unit strain and the gradients
                    // O(C/edge) = O(1e4); f32 D_m⁻¹ and a central difference
                    // leave about 1e-5 of that.
                    assert!(
                        (fd - g[i][axis]).abs() <= 1e-4 * (1.0 + g[i][axis].abs()),
                        "{i}/{axis}: {} vs {fd} (C {c})",
                        g[i][axis]
                    );
                }
            }
        }
    }

    #[test]
    fn at_rest_and_turned_a_tetrahedron_has_no_energy_and_nothing_to_do() {
        let x = corner_tet();
        let shape = rest_shape(x).unwrap();
        let material = {
            let (mu, lnh) = lame(1e5, 0.3);
            [mu, lnh]
        };
        assert!(constraint(x, &shape, material).is_none());
        let turn = glam::DQuat::from_axis_angle(DVec3::new(1.0, 2.0, 3.0).normalize(), 0.7);
        let turned = x.map(|p| turn * p + DVec3::new(0.3, -0.2, 5.0));
        assert!(constraint(turned, &shape, material).is_none());
        // Stretched 1 % along x: Ψ ≈ ½(λ + 2μ)ε² (uniaxial strain).
        let stretched = x.map(|p| DVec3::new(p.x * 1.01, p.y, p.z));
        let (c, _) = constraint(stretched, &shape, material).unwrap();
        let (mu, lambda) = (material[0] as f64, (material[1] - material[0]) as f64);
        let psi = 0.5 * (lambda + 2.0 * mu) * 1e-4;
        assert!(
            (0.5 * c * c / psi - 1.0).abs() < 0.02,
            "{} vs {psi}",
            0.5 * c * c
        );
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
