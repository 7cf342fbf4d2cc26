//! Cosserat rods (Kugelstadt & Schömer 2016, "Position and Orientation
//! Based Cosserat Rods"): a centreline of particles plus one unit
//! quaternion qᵢ per segment, its material frame (d₁, d₂, d₃ = qᵢ·ẑ).
//!
//! Per segment i, between particles xᵢ and xᵢ₊₁ of rest length ℓ:
//!
//!   stretch–shear  C = (xᵢ₊₁ − xᵢ)/ℓ − d₃(qᵢ)                (3 rows)
//!
//! and per joint between segments i and i+1, with the discrete Darboux
//! vector Ω = (2/ℓ)·Im(q̄ᵢqᵢ₊₁) (the shorter of ±qᵢ₊₁), in 1/m:
//!
//!   bend–twist     C = Ω − Ω₀                                (3 rows)
//!
//! Ω's first two components are the curvatures about d₁, d₂, the third
//! the twist about d₃; Ω₀ is the rest curvature and twist. The energy of
//! a joint is ½ℓ·Σ Kₖ(Ωₖ − Ω₀ₖ)² with K = (E·I, E·I, G·J), I = πr⁴/4,
//! J = πr⁴/2, so its compliance is αₖ = 1/(Kₖ·ℓ).
//!
//! Orientations move by rotation vectors: a correction Δθ (rad, world
//! frame) changes q by ½\[Δθ, 0\]·q, normalised. A segment's rotational
//! inertia is its cross-section's, ρ·I·ℓ about d₁ and d₂ and ρ·J·ℓ about
//! d₃ (its mass is lumped on its two particles); inverse inertias are
//! kept in the material frame, where they are diagonal. The gradients:
//! - stretch–shear: ∂C/∂xᵢ = −1/ℓ, ∂C/∂xᵢ₊₁ = 1/ℓ, ∂C/∂θ = \[d₃\]×, so
//!   Δθ = w⊥·(Δλ × d₃) and the rotation adds w⊥ to the generalised
//!   inverse mass of C's rows across d₃ (none along it);
//! - bend–twist: ∂C/∂θᵢ₊₁ = −∂C/∂θᵢ = G = (r_w·I − \[r_v\]×)·R(qᵢ)ᵀ/ℓ
//!   with r = q̄ᵢqᵢ₊₁ (see `joint_gradient`; R(qᵢ)ᵀ/ℓ for a small
//!   relative rotation), and its three rows are solved together.
//!
//! Each rod is solved by one thread: by default all its constraints at
//! once (`rod_direct`), or constraint after constraint (Gauss–Seidel),
//! stretch–shear along the rod then bend–twist.

use glam::{DMat3, DVec3, Quat, Vec3};

/// The rods of a world, structure of arrays by segment.
///
/// # Invariants
/// Every per-segment `Vec` has one entry per segment of every rod;
/// each rod's segments are contiguous and its particles `first ..=
/// first + segments`.
#[derive(Clone, Debug, Default)]
pub struct Rods {
    /// Per rod: its body, first particle, first segment, segment count.
    pub(crate) rods: Vec<Rod>,
    /// Orientation of each segment's material frame (body → world).
    pub(crate) q: Vec<Quat>,
    /// Orientation at the start of the substep.
    pub(crate) q_prev: Vec<Quat>,
    /// Angular velocity (rad/s, world frame).
    pub(crate) omega: Vec<Vec3>,
    /// Inverse rotational inertia about d₁, d₂, d₃ (1/(kg·m²)); 0 for a
    /// clamped or twisted segment, whose orientation the solver does not move.
    pub(crate) inv_inertia: Vec<Vec3>,
    /// The inverse inertia a clamped segment gets back when freed.
    pub(crate) free_inertia: Vec<Vec3>,
    /// The world particle clamping the segment, or `NO_CLAMP`.
    pub(crate) clamp: Vec<u32>,
    /// Rest length ℓ of the segment (m).
    pub(crate) length: Vec<f32>,
    /// Stretch–shear compliance of the segment's C, a strain: the scene's
    /// α (m/N) over ℓ², so a force F stretches it α·F.
    pub(crate) stretch_compliance: Vec<f32>,
    /// Bend–twist compliance of the joint after this segment, per
    /// component (unused on a rod's last segment).
    pub(crate) bend_compliance: Vec<Vec3>,
    /// Rest Darboux vector of the joint after this segment (1/m).
    pub(crate) rest_darboux: Vec<Vec3>,
    /// λ of the stretch–shear constraint and of the joint after it.
    pub(crate) lambda_stretch: Vec<Vec3>,
    pub(crate) lambda_bend: Vec<Vec3>,
    /// A driven end: (rest orientation, axis, turns, seconds) — the
    /// segment turns about `axis` until it has turned `turns`.
    pub(crate) twist: Vec<Option<Twist>>,
    /// A torque on the segment: (N·m about a world axis, ramp seconds).
    pub(crate) torque: Vec<Option<(Vec3, f32)>>,
    /// That torque this substep, ramped (N·m, world).
    pub(crate) applied: Vec<Vec3>,
    /// Per segment: the direct solver's rows (see `rod_direct`).
    pub(crate) scratch: Vec<super::rod_direct::Block>,
}

