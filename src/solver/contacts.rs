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
//! Each particle sums the pushes of all its contacts from the positions
//! after the constraint passes (Jacobi, not Gauss–Seidel): a particle only
//! writes its own correction, so the pass runs in parallel and gives the
//! same bits for any thread count. All storage is allocated up front.

use glam::Vec3;

use super::grid::Grid;

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
    /// Per entry: its current position (m), gathered once per substep.
    pub pos: Vec<Vec3>,
    /// Per entry: the push it gets this substep (m).
    pub correction: Vec<Vec3>,
    /// Per body: the box around its entries' positions this substep
    /// (empty for a body without entries). A particle that cannot touch
    /// its own body looks for partners only near another body's box.
    body_box: Vec<[Vec3; 2]>,
}

impl RestShape {
    /// False when a particle's radius is so large against the spacing of
    /// the rest shape ([`crate::solver::limits::RADIUS_PER_SPACING`]) that
    /// the spatial hash would compare every particle with every other.
    fn hash_is_useful(&self, radius: &[f32]) -> bool {
        let spacing = crate::solver::limits::spacing(self.rest.iter().copied());
        let largest = radius[self.first..self.first + self.rest.len()]
            .iter()
            .fold(0f32, |a, &r| a.max(r));
        !spacing.is_finite() || largest <= crate::solver::limits::RADIUS_PER_SPACING * spacing
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
        let n = self.particle.len();
        self.grid = Grid::new(n);
        self.grid.cell = cell.max(super::grid::MIN_CELL);
        self.pos = vec![Vec3::ZERO; n];
        self.correction = vec![Vec3::ZERO; n];
        self.body_box = vec![[Vec3::ZERO; 2]; self.shapes.len()];
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

    /// Sorts the entries into the hash by their positions `pos` and boxes
    /// each body's entries (one thread).
    pub fn build(&mut self) {
        self.body_box.fill([Vec3::INFINITY, Vec3::NEG_INFINITY]);
        for k in 0..self.len() {
            self.grid.place(k, self.pos[k]);
            let b = &mut self.body_box[self.body[k] as usize];
            *b = [b[0].min(self.pos[k]), b[1].max(self.pos[k])];
        }
        self.grid.sort();
    }

    /// Whether entry `k` can touch a particle of another body: it is
    /// within the largest contact distance (the cell) of that body's box.
    /// (Not finite positions compare false and are searched as before.)
    fn near_another_body(&self, k: usize) -> bool {
        let (x, reach, own) = (self.pos[k], self.grid.cell, self.body[k] as usize);
        self.body_box.iter().enumerate().any(|(b, [lo, hi])| {
            b != own && !((x + reach).cmplt(*lo).any() || (x - reach).cmpgt(*hi).any())
        })
    }

    /// The push entry `k` gets from every particle it overlaps.
    /// `inv_mass` and `radius` are indexed by world particle.
    pub fn push_of(&self, k: usize, inv_mass: &[f32], radius: &[f32]) -> Vec3 {
        let (pk, xk) = (self.particle[k] as usize, self.pos[k]);
        let wk = inv_mass[pk];
        let mut push = Vec3::ZERO;
        if wk == 0.0 || !(self.self_on[k] || self.between_bodies && self.near_another_body(k)) {
            return push;
        }
        let home = self.grid.cell_of(k);
        let around = (home.map(|c| c - 1), home.map(|c| c + 1));
        self.grid.each_in_cells(around.0, around.1, |j| {
            if j == k {
                return;
            }
            let same_body = self.body[j] == self.body[k];
            if (same_body && !self.self_on[k]) || (!same_body && !self.between_bodies) {
                return;
            }
            let pj = self.particle[j] as usize;
            let reach = radius[pk] + radius[pj];
            let d = xk - self.pos[j];
            let dist2 = d.length_squared();
            if dist2 >= reach * reach || dist2 < 1e-18 {
                return;
            }
            if same_body && self.rest[k].distance_squared(self.rest[j]) <= reach * reach {
                return; // neighbours in the rest shape
            }
            let dist = dist2.sqrt();
            let share = wk / (wk + inv_mass[pj]);
            push += d * ((reach - dist) / dist * share);
        });
        push
    }
}
