//! Candidate triangles kept across substeps: the broad phase of the
//! sheets' contacts.
//!
//! Searching the spatial hash for every probe in every substep cost 22×
//! the rest of the step for two 64 × 64 sheets lying on each other. So
//! each probe keeps a list of the triangles it could touch while no
//! particle strays more than a margin M from where it was when the lists
//! were gathered (its *anchor*): a triangle is a candidate when the box of
//! its corners' anchors, grown by the contact distance + 2M, holds the
//! probe's anchor. While every probe and corner stays within M of its
//! anchor, a particle's path lies within M of its anchor and a triangle's
//! box (corners at the start of the substep and now) within M of its
//! anchors' box, so every triangle whose box test
//! ([`Sheets::against`]) can pass is a candidate — unless the hit itself
//! cannot pass while everything stays within M ([`may_hit`]: the particle
//! would have to lie over the triangle, give or take a bound that grows
//! with M; asked only while M is at most [`PRUNED_UP_TO`] of the contact
//! distance, beyond which it prunes little). That leaves a particle
//! resting on a sheet the few triangles around its own instead of the
//! dozen its neighbours' grown boxes hold.
//! When any strays further, every list is gathered again in that substep
//! (`solver::anchors`; M is at least [`LEAST`] × the contact distance:
//! the smaller M, the more the bound prunes and the sooner a slow slide
//! gathers again).
//!
//! Each substep a probe tests its candidates only, keeping those the full
//! search would have walked (the same cells), and takes the deepest
//! contact; of equally deep ones, the one the walk meets first (by sheet,
//! cell and triangle), so the contacts are the full search's to the bit
//! (`tests/parallel.rs`' golden hashes, and a test here). A probe with
//! more than [`CAP`] candidates searches the hash as before.

use glam::Vec3;

use super::prune::may_hit;
use super::{Hit, NONE, Sheets, Touch, corners};
use crate::anchors::{Anchors, List, UNLISTED};
use crate::point_triangle::{Face, hit};

/// Candidate slots per probe.
pub(crate) const CAP: usize = 48;

/// The least margin, as a share of the contact distance.
const LEAST: f32 = 0.02;

/// The largest margin, as a share of the contact distance: a faster
/// fall searches the hash.
const MOST: f32 = 2.0;

/// The widest margin, as a share of the contact distance, at which a
/// gather prunes its candidates ([`may_hit`]).
const PRUNED_UP_TO: f32 = 0.1;

/// The widest walk a gather makes, in cells per axis; beyond it (a fast
/// body's large margin) the probe searches the hash.
const WIDEST: i32 = 12;

/// Each probe's candidates and the anchors they hold for.
#[derive(Clone, Debug, Default)]
pub(crate) struct Candidates {
    /// Per probe, [`CAP`] slots of triangle indices.
    pub slots: Vec<u32>,
    /// Per probe: how many slots hold candidates, or [`UNLISTED`].
    pub len: Vec<u32>,
    /// The particles that are probes or triangle corners.
    tracked: Vec<u32>,
    /// Per world particle: where it was when the lists were gathered.
    pub anchors: Anchors,
    /// The triangles some list holds, in order, as of the last gathering
    /// ([`Candidates::note_needed`]): while the lists hold, no other
    /// triangle's shape is read.
    needed: Vec<u32>,
    /// Per triangle: in some list (scratch for `needed`, all false
    /// between calls).
    listed: Vec<bool>,
    /// Per triangle: the box of its corners' anchors, found once for
    /// every probe's gathering ([`Sheets::anchor_box`]) when
    /// [`Candidates::boxes_first`].
    pub boxes: Vec<[Vec3; 2]>,
    /// There are enough probes that every triangle's box is found before
    /// they gather (at least one per [`TRIANGLES_PER_PROBE`]); with fewer
    /// (a rope over a cloth), each gathering finds the boxes it tests.
    /// See [`Candidates::boxes_first`].
    many_probes: bool,
}

/// A probe's gathering tests tens of triangles (the cells around it):
/// with one probe per this many triangles or more, finding every
/// triangle's box once costs less than finding them per probe.
const TRIANGLES_PER_PROBE: usize = 8;

