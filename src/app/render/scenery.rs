//! What is drawn besides the bodies: the ground's fading grid, the
//! colliders, the analytic ghosts (catenary, spring ball) and the cloth's
//! weave texture.

use macroquad::models::{Mesh, draw_mesh};
use macroquad::prelude::*;

use super::camera::OrbitCamera;
use super::light::shade;
use super::mesh::{fit, flush, rgba, vertex};
use super::shadow_map::ShadowMap;
use crate::analytic::{Cantilever, Catenary, HangingRope};
use crate::solver::{Body, Collider, World};

/// The colour behind everything: the 3D view's background, the ground's
/// grid fading into it, and the panels (which are not painted over it:
/// see [`panels_show_background`]).
pub const BACKGROUND: Color = Color::new(0.11, 0.12, 0.14, 1.0);

/// Leaves egui's panels unfilled, so they show the background the frame
/// is cleared to instead of painting it again. The 3D view is drawn in
/// what the panels leave free, so nothing else lies under them; under
/// software rendering the fills cost about 5 ms of CPU a frame (the side
/// panel alone 250,000 pixels).
pub fn panels_show_background() {
    egui_macroquad::cfg(|ctx| {
        ctx.style_mut(|s| s.visuals.panel_fill = egui_macroquad::egui::Color32::TRANSPARENT)
    });
}

/// A light weave over the whole cloth: 32 × 32 squares, warp and weft
/// alternating a little darker, and thin threads between them, so motion
/// and stretch show on flat regions (it multiplies the vertex colours).
pub fn weave() -> Texture2D {
    const SIZE: usize = 256;
    const CELL: usize = SIZE / 32;
    let mut bytes = Vec::with_capacity(SIZE * SIZE * 4);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let checker = (x / CELL + y / CELL).is_multiple_of(2);
            let thread = x.is_multiple_of(CELL) || y.is_multiple_of(CELL);
            let v: u8 = match (thread, checker) {
                (true, _) => 222,
                (false, true) => 255,
                (false, false) => 240,
            };
            bytes.extend([v, v, v, 255]);
        }
    }
    let texture = Texture2D::from_rgba8(SIZE as u16, SIZE as u16, &bytes);
    texture.set_filter(FilterMode::Linear);
    texture
}

/// The inextensible catenary through the ends of rope `b`, when exactly
/// its two ends are pinned (not driven) under vertical gravity: what the
/// rope should settle into. Drawn as a thin cyan ghost.
pub fn draw_catenary(world: &World, b: usize, body: &Body, eye: Vec3) {
    let Some((curve, _)) = Catenary::of_rope(world, b) else {
        return;
    };
    let r = ghost_radius(world, body);
    draw_ghost_curve(|t| curve.point(t), r, eye);
}

/// The beam formula's bent line of rod `b` when it is a cantilever (one
/// end clamped, nothing else holding it): where its weight should bend it
/// at its E. Drawn as a thin cyan ghost.
pub fn draw_cantilever(world: &World, b: usize, body: &Body, eye: Vec3) {
    let Some(beam) = Cantilever::of_rod(world, b) else {
        return;
    };
    let r = ghost_radius(world, body);
    draw_ghost_curve(|t| beam.point(t), r, eye);
}

/// Rope `b` hanging from its one pin: where XPBD's compliance says it
/// hangs still (a cyan ghost straight down to its stretched length,
/// whatever the substeps) and a grey tick across it at its rest length —
/// the default scene's lesson.
pub fn draw_hanging(world: &World, b: usize, body: &Body, eye: Vec3) {
    let Some(rope) = HangingRope::of_rope(world, b) else {
        return;
    };
    let r = ghost_radius(world, body);
    let (pin, down) = (rope.pin, rope.down);
    // Half the catenary's band: a straight band as wide as the rope's
    // reads as a pole beside it.
    draw_ghost_curve(|t| pin + down * (t * rope.stretched), 0.5 * r, eye);
    let at = pin + down * rope.rest;
    let side = down.cross(eye - at).normalize_or_zero() * (6.0 * r);
    let grey = Color::new(0.85, 0.85, 0.85, 0.9);
    draw_line_3d(at - side, at + side, grey);
    let lifted = (eye - at).normalize_or_zero() * 0.002;
    draw_line_3d(at - side + lifted, at + side + lifted, grey);
}

