//! The commands that never open a window: `run` and `check` (and `bench`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// `println!` that returns the error instead of panicking, so a closed
/// pipe (`catenary run … | head`) ends the command quietly (see `main`).
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)
    };
}

/// `eprintln!` that never panics: when stderr is full or closed
/// (`2>/dev/full`, `2>&1 | head -1`) the message is lost, not the exit
/// code. Every message of the program goes through it.
pub fn tell(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

use crate::scene::{self, Scene};
use crate::solver::World;

/// Options of `catenary run` that override the scene's `solver` section.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `--method`.
    pub method: Option<crate::solver::Method>,
    /// `--substeps`.
    pub substeps: Option<u32>,
    /// `--iterations`.
    pub iterations: Option<u32>,
    /// `--dt` (s).
    pub dt: Option<f32>,
    /// `--damping` (kg/s).
    pub damping: Option<f32>,
}

impl Overrides {
    fn apply(&self, scene: &mut Scene) {
        let s = &mut scene.solver;
        s.method = self.method.unwrap_or(s.method);
        s.substeps = self.substeps.unwrap_or(s.substeps);
        s.iterations = self.iterations.unwrap_or(s.iterations);
        s.dt = self.dt.unwrap_or(s.dt);
        s.damping = self.damping.unwrap_or(s.damping);
    }
}

/// What `catenary run` writes where.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Frames to simulate.
    pub frames: u64,
    /// CSV output file.
    pub out: Option<PathBuf>,
    /// OBJ folder or `.glb` file to export to (see [`crate::export`]).
    pub export: Option<PathBuf>,
    /// Write every K-th frame (and the last); None = only the last.
    pub every: Option<u64>,
    /// Write the scene with its final `state` here (resumes bit-exactly).
    pub save: Option<PathBuf>,
}

/// Loads `path`, applies `overrides` and validates the result.
pub fn load_with(path: &Path, overrides: &Overrides) -> Result<Scene> {
    let mut scene = scene::load(path)?;
    overrides.apply(&mut scene);
    // The overrides are user input too.
    scene.validate(path)?;
    Ok(scene)
}

/// `catenary run`: simulates without a window and prints a summary.
pub fn run(path: &Path, overrides: &Overrides, opts: &RunOptions) -> Result<()> {
    let scene = load_with(path, overrides)?;
    let mut world = scene.build();
    // Results are bit-identical for any thread count.
    world.use_suitable_threads();
    let mut csv = match &opts.out {
        Some(out) => Some(CsvWriter::create(out)?),
        None => None,
    };
    let mut export = Export::new(opts, &scene)?;
    let wanted = |frame: u64| match opts.every {
        Some(k) => frame.is_multiple_of(k) || frame == opts.frames,
        None => frame == opts.frames,
    };
    let started = Instant::now();
    let mut stepping = Duration::ZERO;
    for frame in 0..=opts.frames {
        if frame > 0 {
            let t = Instant::now();
            world.step();
            stepping += t.elapsed();
        }
        if let Some(csv) = csv.as_mut().filter(|_| wanted(frame)) {
            csv.frame(frame, &world)?;
        }
        export.frame(&world, frame, wanted(frame))?;
    }
    if let Some(csv) = csv {
        csv.finish()?;
    }
    export.finish()?;
    if let Some(target) = &opts.save {
        let mut saved = scene.clone();
        saved.capture(&world);
        saved.capture_state(&world);
        scene::save(target, &saved)?;
    }
    let wall = started.elapsed();
    let s = &world.settings;
    say!("scene: {} ({})", path.display(), scene.name)?;
    say!(
        "{}  method: {:?}  substeps: {}  iterations: {}  dt: {} s",
        sizes(&world),
        s.method,
        s.substeps,
        s.iterations,
        s.dt
    )?;
    let projections = world.projections_per_frame() as f64 * opts.frames as f64;
    let step_s = stepping.as_secs_f64();
    say!(
        "frames: {}  wall time: {:.3} s  ms/frame: {:.4}  projections/s: {:.3e}",
        opts.frames,
        wall.as_secs_f64(),
        1e3 * step_s / opts.frames.max(1) as f64,
        if step_s > 0.0 {
            projections / step_s
        } else {
            0.0
        }
    )?;
    say!("{}", final_line(&world))?;
    let pieces = world.pieces();
    for (b, (body, def)) in world.bodies().iter().zip(&scene.bodies).enumerate() {
        let kind = def.facts().kind;
        let volume = world
            .enclosed_volume(b)
            .map(|v| format!(", volume {v:.5} m³"))
            .unwrap_or_default();
        if let Some(r) = world.rigids().of_body(b) {
            let r = &world.rigids().bodies[r];
            say!(
                "body {b} ({kind}): mass {:.3} kg, speed {:.4} m/s, spin {:.4} rad/s",
                r.mass,
                r.v.length(),
                r.omega.length()
            )?;
            continue;
        }
        match world.rods().twist_turns(b) {
            Some(turns) => say!(
                "body {b} ({kind}): particles {}, twist {turns:.4} turns",
                body.count
            )?,
            None => say!(
                "body {b} ({kind}): particles {}, pieces {}{volume}",
                body.count,
                pieces[b]
            )?,
        }
    }
    Ok(())
}

