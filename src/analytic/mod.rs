//! Closed-form answers the simulation is compared with: in tests, and
//! drawn as ghosts over the running scene.

use glam::{Vec2, Vec3};

use crate::solver::{LinkKind, Shape, World};

/// A hanging chain: y = a·cosh((x − x₀)/a) + c in the vertical plane
/// through its two ends, x measured horizontally from the first end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Catenary {
    /// First end (m).
    pub start: Vec3,
    /// Unit horizontal direction from the first end toward the second.
    pub along: Vec3,
    /// Horizontal span D between the ends (m).
    pub span: f32,
    /// Catenary parameter a = H/(μg) (m): the radius of curvature at the lowest point.
    pub a: f64,
    /// Horizontal offset x₀ of the lowest point from the first end (m).
    pub x0: f64,
    /// Vertical offset c (m).
    pub c: f64,
}

impl Catenary {
    /// The inextensible chain of `length` hanging between `p` and `q` under
    /// gravity along −y; None when the ends are (nearly) vertically above
    /// each other or the chain cannot reach (length ≤ the chord).
    ///
    /// a solves √(L² − v²) = 2a·sinh(D/2a) (v the height difference, D the
    /// span); then x₀ = D/2 − a·artanh(v/L) and c = y_p − a·cosh(x₀/a).
    pub fn through(p: Vec3, q: Vec3, length: f32) -> Option<Self> {
        let flat = Vec2::new(q.x - p.x, q.z - p.z);
        let span = flat.length();
        let (d, v, l) = (span as f64, (q.y - p.y) as f64, length as f64);
        if d < 1e-6 || l * l <= d * d + v * v + 1e-12 {
            return None;
        }
        let target = (l * l - v * v).sqrt();
        // 2a·sinh(D/2a) falls from ∞ to D as a grows: bisect on ln a.
        let (mut lo, mut hi) = ((d * 1e-6).ln(), (d * 1e6).ln());
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            let a = mid.exp();
            if 2.0 * a * (d / (2.0 * a)).sinh() > target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let a = (0.5 * (lo + hi)).exp();
        let x0 = d / 2.0 - a * (v / l).atanh();
        let c = p.y as f64 - a * (x0 / a).cosh();
        Some(Self {
            start: p,
            along: Vec3::new(flat.x, 0.0, flat.y) / span,
            span,
            a,
            x0,
            c,
        })
    }

    /// Height (m) at horizontal distance `x` (m) from the first end.
    pub fn height(&self, x: f64) -> f64 {
        self.a * ((x - self.x0) / self.a).cosh() + self.c
    }

    /// The point at fraction `t` ∈ [0, 1] of the span.
    pub fn point(&self, t: f32) -> Vec3 {
        let x = t * self.span;
        let base = self.start + self.along * x;
        Vec3::new(base.x, self.height(x as f64) as f32, base.z)
    }

    /// Tension (N) at horizontal distance `x` (m) of a chain of `mu` kg/m
    /// under gravity `g` (m/s²): T(x) = μ·g·a·cosh((x − x₀)/a), its
    /// horizontal part H = μ·g·a the same everywhere.
    pub fn tension(&self, x: f64, mu: f64, g: f64) -> f64 {
        mu * g * self.a * ((x - self.x0) / self.a).cosh()
    }

    /// Horizontal distance (m) of `p` from the first end along the span.
    pub fn x_of(&self, p: Vec3) -> f64 {
        (p - self.start).dot(self.along) as f64
    }

    /// The catenary a rope of `world` should settle into: when body `b` is
    /// a rope pinned at exactly its two ends (not driven) under vertical
    /// gravity and long enough to sag; with the mass per length (kg/m) of
    /// what hangs.
    pub fn of_rope(world: &World, b: usize) -> Option<(Self, f64)> {
        let body = world.bodies().get(b)?;
        if body.shape != Shape::Rope || body.count < 2 {
            return None;
        }
        let p = &world.particles;
        let (first, last) = (body.first, body.first + body.count - 1);
        let g = world.settings.gravity;
        let ends_only = body
            .range()
            .all(|i| p.is_pinned(i) == (i == first || i == last));
        if !ends_only
            || p.is_driven(first)
            || p.is_driven(last)
            || g.x != 0.0
            || g.z != 0.0
            || g.y >= 0.0
        {
            return None;
        }
        let length: f32 = world
            .constraints
            .iter()
            .filter(|l| l.tag.body as usize == b && l.tag.kind == LinkKind::Stretch)
            .map(|l| l.rest)
            .sum();
        // The weight the pins hold: the free particles' (the pinned ends'
        // own mass rests on the pins).
        let mass: f32 = body
            .range()
            .filter(|&i| i != first && i != last)
            .map(|i| p.mass()[i])
            .sum();
        let curve = Self::through(p.pos()[first], p.pos()[last], length)?;
        Some((curve, mass as f64 / length as f64))
    }

