//! Collisions between particles: within a body (self-collision) and, when
//! switched on, between the ropes and cloths of a world.
//!
//! Two particles i, j closer than r_i + r_j are pushed apart along their
//! connecting line, each by its share w_i/(w_i + w_j) of the overlap —
//! unless they belong to one body and were that close in its rest shape
//! (neighbours along the rope or in the cloth grid), which must not repel
//! each other.
//!
//! Candidates come from a spatial hash rebuilt every substep (a counting
//! sort of the particles by hashed cell, cell size = the largest contact
//! distance, so every contact is in one of the 27 cells around a particle).
//! Each particle keeps the list of those within its contact distance + 2M
//! of it across substeps, while none strays more than M
//! (`solver::anchors`), and walks the 27 cells only when the lists are
//! gathered again or its list is full; the pushes it finds on its list
//! are added in the walk's order (by cell, then particle), so the sum is
//! the walk's to the bit.
//! Each particle sums the pushes of all its contacts from the positions
//! after the constraint passes (Jacobi, not Gauss–Seidel): a particle only
//! writes its own correction, so the pass runs in parallel and gives the
//! same bits for any thread count. All storage is allocated up front.

use glam::Vec3;

use super::anchors::{Anchors, List, UNLISTED};
use super::grid::Grid;

/// Listed neighbours per particle.
pub(crate) const LISTED: usize = 24;

/// Bodies whose boxes [`ParticleContacts::bodies_apart`] compares, at
/// most (pairs of them, each substep).
const FEW_BODIES: usize = 16;

/// The least margin of the lists, as a share of the largest contact
/// distance.
const LEAST: f32 = 0.1;

/// The largest margin, as a share of the largest contact distance: faster
/// particles walk the hash.
const MOST: f32 = 0.5;

/// A body's particles in its rest shape.
#[derive(Clone, Debug)]
struct RestShape {
    first: usize,
    rest: Vec<Vec3>,
    enabled: bool,
}

/// The particles that take part in contacts and the hash's storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct ParticleContacts {
    /// Per body: its rest shape, when it can self-collide.
    shapes: Vec<Option<RestShape>>,
    /// Particles of different bodies (with rest shapes) collide too.
    between_bodies: bool,
    /// Per entry: its body self-collides.
    self_on: Vec<bool>,
    /// World index of each colliding particle ("entry").
    pub particle: Vec<u32>,
    /// Body of each entry.
    body: Vec<u32>,
    /// Position of each entry in its body's rest shape (m).
    rest: Vec<Vec3>,
    /// Entry of each world particle, `u32::MAX` when it does not self-collide.
    pub entry_of: Vec<u32>,
    /// Entries by cell; its edge is the largest contact distance r_i + r_j.
    grid: Grid,
    /// The grid holds this substep's positions (it is sorted only when
    /// some entry walks it).
    sorted: bool,
    /// Per entry: its current position (m), gathered once per substep.
    pub pos: Vec<Vec3>,
    /// Per entry: the push it gets this substep (m).
    pub correction: Vec<Vec3>,
    /// Per body: the box around its entries' positions this substep
    /// (empty for a body without entries). A particle that cannot touch
    /// its own body looks for partners only near another body's box.
    body_box: Vec<[Vec3; 2]>,
    /// Per entry, [`LISTED`] slots of the entries it could touch.
    pub lists: Vec<u32>,
    /// Per entry: how many slots are listed, or [`UNLISTED`].
    pub listed: Vec<u32>,
    /// Per entry: where it was when the lists were gathered.
    pub anchors: Anchors,
    /// Some entry's body self-collides.
    some_self_on: bool,
    /// No entry can be pushed this substep ([`ParticleContacts::bound`]):
    /// none self-collides, every position is finite, and the bodies'
    /// boxes lie more than the cell apart.
    pub idle: bool,
}

impl RestShape {
    /// False when a particle's radius is so large against the spacing of
    /// the rest shape ([`crate::limits::RADIUS_PER_SPACING`]) that
    /// the spatial hash would compare every particle with every other.
    fn hash_is_useful(&self, radius: &[f32]) -> bool {
        let spacing = crate::limits::spacing(self.rest.iter().copied());
        let largest = radius[self.first..self.first + self.rest.len()]
            .iter()
            .fold(0f32, |a, &r| a.max(r));
        !spacing.is_finite() || largest <= crate::limits::RADIUS_PER_SPACING * spacing
    }
}