/// A segment no particle clamps.
pub(crate) const NO_CLAMP: u32 = u32::MAX;

/// One rod's place in the tables.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rod {
    pub body: usize,
    pub first_particle: usize,
    pub first_segment: usize,
    pub segments: usize,
    pub solver: RodSolver,
    /// What its compliances and inertias come from.
    pub material: RodMaterial,
    /// Its segments meet each other as capsules (self-collision on; see
    /// `rod_contacts`).
    pub capsules: bool,
}

/// How a rod's constraints are solved in each pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RodSolver {
    /// One constraint after another: cheap, but a stiff rod of thin
    /// segments bends far more than its material allows unless given
    /// many passes.
    GaussSeidel,
    /// All of the rod's constraints at once (see `rod_direct`): stiff
    /// rods hold their stiffness in one pass.
    #[default]
    Direct,
}

/// A `Twist` driver on a clamped end's segment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Twist {
    /// The segment's orientation as built.
    pub rest: Quat,
    /// The rod's tangent there (unit, world).
    pub axis: Vec3,
    /// Turns to apply, and over how many seconds from `start` (s of
    /// simulated time: 0 for a scene's driver).
    pub turns: f32,
    pub seconds: f32,
    pub start: f64,
}

impl Twist {
    /// The segment's orientation at time `t` (s).
    pub fn at(&self, t: f64) -> Quat {
        Quat::from_axis_angle(self.axis, self.angle(t) as f32) * self.rest
    }

    /// How far it has turned the segment from `rest` at time `t` (rad).
    pub fn angle(&self, t: f64) -> f64 {
        let done = if self.seconds > 0.0 {
            ((t - self.start) / self.seconds as f64).clamp(0.0, 1.0)
        } else {
            1.0
        };
        std::f64::consts::TAU * self.turns as f64 * done
    }
}

/// A rod's material: what its compliances and inertias come from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RodMaterial {
    /// Cross-section radius r (m).
    pub radius: f32,
    /// Density ρ (kg/m³).
    pub density: f32,
    /// Young's modulus E (Pa): bending stiffness E·I.
    pub young_modulus: f32,
    /// Shear modulus G (Pa): twisting stiffness G·J.
    pub shear_modulus: f32,
    /// Stretch and shear compliance per segment (m/N).
    pub stretch_compliance: f32,
    /// Rest curvatures and twist (1/m, material frame).
    pub rest_darboux: Vec3,
}

impl RodMaterial {
    /// I = πr⁴/4 (m⁴).
    pub fn area_moment(&self) -> f32 {
        std::f32::consts::PI * self.radius.powi(4) / 4.0
    }

    /// Mass per unit length ρπr² (kg/m).
    pub fn line_density(&self) -> f32 {
        self.density * std::f32::consts::PI * self.radius * self.radius
    }
}

impl Rods {
    /// The number of rods.
    pub fn len(&self) -> usize {
        self.rods.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.rods.is_empty()
    }

