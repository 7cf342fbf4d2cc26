//! The library's examples run as the README shows them. `cargo test`
//! builds every example anyway; their code runs here, in the test
//! profile, so CI does not build the library a second time (in the dev
//! profile) to run them.

mod common;

use common::TempDir;
use std::path::Path;

#[path = "../examples/embed.rs"]
mod embed;
#[path = "../examples/positions_csv.rs"]
#[allow(dead_code)] // its `main` reads the command line
mod positions_csv;

#[test]
fn the_embed_example_builds_and_steps_its_worlds() {
    embed::main().expect("the example's scenes are valid");
}

#[test]
fn the_positions_csv_example_writes_13_frames_of_every_particle() {
    let dir = TempDir::new("example");
    let out = dir.join("positions.csv");
    let particles = positions_csv::write(Path::new("scenes/pendulum.ron"), &out).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("frame,particle,x,y,z"));
    let rows: Vec<Vec<f32>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert!(particles > 0);
    assert_eq!(rows.len(), 13 * particles, "13 frames (0, 10, …, 120)");
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 5);
        assert_eq!(row[0], (k / particles * 10) as f32, "frame of row {k}");
        assert_eq!(row[1], (k % particles) as f32, "particle of row {k}");
        assert!(row[2..].iter().all(|v| v.is_finite()));
    }
}
