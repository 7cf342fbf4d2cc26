//! Distance constraints C = |x_a − x_b| − L, stored flat and grouped by colour.
//!
//! A *colour* (batch) holds constraints that share no particle, so the
//! constraints of one colour can be projected in any order — or in
//! parallel — with the same result. Colours are assigned greedily when a
//! constraint is added: the lowest colour free at both of its particles,
//! except for a join between bodies, which takes the colour after the
//! last one either particle has (see [`DistanceConstraints::add`]).
//! Particles with more than [`MAX_COLOURS`] constraints spill into one
//! extra batch that is always solved sequentially, so any graph works.

use glam::Vec3;

use super::exec::{RawBatch, Shared};

mod tear;

/// Colours that share no particle; one more batch holds the overflow.
pub const MAX_COLOURS: usize = 63;
/// Index of the sequential overflow batch.
const OVERFLOW: usize = MAX_COLOURS;

/// What a constraint stands for, so compliance can be edited per body and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LinkKind {
    /// Rope links, cloth structural edges, mesh links.
    Stretch,
    /// Cloth diagonals.
    Shear,
    /// Distance across two links (rope) or two cells (cloth).
    Bend,
    /// A link between particles of two bodies (a scene's `joins`); its
    /// tag's body is the body of its first end.
    Join,
}

/// Which body and kind a constraint belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    /// Index of the body in the world (and in the scene's `bodies`).
    pub body: u32,
    /// What the constraint models.
    pub kind: LinkKind,
}

impl Tag {
    /// The tag of `kind` constraints of body `body`.
    pub fn new(body: usize, kind: LinkKind) -> Self {
        Self {
            body: body as u32,
            kind,
        }
    }
}

/// One colour of constraints, structure-of-arrays.
#[derive(Clone, Debug, Default)]
pub(crate) struct Batch {
    pub a: Vec<u32>,
    pub b: Vec<u32>,
    /// Rest length L (m), negative for a link that holds only tension
    /// (−L: see [`DistanceConstraints::add_tension_only`]).
    pub rest: Vec<f32>,
    /// Compliance α (m/N); 0 = rigid.
    pub compliance: Vec<f32>,
    /// Strain (|x_a − x_b| − L)/L past which the constraint breaks; ∞ = never.
    pub tear_strain: Vec<f32>,
    /// Tension (N), averaged over a frame, past which the constraint
    /// breaks; ∞ = never.
    pub tear_force: Vec<f32>,
    pub tag: Vec<Tag>,
    /// Lagrange multiplier λ of the current substep (N·s²).
    pub lambda: Vec<f32>,
    /// Σλ over the frame's substeps so far (N·s²), kept only in a world
    /// that can tear: Σλ/(h·Δt) is the tension averaged over the frame,
    /// which converges as h → 0 where one substep's |λ|/h² does not.
    pub impulse: Vec<f32>,
    /// Per-step cache: α̃ = α/h².
    pub alpha_t: Vec<f32>,
    /// Per-step cache: 1/(w_a + w_b + α̃), 0 when that is not finite.
    pub inv_denom: Vec<f32>,
    /// Per-step cache: the dashpot factor β·h/(1 + β(w_a + w_b)h) (s/kg · kg = s).
    pub damp: Vec<f32>,
    /// How many of its links hold only tension (negative `rest`): the
    /// kernel checks for slack only in batches that have some.
    pub tension_only: usize,
}

impl Batch {
    fn push(&mut self, a: u32, b: u32, rest: f32, compliance: f32, tear: f32, tag: Tag) {
        self.tension_only += (rest < 0.0) as usize;
        self.a.push(a);
        self.b.push(b);
        self.rest.push(rest);
        self.compliance.push(compliance);
        self.tear_strain.push(tear);
        self.tear_force.push(f32::INFINITY);
        self.tag.push(tag);
        self.lambda.push(0.0);
        self.impulse.push(0.0);
        self.alpha_t.push(0.0);
        self.inv_denom.push(0.0);
        self.damp.push(0.0);
    }