/// `run --export` and its progress bar (the browser build has neither).
struct Export {
    #[cfg(not(target_arch = "wasm32"))]
    to: Option<(crate::export::Exporter, indicatif::ProgressBar)>,
}

impl Export {
    fn new(opts: &RunOptions, scene: &Scene) -> Result<Self> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let kinds = scene.bodies.iter().map(|def| def.facts().kind).collect();
            let to = match &opts.export {
                Some(path) => {
                    // A bar on a terminal only.
                    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                        indicatif::ProgressBar::new(opts.frames)
                    } else {
                        indicatif::ProgressBar::hidden()
                    };
                    Some((crate::export::Exporter::new(path, kinds)?, bar))
                }
                None => None,
            };
            Ok(Self { to })
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = scene;
            anyhow::ensure!(opts.export.is_none(), "--export: not in the browser build");
            Ok(Self {})
        }
    }

    /// After frame `frame`: exports it when `wanted`, moves the bar.
    fn frame(&mut self, world: &World, frame: u64, wanted: bool) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((export, bar)) = self.to.as_mut() {
            if wanted {
                export.frame(world, world.time() as f32)?;
            }
            bar.set_position(frame);
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (world, frame, wanted);
        Ok(())
    }

    /// Writes what is left and says what was written.
    fn finish(self) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        if let Some((export, bar)) = self.to {
            bar.finish_and_clear();
            let written = export.finish()?;
            tell(format_args!("exported {written}"));
        }
        Ok(())
    }
}

/// The "final: …" line of `run` and `replay`: strain, tension, energies.
pub fn final_line(world: &World) -> String {
    format!(
        "final: max strain {:.4}%  max tension {:.4} N  kinetic {:.6} J  potential {:.6} J",
        100.0 * world.max_strain(),
        world.max_tension(),
        world.kinetic_energy(),
        world.potential_energy()
    )
}

/// "particles: …  constraints: …  colours: …  threads: …" of a summary line.
fn sizes(world: &World) -> String {
    format!(
        "particles: {}  constraints: {}  colours: {}  threads: {}",
        world.live_particles(),
        world.constraints.len(),
        world.constraints.colour_count(),
        world.threads()
    )
}

/// CSV `frame,body,particle,x,y,z` (DESIGN §4), written to a temp file
/// beside the target and renamed onto it at the end, so a full disk or an
/// interrupted run never leaves a partial CSV under the asked-for name.
struct CsvWriter {
    path: PathBuf,
    out: std::io::BufWriter<scene::TempFile>,
}

impl CsvWriter {
    fn create(path: &Path) -> Result<Self> {
        let file = scene::TempFile::create(path)?;
        let mut out = std::io::BufWriter::new(file);
        writeln!(out, "frame,body,particle,x,y,z")
            .with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(Self {
            path: path.to_path_buf(),
            out,
        })
    }

