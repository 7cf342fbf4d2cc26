//! What a body can be given after it is built: a rest shape (for
//! self-collision and tethers), tethers, air on its triangles, a gas (a
//! closed surface's volume), collisions with itself and other bodies.

use glam::Vec3;

use super::{
    Enclosed, LinkKind, MAX_COLOURS, QuadKind, Shape, Tag, Tethers, World, enclosed_volume,
};

impl World {
    /// Adds a distance constraint between particles `a` and `b` with rest
    /// length `rest` (m), compliance α (m/N) and tear strain (∞ = never),
    /// for body and kind `tag`, in the lowest colour neither particle has.
    ///
    /// # Panics
    /// When `a` or `b` is not a particle of the world, `a == b`, `rest` is
    /// negative or not finite, or α is negative or NaN.
    pub fn add_link(
        &mut self,
        (a, b): (usize, usize),
        rest: f32,
        compliance: f32,
        tear: f32,
        tag: Tag,
    ) {
        self.check_link("World::add_link", (a, b), rest, compliance);
        self.constraints.add(a, b, rest, compliance, tear, tag);
    }

    /// Panics, naming `caller`, unless `a` and `b` are two particles of
    /// the world, `rest` is finite and ≥ 0 and `compliance` ≥ 0.
    fn check_link(&self, caller: &str, (a, b): (usize, usize), rest: f32, compliance: f32) {
        self.check_particles(caller, &[a, b]);
        assert!(a != b, "{caller}: a link from particle {a} to itself");
        assert!(
            rest >= 0.0 && rest.is_finite() && compliance >= 0.0,
            "{caller}: rest length {rest} m must be finite and ≥ 0, compliance {compliance} m/N ≥ 0"
        );
    }

    /// [`Self::add_link`] for a link that only pulls: longer than `rest`
    /// it pulls its ends together, shorter it lets them close in freely (a
    /// membrane that wrinkles instead of carrying compression, as a
    /// balloon's skin). It never tears.
    ///
    /// # Panics
    /// As [`Self::add_link`].
    pub fn add_tension_link(
        &mut self,
        (a, b): (usize, usize),
        rest: f32,
        compliance: f32,
        tag: Tag,
    ) {
        self.check_link("World::add_tension_link", (a, b), rest, compliance);
        self.constraints
            .add_tension_only(a, b, rest, compliance, tag);
    }

    /// Panics, naming `caller`, unless every index in `p` is a particle.
    pub(crate) fn check_particles(&self, caller: &str, p: &[usize]) {
        let n = self.particles.len();
        if let Some(i) = p.iter().find(|&&i| i >= n) {
            panic!("{caller}: particle {i} is not in the world, which has {n} particles");
        }
    }

    /// Adds a four-particle constraint of `kind` on particles `p` with
    /// rest value `rest` and compliance α, for body `body`, in the lowest
    /// colour none of its particles has — of links or of quads, which
    /// share the colours and are solved colour by colour together.
    pub fn add_quad(
        &mut self,
        kind: QuadKind,
        p: [usize; 4],
        rest: f32,
        compliance: f32,
        body: usize,
    ) {
        self.add_shaped_quad(kind, p, (rest, [0.0; 9]), compliance, body);
    }

    /// [`Self::add_quad`] for a kind that keeps its rest shape `shape`
    /// (the neo-Hookean tetrahedra's D_m⁻¹, see [`super::neo_hookean`]).
    pub fn add_shaped_quad(
        &mut self,
        kind: QuadKind,
        p: [usize; 4],
        (rest, shape): (f32, [f32; 9]),
        compliance: f32,
        body: usize,
    ) {
        self.check_particles("World::add_quad", &p);
        // A corner named twice has no shape, and the SIMD lanes, which
        // write each corner once, would drop one of its moves.
        assert!(
            (0..4).all(|i| (i + 1..4).all(|j| p[i] != p[j])),
            "World::add_quad: the corners {p:?} are not four different particles"
        );
        let colour = self.constraints.free_colour(&p);
        assert!(
            colour < MAX_COLOURS,
            "a particle in more than {MAX_COLOURS} colours of constraints"
        );
        self.constraints.mark_colour(&p, colour, true);
        let size = super::dihedral::span(p.map(|i| self.particles.pos[i].into()));
        self.quads
            .push(colour, kind, p, (rest, size, shape), compliance, body);
    }

    /// Colours that hold links or four-particle constraints: the phases
    /// (barriers) of one Gauss–Seidel pass.
    pub fn colour_count(&self) -> usize {
        let n = self.constraints.batches.len().max(self.quads.idx.len());
        (0..n)
            .filter(|&c| {
                self.constraints.batches.get(c).is_some_and(|b| b.len() > 0)
                    || self.quads.idx.get(c).is_some_and(|q| !q.is_empty())
            })
            .count()
    }

