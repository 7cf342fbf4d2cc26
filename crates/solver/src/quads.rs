//! Constraints on four particles, of every kind, in one coloured store.
//!
//! A kind is a module with one verb, `constraint(x, rest) → (C, ∇C)` on the
//! four positions: [`super::dihedral`] (C = θ − θ₀, the bending
//! angle between two triangles), [`super::tetra`] (C = V − V₀, a
//! tetrahedron's volume) and [`super::neo_hookean`] (C = √(2Ψ), a
//! tetrahedron's energy). [`project`] is the XPBD skeleton shared by all:
//!
//!   Δλ = (−k·C − α̃λ) / (Σ wᵢ|∇ᵢC|² + α̃),   λ += Δλ,   xᵢ += wᵢ·Δλ·∇ᵢC
//!
//! with α̃ = α/h² and k = 1 in XPBD, α̃ = 0 and k the PBD stiffness in PBD.
//! A zero or non-finite denominator (every corner fixed, a degenerate
//! shape) skips the constraint. Constraint damping β is the distance
//! constraint's dashpot with ∇C in place of n (DESIGN §2 step 6), see
//! [`damp`].
//!
//! They share the distance constraints' colours (see `World::add_quad`):
//! no particle has two constraints of one colour, whatever their kinds,
//! so colour c's links and four-particle constraints are solved in one
//! phase, each split among the threads: bit-identical for any thread
//! count.

use glam::{DVec3, Vec3, Vec3A};

use super::real::{Real, V3, dot, keep, scale};

/// What a four-particle constraint holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuadKind {
    /// The angle between triangles (x₁, x₃, x₄) and (x₂, x₄, x₃): α in rad/(N·m).
    Dihedral,
    /// The signed volume of tetrahedron (x₁, x₂, x₃, x₄): α in m⁵/N.
    Volume,
    /// A neo-Hookean tetrahedron (see [`super::neo_hookean`]): C = √(2Ψ),
    /// Ψ its energy density over its rest value (Pa), α = 1/V₀ in m⁻³;
    /// its Lamé μ and shifted λ' are the constraint's material.
    NeoHookean,
}

/// Every four-particle constraint, by colour.
#[derive(Clone, Debug, Default)]
pub struct Quads {
    /// Per colour: the four world particle indices.
    pub(crate) idx: Vec<Vec<[u32; 4]>>,
    /// Per colour: the kind of each constraint.
    pub(crate) kind: Vec<Vec<QuadKind>>,
    /// Per colour: rest value θ₀ (rad) or V₀ (m³).
    pub(crate) rest: Vec<Vec<f32>>,
    /// Per colour: compliance α.
    pub(crate) compliance: Vec<Vec<f32>>,
    /// Per colour: the constraint's size at rest (m), the longest
    /// distance between two of its corners ([`super::dihedral::span`];
    /// a hinge grown past twice it holds nothing).
    pub(crate) size: Vec<Vec<f32>>,
    /// Per colour: a tetrahedron's D_m⁻¹ for the neo-Hookean kinds
    /// (column-major; zeros for the others).
    pub(crate) shape: Vec<Vec<[f32; 9]>>,
    /// Per colour: the body each belongs to.
    pub(crate) body: Vec<Vec<u32>>,
    /// Per colour: accumulated λ of the current substep.
    pub(crate) lambda: Vec<Vec<f32>>,
    /// Per colour: a neo-Hookean tetrahedron's Lamé μ and shifted λ'
    /// (Pa; zeros for the other kinds).
    pub(crate) material: Vec<Vec<[f32; 2]>>,
}

impl Quads {
    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.idx.iter().map(Vec::len).sum()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of constraints of `kind`.
    pub fn count(&self, kind: QuadKind) -> usize {
        self.kind.iter().flatten().filter(|&&k| k == kind).count()
    }

