//! A rod's contacts with itself, segment against segment: each segment is
//! a capsule of the rod's radius, and two that overlap are pushed apart
//! at their closest points.
//!
//! Particle self-collision alone treats a rod as beads: 15 mm apart on
//! `plectoneme`'s 5 mm cable, a snapping loop slipped between two beads
//! and through the cable, and its linking number fell by 2 within a
//! frame (the twist it had been given was lost). Capsules leave no gap.

use glam::Vec4;

use super::rigid::geometry::closest_params;

/// Segments closer than this many radii along the rod (counted between
/// their nearest ends) do not meet: a bend brings them that close without
/// any crossing.
const NEAR_ALONG: f32 = 3.0;

/// One pass of the rod's capsule contacts, pair by pair in order (a
/// rigid inequality, C = (P − Q)·n − 2r ≥ 0 at the closest points P, Q):
/// particles `prev`/`delta` of the rod (inverse mass in `prev.w`), its
/// segments' rest `length`s and cross-section `radius`. A pair within 4r
/// at the substep's start keeps that moment's closest points and normal
/// n; others take the current ones. Pairs whose midpoints were farther
/// apart at the start than 1.5× their half lengths and 4r are skipped:
/// nothing on the shipped rods moves 2 cm in a substep.
pub(crate) fn project(prev: &[Vec4], delta: &mut [Vec4], length: &[f32], radius: f32) {
    let n = length.len();
    let x = |delta: &[Vec4], i: usize| (prev[i] + delta[i]).truncate();
    let reach = 2.0 * radius;
    for i in 0..n {
        let mut along = 0.0;
        for j in i + 1..n {
            // The rod between segment i's far end and segment j's near end.
            if j > i + 1 {
                along += length[j - 1];
            }
            if along < NEAR_ALONG * radius {
                continue;
            }
            // Where they were at the substep's start: a pair close then
            // keeps the side it was on (its closest points and normal
            // from then), so a pass that moved one strand through the other
            // is pushed back, not on through.
            let start = |k: usize| prev[k].truncate();
            let (a0, b0, c0, d0) = (start(i), start(i + 1), start(j), start(j + 1));
            let bound = 0.5 * (length[i] + length[j]) * 1.5 + 2.0 * reach;
            if (a0 + b0 - c0 - d0).length_squared() * 0.25 > bound * bound {
                continue;
            }
            let (s0, t0) = closest_params((a0, b0), (c0, d0));
            let gap0 = (a0 + (b0 - a0) * s0) - (c0 + (d0 - c0) * t0);
            let (a, b) = (x(delta, i), x(delta, i + 1));
            let (c, d) = (x(delta, j), x(delta, j + 1));
            let (s, t, normal, dist) = if gap0.length() < 2.0 * reach && gap0.length() > 1e-9 {
                let n0 = gap0 / gap0.length();
                let gap = (a + (b - a) * s0) - (c + (d - c) * t0);
                (s0, t0, n0, gap.dot(n0))
            } else {
                let (s, t) = closest_params((a, b), (c, d));
                let gap = (a + (b - a) * s) - (c + (d - c) * t);
                let dist = gap.length();
                if dist <= 1e-9 {
                    continue;
                }
                (s, t, gap / dist, dist)
            };
            if dist >= reach {
                continue;
            }
            let w = [prev[i].w, prev[i + 1].w, prev[j].w, prev[j + 1].w];
            let k = [1.0 - s, s, -(1.0 - t), -t];
            let denom: f32 = (0..4).map(|m| w[m] * k[m] * k[m]).sum();
            if denom <= 0.0 {
                continue;
            }
            let dl = (reach - dist) / denom;
            for (m, p) in [i, i + 1, j, j + 1].into_iter().enumerate() {
                delta[p] += (normal * (w[m] * k[m] * dl)).extend(0.0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn crossing_segments_are_pushed_apart_to_twice_the_radius() {
        // Two unit-mass segments crossing at right angles, 1 mm apart.
        let prev = [
            Vec4::new(-0.1, 0.0, 0.0, 1.0),
            Vec4::new(0.1, 0.0, 0.0, 1.0),
            Vec4::new(0.0, 0.001, -0.1, 1.0),
            Vec4::new(0.0, 0.001, 0.1, 1.0),
        ];
        let mut delta = [Vec4::ZERO; 4];
        // As one rod: segments 0 and 2, with a long segment 1 between.
        project(&prev, &mut delta, &[0.2, 1.0, 0.2], 0.005);
        let x: Vec<Vec3> = (0..4).map(|i| (prev[i] + delta[i]).truncate()).collect();
        let (s, t) = closest_params((x[0], x[1]), (x[2], x[3]));
        let gap = (x[0] + (x[1] - x[0]) * s) - (x[2] + (x[3] - x[2]) * t);
        assert!((gap.length() - 0.01).abs() < 1e-6, "{}", gap.length());
        // Equal masses: each segment moved half way, along y only.
        assert!((delta[0].y + 0.0045).abs() < 1e-6 && (delta[2].y - 0.0045).abs() < 1e-6);
    }

    #[test]
    fn neighbours_along_the_rod_never_meet() {
        // A hairpin of three short segments: 0 and 2 are within 3 radii
        // along the rod, so they are left alone however close.
        let prev = [
            Vec4::new(0.0, 0.0, 0.0, 1.0),
            Vec4::new(0.004, 0.0, 0.0, 1.0),
            Vec4::new(0.004, 0.004, 0.0, 1.0),
            Vec4::new(0.0, 0.004, 0.0, 1.0),
        ];
        let mut delta = [Vec4::ZERO; 4];
        project(&prev, &mut delta, &[0.004, 0.004, 0.004], 0.005);
        assert!(delta.iter().all(|d| *d == Vec4::ZERO));
    }
}
