//! Particles as structure-of-arrays: one flat `Vec` per attribute.

use glam::{Vec3, Vec4};

/// Why a particle is not moved by the solver (bit flags, several may hold).
pub(crate) mod hold {
    /// Pinned by the scene or by the user.
    pub const PINNED: u8 = 1;
    /// Moved by a [`crate::Driver`].
    pub const DRIVEN: u8 = 2;
    /// Held by the mouse.
    pub const GRABBED: u8 = 4;
    /// A spare slot a tear has not used yet: no mass, not in any body
    /// (see [`crate::Body::spare`]).
    pub const SPARE: u8 = 8;
}

/// All particles of a world.
///
/// The tables are private and grow together through [`Particles::push`]:
/// safe code cannot make them disagree, which the step's unchecked reads
/// rely on.
///
/// ```compile_fail,E0616
/// let mut w = catenary::solver::World::default();
/// w.particles.pos.push(glam::Vec3::ZERO); // the tables are private
/// ```
/// ```compile_fail,E0624
/// use catenary::solver::{LinkKind, Tag, World};
/// let mut w = World::default();
/// // Only the crate adds unchecked links; World::add_link checks.
/// w.constraints.add(0, 1, 1.0, 0.0, f32::INFINITY, Tag::new(0, LinkKind::Stretch));
/// ```
///
/// # Invariants
/// - every `Vec` has the same length;
/// - `inv_mass[i] == 0` exactly when `hold[i] != 0`, otherwise `1 / mass[i]`;
/// - `mass[i] > 0` except in spare slots (mass 0, held by
///   `hold::SPARE`), and every position is finite.
#[derive(Clone, Debug, Default)]
pub struct Particles {
    /// Position x (m) (read with [`Particles::pos`]).
    pub(crate) pos: Vec<Vec3>,
    /// Position at the start of the current substep (m) in xyz; w holds
    /// a copy of the inverse mass, so the solver reads both in one load.
    pub(crate) prev: Vec<Vec4>,
    /// Displacement during the current substep, x − x_prev (m). The
    /// constraints work on it rather than on x: small corrections then
    /// keep their full f32 precision instead of being rounded to the
    /// spacing of the coordinates (which is what would let a soft,
    /// finely substepped chain come to rest a few percent off).
    /// (xyz; w is always 0.)
    pub(crate) delta: Vec<Vec4>,
    /// Velocity (m/s) (read with [`Particles::vel`]).
    pub(crate) vel: Vec<Vec3>,
    /// Inverse mass w (1/kg); 0 for pinned, driven or grabbed particles
    /// (read with [`Particles::inv_mass`]; changed only through holds).
    pub(crate) inv_mass: Vec<f32>,
    /// Mass m (kg), kept so a particle can be unpinned (read with [`Particles::mass`]).
    pub(crate) mass: Vec<f32>,
    /// Collision and drawing radius (m) (read with [`Particles::radius`]).
    pub(crate) radius: Vec<f32>,
    /// Bit set of [`hold`] reasons; 0 = free.
    pub(crate) hold: Vec<u8>,
    /// Energy taken out of this particle since the start (J), by
    /// [`losses`] kind: air drag, constraint damping, friction.
    pub(crate) lost: Vec<Losses>,
}

/// ½·m·(|before|² − |after|²) for inverse mass `w` (J), in f64: the
/// kinetic energy a velocity change took out, for the loss books.
#[inline]
pub(crate) fn kinetic_drop(w: f32, before: Vec3, after: Vec3) -> f64 {
    0.5 * (before.length_squared() as f64 - after.length_squared() as f64) / w as f64
}