impl ParticleContacts {
    /// Records the rest shape of the particles `first..first + rest.len()`
    /// of `body`, so its self-collision can be switched on.
    pub fn set_rest_shape(&mut self, body: usize, first: usize, rest: Vec<Vec3>) {
        if self.shapes.len() <= body {
            self.shapes.resize_with(body + 1, || None);
        }
        self.shapes[body] = Some(RestShape {
            first,
            rest,
            enabled: false,
        });
    }

    /// Makes room in `body`'s rest shape for `more` particles.
    pub fn reserve_rest_shape(&mut self, body: usize, more: usize) {
        if let Some(Some(shape)) = self.shapes.get_mut(body) {
            shape.rest.reserve(more);
        }
    }

    /// Grows `body`'s rest shape to its particles `first..first + count`,
    /// each new one resting where `rest_of` its index in the body says (a
    /// split particle's copy rests where its original does); rebuilds the
    /// entries when the body takes part in contacts.
    pub fn grow_rest_shape(
        &mut self,
        body: usize,
        count: usize,
        rest_of: impl Fn(&[Vec3], usize) -> Vec3,
        radius: &[f32],
    ) {
        let Some(Some(shape)) = self.shapes.get_mut(body) else {
            return;
        };
        while shape.rest.len() < count {
            let r = rest_of(&shape.rest, shape.rest.len());
            shape.rest.push(r);
        }
        if shape.enabled || self.between_bodies {
            self.rebuild(radius);
        }
    }

    /// Scales `body`'s rest shape by `by` about its centre; rebuilds the
    /// entries when the body takes part in contacts.
    pub fn scale_rest_shape(&mut self, body: usize, by: f32, radius: &[f32]) {
        let Some(Some(shape)) = self.shapes.get_mut(body) else {
            return;
        };
        super::volume::scale_about_mean(&mut shape.rest, by);
        if shape.enabled || self.between_bodies {
            self.rebuild(radius);
        }
    }

    /// The rest shape of `body`, if it has one.
    pub fn rest_shape(&self, body: usize) -> Option<&[Vec3]> {
        self.shapes.get(body)?.as_ref().map(|s| s.rest.as_slice())
    }

    /// Whether `body` self-collides.
    pub fn enabled(&self, body: usize) -> bool {
        self.shapes
            .get(body)
            .is_some_and(|s| s.as_ref().is_some_and(|s| s.enabled))
    }

    /// Switches self-collision of `body` on or off (it needs a rest shape);
    /// rebuilds the entries and the hash storage. Returns whether it is on.
    pub fn set_enabled(&mut self, body: usize, on: bool, radius: &[f32]) -> bool {
        let Some(Some(shape)) = self.shapes.get_mut(body) else {
            return false;
        };
        if on && !shape.hash_is_useful(radius) {
            return false;
        }
        shape.enabled = on;
        self.rebuild(radius);
        on
    }

    /// Whether particles of different bodies collide.
    pub fn between_bodies(&self) -> bool {
        self.between_bodies
    }

    /// Switches collisions between particles of different bodies.
    pub fn set_between_bodies(&mut self, on: bool, radius: &[f32]) {
        self.between_bodies = on;
        self.rebuild(radius);
    }

