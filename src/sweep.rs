//! The small-steps experiment (DESIGN §4 `catenary sweep`): a fixed budget
//! of N constraint passes per frame, split every way into substeps ×
//! iterations = N, in both methods. With the same cost per frame, more
//! substeps beat more iterations: the error of one Gauss–Seidel pass shrinks
//! with h², and PBD's stiffness is an artefact of the split.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use crate::scene::Scene;
use crate::solver::{Method, limits};

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

/// Runs `scene` for `frames` frames once per split of `budget` and method
/// (XPBD first), calling `progress(done, total)` after each run. `parallel`:
/// solve on the cores the world's size makes worth it (the command line);
/// otherwise on one thread (in the background of the window, whose own
/// solver threads need the cores).
pub fn sweep(
    scene: &Scene,
    budget: u32,
    frames: u32,
    parallel: bool,
    mut progress: impl FnMut(usize, usize),
) -> Vec<SweepRow> {
    let runs: Vec<(Method, u32, u32)> = [Method::Xpbd, Method::Pbd]
        .into_iter()
        .flat_map(|m| splits(budget).into_iter().map(move |(s, i)| (m, s, i)))
        .collect();
    let mut rows = Vec::with_capacity(runs.len());
    for (k, &(method, substeps, iterations)) in runs.iter().enumerate() {
        let mut world = scene.build();
        if parallel {
            world.use_suitable_threads();
        }
        world.settings.method = method;
        world.settings.substeps = substeps;
        world.settings.iterations = iterations;
        let started = Instant::now();
        for _ in 0..frames {
            world.step();
        }
        let ms_per_frame = started.elapsed().as_secs_f64() * 1e3 / frames.max(1) as f64;
        rows.push(SweepRow {
            method,
            substeps,
            iterations,
            max_strain: world.max_strain(),
            max_tension: world.max_tension(),
            energy: world.kinetic_energy() + world.potential_energy(),
            ms_per_frame,
        });
        progress(k + 1, runs.len());
    }
    rows
}

/// `catenary sweep`: the rows as CSV to `out` (temp file + rename) or stdout.
pub fn run(path: &Path, budget: u32, frames: u32, out: Option<&Path>) -> Result<()> {
    let scene = crate::scene::load(path)?;
    anyhow::ensure!(
        !splits(budget).is_empty(),
        "--budget {budget}: no split into substeps × iterations within 1 ..= 1000 each"
    );
    let rows = sweep(&scene, budget, frames, true, |done, total| {
        eprint!("\rsweep: {done}/{total} runs");
    });
    eprintln!();
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
