//! Geometry of the closed bodies: an icosphere and a block of tetrahedra,
//! each with its outward-wound surface.

use std::collections::HashMap;

use glam::Vec3;

/// A unit icosphere: the icosahedron with each triangle split into four
/// `level` times, vertices pushed onto the sphere (level 3: 642 vertices,
/// 1,280 triangles); triangles wound outward.
pub fn icosphere(level: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5f32.sqrt()) / 2.0;
    let mut v: Vec<Vec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut f: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..level {
        let mut middle: HashMap<(u32, u32), u32> = HashMap::new();
        let mut mid = |a: u32, b: u32, v: &mut Vec<Vec3>| {
            *middle.entry((a.min(b), a.max(b))).or_insert_with(|| {
                v.push(((v[a as usize] + v[b as usize]) * 0.5).normalize());
                v.len() as u32 - 1
            })
        };
        let mut next = Vec::with_capacity(f.len() * 4);
        for &[a, b, c] in &f {
            let (ab, bc, ca) = (mid(a, b, &mut v), mid(b, c, &mut v), mid(c, a, &mut v));
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        f = next;
    }
    (v, f)
}

/// The unique edges of `triangles`, each once, in first-seen order.
pub fn edges_of_triangles(triangles: &[[u32; 3]]) -> Vec<[u32; 2]> {
    let mut seen = std::collections::HashSet::new();
    let mut edges = Vec::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b) = (t[k], t[(k + 1) % 3]);
            if seen.insert((a.min(b), a.max(b))) {
                edges.push([a, b]);
            }
        }
    }
    edges
}

/// Every edge shared by two triangles as a dihedral hinge: the two
/// opposite vertices (wings), then the edge's two ends.
pub fn hinges(triangles: &[[u32; 3]]) -> Vec<[u32; 4]> {
    let mut opposite: HashMap<(u32, u32), u32> = HashMap::new();
    let mut out = Vec::new();
    for t in triangles {
        for k in 0..3 {
            let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
            match opposite.remove(&(a.min(b), a.max(b))) {
                Some(wing) => out.push([wing, c, a, b]),
                None => {
                    opposite.insert((a.min(b), a.max(b)), c);
                }
            }
        }
    }
    out
}

/// A block of `n = (nx, ny, nz)` cells of size `cell`, its corner at
/// `origin`: vertices (i, j, k) at index i + (nx+1)·(j + (ny+1)·k); six
/// tetrahedra per cell along the cell's main diagonal (the Kuhn split:
/// neighbouring cells' faces match), each positively oriented; and the
/// outward-wound boundary triangles.
pub fn tetrahedral_block(
    origin: Vec3,
    cell: Vec3,
    (nx, ny, nz): (usize, usize, usize),
) -> (Vec<Vec3>, Vec<[u32; 4]>, Vec<[u32; 3]>) {
    let id = |i: usize, j: usize, k: usize| (i + (nx + 1) * (j + (ny + 1) * k)) as u32;
    let mut pos = Vec::with_capacity((nx + 1) * (ny + 1) * (nz + 1));
    for k in 0..=nz {
        for j in 0..=ny {
            for i in 0..=nx {
                pos.push(origin + cell * Vec3::new(i as f32, j as f32, k as f32));
            }
        }
    }
    const PATHS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut tets = Vec::with_capacity(6 * nx * ny * nz);
    for k in 0..nz {
        for j in 0..ny {
            for i in 0..nx {
                for path in PATHS {
                    let mut at = [i, j, k];
                    let mut t = [id(i, j, k); 4];
                    for (s, &axis) in path.iter().enumerate() {
                        at[axis] += 1;
                        t[s + 1] = id(at[0], at[1], at[2]);
                    }
                    let x = t.map(|v| pos[v as usize]);
                    if (x[1] - x[0]).cross(x[2] - x[0]).dot(x[3] - x[0]) < 0.0 {
                        t.swap(2, 3);
                    }
                    tets.push(t);
                }
            }
        }
    }
    // A face used by one tetrahedron is on the boundary; wind it away
    // from the tetrahedron's fourth corner.
    let mut faces: HashMap<[u32; 3], (usize, [u32; 3], u32)> = HashMap::new();
    for t in &tets {
        for skip in 0..4 {
            let mut f = [0; 3];
            let mut n = 0;
            for (s, &v) in t.iter().enumerate() {
                if s != skip {
                    f[n] = v;
                    n += 1;
                }
            }
            let mut key = f;
            key.sort_unstable();
            faces.entry(key).or_insert((0, f, t[skip])).0 += 1;
        }
    }
    let mut surface: Vec<[u32; 3]> = faces
        .into_values()
        .filter(|&(uses, _, _)| uses == 1)
        .map(|(_, [a, b, c], opp)| {
            let x = |v: u32| pos[v as usize];
            if (x(b) - x(a)).cross(x(c) - x(a)).dot(x(opp) - x(a)) > 0.0 {
                [a, c, b]
            } else {
                [a, b, c]
            }
        })
        .collect();
    surface.sort_unstable();
    (pos, tets, surface)
}

/// The unique edges of `tets`, in first-seen order.
pub fn edges_of_tetrahedra(tets: &[[u32; 4]]) -> Vec<[u32; 2]> {
    let mut seen = std::collections::HashSet::new();
    let mut edges = Vec::new();
    for t in tets {
        for a in 0..4 {
            for b in a + 1..4 {
                let (p, q) = (t[a], t[b]);
                if seen.insert((p.min(q), p.max(q))) {
                    edges.push([p, q]);
                }
            }
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::enclosed_volume;

    #[test]
    fn icosphere_levels_have_the_euler_counts_and_enclose_nearly_the_ball() {
        for (level, verts) in [(1, 42), (2, 162), (3, 642)] {
            let (v, f) = icosphere(level);
            assert_eq!(v.len(), verts);
            assert_eq!(f.len(), 2 * verts - 4, "closed: F = 2V − 4");
            assert_eq!(edges_of_triangles(&f).len(), 3 * f.len() / 2);
            assert_eq!(
                hinges(&f).len(),
                3 * f.len() / 2,
                "every edge between two triangles"
            );
            let vol = enclosed_volume(&v, &f);
            let ball = 4.0 / 3.0 * std::f64::consts::PI;
            // Inscribed polyhedra: below the ball, closer with each level.
            assert!(vol < ball && vol > 0.85 * ball, "level {level}: {vol}");
        }
    }

    #[test]
    fn a_tetrahedral_block_fills_its_box_and_its_skin_encloses_the_same_volume() {
        let (pos, tets, skin) = tetrahedral_block(
            Vec3::new(1.0, 2.0, 3.0),
            Vec3::new(0.1, 0.2, 0.3),
            (3, 2, 4),
        );
        assert_eq!(pos.len(), 4 * 3 * 5);
        assert_eq!(tets.len(), 6 * 3 * 2 * 4);
        let tet_sum: f32 = tets
            .iter()
            .map(|&t| crate::solver::tetrahedron_volume(&pos, t.map(|i| i as usize)))
            .sum();
        let block = 0.3 * 0.4 * 1.2;
        assert!(
            tets.iter()
                .all(|&t| crate::solver::tetrahedron_volume(&pos, t.map(|i| i as usize)) > 0.0)
        );
        assert!((tet_sum - block).abs() < 1e-5, "{tet_sum}");
        // Two triangles per boundary cell face.
        assert_eq!(skin.len(), 2 * 2 * (3 * 2 + 2 * 4 + 3 * 4));
        assert!((enclosed_volume(&pos, &skin) as f32 - block).abs() < 1e-5);
    }
}
