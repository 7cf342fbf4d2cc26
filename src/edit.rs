//! One edit stream: every value a user changes in a running world (the
//! panel's per-body, per-join, rigid-body and joint controls) as one
//! [`Edit`], applied by one function. The window applies an edit to its
//! world and to compare mode's twin with [`Edit::apply`], keeps it in the
//! scene that Reset and Save as use, and gives it to the recorder, so a
//! replay applies the same edits at the same frames (`record::Event::Edit`).
//! The hand, pins, `fixed` and solver settings are recorded by watching the
//! world (see `record`).

use serde::{Deserialize, Serialize};

use crate::solver::limits::{self, Bounds};
use crate::solver::rigid::Motor;
use crate::solver::rods::RodSolver;
use crate::solver::{LinkKind, QuadKind, World};

/// A change to the world's bodies, joins or joints. Indices: `body` as
/// in the scene's `bodies`; particles and links by world particle index;
/// rigid bodies and joints in their world order.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Edit {
    /// Every link of (body, kind) gets this compliance (m/N).
    Compliance(usize, LinkKind, f32),
    /// Every link of (body, kind) has its compliance multiplied by this.
    ScaleCompliance(usize, LinkKind, f32),
    /// A body's dihedral bending compliance (rad/(N·m)).
    Dihedral(usize, f32),
    /// A body's tethers on or off.
    Tethers(usize, bool),
    /// A body's self-collision on or off.
    SelfCollision(usize, bool),
    /// Collisions between bodies on or off.
    BodyCollisions(bool),
    /// The link between particles (a, b) — a join — gets this compliance.
    Link(usize, usize, f32),
    /// A balloon's pressure (target / built volume).
    Pressure(usize, f32),
    /// A balloon's gas compliance (m⁵/N).
    GasCompliance(usize, f32),
    /// A soft box's cells' volume compliance (m⁵/N).
    CellCompliance(usize, f32),
    /// A neo-Hookean soft box's Young's modulus (Pa) and Poisson's ratio.
    Material(usize, f32, f32),
    /// A particle's mass (kg): a rope's last particle with its tip mass.
    Mass(usize, f32),
    /// A cloth's drag and lift coefficients.
    Aero(usize, f32, f32),
    /// A tearable cloth's tear strain.
    TearStrain(usize, f32),
    /// A tearable cloth's tear force (N).
    TearForce(usize, f32),
    /// A rigid body's mass (kg).
    RigidMass(usize, f32),
    /// A rigid body's friction μ and restitution e.
    RigidSurface(usize, f32, f32),
    /// A joint's compliance, limits and motor (speed rad/s, max torque N·m).
    Joint(usize, f32, Option<(f32, f32)>, Option<(f32, f32)>),
    /// A rod's Young's and shear moduli (Pa).
    RodModuli(usize, f32, f32),
    /// A rod's solver: true for the direct solve, false for Gauss–Seidel.
    RodDirect(usize, bool),
    /// A rod's cross-section radius (m): stiffness, masses and contact.
    RodRadius(usize, f32),
    /// A rod's particle k (numbered within it) clamped (position and the
    /// adjacent segment's frame held) or let go.
    Clamp(usize, usize, bool),
    /// A rod's clamped particle k turned about the rod by this many turns
    /// (positive right-handed about the tangent), at [`ROD_TURN_RATE`];
    /// nothing if that particle is not clamped when it comes.
    RodTurn(usize, usize, f32),
}

/// How fast the panel's twist turns a clamped rod end (turns a second):
/// slow enough for the twist to spread along a stiff rod as it turns.
pub const ROD_TURN_RATE: f32 = 1.0;

