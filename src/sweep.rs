//! The small-steps experiment (DESIGN §4 `catenary sweep`): a fixed budget
//! of N constraint passes per frame, split every way into substeps ×
//! iterations = N, in both methods. With the same cost per frame, more
//! substeps beat more iterations: the error of one Gauss–Seidel pass shrinks
//! with h², and PBD's stiffness is an artefact of the split.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use crate::clock::Stopwatch;
use crate::scene::Scene;
use crate::solver::{Method, World, limits};

/// One run of the sweep: a method and a split, and what it ended with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepRow {
    /// XPBD or PBD.
    pub method: Method,
    /// Substeps per frame.
    pub substeps: u32,
    /// Gauss–Seidel passes per substep.
    pub iterations: u32,
    /// Largest strain (|x_a − x_b| − L)/L after the last frame.
    pub max_strain: f32,
    /// Largest tension |λ|/h² of the last substep (N).
    pub max_tension: f32,
    /// Kinetic + gravitational energy after the last frame (J).
    pub energy: f64,
    /// Wall time per frame of stepping (ms).
    pub ms_per_frame: f64,
}

/// The CSV header of [`SweepRow`]s.
pub const HEADER: &str = "method,substeps,iterations,max_strain,max_tension,energy,ms_per_frame";

impl SweepRow {
    /// The row as CSV, in [`HEADER`]'s order.
    pub fn csv(&self) -> String {
        let method = match self.method {
            Method::Xpbd => "xpbd",
            Method::Pbd => "pbd",
        };
        format!(
            "{method},{},{},{},{},{},{}",
            self.substeps,
            self.iterations,
            self.max_strain,
            self.max_tension,
            self.energy,
            self.ms_per_frame
        )
    }
}

/// Every split substeps × iterations = `budget` that the accepted ranges
/// allow, fewest substeps first.
pub fn splits(budget: u32) -> Vec<(u32, u32)> {
    (1..=budget)
        .filter(|s| budget.is_multiple_of(*s))
        .map(|s| (s, budget / s))
        .filter(|(s, i)| limits::SUBSTEPS.contains(s) && limits::ITERATIONS.contains(i))
        .collect()
}

/// A sweep in progress: every run of `scene` for `frames` frames, once per
/// split of the budget and method (XPBD first). It advances in slices of
/// wall time, so a window can run it between drawn frames where it has no
/// threads (the web) and show progress.
pub struct Sweep {
    scene: Scene,
    frames: u32,
    parallel: bool,
    runs: Vec<(Method, u32, u32)>,
    /// The run in progress: its world, frames stepped, seconds spent stepping.
    current: Option<(World, u32, f64)>,
    rows: Vec<SweepRow>,
}

impl Sweep {
    /// Prepares the runs. `parallel`: solve on the cores the world's size
    /// makes worth it (the command line); otherwise on one thread (in the
    /// background of the window, whose own solver threads need the cores).
    pub fn new(scene: Scene, budget: u32, frames: u32, parallel: bool) -> Self {
        let runs = [Method::Xpbd, Method::Pbd]
            .into_iter()
            .flat_map(|m| splits(budget).into_iter().map(move |(s, i)| (m, s, i)))
            .collect();
        Self {
            scene,
            frames: frames.max(1),
            parallel,
            runs,
            current: None,
            rows: Vec::new(),
        }
    }

    /// (runs done, runs in all).
    pub fn progress(&self) -> (usize, usize) {
        (self.rows.len(), self.runs.len())
    }

    /// True when every run is done.
    pub fn is_done(&self) -> bool {
        self.rows.len() == self.runs.len()
    }

    /// The finished runs, in order.
    pub fn rows(&self) -> &[SweepRow] {
        &self.rows
    }

    /// Steps frames until about `seconds` of wall time are spent (at least
    /// one frame) or every run is done.
    pub fn advance(&mut self, seconds: f64) {
        let slice = Stopwatch::start();
        while !self.is_done() {
            let (method, substeps, iterations) = self.runs[self.rows.len()];
            let (world, stepped, spent) = self.current.get_or_insert_with(|| {
                let mut world = self.scene.build();
                if self.parallel {
                    world.use_suitable_threads();
                }
                world.settings.method = method;
                world.settings.substeps = substeps;
                world.settings.iterations = iterations;
                (world, 0, 0.0)
            });
            let t = Stopwatch::start();
            world.step();
            *spent += t.seconds();
            *stepped += 1;
            if *stepped == self.frames {
                self.rows.push(SweepRow {
                    method,
                    substeps,
                    iterations,
                    max_strain: world.max_strain(),
                    max_tension: world.max_tension(),
                    energy: world.kinetic_energy() + world.potential_energy(),
                    ms_per_frame: *spent * 1e3 / self.frames as f64,
                });
                self.current = None;
            }
            if slice.seconds() >= seconds {
                return;
            }
        }
    }
}

/// Runs a whole [`Sweep`], calling `progress(done, total)` after each run.
pub fn sweep(
    scene: &Scene,
    budget: u32,
    frames: u32,
    parallel: bool,
    mut progress: impl FnMut(usize, usize),
) -> Vec<SweepRow> {
    let mut sweep = Sweep::new(scene.clone(), budget, frames, parallel);
    let mut reported = 0;
    while !sweep.is_done() {
        sweep.advance(0.0);
        let (done, total) = sweep.progress();
        if done > reported {
            reported = done;
            progress(done, total);
        }
    }
    sweep.rows
}

/// `catenary sweep`: the rows as CSV to `out` (temp file + rename) or stdout.
pub fn run(path: &Path, budget: u32, frames: u32, out: Option<&Path>) -> Result<()> {
    let scene = crate::scene::load(path)?;
    anyhow::ensure!(
        !splits(budget).is_empty(),
        "--budget {budget}: no split into substeps × iterations within 1 ..= 1000 each"
    );
    // Progress on a terminal only: a log or a pipe gets no `\r` lines.
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let rows = sweep(&scene, budget, frames, true, |done, total| {
        if terminal {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\rsweep: {done}/{total} runs");
            let _ = err.flush();
        }
    });
    if terminal {
        crate::headless::tell(format_args!(""));
    }
    let mut text = String::from(HEADER);
    text.push('\n');
    for r in &rows {
        text.push_str(&r.csv());
        text.push('\n');
    }
    match out {
        Some(target) => {
            let mut file = crate::scene::TempFile::create(target)?;
            file.write_all(text.as_bytes())?;
            file.commit()?;
        }
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_splits_into_its_divisors_within_the_ranges() {
        assert_eq!(
            splits(12),
            [(1, 12), (2, 6), (3, 4), (4, 3), (6, 2), (12, 1)]
        );
        assert_eq!(splits(2000).first(), Some(&(2, 1000)));
        assert_eq!(splits(2000).last(), Some(&(1000, 2)));
    }
}
