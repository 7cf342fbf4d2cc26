//! Closed surfaces (balloons, soft solids' skins): smooth-shaded triangles
//! with per-particle normals, a key light and a rim that separates the
//! silhouette from the background.

use macroquad::prelude::*;

use super::render::{Display, Renderer, flush, rgba, vertex};
use crate::solver::World;

/// The colour of closed bodies.
const SKIN: [f32; 3] = [0.88, 0.32, 0.36];

impl Renderer {
    /// Draws body `b`'s outward-wound `triangles` (indices from the body's
    /// first particle), lit from `shadow::LIGHT`, seen from `eye`.
    pub(super) fn closed(
        &mut self,
        world: &World,
        b: usize,
        triangles: &[[u32; 3]],
        eye: Vec3,
        display: &Display,
    ) {
        let body = &world.bodies()[b];
        let pos = &world.particles.pos[body.range()];
        // Area-weighted vertex normals: the sum of the faces' cross products.
        self.normals.clear();
        self.normals.resize(pos.len(), Vec3::ZERO);
        for t in triangles {
            let [a, b, c] = t.map(|i| pos[i as usize]);
            let n = (b - a).cross(c - a);
            for &i in t {
                self.normals[i as usize] += n;
            }
        }
        let light = super::shadow::LIGHT.normalize();
        let mut mesh = self.take_mesh();
        for t in triangles {
            Self::flush_if_full(&mut mesh, 3);
            let base = mesh.vertices.len() as u16;
            for &i in t {
                let i = i as usize;
                let n = self.normals[i].normalize_or_zero();
                let view = (eye - pos[i]).normalize_or_zero();
                let rim = (1.0 - n.dot(view).abs()).powi(3) * 0.35;
                let shade = 0.35 + 0.65 * n.dot(light).max(0.0) + rim;
                let colour = self.base_colour(body.first + i, SKIN, display.colour);
                mesh.vertices.push(vertex(pos[i], rgba(colour, shade)));
            }
            mesh.indices.extend([base, base + 1, base + 2]);
        }
        flush(&mut mesh);
        self.mesh = Some(mesh);
    }
}
