//! Joints between two rigid bodies or a body and the world (Müller et al.
//! 2020 §3.3–3.4; Ten Minute Physics 25): a ball joint holds two points
//! together; a hinge also aligns an axis and may limit the angle about
//! it; a slider keeps the relative orientation and lets the points part
//! along an axis only, within limits; a fixed joint holds both.

use glam::{Quat, Vec3};

use super::Rigid;
use super::end::{End, Ends, Particles};
use crate::rods::shorter;

/// What a joint lets move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// Turns freely about the anchor.
    Ball,
    /// Turns about `axis` (world, as built) only.
    Hinge(Vec3),
    /// Slides along `axis` (world, as built) only, without turning.
    Slider(Vec3),
    /// Neither turns nor slides.
    Fixed,
}

impl JointKind {
    /// The constraints it projects a substep (for the projection count).
    pub fn parts(self) -> usize {
        match self {
            JointKind::Ball => 1,
            _ => 2,
        }
    }
}

/// A hinge's motor: a velocity servo that turns body a relative to b
/// about the axis toward `speed` with no more than `max_torque`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    /// Target speed of a relative to b about the axis (rad/s, right-handed).
    pub speed: f32,
    /// The most torque it gives (N·m).
    pub max_torque: f32,
}

/// A joint, as built: its anchor and axis in each body's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The first body (rigid index).
    pub a: usize,
    /// The second body, None: the world.
    pub b: Option<usize>,
    /// What it lets move.
    pub kind: JointKind,
    /// Compliance: m/N for positions, rad/(N·m) for angles.
    pub compliance: f32,
    /// Hinge angle (rad) or slider travel (m) limits, min ≤ max.
    pub limits: Option<(f32, f32)>,
    /// A hinge's motor: it turns a relative to b toward a speed.
    pub motor: Option<Motor>,
    /// The motor's torque last substep (N·m, about the axis).
    pub motor_torque: f32,
    /// The anchor in a's and b's frames (b: the world point when None).
    pub(crate) anchor: [Vec3; 2],
    /// The axis in a's and b's frames.
    pub(crate) axis: [Vec3; 2],
    /// A direction across the axis in a's and b's frames (the angle's zero).
    pub(crate) across: [Vec3; 2],
    /// b's orientation relative to a's as built, q̄_a·q_b.
    pub(crate) relative: Quat,
    pub(crate) lambda_position: f32,
    pub(crate) lambda_angle: f32,
}

impl Joint {
    /// A joint of `kind` between `a` and `b` (None: the world) at world
    /// point `anchor`, as the bodies are now.
    pub fn new(
        bodies: &[Rigid],
        (a, b): (usize, Option<usize>),
        kind: JointKind,
        anchor: Vec3,
        (compliance, limits): (f32, Option<(f32, f32)>),
    ) -> Self {
        let axis = match kind {
            JointKind::Hinge(axis) | JointKind::Slider(axis) => axis.normalize(),
            _ => Vec3::X,
        };
        let across = axis.any_orthonormal_vector();
        let ra = &bodies[a];
        let frame = |q: Quat, v: Vec3| q.conjugate() * v;
        let (qb, anchor_b) = match b {
            Some(b) => (bodies[b].q, bodies[b].local(anchor)),
            None => (Quat::IDENTITY, anchor),
        };
        Self {
            a,
            b,
            kind,
            compliance,
            limits,
            anchor: [ra.local(anchor), anchor_b],
            axis: [frame(ra.q, axis), frame(qb, axis)],
            across: [frame(ra.q, across), frame(qb, across)],
            relative: ra.q.conjugate() * qb,
            lambda_position: 0.0,
            lambda_angle: 0.0,
            motor: None,
            motor_torque: 0.0,
        }
    }

    fn ends(&self) -> (End, End) {
        (End::Rigid(self.a), self.b.map_or(End::World, End::Rigid))
    }

    /// b's orientation (the world's: identity).
    fn q_b<P: Particles>(&self, e: &Ends<P>) -> Quat {
        self.b.map_or(Quat::IDENTITY, |b| e.rigid[b].q)
    }

    /// The joint's hinge angle (rad): a's turn about the axis relative to
    /// b since it was built.
    pub fn angle(&self, bodies: &[Rigid]) -> f32 {
        let qa = bodies[self.a].q;
        let qb = self.b.map_or(Quat::IDENTITY, |b| bodies[b].q);
        let n = qa * self.axis[0];
        let (ua, ub) = (qa * self.across[0], qb * self.across[1]);
        ub.cross(ua).dot(n).atan2(ub.dot(ua))
    }

    /// The world direction of a hinge angle of zero, across its axis (as
    /// b turns it), for drawing the limits' arc.
    pub fn zero_direction(&self, bodies: &[Rigid]) -> Vec3 {
        self.b.map_or(Quat::IDENTITY, |b| bodies[b].q) * self.across[1]
    }

    /// How far the joint has moved where it may: a hinge's angle (rad), a
    /// slider's travel (m, a's anchor relative to b's along the axis);
    /// 0 for a ball or fixed joint.
    pub fn position(&self, bodies: &[Rigid]) -> f32 {
        match self.kind {
            JointKind::Hinge(_) => self.angle(bodies),
            JointKind::Slider(_) => {
                let qb = self.b.map_or(Quat::IDENTITY, |b| bodies[b].q);
                let pb = self
                    .b
                    .map_or(self.anchor[1], |b| bodies[b].point(self.anchor[1]));
                (bodies[self.a].point(self.anchor[0]) - pb).dot(qb * self.axis[1])
            }
            JointKind::Ball | JointKind::Fixed => 0.0,
        }
    }

