//! Box against box (Box2D's and Bullet's manifold, in 3D): the axis of
//! least overlap among the two boxes' face normals and the nine crosses
//! of their edges. A face axis makes the reference face, the other box's
//! face most against it clipped to its rectangle; an edge axis (preferred
//! only when clearly shallower, so a resting pair keeps its face) makes
//! one touch at the closest points of the two edges.

use glam::{Quat, Vec3};

use super::geometry::{MARGIN, Touch, closest_on_segments};

pub(super) type BoxPose = (Vec3, Quat, Vec3);

/// Half the extent of a box along unit `u`.
fn reach((_, q, h): BoxPose, u: Vec3) -> f32 {
    let l = q.conjugate() * u;
    (l.abs() * h).element_sum()
}

/// Touches of box `a` with box `b` (Box2D's and Bullet's box–box
/// manifold): the face of least overlap over both boxes' face normals
/// (the separating-axis test) is the reference; the other box's face most
/// against it is clipped to its rectangle, and the clipped points past the
/// reference plane touch it.
pub(super) fn boxes(a: BoxPose, b: BoxPose, out: &mut [Touch; 16]) -> usize {
    let d = a.0 - b.0;
    // The least overlap among one box's face normals, as (overlap, the
    // normal pointing from b to a).
    let least = |owner: BoxPose| {
        let mut best = (f32::INFINITY, Vec3::Y);
        for u in [owner.1 * Vec3::X, owner.1 * Vec3::Y, owner.1 * Vec3::Z] {
            let overlap = reach(a, u) + reach(b, u) - d.dot(u).abs();
            if overlap < best.0 {
                best = (overlap, if d.dot(u) >= 0.0 { u } else { -u });
            }
        }
        best
    };
    let (on_a, on_b) = (least(a), least(b));
    if on_a.0 <= -MARGIN || on_b.0 <= -MARGIN {
        return 0;
    }
    let (edge, u, i, j) = least_edge(a, b);
    if edge <= -MARGIN {
        return 0; // apart along an edge axis: no face sees it
    }
    // An edge axis only when clearly shallower than every face: on a near
    // tie a face's manifold holds a resting pair steadier.
    if edge < on_a.0.min(on_b.0) * 0.95 - 1e-4 {
        out[0] = edge_touch(a, b, u, (i, j));
        return 1;
    }
    let mut count = 0;
    // b's face is preferred on a near tie, so a resting pair keeps one
    // reference from substep to substep.
    if on_b.0 <= on_a.0 * 1.02 + 1e-5 {
        clip(a, b, on_b.1, |p, n, depth| {
            if count < out.len() {
                out[count] = (p, p + n * depth, n);
                count += 1;
            }
        });
    } else {
        clip(b, a, -on_a.1, |p, n, depth| {
            if count < out.len() {
                out[count] = (p + n * depth, p, -n);
                count += 1;
            }
        });
    }
    count
}

/// The least overlap along the crosses of a's and b's edge directions:
/// (overlap, the unit axis pointing from b to a, a's edge axis, b's).
/// Crosses of near-parallel edges are skipped (a face axis covers them).
fn least_edge(a: BoxPose, b: BoxPose) -> (f32, Vec3, usize, usize) {
    let d = a.0 - b.0;
    let mut best = (f32::INFINITY, Vec3::Y, 0, 0);
    for i in 0..3 {
        for j in 0..3 {
            let c = (a.1 * unit(i)).cross(b.1 * unit(j));
            let len = c.length();
            if len < 1e-3 {
                continue;
            }
            let u = c / len;
            let overlap = reach(a, u) + reach(b, u) - d.dot(u).abs();
            if overlap < best.0 {
                best = (overlap, if d.dot(u) >= 0.0 { u } else { -u }, i, j);
            }
        }
    }
    best
}

/// The touch of a's edge along its axis `i` with b's along its axis `j`
/// across unit `u` (from b to a): each box's edge nearest the other, and
/// their closest points.
fn edge_touch(a: BoxPose, b: BoxPose, u: Vec3, (i, j): (usize, usize)) -> Touch {
    // The edge of `bx` along its axis `k` furthest along `toward`.
    let edge = |(c, q, h): BoxPose, k: usize, toward: Vec3| {
        let mut mid = c;
        for m in (0..3).filter(|&m| m != k) {
            let e = q * unit(m);
            mid += e * (h[m] * e.dot(toward).signum());
        }
        let along = q * unit(k) * h[k];
        (mid - along, mid + along)
    };
    let (pa, pb) = closest_on_segments(edge(a, i, -u), edge(b, j, u));
    (pa, pb, u)
}

