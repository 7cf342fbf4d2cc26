//! One global volume constraint per closed surface: a balloon's gas.
//!
//! For a closed, outward-wound triangle surface the enclosed volume and its
//! gradient are (divergence theorem, any origin o):
//!
//!   V = Σ_t (x_a − o) · ((x_b − o) × (x_c − o)) / 6
//!   ∇ᵢV = Σ_{t ∋ i} (x_j − o) × (x_k − o) / 6      ((i, j, k) in the triangle's order)
//!
//! and C = V − pressure·V₀, V₀ the volume as built: pressure 1 keeps the
//! volume, 1.5 inflates to 1.5·V₀ (the target moving there at
//! [`INFLATION_RATE`], from V₀ when the balloon is built). α (m⁵/N) is
//! m³ of volume per pascal.
//! The skeleton is every constraint's,
//! Δλ = (−k·C − α̃λ)/(Σ wᵢ|∇ᵢV|² + α̃), xᵢ += wᵢ·Δλ·∇ᵢV, but the sums run
//! over the whole surface, so the constraint is not coloured: it is a phase
//! of its own, after the coloured constraints of each pass, solved by one
//! thread in a fixed order (bit-identical for any thread count) into a
//! gradient buffer kept from build time (no allocation in the step). The
//! origin o is the surface's first particle, which keeps the products
//! small; sums are in f64.
//!
//! The move is made free of spin. The velocity update v = (x − x₀)/h
//! (x₀ where the substep began) makes a substep's angular momentum
//! Σ m x₀ × Δx / h, and a move wᵢ·Δλ·∇ᵢV(x) changes it by
//! −Δλ·Σ (x − x₀)ᵢ × ∇ᵢV(x) (Σ xᵢ × ∇ᵢV(x) is zero because V does not
//! change under rotation): the links' pull of the same substep crossed
//! with the gas's push. That spun a free balloon at pressure 1.2 up to
//! 0.74 J and rolled one on the ground away (issue 21). So the part of the
//! move that is a rigid turn about the free particles' centre at x₀,
//! δω = I⁻¹·Σ mᵢ rᵢ × Δxᵢ (rᵢ = x₀ᵢ − centre, I their inertia), is taken
//! out: the gas then changes neither momentum (Σ∇ᵢV = 0) nor angular
//! momentum, and a turn changes no volume to first order. (The gradient
//! at x₀ would conserve it too, but lags a crumpling skin: a balloon at
//! pressure 0.5 then bounced about at 7 m/s.)

use glam::{DMat3, DVec3, Vec3};

/// How fast a gas's target volume follows its pressure, in V₀ a second.
///
/// The volume is a hard constraint, so a target that jumps moves the skin
/// by the whole difference within one substep, and the velocity update
/// v = (x − x₀)/h turns that move into a speed of Δx/h: a balloon built
/// at pressure 10 on the ground pushed off it at hundreds of m/s and flew
/// 800 m up (a free one only shook, its skin's momenta cancelling). At 3
/// V₀ a second a balloon of radius R₀ leaves V₀ with its skin moving out
/// at R₀ a second (0.3 m/s for the scenes' 0.3 m balloons), slower as it
/// grows; the gas needs 3 s from pressure 1 to 10, and a change of a
/// tenth of the pressure is made within 1/30 s.
pub const INFLATION_RATE: f64 = 3.0;

/// How much smaller than as built a closed body's skin rests at
/// `pressure`: under pressure 1 the gas holds it to ∛pressure the size,
/// and its stretch links and its rest shape for contacts follow
/// (`World::add_gas`, `World::set_pressure`): particles that are
/// neighbours at that size must not push each other apart against the
/// gas (a self-colliding balloon at pressure 0.8 gained half again its
/// kinetic energy every second, to 14 J in 20 s). Over 1: as built.
pub fn rest_scale(pressure: f32) -> f32 {
    pressure.min(1.0).cbrt()
}

/// Scales `points` by `by` about their mean (a skin shrinking with its
/// gas: its particles as built, its rest shape for contacts).
pub(crate) fn scale_about_mean(points: &mut [Vec3], by: f32) {
    let centre = points.iter().copied().sum::<Vec3>() / points.len().max(1) as f32;
    for p in points {
        *p = centre + (*p - centre) * by;
    }
}

