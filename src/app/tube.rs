//! Ropes as lit tubes: each link a short cylinder of a few sides, shaded
//! by the key light with a rim toward the eye, so coils and piles read as
//! separate strands rather than one flat ribbon. A rope's links share the
//! rings at its particles ([`rope_frames`]), so it is one smooth tube;
//! meshes' links and joins are tubes of their own.

use macroquad::models::{Mesh, Vertex};
use macroquad::prelude::*;

use super::shadow::LIGHT;

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
    let light = LIGHT.normalize();
    let base = mesh.vertices.len() as u16;
    for end in ends {
        let v = end.tangent.cross(end.u);
        for k in 0..SIDES {
            let t = k as f32 / SIDES as f32 * std::f32::consts::TAU;
            let n = end.u * t.cos() + v * t.sin();
            let p = end.centre + n * end.radius;
            let view = (eye - p).normalize_or_zero();
            let diffuse = n.dot(light).max(0.0);
            let rim = (1.0 - n.dot(view).abs()).powi(3);
            let shade = 0.35 + 0.65 * diffuse + 0.35 * rim;
            let c = |x: f32| ((x * shade).clamp(0.0, 1.0) * 255.0) as u8;
            mesh.vertices.push(Vertex {
                position: p,
                uv: Vec2::ZERO,
                color: [c(end.colour[0]), c(end.colour[1]), c(end.colour[2]), 255],
                normal: Vec4::ZERO,
            });
        }
    }
    let sides = SIDES as u16;
    for k in 0..sides {
        let next = (k + 1) % sides;
        let (a0, a1, b0, b1) = (base + k, base + next, base + sides + k, base + sides + next);
        mesh.indices.extend([a0, a1, b1, a0, b1, b0]);
    }
}
