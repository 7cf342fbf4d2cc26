//! `Cloth(...)`: a rectangular grid of particles, with distance or
//! dihedral bending, tearing and air on its triangles.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::schema::{V3, cloth_bend, half, rope_compliance};
use super::super::validate::{Checker, MAX_PARTICLES, collision_radius, resolve_index};
use super::{Facts, Kind};
use crate::solver::limits::*;
use crate::solver::{Body, LinkKind, QuadKind, Shape, Tag, World, dihedral_angle};

/// Cloth orientation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orientation {
    /// Columns along +x, rows along −y (a curtain).
    #[default]
    Vertical,
    /// Columns along +x, rows along +z (a tablecloth).
    Horizontal,
}

/// How a cloth resists bending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bending {
    /// Distance links across two cells (`bend_compliance` in m/N).
    #[default]
    Distance,
    /// The angle between the two triangles of every interior edge, rest
    /// angle from the initial shape (`bend_compliance` in rad/(N·m)).
    Dihedral,
}

/// `Cloth(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClothDef {
    /// Position of particle (row 0, col 0) (m). Required.
    pub origin: V3,
    /// Extent along columns and rows (m). Required.
    pub size: (f32, f32),
    /// (columns, rows) of particles. Required.
    pub resolution: (u32, u32),
    /// Vertical | Horizontal (default Vertical).
    #[serde(default)]
    pub orientation: Orientation,
    /// Total mass (kg) (default 0.5).
    #[serde(default = "half")]
    pub mass: f32,
    /// Structural edge compliance (m/N) (default 0).
    #[serde(default)]
    pub stretch_compliance: f32,
    /// Diagonal compliance (m/N) (default 1e−4).
    #[serde(default = "rope_compliance")]
    pub shear_compliance: f32,
    /// Compliance across two cells (m/N); None = no bending (default 0.01).
    #[serde(default = "cloth_bend")]
    pub bend_compliance: Option<f32>,
    /// Particle radius (m) (default 0.01).
    #[serde(default = "cloth_radius")]
    pub radius: f32,
    /// Collisions between the cloth's own particles (default false).
    #[serde(default)]
    pub self_collision: bool,
    /// Strain past which a constraint breaks; None = never (default).
    #[serde(default)]
    pub tear_strain: Option<f32>,
    /// Tension (N), averaged over a frame (|Σλ|/(h·Δt)), past which a
    /// constraint breaks; None = never (default).
    #[serde(default)]
    pub tear_force: Option<f32>,
    /// Pinned (row, col); negatives count from the end (default none).
    #[serde(default)]
    pub pins: Vec<(i64, i64)>,
    /// Long-range attachments to the nearest pin, rest distance in the
    /// flat sheet (default false).
    #[serde(default)]
    pub tethers: bool,
    /// Distance | Dihedral (default Distance).
    #[serde(default)]
    pub bending: Bending,
    /// Drag coefficient C_d of every triangle (default 0: none).
    #[serde(default)]
    pub aero_drag: f32,
    /// Lift coefficient C_l of every triangle (default 0: none).
    #[serde(default)]
    pub aero_lift: f32,
}

fn cloth_radius() -> f32 {
    0.01
}

impl Default for ClothDef {
    /// A 1 m × 1 m curtain of 20 × 20 particles hanging from 1 m height,
    /// every other field as a file without it gets.
    fn default() -> Self {
        Self::new([0.0, 1.0, 0.0], (1.0, 1.0), (20, 20))
    }
}

impl ClothDef {
    /// A cloth at `origin` (m) of `size` (m) and `resolution` (columns,
    /// rows of particles), every other field at its default.
    pub fn new(origin: V3, size: (f32, f32), resolution: (u32, u32)) -> Self {
        Self {
            origin,
            size,
            resolution,
            orientation: Orientation::default(),
            mass: half(),
            stretch_compliance: 0.0,
            shear_compliance: rope_compliance(),
            bend_compliance: cloth_bend(),
            radius: cloth_radius(),
            self_collision: false,
            tear_strain: None,
            tear_force: None,
            pins: Vec::new(),
            tethers: false,
            bending: Bending::default(),
            aero_drag: 0.0,
            aero_lift: 0.0,
        }
    }
}

const FACTS: Facts = Facts {
    kind: "Cloth",
    label: "cloth",
    links: &[
        (LinkKind::Stretch, "stretch"),
        (LinkKind::Shear, "shear"),
        (LinkKind::Bend, "bending"),
    ],
    self_collision: true,
    tethers: true,
};