impl Edit {
    /// Applies the edit to `world` (which [`Edit::problem`] found it fits).
    pub fn apply(&self, w: &mut World) {
        match *self {
            Edit::Compliance(b, kind, alpha) => w.constraints.set_compliance(b, kind, alpha),
            Edit::ScaleCompliance(b, kind, f) => w.constraints.scale_compliance(b, kind, f),
            Edit::Dihedral(b, alpha) => w.quads.set_compliance(b, QuadKind::Dihedral, alpha),
            Edit::Tethers(b, on) => {
                w.set_tethers(b, on);
            }
            Edit::SelfCollision(b, on) => {
                w.set_self_collision(b, on);
                w.use_suitable_threads(); // contacts weigh in
            }
            Edit::BodyCollisions(on) => {
                w.set_body_collisions(on);
                w.use_suitable_threads(); // contacts weigh in
            }
            Edit::Link(a, b, alpha) => {
                w.constraints.set_link_compliance(a, b, alpha);
            }
            Edit::Pressure(b, p) => {
                w.set_pressure(b, p);
            }
            Edit::GasCompliance(b, alpha) => {
                if let Some(g) = w.gas_mut(b) {
                    g.compliance = alpha;
                }
            }
            Edit::CellCompliance(b, alpha) => w.quads.set_compliance(b, QuadKind::Volume, alpha),
            Edit::Material(b, e, nu) => w.set_neo_hookean(b, e, nu),
            Edit::Mass(i, kg) => w.set_mass(i, kg),
            Edit::Aero(b, drag, lift) => {
                w.set_aero(b, drag, lift);
            }
            Edit::TearStrain(b, s) => w.constraints.set_tear_strain(b, s),
            Edit::TearForce(b, f) => w.constraints.set_tear_force(b, f),
            Edit::RigidMass(r, kg) => w.set_rigid_mass(r, kg),
            Edit::RigidSurface(r, mu, e) => w.set_rigid_surface(r, mu, e),
            Edit::Joint(j, alpha, limits, motor) => {
                w.set_joint_compliance(j, alpha, limits);
                let motor = motor.map(|(speed, max_torque)| Motor { speed, max_torque });
                w.set_joint_motor(j, motor);
            }
            Edit::RodModuli(b, e, g) => {
                w.set_rod_moduli(b, e, g);
            }
            Edit::RodDirect(b, direct) => {
                let solver = if direct {
                    RodSolver::Direct
                } else {
                    RodSolver::GaussSeidel
                };
                w.set_rod_solver(b, solver);
            }
            Edit::RodRadius(b, radius) => {
                w.set_rod_radius(b, radius);
            }
            Edit::RodTurn(b, k, turns) => {
                w.turn_rod_end(b, k, turns, turns.abs() / ROD_TURN_RATE);
            }
            Edit::Clamp(b, k, on) => {
                if on {
                    w.clamp_rod(b, k);
                } else if let Some(i) = w.rod_particle(b, k) {
                    w.set_pinned(i, false); // lets the clamp go with the pin
                }
            }
        }
    }

