//! Ropes as lit tubes: each link a short cylinder of a few sides, shaded
//! by the key light with a rim toward the eye, so coils and piles read as
//! separate strands rather than one flat ribbon.

use macroquad::models::{Mesh, Vertex};
use macroquad::prelude::*;

use super::shadow::LIGHT;

/// Sides of a tube.
pub const SIDES: usize = 6;

/// Adds a tube from `a` (radius `ra`, colour `ca`) to `b` to `mesh`, lit
/// as seen from `eye`. The caller makes room for 2·[`SIDES`] vertices.
#[allow(clippy::too_many_arguments)]
pub fn add(
    mesh: &mut Mesh,
    a: Vec3,
    b: Vec3,
    ra: f32,
    rb: f32,
    ca: [f32; 3],
    cb: [f32; 3],
    eye: Vec3,
) {
    let axis = (b - a).normalize_or_zero();
    if axis == Vec3::ZERO {
        return;
    }
    // Any frame around the axis will do: the tube is round.
    let u = axis.any_orthonormal_vector();
    let v = axis.cross(u);
    let light = LIGHT.normalize();
    let base = mesh.vertices.len() as u16;
    for (centre, radius, colour) in [(a, ra, ca), (b, rb, cb)] {
        for k in 0..SIDES {
            let t = k as f32 / SIDES as f32 * std::f32::consts::TAU;
            let n = u * t.cos() + v * t.sin();
            let p = centre + n * radius;
            let view = (eye - p).normalize_or_zero();
            let diffuse = n.dot(light).max(0.0);
            let rim = (1.0 - n.dot(view).abs()).powi(3);
            let shade = 0.35 + 0.65 * diffuse + 0.35 * rim;
            let c = |x: f32| ((x * shade).clamp(0.0, 1.0) * 255.0) as u8;
            mesh.vertices.push(Vertex {
                position: p,
                uv: Vec2::ZERO,
                color: [c(colour[0]), c(colour[1]), c(colour[2]), 255],
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
