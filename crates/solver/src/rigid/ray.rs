//! Where a ray meets a rigid body: the window's hand picks a body at the
//! point under the cursor.

use glam::Vec3;

use super::{Rigid, RigidShape};

impl Rigid {
    /// The distance along the ray from `origin` in unit direction `dir` to
    /// where it enters the body, if it does.
    pub fn ray_hit(&self, origin: Vec3, dir: Vec3) -> Option<f32> {
        // In the body frame, where the shape is centred and axis-aligned.
        let (o, d) = (self.local(origin), self.q.conjugate() * dir);
        match self.shape {
            RigidShape::Sphere(r) => ball(o, d, Vec3::ZERO, r),
            RigidShape::Capsule(r, l) => {
                // The cylinder's side, then the two half balls.
                let side = cylinder(o, d, r, l);
                let ends = [l, -l].map(|y| ball(o, d, Vec3::new(0.0, y, 0.0), r));
                [side, ends[0], ends[1]]
                    .into_iter()
                    .flatten()
                    .reduce(f32::min)
            }
            RigidShape::Box(h) => {
                let (enter, exit) = slab(o, d, h)?;
                (exit >= 0.0).then_some(enter.max(0.0))
            }
        }
    }
}

/// Where the line o + λ·d (o relative to the box's centre) enters and
/// leaves the box of half extents `e`, as (λ in, λ out), if it meets it:
/// the slabs' latest entry and earliest exit.
pub fn slab(o: Vec3, d: Vec3, e: Vec3) -> Option<(f32, f32)> {
    let (mut enter, mut exit) = (f32::NEG_INFINITY, f32::INFINITY);
    for k in 0..3 {
        if d[k].abs() < 1e-9 {
            if o[k].abs() > e[k] {
                return None;
            }
            continue;
        }
        let (a, b) = ((-e[k] - o[k]) / d[k], (e[k] - o[k]) / d[k]);
        enter = enter.max(a.min(b));
        exit = exit.min(a.max(b));
    }
    (enter <= exit).then_some((enter, exit))
}

/// Entry of the ray into the ball of radius `r` at `c`.
fn ball(o: Vec3, d: Vec3, c: Vec3, r: f32) -> Option<f32> {
    let m = o - c;
    let b = m.dot(d);
    let disc = b * b - (m.length_squared() - r * r);
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    (t >= 0.0)
        .then_some(t)
        .or_else(|| (m.length() <= r).then_some(0.0))
}

/// Entry of the ray into the side of the cylinder of radius `r` about y,
/// |y| ≤ `l`.
fn cylinder(o: Vec3, d: Vec3, r: f32, l: f32) -> Option<f32> {
    let (a, b) = (d.x * d.x + d.z * d.z, o.x * d.x + o.z * d.z);
    let c = o.x * o.x + o.z * o.z - r * r;
    if a < 1e-12 {
        return None;
    }
    let disc = b * b - a * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    (t >= 0.0 && (o.y + d.y * t).abs() <= l).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rigid::RigidDesc;
    use crate::{Settings, World};
    use glam::Quat;

    fn body(shape: RigidShape, q: Quat) -> Rigid {
        let mut w = World::new(Settings::default());
        w.add_rigid(
            0,
            RigidDesc {
                shape,
                density: 1000.0,
                friction: 0.5,
                restitution: 0.0,
                fixed: false,
                pose: (Vec3::new(0.0, 1.0, 0.0), q),
                motion: (Vec3::ZERO, Vec3::ZERO),
            },
        );
        w.rigids().bodies[0].clone()
    }

    #[test]
    fn a_ray_enters_each_shape_at_its_surface() {
        let from = Vec3::new(0.0, 1.0, 5.0);
        let towards = Vec3::NEG_Z;
        let hit = |shape, q| body(shape, q).ray_hit(from, towards);
        assert_eq!(hit(RigidShape::Sphere(0.5), Quat::IDENTITY), Some(4.5));
        // A box turned 45° about y shows its edge, 0.5·√2 from the centre.
        let turned = Quat::from_rotation_y(std::f32::consts::FRAC_PI_4);
        let edge = hit(RigidShape::Box(Vec3::splat(0.5)), turned).unwrap();
        assert!((edge - (5.0 - 0.5 * 2f32.sqrt())).abs() < 1e-5, "{edge}");
        // A capsule lying along z (turned about x) shows a half ball's tip.
        let lying = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
        let tip = hit(RigidShape::Capsule(0.2, 0.5), lying).unwrap();
        assert!((tip - 4.3).abs() < 1e-4, "{tip}");
        let miss = body(RigidShape::Sphere(0.5), Quat::IDENTITY).ray_hit(from, Vec3::X);
        assert_eq!(miss, None);
    }
}