    /// Lists the colliding particles again and sizes the hash storage.
    fn rebuild(&mut self, radius: &[f32]) {
        self.particle.clear();
        self.body.clear();
        self.self_on.clear();
        self.rest.clear();
        self.entry_of.clear();
        self.entry_of.resize(radius.len(), u32::MAX);
        let mut cell = 0f32;
        for (b, shape) in self.shapes.iter().enumerate() {
            // Between bodies, only bodies whose radius keeps the hash useful.
            let Some(shape) = shape
                .as_ref()
                .filter(|s| s.enabled || (self.between_bodies && s.hash_is_useful(radius)))
            else {
                continue;
            };
            for (k, &r) in shape.rest.iter().enumerate() {
                let p = shape.first + k;
                self.entry_of[p] = self.particle.len() as u32;
                self.particle.push(p as u32);
                self.body.push(b as u32);
                self.self_on.push(shape.enabled);
                self.rest.push(r);
                cell = cell.max(2.0 * radius[p]);
            }
        }
        self.some_self_on = self.self_on.contains(&true);
        let n = self.particle.len();
        self.grid = Grid::new(n);
        self.grid.cell = cell.max(super::grid::MIN_CELL);
        self.pos = vec![Vec3::ZERO; n];
        self.correction = vec![Vec3::ZERO; n];
        self.body_box = vec![[Vec3::ZERO; 2]; self.shapes.len()];
        self.lists = vec![0; n * LISTED];
        self.listed = vec![UNLISTED; n];
        let on = self.anchors.enabled();
        self.anchors = Anchors::new(n);
        self.anchors.set_enabled(on);
    }

    /// Keeps neighbour lists across substeps (on, the default) or walks
    /// the hash for every particle every substep (off); the same bits.
    pub fn set_lists(&mut self, on: bool) {
        self.anchors.set_enabled(on);
        self.listed.fill(UNLISTED);
    }

    /// Sizes the particle → entry map for `particles` world particles
    /// (bodies added after a colliding one); allocates only then.
    pub fn fit(&mut self, particles: usize) {
        if !self.particle.is_empty() {
            self.entry_of.resize(particles, u32::MAX);
        }
    }

    /// Number of particles that take part in contacts.
    pub fn len(&self) -> usize {
        self.particle.len()
    }

    /// The largest move and drift of the entries `share` of them
    /// (`Anchors::measure`), `from` giving a world particle's position at
    /// the start of the substep: each thread measures its own share.
    pub fn measure(&self, share: std::ops::Range<usize>, from: impl Fn(usize) -> Vec3) -> [f32; 2] {
        let points = share.map(|k| (k, from(self.particle[k] as usize), self.pos[k]));
        self.anchors.measure(points)
    }

    /// Boxes each body's entries at their positions `pos` and says
    /// whether the substep is idle: no entry can be pushed, so it needs
    /// neither lists nor hash (one thread).
    pub fn bound(&mut self) -> bool {
        self.body_box.fill([Vec3::INFINITY, Vec3::NEG_INFINITY]);
        // Entries come body by body (`rebuild`): each body's box is folded
        // in registers over its run, in entry order as before, not through
        // memory entry by entry (each load waited on the last store: 2.5 %
        // of the samples of a pile of two sheets on two threads).
        let mut start = 0;
        for run in self.body.chunk_by(|a, b| a == b) {
            let pos = &self.pos[start..start + run.len()];
            start += run.len();
            let b = &mut self.body_box[run[0] as usize];
            *b = pos.iter().fold(*b, |[lo, hi], &p| [lo.min(p), hi.max(p)]);
        }
        // Bodies apart (a sheet falling toward another): every entry lies
        // in its own body's box (a NaN one would not: the boxes' min and
        // max pass over it), so no [`ParticleContacts::pushed`] test can
        // pass, and none is made.
        self.idle =
            !self.some_self_on && self.bodies_apart() && self.pos.iter().all(|p| p.is_finite());
        if self.idle {
            self.anchors.forget();
            self.sorted = false;
        }
        self.idle
    }

    /// After [`ParticleContacts::bound`] found the substep not idle:
    /// decides whether the lists hold from `measured`, every share's
    /// [`ParticleContacts::measure`] at once, then sorts the entries into
    /// the hash by their positions when some entry walks it this substep;
    /// `from` gives a world particle's position at the start of the
    /// substep (one thread).
    pub fn build(&mut self, measured: [f32; 2], from: impl Fn(usize) -> Vec3, inv_mass: &[f32]) {
        let cell = self.grid.cell;
        let starts = (0..self.len()).map(|k| (k, from(self.particle[k] as usize)));
        self.anchors
            .decide(measured, starts, (LEAST * cell, MOST * cell));
        // Only a gathering and an entry that looks for pushes without a
        // list walk the hash: while every other entry tests its own list
        // it is not sorted (`push_among` orders the pushes by the cells of
        // the positions, the cells the hash would hold).
        let a = &self.anchors;
        let walked = a.regather
            || !a.listing
            || (0..self.len()).any(|k| self.listed[k] == UNLISTED && self.pushed(k, inv_mass));
        if walked {
            for k in 0..self.len() {
                self.grid.place(k, self.pos[k]);
            }
            self.grid.sort();
        }
        self.sorted = walked;
    }