    /// Every constraint's kind and four particles, colour by colour.
    pub fn iter(&self) -> impl Iterator<Item = (QuadKind, [u32; 4])> + '_ {
        (self.kind.iter().flatten().copied()).zip(self.idx.iter().flatten().copied())
    }

    /// Number of colours that hold some of them.
    pub fn colour_count(&self) -> usize {
        self.idx.iter().filter(|c| !c.is_empty()).count()
    }

    /// Adds a constraint of `kind` on particles `p` with rest value `rest`,
    /// rest size `size` (m) and compliance α in colour `colour`, which
    /// none of its particles has (see `World::add_quad`, which picks it).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn push(
        &mut self,
        colour: usize,
        kind: QuadKind,
        p: [usize; 4],
        (rest, size, shape): (f32, f32, [f32; 9]),
        compliance: f32,
        body: usize,
    ) {
        while self.idx.len() <= colour {
            for v in [
                &mut self.rest,
                &mut self.compliance,
                &mut self.size,
                &mut self.lambda,
            ] {
                v.push(Vec::new());
            }
            self.idx.push(Vec::new());
            self.kind.push(Vec::new());
            self.shape.push(Vec::new());
            self.body.push(Vec::new());
            self.material.push(Vec::new());
        }
        // A hinge's kernel wraps θ − θ₀ by one turn: θ₀ in [−π, π].
        let rest = match kind {
            QuadKind::Dihedral => super::dihedral::wrap(rest),
            _ => rest,
        };
        self.idx[colour].push(p.map(|i| i as u32));
        self.kind[colour].push(kind);
        self.rest[colour].push(rest);
        self.compliance[colour].push(compliance);
        self.size[colour].push(size);
        self.shape[colour].push(shape);
        self.lambda[colour].push(0.0);
        self.body[colour].push(body as u32);
        self.material[colour].push([0.0; 2]);
    }

    /// Puts (colour, index, particles) of every constraint on particle
    /// `p` in `found`.
    pub(crate) fn at(&self, p: usize, found: &mut Vec<(usize, usize, [u32; 4])>) {
        found.clear();
        for (c, idx) in self.idx.iter().enumerate() {
            for (k, q) in idx.iter().enumerate() {
                if q.contains(&(p as u32)) {
                    found.push((c, k, *q));
                }
            }
        }
    }

    /// Moves corner `from` of constraint (`c`, `k`) to particle `to`,
    /// which has no constraint of that colour (a split particle's copy;
    /// the caller moves the colour in the shared mask).
    pub(crate) fn rename(&mut self, (c, k): (usize, usize), from: usize, to: usize) {
        for i in &mut self.idx[c][k] {
            if *i as usize == from {
                *i = to as u32;
            }
        }
    }

    /// Removes constraint (`c`, `k`) (order inside a colour is free).
    /// The caller frees the colour at its particles in the shared mask.
    pub(crate) fn remove(&mut self, (c, k): (usize, usize)) {
        self.idx[c].swap_remove(k);
        self.kind[c].swap_remove(k);
        self.rest[c].swap_remove(k);
        self.compliance[c].swap_remove(k);
        self.size[c].swap_remove(k);
        self.shape[c].swap_remove(k);
        self.lambda[c].swap_remove(k);
        self.body[c].swap_remove(k);
        self.material[c].swap_remove(k);
    }

    /// Calls `f(kind, shape, compliance, material)` for every constraint
    /// of `body`.
    pub(crate) fn for_each_of(
        &mut self,
        body: usize,
        mut f: impl FnMut(QuadKind, &[f32; 9], &mut f32, &mut [f32; 2]),
    ) {
        for c in 0..self.idx.len() {
            for k in 0..self.idx[c].len() {
                if self.body[c][k] as usize == body {
                    let (compliance, material) =
                        (&mut self.compliance[c][k], &mut self.material[c][k]);
                    f(self.kind[c][k], &self.shape[c][k], compliance, material);
                }
            }
        }
    }

    /// (kind, compliance, material) of every constraint of `body`.
    pub(crate) fn of_body(&self, body: usize) -> impl Iterator<Item = (QuadKind, f32, [f32; 2])> {
        (0..self.idx.len()).flat_map(move |c| {
            (0..self.idx[c].len())
                .filter(move |&k| self.body[c][k] as usize == body)
                .map(move |k| (self.kind[c][k], self.compliance[c][k], self.material[c][k]))
        })
    }

    /// Sets the compliance of every constraint of `body` and `kind`.
    pub fn set_compliance(&mut self, body: usize, kind: QuadKind, compliance: f32) {
        self.for_each_of(body, |k, _, alpha, _| {
            if k == kind {
                *alpha = compliance;
            }
        });
    }

    /// The compliance of `body`'s constraints of `kind`, if it has any.
    pub fn compliance(&self, body: usize, kind: QuadKind) -> Option<f32> {
        self.of_body(body)
            .find(|&(k, ..)| k == kind)
            .map(|(_, alpha, _)| alpha)
    }
}

