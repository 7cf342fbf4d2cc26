//! One frame as a Wavefront OBJ: per piece an object with its vertices,
//! UVs and normals (one of each per vertex, so the three indices of a
//! corner are the same number) and its faces or line segments.

use std::fmt::Write;

use super::Piece;

/// The OBJ text of `pieces` at simulated time `time` (s). Coordinates are
/// written in full (the shortest text that reads back as the same f32).
pub(super) fn write(pieces: &[Piece], time: f32) -> String {
    let mut out = format!("# catenary, t = {time} s\n");
    let mut base = 1; // OBJ indices start at 1 and run on across objects
    for piece in pieces {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "o {}", piece.name.replace(' ', "_"));
        for p in &piece.positions {
            let _ = writeln!(out, "v {} {} {}", p[0], p[1], p[2]);
        }
        for t in &piece.uvs {
            let _ = writeln!(out, "vt {} {}", t[0], t[1]);
        }
        for n in &piece.normals {
            let _ = writeln!(out, "vn {} {} {}", n[0], n[1], n[2]);
        }
        for t in &piece.triangles {
            let [a, b, c] = t.map(|i| i + base);
            let _ = writeln!(out, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}");
        }
        for l in &piece.lines {
            let _ = writeln!(out, "l {} {}", l[0] + base, l[1] + base);
        }
        base += piece.positions.len() as u32;
    }
    out
}
