//! `Rigid(...)`: a rigid body — a box, ball or capsule with a pose, no
//! particles (see `solver::rigid`).

use glam::{Quat, Vec3};
use serde::{Deserialize, Serialize};

use super::super::schema::V3;
use super::super::validate::Checker;
use super::{Facts, Kind};
use crate::solver::limits::*;
use crate::solver::rigid::{RigidDesc, RigidShape};
use crate::solver::{Body, Shape, World};

/// `Rigid(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RigidDef {
    /// Box(half_extents) | Sphere(radius) | Capsule(radius, half_length)
    /// along its own y axis. Required.
    pub shape: RigidShapeDef,
    /// Centre of mass (m). Required.
    pub position: V3,
    /// Rotation vector (axis·angle, rad), body frame → world (default 0).
    #[serde(default)]
    pub rotation: V3,
    /// Velocity (m/s) (default 0).
    #[serde(default)]
    pub velocity: V3,
    /// Angular velocity (rad/s, world frame) (default 0).
    #[serde(default)]
    pub angular_velocity: V3,
    /// Density (kg/m³): mass and inertia tensor from the shape (default 1000).
    #[serde(default = "rigid_density")]
    pub density: f32,
    /// Coulomb μ against colliders, particles and rigid bodies (default 0.5).
    #[serde(default = "super::super::schema::half")]
    pub friction: f32,
    /// Coefficient of restitution e (default 0: no rebound).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub restitution: f32,
    /// True: never moves, an anchor for joints (default false).
    #[serde(default)]
    pub fixed: bool,
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

/// A rigid body's shape in a scene file (sizes in m).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum RigidShapeDef {
    /// A box of these half edge lengths along the body's axes.
    Box {
        /// Half the edge lengths (m).
        half_extents: V3,
    },
    /// A ball.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// A capsule along the body's y axis.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half the length of its core segment (m).
        half_length: f32,
    },
}

fn rigid_density() -> f32 {
    1000.0
}

impl Default for RigidDef {
    /// A 0.2 m cube at 1 m height, every other field as a file without it gets.
    fn default() -> Self {
        Self::new(
            RigidShapeDef::Box {
                half_extents: [0.1; 3],
            },
            [0.0, 1.0, 0.0],
        )
    }
}

impl RigidDef {
    /// A body of `shape` at `position` (m), every other field at its default.
    pub fn new(shape: RigidShapeDef, position: V3) -> Self {
        Self {
            shape,
            position,
            rotation: [0.0; 3],
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            density: rigid_density(),
            friction: 0.5,
            restitution: 0.0,
            fixed: false,
        }
    }

    /// The solver's shape.
    pub fn solver_shape(&self) -> RigidShape {
        match self.shape {
            RigidShapeDef::Box { half_extents } => RigidShape::Box(half_extents.into()),
            RigidShapeDef::Sphere { radius } => RigidShape::Sphere(radius),
            RigidShapeDef::Capsule {
                radius,
                half_length,
            } => RigidShape::Capsule(radius, half_length),
        }
    }
}

const FACTS: Facts = Facts {
    kind: "Rigid",
    label: "rigid body",
    links: &[],
    self_collision: false,
    tethers: false,
};

impl Kind for RigidDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn particle_count(&self) -> u64 {
        0
    }

    fn state_points(&self) -> Option<usize> {
        Some(1)
    }

    fn orientations(&self) -> usize {
        1
    }

    fn check(&self, c: &mut Checker, f: &str, _body_collisions: bool) {
        let s = &format!("{f}.shape");
        match self.shape {
            RigidShapeDef::Box { half_extents } => {
                c.v3(&format!("{s}.half_extents"), half_extents, RIGID_SIZE);
            }
            RigidShapeDef::Sphere { radius } => {
                c.num(&format!("{s}.radius"), radius, RIGID_SIZE);
            }
            RigidShapeDef::Capsule {
                radius,
                half_length,
            } => {
                c.num(&format!("{s}.radius"), radius, RIGID_SIZE);
                c.num(&format!("{s}.half_length"), half_length, RIGID_SIZE);
            }
        }
        c.v3(&format!("{f}.position"), self.position, COORDINATE);
        c.v3(&format!("{f}.rotation"), self.rotation, ROTATION);
        c.v3(&format!("{f}.velocity"), self.velocity, SPEED);
        c.v3(
            &format!("{f}.angular_velocity"),
            self.angular_velocity,
            ANGULAR_SPEED,
        );
        c.num(&format!("{f}.density"), self.density, DENSITY);
        c.num(&format!("{f}.friction"), self.friction, FRICTION);
        c.num(&format!("{f}.restitution"), self.restitution, RESTITUTION);
    }

    fn build(&self, world: &mut World, body: usize) -> Shape {
        world.add_rigid(
            body,
            RigidDesc {
                shape: self.solver_shape(),
                density: self.density,
                friction: self.friction,
                restitution: self.restitution,
                fixed: self.fixed,
                pose: (
                    self.position.into(),
                    Quat::from_scaled_axis(Vec3::from(self.rotation)),
                ),
                motion: (self.velocity.into(), self.angular_velocity.into()),
            },
        );
        Shape::Rigid
    }

    fn rest_shape(&self, _world: &World, _body: usize) -> Vec<Vec3> {
        Vec::new()
    }

    /// Nothing: a rigid body has no compliance.
    fn capture_compliances(&mut self, _world: &World, _body: usize) {}

    /// Its `fixed` switch (right-click in the window toggles it); `body`
    /// is one of `world.bodies()`.
    fn capture_pins(&mut self, world: &World, body: &Body) {
        let r = world.rigids();
        // By identity: consecutive rigid bodies have equal `Body` values
        // (no particles, the same first index), so `==` finds the first.
        let index = world.bodies().iter().position(|b| std::ptr::eq(b, body));
        let found = index.and_then(|b| r.of_body(b));
        if let Some(i) = found {
            self.fixed = r.bodies[i].fixed;
        }
    }
}
