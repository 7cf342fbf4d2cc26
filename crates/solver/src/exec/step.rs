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

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::contacts::{RawContacts, RawSheets};
use super::forces::{Held, RawAero};
use super::kinds::{Coloured, Ctx, Pass};
use super::pool::Team;
use super::shared::Shared;
use crate::collision::Collider;
use crate::particles::{Losses, hold, kinetic_drop, losses};
use crate::{Driver, Settings};

/// Every particle table (see [`crate::Particles`]), `len` entries each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawParticles {
    pub pos: Shared<Vec3>,
    pub prev: Shared<Vec4>,
    pub delta: Shared<Vec4>,
    pub vel: Shared<Vec3>,
    pub inv_mass: Shared<f32>,
    pub radius: Shared<f32>,
    pub hold: Shared<u8>,
    /// Per particle: energy taken out by drag, damping and friction (J).
    pub lost: Shared<Losses>,
    pub len: usize,
}

impl RawParticles {
    /// Particle `i`'s position now, within the substep: x_prev + Δx.
    ///
    /// # Safety
    /// `i < len`, and no other thread writes particle `i` meanwhile.
    #[inline(always)]
    pub unsafe fn x(&self, i: usize) -> Vec3 {
        // SAFETY: the caller's contract.
        unsafe { (self.prev.get(i) + self.delta.get(i)).truncate() }
    }
}

/// Everything one frame needs; shared read-only by the team.
pub(crate) struct Frame<'a> {
    pub settings: Settings,
    /// Refill the per-step constraint caches (settings, masses or
    /// compliances changed since the last step).
    pub prepare: bool,
    pub particles: RawParticles,
    /// The coloured constraint kinds, solved colour by colour in this order.
    pub coloured: &'a [&'a dyn Coloured],
    /// The kinds solved after the colours of each pass, in this order.
    pub passes: &'a [&'a dyn Pass],
    pub colliders: &'a [Collider],
    pub contacts: Option<RawContacts>,
    pub sheets: Option<RawSheets>,
    pub drivers: &'a [Driver],
    /// Cloth aerodynamics, when some triangle has a coefficient.
    pub aero: Option<RawAero>,
    /// The particle held by the hand.
    pub held: Option<Held<'a>>,
    /// Simulated time at the start of the frame (s).
    pub t0: f64,
}