/// The radius a body's ghost is drawn for: its first particle's, at
/// least 5 mm.
fn ghost_radius(world: &World, body: &Body) -> f32 {
    world.particles.radius()[body.first].max(0.005)
}

/// A curve `at(t)`, t ∈ [0, 1], as a cyan ghost for a body of radius `r`.
fn draw_ghost_curve(at: impl Fn(f32) -> Vec3, r: f32, eye: Vec3) {
    let ghost = Color::new(0.3, 0.9, 1.0, 0.9);
    let steps = 64;
    let points: Vec<Vec3> = (0..=steps).map(|k| at(k as f32 / steps as f32)).collect();
    // A cyan band twice the body's width, pushed behind it: where the body
    // lies exactly on the curve, the band shows as a cyan edge on both
    // sides instead of vanishing under it.
    let mut band = Mesh {
        vertices: Vec::with_capacity(2 * points.len()),
        indices: Vec::with_capacity(6 * steps),
        texture: None,
    };
    let colour: [u8; 4] = Color::new(0.3, 0.9, 1.0, 0.55).into();
    for (k, &x) in points.iter().enumerate() {
        let along = points[(k + 1).min(steps)] - points[k.saturating_sub(1)];
        let to_eye = (eye - x).normalize_or_zero();
        let side = along.cross(to_eye).normalize_or_zero() * (2.0 * r);
        let behind = x - to_eye * (2.0 * r);
        band.vertices.push(vertex(behind - side, colour));
        band.vertices.push(vertex(behind + side, colour));
        if k > 0 {
            let v = (2 * k) as u16;
            band.indices.extend([v - 2, v - 1, v, v - 1, v + 1, v]);
        }
    }
    draw_mesh(&band);
    // And a dashed centre line on top, lifted toward the eye.
    let lift = |x: Vec3| x + (eye - x).normalize_or_zero() * 2.0 * r;
    for k in (0..steps).step_by(2) {
        draw_line_3d(lift(points[k]), lift(points[k + 1]), ghost);
    }
}

/// The ground's grid, fading into the background with distance from
/// `centre` (the camera's target), so it ends instead of stopping at an
/// edge: lines of 0.5 m squares, blended toward the background from
/// [`FADE_FROM`] out to [`FADE_TO`]. Each line is drawn in 1 m pieces,
/// and pieces wholly past the fade are left out: under software
/// rendering every line costs its setup (6,560 quarter-metre pieces took
/// 3–5 ms a frame under llvmpipe).
fn draw_ground(height: f32, centre: Vec3) {
    let (grid, back) = ([0.35, 0.38, 0.42], BACKGROUND);
    let mid = vec3(centre.x.round(), height, centre.z.round());
    let flat = vec3(centre.x, height, centre.z);
    let fade = |p: Vec3| {
        let t = ((p.distance(flat) - FADE_FROM) / (FADE_TO - FADE_FROM)).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    };
    let shade = |t: f32| {
        let c = |k: usize, b: f32| grid[k] + (b - grid[k]) * t;
        Color::new(c(0, back.r), c(1, back.g), c(2, back.b), 1.0)
    };
    for k in -20..=20 {
        let s = k as f32 * 0.5;
        for piece in -10..10 {
            let (a, b) = (piece as f32, (piece + 1) as f32);
            for (p, q) in [
                (mid + vec3(s, 0.0, a), mid + vec3(s, 0.0, b)),
                (mid + vec3(a, 0.0, s), mid + vec3(b, 0.0, s)),
            ] {
                if fade(p) < 1.0 || fade(q) < 1.0 {
                    draw_line_3d(p, q, shade(fade((p + q) * 0.5)));
                }
            }
        }
    }
}

/// Where the ground's grid starts to fade, and where it is gone (m from
/// the camera's target).
const FADE_FROM: f32 = 4.0;
const FADE_TO: f32 = 10.0;

/// The colliders' colour.
const STONE: [f32; 3] = [0.55, 0.58, 0.6];

