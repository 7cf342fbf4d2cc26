//! `Rod(...)`: a Cosserat rod — centreline particles plus one orientation
//! per segment, so it resists bending and twisting (see `solver::rods`).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::schema::V3;
use super::super::validate::{Checker, collision_radius, resolve_index};
use super::{Facts, Kind, check_chain, pin};
use crate::solver::limits::*;
use crate::solver::rods::{RodMaterial, RodSolver};
use crate::solver::{Body, Shape, World};

/// `Rod(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RodDef {
    /// First particle (m). Required.
    pub start: V3,
    /// The direction the rod is laid in, and its last particle when
    /// `length` is left out (m). Required.
    pub end: V3,
    /// Number of segments; particles = segments + 1. Required.
    pub segments: u32,
    /// Rest length (m), laid straight from `start` towards `end`; default
    /// |end − start|.
    #[serde(default)]
    pub length: Option<f32>,
    /// Cross-section radius (m): stiffness, mass, contact and drawing
    /// (default 0.005).
    #[serde(default = "rod_radius")]
    pub radius: f32,
    /// Density (kg/m³): mass = density·π·radius²·length (default 1000).
    #[serde(default = "rod_density")]
    pub density: f32,
    /// Young's modulus E (Pa): bending stiffness E·I, I = π·radius⁴/4
    /// (default 1e9).
    #[serde(default = "rod_young")]
    pub young_modulus: f32,
    /// Shear modulus G (Pa): twisting stiffness G·J, J = π·radius⁴/2
    /// (default 4e8).
    #[serde(default = "rod_shear")]
    pub shear_modulus: f32,
    /// Stretch and shear compliance per segment (m/N) (default 0).
    #[serde(default)]
    pub stretch_compliance: f32,
    /// Rest curvatures κ₁, κ₂ and twist τ in the material frame (1/m);
    /// non-zero coils a free rod into a helix (default 0).
    #[serde(default)]
    pub rest_darboux: V3,
    /// Particles whose position and adjacent segment's orientation are
    /// fixed (a clamped end); negatives from the end (default none).
    #[serde(default)]
    pub clamped: Vec<i64>,
    /// Particles whose position only is fixed (a ball joint); negatives
    /// from the end (default none).
    #[serde(default)]
    pub pins: Vec<i64>,
    /// Collisions between its own particles (default false).
    #[serde(default)]
    pub self_collision: bool,
    /// GaussSeidel | Direct: how each pass solves its constraints — one
    /// after another, or all at once, which keeps a stiff rod stiff
    /// (default Direct).
    #[serde(default)]
    pub solver: RodSolverDef,
}

/// How a rod's constraints are solved (see [`RodSolver`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RodSolverDef {
    /// One constraint after another.
    GaussSeidel,
    /// All at once, a block-tridiagonal solve per rod.
    #[default]
    Direct,
}

fn rod_radius() -> f32 {
    0.005
}
fn rod_density() -> f32 {
    1000.0
}
fn rod_young() -> f32 {
    1e9
}
fn rod_shear() -> f32 {
    4e8
}

impl Default for RodDef {
    /// A 1 m rod of 40 segments along +x at 1 m height, every other field
    /// as a file without it gets.
    fn default() -> Self {
        Self::new([0.0, 1.0, 0.0], [1.0, 1.0, 0.0], 40)
    }
}

impl RodDef {
    /// A rod of `segments` from `start` to `end` (m), every other field at
    /// its default.
    pub fn new(start: V3, end: V3, segments: u32) -> Self {
        Self {
            start,
            end,
            segments,
            length: None,
            radius: rod_radius(),
            density: rod_density(),
            young_modulus: rod_young(),
            shear_modulus: rod_shear(),
            stretch_compliance: 0.0,
            rest_darboux: [0.0; 3],
            clamped: Vec::new(),
            pins: Vec::new(),
            self_collision: false,
            solver: RodSolverDef::Direct,
        }
    }

    /// Its length (m).
    pub fn rest_length(&self) -> f32 {
        let chord = Vec3::from(self.start).distance(self.end.into());
        self.length.unwrap_or(chord)
    }

    /// What its compliances and inertias come from.
    pub fn material(&self) -> RodMaterial {
        RodMaterial {
            radius: self.radius,
            density: self.density,
            young_modulus: self.young_modulus,
            shear_modulus: self.shear_modulus,
            stretch_compliance: self.stretch_compliance,
            rest_darboux: self.rest_darboux.into(),
        }
    }
}

const FACTS: Facts = Facts {
    kind: "Rod",
    label: "rod",
    links: &[],
    self_collision: true,
    tethers: false,
};

