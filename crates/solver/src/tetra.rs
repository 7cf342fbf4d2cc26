//! Tetrahedron volume: a soft solid keeps the volume of each of its cells.
//!
//! For corners x₁ … x₄ the signed volume is
//!
//!   V = (x₂ − x₁) × (x₃ − x₁) · (x₄ − x₁) / 6      (> 0 for a right-handed order)
//!   ∇₂V = (x₃ − x₁) × (x₄ − x₁) / 6,  ∇₃V = (x₄ − x₁) × (x₂ − x₁) / 6,
//!   ∇₄V = (x₂ − x₁) × (x₃ − x₁) / 6,  ∇₁V = −(∇₂V + ∇₃V + ∇₄V),
//!
//! and C = V − V₀ with V₀ the volume as built. A tetrahedron pushed inside
//! out has V < 0 and is pushed back the same way, so the constraint also
//! un-inverts. α is in m⁵/N: metres³ of volume change per pascal. The
//! geometry is done in f64 (volumes are products of three small
//! differences); a flat tetrahedron still has a gradient, and one with all
//! four corners together has none and is skipped by the solver.

use glam::{DVec3, Vec3};

/// The signed volume of corners `x` (m³) and its gradient per corner.
pub fn volume_and_gradient(x: [DVec3; 4]) -> (f64, [DVec3; 4]) {
    let [x1, x2, x3, x4] = x;
    let (a, b, c) = (x2 - x1, x3 - x1, x4 - x1);
    let g2 = b.cross(c) / 6.0;
    let g3 = c.cross(a) / 6.0;
    let g4 = a.cross(b) / 6.0;
    (a.dot(g2), [-(g2 + g3 + g4), g2, g3, g4])
}

/// The constraint C = V − V₀ (m³) and its gradient for corners `x`.
#[inline]
pub(crate) fn constraint(x: [DVec3; 4], rest: f32) -> Option<(f64, [DVec3; 4])> {
    let (v, grad) = volume_and_gradient(x);
    Some((v - rest as f64, grad))
}

/// The signed volume of corners `p` of `pos` (m³).
pub fn volume_of(pos: &[Vec3], p: [usize; 4]) -> f32 {
    volume_and_gradient(p.map(|i| pos[i].as_dvec3())).0 as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_corner_tetrahedron_has_a_sixth_of_a_cubic_metre() {
        let (v, _) = volume_and_gradient([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]);
        assert!((v - 1.0 / 6.0).abs() < 1e-15, "{v}");
        let (flipped, _) = volume_and_gradient([DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z]);
        assert!((flipped + 1.0 / 6.0).abs() < 1e-15, "{flipped}");
    }

    #[test]
    fn the_gradient_matches_finite_differences_on_random_and_flat_tetrahedra() {
        let mut seed = crate::lcg::Lcg(11);
        let mut rnd = || seed.next();
        let mut cases: Vec<[DVec3; 4]> = (0..100)
            .map(|_| std::array::from_fn(|_| DVec3::new(rnd(), rnd(), rnd())))
            .collect();
        // Flat (all in z = 0) and inverted.
        cases.push([DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(0.3, 0.3, 0.0)]);
        cases.push([DVec3::ZERO, DVec3::Y, DVec3::X, DVec3::Z]);
        let h = 1e-6;
        for x in cases {
            let (_, grad) = volume_and_gradient(x);
            for i in 0..4 {
                for axis in 0..3 {
                    let (mut plus, mut minus) = (x, x);
                    plus[i][axis] += h;
                    minus[i][axis] -= h;
                    let fd =
                        (volume_and_gradient(plus).0 - volume_and_gradient(minus).0) / (2.0 * h);
                    assert!(
                        (fd - grad[i][axis]).abs() <= 1e-8,
                        "corner {i} axis {axis}: {} vs {fd}",
                        grad[i][axis]
                    );
                }
            }
        }
    }
}
