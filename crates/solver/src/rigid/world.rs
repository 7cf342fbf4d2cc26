//! The world's rigid bodies: adding them, their joints and attachments,
//! and reading or setting their state.

use glam::{Quat, Vec3};

use super::joint::{Joint, JointKind, Motor};
use super::{Attachment, Rigid, RigidShape, Rigids};
use crate::World;

/// What a rigid body is made of and how it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidDesc {
    /// Its shape.
    pub shape: RigidShape,
    /// Density (kg/m³).
    pub density: f32,
    /// Coulomb μ.
    pub friction: f32,
    /// Coefficient of restitution e in [0, 1].
    pub restitution: f32,
    /// Never moves.
    pub fixed: bool,
    /// Centre of mass (m) and orientation (body → world).
    pub pose: (Vec3, Quat),
    /// Velocity (m/s) and angular velocity (rad/s, world).
    pub motion: (Vec3, Vec3),
}

impl World {
    /// The rigid bodies, joints and attachments.
    pub fn rigids(&self) -> &Rigids {
        &self.rigids
    }

    /// Makes scene body `body` (which has no particles) a rigid body;
    /// returns its index among the rigid bodies.
    ///
    /// # Panics
    /// When the density, the shape's size or the state is not finite and
    /// positive where it must be.
    pub fn add_rigid(&mut self, body: usize, d: RigidDesc) -> usize {
        let volume = d.shape.volume();
        let mass = d.density * volume;
        let inertia = d.shape.inertia(mass);
        assert!(
            mass > 0.0 && mass.is_finite() && inertia.min_element() > 0.0 && inertia.is_finite(),
            "World::add_rigid: a shape of {volume} m³ at {} kg/m³ has no usable mass",
            d.density
        );
        let (x, q) = d.pose;
        let (v, omega) = d.motion;
        assert!(x.is_finite() && q.is_finite() && v.is_finite() && omega.is_finite());
        let q = q.normalize();
        self.rigids.bodies.push(Rigid {
            body,
            shape: d.shape,
            x,
            q,
            v: if d.fixed { Vec3::ZERO } else { v },
            omega: if d.fixed { Vec3::ZERO } else { omega },
            mass,
            inertia,
            friction: d.friction,
            restitution: d.restitution,
            fixed: d.fixed,
            torque: None,
            x_prev: x,
            q_prev: q,
            dx: Vec3::ZERO,
            dtheta: Vec3::ZERO,
        });
        self.rigids.bodies.len() - 1
    }

    /// Joins rigid bodies `a` and `b` (None: the world) at world point
    /// `anchor` as they are now.
    ///
    /// # Panics
    /// When `a` or `b` is not a rigid body, or a == b.
    pub fn add_joint(
        &mut self,
        (a, b): (usize, Option<usize>),
        kind: JointKind,
        anchor: Vec3,
        (compliance, limits): (f32, Option<(f32, f32)>),
    ) {
        let n = self.rigids.bodies.len();
        assert!(
            a < n && b.is_none_or(|b| b < n && b != a),
            "World::add_joint: bodies {a}, {b:?} of {n} rigid bodies"
        );
        let joint = Joint::new(
            &self.rigids.bodies,
            (a, b),
            kind,
            anchor,
            (compliance, limits),
        );
        self.rigids.joints.push(joint);
    }

    /// Holds particle `particle` at rigid body `rigid`'s point `anchor`
    /// (its frame), both ways, with `compliance` (m/N).
    ///
    /// # Panics
    /// When either is not in the world.
    pub fn add_attachment(&mut self, particle: usize, rigid: usize, anchor: Vec3, compliance: f32) {
        self.check_particles("World::add_attachment", &[particle]);
        let n = self.rigids.bodies.len();
        assert!(
            rigid < n,
            "World::add_attachment: rigid body {rigid} of {n}"
        );
        self.rigids.attachments.push(Attachment {
            particle,
            rigid,
            anchor,
            compliance,
            lambda: 0.0,
        });
    }