    /// Adds a rod of body `body` on particles `first ..= first + n` at
    /// positions `x`, straight between each pair, of `material`; the
    /// material frame's d₃ lies along each segment.
    pub(crate) fn add(
        &mut self,
        (body, first): (usize, usize),
        x: &[Vec3],
        material: RodMaterial,
        solver: RodSolver,
    ) {
        let n = x.len() - 1;
        self.rods.push(Rod {
            body,
            first_particle: first,
            first_segment: self.q.len(),
            segments: n,
            solver,
            material,
            capsules: false,
        });
        for s in 0..n {
            let len = x[s].distance(x[s + 1]);
            let dir = (x[s + 1] - x[s]) / len;
            self.q.push(Quat::from_rotation_arc(Vec3::Z, dir));
            self.q_prev.push(*self.q.last().unwrap());
            self.omega.push(Vec3::ZERO);
            self.clamp.push(NO_CLAMP);
            self.length.push(len);
            // Filled in from the material by `derive`.
            self.inv_inertia.push(Vec3::ZERO);
            self.free_inertia.push(Vec3::ZERO);
            self.stretch_compliance.push(0.0);
            self.bend_compliance.push(Vec3::ZERO);
            self.rest_darboux.push(Vec3::ZERO);
            self.lambda_stretch.push(Vec3::ZERO);
            self.lambda_bend.push(Vec3::ZERO);
            self.twist.push(None);
            self.torque.push(None);
            self.applied.push(Vec3::ZERO);
            self.scratch.push(Default::default());
        }
        self.derive(self.rods.len() - 1);
    }

    /// Constraints of all rods: a stretch–shear per segment and a
    /// bend–twist per joint.
    pub fn constraint_count(&self) -> usize {
        self.rods.iter().map(|r| 2 * r.segments - 1).sum()
    }

    /// The rod of body `body`, if it is one.
    pub(crate) fn of_body(&self, body: usize) -> Option<&Rod> {
        self.rods.iter().find(|r| r.body == body)
    }

    /// The segment next to particle `k` of rod body `body` (numbered
    /// within it): the one it starts, or the last for the end particle.
    pub(crate) fn segment_at(&self, body: usize, k: usize) -> Option<usize> {
        let r = self.of_body(body)?;
        (k <= r.segments).then(|| r.first_segment + k.min(r.segments - 1))
    }

    /// Fixes segment `s`'s orientation, clamped by world particle
    /// `by` (a clamped end), or frees it (None).
    pub(crate) fn set_clamped(&mut self, s: usize, by: Option<usize>) {
        self.clamp[s] = by.map_or(NO_CLAMP, |i| i as u32);
        self.inv_inertia[s] = if by.is_some() {
            Vec3::ZERO
        } else {
            self.free_inertia[s]
        };
        self.omega[s] = Vec3::ZERO;
        if by.is_none() {
            self.twist[s] = None;
        }
    }

    /// Frees the clamp world particle `i` holds, if it holds one: an
    /// unpinned clamped end turns freely (and a Twist driver on it stops).
    /// Another particle of the segment, unpinned, leaves it clamped.
    pub(crate) fn unclamp_at(&mut self, i: usize) {
        let found = (self.rods.iter())
            .find(|r| (r.first_particle..=r.first_particle + r.segments).contains(&i))
            .map(|r| r.first_segment + (i - r.first_particle).min(r.segments - 1));
        if let Some(s) = found.filter(|&s| self.clamp[s] == i as u32) {
            self.set_clamped(s, None);
        }
    }

    /// True when segment `s` of rod body `body`'s particle `k` is clamped.
    pub fn is_clamped(&self, body: usize, k: usize) -> bool {
        self.segment_at(body, k)
            .is_some_and(|s| self.inv_inertia[s] == Vec3::ZERO)
    }

    /// The twist of rod body `body` in turns: the rotation of its last
    /// segment's frame about the rod relative to its first, summed joint
    /// by joint (see [`Rods::twist_angles`]).
    pub fn twist_turns(&self, body: usize) -> Option<f64> {
        let angles = self.twist_angles(body)?;
        Some(angles.sum::<f64>() / std::f64::consts::TAU)
    }

