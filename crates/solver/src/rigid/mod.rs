//! Rigid bodies (Müller, Macklin, Chentanez, Jeschke, Kim 2020, "Detailed
//! Rigid Body Simulation with Extended Position Based Dynamics"): a pose
//! (centre of mass x, unit quaternion q) per body, predicted each substep
//! with the gyroscopic term, corrected by positional and angular XPBD
//! constraints — contacts ([`contact`]), joints ([`joint`]) and
//! attachments to particles — and given velocities from Δx/h and Δq/h,
//! after which a velocity pass applies dynamic friction and stops the
//! contacts' normal motion ([`motion`]).
//!
//! A positional correction between points p₀ of body 0 and p₁ of body 1
//! (r the arm from a centre, n the direction, C the distance) uses the
//! generalised inverse masses w = 1/m + (r × n)ᵀ I⁻¹ (r × n) and
//! `Δλ = (−C − α̃λ)/(w₀ + w₁ + α̃)`; an angular one by θ about n uses
//! w = nᵀ I⁻¹ n (see [`end`]). The whole rigid world is solved by one thread, in
//! order, so its bits do not depend on the thread count.

mod block;
mod box_box;
pub mod contact;
pub mod end;
pub mod geometry;
pub mod joint;
pub mod motion;
pub mod ray;
pub mod surface;
pub mod world;

use glam::{Quat, Vec3};

use contact::Contact;
use end::End;

pub use joint::{Joint, JointKind, Motor};
pub use world::RigidDesc;

/// A rigid body's shape, in its own frame (centred on the centre of mass).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RigidShape {
    /// A box of the given half edge lengths (m) along the body's axes.
    Box(Vec3),
    /// A ball of this radius (m).
    Sphere(f32),
    /// A capsule: radius (m) and half the length of its core segment (m),
    /// along the body's y axis.
    Capsule(f32, f32),
}

impl RigidShape {
    /// Volume (m³).
    pub fn volume(self) -> f32 {
        use std::f32::consts::PI;
        match self {
            RigidShape::Box(h) => 8.0 * h.x * h.y * h.z,
            RigidShape::Sphere(r) => 4.0 / 3.0 * PI * r.powi(3),
            RigidShape::Capsule(r, l) => PI * r * r * 2.0 * l + 4.0 / 3.0 * PI * r.powi(3),
        }
    }

    /// The principal moments of inertia (kg·m²) about the body's axes for
    /// `mass` (kg) spread evenly.
    pub fn inertia(self, mass: f32) -> Vec3 {
        match self {
            RigidShape::Box(h) => {
                let s = h * h;
                Vec3::new(s.y + s.z, s.x + s.z, s.x + s.y) * (mass / 3.0)
            }
            RigidShape::Sphere(r) => Vec3::splat(0.4 * mass * r * r),
            RigidShape::Capsule(r, l) => {
                // The cylinder and the two half balls, each its share of
                // the mass by volume; the half balls' centres of mass sit
                // 3r/8 beyond the cylinder's ends (parallel axes).
                let (cyl, ball) = (2.0 * l * r * r, 4.0 / 3.0 * r.powi(3));
                let (mc, mb) = (mass * cyl / (cyl + ball), mass * ball / (cyl + ball));
                let h = 2.0 * l;
                let along = mc * r * r / 2.0 + mb * 0.4 * r * r;
                let across = mc * (r * r / 4.0 + h * h / 12.0)
                    + mb * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
                Vec3::new(across, along, across)
            }
        }
    }

    /// The radius of a ball around the centre that holds the shape (m).
    pub fn bound(self) -> f32 {
        match self {
            RigidShape::Box(h) => h.length(),
            RigidShape::Sphere(r) => r,
            RigidShape::Capsule(r, l) => r + l,
        }
    }
}

