//! Colliders as inequality constraints on single particles, with friction.
//!
//! A particle of radius r closer than r to a collider's surface is pushed
//! out along the surface normal n by the penetration depth d. Friction acts
//! on the tangential part t of the particle's motion during the substep
//! (x − x_prev): if |t| < μ·d it is removed entirely (static friction: the
//! particle sticks), otherwise it is shortened by μ·d (kinetic friction).
//! Over a substep the normal push d plays the role of the normal impulse,
//! so this is Coulomb's law μ·|F_n| in position form; a particle resting
//! on a slope sticks exactly when tan(slope) < μ.

use glam::Vec3;

/// A static collision shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Collider {
    /// Horizontal plane y = `height` (m); particles stay above it.
    Ground {
        /// Plane height (m).
        height: f32,
        /// Coulomb friction coefficient μ (dimensionless, ≥ 0).
        friction: f32,
    },
    /// Solid sphere.
    Sphere {
        /// Centre (m).
        center: Vec3,
        /// Radius (m).
        radius: f32,
        /// Coulomb friction coefficient μ.
        friction: f32,
    },
    /// Solid axis-aligned box.
    Box {
        /// Centre (m).
        center: Vec3,
        /// Half the edge lengths (m).
        half_extents: Vec3,
        /// Coulomb friction coefficient μ.
        friction: f32,
    },
}

impl Collider {
    /// Outward normal and penetration depth of a particle at `x` with radius `r`
    /// that was at `prev` at the start of the substep, or `None` when it
    /// does not touch.
    fn contact(&self, x: Vec3, prev: Vec3, r: f32) -> Option<(Vec3, f32)> {
        match *self {
            Collider::Ground { height, .. } => {
                let depth = height + r - x.y;
                (depth > 0.0).then_some((Vec3::Y, depth))
            }
            Collider::Sphere { center, radius, .. } => {
                let d = x - center;
                let dist = d.length();
                let depth = radius + r - dist;
                if depth <= 0.0 {
                    return None;
                }
                let n = if dist > 1e-9 { d / dist } else { Vec3::Y };
                Some((n, depth))
            }
            Collider::Box {
                center,
                half_extents,
                ..
            } => {
                let local = x - center;
                let closest = local.clamp(-half_extents, half_extents);
                let outside = local - closest;
                let dist = outside.length();
                if dist > 1e-9 {
                    let depth = r - dist;
                    return (depth > 0.0).then_some((outside / dist, depth));
                }
                // Inside the box: leave through the face nearest to where
                // the particle was at the start of the substep (the face
                // it came through), not to where it is now — a particle
                // that crossed more than half the box in one substep would
                // otherwise be pushed out of the far side.
                let from = prev - center;
                let gap = half_extents - from.abs();
                let axis = if gap.x <= gap.y && gap.x <= gap.z {
                    Vec3::X
                } else if gap.y <= gap.z {
                    Vec3::Y
                } else {
                    Vec3::Z
                };
                let sign = if from.dot(axis) < 0.0 { -1.0 } else { 1.0 };
                let depth = half_extents.dot(axis) - sign * local.dot(axis) + r;
                Some((axis * sign, depth))
            }
        }
    }

    fn friction(&self) -> f32 {
        match *self {
            Collider::Ground { friction, .. }
            | Collider::Sphere { friction, .. }
            | Collider::Box { friction, .. } => friction,
        }
    }

    /// Resolves one particle against this collider (see the module doc):
    /// `delta` is its displacement this substep from `prev`.
    pub(crate) fn resolve(&self, prev: Vec3, delta: &mut Vec3, r: f32) {
        let Some((n, depth)) = self.contact(prev + *delta, prev, r) else {
            return;
        };
        let moved = *delta + n * depth;
        let tangential = moved - n * n.dot(moved);
        let slide = tangential.length();
        let grip = self.friction() * depth;
        *delta = if slide <= grip {
            moved - tangential
        } else {
            moved - tangential * (grip / slide)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_particle_inside_a_box_leaves_through_the_nearest_face() {
        let b = Collider::Box {
            center: Vec3::ZERO,
            half_extents: Vec3::new(1.0, 1.0, 1.0),
            friction: 0.0,
        };
        let start = Vec3::new(0.9, 0.2, 0.0);
        let mut delta = Vec3::ZERO;
        b.resolve(start, &mut delta, 0.05);
        assert!(
            (delta - Vec3::new(0.15, 0.0, 0.0)).length() < 1e-6,
            "{delta}"
        );
    }

    #[test]
    fn a_particle_that_crossed_most_of_a_box_in_one_substep_leaves_where_it_came_in() {
        let b = Collider::Box {
            center: Vec3::ZERO,
            half_extents: Vec3::ONE,
            friction: 0.0,
        };
        // From above the top face to 0.2 m above the bottom one.
        let start = Vec3::new(0.1, 1.5, 0.0);
        let mut delta = Vec3::new(0.0, -2.3, 0.0);
        b.resolve(start, &mut delta, 0.0);
        assert!(
            (start + delta - Vec3::new(0.1, 1.0, 0.0)).length() < 1e-6,
            "{delta}"
        );
    }

    #[test]
    fn static_friction_holds_a_particle_on_a_slope_flatter_than_atan_mu() {
        let s = Collider::Sphere {
            center: Vec3::ZERO,
            radius: 1.0,
            friction: 0.5,
        };
        // Point on the sphere at 20° from the top (tan 20° = 0.36 < 0.5), sinking straight down.
        let n = Vec3::new(20f32.to_radians().sin(), 20f32.to_radians().cos(), 0.0);
        let mut delta = -Vec3::Y * 1e-4;
        s.resolve(n, &mut delta, 0.0);
        assert!(delta.length() < 1e-6, "moved by {}", delta.length());
        // 40° is steeper than atan 0.5 = 26.6°: it slides.
        let n40 = Vec3::new(40f32.to_radians().sin(), 40f32.to_radians().cos(), 0.0);
        let mut delta = -Vec3::Y * 1e-4;
        s.resolve(n40, &mut delta, 0.0);
        assert!(delta.length() > 1e-6, "stuck on a 40° slope");
    }
}
