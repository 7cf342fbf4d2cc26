//! The small-steps experiment in the window: `catenary sweep` run on the
//! current scene in the background (the window stays responsive and shows
//! progress), then max strain plotted against the split for both methods.
//! On the desktop the background is a thread; on the web, where there are
//! no threads, a few milliseconds of every drawn frame.

use egui_macroquad::egui::{self, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints, Points};

use super::Ask;
use super::Section;
use crate::app::App;
use crate::scene::Scene;
use crate::solver::Method;
use crate::sweep::{Sweep, SweepRow, splits};

/// A sweep in progress on a thread of its own.
#[cfg(not(target_arch = "wasm32"))]
struct Running {
    done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    total: usize,
    handle: std::thread::JoinHandle<Vec<SweepRow>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Running {
    fn start(scene: Scene, budget: u32, frames: u32) -> Self {
        use std::sync::atomic::Ordering;
        let sweep = Sweep::new(scene, budget, frames, false);
        let total = sweep.progress().1;
        let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = std::sync::Arc::clone(&done);
        let handle = std::thread::spawn(move || {
            let mut sweep = sweep;
            while !sweep.is_done() {
                sweep.advance(0.05);
                counter.store(sweep.progress().0, Ordering::Relaxed);
            }
            sweep.rows().to_vec()
        });
        Self {
            done,
            total,
            handle,
        }
    }

    /// (runs done, runs in all).
    fn progress(&mut self) -> (usize, usize) {
        (
            self.done.load(std::sync::atomic::Ordering::Relaxed),
            self.total,
        )
    }

    /// The rows once every run is done.
    fn finished(self) -> Result<Vec<SweepRow>, Self> {
        if self.handle.is_finished() {
            Ok(self.handle.join().unwrap_or_default())
        } else {
            Err(self)
        }
    }
}

/// A sweep in progress, advanced a slice of every drawn frame.
#[cfg(target_arch = "wasm32")]
struct Running(Box<Sweep>);

#[cfg(target_arch = "wasm32")]
impl Running {
    fn start(scene: Scene, budget: u32, frames: u32) -> Self {
        Self(Box::new(Sweep::new(scene, budget, frames, false)))
    }

    /// Advances by about 10 ms; (runs done, runs in all).
    fn progress(&mut self) -> (usize, usize) {
        self.0.advance(0.010);
        self.0.progress()
    }

    /// The rows once every run is done.
    fn finished(self) -> Result<Vec<SweepRow>, Self> {
        if self.0.is_done() {
            Ok(self.0.rows().to_vec())
        } else {
            Err(self)
        }
    }
}

/// The panel section: budget, frames, Run, progress and the plot.
pub struct SweepSection {
    /// Constraint passes per frame, split every way.
    budget: u32,
    /// Frames per run.
    frames: u32,
    running: Option<Running>,
    rows: Vec<SweepRow>,
}

impl Default for SweepSection {
    fn default() -> Self {
        Self {
            budget: 40,
            frames: 180,
            running: None,
            rows: Vec::new(),
        }
    }
}

impl SweepSection {
    /// Draws the section; `scene` makes what a Run sweeps (the current
    /// scene with the panel's edits), only when one starts.
    fn show(&mut self, ui: &mut egui::Ui, scene: impl FnOnce() -> Scene) {
        let Self {
            budget,
            frames,
            running,
            rows,
        } = self;
        egui::CollapsingHeader::new("small-steps experiment")
            .default_open(false)
            .show(ui, |ui| {
                ui.label(
                    RichText::new(
                        "Same cost per frame, split every way into substeps × iterations, \
                         in both methods: substeps win.",
                    )
                    .small(),
                );
                ui.horizontal(|ui| {
                    ui.add(
                        egui::DragValue::new(budget)
                            .range(1..=2000)
                            .prefix("budget "),
                    )
                    .on_hover_text("constraint passes per frame = substeps × iterations");
                    ui.add(
                        egui::DragValue::new(frames)
                            .range(10..=3000)
                            .prefix("frames "),
                    );
                    let splits = splits(*budget).len();
                    if running.is_none()
                        && ui
                            .add_enabled(splits > 0, egui::Button::new("Run"))
                            .on_hover_text(format!(
                                "{} runs of the scene without a window, on one thread",
                                2 * splits
                            ))
                            .clicked()
                    {
                        *running = Some(Running::start(scene(), *budget, *frames));
                    }
                });
                if let Some(mut r) = running.take() {
                    let (done, total) = r.progress();
                    ui.add(
                        egui::ProgressBar::new(done as f32 / total as f32)
                            .text(format!("{done} of {total} runs")),
                    );
                    ui.ctx().request_repaint();
                    match r.finished() {
                        Ok(finished) => *rows = finished,
                        Err(r) => *running = Some(r),
                    }
                }
                if !rows.is_empty() {
                    plot(ui, rows);
                }
            });
    }
}

impl Section for SweepSection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, _: &mut Vec<Ask>) {
        self.show(ui, || app.captured_scene(false));
    }
}

/// Max strain (%, log scale) against substeps (log scale), a line per method.
fn plot(ui: &mut egui::Ui, rows: &[SweepRow]) {
    let series = |m: Method| -> Vec<[f64; 2]> {
        rows.iter()
            .filter(|r| r.method == m)
            .map(|r| {
                [
                    (r.substeps as f64).log10(),
                    (100.0 * r.max_strain as f64).max(1e-6).log10(),
                ]
            })
            .collect()
    };
    Plot::new("sweep")
        .height(160.0)
        .legend(Legend::default())
        .x_axis_label("substeps (the rest iterations), log")
        .y_axis_label("max strain %, log")
        .x_axis_formatter(|m, _| format!("{:.0}", 10f64.powf(m.value)))
        .y_axis_formatter(|m, _| format!("{:.2e}", 10f64.powf(m.value)))
        .show(ui, |p| {
            for (m, name) in [(Method::Xpbd, "XPBD"), (Method::Pbd, "PBD")] {
                p.line(Line::new(name, PlotPoints::from(series(m))));
                p.points(Points::new("", PlotPoints::from(series(m))).radius(3.0));
            }
        });
}
