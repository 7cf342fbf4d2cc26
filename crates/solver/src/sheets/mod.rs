//! Contacts between particles and the triangles of other bodies' sheets
//! (cloths, balloon skins, soft boxes' skins), when collisions between
//! bodies are on: a rope thinner than a cloth's grid spacing lies on the
//! cloth instead of slipping between its particles.
//!
//! A particle p of radius r and a triangle (a, b, c) whose particles have
//! mean radius r_t touch when p is within r + r_t of the triangle's plane,
//! on the side p started the substep on, and p's projection falls inside
//! the triangle (barycentric u, v, w ≥ −[`EDGE_SLACK`], so a rope on the
//! seam between two triangles does not fall through it). The side is taken
//! from the positions at the start of the substep, so a fast particle that
//! crossed the sheet within one substep is caught too (swept, like the
//! colliders' contacts). The contact is one rigid XPBD constraint
//!
//!   C = s·n·(x_p − x_a) − (r + r_t) ≥ 0,  ∇_p C = s·n,  ∇_{a,b,c} C = −s·n·(u, v, w),
//!   Δλ = −C / (w_p + u²w_a + v²w_b + w²w_c),
//!
//! (n the unit normal, s the side) with the normal taken as fixed. Friction
//! acts as on the colliders: the particle's motion along the sheet relative
//! to the triangle's point under it is removed up to μ × the normal
//! correction ([`FRICTION`] = 0.4), with the same weights.
//!
//! How the work is split, for the same bits at any thread count: every
//! thread finds its share of the triangles' [`Shape`]s (centroid, box and
//! the face [`hit`] needs; eight at a time in AVX lanes, [`shape`]) — or,
//! while the kept candidates hold few of the triangles, every triangle's
//! farthest corner and then only the candidates' shapes
//! ([`Sheets::sparse`]); thread 0 sorts each body's triangles into a
//! spatial hash of its own by centroid (so a cloth's particles never scan
//! their own cloth's triangles); every thread finds, for its share of the
//! particles, the deepest triangle each one touches — among the candidates
//! it keeps across substeps (`cached`), or from the hash — and its own
//! move; thread 0 then adds up the triangles' corners' moves in particle
//! order; each particle's owner applies its own move and the mean of the
//! moves it got as a corner (Jacobi). The step (`exec::step`) runs these
//! phases. All storage is allocated when collisions between bodies are
//! switched on.
//!
//! [`EDGE_SLACK`]: super::point_triangle::EDGE_SLACK
//! [`FRICTION`]: super::point_triangle::FRICTION

mod cached;
mod prune;
pub(crate) mod shape;

use glam::{Vec3, Vec4};

use super::grid::Grid;
use super::point_triangle::{Hit, Touch, hit, moves};
pub(crate) use cached::{CAP, Candidates};
pub(crate) use shape::Shape;

/// No triangle.
pub(crate) const NONE: u32 = u32::MAX;

/// The sheets' triangles, the particles tested against them, and storage.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sheets {
    /// World particles of every triangle.
    tri: Vec<[u32; 3]>,
    /// One past the largest world particle of a triangle.
    named: usize,
    /// Per triangle: false once a link between two of its corners broke
    /// (a tear): it no longer holds anything up.
    alive: Vec<bool>,
    /// Per triangle: its [`Shape`] this substep.
    pub shapes: Vec<Shape>,
    /// Per triangle: the squared distance from its centroid to its
    /// farthest corner this substep (apart from the shapes, so that the
    /// hash's cell is found from 4 bytes a triangle).
    pub far: Vec<f32>,
    /// Some probe searches the hash (it has no list, or no lists are
    /// kept): the hash is sorted every substep.
    searching: bool,
    /// Per world particle: where its triangles start in `around` (one
    /// past the end last).
    around_start: Vec<u32>,
    /// The triangles around each particle.
    around: Vec<u32>,
    /// How many of the links' broken pairs have been applied to `alive`.
    broken_seen: usize,
    /// World index of each particle tested ("probe").
    pub probe: Vec<u32>,
    /// Body of each probe.
    probe_body: Vec<u32>,
    /// Probe of each world particle, [`NONE`] if it is not one.
    pub probe_of: Vec<u32>,
    /// Per probe: where its partners start in `partners` (one past the
    /// end last).
    partner_start: Vec<u32>,
    /// The particles each probe is joined to: triangles with one of them
    /// as a corner never push it (a join would fight the contact).
    partners: Vec<u32>,
    /// The largest contact distance, probe radius + triangle corner radius (m).
    reach: f32,
    /// One per body with triangles: its triangles by their centroids'
    /// cells, so a particle never scans its own body's triangles.
    sheets: Vec<Sheet>,
    /// Per probe: its move this substep (m).
    pub push: Vec<Vec3>,
    /// Per probe: the triangle it touches, or [`NONE`].
    pub hit: Vec<u32>,
    /// Per probe: the move of each corner of `hit` (m).
    pub corner_push: Vec<[Vec3; 3]>,
    /// Per world particle: the sum of its moves as a corner (xyz) and their
    /// number (w); zero outside the contact phase.
    pub gathered: Vec<Vec4>,
    /// Per triangle: its sheet (index into `sheets`).
    sheet_of: Vec<u32>,
    /// Each probe's candidate triangles, kept across substeps (see `cached`).
    pub cached: Candidates,
    /// Some probe walks the hash this substep ([`Sheets::build`]).
    pub walked: bool,
}

