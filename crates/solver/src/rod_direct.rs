//! The direct solve of one rod's constraints (Deul, Kugelstadt, Weiler,
//! Bender 2018, "Direct Position-Based Solver for Stiff Rods").
//!
//! Gauss–Seidel projects a rod's constraints one at a time, and a thin
//! segment's rotational inertia is so small (w·h² ≫ α) that a pass
//! bends a stiff rod far more than its compliance allows: stiffness then
//! comes only from many passes. Here one pass solves every constraint of
//! the rod at once, the XPBD step linearised about the current positions
//! and orientations:
//!
//!   (J·W·Jᵀ + α̃)·Δλ = −C − α̃·λ,   Δq = W·Jᵀ·Δλ,
//!
//! W the particles' inverse masses and the segments' inverse inertias.
//! Ordered per segment as [stretch–shear i, bend–twist i] (6 rows; the
//! last segment has no joint, its 3 extra rows are the identity), the
//! system is block tridiagonal: block i meets block i+1 through particle
//! i+1 and orientation i+1 only. Its block Cholesky factor is block
//! bidiagonal — diagonal blocks Lᵢ (6×6 Cholesky factors) and below them
//! Eᵢᵀ with Eᵢ = Lᵢ⁻¹·Cᵢ, Cᵢ block i's coupling to block i + 1:
//!
//!   Lᵢ·Lᵢᵀ = Bᵢ − Eᵢ₋₁ᵀ·Eᵢ₋₁,   Lᵢ·zᵢ = rᵢ − Eᵢ₋₁ᵀ·zᵢ₋₁,
//!   Lᵢᵀ·Δλᵢ = zᵢ − Eᵢ·Δλᵢ₊₁,
//!
//! one sweep forward and one back, O(n), in f64, into per-segment scratch
//! that is allocated when the rod is built. Only triangular solves with
//! the factors' stored reciprocal diagonals and one symmetric product a
//! block: no divisions in the sweep, and sums that do not wait on each
//! other (a hair of 30 segments is 6 × 30 rows, 20 substeps a frame).
//!
//! Jacobians (see `super::rods`): stretch–shear ∂/∂xᵢ = −I/ℓᵢ,
//! ∂/∂xᵢ₊₁ = I/ℓᵢ, ∂/∂θᵢ = \[d₃\]×; bend–twist ∂/∂θᵢ = −Gᵢ, ∂/∂θᵢ₊₁ = Gᵢ
//! with Gᵢ = `joint_gradient` (ℓ̄ the joint's mean segment length).

// Small dense matrices read best as index loops, as in the formulas.
#![allow(clippy::needless_range_loop)]

use glam::{DMat3, DVec3, Quat, Vec3, Vec4};

use super::rods::{
    cross_cols, darboux, joint_gradient_turned, rotated, world_inverse_inertia_turned,
};

type M6 = [[f64; 6]; 6];

/// One segment's rows of the sweep: its diagonal block's Cholesky factor
/// L (lower triangle) and the reciprocals of its diagonal, E = L⁻¹·C, and
/// z, then Δλ; and its frame and joint gradient where the pass
/// linearised, which the turns after the solve read again.
#[derive(Clone, Copy, Debug)]
pub struct Block {
    d: M6,
    inv: [f64; 6],
    c: M6,
    y: [f64; 6],
    pub(super) frame: Frame,
    joint: DMat3,
    pub(super) turn: DVec3,
}

impl Default for Block {
    fn default() -> Self {
        Self {
            d: [[0.0; 6]; 6],
            inv: [0.0; 6],
            c: [[0.0; 6]; 6],
            y: [0.0; 6],
            frame: Frame {
                r: DMat3::ZERO,
                w: DMat3::ZERO,
            },
            joint: DMat3::ZERO,
            turn: DVec3::ZERO,
        }
    }
}

