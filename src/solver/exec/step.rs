//! One frame of the solver, written once for any number of threads.
//!
//! Every thread of a [`Team`] runs [`Frame::run`]: particles are split into
//! contiguous shares, each colour's constraints too, and threads meet at a
//! barrier after prediction and after each colour. A particle is always
//! handled by the same thread in the per-particle phases, and constraints of
//! one colour share no particle, so no two threads ever write the same
//! value — and every value is computed by the same operations in the same
//! order whatever the thread count: results are bit-identical for 1, 2 or
//! 16 threads. With a team of one, the barriers do nothing.

use glam::{Vec3, Vec4};

use super::kernel::{RawBatch, RawState};
use super::pool::Team;
use crate::solver::aero::corner_dv;
use crate::solver::collision::Collider;
use crate::solver::contacts::ParticleContacts;
use crate::solver::hand::pull;
use crate::solver::particles::{Losses, hold, losses};
use crate::solver::quads::{QuadKind, damp, project};
use crate::solver::sheets::{NONE, Sheets};
use crate::solver::volume::Enclosed;
use crate::solver::{Driver, Settings};

/// Raw pointers to every particle array (see [`super::Particles`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawParticles {
    pub pos: *mut Vec3,
    pub prev: *mut Vec4,
    pub delta: *mut Vec4,
    pub vel: *mut Vec3,
    pub inv_mass: *const f32,
    pub radius: *const f32,
    pub hold: *const u8,
    /// Per particle: energy taken out by drag, damping and friction (J).
    pub lost: *mut Losses,
    pub len: usize,
}

// SAFETY: used only inside a step, while the world is mutably borrowed,
// by threads that write disjoint particles between barriers.
unsafe impl Send for RawParticles {}
// SAFETY: as for Send.
unsafe impl Sync for RawParticles {}

/// Raw access to the particle-contact data for one step; None when no
/// particle takes part in contacts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawContacts {
    all: *mut ParticleContacts,
    particle: *const u32,
    entry_of: *const u32,
    pos: *mut Vec3,
    correction: *mut Vec3,
    len: usize,
}

// SAFETY: used only inside a step, while the world is mutably borrowed;
// each thread writes its own entries, thread 0 alone builds the hash.
unsafe impl Send for RawContacts {}
// SAFETY: as for Send.
unsafe impl Sync for RawContacts {}

impl RawContacts {
    pub fn new(sc: &mut ParticleContacts) -> Option<Self> {
        (sc.len() > 0).then(|| Self {
            particle: sc.particle.as_ptr(),
            entry_of: sc.entry_of.as_ptr(),
            pos: sc.pos.as_mut_ptr(),
            correction: sc.correction.as_mut_ptr(),
            len: sc.len(),
            all: sc,
        })
    }
}

/// Raw access to the particle–triangle contact data for one step; None
/// when collisions between bodies are off or nothing can touch a sheet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawSheets {
    all: *mut Sheets,
    probe_of: *const u32,
    push: *mut Vec3,
    hit: *mut u32,
    corner_push: *mut [Vec3; 3],
    gathered: *mut Vec4,
    len: usize,
}

// SAFETY: used only inside a step, while the world is mutably borrowed;
// each thread writes its own probes and particles, thread 0 alone builds
// the hash and gathers the corners' moves.
unsafe impl Send for RawSheets {}
// SAFETY: as for Send.
unsafe impl Sync for RawSheets {}

impl RawSheets {
    /// None unless the tables fit a world of `particles` particles.
    pub fn new(sh: &mut Sheets, particles: usize) -> Option<Self> {
        if !(sh.any() && sh.probe_of.len() == particles && sh.gathered.len() == particles) {
            return None;
        }
        Some(Self {
            probe_of: sh.probe_of.as_ptr(),
            push: sh.push.as_mut_ptr(),
            hit: sh.hit.as_mut_ptr(),
            corner_push: sh.corner_push.as_mut_ptr(),
            gathered: sh.gathered.as_mut_ptr(),
            len: sh.probe.len(),
            all: sh,
        })
    }
}

/// The tether table (see `solver::tether`): per particle its pin (or
/// `NONE`) and maximum distance; read only during the step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawTethers {
    pub anchor: *const u32,
    pub length: *const f32,
}

// SAFETY: read only, while the world is mutably borrowed for the step.
unsafe impl Send for RawTethers {}
// SAFETY: as for Send.
unsafe impl Sync for RawTethers {}

