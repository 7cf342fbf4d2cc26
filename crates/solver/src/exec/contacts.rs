//! Step 4's contact phase: particle–particle contacts (self-collision,
//! between bodies; `solver::contacts`) and particle–triangle contacts
//! (`solver::sheets`). Each is found by every thread for its share, with
//! thread 0 alone building the hash; the pushes are applied by the
//! particles' owners when the substep finishes
//! ([`RawContacts::add_push`], [`RawSheets::add_push`]).

use std::ops::Range;

use glam::{Vec3, Vec4};

use super::pool::Team;
use super::shared::Shared;
use super::step::RawParticles;
use crate::anchors::{Anchors, UNLISTED};
use crate::contacts::{LISTED, ParticleContacts};
use crate::sheets::{CAP, NONE, Shape, Sheets};

/// Lists kept across substeps (`solver::anchors`), one per particle:
/// `width` slots each, and how many are in use or [`UNLISTED`].
#[derive(Clone, Copy, Debug)]
struct RawLists {
    slots: Shared<u32>,
    used: Shared<u32>,
    width: usize,
}

impl RawLists {
    fn new(slots: &mut [u32], used: &mut [u32], width: usize) -> Self {
        assert_eq!(
            slots.len(),
            width * used.len(),
            "a list's slots per particle"
        );
        Self {
            slots: Shared::new(slots),
            used: Shared::new(used),
            width,
        }
    }

    /// Particle `k`'s list this substep: gathered afresh by `gather`
    /// (which fills the slots it is given and says how many) when the
    /// anchors say so; None when it searches the hash instead.
    ///
    /// # Safety
    /// `k` is the calling thread's, and no other thread touches its list.
    unsafe fn of<'a>(
        self,
        k: usize,
        anchors: &Anchors,
        gather: impl FnOnce(&mut [u32]) -> u32,
    ) -> Option<&'a [u32]> {
        let start = k * self.width;
        // SAFETY: the caller's contract: list `k` is this thread's alone.
        unsafe {
            if anchors.regather {
                let used = gather(self.slots.part_mut(start..start + self.width));
                self.used.set(k, used);
            }
            match self.used.get(k) {
                UNLISTED => None,
                _ if !anchors.listing => None,
                used => Some(self.slots.part(start..start + used as usize)),
            }
        }
    }
}

/// The particle-contact data for one step; None when no particle takes
/// part in contacts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawContacts {
    /// The one table, rebuilt by thread 0 alone.
    all: Shared<ParticleContacts>,
    particle: Shared<u32>,
    entry_of: Shared<u32>,
    pos: Shared<Vec3>,
    correction: Shared<Vec3>,
    /// Each entry's neighbour list.
    lists: RawLists,
}

impl RawContacts {
    /// None when no particle is in contacts; `entry_of` must fit the world.
    pub fn new(sc: &mut ParticleContacts, particles: usize) -> Option<Self> {
        if sc.len() == 0 {
            return None;
        }
        assert_eq!(sc.entry_of.len(), particles, "contacts fit the world");
        let len = sc.particle.len();
        assert!(sc.pos.len() == len && sc.correction.len() == len);
        assert_eq!(sc.listed.len(), len);
        Some(Self {
            lists: RawLists::new(&mut sc.lists, &mut sc.listed, LISTED),
            particle: Shared::new(&mut sc.particle),
            entry_of: Shared::new(&mut sc.entry_of),
            pos: Shared::new(&mut sc.pos),
            correction: Shared::new(&mut sc.correction),
            all: Shared::new(std::slice::from_mut(sc)),
        })
    }

