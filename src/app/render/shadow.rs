//! Planar shadows: every body and collider projected along the key light
//! onto the ground, so a rope above the ground and one lying on it no
//! longer look alike.
//!
//! A point p above a ground at height h falls at p − L·(p.y − h)/L.y, L
//! the direction toward the light. Shadows are drawn opaque in one dark
//! colour just above the ground, before the ground's grid and the bodies:
//! overlapping shadows do not darken twice, and contact reads at a glance
//! (a body on the ground touches its own shadow).

use macroquad::models::Mesh;
use macroquad::prelude::*;

use super::light::{self, LIGHT};
use super::mesh::{flush, vertex};
use crate::solver::{Collider, Shape, World};

/// The shadows' colour: the background, darker.
const SHADOW: [u8; 4] = [14, 15, 18, 255];

/// Lifted this far above the ground so the shadow wins the depth test
/// against the grid drawn after it (m).
const LIFT: f32 = 0.01;

/// Vertices per draw call (u16 indices).
const CHUNK: usize = 60_000;

/// The ground the shadows fall on: the highest `Ground` collider.
pub fn ground(world: &World) -> Option<f32> {
    world
        .colliders
        .iter()
        .filter_map(|c| match *c {
            Collider::Ground { height, .. } => Some(height),
            _ => None,
        })
        .reduce(f32::max)
}

/// Draws every body's and collider's shadow on the ground at `h`.
pub fn draw(world: &World, h: f32) {
    let light = LIGHT.normalize();
    let onto = |p: Vec3| {
        let p = p - light * ((p.y - h).max(0.0) / light.y);
        vec3(p.x, h + LIFT, p.z)
    };
    let mut mesh = Mesh {
        vertices: Vec::new(),
        indices: Vec::new(),
        texture: None,
    };
    let pos = world.particles.pos();
    let radius = world.particles.radius();
    for body in world.bodies() {
        if let Shape::Closed { triangles } = &body.shape {
            for t in triangles {
                let [a, b, c] = t.map(|i| onto(pos[body.first + i as usize]));
                polygon(&mut mesh, &[a, b, c]);
            }
        }
        if let Some(f) = &body.faces {
            for (t, _) in f.triangles.iter().zip(&f.dead).filter(|(_, dead)| !**dead) {
                let [a, b, c] = t.map(|i| onto(pos[i as usize]));
                polygon(&mut mesh, &[a, b, c]);
            }
            continue;
        }
        if let Shape::Cloth { columns, rows } = body.shape {
            let at = |r: usize, c: usize| onto(pos[body.first + r * columns + c]);
            if 2 * columns > CHUNK {
                // A row too long for one draw call: cell by cell.
                for r in 0..rows - 1 {
                    for c in 0..columns - 1 {
                        polygon(
                            &mut mesh,
                            &[at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)],
                        );
                    }
                }
                continue;
            }
            // Bands of rows sharing their vertices, as many as a draw call holds.
            let band = (CHUNK / columns).max(2);
            let mut first = 0;
            while first + 1 < rows {
                let last = (first + band - 1).min(rows - 1);
                if mesh.vertices.len() + (last - first + 1) * columns > CHUNK {
                    flush(&mut mesh);
                }
                let base = mesh.vertices.len();
                for r in first..=last {
                    mesh.vertices
                        .extend((0..columns).map(|c| vertex(at(r, c), SHADOW)));
                }
                for r in 0..last - first {
                    for c in 0..columns - 1 {
                        let v = |dr: usize, dc: usize| (base + (r + dr) * columns + c + dc) as u16;
                        mesh.indices
                            .extend([v(0, 0), v(0, 1), v(1, 1), v(0, 0), v(1, 1), v(1, 0)]);
                    }
                }
                first = last;
            }
        }
    }
    // Ropes, meshes and joins: their links as strips as wide as the particles.
    for l in light::tube_links(world) {
        let (a, b) = (onto(pos[l.a]), onto(pos[l.b]));
        let side = (b - a).cross(Vec3::Y).normalize_or_zero();
        let (wa, wb) = (side * radius[l.a], side * radius[l.b]);
        polygon(&mut mesh, &[a - wa, a + wa, b + wb, b - wb]);
    }
    for r in &world.rigids().bodies {
        match light::caster(r) {
            light::Caster::Faces(t) => {
                for t in t {
                    polygon(&mut mesh, &t.map(onto));
                }
            }
            light::Caster::Round(a, b, radius) => {
                // The core's shadow, widened by the radius, and round ends.
                let (a, b) = (onto(a), onto(b));
                for end in [a, b] {
                    disc(&mut mesh, end, radius, 16);
                }
                let side = (b - a).cross(Vec3::Y).normalize_or_zero() * radius;
                polygon(&mut mesh, &[a - side, a + side, b + side, b - side]);
            }
        }
    }
    for c in &world.colliders {
        match *c {
            Collider::Sphere { center, radius, .. } if center.y > h => {
                disc(&mut mesh, onto(center), radius, 24);
            }
            Collider::Box {
                center,
                half_extents: e,
                ..
            } => {
                // The union of the projected faces is the box's shadow.
                let corner = |sx: f32, sy: f32, sz: f32| onto(center + e * vec3(sx, sy, sz));
                for (u, v) in [(0, 1), (1, 2), (0, 2)] {
                    for side in [-1.0, 1.0] {
                        let face: Vec<Vec3> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                            .iter()
                            .map(|&(a, b)| {
                                let mut s = [side; 3];
                                s[u] = a;
                                s[v] = b;
                                corner(s[0], s[1], s[2])
                            })
                            .collect();
                        polygon(&mut mesh, &face);
                    }
                }
            }
            _ => {}
        }
    }
    flush(&mut mesh);
}

/// A level disc of `radius` around `middle` as a polygon of `sides`.
fn disc(mesh: &mut Mesh, middle: Vec3, radius: f32, sides: usize) {
    let rim: Vec<Vec3> = (0..sides)
        .map(|k| {
            let t = k as f32 / sides as f32 * std::f32::consts::TAU;
            middle + vec3(t.cos(), 0.0, t.sin()) * radius
        })
        .collect();
    polygon(mesh, &rim);
}

/// Adds a convex polygon as a triangle fan, drawing first if the mesh is full.
fn polygon(mesh: &mut Mesh, corners: &[Vec3]) {
    if mesh.vertices.len() + corners.len() > CHUNK {
        flush(mesh);
    }
    let base = mesh.vertices.len() as u16;
    mesh.vertices
        .extend(corners.iter().map(|&p| vertex(p, SHADOW)));
    for k in 1..corners.len() as u16 - 1 {
        mesh.indices.extend([base, base + k, base + k + 1]);
    }
}
