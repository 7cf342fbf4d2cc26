//! Pure physics: particles, distance constraints, colliders and the step.
//!
//! # The XPBD step (DESIGN.md §2)
//! A frame of length `dt` is `substeps` substeps of h = dt / substeps:
//! 1. predict: for every free particle (inverse mass w > 0), air drag
//!    `v ← wind + (v − wind)·exp(−air_drag·h)`, gravity `v ← v + g·h`,
//!    drag and lift on the cloth triangles around it (see [`Aero`]),
//!    then `x_prev ← x; x ← x + v·h`;
//! 2. λ ← 0 for every constraint;
//! 3. `iterations` Gauss–Seidel passes, colour by colour; for a distance
//!    constraint C = |x_a − x_b| − L, n = (x_a − x_b)/|x_a − x_b|, α̃ = α/h²:
//!    `Δλ = (−C − α̃λ) / (w_a + w_b + α̃)`,
//!    `λ += Δλ; x_a += w_a Δλ n; x_b −= w_b Δλ n`; the four-particle
//!    constraints — dihedral bending, tetrahedron volume — share the
//!    colours and run in the same phase as their colour's links (see
//!    [`Quads`]); then each closed surface's global volume (see
//!    [`Enclosed`]); after each pass, tethered particles
//!    farther from their pin than their rest distance along the body move
//!    back onto that sphere (see [`Tethers`]);
//! 4. collisions: self-collision within a body, then ground, spheres and
//!    boxes with friction;
//! 5. `v ← (x − x_prev)/h` for every free particle;
//! 6. constraint damping β (kg/s), a dashpot along every constraint in the
//!    same colour order: `p = −n·(v_a − v_b)·βh / (1 + β(w_a + w_b)h)`,
//!    `v_a += w_a p n; v_b −= w_b p n` — it only takes energy out and never
//!    moves a position.
//!
//! The solver keeps x as x_prev + Δx and projects constraints on the
//! displacement Δx, so f32 rounding of the coordinates never swallows the
//! tiny per-substep corrections. Constraints are grouped in colours that
//! share no particle, so each colour is solved in parallel (see `step`),
//! with bit-identical results for any number of threads.
//!
//! α (m/N) is the inverse stiffness, so the rope's stretch under a load is
//! α·F whatever h is: that is what makes XPBD's stiffness independent of
//! the substep count. λ/h² is the force the constraint exerted (N).
//! Classic PBD uses the same loop with α̃ = 0 and −C scaled by k.

#![warn(missing_docs)]
#![deny(unsafe_code)]

mod aero;
mod anchors;
mod bodies;
mod collision;
mod contacts;
mod dihedral;
mod distance;
mod exec;
mod grid;
mod hand;
#[cfg(test)]
mod lcg;
pub mod limits;
mod measure;
pub mod neo_hookean;
mod particles;
mod point_triangle;
mod quads;
mod real;
pub mod rigid;
mod rod_contacts;
mod rod_damping;
mod rod_direct;
mod rod_material;
pub mod rods;
mod sheets;
mod split;
mod tether;
mod tetra;
mod volume;

pub use aero::Aero;
pub use collision::{Collider, clearance};
pub use dihedral::angle_of as dihedral_angle;
pub use distance::{DistanceConstraints, LinkKind, LinkView, MAX_COLOURS, Tag};
use hand::Grab;
pub use hand::Hand;
pub use measure::EnergyBooks;
use particles::hold;
pub use particles::{Losses, Particles, losses};
pub use quads::{QuadKind, Quads};
pub use rod_material::{GREENHILL_CLAMPED, RodJoint};
pub use split::Faces;
pub use tether::Tethers;
pub use tetra::volume_of as tetrahedron_volume;
pub use volume::{Enclosed, INFLATION_RATE, enclosed_volume, rest_scale};

use glam::Vec3;

/// The number of threads the machine offers (at least 1).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How many threads solve a world's frames; results are bit-identical
/// for any choice, so it changes only speed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThreadChoice {
    /// As many as the world's size makes worth it, each frame run on the
    /// team size (the pool, the cores, or one) measured fastest lately,
    /// or, where its phases are pieces (no thread waits for a late one),
    /// on the pool up to the cores or on one, by the share of a core the
    /// OS gives each thread (Linux; elsewhere up to the cores) — the
    /// default; see [`World::use_suitable_threads`].
    #[default]
    Auto,
    /// Exactly this many on every frame (1 = sequential; always 1 in the
    /// browser): the user's choice where the measurements mislead, such
    /// as beside busy programs.
    Fixed(usize),
}

