//! Cosserat rods (`solver::rods`) in the step: orientations predicted and
//! finished beside the particles, and each rod's constraints projected
//! by one thread, in order, after the colours of every pass.

use std::ops::Range;

use glam::{Quat, Vec3};

use super::kinds::{Ctx, Pass};
use super::links::dashpot;
use super::pool::Team;
use super::shared::Shared;
use crate::rod_contacts;
use crate::rod_damping::{self, RodVelocities};
use crate::rod_direct::{self, Block, RodSlices};
use crate::rods::{Rod, RodSolver, Rods, Twist, bend_twist, follow, shorter, stretch_shear};

/// Views of the rod tables for one step; None when the world has no rod.
pub(crate) struct RodPass(pub Option<RawRods>);

/// The rod tables (every per-segment column has one entry per segment).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawRods {
    rods: Shared<Rod>,
    q: Shared<Quat>,
    q_prev: Shared<Quat>,
    omega: Shared<Vec3>,
    inv_inertia: Shared<Vec3>,
    length: Shared<f32>,
    stretch_compliance: Shared<f32>,
    bend_compliance: Shared<Vec3>,
    rest_darboux: Shared<Vec3>,
    lambda_stretch: Shared<Vec3>,
    lambda_bend: Shared<Vec3>,
    twist: Shared<Option<Twist>>,
    torque: Shared<Option<(Vec3, f32)>>,
    applied: Shared<Vec3>,
    scratch: Shared<Block>,
}

impl RawRods {
    /// None when there is no rod; the tables must fit `particles`.
    pub fn new(r: &mut Rods, particles: usize) -> Option<Self> {
        if r.rods.is_empty() {
            return None;
        }
        let n = r.q.len();
        let columns = [
            r.q_prev.len(),
            r.omega.len(),
            r.inv_inertia.len(),
            r.length.len(),
            r.stretch_compliance.len(),
            r.bend_compliance.len(),
            r.rest_darboux.len(),
            r.lambda_stretch.len(),
            r.lambda_bend.len(),
            r.twist.len(),
            r.torque.len(),
            r.applied.len(),
            r.scratch.len(),
        ];
        assert!(columns.iter().all(|&c| c == n), "rod tables of one length");
        for rod in &r.rods {
            assert!(rod.first_segment + rod.segments <= n && rod.segments > 0);
            assert!(
                rod.first_particle + rod.segments < particles,
                "a rod past the particles"
            );
        }
        Some(Self {
            rods: Shared::new(&mut r.rods),
            q: Shared::new(&mut r.q),
            q_prev: Shared::new(&mut r.q_prev),
            omega: Shared::new(&mut r.omega),
            inv_inertia: Shared::new(&mut r.inv_inertia),
            length: Shared::new(&mut r.length),
            stretch_compliance: Shared::new(&mut r.stretch_compliance),
            bend_compliance: Shared::new(&mut r.bend_compliance),
            rest_darboux: Shared::new(&mut r.rest_darboux),
            lambda_stretch: Shared::new(&mut r.lambda_stretch),
            lambda_bend: Shared::new(&mut r.lambda_bend),
            twist: Shared::new(&mut r.twist),
            torque: Shared::new(&mut r.torque),
            applied: Shared::new(&mut r.applied),
            scratch: Shared::new(&mut r.scratch),
        })
    }

    /// This thread's rods' segments, rod by rod.
    fn segments(self, team: &Team) -> impl Iterator<Item = (Rod, Range<usize>)> {
        // SAFETY (of the reads): the rod list is only read during the step.
        team.share(self.rods.len()).map(move |r| {
            // SAFETY: `r` is within the rod list, which no thread writes.
            let rod = unsafe { self.rods.get(r) };
            (rod, rod.first_segment..rod.first_segment + rod.segments)
        })
    }
}

impl Pass for RodPass {
    fn active(&self) -> bool {
        self.0.is_some()
    }