impl Candidates {
    /// Storage for `probe`s among `particles` world particles, whose
    /// triangles are `tri`; allocates.
    pub fn new(probe: &[u32], tri: &[[u32; 3]], particles: usize) -> Self {
        let mut seen = vec![false; particles];
        for &i in probe.iter().chain(tri.iter().flatten()) {
            seen[i as usize] = true;
        }
        Self {
            slots: vec![0; probe.len() * CAP],
            len: vec![UNLISTED; probe.len()],
            tracked: (0..particles as u32)
                .filter(|&i| seen[i as usize])
                .collect(),
            anchors: Anchors::new(particles),
            needed: Vec::with_capacity(tri.len()),
            listed: vec![false; tri.len()],
            boxes: vec![[Vec3::ZERO; 2]; tri.len()],
            many_probes: TRIANGLES_PER_PROBE * probe.len() >= tri.len(),
        }
    }

    /// After a gathering: notes which triangles the lists hold. Allocates
    /// nothing (room for every triangle was made in [`Candidates::new`]).
    pub fn note_needed(&mut self) {
        for (k, &len) in self.len.iter().enumerate() {
            if len != UNLISTED {
                for &t in &self.slots[k * CAP..k * CAP + len as usize] {
                    self.listed[t as usize] = true;
                }
            }
        }
        self.needed.clear();
        for (t, listed) in self.listed.iter_mut().enumerate() {
            if std::mem::take(listed) {
                self.needed.push(t as u32);
            }
        }
    }

    /// Whether every triangle's box of anchors is found before the
    /// probes gather, into [`Candidates::boxes`]: with many probes, and
    /// not in the browser's build (whose wasm this path took over its
    /// 2 MB bound).
    #[inline(always)]
    pub fn boxes_first(&self) -> bool {
        !cfg!(target_family = "wasm") && self.many_probes
    }

    /// The triangles the lists hold, in order (see
    /// [`Candidates::note_needed`]).
    pub fn needed(&self) -> &[u32] {
        &self.needed
    }

    /// Keeps candidates (on) or has every probe search the hash (off).
    pub fn set_enabled(&mut self, on: bool) {
        self.anchors.set_enabled(on);
        self.len.fill(UNLISTED);
    }

    /// How many particles the anchors track: the probes and the corners.
    pub fn tracked(&self) -> usize {
        self.tracked.len()
    }

    /// The largest move and drift of the tracked particles `share` of
    /// them ([`Anchors::measure`]): each thread measures its own share.
    pub fn measure(
        &self,
        share: std::ops::Range<usize>,
        (from, x): (impl Fn(usize) -> Vec3, impl Fn(usize) -> Vec3),
    ) -> [f32; 2] {
        let points = self.tracked[share]
            .iter()
            .map(|&i| (i as usize, from(i as usize), x(i as usize)));
        self.anchors.measure(points)
    }

    /// Whether the lists still hold this substep (see `solver::anchors`),
    /// from `measured`, every share's [`Candidates::measure`] at once;
    /// `from` gives where a particle started the substep, `reach` is the
    /// largest contact distance.
    pub fn decide(&mut self, measured: [f32; 2], from: impl Fn(usize) -> Vec3, reach: f32) {
        let starts = (self.tracked.iter()).map(|&i| (i as usize, from(i as usize)));
        self.anchors
            .decide(measured, starts, (LEAST * reach, MOST * reach));
    }
}

/// The box of a triangle's corners `a`.
#[inline(always)]
fn box_of(a: [Vec3; 3]) -> [Vec3; 2] {
    [a[0].min(a[1]).min(a[2]), a[0].max(a[1]).max(a[2])]
}

impl Sheets {
    /// The box of triangle `t`'s corners' anchors. With many probes
    /// ([`Candidates::boxes_first`]), in a substep that gathers the lists
    /// each thread finds its share of them into [`Candidates::boxes`]
    /// before any probe gathers (the gatherings test the same triangles'
    /// boxes: found once, not per probe); the same floats either way.
    pub fn anchor_box(&self, t: usize) -> [Vec3; 2] {
        box_of(super::corners(self.tri[t], |i| self.cached.anchors.at[i]))
    }