    /// Each joint's twist of rod body `body` (rad): its relative
    /// rotation's angle about d₃, 2·atan2(r_z, r_w).
    pub fn twist_angles(&self, body: usize) -> Option<impl Iterator<Item = f64> + '_> {
        let r = self.of_body(body)?;
        let s = r.first_segment;
        Some((s..s + r.segments - 1).map(|i| {
            let rel = shorter(self.q[i].conjugate() * self.q[i + 1]);
            2.0 * (rel.z as f64).atan2(rel.w as f64)
        }))
    }

    /// The segments of rod body `body` (none for another body).
    pub fn segments_of(&self, body: usize) -> std::ops::Range<usize> {
        self.of_body(body)
            .map_or(0..0, |r| r.first_segment..r.first_segment + r.segments)
    }

    /// Segment `s`'s orientation (material frame → world).
    pub fn orientation(&self, s: usize) -> Quat {
        self.q[s]
    }

    /// Segment `s`'s angular velocity (rad/s, world).
    pub fn angular_velocity(&self, s: usize) -> Vec3 {
        self.omega[s]
    }

    /// Segment `s`'s rest length ℓ (m).
    pub fn rest_length(&self, s: usize) -> f32 {
        self.length[s]
    }

    /// The rods' stored energy (J) as their constraints last pushed, as
    /// for the other kinds: ½·α·(λ/h²)² per row of every stretch–shear and
    /// bend–twist constraint of the last substep (`h2` = h²).
    pub fn elastic_energy(&self, h2: f64) -> f64 {
        let stored = |alpha: f32, lambda: f32| 0.5 * alpha as f64 * (lambda as f64 / h2).powi(2);
        let mut e = 0.0;
        for r in &self.rods {
            for s in r.first_segment..r.first_segment + r.segments {
                let l = self.lambda_stretch[s];
                e += stored(self.stretch_compliance[s], l.length());
                if s + 1 < r.first_segment + r.segments {
                    let (a, l) = (self.bend_compliance[s], self.lambda_bend[s]);
                    e += stored(a.x, l.x) + stored(a.y, l.y) + stored(a.z, l.z);
                }
            }
        }
        e
    }
}

impl super::World {
    /// The world's Cosserat rods.
    pub fn rods(&self) -> &Rods {
        &self.rods
    }

    /// Makes particles `first ..` (just pushed, the last ones of the
    /// world) body `body`'s Cosserat rod of `material`, solved by `solver`.
    ///
    /// # Panics
    /// When fewer than two particles follow `first` or two coincide.
    pub fn add_rod(&mut self, body: usize, first: usize, material: RodMaterial, solver: RodSolver) {
        let x: Vec<Vec3> = self.particles.pos[first..].to_vec();
        assert!(x.len() >= 2, "World::add_rod: a rod needs two particles");
        assert!(
            x.windows(2).all(|p| p[0].distance(p[1]) > 0.0),
            "World::add_rod: two of its particles coincide"
        );
        self.rods.add((body, first), &x, material, solver);
    }

    /// Clamps particle `k` (numbered within rod body `body`): its position
    /// and the adjacent segment's orientation are fixed. False when the
    /// body is not a rod or has no such particle.
    pub fn clamp_rod(&mut self, body: usize, k: usize) -> bool {
        let (Some(s), Some(r)) = (self.rods.segment_at(body, k), self.rods.of_body(body)) else {
            return false;
        };
        let i = r.first_particle + k;
        self.set_pinned(i, true);
        self.rods.set_clamped(s, Some(i));
        true
    }

    /// Puts rod body `body`'s segments at orientations `q` (unit: they are
    /// kept bit for bit, so a saved world resumes exactly) turning at
    /// `omega` (rad/s; none: at rest), e.g. to resume a saved world; a
    /// clamped segment gets no spin.
    ///
    /// # Panics
    /// Unless `q` has one entry per segment and `omega` one or none.
    pub fn set_rod_state(&mut self, body: usize, q: &[Quat], omega: &[Vec3]) {
        let segments = self.rods.segments_of(body);
        assert_eq!(
            q.len(),
            segments.len(),
            "World::set_rod_state: one orientation per segment"
        );
        assert!(omega.is_empty() || omega.len() == q.len());
        for (k, s) in segments.enumerate() {
            self.rods.q[s] = q[k];
            let free = self.rods.inv_inertia[s] != Vec3::ZERO;
            self.rods.omega[s] = omega.get(k).copied().filter(|_| free).unwrap_or(Vec3::ZERO);
            // A Twist rebuilt from the scene, on an end the panel turned
            // further before the save: it goes on from where the end was
            // (else the end would jump back by the panel's turns).
            if let Some(twist) = self.rods.twist[s]
                .as_mut()
                .filter(|t| t.at(self.time) != q[k])
            {
                let back = Quat::from_axis_angle(twist.axis, -twist.angle(self.time) as f32);
                twist.rest = back * q[k];
            }
        }
    }