    /// Orientations follow their angular velocity, torques and air drag;
    /// a twisted end turns to its driver's angle at time `t`.
    unsafe fn predict(&self, ctx: &Ctx, team: &Team, t: f64, drag: f32) {
        let (Some(r), h) = (self.0, ctx.h) else {
            return;
        };
        for (_, segments) in r.segments(team) {
            for s in segments {
                // SAFETY: segment `s` belongs to this thread's rod.
                unsafe {
                    let q = r.q.get(s);
                    r.q_prev.set(s, q);
                    if let Some(twist) = r.twist.get(s) {
                        r.q.set(s, twist.at(t));
                        continue;
                    }
                    let w = r.inv_inertia.get(s);
                    if w == Vec3::ZERO {
                        continue;
                    }
                    // In the material frame, where the inertia is diagonal:
                    // ω += h·I⁻¹·τ. (The gyroscopic term ω × Iω is left out:
                    // on a cross-section's inertia it changed no test's
                    // figure, and explicit it only adds a stiff term.)
                    let mut om = q.conjugate() * (r.omega.get(s) * drag);
                    // A driven torque: its part along d₃ twists the frame;
                    // the rest bends the segment as a couple of forces on its
                    // particles, applied in the first pass (`torque_couple`):
                    // as a torque on a frame of a cross-section's inertia it
                    // would turn it by ~1 rad a substep, beyond the
                    // linearised solve's reach.
                    let torque = match r.torque.get(s) {
                        Some((tau, seconds)) => {
                            let ramp = if seconds > 0.0 {
                                (t / seconds as f64).min(1.0) as f32
                            } else {
                                1.0
                            };
                            r.applied.set(s, tau * ramp);
                            let local = q.conjugate() * (tau * ramp);
                            Vec3::new(0.0, 0.0, local.z)
                        }
                        None => Vec3::ZERO,
                    };
                    om += h * w * torque;
                    let omega = q * om;
                    r.omega.set(s, omega);
                    // The exact turn by ω·h (a first-order step loses its
                    // length at the spin rates thin segments reach).
                    r.q.set(s, (Quat::from_scaled_axis(omega * h) * q).normalize());
                }
            }
        }
    }

    unsafe fn project(&self, ctx: &Ctx, team: &Team, _mine: Range<usize>, first: bool) {
        let (p, Some(r)) = (ctx.p, self.0) else {
            return;
        };
        let h2 = ctx.h * ctx.h;
        for (rod, segments) in r.segments(team) {
            if first {
                // SAFETY: the rod's particles and segments are this thread's.
                unsafe { torque_couple(p, r, rod, segments.clone(), h2) };
            }
            // SAFETY: the rod's particles and segments are this thread's.
            unsafe { follow_segments(p, r, rod, segments.clone()) };
            if rod.solver == RodSolver::Direct {
                let particles = rod.first_particle..rod.first_particle + rod.segments + 1;
                // SAFETY: the rod's particles and segments are this thread's
                // during the pass, and only its slices touch them.
                let slices = unsafe {
                    RodSlices {
                        prev: p.prev.part(particles.clone()),
                        delta: p.delta.part_mut(particles),
                        q: r.q.part_mut(segments.clone()),
                        inv_inertia: r.inv_inertia.part(segments.clone()),
                        length: r.length.part(segments.clone()),
                        stretch_compliance: r.stretch_compliance.part(segments.clone()),
                        bend_compliance: r.bend_compliance.part(segments.clone()),
                        rest_darboux: r.rest_darboux.part(segments.clone()),
                        lambda_stretch: r.lambda_stretch.part_mut(segments.clone()),
                        lambda_bend: r.lambda_bend.part_mut(segments.clone()),
                        scratch: r.scratch.part_mut(segments.clone()),
                    }
                };
                rod_direct::project(slices, h2, ctx.xpbd, ctx.k, first);
            } else {
                // SAFETY: as for the direct solve.
                unsafe { gauss_seidel(ctx, r, rod, segments.clone(), first) };
            }
            if rod.capsules {
                let particles = rod.first_particle..rod.first_particle + rod.segments + 1;
                // SAFETY: the rod's particles and segments are this thread's
                // during the pass, and only these slices touch them.
                unsafe {
                    rod_contacts::project(
                        p.prev.part(particles.clone()),
                        p.delta.part_mut(particles),
                        r.length.part(segments),
                        rod.material.radius,
                    );
                }
            }
        }
    }