    /// Whether each body's box lies more than the cell from every other
    /// body's on some axis: the sums [`ParticleContacts::near_another_body`]
    /// makes for an entry, made from its body's box (rounding keeps their
    /// order), so for every entry inside it says "not near". At most
    /// [`FEW_BODIES`] bodies, else false.
    fn bodies_apart(&self) -> bool {
        let (cell, boxes) = (self.grid.cell, &self.body_box);
        let far = |[lo, hi]: [Vec3; 2], [olo, ohi]: [Vec3; 2]| {
            (hi + cell).cmplt(olo).any() || (lo - cell).cmpgt(ohi).any()
        };
        boxes.len() <= FEW_BODIES
            && (boxes.iter().enumerate()).all(|(b, &own)| {
                (boxes.iter().enumerate()).all(|(o, &other)| o == b || far(own, other))
            })
    }

    /// Whether entries `k` and `j` may push each other at all (not one
    /// particle, not neighbours in a rest shape, their bodies' switches
    /// on), for contact distance `reach`.
    fn may_touch(&self, k: usize, j: usize, reach: f32) -> bool {
        let same_body = self.body[j] == self.body[k];
        j != k
            && !((same_body && !self.self_on[k]) || (!same_body && !self.between_bodies))
            && !(same_body && self.rest[k].distance_squared(self.rest[j]) <= reach * reach)
    }

    /// Gathers entry `k`'s list into `out` ([`LISTED`] slots): every entry
    /// it may touch whose anchor is within their contact distance + 2M of
    /// its own; how many, or [`UNLISTED`] (also for an entry that cannot
    /// look for pushes before the lists are gathered again: should it
    /// start to all the same, say when a pin is let go, it walks the
    /// hash).
    pub fn gather(&self, k: usize, out: &mut [u32], inv_mass: &[f32], radius: &[f32]) -> u32 {
        let a = &self.anchors;
        // While the lists hold, every entry stays within M of its anchor,
        // which is within a step of where it is now: entry k and every
        // body's box move at most M + step from here. An entry that may
        // look for pushes before the lists are gathered again is listed
        // now (unlisted, it would walk the hash, which then has to be
        // sorted every substep: 18 such entries did so for a pile's whole
        // rest).
        if !self.pushed_within(k, inv_mass, 2.0 * (a.margin + a.step)) {
            return UNLISTED;
        }
        let (pk, ak) = (self.particle[k] as usize, a.at[k]);
        // The hash holds this substep's positions, within a step of the
        // anchors.
        let r = self.grid.cell + 2.0 * a.margin + a.step;
        let (lo, hi) = (self.grid.cell_at(ak - r), self.grid.cell_at(ak + r));
        if (0..3).any(|x| hi[x] - lo[x] > 6) {
            return UNLISTED;
        }
        debug_assert!(self.sorted, "a gathering walks this substep's hash");
        let mut list = List::new(out);
        self.grid.each_in_cells(lo, hi, |j| {
            let reach = radius[pk] + radius[self.particle[j] as usize];
            let grow = reach + 2.0 * a.margin;
            if !self.may_touch(k, j, reach) || ak.distance_squared(a.at[j]) > grow * grow {
                return;
            }
            list.push(j);
        });
        list.finish().unwrap_or(UNLISTED)
    }

    /// Whether entry `k` can touch a particle of another body: it is
    /// within the largest contact distance (the cell) and `grow` of that
    /// body's box. (Not finite positions compare false and are searched
    /// as before.)
    fn near_another_body(&self, k: usize, grow: f32) -> bool {
        let (x, reach, own) = (self.pos[k], self.grid.cell + grow, self.body[k] as usize);
        self.body_box.iter().enumerate().any(|(b, [lo, hi])| {
            b != own && !((x + reach).cmplt(*lo).any() || (x - reach).cmpgt(*hi).any())
        })
    }

