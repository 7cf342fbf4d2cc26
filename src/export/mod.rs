//! Baked results for other tools (`catenary run SCENE --export PATH`):
//! what the window shows, frame by frame, as an OBJ sequence
//! (`frame_0001.obj`, … in a folder: Blender's and Houdini's sequence
//! importers read it) or as one glTF 2.0 binary (`.glb`) with the
//! animation.
//!
//! Each body is one piece per frame: a cloth, balloon or soft box as its
//! surface's triangles with per-vertex normals (area-weighted) and UVs (a
//! cloth's from its grid, a closed surface's spherical about its centre
//! in the first frame exported), a rope or mesh as line segments along
//! its links. A piece's vertices are the body's particles in their CSV
//! order (`run --out`), so vertex k of body b is CSV particle k of body b.
//! A rigid body, which has no particles, is its shape's surface at its
//! pose that frame (a box's faces, a ball's or capsule's rings: see
//! `solver::rigid::surface`), with the faces' normals and UVs.

mod glb;
mod obj;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use glam::Vec3;

use crate::scene::TempFile;
use crate::solver::rigid::surface::Surface;
use crate::solver::{LinkKind, Shape, World};

/// One body at one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    /// "body 0 (Cloth)" and so on.
    pub name: String,
    /// Per vertex, the body's particles in order (m).
    pub positions: Vec<[f32; 3]>,
    /// Per vertex, unit length (a vertex on no triangle: +y).
    pub normals: Vec<[f32; 3]>,
    /// Per vertex, in [0, 1]² (a vertex on no triangle: 0, 0).
    pub uvs: Vec<[f32; 2]>,
    /// Triangles, as vertex indices, wound as drawn.
    pub triangles: Vec<[u32; 3]>,
    /// Line segments, as vertex indices: a rope's or a mesh's links.
    pub lines: Vec<[u32; 2]>,
}

/// Where the frames go.
enum Target {
    /// A folder of `frame_NNNN.obj`, numbered from 1 in the order written.
    Obj(PathBuf),
    /// One `.glb`, written when the run ends: (simulated time, pieces) per frame.
    Glb(PathBuf, Vec<(f32, Vec<Piece>)>),
}

/// Writes the frames of one run (see the module doc).
pub struct Exporter {
    target: Target,
    /// Frames taken so far.
    frames: usize,
    /// Per body: the closed surface's UVs, fixed at the first frame.
    sphere_uvs: Vec<Option<Vec<[f32; 2]>>>,
    /// Per body: its kind's name in the scene format ("Cloth", …).
    kinds: Vec<&'static str>,
    /// Per rigid body: its surface in its own frame, made once.
    surfaces: Vec<Surface>,
}

impl Exporter {
    /// An export to `path`: a `.glb` file, or else a folder of OBJ files
    /// (made if missing); `kinds` names each body's kind.
    pub fn new(path: &Path, kinds: Vec<&'static str>) -> Result<Self> {
        let glb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
        let target = if glb {
            Target::Glb(path.to_owned(), Vec::new())
        } else {
            std::fs::create_dir_all(path)
                .with_context(|| format!("{}: cannot make the export folder", path.display()))?;
            Target::Obj(path.to_owned())
        };
        Ok(Self {
            target,
            frames: 0,
            sphere_uvs: Vec::new(),
            kinds,
            surfaces: Vec::new(),
        })
    }

    /// Takes the world as it is now, at simulated time `time` (s).
    pub fn frame(&mut self, world: &World, time: f32) -> Result<()> {
        let pieces = self.pieces(world);
        self.frames += 1;
        match &mut self.target {
            Target::Obj(dir) => {
                let path = dir.join(format!("frame_{:04}.obj", self.frames));
                write_file(&path, obj::write(&pieces, time).as_bytes())
            }
            Target::Glb(_, frames) => {
                frames.push((time, pieces));
                Ok(())
            }
        }
    }

    /// Ends the export: writes the `.glb`; returns what was written.
    pub fn finish(self) -> Result<String> {
        match self.target {
            Target::Obj(dir) => Ok(format!("{} OBJ frames in {}", self.frames, dir.display())),
            Target::Glb(path, frames) => {
                write_file(&path, &glb::write(&frames)?)?;
                Ok(format!("{} frames in {}", frames.len(), path.display()))
            }
        }
    }