    /// Gathers the colliding particles' positions, hashes them and
    /// computes each one's push.
    ///
    /// # Safety
    /// Called by every thread of the team, between barriers as written.
    pub unsafe fn find(self, p: RawParticles, team: &Team) {
        let len = self.particle.len();
        // SAFETY: each thread writes only its share of the entries (and
        // measures it, reading only what it wrote), then the pieces of them
        // it took (`Team::chunks`: each piece goes to one thread), or its
        // share's pushes again when no entry can be pushed; thread 0
        // alone builds the hash while the others wait at a barrier, reading
        // the lists' lengths written before the last barrier of the
        // previous substep; the pushes only read positions gathered before
        // the previous barrier.
        unsafe {
            let share = team.share(len);
            // Measured as if the last substep's answer held: an idle one
            // is not measured (nothing would read it), a busy one is
            // measured with the positions, and a wrong guess measures after.
            let guess_idle = self.all.get_ref(0).idle;
            for k in share.clone() {
                let i = self.particle.get(k) as usize;
                self.pos.set(k, p.x(i));
            }
            let from = |i: usize| p.prev.get(i).truncate();
            // Every share measured (a barrier).
            let measure =
                |team: &Team| team.max_all(self.all.get_ref(0).measure(team.share(len), from));
            let (inv_mass, radius) = (p.inv_mass.slice(), p.radius.slice());
            let measured = match guess_idle {
                true => team.max_all([0.0; 2]), // every position gathered
                false => measure(team),
            };
            if team.index == 0 {
                // The others wait at the barrier below and hold no reference.
                let all = self.all.at(0);
                if !all.bound() && !guess_idle {
                    all.build(measured, from, inv_mass);
                }
            }
            team.sync();
            if self.all.get_ref(0).idle {
                // No pushes this substep (bodies apart): each thread
                // clears its share's.
                for k in share {
                    self.correction.set(k, Vec3::ZERO);
                }
                team.sync();
                return;
            }
            if guess_idle {
                let measured = measure(team);
                if team.index == 0 {
                    self.all.at(0).build(measured, from, inv_mass);
                }
                team.sync();
            }
            let all = self.all.get_ref(0);
            team.chunks(len, CHUNK, |mine| {
                for k in mine {
                    let list = (self.lists)
                        .of(k, &all.anchors, |out| all.gather(k, out, inv_mass, radius));
                    let push = match list {
                        None => all.push_of(k, inv_mass, radius),
                        Some(list) => all.push_among(k, list, inv_mass, radius),
                    };
                    self.correction.set(k, push);
                }
            });
            team.sync();
        }
    }

    /// Adds particle `i`'s push this substep to `delta` (nothing when it
    /// takes no part).
    ///
    /// # Safety
    /// After [`RawContacts::find`]; `i` is the caller's particle.
    #[inline]
    pub unsafe fn add_push(self, i: usize, delta: &mut Vec3) {
        // SAFETY: the caller's contract; entries are only read.
        unsafe {
            let k = self.entry_of.get(i);
            if k != u32::MAX {
                *delta += self.correction.get(k as usize);
            }
        }
    }
}

/// Probes or triangles a thread takes at a time ([`Team::chunks`]).
const CHUNK: usize = 64;

/// Whether triangles' shapes are found several at a time in lanes: eight
/// with AVX, four with the browser's wasm SIMD.
fn lanes() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("avx");
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return true;
    #[allow(unreachable_code)]
    false
}

/// The particle–triangle contact data for one step; None when collisions
/// between bodies are off or nothing can touch a sheet.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawSheets {
    /// The one table, rebuilt by thread 0 alone.
    all: Shared<Sheets>,
    probe_of: Shared<u32>,
    push: Shared<Vec3>,
    hit: Shared<u32>,
    corner_push: Shared<[Vec3; 3]>,
    gathered: Shared<Vec4>,
    /// Each probe's candidate triangles (`sheets::cached`).
    candidates: RawLists,
    /// Each triangle's shape this substep, and the squared distance from
    /// its centroid to its farthest corner.
    shapes: Shared<Shape>,
    far: Shared<f32>,
    /// Each triangle's box of its corners' anchors, in a substep that
    /// gathers the lists.
    anchor_box: Shared<[Vec3; 2]>,
    /// Shapes may be found in lanes (`World::set_simd`).
    simd: bool,
}

impl RawSheets {
    /// None unless the tables fit a world of `particles` particles; with
    /// `simd`, shapes are found in lanes where the CPU has them.
    pub fn new(sh: &mut Sheets, particles: usize, simd: bool) -> Option<Self> {
        if !(sh.any() && sh.probe_of.len() == particles && sh.gathered.len() == particles) {
            return None;
        }
        assert!(
            sh.particles_named() <= particles,
            "a sheet's triangle names particle {} but the world has {particles}",
            sh.particles_named() - 1
        );
        assert!(sh.push.len() == sh.probe.len() && sh.hit.len() == sh.probe.len());
        assert_eq!(sh.corner_push.len(), sh.probe.len());
        assert_eq!(sh.cached.len.len(), sh.probe.len());
        Some(Self {
            shapes: Shared::new(&mut sh.shapes),
            far: Shared::new(&mut sh.far),
            anchor_box: Shared::new(&mut sh.cached.boxes),
            candidates: RawLists::new(&mut sh.cached.slots, &mut sh.cached.len, CAP),
            probe_of: Shared::new(&mut sh.probe_of),
            push: Shared::new(&mut sh.push),
            hit: Shared::new(&mut sh.hit),
            corner_push: Shared::new(&mut sh.corner_push),
            gathered: Shared::new(&mut sh.gathered),
            all: Shared::new(std::slice::from_mut(sh)),
            simd,
        })
    }

