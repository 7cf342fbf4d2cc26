//! The closed bodies, `Balloon` and `SoftBox` (DESIGN §3): their scene
//! fields, range checks and construction.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::meshes::{
    edges_of_tetrahedra, edges_of_triangles, hinges, icosphere, tetrahedral_block,
};
use super::schema::{V3, cloth_bend, one, rope_compliance, rope_radius};
use super::validate::{Checker, collision_radius, resolve_index};
use crate::solver::limits::*;
use crate::solver::{LinkKind, QuadKind, Shape, Tag, World, dihedral_angle};

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

/// `SoftBox(...)`: a block of tetrahedra.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoftBoxDef {
    /// Centre (m). Required.
    pub center: V3,
    /// Extent along x, y, z (m). Required.
    pub size: V3,
    /// Cells per axis, each ≥ 1. Required.
    pub resolution: (u32, u32, u32),
    /// Total mass (kg) (default 1).
    #[serde(default = "one")]
    pub mass: f32,
    /// Compliance of every tetrahedron edge (m/N) (default 1e−4).
    #[serde(default = "rope_compliance")]
    pub edge_compliance: f32,
    /// Compliance of every tetrahedron's volume (m⁵/N) (default 0).
    #[serde(default)]
    pub volume_compliance: f32,
    /// Young's modulus E (Pa); Some: a neo-Hookean solid instead of edge
    /// links and volumes (see `solver::neo_hookean`), which leaves
    /// `edge_compliance` and `volume_compliance` unused (default None).
    #[serde(default)]
    pub young_modulus: Option<f32>,
    /// Poisson's ratio ν with `young_modulus` (default 0.3).
    #[serde(default = "poisson_ratio")]
    pub poisson_ratio: f32,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
    /// Pinned particle indices; negatives from the end.
    #[serde(default)]
    pub pins: Vec<i64>,
}

fn poisson_ratio() -> f32 {
    0.3
}
fn three() -> u32 {
    3
}
fn balloon_mass() -> f32 {
    0.2
}

impl BalloonDef {
    /// Particles it creates: the icosphere's vertices, 10·4^level + 2.
    pub fn particle_count(&self) -> u64 {
        10 * 4u64.saturating_pow(self.subdivisions.min(20)) + 2
    }
}

impl SoftBoxDef {
    /// Particles it creates: (nx+1)(ny+1)(nz+1).
    pub fn particle_count(&self) -> u64 {
        let (x, y, z) = self.resolution;
        (x as u64 + 1) * (y as u64 + 1) * (z as u64 + 1)
    }
}

pub(super) fn check_balloon(c: &mut Checker, f: &str, b: &BalloonDef, colliding: bool) {
    c.v3(&format!("{f}.center"), b.center, COORDINATE);
    let sized = c.num(&format!("{f}.sphere_radius"), b.sphere_radius, LENGTH);
    let levels = SUBDIVISIONS.contains(&b.subdivisions);
    c.count(&format!("{f}.subdivisions"), b.subdivisions, SUBDIVISIONS);
    c.num(&format!("{f}.mass"), b.mass, MASS);
    c.num(
        &format!("{f}.stretch_compliance"),
        b.stretch_compliance,
        COMPLIANCE,
    );
    if let Some(bend) = b.bend_compliance {
        c.num(&format!("{f}.bend_compliance"), bend, COMPLIANCE);
    }
    c.num(&format!("{f}.pressure"), b.pressure, PRESSURE);
    c.num(
        &format!("{f}.volume_compliance"),
        b.volume_compliance,
        VOLUME_COMPLIANCE,
    );
    if c.num(&format!("{f}.radius"), b.radius, RADIUS) && sized && levels {
        // The shortest icosphere edge is about 0.8 of 1.05·R/2^level.
        let spacing = 0.8 * 1.05 * b.sphere_radius / (1u32 << b.subdivisions) as f32;
        collision_radius(c, f, b.radius, spacing, colliding || b.self_collision);
    }
    let n = if levels { b.particle_count() } else { 0 };
    for (k, &p) in b.pins.iter().enumerate().filter(|_| levels) {
        c.index(&format!("{f}.pins[{k}]"), p, n);
    }
}