    /// Sets rigid body `r`'s pose and motion (a resumed state).
    pub fn set_rigid_state(&mut self, r: usize, (x, q): (Vec3, Quat), (v, omega): (Vec3, Vec3)) {
        let b = &mut self.rigids.bodies[r];
        assert!(x.is_finite() && q.is_finite() && v.is_finite() && omega.is_finite());
        b.x = x;
        b.q = q.normalize();
        if !b.fixed {
            b.v = v;
            b.omega = omega;
        }
    }

    /// Drives rigid body `r` with `torque` (N·m, world) ramped up over
    /// `seconds`.
    pub fn torque_rigid(&mut self, r: usize, torque: Vec3, seconds: f32) {
        self.rigids.bodies[r].torque = Some((torque, seconds));
    }

    /// Fixes or frees rigid body `r`.
    pub fn set_rigid_fixed(&mut self, r: usize, fixed: bool) {
        let b = &mut self.rigids.bodies[r];
        b.fixed = fixed;
        if fixed {
            b.v = Vec3::ZERO;
            b.omega = Vec3::ZERO;
        }
    }

    /// The hand takes hold of rigid body `r` at world point `at` (any
    /// particle held is let go), with the hand's strength.
    pub fn grab_rigid(&mut self, r: usize, at: Vec3) {
        let local = self.rigids.bodies[r].local(at);
        self.grab_rigid_local(r, local);
    }

    /// [`World::grab_rigid`] at the point `local` of the body's own frame
    /// (what a recording keeps, so a replay holds the same point bit for
    /// bit); the hand starts where that point is.
    pub fn grab_rigid_local(&mut self, r: usize, local: Vec3) {
        self.release(None);
        let at = self.rigids.bodies[r].point(local);
        self.rigids.hand = Some(super::RigidHold {
            rigid: r,
            local,
            target: at,
            from: at,
            fraction: 1.0,
            velocity: Vec3::ZERO,
            max_force: self.hand().max_force,
            force: 0.0,
        });
    }

    /// The rigid body the hand holds, if any.
    pub fn grabbed_rigid(&self) -> Option<usize> {
        self.rigids.hand.map(|h| h.rigid)
    }

    /// Switches the gyroscopic term ω × Iω of the rigid bodies' prediction
    /// (on by default): a debug switch, to see what it does.
    pub fn set_gyroscopic(&mut self, on: bool) {
        self.rigids.gyroscopic = on;
    }

    /// Sets rigid body `r`'s mass (kg; the panel's density × its volume):
    /// its inertia follows from its shape; its velocity and spin stay.
    ///
    /// # Panics
    /// When the mass is not finite and positive.
    pub fn set_rigid_mass(&mut self, r: usize, mass: f32) {
        assert!(
            mass > 0.0 && mass.is_finite(),
            "World::set_rigid_mass: {mass} kg"
        );
        let b = &mut self.rigids.bodies[r];
        b.mass = mass;
        b.inertia = b.shape.inertia(mass);
    }

    /// Sets rigid body `r`'s Coulomb μ and coefficient of restitution.
    pub fn set_rigid_surface(&mut self, r: usize, friction: f32, restitution: f32) {
        let b = &mut self.rigids.bodies[r];
        b.friction = friction;
        b.restitution = restitution;
    }

    /// Sets joint `j`'s compliance (m/N, rad/(N·m)) and limits.
    pub fn set_joint_compliance(&mut self, j: usize, compliance: f32, limits: Option<(f32, f32)>) {
        let joint = &mut self.rigids.joints[j];
        joint.compliance = compliance;
        joint.limits = limits;
    }

    /// Gives hinge `j` a motor, or takes it away (None). A joint that is
    /// not a hinge keeps none.
    pub fn set_joint_motor(&mut self, j: usize, motor: Option<Motor>) {
        let joint = &mut self.rigids.joints[j];
        if matches!(joint.kind, JointKind::Hinge(_)) {
            joint.motor = motor;
        }
        if joint.motor.is_none() {
            joint.motor_torque = 0.0;
        }
    }
}