    /// The one table, read only by the passes of the solve (`Gas`).
    pub fn table(&self) -> Shared<Sheets> {
        self.all
    }

    /// Hashes the triangles, finds each probe's deepest contact and adds
    /// up the corners' moves.
    ///
    /// # Safety
    /// Called by every thread of the team, between barriers as written.
    pub unsafe fn find(self, p: RawParticles, team: &Team) {
        // SAFETY: positions are final for this phase (every thread is past
        // the barrier below); each thread writes only the pieces it took
        // (`Team::chunks`: each piece goes to one thread) of the
        // triangles' shapes and farthest corners (in lanes, whole groups
        // within its piece; or of the farthest corners, then after a
        // barrier of the listed triangles' shapes, each listed once), in a
        // gathering substep of the triangles' anchor boxes (read only
        // after the barrier that ends them), then of the probes (their
        // results and candidate slots); thread 0 alone builds and sorts
        // the hash and notes whether a probe searches it while the others
        // wait at a barrier; each thread adds corners' moves only into the
        // `gathered` slots of its own share of the particles, after the
        // barrier that ends the probes.
        unsafe {
            let (prev, delta) = (p.prev.slice(), p.delta.slice());
            let (inv_mass, radius) = (p.inv_mass.slice(), p.radius.slice());
            let from = |i: usize| prev[i].truncate();
            let x = |i: usize| (prev[i] + delta[i]).truncate();
            team.sync();
            // While the lists hold few of the triangles, only their
            // shapes are found, once the lists are known to still hold;
            // every triangle's `far` (the hash's cells) first.
            let sparse = self.all.get_ref(0).sparse();
            let measured = {
                let all = self.all.get_ref(0);
                team.chunks(self.shapes.len(), CHUNK, |mine| match sparse {
                    true => {
                        for t in self.fars_in_lanes(all, mine.clone(), p)..mine.end {
                            self.far.set(t, all.far_of(t, x));
                        }
                    }
                    false => self.shapes_of(all, mine, p),
                });
                all.cached
                    .measure(team.share(all.cached.tracked()), (from, x))
            };
            // Every shape (or far) set and every share measured (a barrier).
            let measured = team.max_all(measured);
            if team.index == 0 {
                let sheets = self.all.at(0);
                sheets.build(measured, from);
                if sheets.walked && !sparse {
                    sheets.sort();
                }
            }
            team.sync();
            if sparse {
                let all = self.all.get_ref(0);
                if all.walked {
                    team.chunks(self.shapes.len(), CHUNK, |mine| {
                        self.shapes_of(all, mine, p)
                    });
                } else {
                    let needed = all.cached.needed();
                    team.chunks(needed.len(), CHUNK, |mine| {
                        for &t in &needed[mine] {
                            self.shape_alone(all, t as usize, p);
                        }
                    });
                }
                team.sync();
                if all.walked {
                    if team.index == 0 {
                        // The others wait at the barrier below.
                        self.all.at(0).sort();
                    }
                    team.sync();
                }
            }
            let all = self.all.get_ref(0);
            let regather = all.cached.anchors.regather;
            if regather && all.cached.boxes_first() {
                team.chunks(self.anchor_box.len(), CHUNK, |mine| {
                    for t in mine {
                        self.anchor_box.set(t, all.anchor_box(t));
                    }
                });
                // Every box found before any probe gathers (a barrier).
                team.sync();
            }
            team.chunks(self.push.len(), CHUNK, |mine| {
                for k in mine {
                    let list =
                        (self.candidates).of(k, &all.cached.anchors, |out| all.gather(k, out));
                    let found = match list {
                        None => all.deepest(k, from, x, inv_mass, radius),
                        Some(list) => all.deepest_among(k, list, from, x, inv_mass, radius),
                    };
                    let (t, push, corners) = match found {
                        Some((t, c)) => (t, c.push, c.corners),
                        None => (NONE, Vec3::ZERO, [Vec3::ZERO; 3]),
                    };
                    self.hit.set(k, t);
                    self.push.set(k, push);
                    self.corner_push.set(k, corners);
                }
            });
            team.sync();
            if regather {
                if team.index == 0 {
                    // Thread 0 alone, the others at the barrier below:
                    // the shared view above is not used again.
                    self.all.at(0).note_searches();
                }
                team.sync();
            }
            // Each thread adds up the corners' moves of its own share of
            // the particles, in probe order (the same sums for any team).
            let all = self.all.get_ref(0);
            let mine = team.share(self.gathered.len());
            for k in 0..self.push.len() {
                let t = self.hit.get(k);
                if t == NONE {
                    continue;
                }
                for (c, &i) in all.triangle(t).iter().enumerate() {
                    if mine.contains(&(i as usize)) {
                        *self.gathered.at(i as usize) += self.corner_push.get(k)[c].extend(1.0);
                    }
                }
            }
            team.sync();
        }
    }