pub(super) fn check_soft_box(c: &mut Checker, f: &str, s: &SoftBoxDef, colliding: bool) {
    c.v3(&format!("{f}.center"), s.center, COORDINATE);
    let sized = c.v3(&format!("{f}.size"), s.size, LENGTH);
    let (x, y, z) = s.resolution;
    let mut cells_ok = true;
    for (name, v) in [
        ("resolution.0", x),
        ("resolution.1", y),
        ("resolution.2", z),
    ] {
        cells_ok &= CELLS.contains(&v);
        c.count(&format!("{f}.{name}"), v, CELLS);
    }
    c.num(&format!("{f}.mass"), s.mass, MASS);
    c.num(
        &format!("{f}.edge_compliance"),
        s.edge_compliance,
        COMPLIANCE,
    );
    c.num(
        &format!("{f}.volume_compliance"),
        s.volume_compliance,
        VOLUME_COMPLIANCE,
    );
    if let Some(e) = s.young_modulus {
        c.num(&format!("{f}.young_modulus"), e, YOUNG_MODULUS);
    }
    c.num(
        &format!("{f}.poisson_ratio"),
        s.poisson_ratio,
        POISSON_RATIO,
    );
    if c.num(&format!("{f}.radius"), s.radius, RADIUS) && sized && cells_ok {
        let spacing = (s.size[0] / x as f32)
            .min(s.size[1] / y as f32)
            .min(s.size[2] / z as f32);
        collision_radius(c, f, s.radius, spacing, colliding);
    }
    let n = if cells_ok { s.particle_count() } else { 0 };
    for (k, &p) in s.pins.iter().enumerate().filter(|_| cells_ok) {
        c.index(&format!("{f}.pins[{k}]"), p, n);
    }
}

/// Pins `pins` (validated) of the body whose particles start at `first`.
fn pin(world: &mut World, first: usize, n: usize, pins: &[i64]) {
    for &p in pins {
        let k = resolve_index(p, n as u64).expect("pins checked by scene validation");
        world.set_pinned(first + k, true);
    }
}

/// Builds a balloon: stretch links on every edge, dihedral bending on
/// every edge, and (after `add_body`, see [`gas`]) its volume constraint.
pub(super) fn balloon(world: &mut World, body: usize, b: &BalloonDef) -> Shape {
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
            let rest = dihedral_angle(&world.particles.pos, h).unwrap_or(0.0);
            world.add_quad(QuadKind::Dihedral, h, rest, bend, body);
        }
    }
    pin(world, first, unit.len(), &b.pins);
    Shape::Closed { triangles }
}

/// Stretch links of body `body` on `edges` (indices from particle
/// `first`) at their lengths as built, holding tension only or both ways.
fn stretch_links(
    world: &mut World,
    (body, first): (usize, usize),
    edges: &[[u32; 2]],
    compliance: f32,
    tension_only: bool,
) {
    let tag = Tag::new(body, LinkKind::Stretch);
    for &[a, b] in edges {
        let (a, b) = (first + a as usize, first + b as usize);
        let rest = world.particles.pos[a].distance(world.particles.pos[b]);
        let links = &mut world.constraints;
        if tension_only {
            links.add_tension_only(a, b, rest, compliance, tag);
        } else {
            links.add(a, b, rest, compliance, f32::INFINITY, tag);
        }
    }
}

/// Builds a soft box: distance links on every tetrahedron edge and a
/// volume constraint on every tetrahedron, or, with a Young's modulus,
/// the two neo-Hookean constraints on every tetrahedron.
pub(super) fn soft_box(world: &mut World, body: usize, s: &SoftBoxDef) -> Shape {
    let (x, y, z) = s.resolution;
    let n = (x as usize, y as usize, z as usize);
    let size = Vec3::from(s.size);
    let cell = size / Vec3::new(x as f32, y as f32, z as f32);
    let (pos, tets, skin) = tetrahedral_block(Vec3::from(s.center) - size * 0.5, cell, n);
    let first = world.particles.len();
    let m = s.mass / pos.len() as f32;
    for p in pos {
        world.particles.push(p, m, s.radius);
    }
    match s.young_modulus {
        Some(e) => neo_hookean_tetrahedra(world, body, first, &tets, (e, s.poisson_ratio)),
        None => {
            let edges = edges_of_tetrahedra(&tets);
            stretch_links(world, (body, first), &edges, s.edge_compliance, false);
            for t in tets {
                let t = t.map(|i| first + i as usize);
                let rest = crate::solver::tetrahedron_volume(&world.particles.pos, t);
                world.add_quad(QuadKind::Volume, t, rest, s.volume_compliance, body);
            }
        }
    }
    pin(world, first, s.particle_count() as usize, &s.pins);
    Shape::Closed { triangles: skin }
}