/// One rod's tables for a direct solve: particles `prev`/`delta` (its n + 1,
/// inverse mass in `prev.w`) and its n segments' columns.
pub(crate) struct RodSlices<'a> {
    pub prev: &'a [Vec4],
    pub delta: &'a mut [Vec4],
    pub q: &'a mut [Quat],
    pub inv_inertia: &'a [Vec3],
    pub length: &'a [f32],
    pub stretch_compliance: &'a [f32],
    pub bend_compliance: &'a [Vec3],
    pub rest_darboux: &'a [Vec3],
    pub lambda_stretch: &'a mut [Vec3],
    pub lambda_bend: &'a mut [Vec3],
    pub scratch: &'a mut [Block],
}

/// What one segment contributes, read once per solve.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// R(q) and the world inverse inertia R·diag(w)·Rᵀ.
    pub r: DMat3,
    w: DMat3,
}

fn frame(q: Quat, w: Vec3) -> Frame {
    let r = DMat3::from_quat(q.as_dquat());
    Frame {
        r,
        w: world_inverse_inertia_turned(r, w),
    }
}

/// Writes 3×3 `m` into rows `r0..r0+3`, columns `c0..c0+3` of `a`.
fn put(a: &mut M6, (r0, c0): (usize, usize), m: DMat3) {
    for (c, col) in [m.x_axis, m.y_axis, m.z_axis].iter().enumerate() {
        for (r, v) in col.to_array().iter().enumerate() {
            a[r0 + r][c0 + c] = *v;
        }
    }
}

/// Cholesky factor of symmetric `a` in place (lower triangle, read from
/// the lower triangle); returns the reciprocals of its diagonal.
///
/// A pivot that is not positive, or that elimination brought below 1e−9
/// of its row's diagonal entry before it (`scale`: the block's own, before
/// the sweep took the previous block out), belongs to a row the others
/// already fix: a
/// rod clamped at both ends with rigid segments has one more stretch
/// constraint along it than it has free particles, and rounding would
/// make that pivot tiny and its Δλ huge. Such a row is dropped from the
/// solve — its pivot is made 1e30, so its Δλ is 0 — and the rows before
/// it keep the constraint.
fn cholesky(a: &mut M6, scale: [f64; 6]) -> [f64; 6] {
    let mut inv = [0.0; 6];
    for j in 0..6 {
        let own = scale[j];
        let mut d = a[j][j];
        for k in 0..j {
            d -= a[j][k] * a[j][k];
        }
        if !(d > 1e-9 * own && d.is_finite()) {
            a[j][j] = 1e30;
            inv[j] = 1e-30;
            for i in j + 1..6 {
                a[i][j] = 0.0;
            }
            continue;
        }
        let d = d.sqrt();
        a[j][j] = d;
        inv[j] = 1.0 / d;
        for i in j + 1..6 {
            let mut s = a[i][j];
            for k in 0..j {
                s -= a[i][k] * a[j][k];
            }
            a[i][j] = s * inv[j];
        }
    }
    inv
}

/// The first row of column j of Eᵢ = Lᵢ⁻¹·Cᵢ that can be non-zero. Cᵢ
/// couples block i to block i + 1 through particle i + 1 (its stretch rows,
/// a diagonal −w/(ℓᵢℓᵢ₊₁)·I in columns 0..3) and orientation i + 1 (its
/// bend rows only): its top right 3×3 is zero and its top left diagonal,
/// so column j < 3 of Lᵢ⁻¹·Cᵢ starts at row j and the others at row 3.
/// Sums over E's zero entries are left out: they would only add +0.
const E_BELOW: [usize; 6] = [0, 1, 2, 3, 3, 3];

/// Solves L·x = b in place for the factor `l` (reciprocal diagonal
/// `inv`), `b`'s rows before `start` being zero (they stay so).
#[inline(always)]
fn forward_from(l: &M6, inv: &[f64; 6], b: &mut [f64; 6], start: usize) {
    for i in start..6 {
        let mut s = b[i];
        for k in start..i {
            s -= l[i][k] * b[k];
        }
        b[i] = s * inv[i];
    }
}

