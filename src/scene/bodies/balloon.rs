//! `Balloon(...)`: a closed icosphere of cloth with one global volume
//! constraint, its gas (DESIGN §3).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::meshes::{edges_of_triangles, hinges, icosphere};
use super::super::schema::{V3, cloth_bend, one, rope_radius};
use super::super::validate::{Checker, collision_radius};
use super::{Facts, Kind, pin, pinned, stretch_links};
use crate::solver::limits::*;
use crate::solver::{Body, LinkKind, QuadKind, Shape, World, dihedral_angle, rest_scale};

/// `Balloon(...)`: a closed icosphere of cloth with one global volume constraint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalloonDef {
    /// Centre (m). Required.
    pub center: V3,
    /// Radius of the sphere (m). Required.
    pub sphere_radius: f32,
    /// Icosphere level 1 ..= 6 (level 3: 642 particles) (default 3).
    #[serde(default = "three")]
    pub subdivisions: u32,
    /// Total mass (kg) (default 0.2).
    #[serde(default = "balloon_mass")]
    pub mass: f32,
    /// Edge compliance (m/N) (default 0).
    #[serde(default)]
    pub stretch_compliance: f32,
    /// Dihedral bending compliance (rad/(N·m)); None = none (default 0.01).
    #[serde(default = "cloth_bend")]
    pub bend_compliance: Option<f32>,
    /// Target volume / volume as built (default 1).
    #[serde(default = "one")]
    pub pressure: f32,
    /// Compliance of C = V − pressure·V₀ (m⁵/N) (default 0).
    #[serde(default)]
    pub volume_compliance: f32,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
    /// Collisions between its own particles (default false).
    #[serde(default)]
    pub self_collision: bool,
    /// Pinned vertex indices in build order; negatives from the end.
    #[serde(default)]
    pub pins: Vec<i64>,
}

fn three() -> u32 {
    3
}
fn balloon_mass() -> f32 {
    0.2
}

impl Default for BalloonDef {
    /// A 0.3 m balloon at 1 m height, every other field as a file
    /// without it gets.
    fn default() -> Self {
        Self::new([0.0, 1.0, 0.0], 0.3)
    }
}

impl BalloonDef {
    /// A balloon of `sphere_radius` (m) at `center` (m), every other field
    /// at its default.
    pub fn new(center: V3, sphere_radius: f32) -> Self {
        Self {
            center,
            sphere_radius,
            subdivisions: three(),
            mass: balloon_mass(),
            stretch_compliance: 0.0,
            bend_compliance: cloth_bend(),
            pressure: one(),
            volume_compliance: 0.0,
            radius: rope_radius(),
            self_collision: false,
            pins: Vec::new(),
        }
    }
}

const FACTS: Facts = Facts {
    kind: "Balloon",
    label: "balloon",
    links: &[(LinkKind::Stretch, "stretch")],
    self_collision: true,
    tethers: false,
};

impl Kind for BalloonDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    /// The icosphere's vertices, 10·4^level + 2.
    fn particle_count(&self) -> u64 {
        10 * 4u64.saturating_pow(self.subdivisions.min(20)) + 2
    }

    fn check(&self, c: &mut Checker, f: &str, colliding: bool) {
        let b = self;
        c.v3(&format!("{f}.center"), b.center, COORDINATE);
        let sized = c.num(&format!("{f}.sphere_radius"), b.sphere_radius, LENGTH);
        let levels = SUBDIVISIONS.contains(&b.subdivisions);
        c.count(&format!("{f}.subdivisions"), b.subdivisions, SUBDIVISIONS);
        c.num(&format!("{f}.mass"), b.mass, MASS);
        let stretch = &format!("{f}.stretch_compliance");
        c.num(stretch, b.stretch_compliance, COMPLIANCE);
        if let Some(bend) = b.bend_compliance {
            c.num(&format!("{f}.bend_compliance"), bend, COMPLIANCE);
        }
        c.num(&format!("{f}.pressure"), b.pressure, PRESSURE);
        let gas = &format!("{f}.volume_compliance");
        c.num(gas, b.volume_compliance, VOLUME_COMPLIANCE);
        if c.num(&format!("{f}.radius"), b.radius, RADIUS) && sized && levels {
            // The shortest icosphere edge is about 0.8 of 1.05·R/2^level,
            // at the size the gas holds the sphere to.
            let edge = 0.8 * 1.05 * b.sphere_radius / (1u32 << b.subdivisions) as f32;
            let spacing = edge * rest_scale(b.pressure);
            collision_radius(c, f, b.radius, spacing, colliding || b.self_collision);
        }
        let n = if levels { b.particle_count() } else { 0 };
        for (k, &p) in b.pins.iter().enumerate().filter(|_| levels) {
            c.index(&format!("{f}.pins[{k}]"), p, n);
        }
    }

    /// Stretch links on every edge, dihedral bending on every edge, and
    /// (once added as a body) its gas.
    fn build(&self, world: &mut World, body: usize) -> Shape {
        let b = self;
        let (unit, triangles) = icosphere(b.subdivisions);
        let first = world.particles.len();
        let m = b.mass / unit.len() as f32;
        let centre = Vec3::from(b.center);
        for p in &unit {
            world
                .particles
                .push(centre + *p * b.sphere_radius, m, b.radius);
        }
        // A skin wrinkles rather than carry compression: tension only.
        let edges = edges_of_triangles(&triangles);
        stretch_links(world, (body, first), &edges, b.stretch_compliance, true);
        if let Some(bend) = b.bend_compliance {
            for h in hinges(&triangles) {
                let h = h.map(|i| first + i as usize);
                let rest = dihedral_angle(world.particles.pos(), h).unwrap_or(0.0);
                world.add_quad(QuadKind::Dihedral, h, rest, bend, body);
            }
        }
        pin(world, first, unit.len(), &b.pins);
        Shape::Closed { triangles }
    }

    fn after_add(&self, world: &mut World, body: usize) {
        let added = world.add_gas(body, self.pressure, self.volume_compliance);
        debug_assert!(added, "a balloon's shape is closed");
    }

    fn self_collision(&self) -> bool {
        self.self_collision
    }

    /// Compliances and the gas's pressure.
    fn capture_compliances(&mut self, world: &World, body: usize) {
        let c = &world.constraints;
        let stretch = c.compliance(body, LinkKind::Stretch);
        self.stretch_compliance = stretch.unwrap_or(self.stretch_compliance);
        let bend = world.quads.compliance(body, QuadKind::Dihedral);
        self.bend_compliance = bend.or(self.bend_compliance);
        if let Some(g) = world.volumes().iter().find(|g| g.body == body) {
            self.pressure = g.pressure;
            self.volume_compliance = g.compliance;
        }
    }

    fn capture_switches(&mut self, world: &World, body: usize) {
        self.self_collision = world.self_collision(body);
    }

    fn capture_pins(&mut self, world: &World, body: &Body) {
        self.pins = pinned(world, body);
    }
}