    fn swap_remove(&mut self, i: usize) {
        self.tension_only -= (self.rest[i] < 0.0) as usize;
        self.a.swap_remove(i);
        self.b.swap_remove(i);
        self.rest.swap_remove(i);
        self.compliance.swap_remove(i);
        self.tear_strain.swap_remove(i);
        self.tear_force.swap_remove(i);
        self.tag.swap_remove(i);
        self.lambda.swap_remove(i);
        self.impulse.swap_remove(i);
        self.alpha_t.swap_remove(i);
        self.inv_denom.swap_remove(i);
        self.damp.swap_remove(i);
    }

    pub fn len(&self) -> usize {
        self.a.len()
    }
}

/// All distance constraints of a world, grouped by colour.
#[derive(Clone, Debug, Default)]
pub struct DistanceConstraints {
    pub(crate) batches: Vec<Batch>,
    /// Per particle: bit c is set when the particle has a constraint of
    /// colour c — a link here or a four-particle constraint in `Quads`,
    /// which share the colours (see `World::add_quad`).
    colour_mask: Vec<u64>,
    /// True when some constraint can tear (skips the tearing pass otherwise).
    can_tear: bool,
    /// (h, β, XPBD?) the per-step caches were filled for; None = stale.
    prepared_for: Option<(u32, u32, bool)>,
    /// Particle pairs of the constraints that broke, in order; its
    /// capacity covers every tearable constraint, so tearing in a step
    /// never allocates.
    broken: Vec<(u32, u32)>,
    /// Constraints ever given a finite tear strain or force.
    tearable: usize,
}

/// A read-only view of one constraint, for drawing and statistics.
#[derive(Clone, Copy, Debug)]
pub struct LinkView {
    /// First particle.
    pub a: usize,
    /// Second particle.
    pub b: usize,
    /// Rest length (m).
    pub rest: f32,
    /// True for a link that holds only tension (a balloon's skin: slack when shorter than its rest length).
    pub tension_only: bool,
    /// Compliance (m/N).
    pub compliance: f32,
    /// λ of the last substep (N·s²).
    pub lambda: f32,
    /// Body and kind.
    pub tag: Tag,
}

impl LinkView {
    /// Strain (|x_a − x_b| − L)/L at positions `pos` (dimensionless); 0 for L = 0.
    pub fn strain(&self, pos: &[Vec3]) -> f32 {
        if self.rest > 0.0 {
            (pos[self.a].distance(pos[self.b]) - self.rest) / self.rest
        } else {
            0.0
        }
    }
}