/// Solves Lᵀ·x = b in place for the factor `l` (reciprocal diagonal `inv`).
#[inline(always)]
fn backward(l: &M6, inv: &[f64; 6], b: &mut [f64; 6]) {
    for i in (0..6).rev() {
        let mut s = b[i];
        for k in i + 1..6 {
            s -= l[k][i] * b[k];
        }
        b[i] = s * inv[i];
    }
}

fn as_f64(v: Vec3) -> DVec3 {
    v.as_dvec3()
}

/// What a solve adds to block i of J·W·Jᵀ and solves for: `ss` on the
/// stretch–shear diagonal, `bt` on the bend–twist diagonal, and the
/// right-hand side (6 rows; the last block's bend rows are 0).
pub(super) struct Rows {
    pub ss: f64,
    pub bt: DVec3,
    pub rhs: [f64; 6],
}

/// The rod's geometry a solve linearises about: its particles' inverse
/// masses (`prev.w`), orientations, inverse inertias and lengths.
#[derive(Clone, Copy)]
pub(super) struct Shape<'a> {
    pub prev: &'a [Vec4],
    pub q: &'a [Quat],
    pub inv_inertia: &'a [Vec3],
    pub length: &'a [f32],
}

impl Shape<'_> {
    pub fn w(&self, i: usize) -> f64 {
        self.prev[i].w as f64
    }

    /// The mean length of joint i's two segments.
    fn joint(&self, i: usize) -> f64 {
        0.5 * (self.length[i] + self.length[i + 1]) as f64
    }
}

