//! What the world measures: tension, strain, energies, pin forces —
//! read-only views for the panel, the plots, `run` and the tests.

use glam::Vec3;

use super::{LinkKind, Method, World};

impl World {
    /// Tension of a constraint whose last λ was `lambda`: |λ|/h² (N).
    pub fn tension(&self, lambda: f32) -> f32 {
        if self.last_h > 0.0 {
            lambda.abs() / (self.last_h * self.last_h)
        } else {
            0.0
        }
    }

    /// Kinetic energy Σ ½mv² of the free particles, and ½mv² + ½ωᵀIω of
    /// the rigid bodies (J).
    pub fn kinetic_energy(&self) -> f64 {
        let p = &self.particles;
        let particles: f64 = (0..p.len())
            .filter(|&i| p.inv_mass[i] > 0.0)
            .map(|i| 0.5 * p.mass[i] as f64 * p.vel[i].length_squared() as f64)
            .sum();
        particles + self.rigids.kinetic_energy()
    }

    /// Gravitational potential energy Σ −m·g·x of the free particles and
    /// rigid bodies (J).
    pub fn potential_energy(&self) -> f64 {
        let p = &self.particles;
        let g = self.settings.gravity;
        let particles: f64 = (0..p.len())
            .filter(|&i| p.inv_mass[i] > 0.0)
            .map(|i| -(p.mass[i] as f64) * g.dot(p.pos[i]) as f64)
            .sum();
        particles + self.rigids.potential_energy(g)
    }

    /// Elastic energy Σ ½·α·F² of the compliant constraints of every kind,
    /// F = |λ|/h² their generalised force in the last substep (J): a link's
    /// tension (N), a hinge's torque (N·m), a tetrahedron's or a gas's
    /// pressure (N/m²). 0 in PBD, which has no α.
    pub fn elastic_energy(&self) -> f64 {
        if self.settings.method == Method::Pbd || self.last_h <= 0.0 {
            return 0.0;
        }
        let h2 = (self.last_h as f64).powi(2);
        let stored = |alpha: f32, lambda: f64| 0.5 * alpha as f64 * (lambda / h2).powi(2);
        let links: f64 = self
            .constraints
            .iter()
            .map(|l| stored(l.compliance, l.lambda as f64))
            .sum();
        let quads: f64 = (self.quads.compliance.iter().flatten())
            .zip(self.quads.lambda.iter().flatten())
            .map(|(&a, &l)| stored(a, l as f64))
            .sum();
        let gas: f64 = (self.volumes.iter())
            .map(|g| stored(g.compliance, g.lambda()))
            .sum();
        links + quads + gas + self.rods.elastic_energy(h2) + self.rigids.elastic_energy(h2)
    }

    /// Constraint projections per frame with the current settings.
    pub fn projections_per_frame(&self) -> u64 {
        (self.constraints.len() + self.rods.constraint_count() + self.rigids.constraint_count())
            as u64
            * self.settings.substeps as u64
            * self.settings.iterations as u64
    }

    /// Largest strain (|x_a − x_b| − L)/L over all constraints (dimensionless).
    pub fn max_strain(&self) -> f32 {
        let pos = &self.particles.pos;
        self.constraints
            .iter()
            .map(|l| l.strain(pos))
            .fold(0.0, f32::max)
    }

    /// Largest constraint tension of the last substep (N).
    pub fn max_tension(&self) -> f32 {
        self.constraints
            .iter()
            .map(|l| self.tension(l.lambda))
            .fold(0.0, f32::max)
    }

    /// The energy books (J): where the energy is now and what was taken
    /// out by drag, damping and friction since the start. Their sum,
    /// [`EnergyBooks::total`], would be conserved by an exact integrator;
    /// its drift from the start is the method's numerical loss (and what
    /// the normal push of contacts took).
    pub fn energy_books(&self) -> EnergyBooks {
        let [drag, damping, friction] = self.particles.losses();
        let [rigid_drag, rigid_friction] = self.rigids.losses();
        let (drag, friction) = (drag + rigid_drag, friction + rigid_friction);
        EnergyBooks {
            kinetic: self.kinetic_energy(),
            gravity: self.potential_energy(),
            elastic: self.elastic_energy(),
            drag,
            damping,
            friction,
        }
    }