impl std::fmt::Display for ThreadChoice {
    /// `auto` or the count, as the panel and `--dump-state` write it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ThreadChoice::Auto => f.write_str("auto"),
            ThreadChoice::Fixed(n) => write!(f, "{n}"),
        }
    }
}

/// Constraints per solver thread below which another thread costs more in
/// barriers than it saves (measured: a 32×32 cloth, 5,826 constraints, is
/// as fast on 2 threads as on 1; 64×64, 23,938, is 1.6× faster).
const CONSTRAINTS_PER_THREAD: usize = 8192;

/// What one particle in contacts weighs against a constraint when
/// threads are chosen: searching its neighbourhood each substep costs
/// far more than a projection (measured: two 32×32 cloths, one fallen on
/// the other with collisions between bodies — 11,652 constraints, 2,048
/// particles in both kinds of contacts — run 1.7–2× faster on 2 threads;
/// `hammock` is as fast on either and `soft_wrecking_ball` a third slower on 2).
const CONTACT_WEIGHT: usize = 8;

/// What one rod segment's direct solve weighs against a link projection
/// when threads are chosen (measured: 0.56 µs a segment a substep, 200
/// strands of 30 segments on one thread, against about 3 ns a link).
const ROD_SEGMENT_WEIGHT: usize = 170;

/// Which projection the solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Extended PBD: compliance in m/N, stiffness independent of substeps.
    #[default]
    Xpbd,
    /// Classic PBD: stiffness k ∈ (0, 1] per projection, depends on substeps.
    Pbd,
}

/// Step parameters; every field may be changed between frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Projection method (default XPBD).
    pub method: Method,
    /// Frame length (s) (default 1/60).
    pub dt: f32,
    /// Substeps per frame (default 20); h = dt / substeps.
    pub substeps: u32,
    /// Gauss–Seidel passes per substep (default 1).
    pub iterations: u32,
    /// Gravity (m/s²) (default (0, −9.81, 0)).
    pub gravity: Vec3,
    /// Constraint damping β (kg/s): a dashpot along every constraint,
    /// in both methods (DESIGN §2 step 6) (default 0).
    pub damping: f32,
    /// Air drag rate (1/s) toward `wind` (default 0).
    pub air_drag: f32,
    /// Wind velocity (m/s) (default 0).
    pub wind: Vec3,
    /// Air density ρ (kg/m³) for cloth triangles' drag and lift (default 1.2).
    pub air_density: f32,
    /// PBD stiffness k ∈ (0, 1] (default 1).
    pub pbd_stiffness: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            method: Method::Xpbd,
            dt: 1.0 / 60.0,
            substeps: 20,
            iterations: 1,
            gravity: Vec3::new(0.0, -9.81, 0.0),
            damping: 0.0,
            air_drag: 0.0,
            wind: Vec3::ZERO,
            air_density: 1.2,
            pbd_stiffness: 1.0,
        }
    }
}

impl Settings {
    /// True when every field is within its range in [`limits`]
    /// ([`World::step`] refuses the others).
    pub fn is_valid(&self) -> bool {
        self.problem().is_none()
    }

