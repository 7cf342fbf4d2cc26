//! Shadows on the bodies and colliders themselves (the ground has its
//! planar ones, `shadow.rs`): a depth map seen from the key light, made on
//! the CPU each frame, read per vertex, because every surface here is
//! already lit per vertex on the CPU.
//!
//! Looking down the light, space is a plane (s, t) ⊥ `LIGHT` and a depth
//! d = p·L, larger toward the light. Each cell of a grid over the bodies'
//! extent keeps the largest d of what covers it: the cloth's and closed
//! bodies' triangles, ropes' links as capsules, spheres and boxes by
//! their surface facing the light. A point is in shadow when its cell
//! holds something nearer the light than itself, by more than a bias of
//! about a cell along its slope (what keeps a surface from shadowing
//! itself); sixteen cells around it are read and blended (percentage-
//! closer filtering), so shadow edges are soft rather than stepped.

use macroquad::prelude::*;

use super::light::{self, LIGHT};
use crate::solver::{Collider, World};

/// Cells along the longer side of the grid: a 4 m scene gets 3 cm cells,
/// finer than the default cloth's links (the per-vertex shading blurs
/// anything finer).
const CELLS: usize = 128;

/// Where nothing lies.
const EMPTY: f32 = f32::NEG_INFINITY;

/// The light's depth map of one world (reused, so a frame allocates
/// nothing once the grid has its size).
#[derive(Default)]
pub struct ShadowMap {
    /// The plane's axes, ⊥ each other and the light.
    s: Vec3,
    t: Vec3,
    /// (s, t) of cell (0, 0)'s corner, the cell's side (m), the grid's size.
    origin: Vec2,
    cell: f32,
    size: [usize; 2],
    /// Largest depth per cell, row by row.
    depth: Vec<f32>,
}

impl ShadowMap {
    /// Rebuilds the map for `world`: every body (rigid ones too), and the
    /// colliders that are not ground, cast shadows.
    pub fn build(&mut self, world: &World) {
        let light = LIGHT.normalize();
        self.s = light.any_orthonormal_vector();
        self.t = light.cross(self.s);
        let pos = world.particles.pos();
        let live = world
            .bodies()
            .iter()
            .flat_map(|b| b.first..b.first + b.count);
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        for i in live {
            let p = self.plane(pos[i]);
            lo = lo.min(p);
            hi = hi.max(p);
        }
        let rigid = (world.rigids().bodies.iter()).map(|r| (r.x, r.shape.bound()));
        for (centre, reach) in world.colliders.iter().filter_map(bounds).chain(rigid) {
            let p = self.plane(centre);
            lo = lo.min(p - reach);
            hi = hi.max(p + reach);
        }
        self.depth.clear();
        if !(lo.x <= hi.x && lo.y <= hi.y) {
            self.size = [0, 0];
            return;
        }
        let extent = (hi - lo).max_element().max(1e-3);
        self.cell = extent / (CELLS - 2) as f32;
        self.origin = lo - self.cell;
        let n = ((hi - self.origin) / self.cell).ceil().as_uvec2() + 1;
        self.size = [n.x as usize, n.y as usize];
        self.depth.resize(self.size[0] * self.size[1], EMPTY);
        self.cast_bodies(world);
        for c in &world.colliders {
            self.cast_collider(c);
        }
    }

    /// Forgets the map: everything is in full light (shadows off).
    pub fn clear(&mut self) {
        self.depth.clear();
    }

    /// How much of the key light reaches `p` on a surface of normal `n`:
    /// 1 in full light, 0 in full shadow.
    pub fn light_at(&self, p: Vec3, n: Vec3) -> f32 {
        if self.depth.is_empty() {
            return 1.0;
        }
        let light = LIGHT.normalize();
        let d = p.dot(light);
        // Slope-scaled: a surface at angle θ to the plane changes depth by
        // a cell × tan θ from one cell to the next (θ up to 76°: beyond,
        // the key light barely reaches the surface anyway).
        let cos = n.dot(light).abs().max(0.25);
        let bias = self.cell * (1.5 + 1.5 * (1.0 - cos * cos).sqrt() / cos) + 0.005;
        let g = (self.plane(p) - self.origin) / self.cell - 0.5;
        let (x0, y0) = (g.x.floor(), g.y.floor());
        let (fx, fy) = (g.x - x0, g.y - y0);
        // A box three cells wide sliding smoothly with p: cells −1 and 2
        // weighed by how far p is into the cell, 0 and 1 fully.
        let weights = |f: f32| [1.0 - f, 1.0, 1.0, f];
        let (wx, wy) = (weights(fx), weights(fy));
        let (mut dark, mut all) = (0.0, 0.0);
        for (j, wy) in wy.iter().enumerate() {
            for (i, wx) in wx.iter().enumerate() {
                let at = self.index(x0 as isize + i as isize - 1, y0 as isize + j as isize - 1);
                let w = wx * wy;
                all += w;
                if at.is_some_and(|k| self.depth[k] > d + bias) {
                    dark += w;
                }
            }
        }
        // Exactly 1 with nothing over p, exactly 0 with all sixteen.
        1.0 - dark / all
    }

