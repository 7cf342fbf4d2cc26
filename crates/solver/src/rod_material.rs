//! A rod's material and solver after it is built: each segment's
//! rotational inertia and compliances follow from them in one place
//! ([`Rods::derive`]), at build time and when the panel changes E, G or
//! the solver; and what its material holds at a joint ([`RodJoint`]),
//! which the window shows under the cursor.

use glam::Vec3;

use super::World;
use super::rods::{NO_CLAMP, RodMaterial, RodSolver, Rods};

impl Rods {
    /// The index of body `body`'s rod, if it is one.
    fn index_of(&self, body: usize) -> Option<usize> {
        self.rods.iter().position(|r| r.body == body)
    }

    /// Sets every segment of rod `r` from its material and solver: the
    /// inertia of its frame (a clamped one keeps none until freed), the
    /// stretch–shear compliance α/ℓ² (so a force F stretches it α·F), the
    /// joint's bend–twist compliance 1/(K·ℓ) with K = (E·I, E·I, G·J), and
    /// the rest Darboux vector.
    pub(crate) fn derive(&mut self, r: usize) {
        let rod = self.rods[r];
        let m = rod.material;
        let i_bend = m.density * m.area_moment();
        let (ei, gj) = (
            m.young_modulus * m.area_moment(),
            m.shear_modulus * 2.0 * m.area_moment(),
        );
        for s in rod.first_segment..rod.first_segment + rod.segments {
            let len = self.length[s];
            let (mut bend, twist) = (i_bend * len, 2.0 * i_bend * len);
            if rod.solver == RodSolver::GaussSeidel {
                // Gauss–Seidel with the cross-section's inertia alone
                // (w·h² ≫ α by 10⁹ on thin rods) diverged: coiling rods and
                // end moments reached 10⁵ J. Its frames also carry the
                // segment's inertia as a bar, mℓ²/12, about d₁ and d₂.
                bend += m.line_density() * len * len * len / 12.0;
            }
            let free = Vec3::new(1.0 / bend, 1.0 / bend, 1.0 / twist);
            self.free_inertia[s] = free;
            if self.clamp[s] == NO_CLAMP {
                self.inv_inertia[s] = free;
            }
            self.stretch_compliance[s] = m.stretch_compliance / (len * len);
            self.bend_compliance[s] =
                Vec3::new(1.0 / (ei * len), 1.0 / (ei * len), 1.0 / (gj * len));
            self.rest_darboux[s] = m.rest_darboux;
        }
    }
}

/// Greenhill's critical twisting moment of a straight rod built in
/// (clamped) at both ends and free of axial load, in units of E·I/L:
/// M = 2.86π·E·I/L (Greenhill 1883, as tabulated in Timoshenko & Gere's
/// "Theory of Elastic Stability"; 2π for ends free to turn).
pub const GREENHILL_CLAMPED: f32 = 2.86 * std::f32::consts::PI;

impl World {
    /// Rod body `body`'s material and solver, if it is a rod.
    pub fn rod_material(&self, body: usize) -> Option<(RodMaterial, RodSolver)> {
        let r = self.rods.of_body(body)?;
        Some((r.material, r.solver))
    }

    /// The twist (turns) past which rod body `body`, straight at rest and
    /// clamped at both ends, buckles out of its line (Greenhill): the end
    /// turn θ = M·L/(G·J) of [`GREENHILL_CLAMPED`]'s moment,
    /// 2.86π·E·I/(2π·G·J) turns with J = 2I, whatever its length. None
    /// for a rod not clamped at both ends or curved at rest.
    pub fn greenhill_turns(&self, body: usize) -> Option<f32> {
        let r = self.rods.of_body(body)?;
        let clamped = |k| self.rods.is_clamped(body, k);
        let m = r.material;
        if !(clamped(0) && clamped(r.segments)) || m.rest_darboux != Vec3::ZERO {
            return None;
        }
        let ratio = m.young_modulus / (2.0 * m.shear_modulus);
        Some(GREENHILL_CLAMPED * ratio / std::f32::consts::TAU)
    }

    /// The world index of particle `k` (numbered within it) of rod body
    /// `body`, if it has one.
    pub fn rod_particle(&self, body: usize, k: usize) -> Option<usize> {
        let r = self.rods.of_body(body)?;
        (k <= r.segments).then_some(r.first_particle + k)
    }

    /// Gives rod body `body` Young's modulus `young_modulus` and shear
    /// modulus `shear_modulus` (Pa): its bending and twisting stiffness
    /// change at once. False when the body is not a rod or a modulus is not
    /// finite and positive.
    pub fn set_rod_moduli(&mut self, body: usize, young_modulus: f32, shear_modulus: f32) -> bool {
        let ok = |x: f32| x > 0.0 && x.is_finite();
        let Some(r) = self.rods.index_of(body) else {
            return false;
        };
        if !(ok(young_modulus) && ok(shear_modulus)) {
            return false;
        }
        let m = &mut self.rods.rods[r].material;
        (m.young_modulus, m.shear_modulus) = (young_modulus, shear_modulus);
        self.rods.derive(r);
        true
    }