    fn damps(&self) -> bool {
        self.0.is_some()
    }

    /// Step 6's dashpot of β: for a rod solved directly, on its joints'
    /// bend–twist rates, all at once (`rod_damping::damp`); a Gauss–Seidel
    /// rod's frames carry no angular velocity from one substep to the
    /// next, so its joints have none, and its segments have a rope link's.
    unsafe fn damp(&self, ctx: &Ctx, team: &Team, _mine: Range<usize>) {
        let (p, Some(r)) = (ctx.p, self.0) else {
            return;
        };
        let beta_h = ctx.damping * ctx.h;
        if beta_h <= 0.0 {
            return;
        }
        for (rod, segments) in r.segments(team) {
            let particles = rod.first_particle..rod.first_particle + rod.segments + 1;
            if rod.solver == RodSolver::GaussSeidel {
                for i in particles.start..particles.end - 1 {
                    let tables = (p.pos, p.vel, p.inv_mass, p.lost);
                    let factor = |w: f32| beta_h / (1.0 + beta_h * w);
                    // SAFETY: particles i, i + 1 belong to this thread's rod.
                    unsafe { dashpot(tables, (i, i + 1), factor) };
                }
                continue;
            }
            // SAFETY: the rod's particles and segments are this thread's
            // until the barrier after the call, and only its slices
            // touch them.
            let slices = unsafe {
                RodVelocities {
                    prev: p.prev.part(particles.clone()),
                    vel: p.vel.part_mut(particles.clone()),
                    q: r.q.part(segments.clone()),
                    omega: r.omega.part_mut(segments.clone()),
                    inv_inertia: r.inv_inertia.part(segments.clone()),
                    length: r.length.part(segments.clone()),
                    scratch: r.scratch.part_mut(segments),
                    lost: p.lost.part_mut(particles),
                }
            };
            rod_damping::damp(slices, beta_h as f64);
        }
    }

    /// ω = 2·Im(q·q̄_prev)/h, the rotation the substep made.
    unsafe fn finish(&self, ctx: &Ctx, team: &Team) {
        let Some(r) = self.0 else {
            return;
        };
        for (rod, segments) in r.segments(team) {
            // Gauss–Seidel's projections turn a thin segment by whole
            // fractions of a radian each pass, fighting its neighbours; as
            // angular velocity those turns spin the frames and the spin
            // pumps the particles through the stretch–shear constraints
            // (measured: a coiling rod at 10^5 J in a second). Its frames
            // carry no angular velocity from one substep to the next: with
            // a cross-section's inertia, negligible beside the particles'.
            let carried = rod.solver == RodSolver::Direct;
            for s in segments {
                // SAFETY: segment `s` belongs to this thread's rod.
                unsafe {
                    let turn = shorter(r.q.get(s) * r.q_prev.get(s).conjugate());
                    let omega = Vec3::new(turn.x, turn.y, turn.z) * (2.0 / ctx.h);
                    r.omega.set(s, if carried { omega } else { Vec3::ZERO });
                }
            }
        }
    }
}

/// Each of `rod`'s free frames that its segment has turned away from by
/// more than a projection may turn it turned back onto the segment
/// ([`follow`]), before a pass: the rod's constraints then read a segment
/// that turned faster than its frame as the stretch or shear it is, not
/// as a compression along the frame's stale direction. A clamped or
/// twisted frame (no inverse inertia) is the rod's boundary: it stays.
///
/// # Safety
/// The rod's particles and segments are this thread's.
unsafe fn follow_segments(
    p: super::step::RawParticles,
    r: RawRods,
    rod: Rod,
    segments: Range<usize>,
) {
    for s in segments {
        let i = rod.first_particle + (s - rod.first_segment);
        // SAFETY: the caller's contract.
        unsafe {
            if r.inv_inertia.get(s) == Vec3::ZERO {
                continue;
            }
            r.q.set(s, follow(r.q.get(s), [p.x(i), p.x(i + 1)]));
        }
    }
}