    /// True when no particle has two constraints of one colour, links and
    /// four-particle constraints together (the overflow batch aside).
    pub fn colouring_is_valid(&self) -> bool {
        let n = self.particles.len();
        let mut seen = vec![0u64; n];
        let mut fresh = |i: usize, c: usize| {
            let was = seen[i] >> c & 1 == 0;
            seen[i] |= 1 << c;
            was
        };
        let links = self.constraints.iter_coloured();
        let links_ok = links
            .filter(|&(c, _)| c < MAX_COLOURS)
            .all(|(c, l)| fresh(l.a, c) & fresh(l.b, c));
        let quads_ok = (self.quads.idx.iter().enumerate())
            .all(|(c, q)| q.iter().flatten().all(|&i| fresh(i as usize, c)));
        links_ok && quads_ok
    }

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
    /// on each of its triangles (see [`Aero`](super::aero::Aero)). False for a body that is
    /// not a cloth.
    pub fn set_aero(&mut self, body: usize, drag: f32, lift: f32) -> bool {
        let b = &self.bodies[body];
        if !matches!(b.shape, Shape::Cloth { .. }) {
            return false;
        }
        let triangles = b.triangles();
        self.aero
            .set(body, triangles, drag, lift, self.particles.len());
        true
    }

    /// [`Self::set_aero`] for many bodies, `(body, drag, lift)`, in one
    /// pass (a scene's build); bodies that are not cloths are skipped.
    pub fn set_aero_many(&mut self, bodies: &[(usize, f32, f32)]) {
        let new = bodies
            .iter()
            .filter(|(b, ..)| matches!(self.bodies[*b].shape, Shape::Cloth { .. }))
            .map(|&(b, drag, lift)| (b, self.bodies[b].triangles(), drag, lift))
            .collect();
        self.aero.set_many(new, self.particles.len());
    }

    /// Gives body `body`, whose shape is [`Shape::Closed`], a gas: one
    /// global constraint holding its enclosed volume at `pressure` × the
    /// volume it has now, V₀, with compliance α (m⁵/N). False for another
    /// shape.
    ///
    /// Under pressure 1 the skin is too big for its gas. Left so, its
    /// tension-only links go slack and the crumpled skin never rests: its
    /// hinges keep it churning (65 mJ to 18 J for a balloon at pressure
    /// 0.1, more at more substeps). So the skin shrinks with its gas, as a
    /// rubber balloon does when air leaves it: its stretch links rest
    /// [`super::volume::rest_scale`] as long, and the body starts at that
    /// size about its centre with the gas at its target (a smaller sphere
    /// at rest).
    pub fn add_gas(&mut self, body: usize, pressure: f32, compliance: f32) -> bool {
        let b = &self.bodies[body];
        let Shape::Closed { triangles } = &b.shape else {
            return false;
        };
        let first = b.first as u32;
        let world = triangles.iter().map(|t| t.map(|i| i + first)).collect();
        let mut gas = Enclosed::new(
            body,
            &self.particles.pos,
            world,
            (b.first, b.count),
            pressure,
            compliance,
        );
        let scale = super::volume::rest_scale(pressure);
        if scale < 1.0 {
            let range = b.range();
            let pos = &mut self.particles.pos[range.clone()];
            super::volume::scale_about_mean(pos, scale);
            for (x, prev) in pos.iter().zip(&mut self.particles.prev[range]) {
                *prev = x.extend(prev.w);
            }
            self.constraints.scale_rest(body, LinkKind::Stretch, scale);
            gas.settle();
        }
        self.volumes.push(gas);
        true
    }

    /// Body `body`'s gas, if it has one (its pressure through
    /// [`World::set_pressure`]).
    pub fn gas_mut(&mut self, body: usize) -> Option<&mut Enclosed> {
        self.volumes.iter_mut().find(|g| g.body == body)
    }

    /// Sets the pressure of body `body`'s gas, and scales the body's rest
    /// shape for contacts to the size the gas holds it to
    /// ([`super::volume::rest_scale`]). False when it has no gas.
    pub fn set_pressure(&mut self, body: usize, pressure: f32) -> bool {
        let Some(gas) = self.volumes.iter_mut().find(|g| g.body == body) else {
            return false;
        };
        let before = super::volume::rest_scale(gas.pressure);
        gas.pressure = pressure;
        let by = super::volume::rest_scale(pressure) / before;
        if by != 1.0 {
            (self.contacts).scale_rest_shape(body, by, &self.particles.radius);
            self.constraints.scale_rest(body, LinkKind::Stretch, by);
        }
        true
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
        let enabled = self.contacts.set_enabled(body, on, &self.particles.radius);
        if let Some(rod) = self.rods.rods.iter_mut().find(|r| r.body == body) {
            rod.capsules = enabled;
        }
        enabled
    }

    /// Switches collisions between bodies: between particles of different
    /// bodies with rest shapes (ropes, cloths, balloons, soft boxes), and
    /// between those particles and the other bodies' triangles (see
    /// `sheets`). Bodies added later take part once this is called again.
    pub fn set_body_collisions(&mut self, on: bool) {
        self.contacts.set_between_bodies(on, &self.particles.radius);
        let (mut triangles, mut probes) = (Vec::new(), Vec::new());
        let colliding = (0..self.bodies.len())
            .filter(|&b| on && self.contacts.rest_shape(b).is_some())
            .map(|b| (b as u32, &self.bodies[b]));
        for (b, body) in colliding {
            triangles.extend(body.triangles().into_iter().map(|t| (t, b)));
            probes.extend(body.range().map(|i| (i as u32, b)));
        }
        let joined: Vec<(u32, u32)> = (self.constraints.iter())
            .filter(|l| l.tag.kind == LinkKind::Join)
            .map(|l| (l.a as u32, l.b as u32))
            .collect();
        self.sheets
            .set(triangles, probes, &joined, &self.particles.radius);
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
