//! The key light: where it comes from, how bright a surface it reaches
//! is, and what stands in its way (the casters both kinds of shadow use:
//! the planar ones on the ground, `shadow`, and the depth map on bodies,
//! `shadow_map`).

use macroquad::prelude::*;

use crate::solver::rigid::{Rigid, RigidShape};
use crate::solver::{LinkKind, LinkView, Shape, World};

/// Direction toward the key light (the bodies' shading uses it too).
pub const LIGHT: Vec3 = Vec3::new(0.4, 1.0, 0.6);

/// The light a surface gets without the key light: a hemisphere, more
/// from the sky above than from the ground below, so undersides read as
/// undersides even in shadow; and what the key light adds at full
/// strength facing it.
const SKY: f32 = 0.42;
const GROUND: f32 = 0.24;
const KEY: f32 = 0.65;

/// The brightness of a surface of unit normal `n` that gets `lit` ∈ [0, 1]
/// of the key light ([`ShadowMap::light_at`](super::shadow_map::ShadowMap::light_at)).
pub fn shade(n: Vec3, lit: f32) -> f32 {
    let ambient = GROUND + (SKY - GROUND) * (0.5 + 0.5 * n.y);
    ambient + KEY * n.dot(LIGHT.normalize()).max(0.0) * lit
}

/// The links drawn as tubes, which cast as such: ropes', meshes' and
/// joins' stretch links (a sheet's links are its surface, bending links
/// are not drawn).
pub fn tube_links(world: &World) -> impl Iterator<Item = LinkView> + '_ {
    world.constraints.iter().filter(|l| {
        let sheet = matches!(
            world.bodies()[l.tag.body as usize].shape,
            Shape::Cloth { .. } | Shape::Closed { .. }
        );
        !(sheet && l.tag.kind != LinkKind::Join) && l.tag.kind != LinkKind::Bend
    })
}

/// A rigid body as what casts a shadow: its box's twelve triangles, or
/// its core segment and radius (a ball's is a point).
// Made and matched at once, never stored: boxing the triangles would
// allocate per body per frame for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Caster {
    /// Triangles of a box's faces.
    Faces([[Vec3; 3]; 12]),
    /// A capsule (a ball: both ends at its centre).
    Round(Vec3, Vec3, f32),
}

/// What rigid body `r` casts.
pub fn caster(r: &Rigid) -> Caster {
    match r.shape {
        RigidShape::Box(e) => {
            let corner = |k: usize| {
                let s = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
                r.point(e * vec3(s(1), s(2), s(4)))
            };
            // Each face's two triangles, by the corners' bits.
            const FACES: [[usize; 4]; 6] = [
                [0, 2, 6, 4],
                [1, 3, 7, 5],
                [0, 1, 5, 4],
                [2, 3, 7, 6],
                [0, 1, 3, 2],
                [4, 5, 7, 6],
            ];
            let mut t = [[Vec3::ZERO; 3]; 12];
            for (f, q) in FACES.iter().enumerate() {
                t[2 * f] = [corner(q[0]), corner(q[1]), corner(q[2])];
                t[2 * f + 1] = [corner(q[0]), corner(q[2]), corner(q[3])];
            }
            Caster::Faces(t)
        }
        RigidShape::Sphere(radius) => Caster::Round(r.x, r.x, radius),
        RigidShape::Capsule(radius, half) => {
            let d = r.q * vec3(0.0, half, 0.0);
            Caster::Round(r.x - d, r.x + d, radius)
        }
    }
}