/// One body's triangles in a spatial hash.
#[derive(Clone, Debug)]
struct Sheet {
    body: u32,
    /// Its triangles: `tri[first..first + count]`.
    first: usize,
    count: usize,
    /// Cell edge grown as needed (see [`Sheets::build`]).
    grid: Grid,
    /// This substep's largest distance from a centroid to a corner, plus
    /// the contact distance (m): how far from a particle a touching
    /// triangle's centroid can be.
    need: f32,
}

impl Sheet {
    /// The cells a particle that moved `from` → `to` this substep searches:
    /// those of centroids within `need` of its path (2 a side for a short
    /// path); around its end only, for a path longer than 4 cells (which
    /// no contact distance makes likely).
    #[inline(always)]
    fn walk(&self, from: Vec3, to: Vec3) -> ([i32; 3], [i32; 3]) {
        let (lo, hi, end) = (
            self.grid.cell_at(from.min(to) - self.need),
            self.grid.cell_at(from.max(to) + self.need),
            self.grid.cell_at(to),
        );
        let short = |a: usize| hi[a] - lo[a] <= 4;
        let from = |a: usize| if short(a) { lo[a] } else { end[a] - 2 };
        let to = |a: usize| if short(a) { hi[a] } else { end[a] + 2 };
        ([from(0), from(1), from(2)], [to(0), to(1), to(2)])
    }

    /// Whether [`Sheet::walk`] for a particle that moved `from` → `to`
    /// surely takes in the cell of point `mid`, found without a division:
    /// `mid` lies in the box whose corners' cells bound a short walk, and
    /// within a cell of `to` on every axis (a long walk spans two cells
    /// each side of `to`'s). [`Grid::cell_at`] is monotonic, and within
    /// 2²⁰ cells of the origin the quotients' rounding is under an eighth
    /// of a cell. False means "find the cells".
    #[inline(always)]
    fn surely_walks(&self, from: Vec3, to: Vec3, mid: Vec3) -> bool {
        let (lo, hi) = (from.min(to) - self.need, from.max(to) + self.need);
        let cell = Vec3::splat(self.grid.cell);
        mid.cmpge(lo).all()
            && mid.cmple(hi).all()
            && (mid - to).abs().cmple(cell).all()
            && to.abs().cmple(cell * 1_048_576.0).all()
    }
}