/// The volume enclosed by `triangles` (outward-wound, indices into `pos`), m³.
pub fn enclosed_volume(pos: &[Vec3], triangles: &[[u32; 3]]) -> f64 {
    volume_by(triangles, |i| pos[i])
}

/// The volume enclosed by `triangles` over positions `x(i)`, m³.
fn volume_by(triangles: &[[u32; 3]], x: impl Fn(usize) -> Vec3) -> f64 {
    let Some(first) = triangles.first() else {
        return 0.0;
    };
    let o = x(first[0] as usize).as_dvec3();
    triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| x(i as usize).as_dvec3() - o);
            a.dot(b.cross(c))
        })
        .sum::<f64>()
        / 6.0
}

/// The gas of one closed body.
#[derive(Clone, Debug)]
pub struct Enclosed {
    /// The body it belongs to.
    pub body: usize,
    /// Outward-wound surface triangles (world particle indices).
    pub(crate) triangles: Vec<[u32; 3]>,
    /// The body's first particle; gradients are stored from it on.
    first: usize,
    /// Volume as built, V₀ (m³).
    pub rest: f64,
    /// Target volume / V₀.
    pub pressure: f32,
    /// α (m⁵/N).
    pub compliance: f32,
    /// The target volume / V₀ now: it follows `pressure` at no more than
    /// [`INFLATION_RATE`] (see there).
    inflation: f64,
    lambda: f64,
    /// ∇ᵢV per particle of the body, refilled every projection.
    grad: Vec<DVec3>,
    /// (colour, index, end in the body) of every join that ties the body
    /// to another, found again every frame (`exec`): the turn their pull
    /// gives the skin is not taken out by [`Self::unspin`].
    pub(crate) joins: Vec<[u32; 3]>,
    /// [`Self::free_frame`] at the substep's start, made by its first
    /// projection (x₀ and the masses stay put through the substep).
    frame: Option<(DVec3, Option<DMat3>)>,
}

impl Enclosed {
    /// Makes the gas of the surface `triangles` over particles
    /// `first .. first + count` as they are now in `pos`.
    pub fn new(
        body: usize,
        pos: &[Vec3],
        triangles: Vec<[u32; 3]>,
        (first, count): (usize, usize),
        pressure: f32,
        compliance: f32,
    ) -> Self {
        assert!(
            triangles
                .iter()
                .flatten()
                .all(|&i| (first..first + count).contains(&(i as usize))),
            "Enclosed::new: a triangle names a particle outside {first}..{}",
            first + count
        );
        Self {
            body,
            rest: enclosed_volume(pos, &triangles),
            triangles,
            first,
            pressure,
            compliance,
            inflation: 1.0,
            lambda: 0.0,
            grad: vec![DVec3::ZERO; count],
            joins: Vec::new(),
            frame: None,
        }
    }

    /// The particles of the body: the gas's skin.
    pub(crate) fn particles(&self) -> std::ops::Range<usize> {
        self.first..self.first + self.grad.len()
    }

    /// One more than the highest particle index the gas moves (its
    /// triangles lie within its particles, checked by [`Self::new`]).
    pub fn particles_named(&self) -> usize {
        self.first + self.grad.len()
    }

    /// Makes the target volume `pressure`·V₀ at once, as for a balloon
    /// resumed from a saved state (saved inflated, not being inflated).
    pub fn settle(&mut self) {
        self.inflation = self.pressure as f64;
    }

    /// The target volume / V₀ now (it follows `pressure` at
    /// [`INFLATION_RATE`]).
    pub fn inflation(&self) -> f64 {
        self.inflation
    }

    /// The volume enclosed now (m³).
    pub fn volume(&self, pos: &[Vec3]) -> f64 {
        enclosed_volume(pos, &self.triangles)
    }

    /// λ accumulated in the current substep (N·s²/m²; λ/h² is the
    /// pressure the gas exerts beyond the target).
    pub(crate) fn lambda(&self) -> f64 {
        self.lambda
    }

