//! What tearing and splitting do to the distance constraints: tear
//! limits, finding the links over them, breaking links, and moving or
//! duplicating a link's end onto a split particle's copy (see
//! `solver::split`); and the colour mask the four-particle constraints
//! share.

use glam::Vec3;

use super::{Batch, DistanceConstraints, LinkKind, OVERFLOW, Tag};

/// A tear limit: a strain, or a force in newtons.
#[derive(Clone, Copy)]
enum Limit {
    Strain(f32),
    Force(f32),
}

impl DistanceConstraints {
    /// Gives every constraint of `body` but its joins a tear force (N):
    /// it breaks when its tension averaged over a frame exceeds it.
    pub fn set_tear_force(&mut self, body: usize, force: f32) {
        self.set_tear_where(Limit::Force(force), |t, _, _| {
            t.body as usize == body && t.kind != LinkKind::Join
        });
    }

    /// Gives every constraint of `body` but its joins a tear strain: it
    /// breaks when stretched past it.
    pub fn set_tear_strain(&mut self, body: usize, strain: f32) {
        self.set_tear_where(Limit::Strain(strain), |t, _, _| {
            t.body as usize == body && t.kind != LinkKind::Join
        });
    }

    /// Gives the constraint between particles `a` and `b` a tear force (N).
    pub fn set_link_tear_force(&mut self, a: usize, b: usize, force: f32) {
        let pair = (a.min(b) as u32, a.max(b) as u32);
        self.set_tear_where(Limit::Force(force), |_, p, q| (p.min(q), p.max(q)) == pair);
    }

    /// Sets `limit` on the constraints `pick` chooses (by tag and ends).
    fn set_tear_where(&mut self, limit: Limit, pick: impl Fn(&Tag, u32, u32) -> bool) {
        let mut added = 0;
        for batch in &mut self.batches {
            for i in 0..batch.len() {
                if pick(&batch.tag[i], batch.a[i], batch.b[i]) {
                    let untearable =
                        batch.tear_strain[i].is_infinite() && batch.tear_force[i].is_infinite();
                    added += usize::from(untearable);
                    match limit {
                        Limit::Strain(s) => batch.tear_strain[i] = s,
                        Limit::Force(f) => batch.tear_force[i] = f,
                    }
                }
            }
        }
        let (Limit::Strain(v) | Limit::Force(v)) = limit;
        if v.is_finite() && added > 0 {
            self.can_tear = true;
            self.tearable += added;
            self.broken.reserve(self.tearable - self.broken.len());
        }
    }

    /// The lowest colour free at every particle of `ps`; [`MAX_COLOURS`](super::MAX_COLOURS)
    /// when none is.
    pub(crate) fn free_colour(&self, ps: &[usize]) -> usize {
        let used = ps.iter().fold(0u64, |m, &i| {
            m | self.colour_mask.get(i).copied().unwrap_or(0)
        });
        ((!used).trailing_zeros() as usize).min(OVERFLOW)
    }

    /// Marks colour `colour` (< [`MAX_COLOURS`](super::MAX_COLOURS)) taken or free at the
    /// particles `ps`, for a constraint of another store (`Quads`).
    pub(crate) fn mark_colour(&mut self, ps: &[usize], colour: usize, taken: bool) {
        debug_assert!(colour < OVERFLOW);
        for &i in ps {
            if self.colour_mask.len() <= i {
                self.colour_mask.resize(i + 1, 0);
            }
            debug_assert_eq!(self.colour_mask[i] >> colour & 1 == 1, !taken);
            if taken {
                self.colour_mask[i] |= 1 << colour;
            } else {
                self.colour_mask[i] &= !(1u64 << colour);
            }
        }
    }

    /// Appends to `out` the particle pairs of every constraint stretched
    /// past its tear strain at the end of the frame, or pulling harder
    /// than its tear force on average over the frame of `substeps`
    /// substeps of length `h` just solved, colour by colour.
    ///
    /// The tension judged is F̄ = −Σλ/(h²·substeps), the impulse the
    /// link passed in the frame over the frame's length: a yank or a
    /// landing stopped within one substep passes m·Δv in that substep, so
    /// one substep's |λ|/h² is m·Δv/h and grows with the substeps, where
    /// F̄ = m·Δv/Δt does not. Only a pull tears (λ < 0 stretches): a
    /// link pushed together, as a sheet that lands on its edge pushes
    /// its upright links, does not, as `tear_strain` judges stretch only.
    pub(crate) fn overstressed(
        &self,
        pos: &[Vec3],
        h: f32,
        substeps: u32,
        out: &mut Vec<(u32, u32)>,
    ) {
        if !self.can_tear {
            return;
        }
        let per_force = 1.0 / (h * h * substeps as f32);
        for batch in &self.batches {
            for i in 0..batch.len() {
                let rest = batch.rest[i].abs();
                let len = pos[batch.a[i] as usize].distance(pos[batch.b[i] as usize]);
                let stretched = rest > 0.0 && (len - rest) / rest > batch.tear_strain[i];
                if stretched || -batch.impulse[i] * per_force > batch.tear_force[i] {
                    out.push((batch.a[i], batch.b[i]));
                }
            }
        }
    }

