//! A cantilever under its own weight (Euler–Bernoulli, small deflection):
//! the beam formula the rods' lesson draws as a ghost.

use glam::Vec3;

use crate::solver::World;

/// A straight beam clamped at `root` along `along`, bent toward `down` by
/// its weight: w(s) = q·s²·(6L² − 4L·s + s²)/(24·E·I) at distance s from
/// the clamp, q·L⁴/(8·E·I) at the tip (q the weight per length across
/// the beam).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cantilever {
    /// The clamped end (m).
    pub root: Vec3,
    /// Unit direction of the unbent beam from the root.
    pub along: Vec3,
    /// Unit direction it bends toward: gravity's part across the beam.
    pub down: Vec3,
    /// Length L (m).
    pub length: f32,
    /// q/(E·I) (1/m³): the weight per length across the beam over its
    /// bending stiffness.
    pub q_over_ei: f64,
}

impl Cantilever {
    /// The deflection w(s) (m) at distance `s` (m) from the clamp.
    pub fn deflection(&self, s: f64) -> f64 {
        let l = self.length as f64;
        self.q_over_ei * s * s * (6.0 * l * l - 4.0 * l * s + s * s) / 24.0
    }

    /// The point a fraction `t` ∈ [0, 1] of the way from root to tip.
    pub fn point(&self, t: f32) -> Vec3 {
        let s = t * self.length;
        self.root + self.along * s + self.down * self.deflection(s as f64) as f32
    }

    /// The cantilever rod body `b` of `world` is: a Cosserat rod clamped
    /// at exactly one of its ends and held nowhere else (no other pin,
    /// driver or attachment), with no rest curvature, not along gravity;
    /// its root and direction those of the clamped segment.
    pub fn of_rod(world: &World, b: usize) -> Option<Self> {
        let (material, _) = world.rod_material(b)?;
        let rods = world.rods();
        let segments = rods.segments_of(b);
        let n = segments.len();
        let (start, end) = (rods.is_clamped(b, 0), rods.is_clamped(b, n));
        let body = world.bodies().get(b)?;
        let p = &world.particles;
        let held = |i: usize| p.is_pinned(i) || p.is_driven(i);
        let attached = |i: usize| world.rigids().attachments.iter().any(|a| a.particle == i);
        let clamp = if start { body.first } else { body.first + n };
        let only_clamp = body
            .range()
            .all(|i| held(i) == (i == clamp) && !attached(i));
        if start == end || !only_clamp || material.rest_darboux != Vec3::ZERO {
            return None;
        }
        let frame = rods.orientation(if start {
            segments.start
        } else {
            segments.end - 1
        });
        let along = if start {
            frame * Vec3::Z
        } else {
            -(frame * Vec3::Z)
        };
        let g = world.settings.gravity;
        let across = g - along * g.dot(along);
        let length: f32 = segments.map(|s| rods.rest_length(s)).sum();
        if across.length() < 1e-3 * g.length() || length <= 0.0 {
            return None;
        }
        let ei = material.young_modulus as f64 * material.area_moment() as f64;
        let q = material.line_density() as f64 * across.length() as f64;
        Some(Self {
            root: p.pos()[clamp],
            along,
            down: across.normalize(),
            length,
            q_over_ei: q / ei,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tip_sags_q_l4_over_8_ei_and_the_root_is_level() {
        let c = Cantilever {
            root: Vec3::ZERO,
            along: Vec3::X,
            down: -Vec3::Y,
            length: 2.0,
            q_over_ei: 0.01,
        };
        assert!((c.deflection(2.0) - 0.01 * 16.0 / 8.0).abs() < 1e-12);
        assert_eq!(c.deflection(0.0), 0.0);
        // Level at the clamp: the slope w'(0) is 0.
        assert!(c.deflection(1e-4) / 1e-4 < 1e-6);
        assert!((c.point(1.0) - Vec3::new(2.0, -0.02, 0.0)).length() < 1e-6);
    }
}