    /// Gives rod body `body` the cross-section radius `radius` (m): its
    /// stiffness (E·I and G·J go as r⁴), its frames' inertia, its
    /// particles' masses (ρπr²ℓ of each segment, half on each end) and
    /// contact radius follow, and the collision tables are rebuilt. False
    /// when the body is not a rod or the radius is outside
    /// [`super::limits::ROD_RADIUS`].
    pub fn set_rod_radius(&mut self, body: usize, radius: f32) -> bool {
        let Some(r) = self.rods.index_of(body) else {
            return false;
        };
        if !super::limits::ROD_RADIUS.contains(radius) {
            return false;
        }
        self.rods.rods[r].material.radius = radius;
        self.rods.derive(r);
        let rod = self.rods.rods[r];
        let line = rod.material.line_density();
        let half = |s: usize| 0.5 * line * self.rods.length[rod.first_segment + s];
        for k in 0..=rod.segments {
            let before = if k > 0 { half(k - 1) } else { 0.0 };
            let after = if k < rod.segments { half(k) } else { 0.0 };
            let i = rod.first_particle + k;
            self.particles.set_mass(i, before + after);
            self.particles.radius[i] = radius;
        }
        self.constraints.invalidate();
        if self.self_collision(body) {
            self.set_self_collision(body, true);
        }
        if self.contacts.between_bodies() {
            self.set_body_collisions(true);
        }
        true
    }

    /// The largest radius rod body `body` accepts now (m), if it is a
    /// rod: [`super::limits::ROD_RADIUS`]'s, or while its particles
    /// collide (self-collision or collisions between bodies)
    /// [`super::limits::RADIUS_PER_SPACING`] × its shortest segment, as
    /// the scene's checks ask of a radius in the file.
    pub fn rod_widest_radius(&self, body: usize) -> Option<f32> {
        let r = self.rods.of_body(body)?;
        let widest = super::limits::ROD_RADIUS.max;
        if !(self.self_collision(body) || self.body_collisions()) {
            return Some(widest);
        }
        let segments = r.first_segment..r.first_segment + r.segments;
        let spacing = (self.rods.length[segments].iter()).fold(f32::INFINITY, |a, &l| a.min(l));
        Some(widest.min(super::limits::RADIUS_PER_SPACING * spacing))
    }

    /// Solves rod body `body` by `solver` from the next step on (its
    /// frames' inertia follows: Gauss–Seidel adds the segments' bar
    /// inertia). False when the body is not a rod.
    pub fn set_rod_solver(&mut self, body: usize, solver: RodSolver) -> bool {
        let Some(r) = self.rods.index_of(body) else {
            return false;
        };
        self.rods.rods[r].solver = solver;
        self.rods.derive(r);
        true
    }
}

/// What a joint of a rod holds (see [`World::rod_joint`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RodJoint {
    /// The bending moment E·I·|κ − κ₀| (N·m), κ the joint's curvature
    /// about d₁ and d₂.
    pub bending: f32,
    /// The twisting moment G·J·(τ − τ₀) (N·m), τ its twist per length.
    pub twisting: f32,
    /// The twist from the rod's first segment to this joint (turns).
    pub turns: f64,
}

impl World {
    /// Joint `j` (between segments j and j + 1, numbered within the rod)
    /// of rod body `body`: the moments its material holds there, from the
    /// discrete Darboux vector Ω over the joint's length (the mean of its
    /// two segments'), M = (E·I, E·I, G·J) ⊙ (Ω − Ω₀), and the twist up to
    /// it. None when there is no such joint.
    pub fn rod_joint(&self, body: usize, j: usize) -> Option<RodJoint> {
        let rods = &self.rods;
        let r = rods.of_body(body)?;
        if j + 1 >= r.segments {
            return None;
        }
        let s = r.first_segment + j;
        let len = 0.5 * (rods.length[s] + rods.length[s + 1]);
        let off = super::rods::darboux(rods.q[s], rods.q[s + 1], len) - rods.rest_darboux[s];
        let m = r.material;
        let (ei, gj) = (
            m.young_modulus * m.area_moment(),
            m.shear_modulus * 2.0 * m.area_moment(),
        );
        let turns = rods.twist_angles(body)?.take(j + 1).sum::<f64>() / std::f64::consts::TAU;
        Some(RodJoint {
            bending: ei * off.truncate().length(),
            twisting: gj * off.z,
            turns,
        })
    }
}