/// Draws the ground's grid and the spheres and boxes, lit by the key light
/// with the shadows of `map` on them, through the reused `mesh`.
pub fn draw_colliders(colliders: &[Collider], centre: Vec3, map: &ShadowMap, mesh: &mut Mesh) {
    for c in colliders {
        match *c {
            Collider::Ground { height, .. } => draw_ground(height, centre),
            Collider::Sphere { center, radius, .. } => {
                // Rings of latitude from pole to pole.
                const AROUND: usize = 32;
                const RINGS: usize = 24;
                let base = mesh.vertices.len();
                for ring in 0..=RINGS {
                    let polar = std::f32::consts::PI * ring as f32 / RINGS as f32;
                    for k in 0..=AROUND {
                        let a = std::f32::consts::TAU * k as f32 / AROUND as f32;
                        let n = vec3(polar.sin() * a.cos(), polar.cos(), polar.sin() * a.sin());
                        lit_vertex(mesh, center + n * radius, n, map);
                    }
                }
                grid_indices(mesh, base, RINGS, AROUND);
                flush(mesh);
            }
            Collider::Box {
                center,
                half_extents: e,
                ..
            } => {
                // Each face a grid of 16 × 16 quads, so shadows fall on
                // it vertex by vertex; a hair inside the edges drawn over
                // it, so they do not flicker against the faces.
                let inner = e * 0.985;
                box_faces(mesh, inner, 16, |mesh, p, n| {
                    lit_vertex(mesh, center + p, n, map)
                });
                flush(mesh);
                draw_cube_wires(center, e * 2.0, Color::new(0.3, 0.32, 0.35, 1.0));
            }
        }
    }
}

/// A box of half extents `e`, each face a grid of `split` × `split` quads
/// (so shadows fall on it vertex by vertex): `put` adds the vertex at the
/// box-frame point p of normal n.
pub(super) fn box_faces(
    mesh: &mut Mesh,
    e: Vec3,
    split: usize,
    mut put: impl FnMut(&mut Mesh, Vec3, Vec3),
) {
    for axis in 0..3 {
        for side in [-1.0f32, 1.0] {
            fit(mesh, (split + 1) * (split + 1));
            let mut n = Vec3::ZERO;
            n[axis] = side;
            let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
            let base = mesh.vertices.len();
            for i in 0..=split {
                for j in 0..=split {
                    let mut p = n * e;
                    p[u] = e[u] * (2.0 * i as f32 / split as f32 - 1.0);
                    p[v] = e[v] * (2.0 * j as f32 / split as f32 - 1.0);
                    put(mesh, p, n);
                }
            }
            grid_indices(mesh, base, split, split);
        }
    }
}

/// Adds a collider's vertex at `p` of normal `n`, lit with `map`'s shadows.
fn lit_vertex(mesh: &mut Mesh, p: Vec3, n: Vec3, map: &ShadowMap) {
    let shade = shade(n, map.light_at(p, n));
    mesh.vertices.push(vertex(p, rgba(STONE, shade)));
}

/// Two triangles per cell of a grid of (rows + 1) × (columns + 1) vertices
/// from `base`, row by row.
pub(super) fn grid_indices(mesh: &mut Mesh, base: usize, rows: usize, columns: usize) {
    let at = |r: usize, c: usize| (base + r * (columns + 1) + c) as u16;
    for r in 0..rows {
        for c in 0..columns {
            mesh.indices.extend([
                at(r, c),
                at(r, c + 1),
                at(r + 1, c + 1),
                at(r, c),
                at(r + 1, c + 1),
                at(r + 1, c),
            ]);
        }
    }
}

/// A cyan wire ball at `pos`: an analytic answer drawn beside the
/// simulation (the spring's mass where 2π√(αm) puts it).
pub fn draw_ghost_ball(camera: &OrbitCamera, target: Option<RenderTarget>, pos: Vec3, radius: f32) {
    set_camera(&camera.camera3d_into(target));
    draw_sphere_wires(pos, radius, None, Color::new(0.3, 0.9, 1.0, 0.9));
    set_default_camera();
}