    /// The first field outside its range in [`limits`], named with its
    /// value and the range; None when every field is within.
    pub fn problem(&self) -> Option<String> {
        use limits::*;
        let bounded = |name: &str, v: f32, b: Bounds| {
            (!b.contains(v)).then(|| format!("{name} {v} is outside {}", b.describe()))
        };
        let counted = |name: &str, v: u32, r: std::ops::RangeInclusive<u32>| {
            (!r.contains(&v))
                .then(|| format!("{name} {v} is outside {} ..= {}", r.start(), r.end()))
        };
        // Names are formatted only for the field that fails: the step
        // asks every frame and allocates nothing.
        let vector = |name: &str, v: Vec3, b: Bounds| {
            (v.to_array().iter().zip(["x", "y", "z"]))
                .find(|(c, _)| !b.contains(**c))
                .and_then(|(&c, axis)| bounded(&format!("{name}.{axis}"), c, b))
        };
        bounded("dt", self.dt, DT)
            .or_else(|| counted("substeps", self.substeps, SUBSTEPS))
            .or_else(|| counted("iterations", self.iterations, ITERATIONS))
            .or_else(|| {
                let passes = self.substeps * self.iterations;
                (passes > PASSES_PER_FRAME)
                    .then(|| format!("substeps × iterations {passes} is over {PASSES_PER_FRAME}"))
            })
            .or_else(|| vector("gravity", self.gravity, GRAVITY))
            .or_else(|| vector("wind", self.wind, WIND))
            .or_else(|| bounded("damping", self.damping, DAMPING))
            .or_else(|| bounded("air_drag", self.air_drag, AIR_DRAG))
            .or_else(|| bounded("air_density", self.air_density, AIR_DENSITY))
            .or_else(|| bounded("pbd_stiffness", self.pbd_stiffness, PBD_STIFFNESS))
    }
}

impl Method {
    /// The method named `xpbd` or `pbd` (any case), as on the command line.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "xpbd" => Some(Method::Xpbd),
            "pbd" => Some(Method::Pbd),
            _ => None,
        }
    }
}

/// How a body's particles are connected, for drawing and numbering.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// A chain of particles `first .. first + count`.
    Rope,
    /// A grid, particle = first + row·columns + col.
    Cloth {
        /// Particles per row.
        columns: usize,
        /// Particles per column.
        rows: usize,
    },
    /// Free-form particles and links.
    Mesh,
    /// A rigid body: no particles; its pose is in [`World::rigids`].
    Rigid,
    /// A closed surface (a balloon, a soft solid's skin): outward-wound
    /// triangles, indices relative to the body's first particle.
    Closed {
        /// The surface triangles.
        triangles: Vec<[u32; 3]>,
    },
}

/// A body: a contiguous range of particles with a shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    /// Index of the body's first particle.
    pub first: usize,
    /// Number of particles.
    pub count: usize,
    /// Topology.
    pub shape: Shape,
    /// Slots after the body's particles kept for the copies tears make
    /// (see [`Faces`]); they belong to no body until a split takes one.
    pub spare: usize,
    /// A tearable cloth's triangles, which splits re-attach to copies.
    pub faces: Option<Faces>,
}

impl Body {
    /// The world particle indices of this body.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.count
    }

    /// The body's triangles as world particle indices: a cloth's two per
    /// grid cell, a closed surface's own; none for a rope or a mesh.
    /// A tearable cloth's are its [`Faces`] that are still whole.
    pub fn triangles(&self) -> Vec<[u32; 3]> {
        self.triangle_iter().collect()
    }

    /// [`Body::triangles`] one by one, without a list (for every frame).
    pub fn triangle_iter(&self) -> impl Iterator<Item = [u32; 3]> + '_ {
        let faces = self.faces.as_ref().map(|f| {
            (f.triangles.iter().zip(&f.dead))
                .filter(|(_, dead)| !**dead)
                .map(|(t, _)| *t)
        });
        let (grid, closed) = match (&self.faces, &self.shape) {
            (None, &Shape::Cloth { columns, rows }) => (
                Some(split::grid_triangle_iter(self.first, columns, rows)),
                None,
            ),
            (None, Shape::Closed { triangles }) => {
                let first = self.first as u32;
                (
                    None,
                    Some(triangles.iter().map(move |t| t.map(|i| i + first))),
                )
            }
            _ => (None, None),
        };
        faces
            .into_iter()
            .flatten()
            .chain(grid.into_iter().flatten())
            .chain(closed.into_iter().flatten())
    }
}

/// A particle moved kinematically along `path` from `origin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Driver {
    /// World particle index.
    pub particle: usize,
    /// Rest position x₀ (m).
    pub origin: Vec3,
    /// How it moves.
    pub path: DriverPath,
}