    /// A `Twist` driver on clamped particle `k` of rod body `body`: its
    /// segment turns about the rod's tangent there by `turns` over
    /// `seconds`, then holds. False unless that particle is clamped.
    pub fn twist_rod(&mut self, body: usize, k: usize, turns: f32, seconds: f32) -> bool {
        self.twist_from(body, k, (turns, seconds), 0.0)
    }

    /// Turns clamped particle `k`'s segment of rod body `body` about the
    /// rod's tangent there by `turns`, from now over `seconds`, then holds
    /// it (the panel's twist; it takes over from a `Twist` driver still
    /// turning, from where that has got to). False unless that particle
    /// is clamped.
    pub fn turn_rod_end(&mut self, body: usize, k: usize, turns: f32, seconds: f32) -> bool {
        self.twist_from(body, k, (turns, seconds), self.time)
    }

    /// A [`Twist`] of (turns, seconds) from time `start` on clamped
    /// particle `k` of rod body `body`, from its segment's orientation now.
    fn twist_from(
        &mut self,
        body: usize,
        k: usize,
        (turns, seconds): (f32, f32),
        start: f64,
    ) -> bool {
        let Some(s) = self.rods.segment_at(body, k) else {
            return false;
        };
        if self.rods.inv_inertia[s] != Vec3::ZERO {
            return false;
        }
        let rest = self.rods.q[s];
        self.rods.twist[s] = Some(Twist {
            rest,
            axis: rest * Vec3::Z,
            turns,
            seconds,
            start,
        });
        true
    }

    /// A `Moment` driver: torque `torque` (N·m, world axis) on the
    /// segment at particle `k` of rod body `body`, ramped from 0 over
    /// `seconds`. False when the body is not a rod or has no such particle.
    pub fn torque_rod(&mut self, body: usize, k: usize, torque: Vec3, seconds: f32) -> bool {
        let Some(s) = self.rods.segment_at(body, k) else {
            return false;
        };
        self.rods.torque[s] = Some((torque, seconds));
        true
    }
}

/// q or −q, whichever has w ≥ 0 (the same rotation, the shorter way).
#[inline]
pub(crate) fn shorter(q: Quat) -> Quat {
    if q.w < 0.0 { -q } else { q }
}

/// The discrete Darboux vector of the joint between frames `q0` and `q1`
/// of segments of length `len` (1/m, in q0's material frame).
#[inline]
pub(crate) fn darboux(q0: Quat, q1: Quat, len: f32) -> Vec3 {
    let r = shorter(q0.conjugate() * q1);
    Vec3::new(r.x, r.y, r.z) * (2.0 / len)
}

/// `q` turned by the small rotation vector `dtheta` (rad, world frame):
/// q + ½\[Δθ, 0\]·q, normalised.
#[inline]
pub(crate) fn rotated(q: Quat, dtheta: Vec3) -> Quat {
    let dq = Quat::from_xyzw(dtheta.x, dtheta.y, dtheta.z, 0.0) * q;
    let turned = q + dq * 0.5;
    // A correction too large to be finite leaves the frame where it was.
    let norm = turned.length();
    if norm.is_finite() && norm > 0.0 {
        turned / norm
    } else {
        q
    }
}

/// One XPBD projection of a stretch–shear constraint on positions `x`
/// (inverse masses `w`) and orientation `q` (inverse inertia across d₃
/// `w_perp`): returns the moves of the two particles and the new
/// orientation. `alpha_t` = α/h², `k` the PBD stiffness; `lambda` updated.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn stretch_shear(
    x: [Vec3; 2],
    w: [f32; 2],
    q: Quat,
    w_perp: f32,
    len: f32,
    (alpha_t, k): (f32, f32),
    lambda: &mut Vec3,
) -> ([Vec3; 2], Quat) {
    let d3 = q * Vec3::Z;
    let c = (x[1] - x[0]) / len - d3;
    let moving = (w[0] + w[1]) / (len * len);
    let along = |v: Vec3| d3 * v.dot(d3);
    let (c_along, l_along) = (along(c), along(*lambda));
    let part = |c: Vec3, l: Vec3, denom: f32| {
        if denom > 0.0 && denom.is_finite() {
            -(c * k + l * alpha_t) / denom
        } else {
            Vec3::ZERO
        }
    };
    let mut dl = part(c_along, l_along, moving + alpha_t)
        + part(c - c_along, *lambda - l_along, moving + w_perp + alpha_t);
    let reach = dl.length() * w[0].max(w[1]) / len;
    dl *= within_turn(dl.cross(d3).length() * w_perp).min(within_turn(reach / len));
    *lambda += dl;
    let moves = [-dl * (w[0] / len), dl * (w[1] / len)];
    (moves, rotated(q, dl.cross(d3) * w_perp))
}

