//! Mesh building shared by everything drawn: vertices, colours, and draw
//! calls cut at what u16 indices can address.

use macroquad::models::{Mesh, Vertex, draw_mesh};
use macroquad::prelude::*;

/// Vertices per draw call (u16 indices).
pub const CHUNK: usize = 60_000;

/// Draws and empties `mesh` when another `verts` would not fit in a draw call.
pub fn fit(mesh: &mut Mesh, verts: usize) {
    if mesh.vertices.len() + verts > CHUNK {
        flush(mesh);
    }
}

/// `c` darkened or lightened by `shade`, as mesh vertex bytes.
pub fn rgba(c: [f32; 3], shade: f32) -> [u8; 4] {
    let s = |x: f32| ((x * shade).clamp(0.0, 1.0) * 255.0) as u8;
    [s(c[0]), s(c[1]), s(c[2]), 255]
}

pub fn vertex(p: Vec3, color: [u8; 4]) -> Vertex {
    Vertex {
        position: p,
        uv: Vec2::ZERO,
        color,
        normal: Vec4::ZERO,
    }
}

/// Draws `mesh` and empties it for reuse.
pub fn flush(mesh: &mut Mesh) {
    if !mesh.indices.is_empty() {
        draw_mesh(mesh);
    }
    mesh.vertices.clear();
    mesh.indices.clear();
}