impl Kind for ClothDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn particle_count(&self) -> u64 {
        self.resolution.0 as u64 * self.resolution.1 as u64
    }

    fn check(&self, c: &mut Checker, f: &str, body_collisions: bool) {
        let cl = self;
        c.v3(&format!("{f}.origin"), cl.origin, COORDINATE);
        let sizes_ok = c.num(&format!("{f}.size.0"), cl.size.0, LENGTH)
            & c.num(&format!("{f}.size.1"), cl.size.1, LENGTH);
        let (cols, rows) = cl.resolution;
        let mut resolution_ok = true;
        for (name, v) in [("resolution.0", cols), ("resolution.1", rows)] {
            if !(2..=MAX_PARTICLES as u32).contains(&v) {
                resolution_ok = false;
                c.fail(
                    format!("{f}.{name}"),
                    format!(
                        "{v} is outside the accepted range 2 ..= {MAX_PARTICLES} particles per edge"
                    ),
                );
            }
        }
        c.num(&format!("{f}.mass"), cl.mass, MASS);
        let stretch = &format!("{f}.stretch_compliance");
        c.num(stretch, cl.stretch_compliance, COMPLIANCE);
        let shear = &format!("{f}.shear_compliance");
        c.num(shear, cl.shear_compliance, COMPLIANCE);
        if let Some(b) = cl.bend_compliance {
            c.num(&format!("{f}.bend_compliance"), b, COMPLIANCE);
        }
        if c.num(&format!("{f}.radius"), cl.radius, RADIUS) && sizes_ok && resolution_ok {
            let spacing = (cl.size.0 / (cols - 1) as f32).min(cl.size.1 / (rows - 1) as f32);
            let colliding = cl.self_collision || body_collisions;
            collision_radius(c, f, cl.radius, spacing, colliding);
        }
        if let Some(t) = cl.tear_strain {
            c.num(&format!("{f}.tear_strain"), t, TEAR_STRAIN);
        }
        if let Some(t) = cl.tear_force {
            c.num(&format!("{f}.tear_force"), t, TEAR_FORCE);
        }
        for (k, &(row, col)) in cl.pins.iter().enumerate() {
            c.index(&format!("{f}.pins[{k}].0 (row)"), row, rows as u64);
            c.index(&format!("{f}.pins[{k}].1 (column)"), col, cols as u64);
        }
        c.num(&format!("{f}.aero_drag"), cl.aero_drag, AERO_COEFFICIENT);
        c.num(&format!("{f}.aero_lift"), cl.aero_lift, AERO_COEFFICIENT);
    }

    fn build(&self, world: &mut World, body: usize) -> Shape {
        let cl = self;
        let (cols, rows) = (cl.resolution.0 as usize, cl.resolution.1 as usize);
        let along_row = Vec3::X * (cl.size.0 / (cols - 1) as f32);
        let along_col = match cl.orientation {
            Orientation::Vertical => -Vec3::Y,
            Orientation::Horizontal => Vec3::Z,
        } * (cl.size.1 / (rows - 1) as f32);
        let origin = Vec3::from(cl.origin);
        let first = world.particles.len();
        let m = cl.mass / (cols * rows) as f32;
        for row in 0..rows {
            for col in 0..cols {
                let p = origin + along_row * col as f32 + along_col * row as f32;
                world.particles.push(p, m, cl.radius);
            }
        }
        let tear = cl.tear_strain.unwrap_or(f32::INFINITY);
        let id = |row: usize, col: usize| first + row * cols + col;
        let mut families: Vec<(LinkKind, f32, [usize; 2], [usize; 2])> = vec![
            (LinkKind::Stretch, cl.stretch_compliance, [0, 0], [0, 1]),
            (LinkKind::Stretch, cl.stretch_compliance, [0, 0], [1, 0]),
            (LinkKind::Shear, cl.shear_compliance, [0, 0], [1, 1]),
            (LinkKind::Shear, cl.shear_compliance, [0, 1], [1, 0]),
        ];
        let bend = cl.bend_compliance;
        if let Some(bend) = bend.filter(|_| cl.bending == Bending::Distance) {
            families.push((LinkKind::Bend, bend, [0, 0], [0, 2]));
            families.push((LinkKind::Bend, bend, [0, 0], [2, 0]));
        }
        // Family by family in row-major order: greedy colouring then finds the
        // two-colour pattern of each family, at most 12 colours in all.
        for (kind, compliance, [r0, c0], [r1, c1]) in families {
            let reach_r = r0.max(r1);
            let reach_c = c0.max(c1);
            for row in 0..rows.saturating_sub(reach_r) {
                for col in 0..cols.saturating_sub(reach_c) {
                    let (a, b) = (id(row + r0, col + c0), id(row + r1, col + c1));
                    let rest = world.particles.pos()[a].distance(world.particles.pos()[b]);
                    let tag = Tag::new(body, kind);
                    world.add_link((a, b), rest, compliance, tear, tag);
                }
            }
        }
        if let Some(bend) = bend.filter(|_| cl.bending == Bending::Dihedral) {
            dihedrals(world, body, (rows, cols), first, bend);
        }
        if let Some(force) = cl.tear_force {
            world.constraints.set_tear_force(body, force);
        }
        for &(row, col) in &cl.pins {
            let row = resolve_index(row, rows as u64).expect("pins checked by scene validation");
            let col = resolve_index(col, cols as u64).expect("pins checked by scene validation");
            world.set_pinned(id(row, col), true);
        }
        Shape::Cloth {
            columns: cols,
            rows,
        }
    }

    fn tearable(&self) -> bool {
        self.tear_strain.is_some() || self.tear_force.is_some()
    }

    fn self_collision(&self) -> bool {
        self.self_collision
    }

    fn tethers(&self) -> bool {
        self.tethers
    }

    fn aero(&self) -> Option<(f32, f32)> {
        (self.aero_drag > 0.0 || self.aero_lift > 0.0).then_some((self.aero_drag, self.aero_lift))
    }

    fn tear_limits(&self) -> (f32, f32) {
        let never = f32::INFINITY;
        (
            self.tear_strain.unwrap_or(never),
            self.tear_force.unwrap_or(never),
        )
    }

    fn capture_compliances(&mut self, world: &World, body: usize) {
        let c = &world.constraints;
        let kind = |k| c.compliance(body, k);
        self.stretch_compliance = kind(LinkKind::Stretch).unwrap_or(self.stretch_compliance);
        self.shear_compliance = kind(LinkKind::Shear).unwrap_or(self.shear_compliance);
        self.bend_compliance = kind(LinkKind::Bend)
            .or(world.quads.compliance(body, QuadKind::Dihedral))
            .or(self.bend_compliance);
    }

    fn capture_switches(&mut self, world: &World, body: usize) {
        self.self_collision = world.self_collision(body);
        self.tethers = world.tethers().has(body);
    }

    /// A copy made by a tear is pinned where its original is.
    fn capture_pins(&mut self, world: &World, body: &Body) {
        let Shape::Cloth { columns, .. } = body.shape else {
            unreachable!("cloth bodies have cloth shapes");
        };
        let grid = |k: usize| body.faces.as_ref().map_or(k, |f| f.origin[k] as usize);
        let mut pins: Vec<(i64, i64)> = (body.range())
            .filter(|&i| world.particles.is_pinned(i))
            .map(|i| grid(i - body.first))
            .map(|i| ((i / columns) as i64, (i % columns) as i64))
            .collect();
        pins.sort_unstable();
        pins.dedup();
        self.pins = pins;
    }
}