/// Frame `q` turned the shortest way so that its d₃ lies along its
/// segment `x[0]` → `x[1]`, where the two are further apart than one
/// Gauss–Seidel projection may turn a frame ([`MAX_TURN`], the threshold
/// for the direct solve's frames too); otherwise `q`. A segment
/// can turn faster than its frame follows: a rod saved spinning at 50 m/s
/// turns its 2.5 cm segments 3 rad a substep, while a Gauss–Seidel frame
/// carries no angular velocity and a directly solved one only what the
/// last substep gave it. A frame left behind read its segment as
/// compressed along the stale d₃ (at a right angle, by a whole length)
/// and pushed the particles apart along it each pass: energy from
/// nowhere, a Gauss–Seidel rod at 50 m/s 135 J → 240 kJ in 4 s, a direct
/// one at 1,000 m/s 36 kJ → 1.3 MJ. Turning a frame moves no particle, so
/// it does no work.
#[inline]
pub(crate) fn follow(q: Quat, x: [Vec3; 2]) -> Quat {
    // q·ẑ, the rotation matrix's third column (q is a unit quaternion):
    // glam's general rotation cost hair and plectoneme 3–4 % in this pass.
    let d3 = Vec3::new(
        2.0 * (q.x * q.z + q.w * q.y),
        2.0 * (q.y * q.z - q.w * q.x),
        1.0 - 2.0 * (q.x * q.x + q.y * q.y),
    );
    let d = x[1] - x[0];
    // Within the turn: d₃·d ≥ cos(MAX_TURN)·|d|, with no root or cosine.
    let along = d3.dot(d);
    if along >= 0.0 && along * along >= COS_MAX_TURN_SQUARED * d.length_squared() {
        return q;
    }
    match d.try_normalize() {
        Some(e) => (Quat::from_rotation_arc(d3, e) * q).normalize(),
        None => q,
    }
}

/// cos²([`MAX_TURN`]).
const COS_MAX_TURN_SQUARED: f32 = 0.938_791_3;

/// The largest turn one Gauss–Seidel projection may give a frame (rad).
/// A thin segment's rotational inertia is so small that its projections
/// fight its neighbours' by whole radians; uncapped, a coiling rod's
/// turns grew until positions ran to infinity (measured: NaN within 10
/// frames at one pass per substep). The direct solve needs no cap.
const MAX_TURN: f32 = 0.25;

/// The factor that brings a projection's turn `turn` (rad) within
/// [`MAX_TURN`].
#[inline]
fn within_turn(turn: f32) -> f32 {
    if turn > MAX_TURN {
        MAX_TURN / turn
    } else {
        1.0
    }
}

/// The bend–twist constraint's gradient G = ∂Ω/∂θ₁ = −∂Ω/∂θ₀ of the
/// joint between frames `q0`, `q1` (world rotation vectors θ): with
/// r = q̄₀q₁ (the shorter), turning q₁ by δ changes r by ½\[R₀ᵀδ\]·r, so
/// Im(r) by ½(r_w·I − \[r_v\]×)·R₀ᵀδ and G = (r_w·I − \[r_v\]×)·R₀ᵀ/ℓ.
/// (For a small relative rotation G → R₀ᵀ/ℓ; keeping r_w and r_v keeps the
/// correction along the true gradient when a joint is bent, which a
/// coiled rod's are: a projection off its gradient does work.)
pub(crate) fn joint_gradient(q0: Quat, q1: Quat, len: f32) -> DMat3 {
    joint_gradient_turned(q0, q1, DMat3::from_quat(q0.as_dquat()), len)
}

