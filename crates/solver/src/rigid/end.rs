//! The two ends of a rigid constraint — a rigid body, a particle or the
//! world — and the XPBD corrections between them (Müller et al. 2020,
//! §3.3): generalised inverse masses, Δλ, and the moves of x and q.
//!
//! The small helpers are inlined into the constraints on the desktop (as
//! calls they passed their vectors through memory: `wrecking_ball` 1.17 →
//! 0.88 ms/frame), not in the browser, whose wasm must stay under 2 MB.

use glam::{Quat, Vec3};

use super::Rigid;

/// What a constraint holds: a rigid body, a particle (no orientation) or
/// the world (never moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// Index in the rigid bodies.
    Rigid(usize),
    /// World particle index.
    Particle(usize),
    /// Fixed in the world.
    World,
}

/// Where the constraints read and move particles (the step's tables).
pub(crate) trait Particles {
    /// The particle's position now (m).
    fn x(&self, i: usize) -> Vec3;
    /// Its position at the start of the substep (m).
    fn prev(&self, i: usize) -> Vec3;
    /// Its inverse mass (1/kg).
    fn w(&self, i: usize) -> f32;
    /// Its radius (m).
    fn radius(&self, i: usize) -> f32;
    /// True for a spare slot kept for a tear's copy (not a particle yet).
    fn spare(&self, i: usize) -> bool;
    /// Moves it by `by` (m).
    fn shift(&mut self, i: usize, by: Vec3);
    /// Its tether, if it has one.
    fn tether(&self, i: usize) -> Option<Tether>;
}

/// A particle's tether as the rigid constraints see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Tether {
    /// Where its pin is now (m).
    pub pin: Vec3,
    /// How far the pin moved this substep (m): a driven or held pin
    /// carries the tether's sphere along.
    pub pin_moved: Vec3,
    /// The largest distance the particle may be from the pin (m).
    pub length: f32,
}

/// The rigid bodies and particles the constraints of a substep move.
pub(crate) struct Ends<'a, P: Particles> {
    pub rigid: &'a mut [Rigid],
    pub particles: &'a mut P,
}

