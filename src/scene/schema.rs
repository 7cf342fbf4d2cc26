//! The RON scene format (DESIGN.md §3) as serde types.
//!
//! Field defaults are the values documented in docs/scene-format.md; fields without
//! a `default` attribute are required. Unknown fields are errors.

use serde::{Deserialize, Serialize};

use crate::solver::{Method, Settings};

/// A 3-vector written `(x, y, z)`.
pub type V3 = [f32; 3];

/// A whole scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Shown in the window title (default "untitled").
    #[serde(default = "untitled")]
    pub name: String,
    /// A few sentences shown in the view: what to try, what to look for
    /// (default None).
    #[serde(default)]
    pub caption: Option<String>,
    /// Step parameters.
    #[serde(default)]
    pub solver: SolverDef,
    /// Ropes, cloths and meshes; index = `body` in CSV, pins and drivers.
    #[serde(default)]
    pub bodies: Vec<BodyDef>,
    /// Static collision shapes.
    #[serde(default)]
    pub colliders: Vec<ColliderDef>,
    /// Links between particles of two bodies.
    #[serde(default)]
    pub joins: Vec<JoinDef>,
    /// Kinematically moved particles.
    #[serde(default)]
    pub drivers: Vec<DriverDef>,
    /// Initial camera of the window.
    #[serde(default)]
    pub camera: CameraDef,
    /// The world as it was when saved; when present the world starts from
    /// it, bit-exactly (default None).
    #[serde(default)]
    pub state: Option<StateDef>,
}

/// `state: (...)`: what Save as and `run --save` write to resume a world.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateDef {
    /// Simulated time (s). Required.
    pub time: f64,
    /// Per body, in `bodies` order. Required.
    pub bodies: Vec<BodyStateDef>,
    /// Joins that broke, by index in `joins` (default none).
    #[serde(default)]
    pub broken_joins: Vec<usize>,
}

/// One body's particles in a [`StateDef`], numbered as in CSV and `pins`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyStateDef {
    /// Position of every particle (m). Required.
    pub positions: Vec<V3>,
    /// Velocity of every particle (m/s). Required.
    pub velocities: Vec<V3>,
    /// Pinned particles; they replace the body's `pins` (default none).
    #[serde(default)]
    pub pins: Vec<usize>,
    /// Links that broke, as particle pairs `(a, b)` (default none).
    #[serde(default)]
    pub broken: Vec<(usize, usize)>,
}

fn untitled() -> String {
    "untitled".into()
}

/// How [`Method`] is written in a scene: `Xpbd` or `Pbd` (serde's
/// mirror of the solver's enum, so the solver needs no serde).
#[derive(Serialize, Deserialize)]
#[serde(remote = "Method")]
enum MethodDef {
    Xpbd,
    Pbd,
}

/// `solver: (...)`; see [`crate::solver::Settings`] for meanings and units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SolverDef {
    /// Xpbd | Pbd.
    #[serde(with = "MethodDef")]
    pub method: Method,
    /// Frame length (s).
    pub dt: f32,
    /// Substeps per frame.
    pub substeps: u32,
    /// Gauss–Seidel passes per substep.
    pub iterations: u32,
    /// m/s².
    pub gravity: V3,
    /// Constraint damping β (kg/s).
    pub damping: f32,
    /// Air drag rate (1/s).
    pub air_drag: f32,
    /// Wind velocity (m/s).
    pub wind: V3,
    /// Air density (kg/m³) for cloth triangles' drag and lift.
    pub air_density: f32,
    /// PBD stiffness k ∈ (0, 1].
    pub pbd_stiffness: f32,
    /// Particles of different ropes and cloths collide (default false).
    pub body_collisions: bool,
}

impl RopeDef {
    /// Each particle's share of the rope's mass (kg), before `tip_mass`.
    pub fn particle_mass(&self) -> f32 {
        self.mass / (self.segments + 1) as f32
    }
}

impl Default for SolverDef {
    /// The solver's own defaults ([`Settings::default`]), no body collisions.
    fn default() -> Self {
        let mut def = SolverDef::from(&Settings::default());
        def.body_collisions = false;
        def
    }
}

/// One body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BodyDef {
    /// A chain of particles from `start` to `end`.
    Rope(RopeDef),
    /// A rectangular grid of particles.
    Cloth(ClothDef),
    /// Free-form particles and links.
    Mesh(MeshDef),
    /// A closed icosphere of cloth with one global volume constraint.
    Balloon(super::solid::BalloonDef),
    /// A block of tetrahedra: a soft solid.
    SoftBox(super::solid::SoftBoxDef),
}