    /// Every body of `world` as a piece.
    fn pieces(&mut self, world: &World) -> Vec<Piece> {
        let links: Vec<_> = world.constraints.iter().collect();
        let pos = world.particles.pos();
        let mut pieces = Vec::new();
        for (b, body) in world.bodies().iter().enumerate() {
            let name = format!(
                "body {b} ({})",
                self.kinds.get(b).copied().unwrap_or("Body")
            );
            if let Some(r) = world.rigids().of_body(b) {
                pieces.push(self.rigid_piece(world, r, name));
                continue;
            }
            let first = body.first as u32;
            let local = |i: usize| i as u32 - first;
            let positions: Vec<[f32; 3]> = body.range().map(|i| pos[i].to_array()).collect();
            let triangles: Vec<[u32; 3]> = (body.triangle_iter())
                .map(|t| t.map(|i| i - first))
                .collect();
            let lines: Vec<[u32; 2]> = match body.shape {
                Shape::Rope | Shape::Mesh => (links.iter())
                    .filter(|l| l.tag.body as usize == b && l.tag.kind == LinkKind::Stretch)
                    .map(|l| [local(l.a), local(l.b)])
                    .collect(),
                _ => Vec::new(),
            };
            let uvs = match &body.shape {
                Shape::Cloth { columns, rows } => {
                    let grid = |k: usize| body.faces.as_ref().map_or(k, |f| f.origin[k] as usize);
                    let span = |n: usize| (n.max(2) - 1) as f32;
                    (0..body.count)
                        .map(|k| {
                            let g = grid(k);
                            [
                                (g % columns) as f32 / span(*columns),
                                (g / columns) as f32 / span(*rows),
                            ]
                        })
                        .collect()
                }
                Shape::Closed { .. } => {
                    if self.sphere_uvs.len() <= b {
                        self.sphere_uvs.resize(b + 1, None);
                    }
                    (self.sphere_uvs[b].get_or_insert_with(|| sphere_uvs(&positions))).clone()
                }
                _ => vec![[0.0, 0.0]; body.count],
            };
            pieces.push(Piece {
                name,
                normals: normals(&positions, &triangles),
                positions,
                uvs,
                triangles,
                lines,
            });
        }
        pieces
    }
}

impl Exporter {
    /// Rigid body `r` as its surface at its pose now.
    fn rigid_piece(&mut self, world: &World, r: usize, name: String) -> Piece {
        let rigids = world.rigids();
        while self.surfaces.len() < rigids.bodies.len() {
            let shape = rigids.bodies[self.surfaces.len()].shape;
            self.surfaces.push(shape.surface());
        }
        let (body, s) = (&rigids.bodies[r], &self.surfaces[r]);
        Piece {
            name,
            positions: s.points.iter().map(|&p| body.point(p).to_array()).collect(),
            normals: s.normals.iter().map(|&n| (body.q * n).to_array()).collect(),
            uvs: s.uvs.clone(),
            triangles: s.triangles.clone(),
            lines: Vec::new(),
        }
    }
}

/// Area-weighted vertex normals of `triangles`; +y where none touches.
fn normals(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let p = |i: u32| Vec3::from_array(positions[i as usize]);
    let mut sum = vec![Vec3::ZERO; positions.len()];
    for t in triangles {
        let n = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
        for &i in t {
            sum[i as usize] += n;
        }
    }
    (sum.into_iter())
        .map(|n| n.try_normalize().unwrap_or(Vec3::Y).to_array())
        .collect()
}

/// UVs of a closed surface: longitude and latitude about its centre.
fn sphere_uvs(positions: &[[f32; 3]]) -> Vec<[f32; 2]> {
    let centre = positions.iter().map(|&p| Vec3::from_array(p)).sum::<Vec3>()
        / positions.len().max(1) as f32;
    (positions.iter())
        .map(|&p| {
            let d = (Vec3::from_array(p) - centre)
                .try_normalize()
                .unwrap_or(Vec3::Y);
            let u = 0.5 + d.z.atan2(d.x) / std::f32::consts::TAU;
            let v = 0.5 - d.y.clamp(-1.0, 1.0).asin() / std::f32::consts::PI;
            [u, v]
        })
        .collect()
}

/// Writes `bytes` to `path` through a temp file renamed onto it, so a
/// failure leaves no partial file; errors name the path.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut file = TempFile::create(path)?;
    file.write_all(bytes)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    file.commit()?;
    Ok(())
}