/// One colour of four-particle constraints (see `solver::quads`); their
/// particles are disjoint, λ is written by the thread owning the constraint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawQuads {
    pub idx: *const [u32; 4],
    pub kind: *const QuadKind,
    pub rest: *const f32,
    pub size: *const f32,
    pub shape: *const [f32; 9],
    pub compliance: *const f32,
    pub lambda: *mut f32,
    pub len: usize,
}

// SAFETY: used only inside a step, while the world is mutably borrowed;
// a thread writes only its share of a colour, whose particles are disjoint.
unsafe impl Send for RawQuads {}
// SAFETY: as for Send.
unsafe impl Sync for RawQuads {}

/// The closed surfaces' gas (see `solver::volume`): solved by thread 0
/// alone while the others wait at a barrier.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawVolumes {
    pub all: *mut Enclosed,
    pub len: usize,
}

// SAFETY: used only inside a step, while the world is mutably borrowed;
// only thread 0 touches it, between barriers.
unsafe impl Send for RawVolumes {}
// SAFETY: as for Send.
unsafe impl Sync for RawVolumes {}

/// Cloth triangles' drag and lift (see `solver::aero`): read only, but
/// for `dv`, where each thread writes its own particles' entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawAero {
    pub triangles: *const [u32; 3],
    pub coefficients: *const (f32, f32),
    pub start: *const u32,
    pub around: *const u32,
    pub dv: *mut Vec3,
}

// SAFETY: used only inside a step, while the world is mutably borrowed;
// each thread writes only its own particles' `dv`.
unsafe impl Send for RawAero {}
// SAFETY: as for Send.
unsafe impl Sync for RawAero {}

/// The particle held by the hand during a frame: the hand moves linearly
/// from `from` to `to`; the held particle follows kinematically or is
/// pulled with at most `max_force` (see `solver::hand`).
pub(crate) struct Held<'a> {
    pub particle: usize,
    pub from: Vec3,
    pub to: Vec3,
    pub kinematic: bool,
    pub max_force: f32,
    /// The held particle's rigid links: (other end, rest length), which
    /// the pull may not stretch past `hand::RIGID_STRAIN`.
    pub rigid: &'a [(u32, f32)],
    /// Where the force of the last substep is written (N); only the
    /// thread owning the particle writes it.
    pub force: *mut f32,
}

// SAFETY: `force` points into the world, mutably borrowed for the step;
// it is written only by the thread that owns the held particle.
unsafe impl Sync for Held<'_> {}

/// Everything one frame needs; shared read-only by the team.
pub(crate) struct Frame<'a> {
    pub settings: Settings,
    /// Refill the per-step constraint caches (settings, masses or
    /// compliances changed since the last step).
    pub prepare: bool,
    pub particles: RawParticles,
    pub batches: &'a [RawBatch],
    /// Four-particle constraints by colour, solved with the distance
    /// constraints of the same colour.
    pub quads: &'a [RawQuads],
    /// Closed surfaces' volumes, solved after the quads.
    pub volumes: RawVolumes,
    pub colliders: &'a [Collider],
    pub contacts: Option<RawContacts>,
    pub sheets: Option<RawSheets>,
    pub drivers: &'a [Driver],
    /// Cloth aerodynamics, when some triangle has a coefficient.
    pub aero: Option<RawAero>,
    /// Tethers, when some particle has one.
    pub tethers: Option<RawTethers>,
    /// The particle held by the hand.
    pub held: Option<Held<'a>>,
    /// Simulated time at the start of the frame (s).
    pub t0: f64,
}