/// A table by particle (counting sort): `items` — (particle, value) —
/// grouped by particle among `particles`, each particle's in the order
/// given, with where each particle's start (one past the end last).
/// Allocates.
pub(crate) fn by_particle<T: Copy + Default>(
    particles: usize,
    items: impl Iterator<Item = (u32, T)> + Clone,
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; particles + 1];
    for (i, _) in items.clone() {
        start[i as usize + 1] += 1;
    }
    for i in 0..particles {
        start[i + 1] += start[i];
    }
    let mut table = vec![T::default(); start[particles] as usize];
    let mut fill = start.clone();
    for (i, value) in items {
        table[fill[i as usize] as usize] = value;
        fill[i as usize] += 1;
    }
    (start, table)
}

/// Which mechanism took kinetic energy out (index into the loss books).
pub mod losses {
    /// Air drag toward the wind (negative when the wind does work).
    pub const DRAG: usize = 0;
    /// Constraint damping β.
    pub const DAMPING: usize = 1;
    /// Collider friction.
    pub const FRICTION: usize = 2;
}

/// Energy taken out since the start (J) by air drag, damping and friction:
/// the losses the books can follow exactly. Drag and damping change
/// velocities; friction shortens a particle's tangential displacement in
/// the substep, and so its velocity Δx/h, by a known amount. The other
/// position corrections (constraints, the normal push of a contact) are
/// not booked: what they remove shows as the remainder, with the method's
/// numerical loss.
pub type Losses = [f64; 3];

impl Particles {
    /// Panics with a message unless every table has one entry per
    /// particle (the first invariant). The tables are private and grow
    /// together in [`Particles::push`], so only a bug in the crate can
    /// break it; the step checks it, once, before its unchecked reads.
    pub fn assert_consistent(&self) {
        let n = self.pos.len();
        let lengths = [
            ("vel", self.vel.len()),
            ("radius", self.radius.len()),
            ("prev", self.prev.len()),
            ("delta", self.delta.len()),
            ("inv_mass", self.inv_mass.len()),
            ("mass", self.mass.len()),
            ("hold", self.hold.len()),
            ("lost", self.lost.len()),
        ];
        for (name, len) in lengths {
            assert!(
                len == n,
                "Particles::{name} has {len} entries for {n} positions: add and remove \
                 particles through World, not by pushing onto its tables"
            );
        }
    }

    /// Number of particles.
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    /// Positions x (m).
    pub fn pos(&self) -> &[Vec3] {
        &self.pos
    }

    /// Velocities (m/s); a held particle's is 0 (set them with
    /// [`crate::World::set_particle`]).
    pub fn vel(&self) -> &[Vec3] {
        &self.vel
    }

    /// Collision and drawing radii (m).
    pub fn radius(&self) -> &[f32] {
        &self.radius
    }

    /// Inverse masses w (1/kg): 0 for held particles.
    pub fn inv_mass(&self) -> &[f32] {
        &self.inv_mass
    }

    /// Energy taken out since the start by drag, damping and friction,
    /// summed over all particles (J).
    pub fn losses(&self) -> Losses {
        self.lost.iter().fold([0.0; 3], |mut sum, l| {
            for (s, l) in sum.iter_mut().zip(l) {
                *s += l;
            }
            sum
        })
    }

    /// Masses m (kg).
    pub fn mass(&self) -> &[f32] {
        &self.mass
    }

    /// True when there are no particles.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Appends a free particle at rest and returns its index.
    ///
    /// # Panics
    /// Unless `mass` (kg) is positive and finite, `pos` (m) finite and
    /// `radius` (m) finite and not negative.
    pub fn push(&mut self, pos: Vec3, mass: f32, radius: f32) -> usize {
        assert!(
            mass > 0.0
                && mass.is_finite()
                && pos.is_finite()
                && (0.0..f32::INFINITY).contains(&radius),
            "Particles::push: a particle needs a positive, finite mass (got {mass} kg), a finite \
             position (got {pos}) and a finite radius ≥ 0 (got {radius} m)"
        );
        self.pos.push(pos);
        self.prev.push(pos.extend(1.0 / mass));
        self.delta.push(Vec4::ZERO);
        self.vel.push(Vec3::ZERO);
        self.inv_mass.push(1.0 / mass);
        self.mass.push(mass);
        self.radius.push(radius);
        self.hold.push(0);
        self.lost.push([0.0; 3]);
        self.len() - 1
    }

