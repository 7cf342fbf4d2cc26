//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::Path;

use catenary::scene;
use catenary::solver::World;

/// Builds the world of a scene given as RON text; panics with the scene errors.
pub fn world(ron: &str) -> World {
    match scene::parse(ron, Path::new("<test>")) {
        Ok(s) => s.build(),
        Err(e) => panic!("test scene is invalid:\n{e}"),
    }
}

/// The file names of every shipped scene (`scenes/*.ron`), sorted.
pub fn shipped_scenes() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut names: Vec<String> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".ron"))
        .collect();
    names.sort();
    names
}

/// Builds the world of a file in scenes/.
pub fn scene_world(name: &str) -> World {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name);
    scene::load(&path).unwrap_or_else(|e| panic!("{e}")).build()
}

/// Every position and velocity finite and within `bound` metres of the origin.
pub fn assert_sane(world: &World, bound: f32) {
    let p = &world.particles;
    for i in 0..p.len() {
        assert!(
            p.pos()[i].is_finite() && p.vel()[i].is_finite(),
            "particle {i} is not finite: x = {}, v = {}",
            p.pos()[i],
            p.vel()[i]
        );
        assert!(
            p.pos()[i].length() < bound,
            "particle {i} escaped to {}",
            p.pos()[i]
        );
    }
}

/// Panics unless every rigid body's pose and velocities are finite.
pub fn assert_rigid_finite(world: &World, frame: usize) {
    for (i, b) in world.rigids().bodies.iter().enumerate() {
        let finite = b.x.is_finite() && b.v.is_finite() && b.omega.is_finite();
        assert!(finite && b.q.is_finite(), "frame {frame}, body {i}: {b:?}");
    }
}

/// Times of upward zero crossings of `signal` sampled every `dt`, linearly interpolated.
pub fn upward_crossings(signal: &[f32], dt: f64) -> Vec<f64> {
    signal
        .windows(2)
        .enumerate()
        .filter(|(_, w)| w[0] < 0.0 && w[1] >= 0.0)
        .map(|(i, w)| (i as f64 + (w[0] / (w[0] - w[1])) as f64) * dt)
        .collect()
}

/// Mean period from upward crossings.
pub fn mean_period(crossings: &[f64]) -> f64 {
    assert!(crossings.len() >= 3, "too few oscillations: {crossings:?}");
    (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64
}

/// A scratch folder, removed when the test passes (kept to look at when it fails).
pub struct TempDir(std::path::PathBuf);

impl TempDir {
    /// A fresh folder under the system temp dir, unique to this process and `name`.
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("catenary-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Steps `frames` frames of an undriven world and asserts that its
/// mechanical energy (kinetic + gravitational + elastic) never rises by
/// more than `tolerance` joules from one frame to the next; returns the
/// world. The first step only makes λ, and so the elastic part, known.
pub fn assert_energy_never_rises(mut world: World, frames: usize, tolerance: f64) -> World {
    let energy = |w: &World| w.kinetic_energy() + w.potential_energy() + w.elastic_energy();
    world.step();
    let mut last = energy(&world);
    for frame in 1..frames {
        world.step();
        let e = energy(&world);
        assert!(
            e <= last + tolerance,
            "energy rose at frame {frame}: {last} J → {e} J"
        );
        last = e;
    }
    assert_sane(&world, 1e4);
    world
}

/// FNV-1a over the bit patterns of every position: equal hashes, equal bits.
pub fn position_hash(w: &World) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for p in w.particles.pos() {
        for x in p.to_array() {
            for byte in x.to_bits().to_le_bytes() {
                hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    hash
}

/// Runs the `catenary` binary with `args` and returns what it printed;
/// panics with its standard error unless it succeeds. (Tests that run
/// the binary need the `cli` feature, which builds it.)
#[cfg(feature = "cli")]
pub fn catenary_ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let bin = env!("CARGO_BIN_EXE_catenary");
    let out = std::process::Command::new(bin).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Shipped scene `name` stepped `frames`, each `(frame, edit)` checked,
/// applied and given to the recorder before its frame, as the window's
/// `App::edit` does: the world and the recording.
#[cfg(feature = "cli")]
pub fn recorded_edits(
    name: &str,
    edits: &[(u64, catenary::edit::Edit)],
    frames: u64,
) -> (World, catenary::record::Recording) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name);
    let scene = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut w = scene.build();
    let mut rec = catenary::record::Recorder::new(scene.clone(), &w);
    for frame in 0..frames {
        for (_, e) in edits.iter().filter(|(f, _)| *f == frame) {
            assert_eq!(e.problem(&w), None, "{e:?}");
            e.apply(&mut w);
            rec.edit(*e);
        }
        rec.before_step(&w);
        w.step();
    }
    (w, rec.recording().clone())
}

/// A 0.3 m, 0.1 kg balloon at `pressure`: free, without gravity, 1.2 m
/// up (`ground` false), or dropped from 0.5 m onto rough ground.
pub fn small_balloon(pressure: f32, ground: bool) -> World {
    let (gravity, y, colliders) = if ground {
        ("", 0.5, "colliders: [Ground(friction: 0.6)]")
    } else {
        (", gravity: (0.0, 0.0, 0.0)", 1.2, "")
    };
    world(&format!(
        "Scene(solver: (substeps: 20{gravity}),
          bodies: [Balloon(center: (0.0, {y}, 0.0), sphere_radius: 0.3, subdivisions: 3,
                           mass: 0.1, stretch_compliance: 0.002, bend_compliance: 0.2,
                           pressure: {pressure}, radius: 0.02)], {colliders})"
    ))
}

/// The centre of body `b`'s particles (m).
pub fn centre(w: &World, b: usize) -> glam::Vec3 {
    let r = w.bodies()[b].range();
    let n = r.len() as f32;
    w.particles.pos()[r].iter().copied().sum::<glam::Vec3>() / n
}
