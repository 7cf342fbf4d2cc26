//! The Greenhill lesson's plot: the twist of a rod clamped at both ends
//! (turns) over the last seconds, against Greenhill's critical twist as a
//! dashed line. Below the line the twist follows the driven end; past it
//! the rod coils out of its line and twist turns into writhe.

use std::collections::VecDeque;

use egui_macroquad::egui;
use egui_plot::{Corner, HLine, Legend, Line, LineStyle, PlotPoints};

use super::plots::{WINDOW, fixed_plot};
use crate::solver::World;

/// The rod body the plot follows and its critical twist (turns): the first
/// body with one (see [`World::greenhill_turns`]).
pub fn greenhill_rod(world: &World) -> Option<(usize, f64)> {
    (0..world.bodies().len()).find_map(|b| world.greenhill_turns(b).map(|c| (b, c as f64)))
}

/// The twist of the followed rod: (time s, turns) over the last
/// [`WINDOW`] seconds.
#[derive(Default)]
pub struct TwistTrace {
    samples: VecDeque<(f64, f64)>,
    /// The followed rod's critical twist (turns) at the last sample.
    critical: Option<f64>,
}

impl TwistTrace {
    /// Records the followed rod's twist at the world's time; a time going
    /// backwards (reset, reload) starts afresh, and a world without such a
    /// rod records nothing.
    pub fn push(&mut self, world: &World) {
        let t = world.time();
        if self.samples.back().is_some_and(|s| s.0 > t) {
            self.samples.clear();
        }
        let followed = greenhill_rod(world);
        self.critical = followed.map(|(_, c)| c);
        let Some((b, _)) = followed else {
            self.samples.clear();
            return;
        };
        let turns = world.rods().twist_turns(b).unwrap_or(0.0);
        self.samples.push_back((t, turns));
        while self.samples.front().is_some_and(|s| s.0 < t - WINDOW) {
            self.samples.pop_front();
        }
    }

    /// Greenhill's critical twist (turns) of the rod followed, if the world
    /// of the last sample has one.
    pub fn critical(&self) -> Option<f64> {
        self.critical
    }

    /// The twist (turns) against time, and Greenhill's `critical` twist.
    pub fn ui(&self, ui: &mut egui::Ui, critical: f64, detail: bool) {
        let points: PlotPoints = self.samples.iter().map(|&(t, turns)| [t, turns]).collect();
        // The legend top left: the rising twist crosses the line top right.
        fixed_plot("twist", detail)
            .legend(Legend::default().position(Corner::LeftTop))
            .x_axis_label("time s")
            .include_y(0.0)
            .include_y(1.2 * critical)
            .show(ui, |p| {
                p.line(Line::new("rod twist turns", points));
                p.hline(
                    HLine::new("Greenhill's critical twist", critical)
                        .style(LineStyle::dashed_loose())
                        .color(egui::Color32::from_rgb(80, 230, 255)),
                );
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cable() -> World {
        crate::scene::parse(
            "Scene(bodies: [Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 20,
                               clamped: [0, -1])],
                   drivers: [(body: 0, particle: -1, motion: Twist(turns: 1.0, seconds: 1.0))])",
            std::path::Path::new("<test>"),
        )
        .unwrap()
        .build()
    }

    #[test]
    fn the_trace_follows_the_clamped_rods_twist_and_starts_afresh_on_a_reset() {
        let mut w = cable();
        let mut trace = TwistTrace::default();
        for _ in 0..30 {
            w.step();
            trace.push(&w);
        }
        let last = *trace.samples.back().unwrap();
        let expected = 8.985 * 1e9 / (4.0 * std::f64::consts::PI * 4e8);
        assert!(
            (trace.critical().unwrap() - expected).abs() < 1e-3,
            "the defaults' E and G"
        );
        assert_eq!(trace.samples.len(), 30);
        assert!((last.0 - 0.5).abs() < 1e-6, "{last:?}");
        assert!(
            (last.1 - 0.5).abs() < 0.01,
            "half a turn after half a second: {last:?}"
        );
        let mut fresh = cable();
        fresh.step();
        trace.push(&fresh);
        assert_eq!(trace.samples.len(), 1, "a reset starts afresh");
    }
}