/// One rigid body.
#[derive(Clone, Debug, PartialEq)]
pub struct Rigid {
    /// The scene body it is.
    pub body: usize,
    /// Its shape.
    pub shape: RigidShape,
    /// Centre of mass (m).
    pub x: Vec3,
    /// Orientation, body frame → world.
    pub q: Quat,
    /// Velocity (m/s).
    pub v: Vec3,
    /// Angular velocity (rad/s, world frame).
    pub omega: Vec3,
    /// Mass (kg).
    pub mass: f32,
    /// Principal moments of inertia in the body frame (kg·m²).
    pub inertia: Vec3,
    /// Coulomb friction coefficient μ.
    pub friction: f32,
    /// Coefficient of restitution e: the share of an impact's normal
    /// speed it leaves with (0: no rebound).
    pub restitution: f32,
    /// Never moves (an anchor for joints).
    pub fixed: bool,
    /// A driven torque (N·m, world frame) ramped over its seconds.
    pub torque: Option<(Vec3, f32)>,
    pub(crate) x_prev: Vec3,
    pub(crate) q_prev: Quat,
    /// This substep's corrections so far, of position and as a rotation
    /// vector: v = v_predicted + dx/h and ω likewise. Taking v from
    /// x − x_prev instead loses what f32 positions round off (a body
    /// falling at 3 m/s at 0.5 m height moves 2.7 mm a substep, rounded by
    /// 1e−5 of itself: mJ of kinetic energy a substep), and ω through
    /// ω·h/h ratchets by an ulp a substep (0.3 % of a spin's energy in 20 s).
    pub(crate) dx: Vec3,
    pub(crate) dtheta: Vec3,
}

impl Rigid {
    /// 1/m, 0 when fixed.
    pub fn inv_mass(&self) -> f32 {
        if self.fixed { 0.0 } else { 1.0 / self.mass }
    }

    /// I⁻¹ in the body frame, 0 when fixed.
    pub fn inv_inertia(&self) -> Vec3 {
        if self.fixed {
            Vec3::ZERO
        } else {
            self.inertia.recip()
        }
    }

    /// Kinetic energy ½mv² + ½ωᵀIω (J).
    pub fn kinetic_energy(&self) -> f64 {
        if self.fixed {
            return 0.0;
        }
        let spin = self.spin_energy(self.q.conjugate() * self.omega) as f64;
        0.5 * (self.mass as f64 * self.v.length_squared() as f64 + spin)
    }

    /// ωᵀIω for `w` in the body frame: twice the energy of that spin (J).
    pub(crate) fn spin_energy(&self, w: Vec3) -> f32 {
        (self.inertia * w * w).element_sum()
    }

    /// Angular momentum about the centre of mass, R·I·Rᵀω (kg·m²/s).
    pub fn angular_momentum(&self) -> Vec3 {
        self.q * (self.inertia * (self.q.conjugate() * self.omega))
    }

    /// The world point of a point `local` in the body frame.
    pub fn point(&self, local: Vec3) -> Vec3 {
        self.x + self.q * local
    }

    /// The body-frame point of world point `world`.
    pub fn local(&self, world: Vec3) -> Vec3 {
        self.q.conjugate() * (world - self.x)
    }
}

/// An attachment: a particle held at a point of a rigid body, both ways.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attachment {
    /// The particle (world index).
    pub particle: usize,
    /// The rigid body (index in [`Rigids::bodies`]).
    pub rigid: usize,
    /// The point in the body's frame (m).
    pub anchor: Vec3,
    /// Compliance (m/N).
    pub compliance: f32,
    pub(crate) lambda: f32,
}

/// A rigid body held by the hand: its point `local` steered towards
/// `target` with a force capped at `max_force` (N), so the body lags a
/// fast cursor and turns about the point held (see `motion::steady`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidHold {
    /// The body (rigid index).
    pub rigid: usize,
    /// The point held, in its frame (m).
    pub local: Vec3,
    /// Where the hand is (m) at the end of the frame.
    pub target: Vec3,
    /// Where it was at the frame's start: it moves from there to `target`
    /// through the substeps, as a particle's hand does.
    pub from: Vec3,
    /// The fraction of the frame the current substep ends at.
    pub(crate) fraction: f32,
    /// The hand's velocity this frame (m/s).
    pub(crate) velocity: Vec3,
    /// The hand's strength (N; ∞: it moves the point with the cursor).
    pub max_force: f32,
    /// The force it exerted in the last substep (N).
    pub force: f32,
}

