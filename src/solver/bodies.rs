//! What a body can be given after it is built: a rest shape (for
//! self-collision and tethers), tethers, air on its triangles, a gas (a
//! closed surface's volume), collisions with itself and other bodies.

use glam::Vec3;

use super::{Enclosed, Shape, Tethers, World, enclosed_volume};

impl World {
    /// Gives body `body` a rest shape — its particles' positions when
    /// undeformed — so it can self-collide: particles that close at rest
    /// (neighbours) never push each other.
    pub fn set_rest_shape(&mut self, body: usize, rest: Vec<Vec3>) {
        let b = &self.bodies[body];
        debug_assert_eq!(rest.len(), b.count);
        self.contacts.set_rest_shape(body, b.first, rest);
    }

    /// Tethers every particle of body `body` to its nearest pin, or takes
    /// its tethers away (see [`Tethers`]); the table follows pins and
    /// broken links. Returns whether the body is tethered: only a body with
    /// a rest shape (see [`World::set_rest_shape`]) can be.
    pub fn set_tethers(&mut self, body: usize, on: bool) -> bool {
        let range = self.bodies[body].range();
        match self.contacts.rest_shape(body).filter(|_| on) {
            Some(rest) => self.tethers.add(body, range, rest.to_vec()),
            None => self.tethers.remove(body),
        }
        self.tethers.has(body)
    }

    /// Gives cloth body `body` drag and lift coefficients (C_d, C_l ≥ 0)
    /// on each of its triangles (see [`Aero`]). False for a body that is
    /// not a cloth.
    pub fn set_aero(&mut self, body: usize, drag: f32, lift: f32) -> bool {
        let b = &self.bodies[body];
        let Shape::Cloth { columns, rows } = b.shape else {
            return false;
        };
        let id = |r: usize, c: usize| (b.first + r * columns + c) as u32;
        let mut triangles = Vec::with_capacity(2 * (rows - 1) * (columns - 1));
        for r in 0..rows - 1 {
            for c in 0..columns - 1 {
                triangles.push([id(r, c), id(r, c + 1), id(r + 1, c)]);
                triangles.push([id(r, c + 1), id(r + 1, c + 1), id(r + 1, c)]);
            }
        }
        self.aero
            .set(body, triangles, drag, lift, self.particles.len());
        true
    }

    /// Gives body `body`, whose shape is [`Shape::Closed`], a gas: one
    /// global constraint holding its enclosed volume at `pressure` × the
    /// volume it has now, with compliance α (m⁵/N). False for another shape.
    pub fn add_gas(&mut self, body: usize, pressure: f32, compliance: f32) -> bool {
        let b = &self.bodies[body];
        let Shape::Closed { triangles } = &b.shape else {
            return false;
        };
        let first = b.first as u32;
        let world = triangles.iter().map(|t| t.map(|i| i + first)).collect();
        let gas = Enclosed::new(
            body,
            &self.particles.pos,
            world,
            (b.first, b.count),
            pressure,
            compliance,
        );
        self.volumes.push(gas);
        true
    }

    /// Body `body`'s gas, if it has one.
    pub fn gas_mut(&mut self, body: usize) -> Option<&mut Enclosed> {
        self.volumes.iter_mut().find(|g| g.body == body)
    }

    /// The volume a closed body encloses now (m³); None for other shapes.
    pub fn enclosed_volume(&self, body: usize) -> Option<f64> {
        let b = &self.bodies[body];
        match &b.shape {
            Shape::Closed { triangles } => {
                Some(enclosed_volume(&self.particles.pos[b.range()], triangles))
            }
            _ => None,
        }
    }

    /// The tethers (which bodies, and each particle's pin and length).
    pub fn tethers(&self) -> &Tethers {
        &self.tethers
    }

    /// Switches collisions between the particles of body `body` on or off.
    /// Returns whether they are on: never without a rest shape, nor when
    /// the body's radius exceeds `limits::RADIUS_PER_SPACING` × its
    /// particle spacing (the spatial hash would compare all pairs).
    pub fn set_self_collision(&mut self, body: usize, on: bool) -> bool {
        self.contacts.set_enabled(body, on, &self.particles.radius)
    }

    /// Switches collisions between particles of different ropes and cloths.
    pub fn set_body_collisions(&mut self, on: bool) {
        self.contacts.set_between_bodies(on, &self.particles.radius);
    }

    /// Whether particles of different ropes and cloths collide.
    pub fn body_collisions(&self) -> bool {
        self.contacts.between_bodies()
    }

    /// Whether the particles of body `body` collide with each other.
    pub fn self_collision(&self, body: usize) -> bool {
        self.contacts.enabled(body)
    }
}