    /// Arc length (m) between horizontal distances `x1` and `x2`.
    pub fn arc_length(&self, x1: f64, x2: f64) -> f64 {
        self.a * (((x2 - self.x0) / self.a).sinh() - ((x1 - self.x0) / self.a).sinh())
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_papers_spring_has_period_two_pi_sqrt_alpha_m_and_starts_where_released() {
        let (pin, start) = (Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 1.4, 0.0));
        let g = Vec3::new(0.0, -9.81, 0.0);
        let s = Spring::new(pin, start, 1.0, 0.5, 1e-3, g).unwrap();
        assert!((s.period() - 0.198_691).abs() < 1e-5, "{}", s.period());
        assert!(s.position(0.0).distance(start) < 1e-6);
        // Half a period later it is as far above equilibrium as it started below.
        let eq = pin + Vec3::new(0.0, -(0.5 + 1e-3 * 9.81), 0.0);
        let half = s.position(s.period() / 2.0);
        assert!((half - eq).length() - (start - eq).length() < 1e-5);
        assert!(Spring::new(pin, Vec3::new(0.3, 1.4, 0.0), 1.0, 0.5, 1e-3, g).is_none());
    }

    use super::*;

    #[test]
    fn the_curve_passes_through_both_ends_with_the_given_length() {
        for (p, q, l) in [
            (Vec3::new(-1.0, 2.0, 0.0), Vec3::new(1.0, 2.0, 0.0), 3.0),
            (Vec3::new(0.0, 1.0, 0.0), Vec3::new(1.5, 2.2, 0.5), 2.5),
            (Vec3::new(0.0, 0.0, 0.0), Vec3::new(10.0, -3.0, 0.0), 10.6),
        ] {
            let c = Catenary::through(p, q, l).unwrap();
            assert!(c.point(0.0).distance(p) < 1e-4, "{:?}", c.point(0.0));
            assert!(c.point(1.0).distance(q) < 1e-4, "{:?} vs {q}", c.point(1.0));
            assert!((c.arc_length(0.0, c.span as f64) - l as f64).abs() < 1e-6);
        }
        assert!(
            Catenary::through(Vec3::ZERO, Vec3::X, 0.9).is_none(),
            "too short"
        );
        assert!(
            Catenary::through(Vec3::ZERO, Vec3::Y, 2.0).is_none(),
            "vertical"
        );
    }

    #[test]
    fn a_symmetric_chain_matches_the_textbook_parameter() {
        // 2a·sinh(1/a) = 3 for a 3 m chain over 2 m: a ≈ 0.6165 m.
        let c =
            Catenary::through(Vec3::new(-1.0, 2.0, 0.0), Vec3::new(1.0, 2.0, 0.0), 3.0).unwrap();
        assert!((c.a - 0.6165).abs() < 1e-3, "{}", c.a);
        assert!((c.x0 - 1.0).abs() < 1e-9, "lowest point in the middle");
    }
}

/// A mass on one compliant link below a fixed point, released at rest
/// along gravity: the XPBD paper's spring. x(t) = L_eq + (L₀ − L_eq)·cos(ωt)
/// along gravity, L_eq = L + α·m·g, ω = 1/√(α·m): period 2π√(α·m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// The fixed end (m).
    pub pin: Vec3,
    /// Unit direction of gravity.
    pub down: Vec3,
    /// Length at rest under the load, L + α·m·g (m).
    pub equilibrium: f64,
    /// Initial length minus the equilibrium length (m).
    pub amplitude: f64,
    /// Angular frequency 1/√(α·m) (rad/s).
    pub omega: f64,
}

impl Spring {
    /// The spring of a mass `m` (kg) on a link of rest length `rest` (m)
    /// and compliance `alpha` (m/N) from `pin`, released at rest at
    /// `start`, under gravity `g`; None unless `start` lies along gravity
    /// from the pin and α > 0.
    pub fn new(pin: Vec3, start: Vec3, m: f32, rest: f32, alpha: f32, g: Vec3) -> Option<Self> {
        let down = g.normalize_or_zero();
        let arm = start - pin;
        if alpha <= 0.0 || down == Vec3::ZERO || arm.cross(down).length() > 1e-4 * arm.length() {
            return None;
        }
        let equilibrium = rest as f64 + alpha as f64 * m as f64 * g.length() as f64;
        Some(Self {
            pin,
            down,
            equilibrium,
            amplitude: arm.dot(down) as f64 - equilibrium,
            omega: 1.0 / (alpha as f64 * m as f64).sqrt(),
        })
    }

    /// The mass's position at time `t` (s).
    pub fn position(&self, t: f64) -> Vec3 {
        let x = self.equilibrium + self.amplitude * (self.omega * t).cos();
        self.pin + self.down * x as f32
    }

    /// The period 2π/ω (s).
    pub fn period(&self) -> f64 {
        std::f64::consts::TAU / self.omega
    }
}

mod cantilever;
mod hanging;
pub use cantilever::Cantilever;
pub use hanging::HangingRope;