    /// (colour, index) of the constraint between particles `a` and `b`
    /// (either order).
    pub(crate) fn find(&self, a: usize, b: usize) -> Option<(usize, usize)> {
        let pair = (a.min(b) as u32, a.max(b) as u32);
        self.batches.iter().enumerate().find_map(|(colour, batch)| {
            (0..batch.len())
                .find(|&i| (batch.a[i].min(batch.b[i]), batch.a[i].max(batch.b[i])) == pair)
                .map(|i| (colour, i))
        })
    }

    /// Puts (colour, index, other end, tag) of every constraint of
    /// particle `p` in `found`.
    pub(crate) fn at(&self, p: usize, found: &mut Vec<(usize, usize, usize, Tag)>) {
        let p = p as u32;
        found.clear();
        for (colour, batch) in self.batches.iter().enumerate() {
            for i in 0..batch.len() {
                if batch.a[i] == p || batch.b[i] == p {
                    let other = batch.a[i] ^ batch.b[i] ^ p;
                    found.push((colour, i, other as usize, batch.tag[i]));
                }
            }
        }
    }

    /// Makes room for `particles` particles and `links` more constraints
    /// in every colour, so that splitting particles — which renames and
    /// duplicates links and records broken ones — allocates nothing.
    pub(crate) fn reserve_for_splits(&mut self, particles: usize, links: usize) {
        if self.colour_mask.len() < particles {
            self.colour_mask.resize(particles, 0);
        }
        // Copies' duplicates may need a few colours more.
        let colours = (self.batches.len() + 4).min(OVERFLOW);
        if self.batches.len() < colours {
            self.batches.resize_with(colours, Batch::default);
        }
        for b in &mut self.batches {
            b.a.reserve(links);
            b.b.reserve(links);
            b.rest.reserve(links);
            b.compliance.reserve(links);
            b.tear_strain.reserve(links);
            b.tear_force.reserve(links);
            b.tag.reserve(links);
            b.lambda.reserve(links);
            b.impulse.reserve(links);
            b.alpha_t.reserve(links);
            b.inv_denom.reserve(links);
            b.damp.reserve(links);
        }
        self.broken.reserve(self.tearable + links);
    }

    /// Constraints ever given a finite tear strain or force.
    pub(crate) fn tearable(&self) -> usize {
        self.tearable
    }

    /// Moves the end `from` of constraint (`colour`, `i`) to particle
    /// `to`, which has no constraint of that colour: a split particle's
    /// copy takes over the link, in the same colour.
    pub(crate) fn rename(&mut self, (colour, i): (usize, usize), from: usize, to: usize) {
        let batch = &mut self.batches[colour];
        let end = if batch.a[i] as usize == from {
            &mut batch.a[i]
        } else {
            &mut batch.b[i]
        };
        debug_assert_eq!(*end as usize, from);
        *end = to as u32;
        if self.colour_mask.len() <= to {
            self.colour_mask.resize(to + 1, 0);
        }
        if colour < OVERFLOW {
            self.colour_mask[from] &= !(1u64 << colour);
            debug_assert_eq!(self.colour_mask[to] & (1 << colour), 0);
            self.colour_mask[to] |= 1 << colour;
        }
        self.prepared_for = None;
    }

    /// Adds a copy of constraint (`colour`, `i`) with its end `from` at
    /// particle `to` instead, in the lowest colour free at both ends:
    /// both sides of a cut edge keep a link.
    pub(crate) fn duplicate(&mut self, (colour, i): (usize, usize), from: usize, to: usize) {
        let batch = &self.batches[colour];
        let other = (batch.a[i] ^ batch.b[i]) as usize ^ from;
        let (rest, compliance, strain, force, tag) = (
            batch.rest[i],
            batch.compliance[i],
            batch.tear_strain[i],
            batch.tear_force[i],
            batch.tag[i],
        );
        self.insert(to, other, rest, compliance, strain, tag);
        if force.is_finite() {
            self.set_link_tear_force(to, other, force);
        }
    }

    /// Removes constraint (`colour`, `i`), recording it as broken.
    pub(crate) fn remove_at(&mut self, (colour, i): (usize, usize)) {
        self.remove(colour, i);
        self.prepared_for = None;
    }

    /// The particle pairs (world indices) of the constraints that broke, in
    /// the order they broke.
    pub fn broken(&self) -> &[(u32, u32)] {
        &self.broken
    }

    /// Breaks one constraint between particles `a` and `b` (either order),
    /// as tearing would; false when there is none.
    pub fn break_link(&mut self, a: usize, b: usize) -> bool {
        let found = self.find(a, b);
        if let Some(at) = found {
            self.remove_at(at);
        }
        found.is_some()
    }
}