    fn plane(&self, p: Vec3) -> Vec2 {
        vec2(p.dot(self.s), p.dot(self.t))
    }

    fn index(&self, x: isize, y: isize) -> Option<usize> {
        let [w, h] = self.size;
        (x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h)
            .then(|| y as usize * w + x as usize)
    }

    /// Cell centre (x, y) in the plane.
    fn centre(&self, x: usize, y: usize) -> Vec2 {
        self.origin + (vec2(x as f32, y as f32) + 0.5) * self.cell
    }

    /// Cells whose centres may lie within `reach` of the box `lo`–`hi` (plane coords).
    fn cells(
        &self,
        lo: Vec2,
        hi: Vec2,
        reach: f32,
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let a = ((lo - reach - self.origin) / self.cell)
            .floor()
            .max(Vec2::ZERO);
        let b = ((hi + reach - self.origin) / self.cell).ceil() + 1.0;
        let [w, h] = self.size;
        (
            a.x as usize..(b.x.max(0.0) as usize).min(w),
            a.y as usize..(b.y.max(0.0) as usize).min(h),
        )
    }

    fn cover(&mut self, x: usize, y: usize, d: f32) {
        let k = y * self.size[0] + x;
        self.depth[k] = self.depth[k].max(d);
    }

    fn cast_bodies(&mut self, world: &World) {
        let pos = world.particles.pos();
        let radius = world.particles.radius();
        for body in world.bodies() {
            for t in body.triangle_iter() {
                self.triangle(t.map(|i| pos[i as usize]));
            }
        }
        // Ropes, meshes and joins: their links as capsules as thick as the particles.
        for l in light::tube_links(world) {
            self.capsule(pos[l.a], pos[l.b], radius[l.a].max(radius[l.b]));
        }
        for r in &world.rigids().bodies {
            match light::caster(r) {
                light::Caster::Faces(t) => t.into_iter().for_each(|t| self.triangle(t)),
                light::Caster::Round(a, b, radius) => self.capsule(a, b, radius),
            }
        }
    }

