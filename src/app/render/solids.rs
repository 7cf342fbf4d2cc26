//! Rigid bodies drawn as lit solids: a box's faces split in a grid (so
//! shadows fall on it vertex by vertex), a ball and a capsule in rings of
//! latitude, painted in two tones by octant so their turning shows.

use macroquad::models::Mesh;
use macroquad::prelude::*;

use super::light::shade;
use super::mesh::{fit, flush, rgba, vertex};
use super::scenery::{box_faces, grid_indices};
use super::shadow_map::ShadowMap;
use crate::solver::rigid::{JointKind, Rigid, RigidShape, surface};

/// A rigid body's two tones: light wood, darker wood.
const WOOD: [f32; 3] = [0.80, 0.55, 0.32];
const WOOD_DARK: [f32; 3] = [0.55, 0.34, 0.18];
/// A fixed body: stone, as the colliders.
const FIXED: [f32; 3] = [0.55, 0.58, 0.6];

/// Draws every rigid body into `mesh`, lit with `map`'s shadows.
pub fn draw_rigids(bodies: &[Rigid], map: &ShadowMap, mesh: &mut Mesh) {
    for r in bodies {
        let tone = |local: Vec3| {
            if r.fixed {
                FIXED
            } else if (local.x >= 0.0) ^ (local.y >= 0.0) ^ (local.z >= 0.0) {
                WOOD
            } else {
                WOOD_DARK
            }
        };
        let mut put = |mesh: &mut Mesh, local: Vec3, n: Vec3, tone_at: Vec3| {
            let (p, n) = (r.point(local), r.q * n);
            let lit = shade(n, map.light_at(p, n));
            mesh.vertices.push(vertex(p, rgba(tone(tone_at), lit)));
        };
        match r.shape {
            RigidShape::Box(e) => {
                // Quarters of each face in two tones, so its turning shows.
                box_faces(mesh, e, 8, |mesh, p, n| put(mesh, p, n, p));
            }
            RigidShape::Sphere(radius) => rings(mesh, radius, 0.0, &mut put),
            RigidShape::Capsule(radius, half) => rings(mesh, radius, half, &mut put),
        }
    }
    flush(mesh);
}

/// A lit ball of `tone` at `centre` (a rope's tip mass), into `mesh`.
pub fn draw_ball(centre: Vec3, radius: f32, tone: [f32; 3], map: &ShadowMap, mesh: &mut Mesh) {
    let mut put = |mesh: &mut Mesh, local: Vec3, n: Vec3, _: Vec3| {
        let p = centre + local;
        let lit = shade(n, map.light_at(p, n));
        mesh.vertices.push(vertex(p, rgba(tone, lit)));
    };
    rings(mesh, radius, 0.0, &mut put);
    flush(mesh);
}

/// A ball of `radius` (`half` = 0) or a capsule (see
/// [`surface::rings`]).
fn rings(
    mesh: &mut Mesh,
    radius: f32,
    half: f32,
    put: &mut impl FnMut(&mut Mesh, Vec3, Vec3, Vec3),
) {
    fit(mesh, (surface::RINGS + 2) * (surface::AROUND + 1));
    let base = mesh.vertices.len();
    let rows = surface::rings(radius, half, |p, n, _| put(mesh, p, n, n));
    grid_indices(mesh, base, rows - 1, surface::AROUND);
}

/// Every joint as a dot at its anchor and, for a hinge or a slider, a
/// line along its axis 0.3 m long; a hinge with limits also shows the arc
/// its first body may turn through and, as a spoke, where it is in it
/// (brass, drawn over the bodies).
pub fn draw_joints(world: &crate::solver::World) {
    let brass = Color::new(0.95, 0.78, 0.35, 1.0);
    let bodies = &world.rigids().bodies;
    for j in &world.rigids().joints {
        let (at, axis) = j.placement(bodies);
        draw_sphere(at, 0.02, None, brass);
        let Some(axis) = axis else {
            continue;
        };
        draw_line_3d(at - axis * 0.15, at + axis * 0.15, brass);
        if let (JointKind::Hinge(_), Some((lo, hi))) = (j.kind, j.limits) {
            // The arc from b's zero direction turned by lo to hi, radius 0.12 m.
            let zero = j.zero_direction(bodies);
            const STEPS: usize = 24;
            let on_arc = |t: f32| at + Quat::from_axis_angle(axis, t) * zero * 0.12;
            for k in 0..STEPS {
                let t = |k: usize| lo + (hi - lo) * k as f32 / STEPS as f32;
                draw_line_3d(on_arc(t(k)), on_arc(t(k + 1)), brass);
            }
            for end in [lo, hi] {
                draw_line_3d(at, on_arc(end), brass);
            }
            draw_line_3d(at, on_arc(j.angle(bodies)), WHITE);
        }
    }
}

/// Colours of the spin arrows: angular momentum L, angular velocity ω.
pub const MOMENTUM: Color = Color::new(1.0, 0.85, 0.2, 1.0);
pub const SPIN: Color = Color::new(0.3, 0.9, 1.0, 1.0);

/// For every rigid body in free flight spinning faster than 0.5 rad/s:
/// its angular momentum L (gold, 0.4 m long — kept, so it stays put) and
/// its angular velocity ω (cyan, 0.12 m per rad/s), from its centre. In the
/// tennis-racket flip ω swings round while L stands still.
pub fn draw_spin(world: &crate::solver::World) {
    let rigids = world.rigids();
    for (k, r) in rigids.bodies.iter().enumerate() {
        if r.omega.length() < 0.5 || !rigids.in_free_flight(k) {
            continue;
        }
        let l = r.angular_momentum();
        arrow(r.x, l.normalize_or_zero() * 0.4, MOMENTUM);
        arrow(r.x, r.omega * 0.12, SPIN);
    }
}

/// An arrow from `from` along `v`: a line and a ball at its head.
fn arrow(from: Vec3, v: Vec3, colour: Color) {
    if v.length() < 1e-4 {
        return;
    }
    let to = from + v;
    draw_line_3d(from, to, colour);
    draw_sphere(to, 0.012, None, colour);
}