impl DistanceConstraints {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.batches.iter().map(Batch::len).sum()
    }

    /// True when there are no constraints.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True when the per-step caches must be refilled for substep `h`,
    /// damping β and method; remembers that they will be.
    pub(crate) fn needs_prepare(&mut self, h: f32, damping: f32, xpbd: bool) -> bool {
        let key = Some((h.to_bits(), damping.to_bits(), xpbd));
        let stale = self.prepared_for != key;
        self.prepared_for = key;
        stale
    }

    /// Marks the per-step caches stale (an inverse mass changed).
    pub(crate) fn invalidate(&mut self) {
        self.prepared_for = None;
    }

    /// One more than the highest particle index any distance or
    /// four-particle constraint names (or more): the particles a world
    /// must have for its constraints to be solved.
    pub fn particles_named(&self) -> usize {
        // Every add, rename and four-particle constraint grows the colour
        // mask to cover the particles it names.
        self.colour_mask.len()
    }

    /// True when some constraint has a finite tear strain.
    pub fn can_tear(&self) -> bool {
        self.can_tear
    }

    /// Number of non-empty colours (the overflow batch counts as one).
    pub fn colour_count(&self) -> usize {
        self.batches.iter().filter(|b| b.len() > 0).count()
    }

    /// Adds a constraint between particles `a` and `b` in the lowest free
    /// colour, or a join after its ends' last colour (from outside the
    /// crate: [`crate::World::add_link`], which checks the indices
    /// against the world's particles).
    pub(crate) fn add(
        &mut self,
        a: usize,
        b: usize,
        rest: f32,
        compliance: f32,
        tear: f32,
        tag: Tag,
    ) {
        debug_assert!(rest >= 0.0);
        self.insert(a, b, rest, compliance, tear, tag);
    }

    /// [`Self::add`] for a link that pulls its ends together when longer
    /// than `rest` and lets them close in freely: a membrane that wrinkles
    /// instead of carrying compression (a balloon's skin). The kernel
    /// reads it as rest length −`rest`.
    pub(crate) fn add_tension_only(
        &mut self,
        a: usize,
        b: usize,
        rest: f32,
        compliance: f32,
        tag: Tag,
    ) {
        // (A zero rest length stays 0, not −0: a link like any other.)
        debug_assert!(rest >= 0.0);
        self.insert(
            a,
            b,
            if rest > 0.0 { -rest } else { 0.0 },
            compliance,
            f32::INFINITY,
            tag,
        );
    }

    /// [`Self::add`] with the signed rest length of the kernel's column.
    fn insert(&mut self, a: usize, b: usize, rest: f32, compliance: f32, tear: f32, tag: Tag) {
        debug_assert!(a != b && compliance >= 0.0);
        let need = a.max(b) + 1;
        if self.colour_mask.len() < need {
            self.colour_mask.resize(need, 0);
        }
        let used = self.colour_mask[a] | self.colour_mask[b];
        let colour = if tag.kind == LinkKind::Join {
            // After every colour its ends have (their bodies' links and
            // hinges), so nothing of either body moves them once it is
            // solved: a rigid join pulled on afterwards by a light end's
            // own constraints stretched as if its compliance were that
            // end's w·h² (`balloon_on_string`'s, 5-11 % under the
            // balloon's weight, its hinges moving its top vertex last).
            (u64::BITS - used.leading_zeros()) as usize
        } else {
            (!used).trailing_zeros() as usize
        }
        .min(OVERFLOW);
        if colour < OVERFLOW {
            self.colour_mask[a] |= 1 << colour;
            self.colour_mask[b] |= 1 << colour;
        }
        if self.batches.len() <= colour {
            self.batches.resize_with(colour + 1, Batch::default);
        }
        self.batches[colour].push(a as u32, b as u32, rest, compliance, tear, tag);
        if tear.is_finite() {
            self.can_tear = true;
            self.tearable += 1;
            // Room for every tearable constraint to break without allocating.
            self.broken.reserve(self.tearable - self.broken.len());
        }
        self.prepared_for = None;
    }

    /// Orders each colour by its constraints' first particle, so a thread's
    /// share of a colour touches one contiguous region of the particles
    /// (the same region as its share of the particle phases) and memory is
    /// walked in order. Call after building; order inside a colour does not
    /// change results.
    pub fn sort_colours(&mut self) {
        self.prepared_for = None;
        for batch in &mut self.batches {
            let mut order: Vec<usize> = (0..batch.len()).collect();
            order.sort_by_key(|&i| (batch.a[i].min(batch.b[i]), batch.a[i].max(batch.b[i])));
            let old = std::mem::take(batch);
            for i in order {
                batch.push(
                    old.a[i],
                    old.b[i],
                    old.rest[i],
                    old.compliance[i],
                    old.tear_strain[i],
                    old.tag[i],
                );
                *batch.tear_force.last_mut().expect("just pushed") = old.tear_force[i];
            }
        }
    }

    /// Removes constraint `i` of colour `colour` (order inside a colour is
    /// free) and records it as broken.
    fn remove(&mut self, colour: usize, i: usize) {
        let batch = &mut self.batches[colour];
        self.broken.push((batch.a[i], batch.b[i]));
        if colour < OVERFLOW {
            let bit = !(1u64 << colour);
            self.colour_mask[batch.a[i] as usize] &= bit;
            self.colour_mask[batch.b[i] as usize] &= bit;
        }
        batch.swap_remove(i);
    }

    /// Raw views of every batch, for one step (`out` is reused).
    pub(crate) fn raw(&mut self, out: &mut Vec<RawBatch>) {
        out.clear();
        for (colour, b) in self.batches.iter_mut().enumerate() {
            out.push(RawBatch {
                len: b.len(),
                a: Shared::new(&mut b.a),
                b: Shared::new(&mut b.b),
                rest: Shared::new(&mut b.rest),
                compliance: Shared::new(&mut b.compliance),
                lambda: Shared::new(&mut b.lambda),
                impulse: Shared::new(&mut b.impulse),
                alpha_t: Shared::new(&mut b.alpha_t),
                inv_denom: Shared::new(&mut b.inv_denom),
                damp: Shared::new(&mut b.damp),
                sequential: colour == OVERFLOW,
                slack: b.tension_only > 0,
                tally: self.can_tear,
                simd: true,
            });
        }
    }

    /// Every constraint with its colour, colour by colour.
    pub(crate) fn iter_coloured(&self) -> impl Iterator<Item = (usize, LinkView)> + '_ {
        (self.batches.iter().enumerate()).flat_map(|(c, b)| {
            (0..b.len()).map(move |i| {
                let view = LinkView {
                    a: b.a[i] as usize,
                    b: b.b[i] as usize,
                    rest: b.rest[i].abs(),
                    tension_only: b.rest[i] < 0.0,
                    compliance: b.compliance[i],
                    lambda: b.lambda[i],
                    tag: b.tag[i],
                };
                (c, view)
            })
        })
    }

    /// Every constraint, colour by colour.
    pub fn iter(&self) -> impl Iterator<Item = LinkView> + '_ {
        self.iter_coloured().map(|(_, view)| view)
    }

    /// Sets the compliance (m/N) of the constraint between particles `a`
    /// and `b` (either order); false when there is none.
    pub fn set_link_compliance(&mut self, a: usize, b: usize, compliance: f32) -> bool {
        let pair = (a.min(b) as u32, a.max(b) as u32);
        for batch in &mut self.batches {
            if let Some(i) = (0..batch.len())
                .find(|&i| (batch.a[i].min(batch.b[i]), batch.a[i].max(batch.b[i])) == pair)
            {
                batch.compliance[i] = compliance;
                self.prepared_for = None;
                return true;
            }
        }
        false
    }

    /// The compliance (m/N) of the constraint between particles `a` and `b`.
    pub fn link_compliance(&self, a: usize, b: usize) -> Option<f32> {
        let pair = (a.min(b), a.max(b));
        self.iter()
            .find(|l| (l.a.min(l.b), l.a.max(l.b)) == pair)
            .map(|l| l.compliance)
    }

    /// Sets the compliance (m/N) of every constraint of `body` and `kind`.
    pub fn set_compliance(&mut self, body: usize, kind: LinkKind, compliance: f32) {
        self.edit_compliances(body, kind, |c| *c = compliance);
    }

    /// Multiplies the compliance (m/N) of every constraint of `body` and
    /// `kind` by `factor` (≥ 0), so links that differ keep their ratios.
    pub fn scale_compliance(&mut self, body: usize, kind: LinkKind, factor: f32) {
        debug_assert!(factor >= 0.0 && factor.is_finite());
        self.edit_compliances(body, kind, |c| *c *= factor);
    }

    /// Multiplies the rest length of every constraint of `body` and `kind`
    /// by `factor` (> 0; a tension-only link stays one): a balloon's skin
    /// follows its gas under pressure 1 (`World::set_pressure`).
    pub(crate) fn scale_rest(&mut self, body: usize, kind: LinkKind, factor: f32) {
        debug_assert!(factor > 0.0 && factor.is_finite());
        let tag = Tag::new(body, kind);
        for batch in &mut self.batches {
            for (rest, t) in batch.rest.iter_mut().zip(&batch.tag) {
                if *t == tag {
                    *rest *= factor;
                }
            }
        }
    }

    /// Applies `edit` to the compliance of every constraint of `body` and
    /// `kind`; the cached denominators are refilled at the next step.
    fn edit_compliances(&mut self, body: usize, kind: LinkKind, mut edit: impl FnMut(&mut f32)) {
        self.prepared_for = None;
        let tag = Tag::new(body, kind);
        for batch in &mut self.batches {
            for (c, t) in batch.compliance.iter_mut().zip(&batch.tag) {
                if *t == tag {
                    edit(c);
                }
            }
        }
    }

    /// The smallest and largest compliance of the constraints of `body`
    /// and `kind`, if it has any.
    pub fn compliance_range(&self, body: usize, kind: LinkKind) -> Option<(f32, f32)> {
        let tag = Tag::new(body, kind);
        self.batches
            .iter()
            .flat_map(|b| b.tag.iter().zip(&b.compliance))
            .filter(|(t, _)| **t == tag)
            .map(|(_, &c)| (c, c))
            .reduce(|(lo, hi), (c, _)| (lo.min(c), hi.max(c)))
    }

    /// The compliance of the first constraint of `body` and `kind`, if any.
    pub fn compliance(&self, body: usize, kind: LinkKind) -> Option<f32> {
        let tag = Tag::new(body, kind);
        self.batches.iter().find_map(|b| {
            let i = b.tag.iter().position(|t| *t == tag)?;
            Some(b.compliance[i])
        })
    }

    /// Puts (other end, rest length) of every rigid link (compliance 0)
    /// of particle `p` in `out`, after clearing it.
    pub(crate) fn rigid_links_of(&self, p: usize, out: &mut Vec<(u32, f32)>) {
        let p = p as u32;
        out.clear();
        for batch in &self.batches {
            for i in 0..batch.len() {
                if (batch.a[i] == p || batch.b[i] == p) && batch.compliance[i] == 0.0 {
                    out.push((batch.a[i] ^ batch.b[i] ^ p, batch.rest[i].abs()));
                }
            }
        }
    }

    /// Puts (colour, index, end) of every join with an end among
    /// particles `body` in `out`, after clearing it (both ends, when both
    /// are).
    pub(crate) fn joins_into(&self, body: std::ops::Range<usize>, out: &mut Vec<[u32; 3]>) {
        out.clear();
        for (colour, batch) in self.batches.iter().enumerate() {
            for i in (0..batch.len()).filter(|&i| batch.tag[i].kind == LinkKind::Join) {
                for end in [batch.a[i], batch.b[i]] {
                    if body.contains(&(end as usize)) {
                        out.push([colour as u32, i as u32, end]);
                    }
                }
            }
        }
    }

    /// Every rigid link that cannot tear, as (a, b, rest length): what
    /// the hand's reach follows (`solver::hand`).
    pub(crate) fn bonds(&self) -> impl Iterator<Item = (u32, u32, f32)> + Clone + '_ {
        self.batches.iter().flat_map(|b| {
            (0..b.len())
                .filter(|&i| {
                    b.compliance[i] == 0.0
                        && b.tear_strain[i] == f32::INFINITY
                        && b.tear_force[i] == f32::INFINITY
                })
                .map(|i| (b.a[i], b.b[i], b.rest[i].abs()))
        })
    }

    /// True when no colour (but the overflow) holds a particle twice.
    pub fn colouring_is_valid(&self, particles: usize) -> bool {
        let mut seen = vec![usize::MAX; particles];
        self.batches
            .iter()
            .enumerate()
            .take(OVERFLOW)
            .all(|(colour, batch)| {
                batch.a.iter().chain(&batch.b).all(|&p| {
                    let fresh = seen[p as usize] != colour;
                    seen[p as usize] = colour;
                    fresh
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: Tag = Tag {
        body: 0,
        kind: LinkKind::Stretch,
    };

    #[test]
    fn a_chain_needs_two_colours_and_a_star_spills_into_overflow() {
        let mut chain = DistanceConstraints::default();
        for i in 0..10 {
            chain.add(i, i + 1, 1.0, 0.0, f32::INFINITY, TAG);
        }
        assert_eq!(chain.colour_count(), 2);
        assert!(chain.colouring_is_valid(11));

        let mut star = DistanceConstraints::default();
        for i in 1..=100 {
            star.add(0, i, 1.0, 0.0, f32::INFINITY, TAG);
        }
        assert_eq!(star.len(), 100);
        assert_eq!(star.batches[OVERFLOW].len(), 100 - MAX_COLOURS);
        assert!(star.colouring_is_valid(101));
    }

    #[test]
    fn removing_frees_the_colour_for_the_next_constraint() {
        let mut c = DistanceConstraints::default();
        c.add(0, 1, 1.0, 0.0, 0.5, TAG);
        c.add(1, 2, 1.0, 0.0, 0.5, TAG);
        let pos = [Vec3::ZERO, Vec3::X * 3.0, Vec3::X * 4.0];
        let mut over = Vec::new();
        c.overstressed(&pos, 1.0, 1, &mut over);
        assert_eq!(over, [(0, 1)], "only the first link is stretched 200%");
        assert!(c.break_link(0, 1));
        c.add(0, 3, 1.0, 0.0, 0.5, TAG);
        assert!(c.colouring_is_valid(4));
        assert_eq!(c.len(), 2);
    }
}
