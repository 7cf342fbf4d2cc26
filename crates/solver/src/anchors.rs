//! Anchors for lists kept across substeps: the contacts' broad phase
//! (`sheets::cached`, `contacts`).
//!
//! A list of what a particle could touch, gathered with a margin M, holds
//! while nothing has strayed more than M from where it was when the lists
//! were gathered (its *anchor*). Each substep [`Anchors::measure`] finds
//! the largest stray (each thread over its share of the points, combined
//! by `exec::pool::Team::max_all`) and [`Anchors::decide`] judges it:
//! past M every list is gathered again that substep,
//! with M = [`SPAN`] × the substep's largest move (at least a floor the
//! caller gives). A margin grown for a fast fall is narrowed once it is
//! [`NARROW`] × what the moves call for, since its lists grow long.

use glam::Vec3;

/// The margin, in substeps' largest moves.
const SPAN: f32 = 8.0;

/// A margin this many times what the substep's moves call for is
/// narrowed.
const NARROW: f32 = 4.0;

/// Running maxima in [`Anchors::measure`].
const LANES: usize = 8;

/// Where each tracked point was when the lists were gathered.
#[derive(Clone, Debug, Default)]
pub(crate) struct Anchors {
    /// Per index: its anchor.
    pub at: Vec<Vec3>,
    /// How far a point may stray from its anchor (m).
    pub margin: f32,
    /// The largest move in the substep the lists were gathered (m).
    pub step: f32,
    /// This substep gathers every list afresh.
    pub regather: bool,
    /// The lists are in use; false while things move so fast that the
    /// margin would pass its ceiling (every search walks the hash then).
    pub listing: bool,
    /// False until the first gathering, and after the lists were resized.
    valid: bool,
    /// No lists are kept (every search walks the hash).
    off: bool,
}

impl Anchors {
    /// Anchors for `n` indices; the lists are gathered at the first check.
    pub fn new(n: usize) -> Self {
        Self {
            at: vec![Vec3::ZERO; n],
            ..Self::default()
        }
    }

    /// Room for `n` indices; the lists are gathered again.
    pub fn fit(&mut self, n: usize) {
        self.at.resize(n, Vec3::ZERO);
        self.valid = false;
    }

    /// No list is in use this substep, and the next one that looks for
    /// contacts gathers them afresh.
    pub fn forget(&mut self) {
        (self.regather, self.listing, self.valid) = (false, false, false);
    }

    /// Whether lists are kept.
    pub fn enabled(&self) -> bool {
        !self.off
    }

    /// Keeps lists (on) or not (off); on, they are gathered again.
    pub fn set_enabled(&mut self, on: bool) {
        self.off = !on;
        self.valid = false;
    }

    /// The largest squared move in the substep of `points` — each tracked
    /// index with where it started the substep and where it is now — and
    /// their largest squared distance from their anchors: for a share of
    /// the points, whose maxima with the other shares'
    /// [`Anchors::decide`] takes.
    pub fn measure(&self, points: impl Iterator<Item = (usize, Vec3, Vec3)>) -> [f32; 2] {
        // Eight running maxima each, so that the maxima of consecutive
        // points do not wait for one another (the same result: a max
        // does not depend on the order).
        let (mut steps, mut drifts) = ([0f32; LANES], [0f32; LANES]);
        for (k, (i, from, now)) in points.enumerate() {
            let (a, l) = (self.at[i], k % LANES);
            steps[l] = steps[l].max(from.distance_squared(now));
            drifts[l] = drifts[l]
                .max(from.distance_squared(a))
                .max(now.distance_squared(a));
        }
        let most = |m: [f32; LANES]| m.into_iter().fold(0f32, f32::max);
        [most(steps), most(drifts)]
    }

    /// Decides, once a substep before the search, whether the lists still
    /// hold, from the maxima [`Anchors::measure`] found over every tracked
    /// point. When not, each of `starts` — every tracked index with where
    /// it started the substep — is anchored there and the margin is set,
    /// at least `floor` (m); past `ceiling` (m) no lists are kept until
    /// things slow down.
    pub fn decide(
        &mut self,
        [step, drift]: [f32; 2],
        starts: impl Iterator<Item = (usize, Vec3)>,
        (floor, ceiling): (f32, f32),
    ) {
        self.regather = false;
        self.listing = false;
        if self.off {
            return;
        }
        // A NaN drift gathers again.
        let wanted = (SPAN * step.sqrt()).max(floor);
        if wanted.is_nan() || wanted > ceiling {
            self.valid = false;
            return;
        }
        self.listing = true;
        let strayed = drift.is_nan() || drift > self.margin * self.margin;
        self.regather = !self.valid || strayed || self.margin > NARROW * wanted;
        if self.regather {
            for (i, from) in starts {
                self.at[i] = from;
            }
            self.step = step.sqrt();
            self.margin = wanted;
            self.valid = true;
        }
    }
}

/// A particle whose list did not fit its slots (or was not gathered): it
/// searches the hash.
pub(crate) const UNLISTED: u32 = u32::MAX;

/// A list being gathered into fixed slots: [`List::finish`] gives how
/// many, sorted (neighbouring particles share their listed items, so
/// memory order reads faster), or None when they did not fit.
pub(crate) struct List<'a> {
    slots: &'a mut [u32],
    n: usize,
}

impl<'a> List<'a> {
    /// An empty list over `slots`.
    pub fn new(slots: &'a mut [u32]) -> Self {
        Self { slots, n: 0 }
    }

    /// Lists `item` (counted past the slots, so the overflow shows).
    pub fn push(&mut self, item: usize) {
        if let Some(slot) = self.slots.get_mut(self.n) {
            *slot = item as u32;
        }
        self.n += 1;
    }

    /// Whether more were listed than the slots hold (the list will not
    /// be kept: nothing more need be tested for it).
    pub fn overflowed(&self) -> bool {
        self.n > self.slots.len()
    }

    /// How many were listed, sorted; None when more than the slots.
    pub fn finish(self) -> Option<u32> {
        let listed = self.slots.get_mut(..self.n)?;
        listed.sort_unstable();
        Some(self.n as u32)
    }
}