    /// Per body, its pieces: the connected components of its particles
    /// over the constraints that remain (a sheet torn in two: 2). Allocates.
    pub fn pieces(&self) -> Vec<usize> {
        let piece = self.piece_of();
        self.bodies()
            .iter()
            .map(|body| body.range().filter(|&i| piece[i] == i).count())
            .collect()
    }

    /// Per particle, its piece ([`World::pieces`]), named by the piece's
    /// lowest particle index: two particles hang together when they have
    /// the same. Allocates.
    pub fn piece_of(&self) -> Vec<usize> {
        let n = self.particles.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        // A body's own links and four-particle constraints (a neo-Hookean
        // solid has no links) only: joins tie bodies together, not pieces.
        let links = (self.constraints.iter())
            .filter(|l| l.tag.kind != LinkKind::Join)
            .map(|l| (l.a, l.b));
        let quads = (self.quads.idx.iter().flatten())
            .flat_map(|q| [(q[0], q[1]), (q[0], q[2]), (q[0], q[3])])
            .map(|(a, b)| (a as usize, b as usize));
        for (a, b) in links.chain(quads) {
            let (a, b) = (root(&mut parent, a), root(&mut parent, b));
            parent[a.max(b)] = a.min(b);
        }
        // A root is its piece's lowest index: every union hangs the higher
        // root under the lower.
        (0..n).map(|i| root(&mut parent, i)).collect()
    }

    /// The force (N) that held particle `i` (pinned, driven or grabbed)
    /// exerts on the constraints attached to it in the last substep:
    /// −Σ λ·∇_i C / h², with ∇_i C the unit vector from the other end to
    /// `i`. For the top pin of a hanging chain at rest it is the weight of
    /// everything below the pin, pointing up. None for a free particle.
    pub fn pin_force(&self, i: usize) -> Option<Vec3> {
        if self.particles.inv_mass[i] > 0.0 || self.last_h <= 0.0 {
            return None;
        }
        let pos = &self.particles.pos;
        let h2 = self.last_h * self.last_h;
        let force = self
            .constraints
            .iter()
            .filter(|l| l.a == i || l.b == i)
            .map(|l| {
                let other = if l.a == i { l.b } else { l.a };
                let n = (pos[i] - pos[other]).normalize_or_zero();
                -n * (l.lambda / h2)
            })
            .fold(Vec3::ZERO, |sum, f| sum + f);
        Some(force)
    }
}

/// Where a world's energy is and what took it out (J); see
/// [`World::energy_books`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EnergyBooks {
    /// Σ ½mv² of the free particles.
    pub kinetic: f64,
    /// Σ −m·g·x of the free particles.
    pub gravity: f64,
    /// Σ ½·α·F² over the compliant constraints of every kind (0 in PBD).
    pub elastic: f64,
    /// Taken out by air drag since the start (negative: the wind gave).
    pub drag: f64,
    /// Taken out by constraint damping since the start.
    pub damping: f64,
    /// Taken out by collider friction since the start.
    pub friction: f64,
}

impl EnergyBooks {
    /// Kinetic + gravitational + elastic: the energy the world holds.
    pub fn mechanical(&self) -> f64 {
        self.kinetic + self.gravity + self.elastic
    }

    /// The mechanical energy plus what drag, damping and friction took
    /// out: what an exact integrator with elastic contacts would keep
    /// constant. Its drift is the method's numerical loss plus what the
    /// normal push of contacts took (a landing is inelastic).
    pub fn total(&self) -> f64 {
        self.mechanical() + self.drag + self.damping + self.friction
    }
}