/// What a four-particle constraint keeps of its rest shape: its rest
/// value, its size (m) and, for a neo-Hookean tetrahedron, D_m⁻¹ and its
/// material (Lamé μ, shifted λ').
pub(crate) type Rest<'a> = (f32, f32, &'a [f32; 9], [f32; 2]);

/// The constraint value and gradient of a `kind` constraint on `x`: the
/// hinge in f32 (see [`super::dihedral`]), the volumes in f64 (a
/// tetrahedron's volume and det F are small differences of large
/// products) and rounded to f32 for the skeleton, as the moves are.
#[inline(always)]
fn constraint(
    kind: QuadKind,
    x: [Vec3A; 4],
    (rest, size, shape, material): Rest,
) -> Option<(f32, [Vec3A; 4])> {
    let wide = || x.map(|p| Vec3::from(p).as_dvec3());
    let narrow = |(c, g): (f64, [DVec3; 4])| (c as f32, g.map(|g| g.as_vec3().into()));
    match kind {
        QuadKind::Dihedral => {
            let (c, a) = super::dihedral::constraint(x.map(|p| p.to_array()), rest, size);
            a.ok.then(|| (c, a.grad.map(Vec3A::from_array)))
        }
        QuadKind::Volume => super::tetra::constraint(wide(), rest).map(narrow),
        QuadKind::NeoHookean => super::neo_hookean::constraint(wide(), shape, material).map(narrow),
    }
}

/// Σ wᵢ|∇ᵢC|², the constraint's inverse effective mass.
#[inline(always)]
fn weight<R: Real>(w: [R; 4], g: &[V3<R>; 4]) -> R {
    ((w[0] * dot(g[0], g[0]) + w[1] * dot(g[1], g[1])) + w[2] * dot(g[2], g[2]))
        + w[3] * dot(g[3], g[3])
}

/// The XPBD skeleton every kind shares, written once on [`Real`] so a
/// hinge in a SIMD lane runs it too: for a constraint that is `ok`, of
/// value `c` and gradient `g`, with inverse masses `w`, α̃ = `alpha_t`,
/// PBD stiffness `k` and accumulated `lambda`, Δλ and the four moves —
/// zero where it is skipped (not ok, every corner fixed, or a step that
/// is not finite).
#[inline(always)]
pub(crate) fn step<R: Real>(
    ok: R::Mask,
    c: R,
    g: [V3<R>; 4],
    w: [R; 4],
    alpha_t: R,
    k: R,
    lambda: R,
) -> (R, [V3<R>; 4]) {
    let denom = weight(w, &g) + alpha_t;
    let dl = (R::splat(0.0) - k * c - alpha_t * lambda) / denom;
    let ok = R::both(
        R::both(ok, denom.gt(R::splat(0.0))),
        R::both(denom.finite(), dl.finite()),
    );
    let dl = R::select(ok, dl, R::splat(0.0));
    let moves = [
        keep(ok, scale(g[0], w[0] * dl)),
        keep(ok, scale(g[1], w[1] * dl)),
        keep(ok, scale(g[2], w[2] * dl)),
        keep(ok, scale(g[3], w[3] * dl)),
    ];
    (dl, moves)
}