/// Factors (J·W·Jᵀ + D) block by block into `scratch` and solves it for
/// the right-hand side, D and the right-hand side from `rows(i, frame i,
/// joint gradient i)`: the solution is left in each block's `y`. False
/// when it is not finite (a system too ill-conditioned for f64).
pub(super) fn solve(
    shape: Shape,
    scratch: &mut [Block],
    mut rows: impl FnMut(usize, &Frame, &DMat3) -> Rows,
) -> bool {
    let n = shape.q.len();
    let (q, len_of) = (shape.q, shape.length);
    // Forward sweep: assemble block i, eliminate block i − 1 from it.
    let mut frame_i = frame(q[0], shape.inv_inertia[0]);
    let mut joint_i =
        (n > 1).then(|| joint_gradient_turned(q[0], q[1], frame_i.r, shape.joint(0) as f32));
    for i in 0..n {
        let f = frame_i;
        let next = (i + 1 < n).then(|| frame(q[i + 1], shape.inv_inertia[i + 1]));
        let len = len_of[i] as f64;
        let gi = joint_i.unwrap_or(DMat3::ZERO);
        let Rows { ss, bt, mut rhs } = rows(i, &f, &gi);
        let mut b: M6 = [[0.0; 6]; 6];
        let moving = (shape.w(i) + shape.w(i + 1)) / (len * len);
        // [d₃]×·W, and below Gᵢ·W₊, each used twice; products with a
        // [v]× as cross products (W symmetric: [d₃]×·W·[d₃]×ᵀ = [d₃]×·([d₃]×·W)ᵀ).
        let d3 = f.r.z_axis;
        let skew_w = cross_cols(d3, f.w);
        let diag = DMat3::from_diagonal(DVec3::splat(moving + ss));
        put(&mut b, (0, 0), diag + cross_cols(d3, skew_w.transpose()));
        let mut c: M6 = [[0.0; 6]; 6];
        match next {
            Some(g) => {
                let block = gi * (f.w + g.w) * gi.transpose() + DMat3::from_diagonal(bt);
                put(&mut b, (3, 3), block);
                let cross = -(skew_w * gi.transpose());
                put(&mut b, (0, 3), cross);
                put(&mut b, (3, 0), cross.transpose());
                // Coupling to block i + 1: particle i + 1, orientation i + 1.
                let len_next = len_of[i + 1] as f64;
                let w_next = shape.w(i + 1);
                put(
                    &mut c,
                    (0, 0),
                    DMat3::from_diagonal(DVec3::splat(-w_next / (len * len_next))),
                );
                let gi_w = gi * g.w;
                // Gᵢ·W₊·[d₃₊]×ᵀ = ([d₃₊]×·(Gᵢ·W₊)ᵀ)ᵀ.
                put(
                    &mut c,
                    (3, 0),
                    cross_cols(g.r.z_axis, gi_w.transpose()).transpose(),
                );
                joint_i = None;
                if i + 2 < n {
                    let (q1, q2) = (q[i + 1], q[i + 2]);
                    let next_joint = joint_gradient_turned(q1, q2, g.r, shape.joint(i + 1) as f32);
                    put(&mut c, (3, 3), -(gi_w * next_joint.transpose()));
                    joint_i = Some(next_joint);
                }
            }
            None => put(&mut b, (3, 3), DMat3::IDENTITY),
        }
        let scale: [f64; 6] = std::array::from_fn(|r| b[r][r]);
        if i > 0 {
            // B_i −= E_{i−1}ᵀ·E_{i−1} (lower triangle), r_i −= E_{i−1}ᵀ·z_{i−1}.
            // E's column r is zero above row `E_BELOW[r]`: sums start
            // there, from the same +0 the skipped terms keep.
            let prev = &scratch[i - 1];
            let e = &prev.c;
            for r in 0..6 {
                for s in 0..=r {
                    let mut sum = 0.0;
                    for t in E_BELOW[r]..6 {
                        sum += e[t][r] * e[t][s];
                    }
                    b[r][s] -= sum;
                }
                let mut sum = 0.0;
                for t in E_BELOW[r]..6 {
                    sum += e[t][r] * prev.y[t];
                }
                rhs[r] -= sum;
            }
        }
        let inv = cholesky(&mut b, scale);
        forward_from(&b, &inv, &mut rhs, 0);
        // E_i = L_i⁻¹·C_i, column by column, from the column's first row
        // that can be non-zero.
        for col in 0..6 {
            let mut v = [0.0; 6];
            for row in E_BELOW[col]..6 {
                v[row] = c[row][col];
            }
            forward_from(&b, &inv, &mut v, E_BELOW[col]);
            for row in E_BELOW[col]..6 {
                c[row][col] = v[row];
            }
        }
        scratch[i] = Block {
            d: b,
            inv,
            c,
            y: rhs,
            frame: f,
            joint: gi,
            turn: DVec3::ZERO,
        };
        if let Some(g) = next {
            frame_i = g;
        }
    }
    // Back: Δλ_i = L_i⁻ᵀ·(z_i − E_i·Δλ_{i+1}), kept in y.
    for i in (0..n).rev() {
        let mut v = scratch[i].y;
        if i + 1 < n {
            let after = scratch[i + 1].y;
            let e = &scratch[i].c;
            for (r, vr) in v.iter_mut().enumerate() {
                let mut sum = 0.0;
                for t in 0..6 {
                    if r >= E_BELOW[t] {
                        sum += e[r][t] * after[t];
                    }
                }
                *vr -= sum;
            }
        }
        let block = &mut scratch[i];
        backward(&block.d, &block.inv, &mut v);
        block.y = v;
    }
    scratch.iter().all(|b| b.y.iter().all(|v| v.is_finite()))
}

fn dl_ss(b: &Block) -> DVec3 {
    DVec3::from_slice(&b.y[..3])
}

fn dl_bt(b: &Block) -> DVec3 {
    DVec3::from_slice(&b.y[3..])
}

/// W·Jᵀ·y for particle j (of n + 1): its move (or velocity change).
pub(super) fn push(shape: Shape, scratch: &[Block], j: usize) -> DVec3 {
    let n = scratch.len();
    let mut push = DVec3::ZERO;
    if j > 0 {
        push += dl_ss(&scratch[j - 1]) / shape.length[j - 1] as f64;
    }
    if j < n {
        push -= dl_ss(&scratch[j]) / shape.length[j] as f64;
    }
    push * shape.w(j)
}

