//! A rigid shape's surface in its own frame: a box's six faces, a ball's
//! or a capsule's rings of latitude — what the window draws and what
//! `run --export` writes.

use glam::Vec3;

use super::RigidShape;

/// Points around each ring of a ball or capsule (its seam repeated).
pub const AROUND: usize = 24;
/// Rings from pole to pole of a ball (a capsule has one more: its two
/// equators bound the cylinder).
pub const RINGS: usize = 16;

/// A shape's surface as a triangle mesh in its own frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Surface {
    /// Vertices (m).
    pub points: Vec<Vec3>,
    /// Unit normals, outward.
    pub normals: Vec<Vec3>,
    /// Texture coordinates in [0, 1]²: each box face its own square, a
    /// round shape's longitude and latitude.
    pub uvs: Vec<[f32; 2]>,
    /// Counter-clockwise seen from outside.
    pub triangles: Vec<[u32; 3]>,
}

/// The rings of a ball of `radius` (`half` = 0) or of a capsule whose half
/// balls sit `half` above and below the centre along y: `put(point,
/// normal, uv)` for RINGS + 2 rows of AROUND + 1 points, north to south
/// (the top half ball's rings, then the bottom one's; the band between
/// the two equators is the capsule's cylinder). Returns the row count.
pub fn rings(radius: f32, half: f32, mut put: impl FnMut(Vec3, Vec3, [f32; 2])) -> usize {
    let mut rows = 0;
    for ring in 0..=RINGS + 1 {
        let (k, shift) = if ring <= RINGS / 2 {
            (ring, half)
        } else {
            (ring - 1, -half)
        };
        let polar = std::f32::consts::PI * k as f32 / RINGS as f32;
        for j in 0..=AROUND {
            let a = std::f32::consts::TAU * j as f32 / AROUND as f32;
            let n = Vec3::new(polar.sin() * a.cos(), polar.cos(), polar.sin() * a.sin());
            let uv = [j as f32 / AROUND as f32, ring as f32 / (RINGS + 1) as f32];
            put(n * radius + Vec3::Y * shift, n, uv);
        }
        rows += 1;
    }
    rows
}

/// The two triangles of each cell of a grid of `rows` × `columns` cells
/// whose points are numbered row by row from `base` (columns + 1 a row),
/// wound as [`rings`] needs to face outward.
pub fn grid(base: usize, rows: usize, columns: usize, mut triangle: impl FnMut([usize; 3])) {
    let at = |r: usize, c: usize| base + r * (columns + 1) + c;
    for r in 0..rows {
        for c in 0..columns {
            triangle([at(r, c), at(r, c + 1), at(r + 1, c + 1)]);
            triangle([at(r, c), at(r + 1, c + 1), at(r + 1, c)]);
        }
    }
}

impl RigidShape {
    /// The shape's surface (see [`Surface`]).
    pub fn surface(self) -> Surface {
        let mut s = Surface::default();
        match self {
            RigidShape::Box(e) => {
                for axis in 0..3 {
                    for sign in [1.0f32, -1.0] {
                        let n = Vec3::AXES[axis] * sign;
                        // u × v = n, so the corners go round counter-clockwise.
                        let u = Vec3::AXES[(axis + 1) % 3] * sign;
                        let v = Vec3::AXES[(axis + 2) % 3];
                        let base = s.points.len() as u32;
                        for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                            s.points.push((n + u * a + v * b) * e);
                            s.normals.push(n);
                            s.uvs.push([0.5 + 0.5 * a, 0.5 + 0.5 * b]);
                        }
                        s.triangles.push([base, base + 1, base + 2]);
                        s.triangles.push([base, base + 2, base + 3]);
                    }
                }
            }
            RigidShape::Sphere(radius) => s.round(radius, 0.0),
            RigidShape::Capsule(radius, half) => s.round(radius, half),
        }
        s
    }
}

impl Surface {
    fn round(&mut self, radius: f32, half: f32) {
        let rows = rings(radius, half, |p, n, uv| {
            self.points.push(p);
            self.normals.push(n);
            self.uvs.push(uv);
        });
        grid(0, rows - 1, AROUND, |t| {
            self.triangles.push(t.map(|i| i as u32));
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle faces away from the centre, and every point lies on
    /// the shape's boundary (a box's faces, a ball's sphere, a capsule's
    /// distance from its core segment).
    #[test]
    fn every_surface_lies_on_its_shape_and_faces_outward() {
        let shapes = [
            RigidShape::Box(Vec3::new(0.3, 0.1, 0.05)),
            RigidShape::Sphere(0.4),
            RigidShape::Capsule(0.1, 0.3),
        ];
        for shape in shapes {
            let s = shape.surface();
            assert_eq!(s.points.len(), s.normals.len());
            assert_eq!(s.points.len(), s.uvs.len());
            for (p, n) in s.points.iter().zip(&s.normals) {
                let off = match shape {
                    RigidShape::Box(e) => (p.abs() - e).max_element(),
                    RigidShape::Sphere(r) => p.length() - r,
                    RigidShape::Capsule(r, h) => (*p - Vec3::Y * p.y.clamp(-h, h)).length() - r,
                };
                assert!(off.abs() < 1e-5, "{shape:?}: {p} off its surface by {off}");
                assert!((n.length() - 1.0).abs() < 1e-5 && n.dot(*p) > 0.0);
            }
            let mut area = 0.0;
            for t in &s.triangles {
                let [a, b, c] = t.map(|i| s.points[i as usize]);
                let face = (b - a).cross(c - a);
                area += face.length() / 2.0;
                // Degenerate triangles at a pole have no direction.
                if face.length() > 1e-7 {
                    assert!(
                        face.dot(a + b + c) > 0.0,
                        "{shape:?}: triangle {t:?} faces in"
                    );
                }
            }
            let exact = match shape {
                RigidShape::Box(e) => 8.0 * (e.x * e.y + e.y * e.z + e.z * e.x),
                RigidShape::Sphere(r) => 4.0 * std::f32::consts::PI * r * r,
                RigidShape::Capsule(r, h) => {
                    4.0 * std::f32::consts::PI * r * r + std::f32::consts::TAU * r * 2.0 * h
                }
            };
            // 24 × 16 facets fall short of a sphere's area by under 2 %.
            assert!(
                (area / exact - 1.0).abs() < 0.02,
                "{shape:?}: area {area} against {exact}"
            );
        }
    }
}