/// How a driven particle moves from its origin x₀.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DriverPath {
    /// x(t) = x₀ + axis·amplitude·sin(2π·frequency·t).
    Sine {
        /// Unit direction of motion.
        axis: Vec3,
        /// Amplitude (m).
        amplitude: f32,
        /// Frequency (Hz).
        frequency: f32,
    },
    /// x(t) = x₀ + offset·min(t/seconds, 1): at constant speed, then held.
    Slide {
        /// Where it ends up, from x₀ (m).
        offset: Vec3,
        /// How long it takes (s; 0: at once).
        seconds: f32,
    },
}

impl Driver {
    /// Position at time `t` (s).
    pub fn position(&self, t: f64) -> Vec3 {
        match self.path {
            DriverPath::Sine {
                axis,
                amplitude,
                frequency,
            } => {
                let phase = (std::f64::consts::TAU * frequency as f64 * t).sin() as f32;
                self.origin + axis * (amplitude * phase)
            }
            DriverPath::Slide { offset, seconds } => {
                let done = if seconds > 0.0 {
                    (t / seconds as f64).min(1.0) as f32
                } else {
                    1.0
                };
                self.origin + offset * done
            }
        }
    }
}

/// A complete simulation.
#[derive(Clone, Debug, Default)]
pub struct World {
    /// Step parameters, editable between frames.
    pub settings: Settings,
    /// Particle state.
    pub particles: Particles,
    /// Distance constraints (links, shear, bending).
    pub constraints: DistanceConstraints,
    /// Four-particle constraints: dihedral bending, tetrahedron volume.
    pub quads: Quads,
    /// Global volume constraints of closed surfaces (balloons), made by
    /// [`World::add_gas`] (read with [`World::volumes`]).
    pub(crate) volumes: Vec<Enclosed>,
    /// Static colliders.
    pub colliders: Vec<Collider>,
    /// Cosserat rods: their orientations and constraints (see [`rods`]).
    pub(crate) rods: rods::Rods,
    /// Rigid bodies, their joints and attachments (see [`rigid`]).
    pub(crate) rigids: rigid::Rigids,
    /// Kinematic drivers (their particles are held: w = 0).
    drivers: Vec<Driver>,
    /// Bodies in scene order, in particle order, each followed by its
    /// spare slots.
    bodies: Vec<Body>,
    time: f64,
    last_h: f32,
    grab: Option<Grab>,
    hand: Hand,
    /// Solver threads beyond the caller; none = sequential.
    pool: Threads,
    /// How `pool` is chosen by [`World::use_suitable_threads`].
    thread_choice: ThreadChoice,
    /// True: nothing goes through SIMD lanes (see [`World::set_simd`]).
    scalar: bool,
    /// Reused each step so stepping allocates nothing.
    raw_batches: Vec<exec::RawBatch>,
    /// The quad colours' raw views, reused likewise.
    raw_quads: Vec<exec::RawQuads>,
    /// Particle–particle contacts (self-collision, between bodies) and their spatial hash.
    contacts: contacts::ParticleContacts,
    /// Particle–triangle contacts between bodies (see `sheets`).
    sheets: sheets::Sheets,
    /// Long-range attachments to the nearest pin (see `tether`).
    tethers: Tethers,
    /// Drag and lift on cloth triangles (see `aero`).
    aero: Aero,
    /// Every tear so far, in order (see [`World::tears`]).
    tears: Vec<(u32, u32)>,
    /// The links over their tear limit this frame (reused).
    overstressed: Vec<(u32, u32)>,
    /// The held particle's rigid links, (other end, rest length), looked
    /// up each step for the hand (reused; see `solver::hand`).
    held_links: Vec<(u32, f32)>,
    /// The capped hand's reach (see `solver::hand`).
    reach: hand::Reach,
    /// Bodies split since the tables that follow them were rebuilt.
    split_bodies: Vec<usize>,
    /// Lists a split fills, reused.
    scratch: split::Scratch,
}

/// A world's solver threads. A clone of the world gets threads of its
/// own, as many: sharing them would make two worlds stepped at once wait
/// for each other and mix their timings in one team-size chooser.
#[derive(Debug, Default)]
struct Threads(Option<exec::Pool>);

impl Clone for Threads {
    fn clone(&self) -> Self {
        Self(
            self.0
                .as_ref()
                .map(|p| exec::Pool::new(p.size(), p.is_fixed())),
        )
    }
}