/// [`joint_gradient`] with `r0` = R(q0) already at hand.
#[inline]
pub(crate) fn joint_gradient_turned(q0: Quat, q1: Quat, r0: DMat3, len: f32) -> DMat3 {
    let r = shorter(q0.conjugate() * q1).as_dquat();
    let v = DVec3::new(r.x, r.y, r.z);
    // (r_w·I − [v]×)·R₀ᵀ/ℓ, the [v]× product as cross products.
    let r0t = r0.transpose();
    (r0t * r.w - cross_cols(v, r0t)) * (1.0 / len as f64)
}

/// A material-frame inverse inertia `w` of orientation `q` in world axes.
pub(crate) fn world_inverse_inertia(q: Quat, w: Vec3) -> DMat3 {
    world_inverse_inertia_turned(DMat3::from_quat(q.as_dquat()), w)
}

/// [`world_inverse_inertia`] with `r` = R(q) already at hand.
#[inline]
pub(crate) fn world_inverse_inertia_turned(r: DMat3, w: Vec3) -> DMat3 {
    // R·diag(w)·Rᵀ = Σₖ wₖ·rₖ·rₖᵀ over R's columns rₖ (symmetric).
    let w = w.as_dvec3();
    let (a, b, c) = (r.x_axis * w.x, r.y_axis * w.y, r.z_axis * w.z);
    let col = |j: usize| a * r.x_axis[j] + b * r.y_axis[j] + c * r.z_axis[j];
    DMat3::from_cols(col(0), col(1), col(2))
}

/// \[v\]×·M, column by column: v × Mⱼ.
#[inline]
pub(crate) fn cross_cols(v: DVec3, m: DMat3) -> DMat3 {
    DMat3::from_cols(v.cross(m.x_axis), v.cross(m.y_axis), v.cross(m.z_axis))
}

