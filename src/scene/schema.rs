//! The RON scene format (DESIGN.md §3) as serde types.
//!
//! Field defaults are the values documented in docs/scene-format.md; fields without
//! a `default` attribute are required. Unknown fields are errors.

use serde::{Deserialize, Serialize};

pub use super::bodies::balloon::BalloonDef;
pub use super::bodies::cloth::{Bending, ClothDef, Orientation};
pub use super::bodies::mesh::{MeshDef, MeshLink, MeshParticle};
pub use super::bodies::rigid::{RigidDef, RigidShapeDef};
pub use super::bodies::rod::{RodDef, RodSolverDef};
pub use super::bodies::rope::RopeDef;
pub use super::bodies::soft_box::SoftBoxDef;
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
    /// What the two lanes of compare mode (PBD left, XPBD right) show and
    /// what to try there, in place of `caption` (default None: the
    /// caption folds to a line between the lanes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare_caption: Option<String>,
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
    /// Joints between two rigid bodies, or a rigid body and the world.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointDef>,
    /// Particles held at points of rigid bodies, both ways.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<AttachmentDef>,
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
    /// A Rod's segment orientations, unit quaternions (x, y, z, w), one
    /// per segment (default none: as built).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orientations: Vec<[f32; 4]>,
    /// A Rod's segment angular velocities (rad/s), one per segment
    /// (default none: at rest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub angular_velocities: Vec<V3>,
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
    Balloon(BalloonDef),
    /// A block of tetrahedra: a soft solid.
    SoftBox(SoftBoxDef),
    /// A Cosserat rod: particles plus an orientation per segment.
    Rod(RodDef),
    /// A rigid body: a box, ball or capsule.
    Rigid(RigidDef),
}

/// `joints: [(...)]`: between rigid bodies `a` and `b` (None: the world).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointDef {
    /// Index in `bodies` of a Rigid body. Required.
    pub a: usize,
    /// Index in `bodies` of another Rigid body; None: the world (default).
    #[serde(default)]
    pub b: Option<usize>,
    /// Ball | Hinge(axis) | Slider(axis) | Fixed. Required.
    pub kind: JointKindDef,
    /// The joint's point in world coordinates as built (m). Required.
    pub anchor: V3,
    /// m/N for positions, rad/(N·m) for angles (default 0: rigid).
    #[serde(default)]
    pub compliance: f32,
    /// Some((min, max)): rad about a Hinge's axis, m along a Slider's
    /// (default None).
    #[serde(default, with = "limits")]
    pub limits: Option<(f32, f32)>,
    /// A Hinge's motor (default None).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motor: Option<MotorDef>,
}

/// `motor: Some((speed: 2.0, max_torque: 10.0))`: a hinge turns body a
/// relative to b toward `speed` (rad/s, right-handed about the axis) with
/// at most `max_torque` (N·m).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MotorDef {
    /// Target speed (rad/s). Required.
    pub speed: f32,
    /// Torque limit (N·m). Required.
    pub max_torque: f32,
}

/// `Some((min, max))` as DESIGN §3 writes it: with the files'
/// `unwrap_variant_newtypes`, RON reads a tuple straight inside `Some(`
/// as its bare fields (`Some(min, max)`), so the pair goes through a
/// newtype, which takes the parentheses back; Save as writes it as
/// `((min, max))` (implicit `Some`), which reads back the same.
mod limits {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Pair((f32, f32));

    pub fn serialize<S: Serializer>(v: &Option<(f32, f32)>, s: S) -> Result<S::Ok, S::Error> {
        v.map(Pair).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(f32, f32)>, D::Error> {
        Ok(Option::<Pair>::deserialize(d)?.map(|p| p.0))
    }
}

/// What a joint lets move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum JointKindDef {
    /// Turns freely about its anchor.
    Ball,
    /// Turns about `axis` (world, as built) only.
    Hinge {
        /// Non-zero; normalised on load.
        axis: V3,
    },
    /// Slides along `axis` (world, as built) without turning.
    Slider {
        /// Non-zero; normalised on load.
        axis: V3,
    },
    /// Holds the two together.
    Fixed,
}

/// `attachments: [(...)]`: particle `particle` of body `body` held at
/// point `anchor` (the rigid body's frame) of Rigid body `rigid`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentDef {
    /// Index in `bodies` of a body with particles. Required.
    pub body: usize,
    /// The particle, numbered as in `pins` (negatives from the end). Required.
    pub particle: i64,
    /// Index in `bodies` of a Rigid body. Required.
    pub rigid: usize,
    /// The point in the rigid body's own frame (m) (default its centre).
    #[serde(default)]
    pub anchor: V3,
    /// m/N (default 0: rigid).
    #[serde(default)]
    pub compliance: f32,
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

/// Kinematic motions and driven loads.
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
    /// A clamped Rod end turns about the rod's tangent at turns/seconds
    /// until it has turned `turns`, then holds.
    Twist {
        /// Turns (positive: right-handed about the tangent). Required.
        turns: f32,
        /// s. Required.
        seconds: f32,
    },
    /// The particle becomes kinematic and moves by `offset` at constant
    /// speed over `seconds`, then holds.
    Slide {
        /// m. Required.
        offset: V3,
        /// s. Required.
        seconds: f32,
    },
    /// A torque (N·m) about `axis` on the segment at a Rod particle,
    /// ramped linearly from 0 over `seconds`, then held; the particle
    /// stays free.
    Moment {
        /// Direction, non-zero; normalised on load. Required.
        axis: V3,
        /// N·m. Required.
        newton_metres: f32,
        /// s. Required.
        seconds: f32,
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
pub(super) fn half() -> f32 {
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
pub(super) fn cloth_bend() -> Option<f32> {
    Some(0.01)
}