impl Sheets {
    /// Sets the triangles (world particles, with their bodies), the
    /// probes (world particles, with their bodies) and the joined pairs of
    /// particles for a world of `particles` particles; allocates.
    pub fn set(
        &mut self,
        triangles: Vec<([u32; 3], u32)>,
        probes: Vec<(u32, u32)>,
        joined: &[(u32, u32)],
        radius: &[f32],
    ) {
        let particles = radius.len();
        let bodies: Vec<u32>;
        (self.tri, bodies) = triangles.into_iter().unzip();
        self.named = (self.tri.iter().flatten())
            .map(|&i| i as usize + 1)
            .max()
            .unwrap_or(0);
        // Triangles come body by body: one sheet per run.
        self.sheets.clear();
        for (k, &body) in bodies.iter().enumerate() {
            match self.sheets.last_mut() {
                Some(s) if s.body == body => s.count += 1,
                _ => self.sheets.push(Sheet {
                    body,
                    first: k,
                    count: 1,
                    grid: Grid::default(),
                    need: 0.0,
                }),
            }
        }
        self.sheet_of = (self.sheets.iter().enumerate())
            .flat_map(|(k, s)| std::iter::repeat_n(k as u32, s.count))
            .collect();
        // Only particles that another body's triangles could touch (a
        // cloth alone with ropes tests the ropes' particles only).
        (self.probe, self.probe_body) = probes
            .into_iter()
            .filter(|&(_, body)| self.sheets.iter().any(|s| s.body != body))
            .unzip();
        self.probe_of = vec![NONE; particles];
        for (k, &p) in self.probe.iter().enumerate() {
            self.probe_of[p as usize] = k as u32;
        }
        self.partner_start = vec![0];
        self.partners.clear();
        for &p in &self.probe {
            for &(a, b) in joined {
                if p == a {
                    self.partners.push(b);
                } else if p == b {
                    self.partners.push(a);
                }
            }
            self.partner_start.push(self.partners.len() as u32);
        }
        let widest = |ids: &mut dyn Iterator<Item = u32>| {
            ids.map(|i| radius[i as usize]).fold(0f32, f32::max)
        };
        self.reach = widest(&mut self.tri.iter().flatten().copied())
            + widest(&mut self.probe.iter().copied());
        for s in &mut self.sheets {
            s.grid = Grid::new(s.count);
            s.grid.cell = 0.0;
        }
        self.alive = vec![true; self.tri.len()];
        self.shapes = vec![Shape::default(); self.tri.len()];
        self.far = vec![0.0; self.tri.len()];
        self.searching = true;
        let corners =
            (self.tri.iter().enumerate()).flat_map(|(t, c)| c.iter().map(move |&i| (i, t as u32)));
        (self.around_start, self.around) = super::particles::by_particle(particles, corners);
        self.broken_seen = 0;
        self.push = vec![Vec3::ZERO; self.probe.len()];
        self.hit = vec![NONE; self.probe.len()];
        self.corner_push = vec![[Vec3::ZERO; 3]; self.probe.len()];
        self.gathered = vec![Vec4::ZERO; particles];
        let on = self.cached.anchors.enabled();
        self.cached = Candidates::new(&self.probe, &self.tri, particles);
        self.cached.set_enabled(on);
    }

    /// Takes the triangles out whose corners lost a link since the last
    /// call: `broken` is every pair of particles whose link broke, in order
    /// (`DistanceConstraints::broken`). Allocates nothing.
    pub fn forget_torn(&mut self, broken: &[(u32, u32)]) {
        if self.tri.is_empty() {
            return;
        }
        for &(a, b) in &broken[self.broken_seen.min(broken.len())..] {
            let Some(range) = self.around_start.get(a as usize..a as usize + 2) else {
                continue;
            };
            for &t in &self.around[range[0] as usize..range[1] as usize] {
                if self.tri[t as usize].contains(&b) {
                    self.alive[t as usize] = false;
                }
            }
        }
        self.broken_seen = broken.len();
    }

    /// Whether there is anything to test.
    pub fn any(&self) -> bool {
        !self.tri.is_empty() && !self.probe.is_empty()
    }

    /// Sets `out` to triangle `t`'s [`Shape`] this substep and `far` to
    /// the squared distance from its centroid to its farthest corner, with
    /// positions at its start from `prev` and now from `x`: alone, as the
    /// lanes do it (`exec::contacts`). Each thread sets its share.
    pub fn shape(
        &self,
        t: usize,
        (out, far): (&mut Shape, &mut f32),
        (prev, x): (impl Fn(usize) -> Vec3, impl Fn(usize) -> Vec3),
        radius: &[f32],
    ) {
        let ids = self.tri[t];
        let was = corners(ids, |i| prev(i).to_array());
        let now = corners(ids, |i| x(i).to_array());
        let (columns, f) = shape::columns::<f32>(was, now, corners(ids, |i| radius[i]));
        (*out, *far) = (Shape(columns), f);
    }

    /// Triangle `t`'s `far` (the squared distance from its centroid to
    /// its farthest corner) without the rest of its [`Shape`], with
    /// positions now from `x`: one triangle, with the lanes' bits
    /// (`exec::contacts`).
    pub fn far_of(&self, t: usize, x: impl Fn(usize) -> Vec3) -> f32 {
        shape::mid_far::<f32>(corners(self.tri[t], |i| x(i).to_array())).1
    }