    /// The shapes of triangles `range` (in lanes as far as whole groups
    /// go, then alone) and their `far`.
    ///
    /// # Safety
    /// As for the shapes in [`RawSheets::find`]: `range` is this thread's
    /// piece of the triangles.
    unsafe fn shapes_of(self, all: &Sheets, range: Range<usize>, p: RawParticles) {
        // SAFETY: the caller's contract.
        unsafe {
            for t in self.shapes_in_lanes(all, range.clone(), p)..range.end {
                self.shape_alone(all, t, p);
            }
        }
    }

    /// Triangle `t`'s shape and `far`, found alone.
    ///
    /// # Safety
    /// As for the shapes in [`RawSheets::find`]: triangle `t` is this
    /// thread's to set.
    unsafe fn shape_alone(self, all: &Sheets, t: usize, p: RawParticles) {
        // SAFETY: the caller's contract; positions are only read.
        unsafe {
            let (prev, delta) = (p.prev.slice(), p.delta.slice());
            let from = |i: usize| prev[i].truncate();
            let x = |i: usize| (prev[i] + delta[i]).truncate();
            let out = (self.shapes.at(t), self.far.at(t));
            all.shape(t, out, (from, x), p.radius.slice());
        }
    }

    /// [`RawSheets::shapes_in_lanes`] for `far` alone.
    ///
    /// # Safety
    /// As for [`RawSheets::shapes_in_lanes`].
    #[allow(unused_variables)]
    unsafe fn fars_in_lanes(self, all: &Sheets, range: Range<usize>, p: RawParticles) -> usize {
        if !(self.simd && lanes()) {
            return range.start;
        }
        let particles = (p.prev.ptr().cast_const(), p.delta.ptr().cast_const());
        // As for `shapes_in_lanes`, for `far` alone (the browser's build
        // never finds `far` alone: `Sheets::sparse`).
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as said above.
        return unsafe { super::simd::fars8(all.triangles(), range, particles, self.far.ptr()) };
        #[allow(unreachable_code)]
        range.start
    }

    /// The whole shapes of triangles `range` as far as whole groups of
    /// lanes go, when this step may use them and the CPU has them (see
    /// [`lanes`]); returns where the rest begins (`range.start` without).
    ///
    /// # Safety
    /// As for the shapes in [`RawSheets::find`]: `range` is this thread's
    /// piece of the triangles.
    #[allow(unused_variables)]
    unsafe fn shapes_in_lanes(self, all: &Sheets, range: Range<usize>, p: RawParticles) -> usize {
        if !(self.simd && lanes()) {
            return range.start;
        }
        let particles = (
            p.prev.ptr().cast_const(),
            p.delta.ptr().cast_const(),
            p.radius.ptr().cast_const(),
        );
        let out = (self.shapes.ptr(), self.far.ptr());
        // Both: `RawSheets::new` checked that every corner is a world
        // particle, whose tables `p` views; the pieces of `shapes` and
        // `far` in `range` are this thread's; `lanes` checked the CPU above.
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as said above.
        return unsafe { super::simd::shapes8(all.triangles(), range, particles, out) };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        // SAFETY: as said above.
        return unsafe { super::simd128::shapes4(all.triangles(), range, particles, out) };
        #[allow(unreachable_code)]
        range.start
    }

    /// Adds particle `i`'s moves this substep to `delta`: its own push as a
    /// probe, then its moves as a corner, averaged; the corner slot is
    /// emptied for the next substep.
    ///
    /// # Safety
    /// After [`RawSheets::find`]; `i` is the caller's particle.
    #[inline]
    pub unsafe fn add_push(self, i: usize, delta: &mut Vec3) {
        // SAFETY: the caller's contract; only particle i's slot is written.
        unsafe {
            let k = self.probe_of.get(i);
            if k != NONE {
                *delta += self.push.get(k as usize);
            }
            let got = self.gathered.get(i);
            if got.w > 0.0 {
                *delta += got.truncate() / got.w;
                self.gathered.set(i, Vec4::ZERO);
            }
        }
    }
}