/// One XPBD projection of the bend–twist constraint between orientations
/// `q` (inverse inertias `w`, material frame) of a joint between segments
/// of length `len`, rest Darboux vector `rest`, compliances `alpha_t` =
/// α/h² per component; returns the new orientations. The three rows are
/// solved together: (G·(W₀ + W₁)·Gᵀ + α̃)·Δλ = −C − α̃λ.
#[inline]
pub(crate) fn bend_twist(
    q: [Quat; 2],
    w: [Vec3; 2],
    len: f32,
    rest: Vec3,
    (alpha_t, k): (Vec3, f32),
    lambda: &mut Vec3,
) -> [Quat; 2] {
    let c = (darboux(q[0], q[1], len) - rest).as_dvec3();
    let g = joint_gradient(q[0], q[1], len);
    let (w0, w1) = (
        world_inverse_inertia(q[0], w[0]),
        world_inverse_inertia(q[1], w[1]),
    );
    let a = alpha_t.as_dvec3();
    let system = g * (w0 + w1) * g.transpose() + DMat3::from_diagonal(a);
    let rhs = -(c * k as f64) - a * lambda.as_dvec3();
    let det = system.determinant().abs();
    if det.is_nan() || det <= 1e-300 {
        return q;
    }
    let mut dl = system.inverse() * rhs;
    if !dl.is_finite() {
        return q;
    }
    let push = g.transpose() * dl;
    let turn = (w0 * push).length().max((w1 * push).length());
    dl *= within_turn(turn as f32) as f64;
    *lambda += dl.as_vec3();
    let push = g.transpose() * dl;
    [
        rotated(q[0], -(w0 * push).as_vec3()),
        rotated(q[1], (w1 * push).as_vec3()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_darboux_vector_of_a_uniform_bend_is_its_curvature() {
        // Frames turned by κ·ℓ about d₁ between segments: Ω = (κ, 0, 0)
        // to second order in κℓ (2·sin(κℓ/2)/ℓ).
        let (kappa, len) = (3.0f32, 0.01f32);
        let q0 = Quat::from_rotation_arc(Vec3::Z, Vec3::X);
        let q1 = q0 * Quat::from_rotation_x(kappa * len);
        let omega = darboux(q0, q1, len);
        assert!(
            (omega - Vec3::new(kappa, 0.0, 0.0)).length() < 1e-3,
            "{omega}"
        );
        // A twist about d₃ reads as the third component, either sign.
        let q2 = q0 * Quat::from_rotation_z(-0.02);
        assert!((darboux(q0, q2, len).z + 2.0).abs() < 1e-3);
    }

    #[test]
    fn the_joint_gradient_matches_finite_differences() {
        let q0 = Quat::from_euler(glam::EulerRot::XYZ, 0.3, -0.7, 1.1);
        let q1 = q0 * Quat::from_euler(glam::EulerRot::XYZ, 0.2, 0.25, -0.3);
        let len = 0.05;
        let g = joint_gradient(q0, q1, len);
        let eps = 1e-3f32;
        for axis in 0..3 {
            let mut d = Vec3::ZERO;
            d[axis] = eps;
            let turn = |q: Quat, d: Vec3| Quat::from_scaled_axis(d) * q;
            let d1 = (darboux(q0, turn(q1, d), len) - darboux(q0, turn(q1, -d), len)) / (2.0 * eps);
            let d0 = (darboux(turn(q0, d), q1, len) - darboux(turn(q0, -d), q1, len)) / (2.0 * eps);
            let col = g.col(axis).as_vec3();
            assert!(
                (d1 - col).length() < 1e-2 * col.length().max(1.0),
                "θ₁ axis {axis}: {d1} vs {col}"
            );
            assert!(
                (d0 + col).length() < 1e-2 * col.length().max(1.0),
                "θ₀ axis {axis}: {d0} vs {}",
                -col
            );
        }
    }

    #[test]
    fn one_stretch_shear_projection_of_a_rigid_segment_aligns_it() {
        // A segment lying along x whose frame points along y: with rigid
        // compliance and equal masses, both the chord and d₃ turn until
        // they agree, and C falls.
        let x = [Vec3::ZERO, Vec3::X * 0.1];
        let q = Quat::from_rotation_arc(Vec3::Z, Vec3::Y);
        let mut lambda = Vec3::ZERO;
        let (mut x2, mut q2) = (x, q);
        for _ in 0..50 {
            let (m, q3) = stretch_shear(x2, [1.0, 1.0], q2, 100.0, 0.1, (0.0, 1.0), &mut lambda);
            x2 = [x2[0] + m[0], x2[1] + m[1]];
            q2 = q3;
        }
        let c = (x2[1] - x2[0]) / 0.1 - q2 * Vec3::Z;
        assert!(c.length() < 1e-3, "C = {c}");
        assert!((q2.length() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_frame_its_segment_left_behind_turns_onto_it_and_no_other_does() {
        assert!((COS_MAX_TURN_SQUARED - MAX_TURN.cos().powi(2)).abs() < 1e-7);
        let q = Quat::from_rotation_arc(Vec3::Z, Vec3::X);
        let turned = |angle: f32| {
            [
                Vec3::ONE,
                Vec3::ONE + Quat::from_rotation_y(angle) * Vec3::X * 0.1,
            ]
        };
        // Within a projection's turn (either way), the frame is kept as is.
        for angle in [0.0, 0.2, -0.24] {
            assert_eq!(follow(q, turned(angle)), q, "{angle}");
        }
        // Further (a right angle, or the segment reversed) it lies along the
        // segment; turned about the axis square to both (the shortest
        // turn, unique short of a reversal), d₁ stays square to that axis.
        for angle in [0.3, 1.5, -2.0, 3.13] {
            let x = turned(angle);
            let f = follow(q, x);
            let e = (x[1] - x[0]).normalize();
            // (Nearly reversed, f32's shortest turn is good to 1e-4 rad,
            // measured 2e-5: well inside what a projection turns.)
            let off = (f * Vec3::Z - e).length();
            assert!(
                off < if angle == 3.13 { 1e-4 } else { 1e-5 },
                "{angle}: {off}"
            );
            assert!((f.length() - 1.0).abs() < 1e-6);
            if angle != 3.13 {
                let d1 = |q: Quat| (q * Vec3::X).dot(Vec3::Y);
                assert!((d1(f) - d1(q)).abs() < 1e-5, "{angle}");
            }
        }
        // Two particles in one place, or a position not finite: kept.
        assert_eq!(follow(q, [Vec3::ONE, Vec3::ONE]), q);
        assert_eq!(follow(q, [Vec3::ONE, Vec3::NAN]), q);
    }
}
