//! The shapes' geometry for contacts: rigid shapes meet as "round" cores
//! (a ball is a point, a capsule a segment, each with a radius) and boxes:
//! round against round by the closest points of their cores, round
//! against a box by the box's closest point to the core's ends and
//! middle, a box against a box by the separating axes (`box_box`). Each touch is (point on a, point on b,
//! the normal that pushes a away from b), all in world coordinates.

use glam::{Quat, Vec3};

use super::{Rigid, RigidShape};

/// How far apart (m) two shapes may be and still make a contact for the
/// substep: a contact is only pushed while its points overlap, but one
/// found a hair apart catches a corner that a turn brings down during the
/// pass (without it a resting box's corners drop in and out of contact
/// and it rocks at mm/s).
pub(super) const MARGIN: f32 = 2e-3;

/// A world-frame primitive: a round core (segment and radius) or a box.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Solid {
    Round(Vec3, Vec3, f32),
    Box(Vec3, Quat, Vec3),
}

pub(crate) fn solid(r: &Rigid) -> Solid {
    match r.shape {
        RigidShape::Sphere(radius) => Solid::Round(r.x, r.x, radius),
        RigidShape::Capsule(radius, l) => {
            let d = r.q * Vec3::new(0.0, l, 0.0);
            Solid::Round(r.x - d, r.x + d, radius)
        }
        RigidShape::Box(h) => Solid::Box(r.x, r.q, h),
    }
}

/// World contacts between `a` and `b`: (point on a, point on b, normal
/// pushing a away from b).
pub(crate) type Touch = (Vec3, Vec3, Vec3);

/// Touches of `s` with the ground plane y = `height`.
pub(crate) fn ground(s: Solid, height: f32, out: &mut [Touch; 16]) -> usize {
    let mut n = 0;
    let mut add = |p: Vec3| {
        if p.y < height + MARGIN && n < out.len() {
            out[n] = (p, Vec3::new(p.x, height, p.z), Vec3::Y);
            n += 1;
        }
    };
    match s {
        Solid::Round(p0, p1, r) => {
            add(p0 - Vec3::Y * r);
            if p1 != p0 {
                add(p1 - Vec3::Y * r);
            }
        }
        Solid::Box(c, q, h) => corners(c, q, h).into_iter().for_each(add),
    }
    n
}

/// Touches of `a` with `b` (points on a, on b, normal pushing a).
pub(crate) fn meet(a: Solid, b: Solid, out: &mut [Touch; 16]) -> usize {
    match (a, b) {
        (Solid::Round(a0, a1, ra), Solid::Round(b0, b1, rb)) => {
            let (ca, cb) = closest_on_segments((a0, a1), (b0, b1));
            let d = ca - cb;
            let dist = d.length();
            if dist >= ra + rb + MARGIN || dist <= 0.0 {
                return 0;
            }
            let n = d / dist;
            out[0] = (ca - n * ra, cb + n * rb, n);
            1
        }
        (Solid::Round(a0, a1, ra), Solid::Box(c, q, h)) => {
            let mut n = 0;
            for p in round_probes(a0, a1, c) {
                let (on_box, normal, dist) = point_box(p, (c, q, h));
                if dist < ra + MARGIN && n < out.len() {
                    out[n] = (p - normal * ra, on_box, normal);
                    n += 1;
                }
            }
            n
        }
        (Solid::Box(..), Solid::Round(..)) => {
            let n = meet(b, a, out);
            for t in &mut out[..n] {
                *t = (t.1, t.0, -t.2);
            }
            n
        }
        (Solid::Box(ca, qa, ha), Solid::Box(cb, qb, hb)) => {
            super::box_box::boxes((ca, qa, ha), (cb, qb, hb), out)
        }
    }
}

/// Where a round core of ends `p0`, `p1` is tested against a box centred
/// at `c`: its ends, and its point nearest the centre when that is inside.
fn round_probes(p0: Vec3, p1: Vec3, c: Vec3) -> impl Iterator<Item = Vec3> {
    let d = p1 - p0;
    let len2 = d.length_squared();
    let t = if len2 > 0.0 {
        ((c - p0).dot(d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let middle = (t > 0.05 && t < 0.95).then(|| p0 + d * t);
    let far = (len2 > 0.0).then_some(p1);
    std::iter::once(p0).chain(far).chain(middle)
}

/// The eight corners of a box.
fn corners(c: Vec3, q: Quat, h: Vec3) -> [Vec3; 8] {
    std::array::from_fn(|k| {
        let s = Vec3::new(
            if k & 1 == 0 { -1.0 } else { 1.0 },
            if k & 2 == 0 { -1.0 } else { 1.0 },
            if k & 4 == 0 { -1.0 } else { 1.0 },
        );
        c + q * (h * s)
    })
}

/// The box's surface point nearest `p`, the outward normal there and the
/// signed distance of `p` from the surface (negative inside).
fn point_box(p: Vec3, (c, q, h): (Vec3, Quat, Vec3)) -> (Vec3, Vec3, f32) {
    let d = q.conjugate() * (p - c);
    let clamped = d.clamp(-h, h);
    if clamped != d {
        let out = d - clamped;
        let dist = out.length();
        return (c + q * clamped, q * (out / dist), dist);
    }
    // Inside: out through the nearest face.
    let room = h - d.abs();
    let axis = if room.x <= room.y && room.x <= room.z {
        0
    } else if room.y <= room.z {
        1
    } else {
        2
    };
    let mut on = d;
    let mut normal = Vec3::ZERO;
    let sign = if d[axis] >= 0.0 { 1.0 } else { -1.0 };
    on[axis] = h[axis] * sign;
    normal[axis] = sign;
    (c + q * on, q * normal, -room[axis])
}

/// The closest points of two segments (either may be a point).
pub(super) fn closest_on_segments((p0, p1): (Vec3, Vec3), (q0, q1): (Vec3, Vec3)) -> (Vec3, Vec3) {
    let (s, t) = closest_params((p0, p1), (q0, q1));
    (p0 + (p1 - p0) * s, q0 + (q1 - q0) * t)
}

/// Where the closest points of two segments lie along them: s, t ∈ [0, 1]
/// from p0 to p1 and from q0 to q1 (Ericson, Real-Time Collision
/// Detection §5.1.9; either segment may be a point). A rod's capsule
/// contacts use it too.
pub(crate) fn closest_params((p0, p1): (Vec3, Vec3), (q0, q1): (Vec3, Vec3)) -> (f32, f32) {
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.length_squared(), d2.length_squared(), d2.dot(r));
    if a <= 1e-12 && e <= 1e-12 {
        (0.0, 0.0)
    } else if a <= 1e-12 {
        (0.0, (f / e).clamp(0.0, 1.0))
    } else {
        let c = d1.dot(r);
        if e <= 1e-12 {
            ((-c / a).clamp(0.0, 1.0), 0.0)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s = if denom > 1e-12 {
                ((b * f - c * e) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut t = (b * s + f) / e;
            if t < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            }
            (s, t)
        }
    }
}