    /// One projection on positions `x(i)` and inverse masses `w(i)`, its
    /// move made free of spin about the positions `x0(i)` the substep
    /// began from (see the module's notes); `apply(i, move)` adds a move to
    /// particle i. `first` resets λ.
    ///
    /// `clip(i, y)` is how far particle i at y must move back out of what
    /// it would be pressed into (colliders, rigid bodies, other bodies'
    /// sheets, whose corners it may move: `exec/gas.rs`): the gas does not
    /// press a skin into them. Returns whether it clipped a move (another
    /// projection then gives the rest of the skin the volume they took).
    pub(crate) fn project(
        &mut self,
        (x, x0): (impl Fn(usize) -> Vec3, impl Fn(usize) -> Vec3),
        w: impl Fn(usize) -> f32,
        clip: impl Fn(usize, Vec3) -> Vec3,
        mut apply: impl FnMut(usize, Vec3),
        (alpha_t, k, h, first): (f32, f32, f32, bool),
    ) -> bool {
        if first {
            self.frame = self.free_frame(&x0, &w);
            self.lambda = 0.0;
            let step = INFLATION_RATE * h as f64;
            let to = self.pressure as f64;
            self.inflation = to.clamp(self.inflation - step, self.inflation + step);
        }
        let c = self.gradient(&x) - self.inflation * self.rest;
        let alpha_t = alpha_t as f64;
        let denom = self.weighted_norm(&w) + alpha_t;
        if !(denom > 0.0 && denom.is_finite()) {
            return false;
        }
        let dl = (-(k as f64) * c - alpha_t * self.lambda) / denom;
        self.lambda += dl;
        let (centre, turn) = self.turn_of_move(&x0, &w, dl);
        let mut clipped = false;
        for (i, g) in self.grad.iter().enumerate() {
            let wi = w(self.first + i);
            if wi > 0.0 {
                let r = x0(self.first + i).as_dvec3() - centre;
                let m = (*g * (wi as f64 * dl) - turn.cross(r)).as_vec3();
                let out = clip(self.first + i, x(self.first + i) + m);
                clipped |= out != Vec3::ZERO;
                apply(self.first + i, m + out);
            }
        }
        clipped
    }

    /// The centre of the free particles at `x0` and the rigid turn δω in
    /// the move wᵢ·`dl`·∇ᵢV (zero when the free particles have no inertia
    /// to turn with, e.g. all on one line).
    fn turn_of_move(
        &self,
        x0: &impl Fn(usize) -> Vec3,
        w: &impl Fn(usize) -> f32,
        dl: f64,
    ) -> (DVec3, DVec3) {
        let Some((centre, inverse)) = self.frame else {
            return (DVec3::ZERO, DVec3::ZERO);
        };
        let Some(inverse) = inverse else {
            return (centre, DVec3::ZERO);
        };
        let mut torque = DVec3::ZERO;
        for i in (0..self.grad.len()).filter(|&i| w(self.first + i) > 0.0) {
            let r = x0(self.first + i).as_dvec3() - centre;
            // mᵢ rᵢ × (wᵢ·dl·∇ᵢV), mᵢwᵢ = 1.
            torque += r.cross(self.grad[i]) * dl;
        }
        (centre, inverse * torque)
    }

    /// The centre of the free particles at `x0` (None when there are
    /// none) and the inverse of their inertia about it (None when they
    /// have none to turn with, e.g. all on one line).
    fn free_frame(
        &self,
        x0: &impl Fn(usize) -> Vec3,
        w: &impl Fn(usize) -> f32,
    ) -> Option<(DVec3, Option<DMat3>)> {
        let free = || {
            (0..self.grad.len())
                .map(|i| (i, w(self.first + i) as f64))
                .filter(|&(_, wi)| wi > 0.0)
        };
        let (mut mass, mut moment) = (0.0, DVec3::ZERO);
        for (i, wi) in free() {
            mass += 1.0 / wi;
            moment += x0(self.first + i).as_dvec3() / wi;
        }
        if mass <= 0.0 {
            return None;
        }
        let centre = moment / mass;
        let mut inertia = DMat3::ZERO;
        for (i, wi) in free() {
            let r = x0(self.first + i).as_dvec3() - centre;
            let outer = DMat3::from_cols(r * r.x, r * r.y, r * r.z);
            inertia += (DMat3::IDENTITY * r.length_squared() - outer) / wi;
        }
        let det = inertia.determinant();
        let scale = inertia.col(0).x + inertia.col(1).y + inertia.col(2).z;
        let turns = det > 1e-12 * scale * scale * scale && det.is_finite();
        Some((centre, turns.then(|| inertia.inverse())))
    }