    /// What is wrong with applying the edit to `w` — an index it lacks or
    /// a value outside its accepted range — if anything.
    pub fn problem(&self, w: &World) -> Option<String> {
        let (bodies, particles) = (w.bodies().len(), w.particles.len());
        let (rigid, joints) = (w.rigids().bodies.len(), w.rigids().joints.len());
        let index = |what: &str, i: usize, n: usize| {
            (i >= n).then(|| format!("{what} {i}: the scene has {n}"))
        };
        let value = |what: &str, x: f32, b: Bounds| {
            (!b.contains(x)).then(|| format!("{what} {x}: accepted {}", b.describe()))
        };
        let body = |b: usize| index("body", b, bodies);
        let rod = |b: usize| {
            body(b)
                .or_else(|| (w.rod_material(b).is_none()).then(|| format!("body {b}: not a rod")))
        };
        match *self {
            Edit::Compliance(b, _, a) => {
                body(b).or_else(|| value("compliance", a, limits::COMPLIANCE))
            }
            Edit::Link(a, b, alpha) => index("particle", a, particles)
                .or_else(|| index("particle", b, particles))
                .or_else(|| value("compliance", alpha, limits::COMPLIANCE)),
            Edit::ScaleCompliance(b, _, f) => body(b).or_else(|| {
                (!(f >= 0.0 && f.is_finite())).then(|| format!("factor {f}: finite, ≥ 0"))
            }),
            Edit::Dihedral(b, a) => body(b).or_else(|| value("compliance", a, limits::COMPLIANCE)),
            Edit::Tethers(b, _) | Edit::SelfCollision(b, _) => body(b),
            Edit::BodyCollisions(_) => None,
            Edit::Pressure(b, p) => body(b).or_else(|| value("pressure", p, limits::PRESSURE)),
            Edit::GasCompliance(b, a) | Edit::CellCompliance(b, a) => {
                body(b).or_else(|| value("compliance", a, limits::VOLUME_COMPLIANCE))
            }
            Edit::Material(b, e, nu) => body(b)
                .or_else(|| value("Young's modulus", e, limits::YOUNG_MODULUS))
                .or_else(|| value("Poisson's ratio", nu, limits::POISSON_RATIO)),
            Edit::Mass(i, kg) => {
                index("particle", i, particles).or_else(|| value("mass", kg, limits::MASS))
            }
            Edit::Aero(b, d, l) => body(b)
                .or_else(|| value("drag", d, limits::AERO_COEFFICIENT))
                .or_else(|| value("lift", l, limits::AERO_COEFFICIENT)),
            Edit::TearStrain(b, s) => {
                body(b).or_else(|| value("tear strain", s, limits::TEAR_STRAIN))
            }
            Edit::TearForce(b, f) => body(b).or_else(|| value("tear force", f, limits::TEAR_FORCE)),
            Edit::RigidMass(r, kg) => index("rigid body", r, rigid).or_else(|| {
                (!(kg > 0.0 && kg.is_finite() && kg <= 1e9))
                    .then(|| format!("mass {kg} kg: (0, 1e9]"))
            }),
            Edit::RigidSurface(r, mu, e) => index("rigid body", r, rigid)
                .or_else(|| value("friction", mu, limits::FRICTION))
                .or_else(|| value("restitution", e, limits::RESTITUTION)),
            Edit::Joint(j, alpha, lim, motor) => index("joint", j, joints)
                .or_else(|| value("compliance", alpha, limits::JOINT_COMPLIANCE))
                .or_else(|| {
                    let (lo, hi) = lim?;
                    value("limit", lo, limits::OFFSET)
                        .or_else(|| value("limit", hi, limits::OFFSET))
                        .or_else(|| (lo > hi).then(|| format!("limits ({lo}, {hi}): min ≤ max")))
                })
                .or_else(|| {
                    let (speed, torque) = motor?;
                    value("motor speed", speed, limits::MOTOR_SPEED)
                        .or_else(|| value("motor torque", torque, limits::MOTOR_TORQUE))
                }),
            Edit::RodModuli(b, e, g) => rod(b)
                .or_else(|| value("Young's modulus", e, limits::ROD_MODULUS))
                .or_else(|| value("shear modulus", g, limits::ROD_MODULUS)),
            Edit::RodDirect(b, _) => rod(b),
            Edit::RodRadius(b, radius) => rod(b)
                .or_else(|| value("radius", radius, limits::ROD_RADIUS))
                .or_else(|| {
                    let most = w.rod_widest_radius(b).unwrap_or(0.0);
                    (radius > most).then(|| {
                        format!(
                            "radius {radius} m: accepted at most {most} m, {} × its segments, \
                             while its particles collide",
                            limits::RADIUS_PER_SPACING
                        )
                    })
                }),
            Edit::Clamp(b, k, _) => rod(b).or_else(|| {
                (w.rod_particle(b, k).is_none()).then(|| format!("particle {k} of rod {b}"))
            }),
            // Whether the end is clamped is the world's state when the
            // turn comes (a recording is checked against the scene as
            // built): a turn of an end not clamped then does nothing.
            Edit::RodTurn(b, k, turns) => rod(b)
                .or_else(|| value("turns", turns, limits::TURNS))
                .or_else(|| {
                    (w.rod_particle(b, k).is_none()).then(|| format!("particle {k} of rod {b}"))
                }),
        }
    }
}