    /// Whether entry `k` looks for pushes at all: it can move, and it
    /// self-collides or is near another body.
    #[inline(always)]
    fn pushed(&self, k: usize, inv_mass: &[f32]) -> bool {
        self.pushed_within(k, inv_mass, 0.0)
    }

    /// [`ParticleContacts::pushed`] once entry `k` and the other bodies
    /// have moved up to `grow` (m) closer.
    #[inline(always)]
    fn pushed_within(&self, k: usize, inv_mass: &[f32], grow: f32) -> bool {
        inv_mass[self.particle[k] as usize] != 0.0
            && (self.self_on[k] || self.between_bodies && self.near_another_body(k, grow))
    }

    /// The push entry `k` gets from entry `j`, if they overlap.
    #[inline(always)]
    fn push_from(&self, k: usize, j: usize, inv_mass: &[f32], radius: &[f32]) -> Option<Vec3> {
        let (pk, pj) = (self.particle[k] as usize, self.particle[j] as usize);
        let reach = radius[pk] + radius[pj];
        let d = self.pos[k] - self.pos[j];
        let dist2 = d.length_squared();
        if dist2 >= reach * reach || dist2 < 1e-18 || !self.may_touch(k, j, reach) {
            return None;
        }
        let (wk, dist) = (inv_mass[pk], dist2.sqrt());
        let share = wk / (wk + inv_mass[pj]);
        Some(d * ((reach - dist) / dist * share))
    }

    /// The push entry `k` gets from every particle it overlaps, walking
    /// the 27 cells around it. `inv_mass` and `radius` are indexed by
    /// world particle.
    pub fn push_of(&self, k: usize, inv_mass: &[f32], radius: &[f32]) -> Vec3 {
        let mut push = Vec3::ZERO;
        if !self.pushed(k, inv_mass) {
            return push;
        }
        debug_assert!(self.sorted, "a search walks this substep's hash");
        let home = self.grid.cell_of(k);
        let around = (home.map(|c| c - 1), home.map(|c| c + 1));
        self.grid.each_in_cells(around.0, around.1, |j| {
            if let Some(p) = self.push_from(k, j, inv_mass, radius) {
                push += p;
            }
        });
        push
    }