    /// After the substep's first [`Self::project`], takes out of the
    /// skin's moves since the substep's prediction,
    /// `moved(i)`, the rigid turn about the free particles' centre at
    /// `x0` that no outside pull gave it; `outside` lists, for each
    /// particle a join pulls, the momentum m·Δx the join gave it
    /// (λ·∇C). `apply(i, move)` adds a move to particle i. Nothing when a
    /// particle of the body is fixed, driven or held: its links are an
    /// outside pull too, which this does not count.
    ///
    /// Why: the links' Gauss–Seidel order turns a tensioned skin a little
    /// every substep (a link projected along its current direction changes
    /// the angular momentum by λ·(x₀ₐ − x₀ᵦ) × n, not zero once the link has
    /// turned since x₀), and the gas holds the skin taut: a free balloon
    /// at pressure 3 spun itself up to 0.12 J in 20 s, and on the ground
    /// friction rolled it away. The links, hinges and gas of one body pull
    /// it from within, and forces within a body change no angular
    /// momentum; what turns it from outside here is its joins (the rest —
    /// contacts, the hand, tethers, rigid bodies — acts after the gas).
    pub(crate) fn unspin(
        &self,
        (moved, x0, w): (
            impl Fn(usize) -> Vec3,
            impl Fn(usize) -> Vec3,
            impl Fn(usize) -> f32,
        ),
        outside: impl Iterator<Item = (usize, DVec3)>,
        mut apply: impl FnMut(usize, Vec3),
    ) {
        let body = self.particles();
        if body.clone().any(|i| w(i) <= 0.0) {
            return;
        }
        let Some((centre, Some(inverse))) = self.frame else {
            return;
        };
        let r = |i: usize| x0(i).as_dvec3() - centre;
        let mut torque = DVec3::ZERO;
        for i in body.clone() {
            torque += r(i).cross(moved(i).as_dvec3() / w(i) as f64);
        }
        for (i, pulled) in outside {
            torque -= r(i).cross(pulled);
        }
        let turn = inverse * torque;
        if turn.is_finite() {
            for i in body {
                apply(i, (-turn.cross(r(i))).as_vec3());
            }
        }
    }

    /// The dashpot β along the volume (DESIGN §2 step 6 with ∇V for n) on
    /// positions `x(i)` and velocities `v(i)`; `apply(i, Δv)` changes a
    /// particle's velocity.
    pub(crate) fn damp(
        &mut self,
        x: impl Fn(usize) -> Vec3,
        v: impl Fn(usize) -> Vec3,
        w: impl Fn(usize) -> f32,
        mut apply: impl FnMut(usize, Vec3),
        beta_h: f32,
    ) {
        self.gradient(&x);
        let rate: f64 = (self.grad.iter().enumerate())
            .map(|(i, g)| g.dot(v(self.first + i).as_dvec3()))
            .sum();
        let beta_h = beta_h as f64;
        let p = -rate * beta_h / (1.0 + beta_h * self.weighted_norm(&w));
        if p.is_finite() {
            self.apply_along_gradient(&w, p, &mut apply);
        }
    }

    /// Fills `grad` with ∇ᵢV at positions `x(i)` and returns V (m³).
    fn gradient(&mut self, x: &impl Fn(usize) -> Vec3) -> f64 {
        let o = x(self.triangles[0][0] as usize).as_dvec3();
        self.grad.fill(DVec3::ZERO);
        let mut six_v = 0.0;
        for t in &self.triangles {
            let [a, b, c] = t.map(|i| x(i as usize).as_dvec3() - o);
            let [ia, ib, ic] = t.map(|i| i as usize - self.first);
            six_v += a.dot(b.cross(c));
            self.grad[ia] += b.cross(c) / 6.0;
            self.grad[ib] += c.cross(a) / 6.0;
            self.grad[ic] += a.cross(b) / 6.0;
        }
        six_v / 6.0
    }

    /// Σ wᵢ|∇ᵢV|² of the last [`Self::gradient`].
    fn weighted_norm(&self, w: &impl Fn(usize) -> f32) -> f64 {
        (self.grad.iter().enumerate())
            .map(|(i, g)| w(self.first + i) as f64 * g.length_squared())
            .sum()
    }

