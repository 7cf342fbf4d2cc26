//! The last 10 s of max strain and energy, plotted with egui_plot.

use std::collections::VecDeque;

use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};

/// Seconds of simulated time kept.
const WINDOW: f64 = 10.0;

/// Samples of (time s, max strain %, energy J).
#[derive(Default)]
pub struct History {
    samples: VecDeque<(f64, f64, f64)>,
}

impl History {
    /// Adds a sample; a time going backwards (reset, reload) starts afresh.
    pub fn push(&mut self, t: f64, strain_percent: f64, energy: f64) {
        if self.samples.back().is_some_and(|s| s.0 > t) {
            self.samples.clear();
        }
        self.samples.push_back((t, strain_percent, energy));
        while self.samples.front().is_some_and(|s| s.0 < t - WINDOW) {
            self.samples.pop_front();
        }
    }

    /// Two plots side by side: max strain (%) and energy (J) against time (s).
    pub fn ui(&self, ui: &mut egui::Ui) {
        let series = |f: fn(&(f64, f64, f64)) -> f64| -> PlotPoints {
            self.samples.iter().map(|s| [s.0, f(s)]).collect()
        };
        let plot = |id: &str| {
            Plot::new(id.to_owned())
                .legend(Legend::default())
                .allow_scroll(false)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_boxed_zoom(false)
                .x_axis_label("time s")
        };
        ui.columns(2, |cols| {
            plot("strain").show(&mut cols[0], |p| {
                p.line(Line::new("max strain %", series(|s| s.1)))
            });
            plot("energy").show(&mut cols[1], |p| {
                p.line(Line::new("energy J (kinetic + gravity)", series(|s| s.2)))
            });
        });
    }
}