impl World {
    /// An empty world with the given settings.
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            ..Self::default()
        }
    }

    /// Simulated time (s).
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Sets the simulated time (s), e.g. to resume a saved world (drivers
    /// follow the time).
    pub fn set_time(&mut self, time: f64) {
        debug_assert!(time.is_finite());
        self.time = time;
    }

    /// Puts particle `i` at `pos` (m) with velocity `vel` (m/s; a held
    /// particle keeps zero), e.g. to resume a saved world.
    pub fn set_particle(&mut self, i: usize, pos: Vec3, vel: Vec3) {
        debug_assert!(pos.is_finite() && vel.is_finite());
        self.particles.pos[i] = pos;
        self.particles.vel[i] = if self.particles.inv_mass[i] > 0.0 {
            vel
        } else {
            Vec3::ZERO
        };
    }

    /// The number of the bodies' particles (spare slots left out).
    pub fn live_particles(&self) -> usize {
        self.bodies.iter().map(|b| b.count).sum()
    }

    /// The bodies, in scene order.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// Moves body `b`'s particles by `by` (m), as placed: before a step,
    /// so nothing of it becomes speed.
    pub fn move_body(&mut self, b: usize, by: Vec3) {
        for p in &mut self.particles.pos[self.bodies[b].range()] {
            *p += by;
        }
    }

    /// Adds a body made of the particles `body.range()`, which must follow
    /// the last body's and exist already.
    ///
    /// # Panics
    /// When the body does not start where the last one's spare slots end,
    /// runs past the world's particles, or a closed surface's triangle
    /// names a particle outside the body.
    pub fn add_body(&mut self, body: Body) {
        let next = self
            .bodies
            .last()
            .map_or(0, |b| b.first + b.count + b.spare);
        assert_eq!(
            body.first, next,
            "World::add_body: bodies are contiguous, in order"
        );
        let end = body.first + body.count + body.spare;
        let n = self.particles.len();
        assert!(
            end <= n,
            "World::add_body: the body ends at particle {end}, past the world's {n}"
        );
        if let Shape::Closed { triangles } = &body.shape {
            let outside = triangles
                .iter()
                .flatten()
                .find(|&&i| i as usize >= body.count);
            assert!(
                outside.is_none(),
                "World::add_body: a triangle names particle {outside:?} of a body of {}",
                body.count
            );
        }
        self.bodies.push(body);
    }

    /// The closed surfaces' gases, in the order [`World::add_gas`] made them.
    pub fn volumes(&self) -> &[Enclosed] {
        &self.volumes
    }

    /// The drivers, in the order they were added.
    pub fn drivers(&self) -> &[Driver] {
        &self.drivers
    }

    /// Adds a driver; its particle becomes kinematic.
    pub fn add_driver(&mut self, driver: Driver) {
        self.set_hold(driver.particle, hold::DRIVEN, true);
        self.drivers.push(driver);
    }

    /// Adds `kg` to particle `i`'s mass (a weight on the end of a rope).
    pub fn add_mass(&mut self, i: usize, kg: f32) {
        self.particles.add_mass(i, kg);
        self.constraints.invalidate();
    }

    /// Sets particle `i`'s mass (kg): a rope's weight changed on the
    /// panel. A mass that is not positive and finite is ignored.
    pub fn set_mass(&mut self, i: usize, kg: f32) {
        if kg > 0.0 && kg.is_finite() {
            self.particles.set_mass(i, kg);
            self.constraints.invalidate();
        }
    }

    /// Pins (w = 0) or unpins particle `i`; tethers follow, and a rod's
    /// clamp at `i` is released with its pin.
    pub fn set_pinned(&mut self, i: usize, pinned: bool) {
        self.set_hold(i, hold::PINNED, pinned);
        if !pinned {
            // A rod's clamped end let go of turns freely too.
            self.rods.unclamp_at(i);
        }
        self.tethers.invalidate();
        if pinned {
            self.particles.vel[i] = Vec3::ZERO;
        }
        self.find_reach();
    }

    /// Starts holding particle `i` with the hand: kinematically, or pulled
    /// with a capped force (see [`Hand`]).
    pub fn grab(&mut self, i: usize) {
        self.release(None);
        if self.hand.is_kinematic() {
            self.set_hold(i, hold::GRABBED, true);
        }
        let p = self.particles.pos[i];
        // Room for the held particle's rigid links, looked up every step
        // (tears may add some: a split duplicates links).
        (self.constraints).rigid_links_of(i, &mut self.held_links);
        self.held_links.reserve(16);
        self.grab = Some(Grab {
            particle: i,
            target: p,
            from: p,
            force: 0.0,
        });
        self.find_reach();
    }

    /// The capped hand's reach from the particle it holds (see
    /// `solver::hand`), found again when it takes hold and when a pin
    /// changes; none for a kinematic hand.
    fn find_reach(&mut self) {
        let p = &self.particles;
        self.reach = match self.grab {
            Some(g) if !self.hand.is_kinematic() => {
                let fixed = |k: usize| p.inv_mass[k] == 0.0;
                hand::Reach::of(g.particle, &p.pos, fixed, &self.constraints)
            }
            _ => hand::Reach::default(),
        };
    }

    /// How the hand holds; a change applies from the next grab on.
    pub fn hand(&self) -> Hand {
        self.hand
    }

    /// Sets how the hand holds (`max_force` > 0, ∞ = kinematic).
    pub fn set_hand(&mut self, hand: Hand) {
        debug_assert!(hand.max_force > 0.0);
        self.hand = hand;
    }

    /// Puts the held particle where the hand is, at rest, without
    /// stepping: posing a paused world.
    pub fn pose_held(&mut self) {
        if let Some(g) = self.grab.as_mut() {
            g.from = g.target;
            self.particles.pos[g.particle] = g.target;
            self.particles.vel[g.particle] = Vec3::ZERO;
        }
    }

    /// Where the hand is taking the held particle by the end of the next
    /// frame (m), in either mode; None when nothing is held.
    pub fn hand_goal(&self) -> Option<Vec3> {
        let rigid = self.rigids.hand.map(|h| h.target);
        self.grab.map(|g| g.target).or(rigid)
    }

    /// Where the hand is (m), while it pulls a particle or a rigid body
    /// with a capped force.
    pub fn hand_target(&self) -> Option<Vec3> {
        self.hand_force().and(self.hand_goal())
    }

    /// The point the hand holds now (m): the held particle, or the held
    /// point of a rigid body.
    pub fn hand_point(&self) -> Option<Vec3> {
        let rigid = (self.rigids.hand).map(|h| self.rigids.bodies[h.rigid].point(h.local));
        self.grab.map(|g| self.particles.pos[g.particle]).or(rigid)
    }

    /// The force the hand exerted on the held particle in the last substep
    /// (N); None when nothing is held or it is held kinematically.
    pub fn hand_force(&self) -> Option<f32> {
        let rigid = (self.rigids.hand)
            .filter(|h| h.max_force.is_finite())
            .map(|h| h.force);
        self.grab
            .filter(|g| !self.particles.is_grabbed(g.particle))
            .map(|g| g.force)
            .or(rigid)
    }

    /// Where the held particle should be at the end of the next frame (m).
    pub fn drag_to(&mut self, target: Vec3) {
        if let Some(g) = self.grab.as_mut().filter(|_| target.is_finite()) {
            g.target = target;
        }
        if let Some(h) = self.rigids.hand.as_mut().filter(|_| target.is_finite()) {
            h.target = target;
        }
    }

    /// The particle currently held, if any.
    pub fn grabbed(&self) -> Option<usize> {
        self.grab.map(|g| g.particle)
    }

    /// Lets go of the held particle. A kinematically held one gets
    /// `velocity` (m/s; None = at rest); one pulled by a capped hand keeps
    /// the velocity it has — the hand's own motion, up to its strength.
    pub fn release(&mut self, velocity: Option<Vec3>) {
        // A held rigid body keeps its own velocity.
        self.rigids.hand = None;
        self.reach = hand::Reach::default();
        if let Some(g) = self.grab.take()
            && self.particles.is_grabbed(g.particle)
        {
            self.set_hold(g.particle, hold::GRABBED, false);
            self.particles.vel[g.particle] =
                velocity.filter(|v| v.is_finite()).unwrap_or(Vec3::ZERO);
        }
    }

    /// Changes why particle `i` is held; its inverse mass, and so every
    /// cached constraint denominator, may change.
    fn set_hold(&mut self, i: usize, reason: u8, on: bool) {
        self.particles.set_hold(i, reason, on);
        self.constraints.invalidate();
    }

    /// Sets the number of solver threads (1 = sequential). Results do not
    /// depend on it: they are bit-identical for any count.
    /// Each frame then runs on these, on as many as the machine has cores,
    /// or on one, whichever was fastest lately; a frame with nothing but
    /// particles, colours and the hand on these up to the cores, or on
    /// one where the share of a core the OS gives each thread says one
    /// is faster (on Linux, which counts it).
    pub fn set_threads(&mut self, threads: usize) {
        self.pool = Threads((threads > 1).then(|| exec::Pool::new(threads, false)));
    }

    /// Sets how the world's threads are chosen, and chooses them now
    /// ([`World::use_suitable_threads`] keeps to it after).
    pub fn choose_threads(&mut self, choice: ThreadChoice) {
        self.thread_choice = choice;
        self.use_suitable_threads();
    }

    /// How the world's threads are chosen.
    pub fn thread_choice(&self) -> ThreadChoice {
        self.thread_choice
    }

    /// How many threads ran the last frame (the pool's size before the
    /// first).
    pub fn team_size(&self) -> usize {
        (self.pool.0.as_ref()).map_or(1, |p| match p.last_team() {
            0 => p.size(),
            n => n,
        })
    }

    /// The threads of [`World::thread_choice`]: exactly those of a
    /// [`ThreadChoice::Fixed`]; for [`ThreadChoice::Auto`] as many as the
    /// machine has, but no more than the world's size, its contacts
    /// counted, makes worth it (results are the same for any count).
    pub fn use_suitable_threads(&mut self) {
        if let ThreadChoice::Fixed(n) = self.thread_choice {
            // The browser's build has no threads to start.
            let n = if cfg!(target_family = "wasm") {
                1
            } else {
                n.max(1)
            };
            self.pool = Threads((n > 1).then(|| exec::Pool::new(n, true)));
            return;
        }
        let contacts = self.contacts.len() + self.sheets.probe.len();
        let rod_segments = self.rods.constraint_count().div_ceil(2);
        let work =
            self.constraints.len() + CONTACT_WEIGHT * contacts + ROD_SEGMENT_WEIGHT * rod_segments;
        let mut useful = (work / CONSTRAINTS_PER_THREAD).max(1);
        if self.constraints.is_empty() && !self.rods.is_empty() {
            // Each rod is one thread's: more threads than rods only wait.
            useful = useful.min(self.rods.len());
        }
        self.set_threads(useful.min(available_threads()));
    }

    /// Switches this world's SIMD paths (the links', the hinges' and the
    /// sheets' triangle shapes) on (the default) or off. Every path does
    /// the same IEEE operations, so this changes only speed: a check that
    /// the lanes are a speed-up and nothing else.
    pub fn set_simd(&mut self, on: bool) {
        self.scalar = !on;
    }

    /// Switches the contact candidates kept across substeps (the sheets'
    /// triangles and the particles' neighbours) on (the default) or off
    /// (every particle searches the hash every substep).
    /// The contacts are the same to the bit, so this changes only speed: a
    /// check that the broad phase is a speed-up and nothing else.
    pub fn set_contact_cache(&mut self, on: bool) {
        self.sheets.cached.set_enabled(on);
        self.contacts.set_lists(on);
    }

    /// The number of solver threads.
    pub fn threads(&self) -> usize {
        self.pool.0.as_ref().map_or(1, |p| p.size())
    }

    /// Advances the world by one frame of `settings.dt` (DESIGN §2).
    ///
    /// # Panics
    /// When a setting is outside its range ([`Settings::problem`] names
    /// it): a world is never stepped on settings it was not built for.
    pub fn step(&mut self) {
        if let Some(problem) = self.settings.problem() {
            panic!("World::step: {problem}");
        }
        // Splits made outside a step (`tear_link`) since the last one.
        self.refresh_split();
        let particles = &self.particles;
        self.tethers.refresh(
            particles.len(),
            |i| particles.is_pinned(i),
            &self.constraints,
        );
        exec::step_frame(self);
        if let Some(g) = self.grab.as_mut() {
            g.from = g.target;
        }
        if let Some(h) = self.rigids.hand.as_mut() {
            h.from = h.target;
        }
        let h = self.settings.dt / self.settings.substeps as f32;
        let mut torn = std::mem::take(&mut self.overstressed);
        let substeps = self.settings.substeps;
        (self.constraints).overstressed(&self.particles.pos, h, substeps, &mut torn);
        for &(a, b) in &torn {
            // A split earlier in this list may have moved the link; it
            // is judged again next frame.
            self.tear_link(a as usize, b as usize);
        }
        torn.clear();
        self.overstressed = torn;
        self.refresh_split();
        self.time += self.settings.dt as f64;
        self.last_h = self.settings.dt / self.settings.substeps as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain() -> World {
        let mut w = World::new(Settings::default());
        for i in 0..5 {
            w.particles
                .push(Vec3::new(i as f32 * 0.1, 1.0, 0.0), 0.1, 0.01);
        }
        for i in 0..4 {
            let tag = Tag {
                body: 0,
                kind: LinkKind::Stretch,
            };
            w.constraints.add(i, i + 1, 0.1, 1e-4, f32::INFINITY, tag);
        }
        w.set_pinned(0, true);
        w
    }

    #[test]
    fn every_edit_that_changes_a_denominator_refreshes_the_cached_ones() {
        let mut w = chain();
        w.step();
        let h = w.settings.dt / w.settings.substeps as f32;
        let key = |w: &mut World| w.constraints.needs_prepare(h, 0.0, true);
        assert!(!key(&mut w), "nothing changed since the step");
        let edits: [fn(&mut World); 5] = [
            |w| w.set_pinned(2, true),
            |w| w.grab(3),
            |w| w.release(None),
            |w| w.constraints.set_compliance(0, LinkKind::Stretch, 1e-3),
            |w| {
                let tag = Tag {
                    body: 0,
                    kind: LinkKind::Bend,
                };
                w.constraints.add(0, 2, 0.2, 0.0, f32::INFINITY, tag)
            },
        ];
        for edit in edits {
            edit(&mut w);
            assert!(key(&mut w));
            assert!(!key(&mut w));
        }
        assert!(
            w.constraints.needs_prepare(h * 0.5, 0.0, true),
            "a new substep length"
        );
    }

    #[test]
    #[should_panic(expected = "World::step: substeps 0 is outside 1 ..= 1000")]
    fn stepping_on_settings_outside_their_ranges_is_refused_with_the_field_named() {
        let mut w = chain();
        w.settings.substeps = 0;
        w.step();
    }

    #[test]
    fn every_setting_outside_its_range_is_named() {
        type Edit = fn(&mut Settings);
        let cases: [(Edit, &str); 5] = [
            (|s| s.dt = 2.0, "dt 2 is outside [1e-6, 1] s"),
            (|s| s.iterations = 0, "iterations 0"),
            (|s| s.substeps = 1000, "substeps × iterations"),
            (|s| s.gravity.y = f32::NAN, "gravity.y NaN"),
            (|s| s.pbd_stiffness = 0.0, "pbd_stiffness 0"),
        ];
        for (edit, named) in cases {
            let mut s = Settings::default();
            assert_eq!(s.problem(), None);
            edit(&mut s);
            if named.starts_with("substeps ×") {
                s.iterations = 21;
            }
            let problem = s.problem().expect(named);
            assert!(problem.starts_with(named), "{problem} vs {named}");
        }
    }

    #[test]
    fn a_cloned_world_steps_on_threads_of_its_own_and_to_the_same_bits() {
        let mut w = chain();
        w.set_threads(2);
        let mut twin = w.clone();
        assert_eq!(twin.threads(), 2);
        let (a, b) = (w.pool.0.as_ref().unwrap(), twin.pool.0.as_ref().unwrap());
        assert!(!a.shares_threads_with(b), "a clone shares the pool");
        // Both stepped at once, each on its own team.
        std::thread::scope(|s| {
            s.spawn(|| (0..50).for_each(|_| w.step()));
            s.spawn(|| (0..50).for_each(|_| twin.step()));
        });
        assert_eq!(w.particles.pos, twin.particles.pos);
    }
}