impl Frame<'_> {
    /// Whether the frame has neither air on faces nor a pass with work
    /// (gas, tethers, rods, rigid bodies): between the particles' sweeps
    /// there are only colours and the hand.
    fn colours_only(&self) -> bool {
        self.aero.is_none() && !self.passes.iter().any(|k| k.active())
    }

    /// With nothing between one substep's step 5 and the next one's step
    /// 1 ([`Frame::colours_only`] and no dashpots), each particle is
    /// finished and predicted in one sweep: the same operations on each
    /// particle in the same order, one pass over the particles' memory
    /// fewer.
    fn fused(&self) -> bool {
        self.colours_only() && self.settings.damping <= 0.0
    }

    /// Whether every phase is particles, a colour or the hand
    /// ([`Frame::colours_only`], no contacts between bodies), so that a
    /// phase is pieces any thread may take (`Team::pieces`): it ends when
    /// its pieces are done, so a thread the OS is not running holds up no
    /// barrier. The browser's build runs one thread, and is smaller
    /// without a second copy of the substep (the same bits either way).
    pub fn loose(&self) -> bool {
        !cfg!(target_family = "wasm")
            && self.colours_only()
            && self.contacts.is_none()
            && self.sheets.is_none()
    }

    /// This thread's part of the frame (DESIGN §2, steps 1–6 per substep):
    /// the phases in order, each followed by a barrier where the next one
    /// reads what other threads wrote.
    pub fn run(&self, team: &Team) {
        let s = &self.settings;
        let xpbd = s.method == crate::Method::Xpbd;
        let ctx = Ctx {
            p: self.particles,
            h: s.dt / s.substeps as f32,
            k: if xpbd { 1.0 } else { s.pbd_stiffness },
            xpbd,
            damping: s.damping,
        };
        let (h, p) = (ctx.h, self.particles);
        // Per-step caches; each thread prepares exactly the constraints it
        // will solve, so no barrier is needed before the first solve.
        if self.prepare {
            // SAFETY: this thread's constraints; inv_mass is read only.
            self.each_colour(team, false, |kind, c, r| unsafe {
                kind.prepare(c, r, &ctx)
            });
        }
        let mine = team.share(p.len);
        let drag = (-s.air_drag * h).exp();
        let (fused, loose) = (self.fused(), self.loose());
        if loose {
            if self.prepare {
                // Other threads may project what this one prepared.
                team.sync();
            }
            return self.run_loose(team, &ctx, drag);
        }
        let at = |sub: u32| self.end_of(sub, h);
        for sub in 0..s.substeps {
            let (t, f) = at(sub);
            if let Some(a) = self.aero {
                // Every thread has finished the last substep before anyone
                // reads its particles, and has read before anyone moves them.
                team.sync();
                // SAFETY: each thread its share of the triangles, then of
                // the particles; positions and velocities are only read
                // between the first and the last barrier.
                unsafe {
                    a.faces(p, team.share(a.faces.len()), (s.air_density, s.wind));
                    team.sync();
                    a.blow(p, mine.clone(), h, s.wind);
                }
                team.sync();
            }
            // SAFETY: `mine` is this thread's share of the particles; a
            // pass's own state is touched by the same thread all substep.
            unsafe {
                if !(fused && sub > 0) {
                    self.predict(mine.clone(), h, drag, t, f);
                }
                for pass in self.passes.iter().filter(|k| k.active()) {
                    pass.predict(&ctx, team, t, drag);
                }
            }
            team.sync();
            for iteration in 0..s.iterations {
                let first = iteration == 0;
                // SAFETY: a colour's constraints share no particle, the
                // threads' ranges are disjoint, barriers between colours.
                self.each_colour(team, true, |kind, c, r| unsafe {
                    kind.project(c, r, &ctx, first)
                });
                for pass in self.passes.iter().filter(|k| k.active()) {
                    // SAFETY: every thread is past the last barrier; the
                    // next phase reads only after the one below.
                    unsafe { pass.project(&ctx, team, mine.clone(), first) };
                    team.sync();
                }
            }
            for kind in self.coloured {
                for c in (0..kind.colours()).filter(|&c| kind.tallies(c)) {
                    if let Some(r) = kind.mine(c, team) {
                        // SAFETY: the constraints this thread projected,
                        // whose λ no other thread writes.
                        unsafe { kind.tally(c, r, sub == 0) };
                    }
                }
            }
            if let Some(held) = self.held.as_ref().filter(|g| !g.kinematic) {
                if mine.contains(&held.particle) {
                    // SAFETY: the held particle is this thread's; its
                    // neighbours and pins are only read, after the barrier
                    // that ended the passes.
                    unsafe { held.pull(p, h, f) };
                }
                // Nobody moves the neighbours before they have been read.
                team.sync();
            }
            if let Some(sc) = self.contacts {
                // SAFETY: called by every thread, between the barriers it contains.
                unsafe { sc.find(p, team) };
            }
            if let Some(sh) = self.sheets {
                // SAFETY: called by every thread, between the barriers it contains.
                unsafe { sh.find(p, team) };
            }
            // SAFETY: `mine` is this thread's share of the particles; a
            // pass's own state is this thread's as in its prediction.
            unsafe {
                let next = (fused && sub + 1 < s.substeps).then(|| (drag, at(sub + 1)));
                self.collide_and_finish(mine.clone(), h, next);
                for pass in self.passes.iter().filter(|k| k.active()) {
                    pass.finish(&ctx, team);
                }
            }
            if s.damping > 0.0 {
                // Step 6 reads other threads' particles: wait for their step 5.
                team.sync();
                // SAFETY: as for the projections.
                self.each_colour(team, true, |kind, c, r| unsafe { kind.damp(c, r, &ctx) });
                for pass in self.passes.iter().filter(|k| k.active() && k.damps()) {
                    // SAFETY: as for the passes' projections.
                    unsafe { pass.damp(&ctx, team, mine.clone()) };
                    team.sync();
                }
            }
            // No barrier otherwise: the next prediction touches only this
            // thread's particles.
        }
    }

    /// The simulated time at the end of substep `sub` (of length `h`),
    /// and the fraction of the frame done then.
    fn end_of(&self, sub: u32, h: f32) -> (f64, f32) {
        let t = self.t0 + (sub + 1) as f64 * h as f64;
        (t, (sub + 1) as f32 / self.settings.substeps as f32)
    }

    /// [`Frame::run`]'s substeps where every phase is the particles', a
    /// colour's or the hand's (no contacts, passes or air on faces), each
    /// phase pieces any thread may take ([`Team::pieces`]): the same
    /// operations on each particle and constraint as `run`'s, so the same
    /// bits. A piece of the last pass adds its constraints' λ to their
    /// impulse as it ends (step 3: no later colour touches them). Without
    /// dashpots, step 1 of every substep after the first runs in the sweep
    /// that ends the last; with them, step 6 comes between.
    fn run_loose(&self, team: &Team, ctx: &Ctx, drag: f32) {
        let (s, h, n) = (&self.settings, ctx.h, self.particles.len);
        let at = |sub: u32| self.end_of(sub, h);
        let particles = [(n, false)];
        let fused = self.fused();
        for sub in 0..s.substeps {
            if sub == 0 || !fused {
                let (t, f) = at(sub);
                // SAFETY: each piece is one thread's; the phase ends when all are.
                team.pieces(&particles, |_, r| unsafe { self.predict(r, h, drag, t, f) });
            }
            for iteration in 0..s.iterations {
                let (first, last) = (iteration == 0, iteration + 1 == s.iterations);
                // SAFETY: a colour's constraints share no particle (a
                // whole segment's are one piece), each piece is one
                // thread's, and the phase ends when all are.
                self.colour_pieces(team, |kind, c, r| unsafe {
                    kind.project(c, r.clone(), ctx, first);
                    if last && kind.tallies(c) {
                        kind.tally(c, r, sub == 0);
                    }
                });
            }
            if let Some(held) = self.held.as_ref().filter(|g| !g.kinematic) {
                // One piece: whoever takes it pulls; its neighbours and
                // pins are read after the last colour and before the sweep.
                // SAFETY: no other thread touches a particle meanwhile.
                team.pieces(&[(1, true)], |_, _| unsafe {
                    held.pull(self.particles, h, at(sub).1)
                });
            }
            let next = (fused && sub + 1 < s.substeps).then(|| (drag, at(sub + 1)));
            // SAFETY: as for the prediction.
            team.pieces(&particles, |_, r| unsafe {
                self.collide_and_finish(r, h, next)
            });
            if s.damping > 0.0 {
                // Step 6, after every particle's step 5.
                // SAFETY: as for the projections.
                self.colour_pieces(team, |kind, c, r| unsafe { kind.damp(c, r, ctx) });
            }
        }
    }

    /// Runs `verb` on every colour of every coloured kind, colour by
    /// colour, each colour one [`Team::pieces`] phase (a kind's segment of
    /// it, or one piece where its constraints may share particles); an
    /// empty colour is no phase.
    fn colour_pieces(&self, team: &Team, mut verb: impl FnMut(&dyn Coloured, usize, Range<usize>)) {
        let mut segments = [(0, false); 4];
        let kinds = &self.coloured[..self.coloured.len().min(segments.len())];
        assert_eq!(
            kinds.len(),
            self.coloured.len(),
            "at most four coloured kinds"
        );
        let colours = kinds.iter().map(|k| k.colours()).max().unwrap_or(0);
        for c in 0..colours {
            for (g, k) in segments.iter_mut().zip(kinds) {
                *g = match c < k.colours() {
                    true => (k.len(c), k.whole(c)),
                    false => (0, false),
                };
            }
            let segments = &segments[..kinds.len()];
            if segments.iter().any(|g| g.0 > 0) {
                team.pieces(segments, |k, r| verb(kinds[k], c, r));
            }
        }
    }

    /// Runs `verb` on this thread's share of every colour of every
    /// coloured kind, colour by colour (kinds in order within a colour);
    /// with `sync`, the threads meet after each colour that holds
    /// something (an empty one, made ready for tears, needs no phase).
    fn each_colour(
        &self,
        team: &Team,
        sync: bool,
        mut verb: impl FnMut(&dyn Coloured, usize, Range<usize>),
    ) {
        let colours = self.coloured.iter().map(|k| k.colours()).max();
        for c in 0..colours.unwrap_or(0) {
            let mut any = false;
            for &kind in self
                .coloured
                .iter()
                .filter(|k| c < k.colours() && (k.len(c) > 0 || !sync))
            {
                any = true;
                if let Some(range) = kind.mine(c, team) {
                    verb(kind, c, range);
                }
            }
            if sync && any {
                team.sync();
            }
        }
    }

    /// Step 1 for particles `range`: drag, gravity, predicted displacement;
    /// kinematic ones (drivers, the held particle) move to their target at
    /// time `t` (the held one a fraction `f` of the way to its target).
    ///
    /// # Safety
    /// No other thread touches particles `range`.
    unsafe fn predict(&self, range: std::ops::Range<usize>, h: f32, drag: f32, t: f64, f: f32) {
        for i in range.clone() {
            // SAFETY: `i` is in this thread's share of the particles.
            unsafe { self.predict_one(i, h, drag) };
        }
        // SAFETY: the caller's contract.
        unsafe { self.move_kinematic(range, h, t, f) };
    }

    /// Step 1 for free particle `i` (or a still one's zero displacement).
    ///
    /// # Safety
    /// No other thread touches particle `i`.
    #[inline(always)]
    unsafe fn predict_one(&self, i: usize, h: f32, drag: f32) {
        let p = self.particles;
        // SAFETY: the caller's contract.
        unsafe {
            let w = p.inv_mass.get(i);
            if w > 0.0 {
                self.predict_free(i, p.pos.get(i), w, p.vel.get(i), h, drag);
                return;
            }
            p.prev.set(i, p.pos.get(i).extend(w));
            if p.hold.get(i) & (hold::DRIVEN | hold::GRABBED) == 0 {
                p.delta.set(i, Vec4::ZERO);
            }
        }
    }

    /// Step 1 for free particle `i` (inverse mass `w`) at `x` with
    /// velocity `v`: its start, predicted velocity and step.
    ///
    /// # Safety
    /// No other thread touches particle `i`.
    #[inline(always)]
    unsafe fn predict_free(&self, i: usize, x: Vec3, w: f32, v: Vec3, h: f32, drag: f32) {
        let p = self.particles;
        // SAFETY: the caller's contract.
        unsafe {
            p.prev.set(i, x.extend(w));
            let v = self.predicted_velocity(i, w, v, h, drag);
            p.vel.set(i, v);
            p.delta.set(i, (v * h).extend(0.0));
        }
    }

    /// Step 1's velocity of free particle `i` (inverse mass `w`) that
    /// ended the last substep at `before`: drag toward the wind, gravity,
    /// air on its faces, with the kinetic energy drag took booked.
    ///
    /// # Safety
    /// No other thread touches particle `i`.
    #[inline(always)]
    unsafe fn predicted_velocity(&self, i: usize, w: f32, before: Vec3, h: f32, drag: f32) -> Vec3 {
        let s = &self.settings;
        let p = self.particles;
        // SAFETY: the caller's contract.
        unsafe {
            let dragged = s.wind + (before - s.wind) * drag;
            if drag != 1.0 {
                p.lost.at(i)[losses::DRAG] += kinetic_drop(w, before, dragged);
            }
            let mut v = dragged + s.gravity * h;
            if let Some(a) = self.aero {
                let pushed = v + a.dv.get(i);
                p.lost.at(i)[losses::DRAG] += kinetic_drop(w, v, pushed);
                v = pushed;
            }
            v
        }
    }

    /// Step 1's kinematic particles in `range`: drivers and a kinematic
    /// hand move theirs to their target at time `t` (the hand a fraction
    /// `f` of the way).
    ///
    /// # Safety
    /// No other thread touches particles `range`.
    unsafe fn move_kinematic(&self, range: std::ops::Range<usize>, h: f32, t: f64, f: f32) {
        let p = self.particles;
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
                let delta = x - p.pos.get(i);
                p.delta.set(i, delta.extend(0.0));
                p.vel.set(i, delta / h);
            }
        }
    }

    /// Steps 4 and 5 for particles `range`: self-collision pushes,
    /// collisions with colliders, then v = Δx/h and x = x_prev + Δx; with
    /// `next` = (drag, (t, f)), each particle's step 1 of the next substep
    /// follows its step 5 in the same sweep (see `run`).
    ///
    /// # Safety
    /// No other thread touches particles `range`.
    unsafe fn collide_and_finish(
        &self,
        range: std::ops::Range<usize>,
        h: f32,
        next: Option<(f32, (f64, f32))>,
    ) {
        // Without colliders the loop carries none of their code (the
        // collider tests are inlined where there are some).
        // SAFETY: the caller's contract.
        unsafe {
            match (self.colliders.is_empty(), next) {
                (true, None) => self.finish_particles::<false, false>(range, h, 1.0),
                (false, None) => self.finish_particles::<true, false>(range, h, 1.0),
                (true, Some((drag, (t, f)))) => {
                    self.finish_particles::<false, true>(range.clone(), h, drag);
                    self.move_kinematic(range, h, t, f);
                }
                (false, Some((drag, (t, f)))) => {
                    self.finish_particles::<true, true>(range.clone(), h, drag);
                    self.move_kinematic(range, h, t, f);
                }
            }
        }
    }

    /// [`Self::collide_and_finish`], with the colliders (`COLLIDE`) or
    /// without.
    ///
    /// # Safety
    /// As for [`Self::collide_and_finish`].
    #[inline(always)]
    unsafe fn finish_particles<const COLLIDE: bool, const PREDICT: bool>(
        &self,
        range: std::ops::Range<usize>,
        h: f32,
        drag: f32,
    ) {
        let p = self.particles;
        let inv_h = 1.0 / h;
        for i in range {
            // SAFETY: `i` is in this thread's share of the particles; its
            // contact entry is written by this thread's share or read only.
            unsafe {
                let free = p.inv_mass.get(i) > 0.0;
                let prev = p.prev.get(i).truncate();
                let mut delta = p.delta.get(i).truncate();
                if let Some(sc) = self.contacts {
                    sc.add_push(i, &mut delta);
                }
                if let Some(sh) = self.sheets {
                    sh.add_push(i, &mut delta);
                }
                if free {
                    let w = p.inv_mass.get(i);
                    let colliders: &[Collider] = if COLLIDE { self.colliders } else { &[] };
                    for c in colliders {
                        // Held by static friction it keeps no motion and
                        // does no work (0 added to the books).
                        if let Some((taken, kept)) = c.resolve(prev, &mut delta, p.radius.get(i), h)
                            && kept != Vec3::ZERO
                        {
                            p.lost.at(i)[losses::FRICTION] +=
                                friction_work(w, taken * inv_h, kept * inv_h);
                        }
                    }
                    let (x, v) = (prev + delta, delta * inv_h);
                    p.pos.set(i, x);
                    if PREDICT {
                        // predict_one's step, on the values in hand.
                        self.predict_free(i, x, w, v, h, drag);
                    } else {
                        p.delta.set(i, delta.extend(0.0));
                        p.vel.set(i, v);
                    }
                    continue;
                }
                p.pos.set(i, prev + delta);
                if PREDICT {
                    self.predict_one(i, h, drag);
                }
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
