//! Closed surfaces (balloons, soft solids' skins) and torn cloths:
//! smooth-shaded triangles with per-particle normals and a key light;
//! closed ones get a rim that separates the silhouette from the
//! background, torn cloths the weave and the back tint of whole ones.

use macroquad::prelude::*;

use super::light::shade;
use super::mesh::{fit, flush, rgba, vertex};
use super::{CLOTH_BACK, CLOTH_FRONT, Display, Renderer};
use crate::solver::{Shape, World};

/// The colour of closed bodies.
const SKIN: [f32; 3] = [0.88, 0.32, 0.36];

impl Renderer {
    /// Area-weighted vertex normals of `pos` (not normalised): the sum of
    /// the cross products (b − a) × (c − a) of the triangles around each.
    fn area_normals(&mut self, pos: &[Vec3], triangles: impl Iterator<Item = [usize; 3]>) {
        self.normals.clear();
        self.normals.resize(pos.len(), Vec3::ZERO);
        for t in triangles {
            let [a, b, c] = t.map(|i| pos[i]);
            let n = (b - a).cross(c - a);
            for i in t {
                self.normals[i] += n;
            }
        }
    }

    /// Draws body `b`'s outward-wound `triangles` (indices from the body's
    /// first particle), lit from `light::LIGHT`, seen from `eye`.
    pub(super) fn closed(
        &mut self,
        world: &World,
        b: usize,
        triangles: &[[u32; 3]],
        eye: Vec3,
        display: &Display,
    ) {
        let body = &world.bodies()[b];
        let pos = &world.particles.pos()[body.range()];
        self.area_normals(pos, triangles.iter().map(|t| t.map(|i| i as usize)));
        let mut mesh = self.take_mesh();
        for t in triangles {
            fit(&mut mesh, 3);
            let base = mesh.vertices.len() as u16;
            for &i in t {
                let i = i as usize;
                let n = self.normals[i].normalize_or_zero();
                let view = (eye - pos[i]).normalize_or_zero();
                let rim = (1.0 - n.dot(view).abs()).powi(3) * 0.35;
                let shade = shade(n, self.shadow_map.light_at(pos[i], n)) + rim;
                let colour = self.base_colour(body.first + i, SKIN, display.colour);
                mesh.vertices.push(vertex(pos[i], rgba(colour, shade)));
            }
            mesh.indices.extend([base, base + 1, base + 2]);
        }
        flush(&mut mesh);
        self.mesh = Some(mesh);
    }

    /// Draws tearable cloth `b` from its faces, copies made by tears
    /// included, so a cut shows as a clean edge; a face whose link broke
    /// without a split is left out.
    pub(super) fn torn_cloth(&mut self, world: &World, b: usize, eye: Vec3, display: &Display) {
        let body = &world.bodies()[b];
        let (Some(f), Shape::Cloth { columns, rows }) = (&body.faces, &body.shape) else {
            return;
        };
        let span = vec2((columns - 1) as f32, (rows - 1) as f32);
        let pos = &world.particles.pos()[body.range()];
        let local = |i: u32| i as usize - body.first;
        // Wound the other way round, so front = +z for a vertical cloth,
        // as whole ones.
        let reversed = f.triangles.iter().map(|&[a, b, c]| [a, c, b].map(local));
        self.area_normals(pos, reversed);
        let weave = self.weave_texture();
        let mut mesh = self.take_mesh();
        mesh.texture = Some(weave);
        for (t, _) in f.triangles.iter().zip(&f.dead).filter(|(_, dead)| !**dead) {
            fit(&mut mesh, 3);
            let base = mesh.vertices.len() as u16;
            for &i in t {
                let k = local(i);
                let n = self.normals[k].normalize_or_zero();
                let (n, tint) = if n.dot(eye - pos[k]) >= 0.0 {
                    (n, CLOTH_FRONT)
                } else {
                    (-n, CLOTH_BACK)
                };
                let shade = shade(n, self.shadow_map.light_at(pos[k], n));
                let colour = self.base_colour(i as usize, tint, display.colour);
                let mut v = vertex(pos[k], rgba(colour, shade));
                v.uv = f.cell(k).as_vec2() / span;
                mesh.vertices.push(v);
            }
            mesh.indices.extend([base, base + 1, base + 2]);
        }
        flush(&mut mesh);
        mesh.texture = None;
        self.mesh = Some(mesh);
    }
}
