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
//!
//! Contacts are also swept: a particle that ends a substep clear of a
//! sphere or box but whose path x_prev → x crossed it (a fast particle
//! and a thin shelf) is caught where the path entered the shape grown by
//! its radius, and pushed back onto the plane tangent there — so nothing
//! tunnels through a collider however fast it moves. (The ground is a
//! half-space: nothing can pass through it.) A box grown by r is taken as
//! a box with r added to each half extent, its rounded edges as square.

use glam::Vec3;

/// The face of a box with half extents `h` nearest to `p` (relative to
/// its centre): the face's axis and its outward sign.
fn nearest_face(p: Vec3, h: Vec3) -> (usize, f32) {
    let gap = h - p.abs();
    let k = if gap.x <= gap.y && gap.x <= gap.z {
        0
    } else if gap.y <= gap.z {
        1
    } else {
        2
    };
    (k, if p[k] < 0.0 { -1.0 } else { 1.0 })
}

/// How a particle's path in a substep meets a collider.
enum Crossing {
    /// It started clear and entered the (grown) shape: the outward normal
    /// where it entered and how far it ended behind that tangent plane.
    Entered(Vec3, f32),
    /// It started clear and never reached the shape.
    Missed,
    /// It started on or inside the surface.
    FromContact,
}

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
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn contact(&self, x: Vec3, prev: Vec3, r: f32) -> Option<(Vec3, f32)> {
        match self.crossing(prev, x, r) {
            Crossing::Entered(n, depth) => Some((n, depth)),
            Crossing::Missed => None,
            // A match and `passed_through` inlined: as calls they stayed
            // calls in the particles' sweep (made in each piece of it), and
            // a ground's `None` was found per particle instead of folded.
            Crossing::FromContact => match self.passed_through(prev, x, r) {
                None => self.resting(x, prev, r),
                through => through,
            },
        }
        // Paths so long that their products overflow f32 are left alone
        // rather than turned into NaN.
        .filter(|(n, depth)| n.is_finite() && depth.is_finite())
    }

    /// [`Self::contact`] of the position `x` alone.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn resting(&self, x: Vec3, prev: Vec3, r: f32) -> Option<(Vec3, f32)> {
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
                let (k, sign) = nearest_face(prev - center, half_extents);
                let depth = half_extents[k] - sign * local[k] + r;
                Some((Vec3::AXES[k] * sign, depth))
            }
        }
    }

    /// How the path `prev` → `x` meets the shape grown by `r`: where it
    /// enters it (the outward normal there and how far `x` lies behind the
    /// tangent plane), that it misses it, or that it starts in contact.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn crossing(&self, prev: Vec3, x: Vec3, r: f32) -> Crossing {
        let d = x - prev;
        match *self {
            // A half-space: the resting contact is always the right one.
            Collider::Ground { .. } => Crossing::FromContact,
            Collider::Sphere { center, radius, .. } => {
                // |prev + t·d − c|² = R² for the smallest t in [0, 1].
                let (big, o) = (radius + r, prev - center);
                let (a, b, c) = (d.dot(d), o.dot(d), o.dot(o) - big * big);
                if c <= 0.0 {
                    return Crossing::FromContact;
                }
                let disc = b * b - a * c;
                if b >= 0.0 || disc < 0.0 {
                    return Crossing::Missed; // moving away, or passing by
                }
                let t = (-b - disc.sqrt()) / a;
                if t.is_nan() || t > 1.0 {
                    return Crossing::Missed; // beyond the substep, or overflowed
                }
                let n = (o + d * t) / big;
                Crossing::Entered(n, (big - (x - center).dot(n)).max(0.0))
            }
            Collider::Box {
                center,
                half_extents,
                ..
            } => {
                let grown = half_extents + Vec3::splat(r);
                let from = prev - center;
                if from.abs().cmple(grown).all() {
                    return Crossing::FromContact;
                }
                // Slabs: the path is inside all three between t_in and t_out.
                let (mut t_in, mut t_out, mut axis) = (f32::NEG_INFINITY, 1.0f32, None);
                for k in 0..3 {
                    if d[k] == 0.0 {
                        if from[k].abs() > grown[k] {
                            return Crossing::Missed;
                        }
                        continue;
                    }
                    let (t0, t1) = ((-grown[k] - from[k]) / d[k], (grown[k] - from[k]) / d[k]);
                    let (near, far) = (t0.min(t1), t0.max(t1));
                    if near > t_in {
                        (t_in, axis) = (near, Some(k));
                    }
                    t_out = t_out.min(far);
                }
                let Some(k) = axis.filter(|_| t_in >= 0.0 && t_in <= t_out) else {
                    return Crossing::Missed;
                };
                let sign = -d[k].signum();
                let depth = (grown[k] - sign * (x - center)[k]).max(0.0);
                Crossing::Entered(Vec3::AXES[k] * sign, depth)
            }
        }
    }

    /// A path that started in contact and ended past the shape's middle —
    /// beyond the plane through the centre parallel to the tangent plane
    /// where it started — went through it (a thin shelf, a small ball):
    /// caught on that tangent plane, not pushed out of the far side. None
    /// otherwise (the resting contact decides).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn passed_through(&self, prev: Vec3, x: Vec3, r: f32) -> Option<(Vec3, f32)> {
        match *self {
            Collider::Ground { .. } => None,
            Collider::Sphere { center, radius, .. } => {
                let (o, to) = (prev - center, x - center);
                let n = o.normalize_or(Vec3::Y);
                (to.dot(n) < 0.0).then_some((n, radius + r - to.dot(n)))
            }
            Collider::Box {
                center,
                half_extents,
                ..
            } => {
                let grown = half_extents + Vec3::splat(r);
                let (from, to) = (prev - center, x - center);
                let (k, sign) = nearest_face(from, grown);
                let past_middle = sign * to[k] < 0.0;
                let across = (0..3).all(|j| j == k || to[j].abs() <= grown[j]);
                (past_middle && across).then_some((Vec3::AXES[k] * sign, grown[k] - sign * to[k]))
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

    /// The outward normal and how far a particle of radius `r` that was at
    /// `prev` when the substep began must leave the shape at `x` this
    /// substep, or None when it need not.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    fn overlap(&self, prev: Vec3, x: Vec3, r: f32, h: f32) -> Option<(Vec3, f32)> {
        let (n, depth) = self.contact(x, prev, r)?;
        // An overlap the particle already had at the substep's start (a
        // body placed, pinned or driven inside a collider) leaves at most
        // MAX_DEPENETRATION_SPEED: pushed out at once, a pinned sheet under
        // `Ground(height: 1e5)` was thrown at 1e8 m/s.
        let before = self.resting(prev, prev, r).map_or(0.0, |(_, d)| d);
        let depth = depth - (before - MAX_DEPENETRATION_SPEED * h).max(0.0);
        (depth > 0.0).then_some((n, depth))
    }

    /// The move along the normal alone that [`Self::resolve`] would make
    /// of a particle at `x` (zero when it does not touch). Kept out of
    /// line: inlined into the balloon gas's loop it made `soft_bodies`
    /// 8% slower. (The contact's other steps are inlined into the
    /// particles' last phase: as calls that returned their result through
    /// memory, they took half of a resting particle's substep; not in the
    /// browser, whose wasm must stay under 2 MB.)
    #[inline(never)]
    pub(crate) fn clearance(&self, prev: Vec3, x: Vec3, r: f32, h: f32) -> Vec3 {
        self.overlap(prev, x, r, h)
            .map_or(Vec3::ZERO, |(n, d)| n * d)
    }

    /// Resolves one particle against this collider (see the module doc):
    /// `delta` is its displacement this substep from `prev`. In contact it
    /// returns the tangential displacement friction took out and the one
    /// it left (the energy books charge friction their product).
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    pub(crate) fn resolve(
        &self,
        prev: Vec3,
        delta: &mut Vec3,
        r: f32,
        h: f32,
    ) -> Option<(Vec3, Vec3)> {
        let (n, depth) = self.overlap(prev, prev + *delta, r, h)?;
        let moved = *delta + n * depth;
        let tangential = moved - n * n.dot(moved);
        let grip = self.friction() * depth;
        // Static friction: where the squares decide |t| ≤ grip beyond
        // their rounding (the margin is ten times it), without the square
        // root, for the same answer; a particle at rest on a collider saved
        // half its substep's cost (two 64 × 64 sheets on the ground).
        let taken = if tangential.length_squared() < grip * grip * (1.0 - 1e-6) {
            tangential
        } else {
            let slide = tangential.length();
            if slide <= grip {
                tangential
            } else {
                tangential * (grip / slide)
            }
        };
        *delta = moved - taken;
        Some((taken, tangential - taken))
    }
}

