//! Constraint damping β on a rod solved directly (DESIGN §2, step 6):
//! its joints' dashpots, solved together with the rod's own factor
//! (`super::rod_direct`), so that they reach the centreline.

use glam::{DVec3, Quat, Vec3, Vec4};

use super::particles::{Losses, kinetic_drop, losses};
use super::rod_direct::{Block, Rows, Shape, push, solve, turns};

/// One rod's tables for its dashpot: the particles' velocities (inverse
/// masses in `prev.w`) and the segments' angular velocities.
pub(crate) struct RodVelocities<'a> {
    pub prev: &'a [Vec4],
    pub vel: &'a mut [Vec3],
    pub q: &'a [Quat],
    pub omega: &'a mut [Vec3],
    pub inv_inertia: &'a [Vec3],
    pub length: &'a [f32],
    pub scratch: &'a mut [Block],
    /// The particles' energy books.
    pub lost: &'a mut [Losses],
}

/// Step 6 for a rod solved directly: DESIGN §2's dashpot of β on each
/// joint's bend–twist rows, solved for the whole rod at once as its
/// positions are (`beta_h` = β·h): (J·W·Jᵀ + D)·p = −J·v, Δv = W·Jᵀ·p,
/// with D = I/(β·h) on the joints' rows. A joint's row alone is the
/// contract's p = −(∇C·v)·β·h/(1 + β·Σw|∇C|²·h). The segments' stretch–shear
/// rows, the stiff rows that tie the frames to the centreline, get D = 0:
/// the pass takes their rate out, and through them a joint's dashpot
/// reaches the centreline, so a bending swing decays at the Kelvin–Voigt
/// rate β·α·ω²/2 (α = 1/(E·I·ℓ), a joint's compliance). Damping each row
/// alone, or the stretch–shear rows with dashpots of β, left the
/// centreline free to take the joints' damping back as shear (a stiff
/// rod kept its swing, or lost it at 0.3 of that rate).
///
/// J·v is taken over what moves freely (an end a driver turns counts as
/// at rest), so the right-hand side lies in J's range: a rod clamped at
/// both ends has six redundant rows, and a driven end's spin along them
/// (which no free motion can take up) made p huge in rounding, and a
/// twisted plectoneme gain 10⁴ J. With J·W·Jᵀ positive semi-definite the
/// pass then only ever takes kinetic energy out; each particle's share is
/// booked in `lost`.
pub(crate) fn damp(rod: RodVelocities, beta_h: f64) {
    let n = rod.q.len();
    let RodVelocities {
        prev,
        vel,
        q,
        omega,
        inv_inertia,
        length,
        scratch,
        lost,
    } = rod;
    let shape = Shape {
        prev,
        q,
        inv_inertia,
        length,
    };
    let d = 1.0 / beta_h;
    let om = |s: usize| {
        if inv_inertia[s] == Vec3::ZERO {
            DVec3::ZERO
        } else {
            omega[s].as_dvec3()
        }
    };
    let v = |i: usize| {
        if shape.w(i) > 0.0 {
            vel[i].as_dvec3()
        } else {
            DVec3::ZERO
        }
    };
    let solved = solve(shape, scratch, |i, f, gi| {
        // −J·v of what moves freely: the stretch–shear rate
        // (v₁ − v₀)/ℓ + d₃ × ω and the joint's bend–twist rate G·(ω₊ − ω).
        let rate_ss = (v(i + 1) - v(i)) / length[i] as f64 + f.r.z_axis.cross(om(i));
        let mut rhs = [0.0; 6];
        rhs[..3].copy_from_slice(&(-rate_ss).to_array());
        if i + 1 < n {
            let rate_bt = *gi * (om(i + 1) - om(i));
            rhs[3..].copy_from_slice(&(-rate_bt).to_array());
        }
        Rows {
            ss: 0.0,
            bt: DVec3::splat(d),
            rhs,
        }
    });
    if !solved {
        return;
    }
    turns(scratch);
    for (j, v) in vel.iter_mut().enumerate() {
        let before = *v;
        *v += push(shape, scratch, j).as_vec3();
        let w = prev[j].w;
        if w > 0.0 {
            lost[j][losses::DAMPING] += kinetic_drop(w, before, *v);
        }
    }
    for (w, block) in omega.iter_mut().zip(scratch.iter()) {
        *w += block.turn.as_vec3();
    }
}