/// The velocity changes of the dashpot β along a `kind` constraint on
/// positions `x` and velocities `v` (DESIGN §2 step 6 with ∇C for n):
/// p = −(Σ ∇ᵢC·vᵢ)·βh / (1 + βh·Σ wᵢ|∇ᵢC|²), Δvᵢ = wᵢ·p·∇ᵢC. It removes
/// at most the whole rate of change of C, so it only takes energy out.
#[inline]
pub(crate) fn damp(
    kind: QuadKind,
    x: [Vec3A; 4],
    v: [Vec3A; 4],
    w: [f32; 4],
    rest: Rest,
    beta_h: f32,
) -> Option<[Vec3A; 4]> {
    let along = |grad: [Vec3A; 4], v: [Vec3A; 4]| {
        let rate = grad[0].dot(v[0]) + grad[1].dot(v[1]) + grad[2].dot(v[2]) + grad[3].dot(v[3]);
        let p = -rate * beta_h / (1.0 + beta_h * weight(w, &grad.map(|g| g.to_array())));
        p.is_finite()
            .then(|| std::array::from_fn(|i| grad[i] * (w[i] * p)))
    };
    let (_, grad) = constraint(kind, x, rest)?;
    along(grad, v)
}

/// One projection of a `kind` constraint on the current positions `x`
/// with inverse masses `w`: the moves to add (zero where skipped).
/// `alpha_t` = α/h²; `lambda` is updated. A hinge gives the bits of its
/// SIMD lanes: the same constraint and the same [`step`].
#[inline(always)]
pub(crate) fn project(
    kind: QuadKind,
    x: [Vec3A; 4],
    w: [f32; 4],
    rest: Rest,
    alpha_t: f32,
    k: f32,
    lambda: &mut f32,
) -> [Vec3A; 4] {
    let (ok, c, grad) = match constraint(kind, x, rest) {
        Some((c, grad)) => (true, c, grad),
        None => (false, 0.0, [Vec3A::ZERO; 4]),
    };
    let (dl, moves) = step(ok, c, grad.map(|g| g.to_array()), w, alpha_t, k, *lambda);
    *lambda += dl;
    moves.map(Vec3A::from_array)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dashpot_never_adds_kinetic_energy_to_a_hinge_or_a_tetrahedron() {
        let mut seed = crate::lcg::Lcg(3);
        let mut rnd = || seed.next_f32();
        for case in 0..400 {
            let kind = if case % 2 == 0 {
                QuadKind::Dihedral
            } else {
                QuadKind::Volume
            };
            let x: [Vec3A; 4] = std::array::from_fn(|_| Vec3A::new(rnd(), rnd(), rnd()));
            // The fourth corner pinned: at rest, w = 0.
            let w: [f32; 4] = std::array::from_fn(|k| if k == 3 { 0.0 } else { 1.0 + rnd() });
            let v: [Vec3A; 4] =
                std::array::from_fn(|k| Vec3A::new(rnd(), rnd(), rnd()) * 10.0 * w[k].min(1.0));
            let beta_h = 10f32.powf(6.0 * rnd());
            let Some(dv) = damp(kind, x, v, w, (0.0, 10.0, &[0.0; 9], [0.0; 2]), beta_h) else {
                continue;
            };
            let ke = |v: [Vec3A; 4]| -> f64 {
                (0..4)
                    .filter(|&k| w[k] > 0.0)
                    .map(|k| 0.5 * v[k].length_squared() as f64 / w[k] as f64)
                    .sum()
            };
            let after = std::array::from_fn(|k| v[k] + dv[k]);
            assert!(
                ke(after) <= ke(v) * (1.0 + 1e-5),
                "case {case}: {} → {}",
                ke(v),
                ke(after)
            );
        }
    }
}