    /// `apply(i, wᵢ·s·∇ᵢV)` for every free particle.
    fn apply_along_gradient(
        &self,
        w: &impl Fn(usize) -> f32,
        s: f64,
        apply: &mut impl FnMut(usize, Vec3),
    ) {
        for (i, g) in self.grad.iter().enumerate() {
            let wi = w(self.first + i);
            if wi > 0.0 {
                apply(self.first + i, (*g * (wi as f64 * s)).as_vec3());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube's 12 outward triangles over corners i + 2j + 4k.
    fn cube() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let pos = (0..8)
            .map(|i| Vec3::new((i & 1) as f32, (i >> 1 & 1) as f32, (i >> 2 & 1) as f32))
            .collect();
        let quads = [
            [0, 2, 3, 1], // z = 0, facing −z
            [4, 5, 7, 6], // z = 1
            [0, 1, 5, 4], // y = 0
            [2, 6, 7, 3], // y = 1
            [0, 4, 6, 2], // x = 0
            [1, 3, 7, 5], // x = 1
        ];
        let tris = quads
            .iter()
            .flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]])
            .collect();
        (pos, tris)
    }

    #[test]
    fn the_dashpot_along_the_volume_never_adds_kinetic_energy() {
        let (mut pos, tris) = cube();
        let mut gas = Enclosed::new(0, &pos, tris, (0, 8), 1.0, 0.0);
        let mut seed = crate::lcg::Lcg(5);
        let mut rnd = || seed.next_f32();
        for case in 0..200 {
            for p in &mut pos {
                *p += Vec3::new(rnd(), rnd(), rnd()) * 0.1;
            }
            // Corner 0 pinned (w = 0, at rest); the rest of random mass.
            let w: Vec<f32> = (0..8)
                .map(|i| if i == 0 { 0.0 } else { 1.0 + rnd() })
                .collect();
            let mut v: Vec<Vec3> = (0..8)
                .map(|i| Vec3::new(rnd(), rnd(), rnd()) * 10.0 * w[i].min(1.0))
                .collect();
            let ke = |v: &[Vec3]| -> f64 {
                (1..8)
                    .map(|i| 0.5 * v[i].length_squared() as f64 / w[i] as f64)
                    .sum()
            };
            let before = ke(&v);
            let (snapshot, speeds) = (pos.clone(), v.clone());
            let beta_h = 10f32.powf(6.0 * rnd());
            gas.damp(
                |i| snapshot[i],
                |i| speeds[i],
                |i| w[i],
                |i, dv| v[i] += dv,
                beta_h,
            );
            assert!(
                ke(&v) <= before * (1.0 + 1e-5),
                "case {case}: {before} → {}",
                ke(&v)
            );
        }
    }

    #[test]
    fn the_gas_moves_a_surface_without_changing_its_momentum_or_angular_momentum() {
        // Positions moved since the substep began (x ≠ x₀): the gradient at
        // x crossed with x − x₀ is what used to turn the body.
        let (start, tris) = cube();
        let mut seed = crate::lcg::Lcg(9);
        let mut rnd = || seed.next_f32();
        for case in 0..100 {
            let x0: Vec<Vec3> = start
                .iter()
                .map(|p| *p + Vec3::new(rnd(), rnd(), rnd()) * 0.1)
                .collect();
            let x: Vec<Vec3> = x0
                .iter()
                .map(|p| *p + Vec3::new(rnd(), rnd(), rnd()) * 0.1)
                .collect();
            let w: Vec<f32> = (0..8).map(|_| 1.0 + rnd().abs()).collect();
            let mut gas = Enclosed::new(0, &start, tris.clone(), (0, 8), 1.5, 0.0);
            let mut moves = [Vec3::ZERO; 8];
            gas.project(
                (|i| x[i], |i| x0[i]),
                |i| w[i],
                |_, _| Vec3::ZERO,
                |i, m| moves[i] += m,
                (0.0, 1.0, 0.01, true),
            );
            let momentum: Vec3 = (0..8).map(|i| moves[i] / w[i]).sum();
            let turn: Vec3 = (0..8).map(|i| x0[i].cross(moves[i]) / w[i]).sum();
            let size: f32 = (0..8).map(|i| moves[i].length() / w[i]).sum();
            assert!(size > 1e-3, "case {case}: the gas did not move ({size})");
            assert!(momentum.length() < 1e-5 * size, "case {case}: {momentum}");
            assert!(turn.length() < 1e-5 * size, "case {case}: {turn}");
        }
    }

    #[test]
    fn a_unit_cube_encloses_one_cubic_metre_wherever_it_is() {
        let (mut pos, tris) = cube();
        assert!((enclosed_volume(&pos, &tris) - 1.0).abs() < 1e-12);
        for p in &mut pos {
            *p += Vec3::new(100.0, -50.0, 7.0);
        }
        assert!((enclosed_volume(&pos, &tris) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn each_rigid_projection_leaves_the_square_of_a_squashed_cube_volume_error() {
        // A Newton step on C: what remains is second order in the error.
        let (mut pos, tris) = cube();
        let mut gas = Enclosed::new(0, &pos, tris, (0, 8), 1.0, 0.0);
        for p in &mut pos {
            p.y *= 0.9;
        }
        let before = gas.volume(&pos) - 1.0;
        let mut errors = vec![before];
        for _ in 0..2 {
            let snapshot = pos.clone();
            gas.project(
                (|i| snapshot[i], |i| snapshot[i]),
                |_| 1.0,
                |_, _| Vec3::ZERO,
                |i, m| pos[i] += m,
                (0.0, 1.0, 0.01, true),
            );
            errors.push(gas.volume(&pos) - 1.0);
        }
        assert!(before < -0.09, "{before}");
        for e in errors.windows(2) {
            assert!(e[1].abs() <= 0.5 * e[0] * e[0], "{errors:?}");
        }
    }

    #[test]
    fn unspin_leaves_only_the_turn_the_outside_pulls_give() {
        // Random moves of a cube's corners (random masses), one corner
        // pulled from outside: after the unspin the moves' angular
        // momentum about the centre at x0, Σ mᵢ rᵢ × Δxᵢ, is exactly the
        // pull's r × p, and the moves' momentum is unchanged.
        let (pos, tris) = cube();
        let mut gas = Enclosed::new(0, &pos, tris, (0, 8), 1.0, 0.0);
        // A substep's first projection finds the frame (k = 0: no move).
        let start = |gas: &mut Enclosed, w: &[f32]| {
            let none = |_, m: Vec3| assert_eq!(m, Vec3::ZERO, "k = 0 moves nothing");
            gas.project(
                (|i| pos[i], |i| pos[i]),
                |i| w[i],
                |_, _| Vec3::ZERO,
                none,
                (0.0, 0.0, 0.01, true),
            );
        };
        let mut seed = crate::lcg::Lcg(11);
        let mut rnd = || seed.next_f32() - 0.5;
        for _ in 0..100 {
            let w: Vec<f32> = (0..8).map(|_| 1.5 + rnd()).collect();
            let moved: Vec<Vec3> = (0..8)
                .map(|_| Vec3::new(rnd(), rnd(), rnd()) * 0.01)
                .collect();
            let pull = DVec3::new(rnd() as f64, rnd() as f64, rnd() as f64) * 0.01;
            let mut out = moved.clone();
            start(&mut gas, &w);
            gas.unspin(
                (|i| moved[i], |i| pos[i], |i| w[i]),
                [(3, pull)].into_iter(),
                |i, m| out[i] += m,
            );
            let mass = |i: usize| 1.0 / w[i] as f64;
            let total: f64 = (0..8).map(mass).sum();
            let centre = (0..8).map(|i| pos[i].as_dvec3() * mass(i)).sum::<DVec3>() / total;
            let spin = |d: &[Vec3]| {
                (0..8)
                    .map(|i| (pos[i].as_dvec3() - centre).cross(d[i].as_dvec3()) * mass(i))
                    .sum::<DVec3>()
            };
            let momentum = |d: &[Vec3]| (0..8).map(|i| d[i].as_dvec3() * mass(i)).sum::<DVec3>();
            let kept = (pos[3].as_dvec3() - centre).cross(pull);
            assert!(
                (spin(&out) - kept).length() < 1e-8,
                "{} vs {kept}",
                spin(&out)
            );
            assert!((momentum(&out) - momentum(&moved)).length() < 1e-8);
        }
        // A fixed corner: its links pull from outside too; nothing done.
        let w = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let mut touched = false;
        start(&mut gas, &w);
        gas.unspin(
            (|_| Vec3::X, |i| pos[i], |i| w[i]),
            [].into_iter(),
            |_, _| touched = true,
        );
        assert!(!touched);
    }
}