/// The two neo-Hookean constraints of every tetrahedron `tets` (corner
/// indices from particle `first`), their material set from Young's
/// modulus E and Poisson's ratio ν by `World::set_neo_hookean` (the one
/// place that maps E and ν to compliances, for the build and the panel).
fn neo_hookean_tetrahedra(
    world: &mut World,
    body: usize,
    first: usize,
    tets: &[[u32; 4]],
    (e, nu): (f32, f32),
) {
    for t in tets {
        let t = t.map(|i| first + i as usize);
        let x = t.map(|i| world.particles.pos[i].as_dvec3());
        let Some(shape) = crate::solver::neo_hookean::rest_shape(x) else {
            continue;
        };
        world.add_shaped_quad(QuadKind::Deviatoric, t, (0.0, shape), 0.0, body);
        world.add_shaped_quad(QuadKind::Hydrostatic, t, (1.0, shape), 0.0, body);
    }
    world.set_neo_hookean(body, e, nu);
}

/// Gives a balloon (already added as a body) its gas.
pub(super) fn gas(world: &mut World, body: usize, b: &BalloonDef) {
    let added = world.add_gas(body, b.pressure, b.volume_compliance);
    debug_assert!(added, "a balloon's shape is closed");
}

/// Copies a balloon's run-time values (compliances, pressure) from `world`.
pub(super) fn capture_balloon(world: &World, body: usize, b: &mut BalloonDef) {
    let c = &world.constraints;
    b.stretch_compliance = c
        .compliance(body, LinkKind::Stretch)
        .unwrap_or(b.stretch_compliance);
    b.bend_compliance = world
        .quads
        .compliance(body, QuadKind::Dihedral)
        .or(b.bend_compliance);
    if let Some(g) = world.volumes.iter().find(|g| g.body == body) {
        b.pressure = g.pressure;
        b.volume_compliance = g.compliance;
    }
}

/// Copies a soft box's run-time compliances from `world`.
pub(super) fn capture_soft_box(world: &World, body: usize, s: &mut SoftBoxDef) {
    s.edge_compliance = world
        .constraints
        .compliance(body, LinkKind::Stretch)
        .unwrap_or(s.edge_compliance);
    s.volume_compliance = world
        .quads
        .compliance(body, QuadKind::Volume)
        .unwrap_or(s.volume_compliance);
    // Read back through the compliances, E and ν carry rounding: a value
    // within 1e-5 of the scene's is the scene's.
    if let Some((e, nu)) = world.neo_hookean(body) {
        let near = |a: f32, b: f32| (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0);
        if !s.young_modulus.is_some_and(|was| near(was, e)) {
            s.young_modulus = Some(e);
        }
        if !near(s.poisson_ratio, nu) {
            s.poisson_ratio = nu;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::tetrahedral_block;
    use glam::Vec3;

    #[test]
    fn a_neo_hookean_block_turned_inside_out_recovers_with_no_tetrahedron_left_inverted() {
        let text = "Scene(solver: (substeps: 20, gravity: (0.0, 0.0, 0.0), air_drag: 1.0),
            bodies: [SoftBox(center: (0.0, 1.0, 0.0), size: (0.3, 0.3, 0.3), resolution: (3, 3, 3),
                             mass: 1.0, young_modulus: 10000.0, poisson_ratio: 0.3)])";
        let mut w = crate::scene::parse(text, std::path::Path::new("<test>"))
            .unwrap()
            .build();
        let (rest, tets, _) = tetrahedral_block(Vec3::splat(-0.15), Vec3::splat(0.1), (3, 3, 3));
        let volume = |pos: &[Vec3], t: [u32; 4]| {
            crate::solver::tetrahedron_volume(pos, t.map(|i| i as usize))
        };
        // Mirrored through x = 0: every tetrahedron inside out.
        for p in &mut w.particles.pos {
            p.x = -p.x;
        }
        assert!(tets.iter().all(|&t| volume(&w.particles.pos, t) < 0.0));
        for _ in 0..300 {
            w.step();
        }
        let worst = (tets.iter())
            .map(|&t| volume(&w.particles.pos, t) / volume(&rest, t))
            .fold(f32::INFINITY, f32::min);
        assert!(worst > 0.5, "a tetrahedron at {worst} of its rest volume");
        assert!(w.particles.pos.iter().all(|p| p.is_finite()));
    }
}
