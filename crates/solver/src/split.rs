//! Tears that separate: a breaking cloth link splits a particle in two.
//!
//! When a cloth link a–b passes its tear strain or force, particle a is
//! split by the plane through it perpendicular to a → b (Müller et al.
//! 2007, §4.5): the triangles around a whose centroid lies on b's side
//! keep a, the others move to a copy a′ that takes their share of a's
//! mass (by triangle count), so the two sides move apart and the cut is
//! the edges between them. Each of a's links follows its triangles: to a′
//! when only far triangles have the edge, to both (a duplicate) when the
//! edge is on the cut, so every triangle keeps its three edges' links —
//! no sliver stretches across the gap. A link that is no triangle's edge
//! (the other diagonal, bending across two cells) goes by the side of its
//! other end; a bending link that spans the cut through a breaks. A
//! dihedral follows its two triangles and breaks when they part.
//!
//! Sides are judged on the grid as built (integer row and column, a
//! copy's those of its original), so a split is a function of the
//! topology alone: replaying the tears in order rebuilds the same copies,
//! which is how a saved state resumes bit-exactly. When a has nothing on
//! the far side, b is split toward a instead; when neither can split, or
//! the body's spare slots are used up, the link just breaks and the
//! triangles with that edge are no longer drawn.
//!
//! Copies live in spare slots reserved after the cloth's particles when
//! it is built (one per particle), so no array grows and no index moves
//! mid-run; the tables that follow a body's particles (rest shape,
//! tethers, contacts, air) are rebuilt once after a frame's splits.

use glam::{IVec2, Vec3};

use super::{LinkKind, QuadKind, Tag, World};

/// A tearable cloth's surface: its triangles and where each particle sits
/// on the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Faces {
    /// Triangles as world particle indices, two per grid cell as built
    /// ((r, c), (r, c+1), (r+1, c) and (r, c+1), (r+1, c+1), (r+1, c));
    /// splits move corners to copies.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle: one of its edges' links broke without a split, so it
    /// is not drawn.
    pub dead: Vec<bool>,
    /// Per particle of the body: its grid index, row·columns + column (a
    /// copy has its original's).
    pub origin: Vec<u32>,
    /// Particles per grid row.
    pub columns: usize,
}

impl Faces {
    /// The faces of a fresh `columns` × `rows` grid whose first particle
    /// is `first`.
    pub fn grid(first: usize, columns: usize, rows: usize) -> Self {
        let triangles = grid_triangles(first, columns, rows);
        // Room for a copy of every particle (the spare slots), so a
        // split does not allocate.
        let n = columns * rows;
        let mut origin = Vec::with_capacity(2 * n);
        origin.extend(0..n as u32);
        Self {
            dead: vec![false; triangles.len()],
            triangles,
            origin,
            columns,
        }
    }

    /// Grid (column, row) of the body's particle `k`.
    pub fn cell(&self, k: usize) -> IVec2 {
        let o = self.origin[k] as usize;
        IVec2::new((o % self.columns) as i32, (o / self.columns) as i32)
    }
}

/// Lists a split fills, kept between splits so a tear allocates nothing.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    links: Vec<(usize, usize, usize, Tag)>,
    quads: Vec<(usize, usize, [u32; 4])>,
    around: Vec<(usize, bool)>,
    follow: Vec<((usize, usize), Follow)>,
    removed: Vec<(usize, usize)>,
    hinges: Vec<(usize, usize)>,
    torn_hinges: Vec<(usize, usize)>,
}

impl Scratch {
    /// Room for a particle with `n` links or triangles of each kind.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.links.reserve(n);
        self.quads.reserve(n);
        self.around.reserve(n);
        self.follow.reserve(n);
        self.removed.reserve(n);
        self.hinges.reserve(n);
        self.torn_hinges.reserve(n);
    }
}

/// The two triangles of every cell of a `columns` × `rows` grid whose
/// first particle is `first`: (r, c), (r, c+1), (r+1, c) and (r, c+1),
/// (r+1, c+1), (r+1, c), as world particle indices.
pub(crate) fn grid_triangles(first: usize, columns: usize, rows: usize) -> Vec<[u32; 3]> {
    grid_triangle_iter(first, columns, rows).collect()
}