    /// Gathers probe `k`'s candidates into `out` ([`CAP`] slots): how many,
    /// or [`UNLISTED`].
    pub fn gather(&self, k: usize, out: &mut [u32]) -> u32 {
        let c = &self.cached.anchors;
        let p0 = c.at[self.probe[k] as usize];
        let grow = self.reach + 2.0 * c.margin;
        // A wide margin leaves the bound little to prune (the corners may
        // turn the normal far): the box test alone is cheaper then.
        let prune = c.margin <= PRUNED_UP_TO * self.reach;
        let mut list = List::new(out);
        for s in self.sheets.iter().filter(|s| s.body != self.probe_body[k]) {
            // The hash holds centroids of this substep: a candidate's is
            // within its circumradius (need − reach, give or take the
            // substep's moves) of its box.
            let r = s.need + 2.0 * c.margin + 3.0 * c.step;
            let (lo, hi) = (s.grid.cell_at(p0 - r), s.grid.cell_at(p0 + r));
            if (0..3).any(|a| hi[a] - lo[a] > WIDEST) {
                return UNLISTED;
            }
            s.grid.each_in_cells(lo, hi, |t| {
                if list.overflowed() {
                    return; // the probe searches the hash instead
                }
                let t = s.first + t;
                let corners = || super::corners(self.tri[t], |i| c.at[i]);
                let (a, [tlo, thi]) = match self.cached.boxes_first() {
                    true => (None, self.cached.boxes[t]),
                    false => {
                        let a = corners();
                        (Some(a), box_of(a))
                    }
                };
                if (p0 - grow).cmpgt(thi).any() || (p0 + grow).cmplt(tlo).any() {
                    return;
                }
                if prune && !may_hit(p0, a.unwrap_or_else(corners), c.margin, self.reach) {
                    return;
                }
                list.push(t);
            });
        }
        list.finish().unwrap_or(UNLISTED)
    }

    /// [`Sheets::deepest`] among `candidates` (from [`Sheets::gather`]):
    /// the same contact, to the bit.
    pub fn deepest_among(
        &self,
        k: usize,
        candidates: &[u32],
        prev: impl Fn(usize) -> Vec3,
        x: impl Fn(usize) -> Vec3,
        inv_mass: &[f32],
        radius: &[f32],
    ) -> Option<(u32, Touch)> {
        let (p, (from, to), partners) = self.probe_at(k, &prev, &x);
        // The walk's order: sheet, cell (x, y, z), triangle; found only
        // to break a tie in depth.
        let key = |t: u32| {
            let si = self.sheet_of[t as usize];
            let cell = self.sheets[si as usize]
                .grid
                .cell_at(self.shapes[t as usize].mid());
            (si, cell, t)
        };
        let mut best: Option<(u32, Hit)> = None;
        let mut walk: Option<(u32, [i32; 3], [i32; 3])> = None;
        for &t in candidates {
            let Some(c) = self.consider(t as usize, p, partners, (from, to), inv_mass, radius[p])
            else {
                continue;
            };
            // A hit counts where the full search walks (it rarely does
            // not: a path over four cells long is searched near its end).
            let si = self.sheet_of[t as usize];
            let s = &self.sheets[si as usize];
            let mid = self.shapes[t as usize].mid();
            if !s.surely_walks(from, to, mid) {
                let (lo, hi) = match walk {
                    Some((w, lo, hi)) if w == si => (lo, hi),
                    _ => {
                        let (lo, hi) = s.walk(from, to);
                        walk = Some((si, lo, hi));
                        (lo, hi)
                    }
                };
                let cell = s.grid.cell_at(mid);
                if (0..3).any(|a| cell[a] < lo[a] || cell[a] > hi[a]) {
                    continue;
                }
            }
            let better = best
                .as_ref()
                .is_none_or(|b| c.depth > b.1.depth || (c.depth == b.1.depth && key(t) < key(b.0)));
            if better {
                best = Some((t, c));
            }
        }
        best.map(|(t, h)| {
            let at = (&prev, &x);
            (t, self.moves_at(t as usize, p, h, (from, to), at, inv_mass))
        })
    }
}

