//! Ropes as lit tubes: each link a short cylinder of a few sides, shaded
//! by the key light with a rim toward the eye, so coils and piles read as
//! separate strands rather than one flat ribbon. A rope's links share the
//! rings at its particles ([`rope_frames`]), so it is one smooth tube;
//! meshes' links and joins are tubes of their own.

use macroquad::models::{Mesh, Vertex};
use macroquad::prelude::*;

use super::light::shade;

/// Sides of a tube.
pub const SIDES: usize = 6;

/// One end of a tube: where, how thick, its colour, and the ring's frame:
/// the ring lies across `tangent`, starting at `u` (⊥ `tangent`).
#[derive(Clone, Copy, Debug)]
pub struct End {
    pub centre: Vec3,
    pub radius: f32,
    pub colour: [f32; 3],
    pub tangent: Vec3,
    pub u: Vec3,
    /// How much of the key light reaches it (see `ShadowMap::light_at`).
    pub lit: f32,
}

/// Per particle of each rope, the frame of its ring: the tangent halfway
/// between its two links' directions, and a `u` carried from particle to
/// particle by parallel transport (the least rotation), so that the links
/// meeting at a particle share one ring and the rope is one smooth tube
/// without creases or twists at the joints. `frames` is indexed by world
/// particle; particles of other bodies get zeros.
pub fn rope_frames(
    pos: &[Vec3],
    ropes: impl Iterator<Item = std::ops::Range<usize>>,
    frames: &mut Vec<[Vec3; 2]>,
) {
    frames.clear();
    frames.resize(pos.len(), [Vec3::ZERO; 2]);
    for range in ropes {
        let mut u = Vec3::ZERO;
        for i in range.clone() {
            let back = (i > range.start).then(|| (pos[i] - pos[i - 1]).normalize_or_zero());
            let ahead = (i + 1 < range.end).then(|| (pos[i + 1] - pos[i]).normalize_or_zero());
            let t = (back.unwrap_or(Vec3::ZERO) + ahead.unwrap_or(Vec3::ZERO))
                .try_normalize()
                .or(back.or(ahead).filter(|d| *d != Vec3::ZERO))
                .unwrap_or(Vec3::Y);
            u = (u - t * t.dot(u))
                .try_normalize()
                .unwrap_or_else(|| t.any_orthonormal_vector());
            frames[i] = [t, u];
        }
    }
}

/// Adds a tube between two ends to `mesh`, lit as seen from `eye`. The
/// caller makes room for 2·[`SIDES`] vertices.
pub fn add(mesh: &mut Mesh, ends: [End; 2], eye: Vec3) {
    if ends[0].centre == ends[1].centre {
        return;
    }
    let base = mesh.vertices.len() as u16;
    for end in ends {
        ring(
            mesh,
            end.centre,
            end.u,
            end.tangent.cross(end.u),
            end.radius,
            SIDES,
            (end.colour, end.lit),
            eye,
        );
    }
    join_rings(mesh, base, 2, SIDES, false);
}

/// Sides of a chain link's wire.
const WIRE_SIDES: usize = 5;
/// Points around a chain link's loop (half on each rounded end).
const LOOP: usize = 16;
/// Vertices of one chain link, for the caller's room check.
pub const LINK_VERTICES: usize = LOOP * WIRE_SIDES;

/// Adds a chain link spanning particles `a` → `b` to `mesh`: a stadium
/// loop in the plane of the link and `across` (⊥ the link), as wide as
/// 0.6 × the link's length (a common chain's proportions), its wire 0.3 ×
/// its half width thick, reaching 0.6 × its half width past each particle
/// so that it hooks into its neighbours, which the caller turns 90°.
/// `paint`: its colour and how much of the key light reaches it.
pub fn add_link(
    mesh: &mut Mesh,
    a: Vec3,
    b: Vec3,
    across: Vec3,
    paint: ([f32; 3], f32),
    eye: Vec3,
) {
    let length = a.distance(b);
    let d = (b - a).normalize_or_zero();
    if d == Vec3::ZERO {
        return;
    }
    let half_width = 0.3 * length;
    let reach = 0.6 * half_width;
    // Centres of the two rounded ends, and the loop's normal.
    let (c0, c1) = (a + d * (half_width - reach), b - d * (half_width - reach));
    let normal = d.cross(across);
    let half = LOOP / 2;
    let point = |i: usize| -> Vec3 {
        let (centre, start) = if i < half {
            (c0, std::f32::consts::FRAC_PI_2)
        } else {
            (c1, -std::f32::consts::FRAC_PI_2)
        };
        let t = start + std::f32::consts::PI * (i % half) as f32 / (half - 1) as f32;
        centre + (d * t.cos() + across * t.sin()) * half_width
    };
    let base = mesh.vertices.len() as u16;
    for i in 0..LOOP {
        let along = (point((i + 1) % LOOP) - point((i + LOOP - 1) % LOOP)).normalize_or_zero();
        let out = along.cross(normal).normalize_or_zero();
        ring(
            mesh,
            point(i),
            out,
            normal,
            0.3 * half_width,
            WIRE_SIDES,
            paint,
            eye,
        );
    }
    join_rings(mesh, base, LOOP, WIRE_SIDES, true);
}

/// Pushes a ring of `sides` vertices around `centre` in the plane of `u`
/// and `v` (unit, ⊥), lit like a tube's surface; `(colour, lit)`: its
/// colour and how much of the key light reaches it.
#[allow(clippy::too_many_arguments)]
fn ring(
    mesh: &mut Mesh,
    centre: Vec3,
    u: Vec3,
    v: Vec3,
    radius: f32,
    sides: usize,
    (colour, lit): ([f32; 3], f32),
    eye: Vec3,
) {
    for k in 0..sides {
        let t = k as f32 / sides as f32 * std::f32::consts::TAU;
        let n = u * t.cos() + v * t.sin();
        let p = centre + n * radius;
        let view = (eye - p).normalize_or_zero();
        let rim = (1.0 - n.dot(view).abs()).powi(3);
        let shade = shade(n, lit) + 0.35 * rim;
        let c = |x: f32| ((x * shade).clamp(0.0, 1.0) * 255.0) as u8;
        mesh.vertices.push(Vertex {
            position: p,
            uv: Vec2::ZERO,
            color: [c(colour[0]), c(colour[1]), c(colour[2]), 255],
            normal: Vec4::ZERO,
        });
    }
}

/// Joins `rings` consecutive rings of `sides` vertices from `base` with
/// quads (the last back to the first when `closed`).
fn join_rings(mesh: &mut Mesh, base: u16, rings: usize, sides: usize, closed: bool) {
    let (sides16, last) = (sides as u16, if closed { rings } else { rings - 1 });
    for r in 0..last {
        let (this, next) = (
            base + (r * sides) as u16,
            base + (((r + 1) % rings) * sides) as u16,
        );
        for k in 0..sides16 {
            let k1 = (k + 1) % sides16;
            mesh.indices.extend([
                this + k,
                this + k1,
                next + k1,
                this + k,
                next + k1,
                next + k,
            ]);
        }
    }
}