/// [`grid_triangles`] one by one, without a list.
pub(crate) fn grid_triangle_iter(
    first: usize,
    columns: usize,
    rows: usize,
) -> impl Iterator<Item = [u32; 3]> {
    let id = move |r: usize, c: usize| (first + r * columns + c) as u32;
    (0..rows.saturating_sub(1)).flat_map(move |r| {
        (0..columns.saturating_sub(1)).flat_map(move |c| {
            [
                [id(r, c), id(r, c + 1), id(r + 1, c)],
                [id(r, c + 1), id(r + 1, c + 1), id(r + 1, c)],
            ]
        })
    })
}

/// What a split does to one of a's links.
#[derive(Clone, Copy, Debug)]
enum Follow {
    Stay,
    Move,
    Both,
}

impl World {
    /// The tears made so far, in order: the particle pairs of links that
    /// broke or split a particle (what a saved state replays).
    pub fn tears(&self) -> &[(u32, u32)] {
        &self.tears
    }

    /// Tears the link between particles `a` and `b`: splits a (or else b)
    /// when its body is a tearable cloth with a spare slot and the split
    /// separates something, otherwise removes the link. False when there
    /// is no such link.
    pub fn tear_link(&mut self, a: usize, b: usize) -> bool {
        let Some((colour, i)) = self.constraints.find(a, b) else {
            return false;
        };
        let tag = self.constraints.batches[colour].tag[i];
        let body = tag.body as usize;
        let splits = tag.kind != LinkKind::Join && self.bodies[body].faces.is_some();
        if !(splits && (self.split(body, a, b) || self.split(body, b, a))) {
            self.constraints.remove_at((colour, i));
            if let Some(f) = self.bodies[body].faces.as_mut() {
                for (t, dead) in f.triangles.iter().zip(&mut f.dead) {
                    *dead |= t.contains(&(a as u32)) && t.contains(&(b as u32));
                }
            }
        }
        self.tears.push((a as u32, b as u32));
        true
    }

    /// Splits particle `a` of cloth `body` by the plane through it
    /// perpendicular to a → b (module doc); false when that leaves one
    /// side empty or the body has no spare slot.
    fn split(&mut self, body: usize, a: usize, b: usize) -> bool {
        let mut s = std::mem::take(&mut self.scratch);
        let done = self.split_with(&mut s, body, a, b);
        self.scratch = s;
        done
    }