    /// [`ParticleContacts::push_of`] from entry `k`'s `list` (from
    /// [`ParticleContacts::gather`]): the same sum, to the bit.
    pub fn push_among(&self, k: usize, list: &[u32], inv_mass: &[f32], radius: &[f32]) -> Vec3 {
        if !self.pushed(k, inv_mass) {
            return Vec3::ZERO;
        }
        let mut pushes = (list.iter())
            .filter_map(|&j| Some((j, self.push_from(k, j as usize, inv_mass, radius)?)));
        // None or one (most entries): no order to restore, and no table
        // to clear (clearing it was 3% of a pile of two sheets).
        let Some(first) = pushes.next() else {
            return Vec3::ZERO;
        };
        let Some(second) = pushes.next() else {
            return Vec3::ZERO + first.1;
        };
        // The walk's order: cell (x, y, z), then entry. A list holds at
        // most LISTED entries, so they all fit.
        let mut found = [([0i32; 3], 0u32, Vec3::ZERO); LISTED];
        let mut n = 0;
        for (j, p) in [first, second].into_iter().chain(pushes) {
            found[n] = (self.grid.cell_at(self.pos[j as usize]), j, p);
            n += 1;
        }
        // An insertion sort: a handful of pushes, and the slice's sort
        // for up to LISTED of them (past its small-sort's 20) put 6 KB
        // into the browser's wasm.
        let found = &mut found[..n];
        for i in 1..n {
            let mut k = i;
            while k > 0 && (found[k - 1].0, found[k - 1].1) > (found[k].0, found[k].1) {
                found.swap(k - 1, k);
                k -= 1;
            }
        }
        found.iter().fold(Vec3::ZERO, |push, &(.., p)| push + p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The radius of the four particles of [`two_bodies`]: contact
    /// distance and cell 0.02.
    const RADIUS: [f32; 4] = [0.01; 4];

    /// Two bodies, each of two particles 5 cm apart in z (returned),
    /// colliding with each other; body 0 self-collides when `self_on`.
    fn two_bodies(self_on: bool) -> (ParticleContacts, Vec3) {
        let mut pc = ParticleContacts::default();
        let z = Vec3::new(0.0, 0.0, 0.05);
        pc.set_rest_shape(0, 0, vec![Vec3::ZERO, z]);
        pc.set_rest_shape(1, 2, vec![Vec3::ZERO, z]);
        pc.set_enabled(0, self_on, &RADIUS);
        pc.set_between_bodies(true, &RADIUS);
        (pc, z)
    }

    #[test]
    fn an_entry_that_nears_another_body_while_the_lists_hold_does_not_walk_the_hash() {
        // The two bodies 0.03 apart in x: no entry can touch the other
        // body. Body 0 self-collides, so the substeps are never idle.
        let (radius, inv_mass) = (RADIUS, [1.0; 4]);
        let (mut pc, z) = two_bodies(true);
        // Body 0 at x = a, body 1 at x = b.
        let at = |a: f32, b: f32| vec![Vec3::X * a, Vec3::X * a + z, Vec3::X * b, Vec3::X * b + z];
        let substep = |pc: &mut ParticleContacts, now: Vec<Vec3>, step: Vec3| {
            pc.pos.copy_from_slice(&now);
            let from = |i: usize| now[i] - step;
            let measured = pc.measure(0..4, from);
            assert!(!pc.bound());
            pc.build(measured, from, &inv_mass);
        };
        // A substep whose largest move is 1 mm gathers lists with a margin
        // M of 8 mm (`anchors::SPAN`).
        substep(&mut pc, at(0.0, 0.03), Vec3::X * 0.001);
        assert!(pc.anchors.regather && pc.sorted);
        assert!((pc.anchors.margin - 0.008).abs() < 1e-6);
        for k in 0..4 {
            let mut out = [0; LISTED];
            pc.listed[k] = pc.gather(k, &mut out, &inv_mass, &radius);
            assert_ne!(pc.listed[k], UNLISTED, "entry {k} may near the other body");
        }
        // Each body moves 6 mm toward the other (less than M from their
        // anchors): every entry is now within the contact distance of the
        // other body's box, and the lists still hold, so no entry walks
        // the hash (before, an entry unlisted at the gathering did, and
        // the hash was sorted every substep for it).
        substep(&mut pc, at(0.006, 0.024), Vec3::X * 0.0005);
        assert!(!pc.anchors.regather && pc.anchors.listing);
        assert!((0..4).all(|k| pc.pushed(k, &inv_mass)));
        assert!(!pc.sorted, "the hash was walked");
    }

    #[test]
    fn bodies_farther_apart_than_the_cell_push_nothing_and_skip_the_lists() {
        // The two bodies moved toward each other along x and y: a substep
        // is idle exactly when no entry is near the other body, whatever
        // the axis.
        let inv_mass = [1.0; 4];
        let (mut pc, z) = two_bodies(false);
        let mut idle_seen = [false; 2];
        for step in 0..80 {
            let gap = 0.06 - 0.001 * step as f32;
            let d = if step % 2 == 0 { Vec3::X } else { Vec3::Y } * gap;
            let now = [Vec3::ZERO, z, d, d + z];
            pc.pos.copy_from_slice(&now);
            let from = |i: usize| now[i];
            if !pc.bound() {
                pc.build(pc.measure(0..4, from), from, &inv_mass);
            }
            let near = (0..4).any(|k| pc.near_another_body(k, 0.0));
            assert_eq!(pc.idle, !near, "gap {gap}");
            idle_seen[usize::from(pc.idle)] = true;
            if pc.idle {
                assert!(!pc.anchors.listing && !pc.anchors.regather && !pc.sorted);
            }
        }
        assert_eq!(idle_seen, [true; 2]);
        // A NaN position is never idle (its entry is near every box).
        let nan = [Vec3::ZERO, z, Vec3::X, Vec3::NAN];
        pc.pos.copy_from_slice(&nan);
        assert!(!pc.bound());
        // Nor is a substep where a body self-collides.
        pc.set_enabled(0, true, &RADIUS);
        let far = [Vec3::ZERO, z, Vec3::X, Vec3::X + z];
        pc.pos.copy_from_slice(&far);
        assert!(!pc.bound());
    }
}