impl Kind for RodDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn particle_count(&self) -> u64 {
        self.segments as u64 + 1
    }

    fn orientations(&self) -> usize {
        self.segments as usize
    }

    fn check(&self, c: &mut Checker, f: &str, body_collisions: bool) {
        let r = self;
        let ends_ok = check_chain(c, f, (r.start, r.end), r.segments);
        let chord = Vec3::from(r.start).distance(r.end.into());
        if ends_ok && !LENGTH.contains(chord) {
            let message = format!(
                "start and end are {chord} m apart: they give the rod's direction, accepted {}",
                LENGTH.describe()
            );
            c.fail(format!("{f}.end"), message);
        }
        let length = match r.length {
            Some(l) => c.num(&format!("{f}.length"), l, LENGTH).then_some(l),
            None => (ends_ok && LENGTH.contains(chord)).then_some(chord),
        };
        let radius_ok = c.num(&format!("{f}.radius"), r.radius, ROD_RADIUS);
        c.num(&format!("{f}.density"), r.density, DENSITY);
        c.num(&format!("{f}.young_modulus"), r.young_modulus, ROD_MODULUS);
        c.num(&format!("{f}.shear_modulus"), r.shear_modulus, ROD_MODULUS);
        let stretch = &format!("{f}.stretch_compliance");
        c.num(stretch, r.stretch_compliance, COMPLIANCE);
        c.v3(&format!("{f}.rest_darboux"), r.rest_darboux, CURVATURE);
        // A joint turns by 2·asin(|Ω₀|ℓ/2): past |Ω₀|·ℓ = 1 (a radian a
        // joint) the discrete rod cannot follow its rest shape.
        if let Some(l) = length.filter(|_| r.segments > 0) {
            let link = l / r.segments as f32;
            let reach = Vec3::from(r.rest_darboux).length() * link;
            if reach > 1.0 && reach.is_finite() {
                let most = 1.0 / link;
                let message = format!(
                    "|rest_darboux| = {} 1/m turns each joint {reach} rad at this segment length: \
                     accepted up to {most} 1/m (1 rad a joint), or use more segments",
                    Vec3::from(r.rest_darboux).length()
                );
                c.fail(format!("{f}.rest_darboux"), message);
            }
        }
        if let Some(l) = length.filter(|_| radius_ok && r.segments > 0) {
            let colliding = r.self_collision || body_collisions;
            collision_radius(c, f, r.radius, l / r.segments as f32, colliding);
        }
        let n = r.segments as u64 + 1;
        for (name, list) in [("clamped", &r.clamped), ("pins", &r.pins)] {
            for (k, &p) in list.iter().enumerate() {
                c.index(&format!("{f}.{name}[{k}]"), p, n);
            }
        }
    }

    /// Particles laid straight from `start` towards `end`, each segment's
    /// mass ρπr²ℓ lumped half on each of its particles; the orientations
    /// and constraints in the world's rods.
    fn build(&self, world: &mut World, body: usize) -> Shape {
        let n = self.segments as usize;
        let start = Vec3::from(self.start);
        let dir = (Vec3::from(self.end) - start).normalize();
        let link = self.rest_length() / n as f32;
        let material = self.material();
        let segment_mass = material.line_density() * link;
        let first = world.particles.len();
        for k in 0..=n {
            let ends = if k == 0 || k == n { 0.5 } else { 1.0 };
            let x = start + dir * (link * k as f32);
            world.particles.push(x, segment_mass * ends, self.radius);
        }
        let solver = match self.solver {
            RodSolverDef::GaussSeidel => RodSolver::GaussSeidel,
            RodSolverDef::Direct => RodSolver::Direct,
        };
        world.add_rod(body, first, material, solver);
        pin(world, first, n + 1, &self.pins);
        for &p in &self.clamped {
            let k = resolve_index(p, n as u64 + 1).expect("clamps checked by scene validation");
            world.clamp_rod(body, k);
        }
        Shape::Rope
    }

    fn self_collision(&self) -> bool {
        self.self_collision
    }

    /// Nothing: a rod's material has no slider yet.
    fn capture_compliances(&mut self, _world: &World, _body: usize) {}

    fn capture_switches(&mut self, world: &World, body: usize) {
        self.self_collision = world.self_collision(body);
    }

    /// Clamps still held (a clamp released by unpinning is dropped), and
    /// the other pinned particles as pins.
    fn capture_pins(&mut self, world: &World, body: &Body) {
        let n = self.segments as u64 + 1;
        let held = |k: usize| world.particles.is_pinned(body.first + k);
        let rod = world.rods();
        self.clamped.retain(|&p| {
            resolve_index(p, n)
                .is_some_and(|k| held(k) && rod.is_clamped(body_index(world, body), k))
        });
        let clamped: Vec<usize> = (self.clamped.iter())
            .filter_map(|&p| resolve_index(p, n))
            .collect();
        self.pins = (0..body.count)
            .filter(|&k| held(k) && !clamped.contains(&k))
            .map(|k| k as i64)
            .collect();
    }
}

/// The index of `body` among the world's bodies.
fn body_index(world: &World, body: &Body) -> usize {
    (world.bodies().iter())
        .position(|b| b.first == body.first)
        .expect("a body of this world")
}