/// The bending part of each driven torque τ on `rod`'s segments, as the
/// couple that has that torque about the segment's centre: F = τ⊥ × e/|d|
/// on its second particle and −F on its first (d = x₁ − x₀, e = d/|d|),
/// moved by h²·w·F.
///
/// # Safety
/// The rod's particles and segments are this thread's.
unsafe fn torque_couple(
    p: super::step::RawParticles,
    r: RawRods,
    rod: Rod,
    segments: Range<usize>,
    h2: f32,
) {
    for s in segments {
        // SAFETY: the caller's contract.
        unsafe {
            if r.torque.get(s).is_none() {
                continue;
            }
            let i = rod.first_particle + (s - rod.first_segment);
            let d = p.x(i + 1) - p.x(i);
            let len = d.length();
            if len <= 0.0 {
                continue;
            }
            let e = d / len;
            let tau = r.applied.get(s);
            let force = (tau - e * tau.dot(e)).cross(e) / len;
            for (j, f) in [(i, -force), (i + 1, force)] {
                // At most a segment's length a substep: a hostile torque on
                // a hair-thin rod spins it, it does not fling it to infinity.
                let push = (f * (h2 * p.inv_mass.get(j))).clamp_length_max(len);
                if push.is_finite() {
                    *p.delta.at(j) += push.extend(0.0);
                }
            }
        }
    }
}

/// One Gauss–Seidel pass over `rod`'s constraints: each segment's
/// stretch–shear, then each joint's bend–twist.
///
/// # Safety
/// The rod's particles and segments are this thread's during the pass.
unsafe fn gauss_seidel(ctx: &Ctx, r: RawRods, rod: Rod, segments: Range<usize>, first: bool) {
    let p = ctx.p;
    let h2 = ctx.h * ctx.h;
    let scale = |alpha: f32| if ctx.xpbd { alpha / h2 } else { 0.0 };
    let x = |i: usize| {
        // SAFETY: the rod's particles are this thread's during the pass.
        unsafe { p.x(i) }
    };
    for s in segments.clone() {
        let i = rod.first_particle + (s - rod.first_segment);
        // SAFETY: segment `s` and particles i, i + 1 belong to this
        // thread's rod; no other thread touches them in the pass.
        unsafe {
            let lambda = r.lambda_stretch.at(s);
            if first {
                *lambda = Vec3::ZERO;
            }
            let w = [p.inv_mass.get(i), p.inv_mass.get(i + 1)];
            let w_perp = r.inv_inertia.get(s).x;
            let alpha = (scale(r.stretch_compliance.get(s)), ctx.k);
            let len = r.length.get(s);
            let (moves, q) =
                stretch_shear([x(i), x(i + 1)], w, r.q.get(s), w_perp, len, alpha, lambda);
            *p.delta.at(i) += moves[0].extend(0.0);
            *p.delta.at(i + 1) += moves[1].extend(0.0);
            r.q.set(s, q);
        }
    }
    for s in segments.start..segments.end - 1 {
        // SAFETY: segments s, s + 1 belong to this thread's rod.
        unsafe {
            let lambda = r.lambda_bend.at(s);
            if first {
                *lambda = Vec3::ZERO;
            }
            let q = [r.q.get(s), r.q.get(s + 1)];
            let w = [r.inv_inertia.get(s), r.inv_inertia.get(s + 1)];
            let a = r.bend_compliance.get(s);
            let alpha = (Vec3::new(scale(a.x), scale(a.y), scale(a.z)), ctx.k);
            let len = 0.5 * (r.length.get(s) + r.length.get(s + 1));
            let [q0, q1] = bend_twist(q, w, len, r.rest_darboux.get(s), alpha, lambda);
            r.q.set(s, q0);
            r.q.set(s + 1, q1);
        }
    }
}
