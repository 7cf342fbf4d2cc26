//! The small-steps experiment in the window: `catenary sweep` run on the
//! current scene in a background thread (the window stays responsive and
//! shows progress), then max strain plotted against the split for both
//! methods.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use egui_macroquad::egui::{self, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints, Points};

use crate::scene::Scene;
use crate::solver::Method;
use crate::sweep::{SweepRow, splits, sweep};

/// A sweep in progress.
struct Running {
    done: Arc<AtomicUsize>,
    total: usize,
    handle: JoinHandle<Vec<SweepRow>>,
}

/// The panel section: budget, frames, Run, progress and the plot.
pub struct SweepPanel {
    /// Constraint passes per frame, split every way.
    budget: u32,
    /// Frames per run.
    frames: u32,
    running: Option<Running>,
    rows: Vec<SweepRow>,
}

impl Default for SweepPanel {
    fn default() -> Self {
        Self {
            budget: 40,
            frames: 180,
            running: None,
            rows: Vec::new(),
        }
    }
}

impl SweepPanel {
    /// Draws the section; `scene` makes what a Run sweeps (the current
    /// scene with the panel's edits), only when one starts.
    pub fn ui(&mut self, ui: &mut egui::Ui, scene: impl FnOnce() -> Scene) {
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
                        *running = Some(start(scene(), *budget, *frames));
                    }
                });
                if let Some(r) = running.as_ref() {
                    let done = r.done.load(Ordering::Relaxed);
                    ui.add(
                        egui::ProgressBar::new(done as f32 / r.total as f32)
                            .text(format!("{done} of {} runs", r.total)),
                    );
                    ui.ctx().request_repaint();
                    if r.handle.is_finished()
                        && let Some(r) = running.take()
                    {
                        *rows = r.handle.join().unwrap_or_default();
                    }
                }
                if !rows.is_empty() {
                    plot(ui, rows);
                }
            });
    }
}

fn start(scene: Scene, budget: u32, frames: u32) -> Running {
    let done = Arc::new(AtomicUsize::new(0));
    let total = 2 * splits(budget).len();
    let counter = Arc::clone(&done);
    let handle = std::thread::spawn(move || {
        sweep(&scene, budget, frames, false, |k, _| {
            counter.store(k, Ordering::Relaxed)
        })
    });
    Running {
        done,
        total,
        handle,
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