impl Frame<'_> {
    /// This thread's part of the frame (DESIGN §2, steps 1–6 per substep).
    pub fn run(&self, team: &Team) {
        let s = &self.settings;
        let h = s.dt / s.substeps as f32;
        let xpbd = s.method == crate::solver::Method::Xpbd;
        let k = if xpbd { 1.0 } else { s.pbd_stiffness };
        let p = self.particles;
        let state = RawState {
            prev: p.prev,
            delta: p.delta,
        };
        // Per-step caches; each thread prepares exactly the constraints it
        // will solve, so no barrier is needed before the first solve.
        for b in self.batches.iter().filter(|_| self.prepare) {
            if let Some(range) = self.my_constraints(b, team) {
                // SAFETY: this thread's constraints; inv_mass is read only.
                unsafe { b.prepare(range, p.inv_mass, h, s.damping, xpbd) };
            }
        }
        let mine = team.share(p.len);
        let drag = (-s.air_drag * h).exp();
        let damped = s.damping > 0.0;
        for sub in 0..s.substeps {
            let t = self.t0 + (sub + 1) as f64 * h as f64;
            let f = (sub + 1) as f32 / s.substeps as f32;
            if let Some(a) = self.aero {
                // Every thread has finished the last substep before anyone
                // reads its particles, and has read before anyone moves them.
                team.sync();
                // SAFETY: `mine` is this thread's share; positions and
                // velocities are only read between the two barriers.
                unsafe { self.aero(mine.clone(), a, h) };
                team.sync();
            }
            // SAFETY: `mine` is this thread's share of the particles.
            unsafe { self.predict(mine.clone(), h, drag, t, f) };
            team.sync();
            for iteration in 0..s.iterations {
                // Colour by colour, its links and its four-particle
                // constraints together (they share no particle); every
                // thread sees the same colours, so they meet at each barrier.
                for (b, d) in self.colours() {
                    if let Some((b, range)) =
                        b.and_then(|b| Some((b, self.my_constraints(b, team)?)))
                    {
                        // SAFETY: a colour's constraints share no particle and
                        // the threads' ranges are disjoint; barriers between colours.
                        unsafe {
                            if iteration == 0 {
                                b.project::<true>(range, state, k);
                            } else {
                                b.project::<false>(range, state, k);
                            }
                        }
                    }
                    if let Some(d) = d {
                        let range = team.share(d.len);
                        // SAFETY: as for the links: the colour's quads share no
                        // particle with each other or its links.
                        unsafe { self.quad(d, range, h, k, xpbd, iteration == 0) };
                    }
                    team.sync();
                }
                if self.volumes.len > 0 {
                    if team.index == 0 {
                        // SAFETY: the others wait at the barrier below and
                        // touch no particle until it.
                        unsafe { self.gas(h, k, xpbd, iteration == 0) };
                    }
                    team.sync();
                }
                if let Some(t) = self.tethers {
                    // SAFETY: `mine` is this thread's share; pins are only read.
                    unsafe { self.tether(mine.clone(), t) };
                    // The next colour or the contacts read other shares.
                    team.sync();
                }
            }
            for b in self.batches.iter().filter(|b| b.tally) {
                if let Some(range) = self.my_constraints(b, team) {
                    // SAFETY: the constraints this thread projected, whose λ
                    // no other thread writes.
                    unsafe {
                        if sub == 0 {
                            b.tally::<true>(range);
                        } else {
                            b.tally::<false>(range);
                        }
                    }
                }
            }
            if let Some(held) = self.held.as_ref().filter(|g| !g.kinematic) {
                if mine.contains(&held.particle) {
                    // SAFETY: the held particle is this thread's; its
                    // neighbours are only read, after the barrier that
                    // ended the passes.
                    unsafe { self.pull_held(held, h, f) };
                }
                // Nobody moves the neighbours before they have been read.
                team.sync();
            }
            if let Some(sc) = self.contacts {
                // SAFETY: called by every thread, between the barriers it contains.
                unsafe { self.particle_contacts(sc, team) };
            }
            if let Some(sh) = self.sheets {
                // SAFETY: called by every thread, between the barriers it contains.
                unsafe { self.sheet_contacts(sh, team) };
            }
            // SAFETY: `mine` is this thread's share of the particles.
            unsafe { self.collide_and_finish(mine.clone(), h) };
            if damped {
                // Step 6 reads other threads' particles: wait for their step 5.
                team.sync();
                for (b, d) in self.colours() {
                    if let Some((b, range)) =
                        b.and_then(|b| Some((b, self.my_constraints(b, team)?)))
                    {
                        // SAFETY: as for the projections: disjoint constraints
                        // and particles per colour, barriers between colours.
                        unsafe { b.damp(range, p.pos, p.vel, p.inv_mass, p.lost) };
                    }
                    if let Some(d) = d {
                        let range = team.share(d.len);
                        // SAFETY: as for the quads' projections.
                        unsafe { self.damp_quads(d, range, s.damping * h) };
                    }
                    team.sync();
                }
                if self.volumes.len > 0 {
                    if team.index == 0 {
                        // SAFETY: the others wait at the barrier below.
                        unsafe { self.damp_gas(s.damping * h) };
                    }
                    team.sync();
                }
            }
            // No barrier otherwise: the next prediction touches only this
            // thread's particles.
        }
    }

    /// This thread's constraints of batch `b`: a share of an independent
    /// colour, or all of the sequential overflow batch for thread 0.
    /// Each colour that holds something: its links and its four-particle
    /// constraints (an empty colour, made ready for tears, needs no phase).
    fn colours(&self) -> impl Iterator<Item = (Option<&RawBatch>, Option<&RawQuads>)> {
        (0..self.batches.len().max(self.quads.len()))
            .map(|c| {
                (
                    self.batches.get(c).filter(|b| b.len > 0),
                    self.quads.get(c).filter(|d| d.len > 0),
                )
            })
            .filter(|(b, d)| b.is_some() || d.is_some())
    }

    fn my_constraints(&self, b: &RawBatch, team: &Team) -> Option<std::ops::Range<usize>> {
        match (b.sequential, team.index) {
            (false, _) => Some(team.share(b.len)),
            (true, 0) => Some(0..b.len),
            (true, _) => None,
        }
    }

    /// Step 1 for particles `range`: drag, gravity, predicted displacement;
    /// kinematic ones (drivers, the held particle) move to their target at
    /// time `t` (the held one a fraction `f` of the way to its target).
    ///
    /// # Safety
    /// No other thread touches particles `range`.
    unsafe fn predict(&self, range: std::ops::Range<usize>, h: f32, drag: f32, t: f64, f: f32) {
        let s = &self.settings;
        let p = self.particles;
        for i in range.clone() {
            // SAFETY: `i` is in this thread's share of the particles.
            unsafe {
                let w = *p.inv_mass.add(i);
                *p.prev.add(i) = (*p.pos.add(i)).extend(w);
                if w > 0.0 {
                    let before = *p.vel.add(i);
                    let dragged = s.wind + (before - s.wind) * drag;
                    if drag != 1.0 {
                        (*p.lost.add(i))[losses::DRAG] += kinetic_drop(w, before, dragged);
                    }
                    let mut v = dragged + s.gravity * h;
                    if let Some(a) = self.aero {
                        let pushed = v + *a.dv.add(i);
                        (*p.lost.add(i))[losses::DRAG] += kinetic_drop(w, v, pushed);
                        v = pushed;
                    }
                    *p.vel.add(i) = v;
                    *p.delta.add(i) = (v * h).extend(0.0);
                } else if *p.hold.add(i) & (hold::DRIVEN | hold::GRABBED) == 0 {
                    *p.delta.add(i) = Vec4::ZERO;
                }
            }
        }
        let targets = self
            .drivers
            .iter()
            .map(|d| (d.particle, d.position(t)))
            .chain(
                self.held
                    .as_ref()
                    .filter(|h| h.kinematic)
                    .map(|h| (h.particle, h.from.lerp(h.to, f))),
            );
        for (i, x) in targets.filter(|(i, _)| range.contains(i)) {
            // SAFETY: `i` is in this thread's share of the particles.
            unsafe {
                let delta = x - *p.pos.add(i);
                *p.delta.add(i) = delta.extend(0.0);
                *p.vel.add(i) = delta / h;
            }
        }
    }

    /// Projects four-particle constraints `range` of colour `d` (λ reset
    /// first on the substep's first pass).
    ///
    /// # Safety
    /// No other thread touches these constraints or their particles.
    #[inline(never)]
    unsafe fn quad(
        &self,
        d: &RawQuads,
        range: std::ops::Range<usize>,
        h: f32,
        k: f32,
        xpbd: bool,
        first: bool,
    ) {
        let p = self.particles;
        for c in range {
            // SAFETY: constraint `c` and its four particles are this thread's.
            unsafe {
                let lambda = &mut *d.lambda.add(c);
                if first {
                    *lambda = 0.0;
                }
                let idx = (*d.idx.add(c)).map(|i| i as usize);
                let x = idx.map(|i| (*p.prev.add(i) + *p.delta.add(i)).truncate());
                let w = idx.map(|i| *p.inv_mass.add(i));
                let alpha_t = if xpbd {
                    *d.compliance.add(c) / (h * h)
                } else {
                    0.0
                };
                let kind = *d.kind.add(c);
                let value = kind.rest_in(xpbd, *d.rest.add(c));
                let rest = (value, *d.size.add(c), &*d.shape.add(c));
                if let Some(moves) = project(kind, x, w, rest, alpha_t, k, lambda) {
                    for (i, m) in idx.into_iter().zip(moves) {
                        *p.delta.add(i) += m.extend(0.0);
                    }
                }
            }
        }
    }

    /// Projects every closed surface's volume constraint, in order.
    ///
    /// # Safety
    /// Only this thread touches particles and volumes during the call.
    unsafe fn gas(&self, h: f32, k: f32, xpbd: bool, first: bool) {
        let p = self.particles;
        for g in 0..self.volumes.len {
            // SAFETY: this thread alone reads and writes particles and
            // volumes until the barrier after the call.
            unsafe {
                let gas = &mut *self.volumes.all.add(g);
                let alpha_t = if xpbd { gas.compliance / (h * h) } else { 0.0 };
                gas.project(
                    (
                        |i| (*p.prev.add(i) + *p.delta.add(i)).truncate(),
                        |i| (*p.prev.add(i)).truncate(),
                    ),
                    |i| *p.inv_mass.add(i),
                    |i, m| *p.delta.add(i) += m.extend(0.0),
                    (alpha_t, k, first),
                );
            }
        }
    }

    /// The dashpot along four-particle constraints `range` of colour `d`.
    ///
    /// # Safety
    /// No other thread touches these constraints or their particles.
    unsafe fn damp_quads(&self, d: &RawQuads, range: std::ops::Range<usize>, beta_h: f32) {
        let p = self.particles;
        for c in range {
            // SAFETY: constraint `c` and its four particles are this thread's.
            unsafe {
                let idx = (*d.idx.add(c)).map(|i| i as usize);
                let x = idx.map(|i| *p.pos.add(i));
                let v = idx.map(|i| *p.vel.add(i));
                let w = idx.map(|i| *p.inv_mass.add(i));
                let rest = (*d.rest.add(c), *d.size.add(c), &*d.shape.add(c));
                let Some(dv) = damp(*d.kind.add(c), x, v, w, rest, beta_h) else {
                    continue;
                };
                for k in 0..4 {
                    if w[k] > 0.0 {
                        let after = v[k] + dv[k];
                        *p.vel.add(idx[k]) = after;
                        (*p.lost.add(idx[k]))[losses::DAMPING] += kinetic_drop(w[k], v[k], after);
                    }
                }
            }
        }
    }

    /// The dashpot along every closed surface's volume, in order.
    ///
    /// # Safety
    /// Only this thread touches particles and volumes during the call.
    unsafe fn damp_gas(&self, beta_h: f32) {
        let p = self.particles;
        for g in 0..self.volumes.len {
            // SAFETY: this thread alone reads and writes particles and
            // volumes until the barrier after the call.
            unsafe {
                (*self.volumes.all.add(g)).damp(
                    |i| *p.pos.add(i),
                    |i| *p.vel.add(i),
                    |i| *p.inv_mass.add(i),
                    |i, dv| {
                        let (w, before) = (*p.inv_mass.add(i), *p.vel.add(i));
                        *p.vel.add(i) = before + dv;
                        (*p.lost.add(i))[losses::DAMPING] += kinetic_drop(w, before, before + dv);
                    },
                    beta_h,
                );
            }
        }
    }

    /// The velocity change air gives particles `range` this substep, from
    /// the triangles around each (see `solver::aero`).
    ///
    /// # Safety
    /// No thread writes positions or velocities during the call; no other
    /// thread writes `dv` of particles `range`.
    unsafe fn aero(&self, range: std::ops::Range<usize>, a: RawAero, h: f32) {
        let s = &self.settings;
        let p = self.particles;
        for i in range {
            // SAFETY: `i` is this thread's; other particles are only read.
            unsafe {
                let w = *p.inv_mass.add(i);
                let mut dv = Vec3::ZERO;
                if w > 0.0 {
                    for k in *a.start.add(i)..*a.start.add(i + 1) {
                        let t = *a.around.add(k as usize) as usize;
                        let corners = *a.triangles.add(t);
                        let (cd, cl) = *a.coefficients.add(t);
                        let x = corners.map(|c| *p.pos.add(c as usize));
                        let v = corners.map(|c| *p.vel.add(c as usize));
                        dv += corner_dv(x, v, w, h, s.air_density, s.wind, cd, cl);
                    }
                    // In the wind's frame air never speeds a particle up.
                    let u = *p.vel.add(i) - s.wind;
                    let (before, after) = (u.length(), (u + dv).length());
                    if after > before {
                        dv = (u + dv) * (before / after) - u;
                    }
                }
                *a.dv.add(i) = dv;
            }
        }
    }

    /// Tethers of particles `range`: a particle farther from its pin than
    /// its tether's length moves back onto the sphere of that radius.
    ///
    /// # Safety
    /// No other thread touches particles `range`; pins are not written
    /// during the pass (w = 0, no tether of their own).
    unsafe fn tether(&self, range: std::ops::Range<usize>, t: RawTethers) {
        let p = self.particles;
        for i in range {
            // SAFETY: `i` is this thread's; its pin is only read.
            unsafe {
                let anchor = *t.anchor.add(i);
                if anchor == crate::solver::tether::NONE || *p.inv_mass.add(i) == 0.0 {
                    continue;
                }
                let a = anchor as usize;
                let pin = (*p.prev.add(a) + *p.delta.add(a)).truncate();
                let prev = (*p.prev.add(i)).truncate();
                let x = prev + (*p.delta.add(i)).truncate();
                let d = x - pin;
                let length = *t.length.add(i);
                let dist = d.length();
                if dist > length && dist > 0.0 {
                    let on_sphere = pin + d * (length / dist);
                    *p.delta.add(i) = (on_sphere - prev).extend(0.0);
                }
            }
        }
    }

    /// Step 4 for particle contacts (self-collision, between bodies): each thread gathers its share of the
    /// colliding particles' positions, thread 0 sorts them into the
    /// spatial hash, each thread computes the pushes of its share; they are
    /// applied by the particles' owners in [`Self::collide_and_finish`].
    ///
    /// # Safety
    /// Called by every thread of the team, between barriers as written.
    unsafe fn particle_contacts(&self, sc: RawContacts, team: &Team) {
        let p = self.particles;
        // SAFETY: each thread writes only its share of the entries; thread 0
        // alone builds the hash while the others wait at a barrier; the
        // pushes only read positions gathered before the previous barrier.
        unsafe {
            for k in team.share(sc.len) {
                let i = *sc.particle.add(k) as usize;
                *sc.pos.add(k) = (*p.prev.add(i) + *p.delta.add(i)).truncate();
            }
            team.sync();
            if team.index == 0 {
                // The others wait at the barrier below and hold no reference.
                (*sc.all).build();
            }
            team.sync();
            let all = &*sc.all;
            let inv_mass = std::slice::from_raw_parts(p.inv_mass, p.len);
            let radius = std::slice::from_raw_parts(p.radius, p.len);
            for k in team.share(sc.len) {
                *sc.correction.add(k) = all.push_of(k, inv_mass, radius);
            }
            team.sync();
        }
    }

    /// Step 4 for particle–triangle contacts (see `solver::sheets`):
    /// thread 0 hashes the triangles, each thread finds its share of the
    /// probes' deepest contacts, thread 0 adds up the corners' moves; both
    /// are applied by the particles' owners in [`Self::collide_and_finish`].
    ///
    /// # Safety
    /// Called by every thread of the team, between barriers as written.
    unsafe fn sheet_contacts(&self, sh: RawSheets, team: &Team) {
        let p = self.particles;
        // SAFETY: positions are final for this phase (every thread is past
        // the barrier below); thread 0 alone builds the hash and gathers
        // while the others wait; each thread writes only its own probes.
        unsafe {
            let prev = std::slice::from_raw_parts(p.prev as *const Vec4, p.len);
            let delta = std::slice::from_raw_parts(p.delta as *const Vec4, p.len);
            let inv_mass = std::slice::from_raw_parts(p.inv_mass, p.len);
            let radius = std::slice::from_raw_parts(p.radius, p.len);
            let from = |i: usize| prev[i].truncate();
            let x = |i: usize| (prev[i] + delta[i]).truncate();
            team.sync();
            if team.index == 0 {
                (*sh.all).build(from, x, radius);
            }
            team.sync();
            let all = &*sh.all;
            for k in team.share(sh.len) {
                let (t, push, corners) = match all.deepest(k, from, x, inv_mass, radius) {
                    Some((t, c)) => (t, c.push, c.corners),
                    None => (NONE, Vec3::ZERO, [Vec3::ZERO; 3]),
                };
                *sh.hit.add(k) = t;
                *sh.push.add(k) = push;
                *sh.corner_push.add(k) = corners;
            }
            team.sync();
            if team.index == 0 {
                for k in 0..sh.len {
                    let t = *sh.hit.add(k);
                    if t == NONE {
                        continue;
                    }
                    for (c, &i) in all.triangle(t).iter().enumerate() {
                        *sh.gathered.add(i as usize) += (*sh.corner_push.add(k))[c].extend(1.0);
                    }
                }
            }
            team.sync();
        }
    }

    /// Step 4's capped hand: pulls the held particle toward the hand's
    /// position a fraction `f` through the frame (see `solver::hand`).
    ///
    /// # Safety
    /// The held particle is this thread's; no thread moves its rigid
    /// links' other ends meanwhile.
    unsafe fn pull_held(&self, held: &Held, h: f32, f: f32) {
        let p = self.particles;
        let at = |i: usize| {
            // SAFETY: `i` is the held particle or a link's end, both checked
            // against the particle count before the step; read only.
            unsafe { (*p.prev.add(i)).truncate() + (*p.delta.add(i)).truncate() }
        };
        let i = held.particle;
        // SAFETY: as for `at`; the held particle is this thread's to write.
        unsafe {
            let w = *p.inv_mass.add(i);
            let rigid = held.rigid.iter().map(|&(o, rest)| (at(o as usize), rest));
            let target = held.from.lerp(held.to, f);
            let (pull, force) = pull(at(i), target, (w, h), held.max_force, rigid);
            *p.delta.add(i) += pull.extend(0.0);
            *held.force = force;
        }
    }

    /// Steps 4 and 5 for particles `range`: self-collision pushes,
    /// collisions with colliders, then v = Δx/h and x = x_prev + Δx.
    ///
    /// # Safety
    /// No other thread touches particles `range`.
    unsafe fn collide_and_finish(&self, range: std::ops::Range<usize>, h: f32) {
        let p = self.particles;
        let inv_h = 1.0 / h;
        for i in range {
            // SAFETY: `i` is in this thread's share of the particles; its
            // contact entry is written by this thread's share or read only.
            unsafe {
                let free = *p.inv_mass.add(i) > 0.0;
                let prev = (*p.prev.add(i)).truncate();
                let mut delta = (*p.delta.add(i)).truncate();
                if let Some(sc) = self.contacts {
                    let k = *sc.entry_of.add(i);
                    if k != u32::MAX {
                        delta += *sc.correction.add(k as usize);
                    }
                }
                if let Some(sh) = self.sheets {
                    let k = *sh.probe_of.add(i);
                    if k != NONE {
                        delta += *sh.push.add(k as usize);
                    }
                    // Its moves as a corner, averaged; the slot is emptied
                    // for the next substep.
                    let got = *sh.gathered.add(i);
                    if got.w > 0.0 {
                        delta += got.truncate() / got.w;
                        *sh.gathered.add(i) = Vec4::ZERO;
                    }
                }
                if free {
                    let w = *p.inv_mass.add(i);
                    for c in self.colliders {
                        if let Some((taken, kept)) =
                            c.resolve(prev, &mut delta, *p.radius.add(i), h)
                        {
                            (*p.lost.add(i))[losses::FRICTION] +=
                                friction_work(w, taken * inv_h, kept * inv_h);
                        }
                    }
                    *p.delta.add(i) = delta.extend(0.0);
                    *p.vel.add(i) = delta * inv_h;
                }
                *p.pos.add(i) = prev + delta;
            }
        }
    }
}

/// The work (J) friction did on a particle of inverse mass `w` in a
/// substep: the velocity it took out, m·`taken`, times the velocity the
/// particle kept, `kept` (so force × the distance actually slid). A
/// particle held by static friction keeps no tangential motion and does no
/// work — booking the kinetic energy its tangential step would have had
/// instead charges a body resting on a slope ½·m·(g·h·sin θ)² every
/// substep, energy it never had. While sliding this falls short of the
/// kinetic-energy drop by ½·m·|taken|², which is O(h²) per substep.
#[inline]
pub(crate) fn friction_work(w: f32, taken: Vec3, kept: Vec3) -> f64 {
    taken.dot(kept) as f64 / w as f64
}

/// ½·m·(|before|² − |after|²) for inverse mass `w` (J), in f64.
#[inline]
pub(crate) fn kinetic_drop(w: f32, before: Vec3, after: Vec3) -> f64 {
    0.5 * (before.length_squared() as f64 - after.length_squared() as f64) / w as f64
}