impl Sheets {
    /// Particle `i`'s contact with the sheets, projected along the normal
    /// only (no friction), for a balloon's gas (`exec/gas.rs`): the
    /// deepest touch among its candidates (the triangles where they are
    /// now, `prev` and `x`) moves the corners by their share through
    /// `push_corner`, which may stop them short (at a collider), and the
    /// particle takes what is left of the depth then: its move. Zero for
    /// a particle that is no probe, or whose list is not kept (it moves
    /// fast: the contacts after the solve push it as before).
    pub(crate) fn gas_touch(
        &self,
        i: usize,
        (from, to): (Vec3, Vec3),
        (prev, x): (impl Fn(usize) -> Vec3, impl Fn(usize) -> Vec3),
        (inv_mass, radius): (&[f32], &[f32]),
        mut push_corner: impl FnMut(usize, Vec3),
    ) -> Vec3 {
        let k = self.probe_of.get(i).copied().unwrap_or(NONE) as usize;
        let Some(&listed) = self.cached.len.get(k).filter(|&&n| n != UNLISTED) else {
            return Vec3::ZERO;
        };
        let partners = self.partners_of(k);
        let wp = inv_mass[i];
        let touch = |ids: [u32; 3]| {
            let face = Face::of(corners(ids, &prev), corners(ids, &x))?;
            let reach = radius[i] + corners(ids, |c| radius[c]).iter().sum::<f32>() / 3.0;
            let h = hit(from, to, &face, reach, wp, || corners(ids, |c| inv_mass[c]))?;
            Some((h, face.normal()))
        };
        let mut deepest: Option<(Hit, Vec3, [u32; 3])> = None;
        for &t in &self.cached.slots[k * CAP..k * CAP + listed as usize] {
            let (t, ids) = (t as usize, self.tri[t as usize]);
            if self.ignores(t, partners) {
                continue;
            }
            if let Some((h, n)) = touch(ids)
                && deepest.as_ref().is_none_or(|d| h.depth > d.0.depth)
            {
                deepest = Some((h, n, ids));
            }
        }
        let Some((h, n, ids)) = deepest else {
            return Vec3::ZERO;
        };
        let moves = h.corner_moves(n, corners(ids, |c| inv_mass[c]));
        for (&c, m) in ids.iter().zip(moves) {
            push_corner(c as usize, m);
        }
        touch(ids).map_or(Vec3::ZERO, |(h, n)| h.full_push(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_needed_triangles_are_those_some_list_holds_once_each_in_order() {
        // Four probes over six triangles: two lists share triangle 4, one
        // probe searches the hash, one list is empty.
        let tri = [
            [0, 1, 2],
            [1, 2, 3],
            [2, 3, 4],
            [3, 4, 5],
            [4, 5, 6],
            [5, 6, 7],
        ];
        let mut c = Candidates::new(&[8, 9, 10, 11], &tri, 12);
        for (k, list) in [&[4u32, 1][..], &[0, 4], &[], &[5]].iter().enumerate() {
            c.slots[k * CAP..k * CAP + list.len()].copy_from_slice(list);
            c.len[k] = list.len() as u32;
        }
        c.len[3] = UNLISTED; // its slot is not a list
        c.note_needed();
        assert_eq!(c.needed(), [0, 1, 4]);
        // Gathered again: the last gathering's alone.
        c.len = vec![0, 1, 0, 0];
        c.slots[CAP] = 2;
        c.note_needed();
        assert_eq!(c.needed(), [2]);
    }

    #[test]
    fn a_hit_taken_without_finding_cells_lies_in_a_cell_the_full_search_walks() {
        // Paths short and long, near the origin and 5e8 cells out, and
        // centroids around their ends: whenever `surely_walks` says yes,
        // the centroid's cell is one the walk takes in.
        let mut r = crate::lcg::Lcg(7);
        let (mut yes, mut tried) = (0, 0);
        for _ in 0..200_000 {
            let cell = 10f32.powf(r.next_f32() * 8.0); // 1e-4 … 1e4 m
            let mut s = super::super::Sheet {
                body: 0,
                first: 0,
                count: 0,
                grid: crate::grid::Grid::new(0),
                need: cell * (0.8 + 0.4 * r.next_f32()) / 1.25,
            };
            s.grid.cell = cell;
            let far = cell * 10f32.powf(r.next_f32() * 18.0); // up to 5e8 cells out
            let mut v = |scale: f32| Vec3::new(r.next_f32(), r.next_f32(), r.next_f32()) * scale;
            let to = v(far);
            let from = to + v(cell * [0.1, 3.0, 12.0][tried / 2 % 3]);
            let mid = to + v(cell * [1.6, 6.0][tried % 2]);
            tried += 1;
            if s.surely_walks(from, to, mid) {
                yes += 1;
                let (lo, hi) = s.walk(from, to);
                let c = s.grid.cell_at(mid);
                assert!(
                    (0..3).all(|a| lo[a] <= c[a] && c[a] <= hi[a]),
                    "{from} → {to}, centroid {mid}, cell {cell}: {c:?} outside {lo:?}…{hi:?}"
                );
            }
        }
        // Most resting contacts take the quick answer.
        assert!(yes > tried / 20, "{yes} of {tried}");
    }
}