    /// Appends a spare slot at `pos`: held, massless, radius 0, until a
    /// tear makes it a copy of a particle (see [`crate::World::tear_link`]).
    pub fn push_spare(&mut self, pos: Vec3) -> usize {
        let i = self.push(pos, 1.0, 0.0);
        self.mass[i] = 0.0;
        self.set_hold(i, hold::SPARE, true);
        i
    }

    /// Makes spare slot `copy` a copy of particle `i` — position, velocity,
    /// radius and pin — that takes `share` ∈ (0, 1) of its mass, so the two
    /// together keep the mass `i` had.
    pub(crate) fn split(&mut self, i: usize, copy: usize, share: f32) {
        debug_assert!(self.hold[copy] == hold::SPARE && share > 0.0 && share < 1.0);
        let taken = self.mass[i] * share;
        self.mass[copy] = taken;
        self.mass[i] -= taken;
        self.pos[copy] = self.pos[i];
        self.prev[copy] = self.prev[i];
        self.delta[copy] = self.delta[i];
        self.vel[copy] = self.vel[i];
        self.radius[copy] = self.radius[i];
        self.hold[copy] = self.hold[i] & hold::PINNED;
        self.update_inv_mass(copy);
        self.update_inv_mass(i);
    }

    /// Sets particle `i`'s mass to `kg` (> 0).
    pub(crate) fn set_mass(&mut self, i: usize, kg: f32) {
        debug_assert!(kg > 0.0 && kg.is_finite());
        self.mass[i] = kg;
        self.update_inv_mass(i);
    }

    /// Adds `kg` to particle `i`'s mass (a weight hung on it).
    pub(crate) fn add_mass(&mut self, i: usize, kg: f32) {
        debug_assert!(kg >= 0.0 && kg.is_finite());
        self.mass[i] += kg;
        self.update_inv_mass(i);
    }

    /// Sets or clears one hold reason and updates the inverse mass.
    pub(crate) fn set_hold(&mut self, i: usize, reason: u8, on: bool) {
        debug_assert!(self.pos[i].is_finite());
        if on {
            self.hold[i] |= reason;
        } else {
            self.hold[i] &= !reason;
        }
        self.update_inv_mass(i);
    }

    /// w = 1/m for a free particle, 0 for a held one (the invariant).
    fn update_inv_mass(&mut self, i: usize) {
        self.inv_mass[i] = if self.hold[i] == 0 {
            1.0 / self.mass[i]
        } else {
            0.0
        };
    }

    /// True when particle `i` is pinned (by the scene or the user).
    pub fn is_pinned(&self, i: usize) -> bool {
        self.hold[i] & hold::PINNED != 0
    }

    /// True when particle `i` is held kinematically by the hand.
    pub fn is_grabbed(&self, i: usize) -> bool {
        self.hold[i] & hold::GRABBED != 0
    }

    /// True when slot `i` is a spare no tear has used yet (no body's
    /// particle: not drawn, picked or counted).
    pub fn is_spare(&self, i: usize) -> bool {
        self.hold[i] & hold::SPARE != 0
    }

    /// True when particle `i` is moved by a driver.
    pub fn is_driven(&self, i: usize) -> bool {
        self.hold[i] & hold::DRIVEN != 0
    }
}

#[cfg(test)]
mod tests {
    use super::by_particle;

    #[test]
    fn a_table_by_particle_groups_items_in_the_order_given() {
        let items = [(2u32, 'a'), (0, 'b'), (2, 'c'), (3, 'd')];
        let (start, table) = by_particle(4, items.into_iter());
        assert_eq!(start, [0, 1, 1, 3, 4]);
        assert_eq!(table, ['b', 'a', 'c', 'd']);
    }
}