/// A dihedral constraint on every interior edge of a grid cut into two
/// triangles per cell, (r, c), (r, c+1), (r+1, c) and (r, c+1),
/// (r+1, c+1), (r+1, c), as `World::set_aero` cuts it: wings first, then
/// the edge; rest angles from the grid as built.
fn dihedrals(
    world: &mut World,
    body: usize,
    (rows, cols): (usize, usize),
    first: usize,
    bend: f32,
) {
    let id = |r: usize, c: usize| first + r * cols + c;
    let mut hinges = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            // The cell's diagonal (r, c+1)–(r+1, c).
            hinges.push([id(r, c), id(r + 1, c + 1), id(r, c + 1), id(r + 1, c)]);
            // The row edge (r, c)–(r, c+1) between this cell and the one above.
            if r > 0 {
                hinges.push([id(r + 1, c), id(r - 1, c + 1), id(r, c), id(r, c + 1)]);
            }
            // The column edge (r, c)–(r+1, c) between this cell and the one left.
            if c > 0 {
                hinges.push([id(r, c + 1), id(r + 1, c - 1), id(r, c), id(r + 1, c)]);
            }
        }
    }
    for h in hinges {
        let rest = dihedral_angle(world.particles.pos(), h).unwrap_or(0.0);
        world.add_quad(QuadKind::Dihedral, h, rest, bend, body);
    }
}