/// W·Jᵀ·y for each segment, into its block's `turn`, from its own rows
/// and the joints on either side, with the frames where the system was
/// linearised; returns the largest.
pub(super) fn turns(scratch: &mut [Block]) -> f64 {
    let n = scratch.len();
    let (mut carried, mut largest) = (DVec3::ZERO, 0.0f64);
    for s in 0..n {
        let (f, gi) = (scratch[s].frame, scratch[s].joint);
        // [d₃]×ᵀ·Δλ = Δλ × d₃.
        let mut general = dl_ss(&scratch[s]).cross(f.r.z_axis) + carried;
        if s + 1 < n {
            let joint_push = gi.transpose() * dl_bt(&scratch[s]);
            general -= joint_push;
            carried = joint_push;
        }
        let turn = f.w * general;
        largest = largest.max(turn.length());
        scratch[s].turn = turn;
    }
    largest
}

/// One direct XPBD pass over a rod (`h2` = h², `xpbd` false: PBD with
/// stiffness `k`); λ reset first when `first`.
pub(crate) fn project(rod: RodSlices, h2: f32, xpbd: bool, k: f32, first: bool) {
    let n = rod.q.len();
    if first {
        rod.lambda_stretch.fill(Vec3::ZERO);
        rod.lambda_bend.fill(Vec3::ZERO);
    }
    let RodSlices {
        prev,
        delta,
        q,
        inv_inertia,
        length,
        stretch_compliance,
        bend_compliance,
        rest_darboux,
        lambda_stretch,
        lambda_bend,
        scratch,
    } = rod;
    let shape = Shape {
        prev,
        q,
        inv_inertia,
        length,
    };
    let x = |i: usize| (prev[i] + delta[i]).truncate().as_dvec3();
    let alpha = |a: f32| if xpbd { (a / h2) as f64 } else { 0.0 };
    let k = k as f64;
    let solved = solve(shape, scratch, |i, f, _| {
        let len = length[i] as f64;
        let a_s = alpha(stretch_compliance[i]);
        let c_ss = (x(i + 1) - x(i)) / len - f.r.z_axis;
        let mut rhs = [0.0; 6];
        let r_ss = -c_ss * k - as_f64(lambda_stretch[i]) * a_s;
        rhs[..3].copy_from_slice(&r_ss.to_array());
        let mut a_b = DVec3::ZERO;
        if i + 1 < n {
            if xpbd {
                a_b = as_f64(bend_compliance[i]) / h2 as f64;
            }
            let lb = shape.joint(i) as f32;
            let c_bt = as_f64(darboux(q[i], q[i + 1], lb) - rest_darboux[i]);
            let r_bt = -c_bt * k - a_b * as_f64(lambda_bend[i]);
            rhs[3..].copy_from_slice(&r_bt.to_array());
        }
        Rows {
            ss: a_s,
            bt: a_b,
            rhs,
        }
    });
    // A system too ill-conditioned for f64 (hostile radii and torques)
    // moves nothing this pass rather than anything to infinity.
    if !solved {
        return;
    }
    // Δx = W·Jᵀ·Δλ and the orientations' turns. A pass moves a particle
    // at most a segment length and turns a frame at most half a radian:
    // well-posed rods move far less, and an ill-conditioned one (hostile
    // radii, torques) is slowed, not flung to infinity.
    let mut scale = 1.0f64;
    for j in 0..=n {
        let (reach, moved) = (
            length[j.min(n - 1)] as f64,
            push(shape, scratch, j).length(),
        );
        if moved > reach {
            scale = scale.min(reach / moved);
        }
    }
    // The frames are turned only after every turn is known.
    let largest = turns(scratch);
    if largest > 0.5 {
        scale = scale.min(0.5 / largest);
    }
    for (j, d) in delta.iter_mut().enumerate() {
        *d += (push(shape, scratch, j) * scale).as_vec3().extend(0.0);
    }
    for (q, block) in q.iter_mut().zip(scratch.iter()) {
        *q = rotated(*q, (block.turn * scale).as_vec3());
    }
    for s in 0..n {
        lambda_stretch[s] += (dl_ss(&scratch[s]) * scale).as_vec3();
        if s + 1 < n {
            lambda_bend[s] += (dl_bt(&scratch[s]) * scale).as_vec3();
        }
    }
}
