//! A rigid Fixed joint solved as one block: its three positional and
//! three angular constraints together, by a 6 × 6 solve, so that a
//! correction of the point no longer undoes the angle's and back (one
//! after the other, an L of two bars under its own weight gave 0.048 rad
//! at eight rounds a pass).
//!
//! For impulses P at the two points (+P on a, −P on b) and L about them,
//! the relative move of the points and turn of the bodies is
//!
//! ```text
//! [Δp]   [K_pp  K_pl] [P]      K_pp = (1/m_a + 1/m_b)·1 − [r_a]×I_a⁻¹[r_a]× − [r_b]×I_b⁻¹[r_b]×
//! [Δθ] = [K_lp  K_ll] [L],     K_pl = −[r_a]×I_a⁻¹ − [r_b]×I_b⁻¹ = K_lpᵀ,  K_ll = I_a⁻¹ + I_b⁻¹
//! ```
//!
//! (world-frame inverse inertias, arms r from each centre to its point);
//! the block solves it for the move and turn that close the joint.

use glam::{Mat3, Vec3};

use super::end::{End, Ends, Particles, turned, world_inv_inertia};

/// What one end brings to the block: 1/m, I⁻¹ (world) and its arm.
struct Side {
    inv_mass: f32,
    inv_inertia: Mat3,
    arm: Vec3,
}

fn side<P: Particles>(e: &Ends<P>, end: End, at: Vec3) -> Side {
    match end {
        End::Rigid(r) if !e.rigid[r].fixed => {
            let b = &e.rigid[r];
            let col = |v: Vec3| world_inv_inertia(b, v);
            Side {
                inv_mass: 1.0 / b.mass,
                inv_inertia: Mat3::from_cols(col(Vec3::X), col(Vec3::Y), col(Vec3::Z)),
                arm: at - b.x,
            }
        }
        _ => Side {
            inv_mass: 0.0,
            inv_inertia: Mat3::ZERO,
            arm: Vec3::ZERO,
        },
    }
}

/// \[r\]×: the matrix of r × ·.
fn cross(r: Vec3) -> Mat3 {
    Mat3::from_cols(
        Vec3::new(0.0, r.z, -r.y),
        Vec3::new(-r.z, 0.0, r.x),
        Vec3::new(r.y, -r.x, 0.0),
    )
}

/// Moves `a`'s point `pa` by `corr` relative to `b`'s `pb` and turns `a`
/// by the rotation vector `turn` relative to `b`, both at once (times the
/// PBD stiffness `k`; 1 in XPBD, where the block is for α = 0 only).
pub(crate) fn close<P: Particles>(
    e: &mut Ends<P>,
    (a, pa): (End, Vec3),
    (b, pb): (End, Vec3),
    (corr, turn): (Vec3, Vec3),
    k: f32,
) {
    let (sa, sb) = (side(e, a, pa), side(e, b, pb));
    let (ca, cb) = (cross(sa.arm), cross(sb.arm));
    let kpp = Mat3::IDENTITY * (sa.inv_mass + sb.inv_mass)
        - ca * sa.inv_inertia * ca
        - cb * sb.inv_inertia * cb;
    let kpl = -(ca * sa.inv_inertia) - cb * sb.inv_inertia;
    let kll = sa.inv_inertia + sb.inv_inertia;
    let mut m = [[0f64; 7]; 6];
    for i in 0..3 {
        for j in 0..3 {
            m[i][j] = kpp.col(j)[i] as f64;
            m[i][j + 3] = kpl.col(j)[i] as f64;
            m[i + 3][j] = kpl.col(i)[j] as f64; // K_lp = K_plᵀ
            m[i + 3][j + 3] = kll.col(j)[i] as f64;
        }
        m[i][6] = corr[i] as f64;
        m[i + 3][6] = turn[i] as f64;
    }
    let Some(y) = solve(m) else {
        return;
    };
    let impulse = Vec3::new(y[0] as f32, y[1] as f32, y[2] as f32) * k;
    let angular = Vec3::new(y[3] as f32, y[4] as f32, y[5] as f32) * k;
    if !(impulse.is_finite() && angular.is_finite()) {
        return;
    }
    for (end, at, sign) in [(a, pa, 1.0), (b, pb, -1.0)] {
        if let End::Rigid(r) = end {
            let body = &mut e.rigid[r];
            if body.fixed {
                continue;
            }
            let (p, l) = (impulse * sign, angular * sign);
            let arm = at - body.x;
            body.x += p / body.mass;
            body.dx += p / body.mass;
            let dw = world_inv_inertia(body, arm.cross(p) + l);
            body.q = turned(body.q, dw);
            body.dtheta += dw;
        }
    }
}

/// Solves the 6 × 6 system whose right-hand side is column 6, by Gaussian
/// elimination with partial pivoting; None when it is singular (both ends
/// fixed, or no rotational freedom).
fn solve(mut m: [[f64; 7]; 6]) -> Option<[f64; 6]> {
    let scale = (0..6).map(|i| m[i][i].abs()).fold(0.0, f64::max);
    for c in 0..6 {
        let pivot = (c..6).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[pivot][c].abs() <= scale * 1e-12 {
            return None;
        }
        m.swap(c, pivot);
        let top = m[c];
        for row in &mut m[c + 1..] {
            let f = row[c] / top[c];
            for (x, t) in row[c..].iter_mut().zip(&top[c..]) {
                *x -= f * t;
            }
        }
    }
    let mut y = [0f64; 6];
    for r in (0..6).rev() {
        let rest: f64 = (r + 1..6).map(|k| m[r][k] * y[k]).sum();
        y[r] = (m[r][6] - rest) / m[r][r];
    }
    Some(y)
}
