//! A scene file stepped for two seconds, every particle's position written
//! as CSV `frame,particle,x,y,z` every tenth frame:
//! `cargo run --no-default-features --example positions_csv -- scenes/pendulum.ron out.csv`.
//! The file is written through a temp file and renamed, as the app does.

use std::io::Write;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let (Some(scene), Some(out)) = (args.next(), args.next()) else {
        return Err("usage: positions_csv SCENE.ron OUT.csv".into());
    };
    let particles = write(&scene, &out)?;
    println!("{}: {particles} particles, 13 frames", out.display());
    Ok(())
}

/// Steps `scene` for two seconds and writes every tenth frame's positions
/// to `out`; returns how many particles it has.
pub fn write(scene: &Path, out: &Path) -> Result<usize, Box<dyn std::error::Error>> {
    let mut world = catenary::scene::load(scene)?.build();
    let mut file = catenary::scene::TempFile::create(out)?;
    writeln!(file, "frame,particle,x,y,z")?;
    for frame in 0..=120 {
        if frame % 10 == 0 {
            for (i, p) in world.particles.pos().iter().enumerate() {
                writeln!(file, "{frame},{i},{},{},{}", p.x, p.y, p.z)?;
            }
        }
        world.step();
    }
    file.commit()?;
    Ok(world.particles.len())
}
