//! `SoftBox(...)`: a block of tetrahedra — edge links and cell volumes,
//! or, with a Young's modulus, a neo-Hookean solid (DESIGN §3).

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::meshes::{edges_of_tetrahedra, tetrahedral_block};
use super::super::schema::{V3, one, rope_compliance, rope_radius};
use super::super::validate::{Checker, collision_radius};
use super::{Facts, Kind, pin, pinned, stretch_links};
use crate::solver::limits::*;
use crate::solver::{Body, LinkKind, QuadKind, Shape, World};

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

impl Default for SoftBoxDef {
    /// A 0.4 m cube of 4 × 4 × 4 cells centred 0.5 m up, every other
    /// field as a file without it gets.
    fn default() -> Self {
        Self::new([0.0, 0.5, 0.0], [0.4, 0.4, 0.4], (4, 4, 4))
    }
}

impl SoftBoxDef {
    /// A block of `size` (m) at `center` (m) cut into `resolution` cells,
    /// every other field at its default.
    pub fn new(center: V3, size: V3, resolution: (u32, u32, u32)) -> Self {
        Self {
            center,
            size,
            resolution,
            mass: one(),
            edge_compliance: rope_compliance(),
            volume_compliance: 0.0,
            young_modulus: None,
            poisson_ratio: poisson_ratio(),
            radius: rope_radius(),
            pins: Vec::new(),
        }
    }
}

const FACTS: Facts = Facts {
    kind: "SoftBox",
    label: "soft box",
    links: &[(LinkKind::Stretch, "edges")],
    self_collision: false,
    tethers: false,
};

impl Kind for SoftBoxDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    /// (nx+1)(ny+1)(nz+1).
    fn particle_count(&self) -> u64 {
        let (x, y, z) = self.resolution;
        (x as u64 + 1) * (y as u64 + 1) * (z as u64 + 1)
    }

    fn check(&self, c: &mut Checker, f: &str, colliding: bool) {
        let s = self;
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
        let edges = &format!("{f}.edge_compliance");
        c.num(edges, s.edge_compliance, COMPLIANCE);
        let cells = &format!("{f}.volume_compliance");
        c.num(cells, s.volume_compliance, VOLUME_COMPLIANCE);
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

    /// Distance links on every tetrahedron edge and a volume constraint on
    /// every tetrahedron, or, with a Young's modulus, the two neo-Hookean
    /// constraints on every tetrahedron.
    fn build(&self, world: &mut World, body: usize) -> Shape {
        let s = self;
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
                    let rest = crate::solver::tetrahedron_volume(world.particles.pos(), t);
                    world.add_quad(QuadKind::Volume, t, rest, s.volume_compliance, body);
                }
            }
        }
        pin(world, first, s.particle_count() as usize, &s.pins);
        Shape::Closed { triangles: skin }
    }

    /// Compliances, and E and ν read back through the neo-Hookean ones.
    fn capture_compliances(&mut self, world: &World, body: usize) {
        let edges = world.constraints.compliance(body, LinkKind::Stretch);
        self.edge_compliance = edges.unwrap_or(self.edge_compliance);
        let cells = world.quads.compliance(body, QuadKind::Volume);
        self.volume_compliance = cells.unwrap_or(self.volume_compliance);
        // Read back through the compliances, E and ν carry rounding: a value
        // within 1e-5 of the scene's is the scene's.
        if let Some((e, nu)) = world.neo_hookean(body) {
            let near = |a: f32, b: f32| (a - b).abs() <= 1e-5 * a.abs().max(b.abs()).max(1.0);
            if !self.young_modulus.is_some_and(|was| near(was, e)) {
                self.young_modulus = Some(e);
            }
            if !near(self.poisson_ratio, nu) {
                self.poisson_ratio = nu;
            }
        }
    }

    fn capture_pins(&mut self, world: &World, body: &Body) {
        self.pins = pinned(world, body);
    }
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
        let x = t.map(|i| world.particles.pos()[i].as_dvec3());
        let Some(shape) = crate::solver::neo_hookean::rest_shape(x) else {
            continue;
        };
        world.add_shaped_quad(QuadKind::NeoHookean, t, (0.0, shape), 0.0, body);
    }
    world.set_neo_hookean(body, e, nu);
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
        for i in 0..w.particles.len() {
            let (p, v) = (w.particles.pos()[i], w.particles.vel()[i]);
            w.set_particle(i, p * Vec3::new(-1.0, 1.0, 1.0), v);
        }
        assert!(tets.iter().all(|&t| volume(w.particles.pos(), t) < 0.0));
        for _ in 0..300 {
            w.step();
        }
        let worst = (tets.iter())
            .map(|&t| volume(w.particles.pos(), t) / volume(&rest, t))
            .fold(f32::INFINITY, f32::min);
        assert!(worst > 0.5, "a tetrahedron at {worst} of its rest volume");
        assert!(w.particles.pos().iter().all(|p| p.is_finite()));
    }
}