    /// Covers the cells whose centres the triangle covers, and the cells
    /// of its corners (a triangle smaller than a cell still casts).
    fn triangle(&mut self, corners: [Vec3; 3]) {
        let light = LIGHT.normalize();
        let p = corners.map(|c| self.plane(c));
        let d = corners.map(|c| c.dot(light));
        for k in 0..3 {
            let g = ((p[k] - self.origin) / self.cell).floor();
            if let Some(i) = self.index(g.x as isize, g.y as isize) {
                self.depth[i] = self.depth[i].max(d[k]);
            }
        }
        let area = (p[1] - p[0]).perp_dot(p[2] - p[0]);
        if area.abs() < 1e-12 {
            return;
        }
        let (xs, ys) = self.cells(p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]), 0.0);
        for y in ys {
            for x in xs.clone() {
                let q = self.centre(x, y);
                let w0 = (p[1] - q).perp_dot(p[2] - q) / area;
                let w1 = (p[2] - q).perp_dot(p[0] - q) / area;
                let w2 = 1.0 - w0 - w1;
                if w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0 {
                    self.cover(x, y, w0 * d[0] + w1 * d[1] + w2 * d[2]);
                }
            }
        }
    }

    /// Covers the cells within `r` of the segment a–b, at the depth of the
    /// capsule's surface facing the light.
    fn capsule(&mut self, a: Vec3, b: Vec3, r: f32) {
        let light = LIGHT.normalize();
        let (pa, pb) = (self.plane(a), self.plane(b));
        let (da, db) = (a.dot(light), b.dot(light));
        let ab = pb - pa;
        let len2 = ab.length_squared();
        let (xs, ys) = self.cells(pa.min(pb), pa.max(pb), r);
        for y in ys {
            for x in xs.clone() {
                let q = self.centre(x, y);
                let f = if len2 > 0.0 {
                    ((q - pa).dot(ab) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let off = (q - (pa + ab * f)).length_squared();
                if off <= r * r {
                    self.cover(x, y, da + (db - da) * f + (r * r - off).sqrt());
                }
            }
        }
    }

    fn cast_collider(&mut self, c: &Collider) {
        let light = LIGHT.normalize();
        let Some((centre, reach)) = bounds(c) else {
            return;
        };
        let p = self.plane(centre);
        let (xs, ys) = self.cells(p, p, reach);
        for y in ys {
            for x in xs.clone() {
                let q = self.centre(x, y);
                // The line through the cell along the light: o + λ·L.
                let o = self.s * q.x + self.t * q.y;
                let top = match *c {
                    Collider::Sphere { center, radius, .. } => {
                        let along = (center - o).dot(light);
                        let off = (o + light * along).distance_squared(center);
                        (off <= radius * radius).then(|| along + (radius * radius - off).sqrt())
                    }
                    Collider::Box {
                        center,
                        half_extents,
                        ..
                    } => slab_exit(o - center, light, half_extents),
                    Collider::Ground { .. } => None,
                };
                if let Some(d) = top {
                    self.cover(x, y, d);
                }
            }
        }
    }
}

/// Centre and reach of a collider that casts shadows on bodies (not ground).
fn bounds(c: &Collider) -> Option<(Vec3, f32)> {
    match *c {
        Collider::Sphere { center, radius, .. } => Some((center, radius)),
        Collider::Box {
            center,
            half_extents,
            ..
        } => Some((center, half_extents.length())),
        Collider::Ground { .. } => None,
    }
}

/// Where the line o + λ·dir (o relative to the box's centre) leaves the
/// box of half extents `e` toward +λ, if it meets the box.
fn slab_exit(o: Vec3, dir: Vec3, e: Vec3) -> Option<f32> {
    crate::solver::rigid::ray::slab(o, dir, e).map(|(_, exit)| exit)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// The map of a scene with `bodies` and `colliders` (RON lists).
    fn map_of(bodies: &str, colliders: &str) -> ShadowMap {
        let text = format!("Scene(name: \"t\", bodies: [{bodies}], colliders: [{colliders}])");
        let world = crate::scene::parse(&text, Path::new("t.ron"))
            .unwrap()
            .build();
        let mut map = ShadowMap::default();
        map.build(&world);
        map
    }

    /// A flat 1 m sheet at y = 1 over x, z ∈ [0, 1].
    const SHEET: &str = "Cloth(origin: (0, 1, 0), size: (1, 1), resolution: (21, 21), \
                         orientation: Horizontal, pins: [(0, 0)])";

    #[test]
    fn a_sheet_shadows_what_lies_under_it_along_the_light() {
        let map = map_of(SHEET, "");
        let light = LIGHT.normalize();
        // Half a metre under the sheet's middle, back along the light.
        let under = vec3(0.5, 1.0, 0.5) - light * (0.5 / light.y);
        assert_eq!(map.light_at(under, Vec3::Y), 0.0);
        // Outside the sheet's shadow (which falls toward −x, −z).
        let beside = vec3(1.5, 0.5, 1.5);
        assert_eq!(map.light_at(beside, Vec3::Y), 1.0);
        // Above the sheet: in full light.
        assert_eq!(map.light_at(vec3(0.5, 1.5, 0.5), Vec3::Y), 1.0);
    }

    #[test]
    fn a_flat_sheet_does_not_shadow_itself() {
        let map = map_of(SHEET, "");
        for k in 0..=10 {
            let p = vec3(0.1 * k as f32, 1.0, 0.05 + 0.09 * k as f32);
            assert_eq!(map.light_at(p, Vec3::Y), 1.0, "at {p}");
        }
    }

    #[test]
    fn a_hanging_sheet_at_60_degrees_to_the_light_does_not_shadow_itself() {
        let wall = "Cloth(origin: (0, 1, 0), size: (1, 1), resolution: (21, 21), pins: [(0, 0)])";
        let map = map_of(wall, "");
        for k in 0..=10 {
            let p = vec3(0.1 * k as f32, 0.05 + 0.09 * k as f32, 0.0);
            assert_eq!(map.light_at(p, Vec3::Z), 1.0, "at {p}");
        }
    }

    #[test]
    fn a_sphere_shadows_the_rope_under_it_but_not_its_own_lit_side() {
        let rope = "Rope(start: (-1, 0.2, 0), end: (1, 0.2, 0), segments: 20, pins: [0])";
        let map = map_of(rope, "Sphere(center: (0, 1, 0), radius: 0.3)");
        let light = LIGHT.normalize();
        let under = vec3(0.0, 1.0, 0.0) - light * (0.8 / light.y);
        assert_eq!(map.light_at(under, Vec3::Y), 0.0);
        let top = vec3(0.0, 1.0, 0.0) + light * 0.3;
        assert_eq!(map.light_at(top, light), 1.0);
    }

    #[test]
    fn a_box_shadows_below_it_and_the_line_through_it_leaves_by_its_far_face() {
        assert_eq!(
            slab_exit(vec3(0.0, -5.0, 0.0), Vec3::Y, Vec3::ONE),
            Some(6.0)
        );
        assert_eq!(slab_exit(vec3(3.0, -5.0, 0.0), Vec3::Y, Vec3::ONE), None);
        let map = map_of(
            SHEET,
            "Box(center: (0.5, 3, 0.5), half_extents: (0.2, 0.2, 0.2))",
        );
        let light = LIGHT.normalize();
        let on_sheet = vec3(0.5, 3.0, 0.5) - light * (2.0 / light.y);
        assert_eq!(map.light_at(on_sheet, Vec3::Y), 0.0);
    }

    #[test]
    fn an_empty_world_is_in_full_light() {
        let map = map_of("", "Ground()");
        assert_eq!(map.light_at(Vec3::ZERO, Vec3::Y), 1.0);
    }
}