/// The points of `inc`'s face most against `reference`'s face looking
/// along `u`, clipped to that face's rectangle, that lie past its plane:
/// each as (point, the face's outward normal, depth).
fn clip(inc: BoxPose, reference: BoxPose, u: Vec3, mut touch: impl FnMut(Vec3, Vec3, f32)) {
    let (n, plane) = face(reference, u);
    let (inc_n, _) = face(inc, -n);
    let rim = |bx: BoxPose, normal: Vec3| {
        let (c, q, h) = bx;
        let i = axis_of(q.conjugate() * normal);
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let (tj, tk) = (q * unit(j), q * unit(k));
        (c + normal * h[i], (tj, h[j]), (tk, h[k]))
    };
    let (centre, (tj, hj), (tk, hk)) = rim(inc, inc_n);
    let mut poly = [Vec3::ZERO; 8];
    let mut len = 4;
    for (m, (sj, sk)) in [(1.0, 1.0), (1.0, -1.0), (-1.0, -1.0), (-1.0, 1.0)]
        .into_iter()
        .enumerate()
    {
        poly[m] = centre + tj * (hj * sj) + tk * (hk * sk);
    }
    let (face_centre, (rj, rhj), (rk, rhk)) = rim(reference, n);
    for (t, half) in [(rj, rhj), (-rj, rhj), (rk, rhk), (-rk, rhk)] {
        // Sutherland–Hodgman against the side plane (p − centre)·t ≤ half.
        let side = |p: Vec3| (p - face_centre).dot(t) - half;
        let mut next = [Vec3::ZERO; 8];
        let mut kept = 0;
        for m in 0..len {
            let (p, q) = (poly[m], poly[(m + 1) % len]);
            let (sp, sq) = (side(p), side(q));
            if sp <= 0.0 && kept < 8 {
                next[kept] = p;
                kept += 1;
            }
            if (sp < 0.0) != (sq < 0.0) && sp != sq && kept < 8 {
                next[kept] = p + (q - p) * (sp / (sp - sq));
                kept += 1;
            }
        }
        poly = next;
        len = kept;
    }
    for (m, &p) in poly[..len].iter().enumerate() {
        // A corner on a side plane comes out twice.
        let again = poly[..m].iter().any(|q| q.distance_squared(p) < 1e-12);
        let depth = plane - p.dot(n);
        if depth > -MARGIN && !again {
            touch(p, n, depth);
        }
    }
}

/// The index of the largest component of `v` in magnitude.
fn axis_of(v: Vec3) -> usize {
    let a = v.abs();
    if a.x >= a.y && a.x >= a.z {
        0
    } else if a.y >= a.z {
        1
    } else {
        2
    }
}

/// The unit vector along axis `i`.
fn unit(i: usize) -> Vec3 {
    let mut v = Vec3::ZERO;
    v[i] = 1.0;
    v
}

/// The outward normal of `bx`'s face that looks most along `u`, and its
/// plane's offset (normal · point on the face).
fn face(bx: BoxPose, u: Vec3) -> (Vec3, f32) {
    let (c, q, h) = bx;
    let local = q.conjugate() * u;
    let i = axis_of(local);
    let normal = q * (unit(i) * local[i].signum());
    (normal, normal.dot(c) + h[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two bars crossed edge on edge, `sink` (m) into each other: the
    /// upper one along z turned 45° about z (its bottom an edge), the
    /// lower one along x turned 45° about x (its top an edge).
    fn crossed(sink: f32) -> (BoxPose, BoxPose) {
        let quarter = std::f32::consts::FRAC_PI_4;
        let h = Vec3::new(0.1, 0.1, 0.5);
        let top = 0.1 * std::f32::consts::SQRT_2;
        let upper = (
            Vec3::new(0.0, 2.0 * top - sink, 0.0),
            Quat::from_rotation_z(quarter),
            h,
        );
        let lower = (
            Vec3::ZERO,
            Quat::from_rotation_x(quarter),
            Vec3::new(0.5, 0.1, 0.1),
        );
        (upper, lower)
    }

    #[test]
    fn crossed_edges_touch_at_one_point_with_the_edges_common_normal_and_depth() {
        let mut out = [(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO); 16];
        for sink in [0.001f32, 0.01, 0.03] {
            let (upper, lower) = crossed(sink);
            let n = boxes(upper, lower, &mut out);
            assert_eq!(n, 1, "sunk {sink} m: {:?}", &out[..n]);
            let (pa, pb, normal) = out[0];
            assert!(normal.distance(Vec3::Y) < 1e-4, "normal {normal}");
            let depth = (pb - pa).dot(normal);
            assert!((depth - sink).abs() < 1e-5, "depth {depth} against {sink}");
            assert!(pa.x.abs() < 1e-4 && pa.z.abs() < 1e-4, "at {pa}");
        }
        // Apart by 1 cm along y, which no face normal of either box shows.
        let (upper, lower) = crossed(-0.01);
        assert_eq!(boxes(upper, lower, &mut out), 0);
    }

    #[test]
    fn a_box_resting_on_a_box_keeps_its_face_manifold() {
        let mut out = [(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO); 16];
        let h = Vec3::splat(0.1);
        let upper = (Vec3::new(0.02, 0.199, 0.0), Quat::from_rotation_y(0.3), h);
        let lower = (Vec3::ZERO, Quat::IDENTITY, h);
        let n = boxes(upper, lower, &mut out);
        assert!(n >= 4, "{n} touches");
        assert!(out[..n].iter().all(|t| t.2.distance(Vec3::Y) < 1e-5));
    }
}