    fn frame(&mut self, frame: u64, world: &World) -> Result<()> {
        let rigid = world.rigids();
        for (b, body) in world.bodies().iter().enumerate() {
            // A rigid body's pose is four points: its centre and one metre
            // along each of its axes.
            let points: Vec<glam::Vec3> = match rigid.of_body(b) {
                Some(r) => {
                    let r = &rigid.bodies[r];
                    let axes = [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z];
                    std::iter::once(r.x)
                        .chain(axes.map(|a| r.point(a)))
                        .collect()
                }
                None => world.particles.pos()[body.range()].to_vec(),
            };
            for (k, p) in points.iter().enumerate() {
                writeln!(self.out, "{frame},{b},{k},{},{},{}", p.x, p.y, p.z)
                    .with_context(|| format!("{}: cannot write", self.path.display()))?;
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<()> {
        let file = self
            .out
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("{}: cannot write", self.path.display()))?;
        Ok(file.commit()?)
    }
}

/// `catenary check`: validates every file, prints every error; false if any failed.
pub fn check(paths: &[PathBuf]) -> Result<bool> {
    let mut ok = true;
    for path in paths {
        // A recording (`NAME.rec.ron`, which Record writes beside the
        // scenes) is checked as one: its scene and its events.
        if path.to_string_lossy().ends_with(".rec.ron") {
            match crate::record::load(path) {
                Ok(rec) => say!(
                    "ok: {} (a recording of {}: {} frames, {} events)",
                    path.display(),
                    rec.scene.name,
                    rec.frames,
                    rec.events.len()
                )?,
                Err(errors) => {
                    ok = false;
                    for e in errors.0 {
                        tell(format_args!("error: {e}"));
                    }
                }
            }
            continue;
        }
        match scene::load(path) {
            Ok(scene) => {
                let world = scene.build();
                say!(
                    "ok: {} ({}: {} particles, {} constraints)",
                    path.display(),
                    scene.name,
                    world.live_particles(),
                    world.constraints.len() + world.quads.len()
                )?;
            }
            Err(errors) => {
                ok = false;
                for e in errors.0 {
                    tell(format_args!("error: {e}"));
                }
            }
        }
    }
    Ok(ok)
}

/// What `catenary bench` simulates.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Particles per cloth edge (N×N).
    pub size: u32,
    /// A scene to time instead of the cloth.
    pub scene: Option<PathBuf>,
    /// Frames to time.
    pub frames: u32,
    /// Substeps per frame (None: 20 for the cloth, the scene's own).
    pub substeps: Option<u32>,
    /// Solver threads (1 = sequential).
    pub threads: usize,
}

/// `catenary bench`: times the benchmark cloth, or `--scene`, and prints
/// projections/s last.
pub fn bench(opts: &BenchOptions) -> Result<()> {
    let (mut world, what) = match &opts.scene {
        Some(path) => {
            let scene = scene::load(path)?;
            let mut world = scene.build();
            if let Some(n) = opts.substeps {
                world.settings.substeps = n;
            }
            (world, format!("{} ({})", scene.name, path.display()))
        }
        None => {
            let substeps = opts.substeps.unwrap_or(20);
            let world = scene::bench_cloth(opts.size, substeps)?.build();
            (world, format!("cloth {n}×{n}", n = opts.size))
        }
    };
    world.set_threads(opts.threads);
    world.step(); // warm-up: caches, worker start
    // Frames by how many threads ran them: with more than one, each frame
    // runs on the team size measured fastest lately (`World::set_threads`).
    let mut teams = vec![0u32; world.threads() + 1];
    let mut times: Vec<f64> = (0..opts.frames)
        .map(|_| {
            let t = Instant::now();
            world.step();
            let took = t.elapsed().as_secs_f64();
            teams[world.team_size()] += 1;
            took
        })
        .collect();
    // The mean is what a run of frames costs (a window's frame rate); the
    // median is the typical frame, steadier on a busy machine.
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let per_frame = world.projections_per_frame() as f64;
    say!(
        "{what}: {}  substeps: {}  iterations: {}  frames: {}",
        sizes(&world),
        world.settings.substeps,
        world.settings.iterations,
        opts.frames,
    )?;
    say!(
        "ms/frame (median): {:.3}  mean: {:.3}  min: {:.3}  max: {:.3}",
        median * 1e3,
        mean * 1e3,
        times[0] * 1e3,
        times[times.len() - 1] * 1e3
    )?;
    let ran: Vec<String> = (1..teams.len())
        .rev()
        .filter(|&n| teams[n] > 0)
        .map(|n| format!("{n} on {} frames", teams[n]))
        .collect();
    say!("threads per frame: {}", ran.join(", "))?;
    say!("projections/s: {:.4e}", per_frame / median)?;
    Ok(())
}