    /// Whether this substep may find every triangle's `far` and then the
    /// shapes of the triangles the lists hold ([`Candidates::needed`])
    /// alone: the lists held in the last substep, no probe walked the
    /// hash, and they hold at most a quarter of the triangles (those
    /// shapes are found one at a time, and lanes still find every `far`;
    /// a rope on a hammock's cloth lists 0–17 % of them, a sheet lying
    /// on another 55–85 %). Should the lists be gathered again this
    /// substep after all, [`Sheets::build`] says so and every shape is
    /// found then. Never in the browser's build: its file is held under
    /// 2 MB (issue 27), and this path's code would take it over.
    pub fn sparse(&self) -> bool {
        let c = &self.cached;
        !cfg!(target_family = "wasm")
            && c.anchors.listing
            && !self.searching
            && 4 * c.needed().len() <= self.tri.len()
    }

    /// Every sheet's triangles (world particles).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.tri
    }

    /// How many world particles the triangles name: one past the largest.
    pub fn particles_named(&self) -> usize {
        self.named
    }

    /// Decides whether the candidates still hold (`cached`) and sizes each
    /// body's hash; notes in `walked` whether some probe walks the hash
    /// this substep, which then has to be sorted ([`Sheets::sort`], once
    /// every [`Shape`] is set). One thread, after every `far` is set. A
    /// cell must be at least the largest distance from a centroid to its
    /// corners plus the largest contact distance, so that a particle
    /// touching a triangle is within one cell of its centroid: it is kept
    /// from the last substep and grown when a stretched triangle needs
    /// more. `prev` gives positions at the start of the substep.
    pub fn build(&mut self, measured: [f32; 2], prev: impl Fn(usize) -> Vec3) {
        self.cached.decide(measured, prev, self.reach);
        let (regather, listing) = (self.cached.anchors.regather, self.cached.anchors.listing);
        if !listing {
            self.searching = true; // until the lists are gathered again
        }
        for s in &mut self.sheets {
            let need = most(&self.far[s.first..s.first + s.count]);
            s.need = need.sqrt() + self.reach;
            if s.need > s.grid.cell || !s.grid.cell.is_finite() {
                s.grid.cell = if s.need.is_finite() {
                    (1.25 * s.need).max(super::grid::MIN_CELL)
                } else {
                    1.0
                };
            }
        }
        // Only a gathering and the probes without a list walk the hash:
        // while every probe tests its own candidates it is not sorted (the
        // candidates' cells are found from their centroids, the same cells).
        self.walked = regather || !listing || self.searching;
    }

    /// Sorts each body's triangles into its hash by their centroids now
    /// (their [`Shape`]s); one thread, in a substep [`Sheets::build`] said
    /// walks the hash.
    pub fn sort(&mut self) {
        for s in &mut self.sheets {
            let shapes = &self.shapes[s.first..s.first + s.count];
            for (k, sh) in shapes.iter().enumerate() {
                s.grid.place(k, sh.mid());
            }
            s.grid.sort();
        }
    }

    /// After the candidates were gathered: notes whether some probe has
    /// none (too many to list), so searches the hash, and which triangles
    /// the lists hold ([`Sheets::sparse`]).
    pub fn note_searches(&mut self) {
        self.searching = self.cached.len.contains(&super::anchors::UNLISTED);
        self.cached.note_needed();
    }

    /// The deepest contact of probe `k` with another body's triangle: its
    /// triangle and the moves. `prev` and `x` give positions at the start
    /// of the substep and now.
    pub fn deepest(
        &self,
        k: usize,
        prev: impl Fn(usize) -> Vec3,
        x: impl Fn(usize) -> Vec3,
        inv_mass: &[f32],
        radius: &[f32],
    ) -> Option<(u32, Touch)> {
        let (p, (from, to), partners) = self.probe_at(k, &prev, &x);
        let mut best: Option<(u32, Hit)> = None;
        for s in self.sheets.iter().filter(|s| s.body != self.probe_body[k]) {
            let (lo, hi) = s.walk(from, to);
            s.grid.each_in_cells(lo, hi, |t| {
                let t = s.first + t;
                let Some(c) = self.consider(t, p, partners, (from, to), inv_mass, radius[p]) else {
                    return;
                };
                if best.as_ref().is_none_or(|b| c.depth > b.1.depth) {
                    best = Some((t as u32, c));
                }
            });
        }
        best.map(|(t, h)| {
            (
                t,
                self.moves_at(t as usize, p, h, (from, to), (&prev, &x), inv_mass),
            )
        })
    }

    /// Probe `k`'s world particle, its path this substep (positions at the
    /// start from `prev`, now from `x`) and the particles it is joined to.
    #[inline(always)]
    fn probe_at(
        &self,
        k: usize,
        prev: impl Fn(usize) -> Vec3,
        x: impl Fn(usize) -> Vec3,
    ) -> (usize, (Vec3, Vec3), &[u32]) {
        let p = self.probe[k] as usize;
        (p, (prev(p), x(p)), self.partners_of(k))
    }

    /// The particles probe `k` is joined to.
    fn partners_of(&self, k: usize) -> &[u32] {
        &self.partners[self.partner_start[k] as usize..self.partner_start[k + 1] as usize]
    }

    /// Whether triangle `t` holds nothing up (torn) or has one of
    /// `partners` as a corner.
    #[inline(always)]
    fn ignores(&self, t: usize, partners: &[u32]) -> bool {
        let partner = |i: &u32| partners.contains(i);
        !self.alive[t] || (!partners.is_empty() && self.tri[t].iter().any(partner))
    }

    /// The moves of particle `p` (which moved `from` → `to`) and triangle
    /// `t`'s corners at `h`, its hit ([`Sheets::against`]).
    fn moves_at(
        &self,
        t: usize,
        p: usize,
        h: Hit,
        (from, to): (Vec3, Vec3),
        (prev, x): (impl Fn(usize) -> Vec3, impl Fn(usize) -> Vec3),
        inv_mass: &[f32],
    ) -> Touch {
        let n = self.shapes[t]
            .face()
            .expect("a triangle hit has a face")
            .normal();
        let ids = self.tri[t];
        let (was, now) = (corners(ids, &prev), corners(ids, &x));
        let wt = corners(ids, |i| inv_mass[i]);
        moves(h, from, to, was, now, n, inv_mass[p], wt)
    }

    /// Triangle `t` for particle `p` (which moved `from` → `to`): unless
    /// it is torn or has one of `partners` as a corner, [`Sheets::against`].
    #[inline(always)]
    fn consider(
        &self,
        t: usize,
        p: usize,
        partners: &[u32],
        path: (Vec3, Vec3),
        inv_mass: &[f32],
        r: f32,
    ) -> Option<Hit> {
        if self.ignores(t, partners) {
            return None;
        }
        self.against(t, p, path, inv_mass, r)
    }

    /// Particle `p` of radius `r`, which moved `from` → `to` this
    /// substep, against triangle `t` (its [`Shape`] this substep): a
    /// cheap box test, then [`hit`].
    #[inline(always)]
    fn against(
        &self,
        t: usize,
        p: usize,
        (from, to): (Vec3, Vec3),
        inv_mass: &[f32],
        r: f32,
    ) -> Option<Hit> {
        // The path's box against the box of the triangle then and now,
        // grown by the contact distance.
        let (lo, hi, corner_radius) = self.shapes[t].bound();
        let reach = r + corner_radius;
        if (from.min(to) - reach).cmpgt(hi).any() || (from.max(to) + reach).cmplt(lo).any() {
            return None;
        }
        let face = self.shapes[t].face()?;
        let wt = || corners(self.tri[t], |i| inv_mass[i]);
        hit(from, to, &face, reach, inv_mass[p], wt)
    }

    /// The world particles of triangle `t`.
    pub fn triangle(&self, t: u32) -> [u32; 3] {
        self.tri[t as usize]
    }

    /// Sizes the per-particle tables for `particles` world particles
    /// (bodies added after the sheets were set); allocates only then.
    pub fn fit(&mut self, particles: usize) {
        if self.any() && self.probe_of.len() != particles {
            self.probe_of.resize(particles, NONE);
            self.gathered.resize(particles, Vec4::ZERO);
            self.cached.anchors.fit(particles);
        }
    }
}

/// The largest of `values` (0 for none), in eight running maxima so that
/// consecutive values do not wait for one another (the same result: a max
/// does not depend on the order).
fn most(values: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    // Eight at a time, so that the maxima stay in registers (indexed by
    // k % 8 they went through memory: `Sheets::build`, which thread 0
    // runs alone, took 0.97 % of a one-thread profile of a pile of two
    // sheets, mostly here, and 0.57 % since).
    let mut eights = values.chunks_exact(8);
    for eight in &mut eights {
        for (m, &v) in lanes.iter_mut().zip(eight) {
            *m = m.max(v);
        }
    }
    for (m, &v) in lanes.iter_mut().zip(eights.remainder()) {
        *m = m.max(v);
    }
    lanes.into_iter().fold(0f32, f32::max)
}

/// `f` of a triangle's three corners: an array's `map`, which the
/// compiler left as a call in the contacts' hot loops.
#[inline(always)]
fn corners<T>(ids: [u32; 3], f: impl Fn(usize) -> T) -> [T; 3] {
    [f(ids[0] as usize), f(ids[1] as usize), f(ids[2] as usize)]
}