    fn split_with(&mut self, s: &mut Scratch, body: usize, a: usize, b: usize) -> bool {
        let bd = &self.bodies[body];
        let Some(f) = bd.faces.as_ref().filter(|_| bd.spare > 0) else {
            return false;
        };
        let first = bd.first;
        let at = |i: usize| f.cell(i - first);
        let (pa, dir) = (at(a), at(b) - at(a));
        // Three times a triangle's centroid, from a, along a → b: < 0 is far.
        let far = |t: &[u32; 3]| {
            let sum: IVec2 = t.iter().map(|&i| at(i as usize) - pa).sum();
            sum.dot(dir) < 0
        };
        s.around.clear();
        s.around.extend(
            (f.triangles.iter().enumerate())
                .filter(|(_, t)| t.contains(&(a as u32)))
                .map(|(k, t)| (k, far(t))),
        );
        let moved = s.around.iter().filter(|(_, far)| *far).count();
        if moved == 0 || moved == s.around.len() {
            return false;
        }
        let copy = first + bd.count;
        // Each link of a follows the triangles that have its edge.
        let around = &s.around;
        let edge_sides = |x: usize| {
            let with_x = around
                .iter()
                .filter(|(k, _)| f.triangles[*k].contains(&(x as u32)));
            with_x.fold((false, false), |(n, fa), (_, far)| (n || !far, fa || *far))
        };
        self.constraints.at(a, &mut s.links);
        s.follow.clear();
        for &(colour, i, x, tag) in &s.links {
            if tag.kind == LinkKind::Join || tag.body as usize != body {
                continue;
            }
            let how = match edge_sides(x) {
                (true, true) => Follow::Both,
                (false, true) => Follow::Move,
                (true, false) => Follow::Stay,
                (false, false) if (at(x) - pa).dot(dir) < 0 => Follow::Move,
                (false, false) => Follow::Stay,
            };
            s.follow.push(((colour, i), how));
        }
        // Bending links over a (a in the middle) that the cut crosses.
        let side = |i: usize| (at(i) - pa).dot(dir).signum();
        s.removed.clear();
        for (colour, batch) in self.constraints.batches.iter().enumerate() {
            for i in 0..batch.len() {
                let (x, z) = (batch.a[i] as usize, batch.b[i] as usize);
                if batch.tag[i].kind == LinkKind::Bend
                    && batch.tag[i].body as usize == body
                    && at(x) + at(z) == pa * 2
                    && side(x) * side(z) < 0
                {
                    s.removed.push((colour, i));
                }
            }
        }
        // A dihedral follows its two triangles (x₁, x₃, x₄), (x₂, x₃, x₄).
        self.quads.at(a, &mut s.quads);
        s.hinges.clear();
        s.torn_hinges.clear();
        for &(c, k, [x1, x2, x3, x4]) in &s.quads {
            if self.quads.kind[c][k] != QuadKind::Dihedral {
                continue;
            }
            let (f1, f2) = (far(&[x1, x3, x4]), far(&[x2, x3, x4]));
            let on_edge = a as u32 == x3 || a as u32 == x4;
            if on_edge && f1 != f2 {
                s.torn_hinges.push((c, k));
            } else if (a as u32 == x1 && f1) || (a as u32 == x2 && f2) || (on_edge && f1) {
                s.hinges.push((c, k));
            }
        }
        let share = moved as f32 / s.around.len() as f32;
        let origin = f.origin[a - first];

        self.particles.split(a, copy, share);
        let bd = &mut self.bodies[body];
        bd.count += 1;
        bd.spare -= 1;
        let f = bd.faces.as_mut().expect("checked above");
        f.origin.push(origin);
        for &(k, _) in s.around.iter().filter(|(_, far)| *far) {
            for corner in &mut f.triangles[k] {
                if *corner == a as u32 {
                    *corner = copy as u32;
                }
            }
        }
        // Renames keep their colours, so they go before the duplicates
        // take new ones at the copy.
        for &(at, how) in &s.follow {
            if let Follow::Move = how {
                self.constraints.rename(at, a, copy);
            }
        }
        for &(c, k) in &s.hinges {
            self.quads.rename((c, k), a, copy);
            self.constraints.mark_colour(&[a], c, false);
            self.constraints.mark_colour(&[copy], c, true);
        }
        for &(at, how) in &s.follow {
            if let Follow::Both = how {
                self.constraints.duplicate(at, a, copy);
            }
        }
        // Swap-removals last, from the back of each colour.
        s.removed.sort_unstable_by(|x, y| y.cmp(x));
        for &at in &s.removed {
            self.constraints.remove_at(at);
        }
        s.torn_hinges.sort_unstable_by(|x, y| y.cmp(x));
        for &(c, k) in &s.torn_hinges {
            let corners = self.quads.idx[c][k].map(|i| i as usize);
            self.constraints.mark_colour(&corners, c, false);
            self.quads.remove((c, k));
        }
        if !self.split_bodies.contains(&body) {
            self.split_bodies.push(body);
        }
        true
    }

    /// Makes room for every split the bodies' spare slots allow — the
    /// links they rename, duplicate and break, the tears' record — so a
    /// step that tears allocates nothing. Call once the world is built.
    pub fn reserve_for_splits(&mut self) {
        let spares: usize = self.bodies.iter().map(|b| b.spare).sum();
        if spares == 0 {
            return;
        }
        let n = self.particles.len();
        // Each split adds at most one link per colour (they all touch the copy).
        self.constraints.reserve_for_splits(n, spares);
        // A tear uses a spare slot or removes one of the links there are.
        let tears = self.constraints.tearable() + 3 * spares;
        self.tears.reserve(tears);
        self.overstressed.reserve(tears);
        for (k, b) in self.bodies.iter().enumerate() {
            self.contacts.reserve_rest_shape(k, b.spare);
        }
        self.scratch.reserve(64);
    }

    /// Rebuilds what follows the particles of the bodies split since the
    /// last call: rest shapes, tethers, contacts, triangle contacts and air.
    pub fn refresh_split(&mut self) {
        if self.split_bodies.is_empty() {
            return;
        }
        let mut bodies = std::mem::take(&mut self.split_bodies);
        self.constraints.invalidate();
        for &body in &bodies {
            let b = &self.bodies[body];
            let f = b.faces.as_ref().expect("only cloths with faces split");
            // A copy rests where its original does.
            self.contacts.grow_rest_shape(
                body,
                b.count,
                |rest: &[Vec3], k| rest[f.origin[k] as usize],
                &self.particles.radius,
            );
            if self.tethers.has(body) {
                self.set_tethers(body, true);
            }
            if let Some((drag, lift)) = self.aero.coefficients(body) {
                self.set_aero(body, drag, lift);
            }
        }
        if self.body_collisions() {
            self.set_body_collisions(true);
        }
        bodies.clear();
        self.split_bodies = bodies;
    }
}
