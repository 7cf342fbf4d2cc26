//! The last 10 s of max strain and energy, plotted with egui_plot.

use std::collections::VecDeque;

use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};

/// Seconds of simulated time kept.
const WINDOW: f64 = 10.0;

/// One sample: time (s), then per lane max strain (%) and energy (J).
type Sample = (f64, [f64; 2], [f64; 2]);

/// The samples of the last [`WINDOW`] seconds, for one or two lanes.
#[derive(Default)]
pub struct History {
    samples: VecDeque<Sample>,
    /// The names of the lanes; one name = one lane.
    lanes: Vec<String>,
}

impl History {
    /// Adds a sample of one lane, or two in compare mode (named after
    /// their settings); a time going backwards (reset, reload) or a change
    /// in the number of lanes starts afresh.
    pub fn push(&mut self, t: f64, lanes: &[(String, f64, f64)]) {
        if self.samples.back().is_some_and(|s| s.0 > t) || lanes.len() != self.lanes.len() {
            self.samples.clear();
        }
        self.lanes = lanes.iter().map(|l| l.0.clone()).collect();
        let get = |k: usize, f: fn(&(String, f64, f64)) -> f64| lanes.get(k).map_or(0.0, f);
        self.samples.push_back((
            t,
            [get(0, |l| l.1), get(1, |l| l.1)],
            [get(0, |l| l.2), get(1, |l| l.2)],
        ));
        while self.samples.front().is_some_and(|s| s.0 < t - WINDOW) {
            self.samples.pop_front();
        }
    }

    /// Two plots side by side: max strain (%) and energy (J) against time
    /// (s), a line per lane.
    pub fn ui(&self, ui: &mut egui::Ui) {
        let series = |lane: usize, strain: bool| -> PlotPoints {
            self.samples
                .iter()
                .map(|s| [s.0, if strain { s.1[lane] } else { s.2[lane] }])
                .collect()
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
        let two = self.lanes.len() > 1;
        let name = |lane: usize, what: &str| {
            if two {
                format!("{} {what}", self.lanes[lane])
            } else {
                what.to_string()
            }
        };
        let colour = |lane: usize| super::lanes::LANE_COLOURS[lane];
        ui.columns(2, |cols| {
            plot("strain").show(&mut cols[0], |p| {
                for lane in 0..self.lanes.len() {
                    let line = Line::new(name(lane, "max strain %"), series(lane, true));
                    p.line(if two { line.color(colour(lane)) } else { line });
                }
            });
            plot("energy").show(&mut cols[1], |p| {
                for lane in 0..self.lanes.len() {
                    let line = Line::new(
                        name(lane, "energy J (kinetic + gravity)"),
                        series(lane, false),
                    );
                    p.line(if two { line.color(colour(lane)) } else { line });
                }
            });
        });
    }
}