/// `Rope(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeDef {
    /// First particle (m). Required.
    pub start: V3,
    /// Last particle (m). Required.
    pub end: V3,
    /// Number of links; particles = segments + 1. Required.
    pub segments: u32,
    /// Rest length of the whole rope (m); default |end − start|.
    #[serde(default)]
    pub length: Option<f32>,
    /// Total mass (kg), spread evenly over the particles (default 1).
    #[serde(default = "one")]
    pub mass: f32,
    /// Link compliance (m/N) (default 1e−4).
    #[serde(default = "rope_compliance")]
    pub compliance: f32,
    /// Compliance of the distance across every second particle (m/N); None = no bending.
    #[serde(default)]
    pub bend_compliance: Option<f32>,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
    /// Collisions between the rope's own particles (default false).
    #[serde(default)]
    pub self_collision: bool,
    /// Pinned particle indices; negative counts from the end (default none).
    #[serde(default)]
    pub pins: Vec<i64>,
    /// Mass added to the last particle (kg): a weight on the end (default 0).
    #[serde(default)]
    pub tip_mass: f32,
    /// Long-range attachments: no particle gets farther from its nearest
    /// pin than its rest distance along the rope (default false).
    #[serde(default)]
    pub tethers: bool,
}

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

/// `Mesh(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshDef {
    /// Particles in index order.
    #[serde(default)]
    pub particles: Vec<MeshParticle>,
    /// Distance links between particles.
    #[serde(default)]
    pub links: Vec<MeshLink>,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
}

/// One mesh particle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshParticle {
    /// Initial position (m). Required.
    pub position: V3,
    /// Mass (kg) (default 1).
    #[serde(default = "one")]
    pub mass: f32,
    /// Pinned (default false).
    #[serde(default)]
    pub pinned: bool,
}

/// One mesh link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshLink {
    /// First particle index. Required.
    pub a: i64,
    /// Second particle index. Required.
    pub b: i64,
    /// Compliance (m/N) (default 0).
    #[serde(default)]
    pub compliance: f32,
    /// Rest length (m); default the initial distance.
    #[serde(default)]
    pub rest: Option<f32>,
}

/// A static collider.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ColliderDef {
    /// Plane y = height.
    Ground {
        /// m (default 0).
        #[serde(default)]
        height: f32,
        /// μ (default 0.5).
        #[serde(default = "half")]
        friction: f32,
    },
    /// Solid sphere.
    Sphere {
        /// m. Required.
        center: V3,
        /// m. Required.
        radius: f32,
        /// μ (default 0.3).
        #[serde(default = "friction")]
        friction: f32,
    },
    /// Solid axis-aligned box.
    Box {
        /// m. Required.
        center: V3,
        /// m. Required.
        half_extents: V3,
        /// μ (default 0.3).
        #[serde(default = "friction")]
        friction: f32,
    },
}

/// `(body: 0, particle: 0, motion: Sine(...))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DriverDef {
    /// Body index. Required.
    pub body: usize,
    /// Particle index inside the body (numbered as in CSV); negative from the end. Required.
    pub particle: i64,
    /// The motion. Required.
    pub motion: Motion,
}

/// `(a: (body, particle), b: (body, particle), compliance, rest)`: a link
/// between particles of two bodies (a rope tied to a cloth).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinDef {
    /// (body, particle) of one end; particle numbered as in CSV, negative
    /// from the end. Required.
    pub a: (usize, i64),
    /// (body, particle) of the other end. Required.
    pub b: (usize, i64),
    /// Compliance (m/N) (default 0: rigid).
    #[serde(default)]
    pub compliance: f32,
    /// Rest length (m); default the initial distance.
    #[serde(default)]
    pub rest: Option<f32>,
}

/// Kinematic motions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Motion {
    /// x(t) = x₀ + axis·amplitude·sin(2π·frequency·t).
    Sine {
        /// Direction, non-zero; normalised on load. Required.
        axis: V3,
        /// m. Required.
        amplitude: f32,
        /// Hz. Required.
        frequency: f32,
    },
}

/// Initial orbit camera.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CameraDef {
    /// Point looked at (m).
    pub target: V3,
    /// Distance from the target (m).
    pub distance: f32,
    /// Rotation about +y (degrees); 0 looks along −z.
    pub yaw: f32,
    /// Elevation (degrees); positive looks down.
    pub pitch: f32,
}

impl Default for CameraDef {
    fn default() -> Self {
        Self {
            target: [0.0, 1.0, 0.0],
            distance: 4.0,
            yaw: 0.0,
            pitch: 0.0,
        }
    }
}

pub(super) fn one() -> f32 {
    1.0
}
fn half() -> f32 {
    0.5
}
fn friction() -> f32 {
    0.3
}
pub(super) fn rope_compliance() -> f32 {
    1e-4
}
pub(super) fn rope_radius() -> f32 {
    0.02
}
fn cloth_radius() -> f32 {
    0.01
}
pub(super) fn cloth_bend() -> Option<f32> {
    Some(0.01)
}