impl<P: Particles> Ends<'_, P> {
    /// Position of `end`'s point that sits at `local` in its frame (a
    /// particle's is the particle; the world's is `local` itself).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub fn point(&self, end: End, local: Vec3) -> Vec3 {
        match end {
            End::Rigid(r) => self.rigid[r].point(local),
            End::Particle(i) => self.particles.x(i),
            End::World => local,
        }
    }

    /// That point at the start of the substep.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub fn point_before(&self, end: End, local: Vec3) -> Vec3 {
        match end {
            End::Rigid(r) => {
                let b = &self.rigid[r];
                b.x_prev + b.q_prev * local
            }
            End::Particle(i) => self.particles.prev(i),
            End::World => local,
        }
    }

    /// The generalised inverse mass of `end` for a push along unit `n`
    /// at world point `at`, or for a turn about `n` when `at` is None.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub fn inv_mass(&self, end: End, n: Vec3, at: Option<Vec3>) -> f32 {
        match end {
            End::Rigid(r) => inv_mass(&self.rigid[r], n, at),
            End::Particle(i) if at.is_some() => self.particles.w(i),
            _ => 0.0,
        }
    }

    /// Applies impulse `p` (position level: N·s·h, so a move) to `end` at
    /// world point `at`, or the angular impulse `p` when `at` is None.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub fn apply(&mut self, end: End, p: Vec3, at: Option<Vec3>) {
        match end {
            End::Rigid(r) => {
                let b = &mut self.rigid[r];
                if b.fixed {
                    return;
                }
                let turn = match at {
                    Some(at) => {
                        let arm = at - b.x;
                        b.x += p / b.mass;
                        b.dx += p / b.mass;
                        arm.cross(p)
                    }
                    None => p,
                };
                let dw = world_inv_inertia(b, turn);
                b.q = turned(b.q, dw);
                b.dtheta += dw;
            }
            End::Particle(i) if at.is_some() => {
                let w = self.particles.w(i);
                self.particles.shift(i, p * w);
            }
            _ => {}
        }
    }

    /// The positional correction that moves `a`'s point `pa` by `corr`
    /// relative to `b`'s point `pb` (so that they meet when α = 0), with
    /// compliance `alpha_t` = α/h² (PBD: 0, and the move scaled by `k`)
    /// and the constraint's accumulated λ. Returns Δλ (≤ 0).
    pub fn correct(
        &mut self,
        (a, pa): (End, Vec3),
        (b, pb): (End, Vec3),
        corr: Vec3,
        (alpha_t, k): (f32, f32),
        lambda: &mut f32,
    ) -> f32 {
        self.pair(a, b, corr, (Some(pa), Some(pb)), (alpha_t, k), lambda)
    }

    /// The angular correction that turns `a` by the rotation vector
    /// `corr` relative to `b` (see [`Ends::correct`]).
    pub fn correct_angle(
        &mut self,
        a: End,
        b: End,
        corr: Vec3,
        (alpha_t, k): (f32, f32),
        lambda: &mut f32,
    ) -> f32 {
        self.pair(a, b, corr, (None, None), (alpha_t, k), lambda)
    }

    fn pair(
        &mut self,
        a: End,
        b: End,
        corr: Vec3,
        (pa, pb): (Option<Vec3>, Option<Vec3>),
        (alpha_t, k): (f32, f32),
        lambda: &mut f32,
    ) -> f32 {
        let c = corr.length();
        if c <= 0.0 || !c.is_finite() {
            return 0.0;
        }
        let n = corr / c;
        let w = self.inv_mass(a, n, pa) + self.inv_mass(b, n, pb);
        if w <= 0.0 {
            return 0.0;
        }
        let dl = k * (-c - alpha_t * *lambda) / (w + alpha_t);
        *lambda += dl;
        let p = n * -dl;
        self.apply(a, p, pa);
        self.apply(b, -p, pb);
        dl
    }

    /// Changes the relative velocity of `a`'s point `pa` against `b`'s
    /// by `dv` (m/s), by equal and opposite impulses at the two points.
    /// Rigid ends only (a particle's velocity is not this pass's).
    pub fn correct_velocity(&mut self, (a, pa): (End, Vec3), (b, pb): (End, Vec3), dv: Vec3) {
        let c = dv.length();
        if c <= 0.0 || !c.is_finite() {
            return;
        }
        let n = dv / c;
        let rigid_w = |e: End, at: Vec3, s: &Self| match e {
            End::Rigid(r) => inv_mass(&s.rigid[r], n, Some(at)),
            _ => 0.0,
        };
        let w = rigid_w(a, pa, self) + rigid_w(b, pb, self);
        if w <= 0.0 {
            return;
        }
        let p = dv / w;
        for (e, at, p) in [(a, pa, p), (b, pb, -p)] {
            if let End::Rigid(r) = e {
                let body = &mut self.rigid[r];
                if !body.fixed {
                    body.v += p / body.mass;
                    body.omega += world_inv_inertia(body, (at - body.x).cross(p));
                }
            }
        }
    }

    /// Angular velocity of `end` (a particle's or the world's: 0).
    pub fn spin(&self, end: End) -> Vec3 {
        match end {
            End::Rigid(r) => self.rigid[r].omega,
            _ => Vec3::ZERO,
        }
    }

    /// Gives rigid `end` the angular impulse `p` (N·m·s, world); nothing
    /// else turns.
    pub fn spin_up(&mut self, end: End, p: Vec3) {
        if let End::Rigid(r) = end {
            let body = &mut self.rigid[r];
            if !body.fixed {
                body.omega += world_inv_inertia(body, p);
            }
        }
    }

    /// Velocity of `end`'s world point `at` (a particle's or the world's: 0).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub fn velocity(&self, end: End, at: Vec3) -> Vec3 {
        match end {
            End::Rigid(r) => {
                let b = &self.rigid[r];
                b.v + b.omega.cross(at - b.x)
            }
            _ => Vec3::ZERO,
        }
    }
}

/// 1/m + (r × n)ᵀ I⁻¹ (r × n) for a push along `n` at `at`; nᵀ I⁻¹ n for a
/// turn about `n` (`at` None). 0 for a fixed body.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
pub fn inv_mass(b: &Rigid, n: Vec3, at: Option<Vec3>) -> f32 {
    if b.fixed {
        return 0.0;
    }
    let (base, axis) = match at {
        Some(at) => (1.0 / b.mass, (at - b.x).cross(n)),
        None => (0.0, n),
    };
    let local = b.q.conjugate() * axis;
    base + (local * local * b.inv_inertia()).element_sum()
}

/// I⁻¹·v in world coordinates: R·I_b⁻¹·Rᵀ·v.
#[cfg_attr(not(target_family = "wasm"), inline(always))]
pub fn world_inv_inertia(b: &Rigid, v: Vec3) -> Vec3 {
    b.q * (b.inv_inertia() * (b.q.conjugate() * v))
}

/// `q` turned by the rotation vector `dw`, exactly (the paper's
/// q + ½[dw, 0]·q turns by less than |dw|, so the angular velocity Δθ/h
/// that books dw would run ahead of the pose).
#[cfg_attr(not(target_family = "wasm"), inline(always))]
pub fn turned(q: Quat, dw: Vec3) -> Quat {
    (Quat::from_scaled_axis(dw) * q).normalize()
}