/// The fastest a particle leaves an overlap it already had when a substep
/// began (m/s). In a running world colliders are resolved last, so a
/// substep starts clear of them and this never acts; it bounds what a
/// scene that starts inside a collider can turn into speed.
pub const MAX_DEPENETRATION_SPEED: f32 = 10.0;

/// How far overlaps smaller than this are left to the contacts (m): a
/// micrometre pushed out within one substep is 1 mm/s at 1,200 substeps/s.
const CLEAR: f32 = 1e-6;

/// The move that takes particles `pos` (radii `radius`) clear of every
/// collider, pushed out whole: up to eight pushes, each along the normal of
/// the deepest overlap by its depth. Zero when nothing overlaps, or when
/// eight pushes do not clear them (wedged between colliders).
///
/// Pushing only the overlapping particles out squeezes a stiff body, and
/// the squeeze springs back as speed: a stiff 1 kg soft box placed by its
/// centre on the ground, its bottom particles' radius 2 cm into it, jumped
/// 2.25 m. Scenes are built with their free bodies moved this way.
pub fn clearance(colliders: &[Collider], pos: &[Vec3], radius: &[f32]) -> Vec3 {
    let mut shift = Vec3::ZERO;
    for _ in 0..8 {
        let deepest = pos
            .iter()
            .zip(radius)
            .flat_map(|(&p, &r)| {
                colliders
                    .iter()
                    .filter_map(move |c| c.resting(p + shift, p + shift, r))
            })
            .filter(|(n, depth)| n.is_finite() && depth.is_finite())
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match deepest {
            Some((n, depth)) if depth > CLEAR => shift += n * depth,
            _ => return shift,
        }
    }
    Vec3::ZERO
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
        // A long substep: the 0.15 m are within its depenetration speed.
        b.resolve(start, &mut delta, 0.05, 1.0);
        assert!(
            (delta - Vec3::new(0.15, 0.0, 0.0)).length() < 1e-6,
            "{delta}"
        );
    }

    #[test]
    fn a_particle_that_starts_deep_inside_leaves_at_the_depenetration_speed() {
        let h = 1.0 / 1200.0;
        for c in [
            Collider::Ground {
                height: 1e5,
                friction: 0.5,
            },
            Collider::Sphere {
                center: Vec3::new(0.0, -1e5 + 1.0, 0.0),
                radius: 1e5,
                friction: 0.0,
            },
        ] {
            let start = Vec3::new(0.3, 0.5, 0.0);
            // Falling into it, too: the fall is stopped, the overlap left slowly.
            let mut delta = Vec3::new(0.0, -9.81 * h * h, 0.0);
            c.resolve(start, &mut delta, 0.01, h);
            let speed = delta.length() / h;
            assert!(delta.y > 0.0, "{c:?}: {delta}");
            assert!(
                speed <= MAX_DEPENETRATION_SPEED * 1.001,
                "{c:?}: {speed} m/s"
            );
        }
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
        b.resolve(start, &mut delta, 0.0, 1.0 / 1200.0);
        assert!(
            (start + delta - Vec3::new(0.1, 1.0, 0.0)).length() < 1e-6,
            "{delta}"
        );
    }

    #[test]
    fn a_particle_that_jumps_over_a_thin_box_or_a_small_sphere_in_one_substep_is_caught_on_the_near_side()
     {
        let slab = Collider::Box {
            center: Vec3::ZERO,
            half_extents: Vec3::new(1.0, 0.001, 1.0),
            friction: 0.0,
        };
        // From 10 mm above the top to 10 mm below the bottom, radius 2 mm.
        let start = Vec3::new(0.3, 0.011, 0.0);
        let mut delta = Vec3::new(0.0, -0.022, 0.0);
        slab.resolve(start, &mut delta, 0.002, 1.0 / 1200.0);
        assert!(
            (start + delta - Vec3::new(0.3, 0.003, 0.0)).length() < 1e-6,
            "{delta}"
        );
        // Sideways past the slab's edge: a miss.
        let mut miss = Vec3::new(0.0, -0.022, 0.0);
        slab.resolve(Vec3::new(1.1, 0.011, 0.0), &mut miss, 0.002, 1.0 / 1200.0);
        assert_eq!(miss, Vec3::new(0.0, -0.022, 0.0));
        let ball = Collider::Sphere {
            center: Vec3::ZERO,
            radius: 0.01,
            friction: 0.0,
        };
        // Straight through the centre, from 5 cm before it to 5 cm after.
        let start = Vec3::new(-0.05, 0.0, 0.0);
        let mut delta = Vec3::new(0.1, 0.0, 0.0);
        ball.resolve(start, &mut delta, 0.0, 1.0 / 1200.0);
        assert!(
            (start + delta - Vec3::new(-0.01, 0.0, 0.0)).length() < 1e-6,
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
        s.resolve(n, &mut delta, 0.0, 1.0 / 1200.0);
        assert!(delta.length() < 1e-6, "moved by {}", delta.length());
        // 40° is steeper than atan 0.5 = 26.6°: it slides.
        let n40 = Vec3::new(40f32.to_radians().sin(), 40f32.to_radians().cos(), 0.0);
        let mut delta = -Vec3::Y * 1e-4;
        s.resolve(n40, &mut delta, 0.0, 1.0 / 1200.0);
        assert!(delta.length() > 1e-6, "stuck on a 40° slope");
    }

    #[test]
    fn a_body_overlapping_colliders_is_moved_out_whole_or_not_at_all() {
        let ground = Collider::Ground {
            height: 0.0,
            friction: 0.5,
        };
        let shelf = Collider::Box {
            center: Vec3::new(0.0, 0.5, 0.0),
            half_extents: Vec3::new(1.0, 0.1, 1.0),
            friction: 0.5,
        };
        let r = [0.02; 4];
        // A square lying 1 cm into the ground rises 3 cm (its radius is 2).
        let flat =
            [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map(|(x, z)| Vec3::new(x, 0.01, z));
        let up = clearance(&[ground], &flat, &r);
        assert!((up - Vec3::new(0.0, 0.01, 0.0)).length() < 1e-6, "{up}");
        // Resting on the ground exactly: nothing to do.
        let resting = flat.map(|p| p + up);
        assert_eq!(clearance(&[ground], &resting, &r), Vec3::ZERO);
        // One corner in the shelf's top, the rest above it: out through the top.
        let mut tilted = flat.map(|p| p + Vec3::new(0.0, 0.7, 0.0));
        tilted[0].y = 0.59;
        let out = clearance(&[ground, shelf], &tilted, &r);
        assert!((out - Vec3::new(0.0, 0.03, 0.0)).length() < 1e-5, "{out}");
        // Taller than the gap under the shelf, in both the shelf and the
        // ground: pushed out of one it enters the other, so it stays put.
        let wedged = [Vec3::new(0.0, 0.005, 0.0), Vec3::new(0.0, 0.39, 0.0)];
        assert_eq!(clearance(&[ground, shelf], &wedged, &r[..2]), Vec3::ZERO);
    }
}
