//! `joints` and `attachments`: their checks against the scene's bodies
//! and their construction in the world.

use glam::Vec3;

use super::schema::*;
use super::validate::{Checker, particle_count};
use crate::solver::World;
use crate::solver::limits::{
    COORDINATE, HINGE_ANGLE, JOINT_COMPLIANCE, MOTOR_SPEED, MOTOR_TORQUE, OFFSET,
};
use crate::solver::rigid::{JointKind, Motor};

/// Fails unless `bodies[b]` is a Rigid body.
fn rigid(c: &mut Checker, field: String, b: usize, scene: &Scene) -> bool {
    match scene.bodies.get(b) {
        Some(BodyDef::Rigid(_)) => true,
        Some(other) => {
            let kind = other.facts().kind;
            c.fail(
                field,
                format!("body {b} is a {kind}: joints and attachments hold Rigid bodies"),
            );
            false
        }
        None => {
            let n = scene.bodies.len();
            c.fail(
                field,
                format!("body {b} does not exist: the scene has {n} bodies"),
            );
            false
        }
    }
}

/// A non-zero finite axis.
fn axis(c: &mut Checker, f: &str, a: V3) {
    if a.iter().any(|x| !x.is_finite()) || a.iter().all(|&x| x == 0.0) {
        c.fail(
            format!("{f}.kind.axis"),
            format!("{a:?} must be finite and non-zero"),
        );
    }
}

/// Every joint's and attachment's fields.
pub(super) fn check(c: &mut Checker, scene: &Scene) {
    for (i, j) in scene.joints.iter().enumerate() {
        let f = &format!("joints[{i}]");
        rigid(c, format!("{f}.a"), j.a, scene);
        if let Some(b) = j.b {
            rigid(c, format!("{f}.b"), b, scene);
            if b == j.a {
                c.fail(
                    format!("{f}.b"),
                    "a joint holds two different bodies (None: the world)",
                );
            }
        }
        c.v3(&format!("{f}.anchor"), j.anchor, COORDINATE);
        c.num(&format!("{f}.compliance"), j.compliance, JOINT_COMPLIANCE);
        match j.kind {
            JointKindDef::Hinge { axis: a } | JointKindDef::Slider { axis: a } => axis(c, f, a),
            JointKindDef::Ball | JointKindDef::Fixed => {}
        }
        if let Some(m) = j.motor {
            if let JointKindDef::Hinge { .. } = j.kind {
                c.num(&format!("{f}.motor.speed"), m.speed, MOTOR_SPEED);
                c.num(&format!("{f}.motor.max_torque"), m.max_torque, MOTOR_TORQUE);
            } else {
                c.fail(format!("{f}.motor"), "only a Hinge has a motor");
            }
        }
        if let Some((lo, hi)) = j.limits {
            let bounds = match j.kind {
                JointKindDef::Hinge { .. } => HINGE_ANGLE,
                JointKindDef::Slider { .. } => OFFSET,
                _ => {
                    c.fail(format!("{f}.limits"), "only a Hinge or a Slider has limits");
                    continue;
                }
            };
            let ok = c.num(&format!("{f}.limits.0"), lo, bounds)
                & c.num(&format!("{f}.limits.1"), hi, bounds);
            if ok && lo > hi {
                c.fail(
                    format!("{f}.limits"),
                    format!("({lo}, {hi}): min must not exceed max"),
                );
            }
        }
    }
    for (i, a) in scene.attachments.iter().enumerate() {
        let f = &format!("attachments[{i}]");
        rigid(c, format!("{f}.rigid"), a.rigid, scene);
        match scene.bodies.get(a.body) {
            Some(def) if particle_count(def) > 0 => {
                c.index(&format!("{f}.particle"), a.particle, particle_count(def));
            }
            Some(_) => c.fail(
                format!("{f}.body"),
                format!("body {} has no particles", a.body),
            ),
            None => c.fail(
                format!("{f}.body"),
                format!("body {} does not exist", a.body),
            ),
        }
        c.v3(&format!("{f}.anchor"), a.anchor, OFFSET);
        c.num(&format!("{f}.compliance"), a.compliance, JOINT_COMPLIANCE);
    }
}

/// The rigid index of validated Rigid body `b`.
pub(super) fn rigid_of(world: &World, b: usize) -> usize {
    world.rigids().of_body(b).expect("validated: a Rigid body")
}

/// Adds the validated joints and attachments to `world`.
pub(super) fn build(world: &mut World, scene: &Scene) {
    for j in &scene.joints {
        let kind = match j.kind {
            JointKindDef::Ball => JointKind::Ball,
            JointKindDef::Hinge { axis } => JointKind::Hinge(super::build::unit_axis(axis)),
            JointKindDef::Slider { axis } => JointKind::Slider(super::build::unit_axis(axis)),
            JointKindDef::Fixed => JointKind::Fixed,
        };
        let ends = (rigid_of(world, j.a), j.b.map(|b| rigid_of(world, b)));
        world.add_joint(ends, kind, Vec3::from(j.anchor), (j.compliance, j.limits));
        let motor = (j.motor).map(|m| Motor {
            speed: m.speed,
            max_torque: m.max_torque,
        });
        world.set_joint_motor(world.rigids().joints.len() - 1, motor);
    }
    for a in &scene.attachments {
        let particle = super::build::particle_of(world, scene, (a.body, a.particle));
        let r = rigid_of(world, a.rigid);
        world.add_attachment(particle, r, a.anchor.into(), a.compliance);
    }
}