    /// Where the joint is now (a's anchor) and, for a hinge or a slider,
    /// its axis (world frame), for drawing.
    pub fn placement(&self, bodies: &[Rigid]) -> (Vec3, Option<Vec3>) {
        let a = &bodies[self.a];
        let axis = match self.kind {
            JointKind::Hinge(_) | JointKind::Slider(_) => Some(a.q * self.axis[0]),
            JointKind::Ball | JointKind::Fixed => None,
        };
        (a.point(self.anchor[0]), axis)
    }

    /// One projection of the joint: its points, then its angular part.
    pub(crate) fn project<P: Particles>(&mut self, e: &mut Ends<P>, alpha_t: f32, k: f32) {
        let (a, b) = self.ends();
        let ak = (alpha_t, k);
        let pa = e.point(a, self.anchor[0]);
        let pb = e.point(b, self.anchor[1]);
        if self.kind == JointKind::Fixed && alpha_t == 0.0 {
            // Rigid: point and angle as one block, kept unless it opens
            // the joint (leaves its gap or its turn more than twice what
            // they were, beyond rounding): between bodies whose inertias
            // lie ten decades apart the block's turns compounded round
            // after round to NaN, where point and angle one after the
            // other, below, stay finite.
            let turn = self.turn_to_relative(e);
            let kept = (e.rigid[self.a].clone(), self.b.map(|b| e.rigid[b].clone()));
            super::block::close(e, (a, pa), (b, pb), (pb - pa, turn), k);
            let gap = e.point(b, self.anchor[1]) - e.point(a, self.anchor[0]);
            let opened = gap.length() > 2.0 * (pb - pa).length() + 1e-6;
            let turned = self.turn_to_relative(e).length() > 2.0 * turn.length() + 1e-6;
            if !(opened || turned) {
                return;
            }
            e.rigid[self.a] = kept.0;
            if let (Some(b), Some(body)) = (self.b, kept.1) {
                e.rigid[b] = body;
            }
        }
        let corr = match self.kind {
            JointKind::Slider(_) => {
                // a's point may sit anywhere on b's axis line (within the
                // limits): it moves to the nearest place it may be.
                let n = self.q_b(e) * self.axis[1];
                let travel = (pa - pb).dot(n);
                let allowed = match self.limits {
                    Some((lo, hi)) => travel.clamp(lo, hi),
                    None => travel,
                };
                pb + n * allowed - pa
            }
            _ => pb - pa,
        };
        e.correct((a, pa), (b, pb), corr, ak, &mut self.lambda_position);
        match self.kind {
            JointKind::Ball => {}
            JointKind::Hinge(_) => {
                let na = e.rigid[self.a].q * self.axis[0];
                let nb = self.q_b(e) * self.axis[1];
                e.correct_angle(a, b, na.cross(nb), ak, &mut self.lambda_angle);
                if let Some((lo, hi)) = self.limits {
                    let phi = self.angle(e.rigid);
                    let target = phi.clamp(lo, hi);
                    if target != phi {
                        let n = e.rigid[self.a].q * self.axis[0];
                        let mut free = 0.0;
                        e.correct_angle(a, b, n * (target - phi), ak, &mut free);
                    }
                }
            }
            JointKind::Slider(_) | JointKind::Fixed => {
                let corr = self.turn_to_relative(e);
                e.correct_angle(a, b, corr, ak, &mut self.lambda_angle);
            }
        }
    }

    /// The turn (rotation vector, world) that brings a's orientation back
    /// to q_b·q̄_rel, as built relative to b (the small-angle 2·Im of the
    /// difference).
    fn turn_to_relative<P: Particles>(&self, e: &Ends<P>) -> Vec3 {
        let want = self.q_b(e) * self.relative.conjugate();
        let d = shorter(want * e.rigid[self.a].q.conjugate());
        Vec3::new(d.x, d.y, d.z) * 2.0
    }

    /// The motor, in the velocity pass: the angular impulse about the
    /// axis that brings a's spin relative to b to the motor's speed,
    /// capped at max_torque·h (so a load past it slows the motor down,
    /// and a hand can stall it).
    pub(crate) fn drive<P: Particles>(&mut self, e: &mut Ends<P>, h: f32) {
        let (Some(m), JointKind::Hinge(_)) = (self.motor, self.kind) else {
            return;
        };
        let (a, b) = self.ends();
        let n = e.rigid[self.a].q * self.axis[0];
        let w = e.inv_mass(a, n, None) + e.inv_mass(b, n, None);
        if w <= 0.0 {
            self.motor_torque = 0.0;
            return;
        }
        let spin = (e.spin(a) - e.spin(b)).dot(n);
        let cap = m.max_torque * h;
        let impulse = ((m.speed - spin) / w).clamp(-cap, cap);
        e.spin_up(a, n * impulse);
        e.spin_up(b, n * -impulse);
        self.motor_torque = impulse / h;
    }
}