/// Every rigid body, joint and attachment of a world, and the contacts
/// of the current substep.
#[derive(Clone, Debug)]
pub struct Rigids {
    /// The bodies, in scene order.
    pub bodies: Vec<Rigid>,
    /// The joints.
    pub joints: Vec<Joint>,
    /// The attachments.
    pub attachments: Vec<Attachment>,
    /// This substep's contacts (reused; see [`contact`]).
    pub contacts: Vec<contact::Contact>,
    /// The body the hand holds, if any.
    pub hand: Option<RigidHold>,
    /// (particle, rigid) of each attachment, which do not collide (reused).
    pub(crate) held: Vec<(usize, usize)>,
    /// True: the prediction has the gyroscopic term ω × Iω (switch it
    /// off to see what it does: a box spun about its middle axis stops
    /// flipping).
    pub gyroscopic: bool,
    /// Energy taken out by air drag and by friction since the start (J).
    pub(crate) lost: [f64; 2],
    /// 2·|g|·h of the substep: slower impacts do not rebound (Müller et
    /// al. 2020 §3.6), so a body at rest does not jitter on its contacts.
    pub(crate) rest_speed: f32,
}

impl Default for Rigids {
    fn default() -> Self {
        Self {
            bodies: Vec::new(),
            joints: Vec::new(),
            attachments: Vec::new(),
            contacts: Vec::new(),
            held: Vec::new(),
            hand: None,
            gyroscopic: true,
            lost: [0.0; 2],
            rest_speed: 0.0,
        }
    }
}

impl Rigids {
    /// True when there is nothing rigid.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The rigid body that is scene body `body`.
    pub fn of_body(&self, body: usize) -> Option<usize> {
        self.bodies.iter().position(|r| r.body == body)
    }

    /// True while body `r` is in free flight: not fixed, not held, on no
    /// joint or attachment, touching nothing last substep — so nothing but
    /// gravity acts and its angular momentum about its centre is kept.
    pub fn in_free_flight(&self, r: usize) -> bool {
        let touched = |c: &Contact| c.lambda_n != 0.0 && (c.a == r || c.b == End::Rigid(r));
        !self.bodies[r].fixed
            && self.hand.is_none_or(|h| h.rigid != r)
            && !(self.joints.iter()).any(|j| j.a == r || j.b == Some(r))
            && !self.attachments.iter().any(|a| a.rigid == r)
            && !self.contacts.iter().any(touched)
    }

    /// Kinetic energy of every body (J).
    pub fn kinetic_energy(&self) -> f64 {
        self.bodies.iter().map(Rigid::kinetic_energy).sum()
    }

    /// Gravitational potential energy −Σ m·g·x of the free bodies (J).
    pub fn potential_energy(&self, g: Vec3) -> f64 {
        (self.bodies.iter().filter(|r| !r.fixed))
            .map(|r| -(r.mass as f64) * g.dot(r.x) as f64)
            .sum()
    }

    /// Elastic energy ½·α·F² of the compliant joints and attachments
    /// (F = |λ|/h², `h2` = h²) (J).
    pub fn elastic_energy(&self, h2: f64) -> f64 {
        let stored = |alpha: f32, lambda: f32| 0.5 * alpha as f64 * (lambda as f64 / h2).powi(2);
        let joints: f64 = (self.joints.iter())
            .map(|j| stored(j.compliance, j.lambda_position) + stored(j.compliance, j.lambda_angle))
            .sum();
        let held: f64 = (self.attachments.iter())
            .map(|a| stored(a.compliance, a.lambda))
            .sum();
        joints + held
    }

    /// Projections a substep makes: one per joint part, attachment and
    /// contact.
    pub fn constraint_count(&self) -> usize {
        let joints: usize = self.joints.iter().map(|j| j.kind.parts()).sum();
        joints + self.attachments.len() + self.contacts.len()
    }

    /// Room for the contacts a substep can find: 16 per body and
    /// collider or pair of bodies, one per particle; so a step allocates
    /// nothing unless more particles than that touch rigid bodies at once.
    pub(crate) fn reserve_contacts(&mut self, colliders: usize, particles: usize) {
        let n = self.bodies.len();
        let room = 16 * (n * colliders + n * n.saturating_sub(1) / 2) + particles;
        if self.contacts.capacity() < room {
            self.contacts.reserve(room - self.contacts.len());
        }
        if self.held.capacity() < self.attachments.len() {
            self.held.reserve(self.attachments.len());
        }
    }

    /// The energy taken out by air drag and friction (J).
    pub fn losses(&self) -> [f64; 2] {
        self.lost
    }
}
