//! The last 10 s of max strain and energy, plotted with egui_plot.

use std::collections::VecDeque;

use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoint, PlotPoints, Text, VLine};

use crate::app::App;
use crate::solver::{EnergyBooks, Method, Settings};

/// Seconds of simulated time kept.
pub(super) const WINDOW: f64 = 10.0;

/// Points drawn per line at most (ten a second): a plot is a few hundred
/// pixels wide, and under software rendering every point of a line costs
/// (the default scene drew 28–33 fps with every frame's sample plotted,
/// 38–39 with 150 points a line).
const PLOTTED: usize = 100;

/// Groups of at most `PLOTTED` consecutive runs of `n` samples, each
/// given as the range of sample indices it covers.
fn buckets(n: usize) -> impl Iterator<Item = std::ops::Range<usize>> {
    let stride = n.div_ceil(PLOTTED).max(1);
    (0..n).step_by(stride).map(move |i| i..(i + stride).min(n))
}

/// A plot that neither scrolls, drags nor zooms (it follows the
/// simulation), with a legend. `detail`: grid lines and the dark
/// background (see [`Display::plot_detail`](crate::app::render::Display)); the
/// background is 95,000 pixels a frame for the two plots, about 1.5 ms
/// of CPU under software rendering.
pub(super) fn fixed_plot(id: &str, detail: bool) -> Plot<'static> {
    Plot::new(id.to_owned())
        .show_grid(detail)
        .show_background(detail)
        .legend(Legend::default())
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_boxed_zoom(false)
}

/// The smallest span of max strain a plot shows (percentage points): a
/// settled rope's 0.0004 % of noise, autoscaled, filled the plot with
/// wild oscillation.
const STRAIN_SPAN: f64 = 0.1;

/// The smallest span of energy a plot shows: 2 % of the largest value, at
/// least 10 mJ.
fn energy_span(largest: f64) -> f64 {
    (0.02 * largest.abs()).max(0.01)
}

/// `lo ..= hi` widened about its middle to at least `span`; None before
/// there are samples (then `lo` is ∞, and egui_plot refuses infinite
/// bounds).
fn at_least(lo: f64, hi: f64, span: f64) -> Option<(f64, f64)> {
    if !(lo.is_finite() && hi.is_finite()) {
        return None;
    }
    if hi - lo >= span {
        return Some((lo, hi));
    }
    let mid = 0.5 * (lo + hi);
    Some((mid - 0.5 * span, mid + 0.5 * span))
}

/// `plot` autoscaled to include `bounds`, if any.
fn spanning(plot: Plot<'static>, bounds: Option<(f64, f64)>) -> Plot<'static> {
    match bounds {
        Some((lo, hi)) => plot.include_y(lo).include_y(hi),
        None => plot,
    }
}

/// One sample: time (s), then per lane max strain (%), mechanical energy
/// and mechanical energy plus what drag and damping took out (J).
type Sample = (f64, [f64; 2], [f64; 2], [f64; 2]);

/// What one lane contributes to a sample.
pub struct LaneSample {
    /// Legend name, e.g. "XPBD 20×1".
    pub name: String,
    /// Largest strain (%).
    pub strain_percent: f64,
    /// Kinetic + gravitational + elastic (J).
    pub mechanical: f64,
    /// Mechanical plus what drag and damping took out (J): flat for an
    /// exact integrator without contacts.
    pub total: f64,
}

/// The samples of the last [`WINDOW`] seconds, for one or two lanes.
#[derive(Default)]
pub struct History {
    samples: VecDeque<Sample>,
    /// The names of the lanes; one name = one lane.
    lanes: Vec<String>,
    /// The first lane's energy books (time s, books), for the stacked plot.
    books: VecDeque<(f64, EnergyBooks)>,
    /// Setting changes: (time s, settings before, settings after), drawn
    /// as labelled vertical lines.
    marks: VecDeque<(f64, Settings, Settings)>,
}

/// What changed between two settings, e.g. "substeps 20 -> 4, PBD -> XPBD";
/// None when nothing a plot would show did.
pub fn change(old: &Settings, new: &Settings) -> Option<String> {
    let name = |m: Method| match m {
        Method::Xpbd => "XPBD",
        Method::Pbd => "PBD",
    };
    let mut parts = Vec::new();
    if old.method != new.method {
        parts.push(format!("{} -> {}", name(old.method), name(new.method)));
    }
    let mut num = |label: &str, a: f64, b: f64| {
        if a != b {
            parts.push(format!("{label} {} -> {}", trim(a), trim(b)));
        }
    };
    num("substeps", old.substeps as f64, new.substeps as f64);
    num("iterations", old.iterations as f64, new.iterations as f64);
    num("dt", old.dt as f64, new.dt as f64);
    num("β", old.damping as f64, new.damping as f64);
    num("drag", old.air_drag as f64, new.air_drag as f64);
    num("k", old.pbd_stiffness as f64, new.pbd_stiffness as f64);
    num("ρ", old.air_density as f64, new.air_density as f64);
    num("g", old.gravity.y as f64, new.gravity.y as f64);
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl History {
    /// Adds a sample of one lane, or two in compare mode (named after
    /// their settings); a time going backwards (reset, reload) or a change
    /// in the number of lanes starts afresh.
    pub fn push(&mut self, t: f64, lanes: &[LaneSample], books: EnergyBooks) {
        if self.samples.back().is_some_and(|s| s.0 > t) || lanes.len() != self.lanes.len() {
            self.samples.clear();
            self.marks.clear();
            self.books.clear();
        }
        self.books.push_back((t, books));
        while self.books.front().is_some_and(|b| b.0 < t - WINDOW) {
            self.books.pop_front();
        }
        self.lanes = lanes.iter().map(|l| l.name.clone()).collect();
        let get = |k: usize, f: fn(&LaneSample) -> f64| lanes.get(k).map_or(0.0, f);
        self.samples.push_back((
            t,
            [get(0, |l| l.strain_percent), get(1, |l| l.strain_percent)],
            [get(0, |l| l.mechanical), get(1, |l| l.mechanical)],
            [get(0, |l| l.total), get(1, |l| l.total)],
        ));
        while self.samples.front().is_some_and(|s| s.0 < t - WINDOW) {
            self.samples.pop_front();
        }
        while self.marks.front().is_some_and(|m| m.0 < t - WINDOW) {
            self.marks.pop_front();
        }
    }

    /// Marks a change of settings at time `t` (s). Changes within 0.3 s
    /// of the last mark (a slider being dragged) merge into it.
    pub fn mark(&mut self, t: f64, before: Settings, after: Settings) {
        match self.marks.back_mut() {
            Some(last) if t - last.0 < 0.3 => {
                last.0 = t;
                last.2 = after;
            }
            _ => self.marks.push_back((t, before, after)),
        }
    }

    /// Two plots side by side: max strain (%) and energy (J) against time
    /// (s), a line per lane.
    /// `detail`: grid lines and filled layers (see [`Display::plot_detail`](crate::app::render::Display)).
    pub fn ui(&self, ui: &mut egui::Ui, detail: bool) {
        let series = |lane: usize, f: fn(&Sample) -> [f64; 2]| -> PlotPoints {
            self.thinned(lane, f).into()
        };
        let plot = |id: &str| fixed_plot(id, detail).x_axis_label("time s");
        let two = self.lanes.len() > 1;
        let name = |lane: usize, what: &str| {
            if two {
                format!("{} {what}", self.lanes[lane])
            } else {
                what.to_string()
            }
        };
        let colour = |lane: usize| crate::app::shell::lanes::LANE_COLOURS[lane];
        // A labelled vertical line at every setting change (unnamed, so
        // the legend keeps to the lanes).
        let marks = |p: &mut egui_plot::PlotUi, bottom: f64| {
            for (t, before, after) in &self.marks {
                let Some(label) = change(before, after) else {
                    continue; // changed and changed back
                };
                p.vline(VLine::new("", *t).color(egui::Color32::from_gray(150)));
                p.text(
                    Text::new("", PlotPoint::new(*t, bottom), label)
                        .anchor(egui::Align2::LEFT_BOTTOM)
                        .color(egui::Color32::from_gray(210)),
                );
            }
        };
        // Labels at the bottom of each plot, clear of the legend.
        let lanes = self.lanes.len();
        let bottom = |f: fn(&Sample, usize) -> f64| {
            self.samples
                .iter()
                .flat_map(|s| (0..lanes).map(move |k| f(s, k)))
                .fold(f64::INFINITY, f64::min)
        };
        let low_strain = bottom(|s, k| s.1[k]);
        let low_energy = bottom(|s, k| s.2[k].min(s.3[k]));
        let high_strain = -bottom(|s, k| -s.1[k]);
        let high_energy = -bottom(|s, k| -s.2[k].max(s.3[k]));
        let strain_bounds = at_least(low_strain, high_strain, STRAIN_SPAN);
        let energy_bounds = at_least(
            low_energy,
            high_energy,
            energy_span(high_energy.max(-low_energy)),
        );
        ui.columns(2, |cols| {
            let strain = spanning(plot("strain"), strain_bounds);
            strain.show(&mut cols[0], |p| {
                marks(p, low_strain);
                for lane in 0..self.lanes.len() {
                    let line = Line::new(name(lane, "max strain %"), series(lane, |s| s.1));
                    p.line(if two { line.color(colour(lane)) } else { line });
                }
            });
            if two {
                let energy = spanning(plot("energy"), energy_bounds);
                energy.show(&mut cols[1], |p| {
                    marks(p, low_energy);
                    for lane in 0..self.lanes.len() {
                        // Short names: beside the strain plot and the
                        // catenary's tension plot, "left PBD 20×1 + taken
                        // by drag and damping" spilled over the strain
                        // plot; the strain legend names each lane's
                        // settings in the same colours.
                        let side = ["left", "right"][lane.min(1)];
                        let held = Line::new(format!("{side} J held"), series(lane, |s| s.2));
                        p.line(held.color(colour(lane)));
                        // Dashed: plus what drag and damping took out.
                        let total =
                            Line::new(format!("{side} + drag, damping"), series(lane, |s| s.3))
                                .style(egui_plot::LineStyle::dashed_loose());
                        p.line(total.color(colour(lane)));
                    }
                });
            } else {
                self.stacked_books(&mut cols[1], detail);
            }
        });
    }
}

impl History {
    /// Lane `lane`'s values `f` as drawn: each bucket of samples as its
    /// largest value at its last time, so a spike of strain or energy is
    /// never thinned away.
    fn thinned(&self, lane: usize, f: fn(&Sample) -> [f64; 2]) -> Vec<[f64; 2]> {
        buckets(self.samples.len())
            .map(|r| {
                let top = r.clone().map(|i| f(&self.samples[i])[lane]);
                [self.samples[r.end - 1].0, top.fold(f64::MIN, f64::max)]
            })
            .collect()
    }
}

/// A layer of the stacked energy plot: name, its part of the books, colour.
type Layer = (&'static str, fn(&EnergyBooks) -> f64, egui::Color32);

impl History {
    /// The energy books stacked: gravitational (above its lowest value in
    /// view), kinetic, elastic, then what drag, damping and friction took
    /// out; layers that are zero throughout the view are left out. An
    /// exact integrator keeps the top flat; its fall is the method's own
    /// loss (and what contacts took). Without `detail`, no grid and each
    /// layer is its top line only (see `Display::plot_detail`).
    fn stacked_books(&self, ui: &mut egui::Ui, detail: bool) {
        let floor = self
            .books
            .iter()
            .map(|b| b.1.gravity)
            .fold(f64::INFINITY, f64::min);
        let layers: [Layer; 6] = [
            (
                "gravity",
                |b| b.gravity,
                egui::Color32::from_rgb(90, 110, 150),
            ),
            (
                "+ kinetic",
                |b| b.kinetic,
                egui::Color32::from_rgb(230, 150, 80),
            ),
            (
                "+ elastic",
                |b| b.elastic,
                egui::Color32::from_rgb(120, 200, 120),
            ),
            (
                "+ taken by drag",
                |b| b.drag,
                egui::Color32::from_rgb(170, 120, 200),
            ),
            (
                "+ taken by damping",
                |b| b.damping,
                egui::Color32::from_rgb(220, 200, 90),
            ),
            (
                "+ taken by friction",
                |b| b.friction,
                egui::Color32::from_rgb(200, 110, 110),
            ),
        ];
        fixed_plot("books", detail)
            .x_axis_label("time s")
            .y_axis_label("J above the lowest gravity")
            .show(ui, |p| {
                // Top layer first, each filled down to the floor, so the
                // lower ones paint over them: stacked areas.
                for top in (0..layers.len()).rev() {
                    // A layer that is zero throughout (no damping, PBD's
                    // elastic energy) would paint the one below it again:
                    // every fill costs under software rendering.
                    if self.books.iter().all(|(_, b)| (layers[top].1)(b) == 0.0) {
                        continue;
                    }
                    // One sample per bucket (the last), the same for every
                    // layer so that they stack.
                    let points: PlotPoints = buckets(self.books.len())
                        .map(|r| {
                            let (t, b) = &self.books[r.end - 1];
                            let sum: f64 = layers[..=top].iter().map(|l| (l.1)(b)).sum();
                            [*t, sum - floor]
                        })
                        .collect();
                    let line = Line::new(layers[top].0, points).color(layers[top].2);
                    p.line(if detail { line.fill(0.0) } else { line });
                }
            });
    }
}

/// Tension (N) of every link of rope `b` against its horizontal position,
/// with the analytic T(x) = μ·g·a·cosh((x − x₀)/a) of `curve` as a line;
/// grid lines with `detail`.
pub fn tension_along(
    ui: &mut egui::Ui,
    world: &crate::solver::World,
    (b, curve, mu): (usize, &crate::analytic::Catenary, f64),
    detail: bool,
) {
    let g = -world.settings.gravity.y as f64;
    let pos = world.particles.pos();
    let links: Vec<[f64; 2]> = world
        .constraints
        .iter()
        .filter(|l| l.tag.body as usize == b && l.tag.kind == crate::solver::LinkKind::Stretch)
        .map(|l| {
            [
                curve.x_of((pos[l.a] + pos[l.b]) * 0.5),
                world.tension(l.lambda) as f64,
            ]
        })
        .collect();
    let analytic: PlotPoints = (0..=64)
        .map(|k| {
            let x = curve.span as f64 * k as f64 / 64.0;
            [x, curve.tension(x, mu, g)]
        })
        .collect();
    fixed_plot("tension along", detail)
        .x_axis_label("x along the span m")
        .show(ui, |p| {
            p.line(
                Line::new("T(x) = μga·cosh((x − x₀)/a) N", analytic)
                    .color(egui::Color32::from_rgb(80, 230, 255)),
            );
            p.points(
                egui_plot::Points::new("link tension |λ|/h² N", PlotPoints::from(links))
                    .radius(2.5),
            );
        });
}

impl App {
    /// The plots below the view.
    pub(in crate::app) fn plots_panel(&mut self, ctx: &egui::Context) {
        egui::TopBottomPanel::bottom("plots")
            .exact_height(150.0)
            .show(ctx, |ui| {
                // With a rope hanging as a catenary, a third plot: its
                // tension along the span against the analytic T(x).
                let rope = (0..self.world.bodies().len()).find_map(|b| {
                    crate::analytic::Catenary::of_rope(&self.world, b).map(|c| (b, c))
                });
                // With a rod clamped at both ends, its twist against
                // Greenhill's critical twist.
                let detail = self.display.plot_detail;
                match (rope, self.twist.critical()) {
                    (Some((b, (curve, mu))), _) => {
                        ui.columns(2, |cols| {
                            self.history.ui(&mut cols[0], detail);
                            tension_along(&mut cols[1], &self.world, (b, &curve, mu), detail);
                        });
                    }
                    (None, Some(critical)) => {
                        ui.columns(2, |cols| {
                            self.history.ui(&mut cols[0], detail);
                            self.twist.ui(&mut cols[1], critical, detail);
                        });
                    }
                    (None, None) => self.history.ui(ui, detail),
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_plotted_in_a_span_of_at_least_its_quantitys_minimum() {
        // 0.0004 % of noise about 1.2 % shows as its middle ± 0.05 %,
        // 1.1502–1.2502 %, not full height.
        let (lo, hi) = at_least(1.2, 1.2004, STRAIN_SPAN).unwrap();
        assert!(
            (lo - 1.1502).abs() < 1e-9 && (hi - 1.2502).abs() < 1e-9,
            "{lo} {hi}"
        );
        // A real swing keeps its own bounds.
        assert_eq!(at_least(0.5, 3.0, STRAIN_SPAN), Some((0.5, 3.0)));
        // Energy: 2 % of the largest value, at least 10 mJ.
        assert!((energy_span(4.5) - 0.09).abs() < 1e-12);
        assert_eq!(energy_span(0.1), 0.01);
        // No samples yet: no bounds (egui_plot panics on infinite ones,
        // which stopped every window at its first frame in a debug build).
        assert_eq!(at_least(f64::INFINITY, f64::NEG_INFINITY, 1.0), None);
    }

    #[test]
    fn a_plotted_line_has_at_most_plotted_points_and_keeps_every_spike() {
        for n in [0, 1, 99, 100, 101, 600, 6001] {
            let all: Vec<usize> = buckets(n).flatten().collect();
            assert_eq!(
                all,
                (0..n).collect::<Vec<_>>(),
                "every sample once, in order"
            );
            assert!(buckets(n).count() <= PLOTTED, "{n}");
        }
        // A one-frame spike among 600 samples survives in the strain line.
        let mut h = History::default();
        let lane = |strain: f64| LaneSample {
            name: "XPBD".into(),
            strain_percent: strain,
            mechanical: 0.0,
            total: 0.0,
        };
        for k in 0..600 {
            let strain = if k == 301 { 9.0 } else { 1.0 };
            h.push(k as f64 / 60.0, &[lane(strain)], EnergyBooks::default());
        }
        let drawn = h.thinned(0, |s| s.1);
        assert!(drawn.len() <= PLOTTED, "{}", drawn.len());
        assert!(drawn.iter().any(|p| p[1] == 9.0), "the spike is drawn");
    }

    #[test]
    fn a_setting_change_reads_old_to_new_and_no_change_reads_nothing() {
        let old = Settings::default();
        let mut new = old;
        assert_eq!(change(&old, &new), None);
        new.substeps = 4;
        new.method = Method::Pbd;
        assert_eq!(change(&old, &new).unwrap(), "XPBD -> PBD, substeps 20 -> 4");
        new.damping = 0.5;
        assert!(change(&old, &new).unwrap().ends_with("β 0 -> 0.5"));
    }
}
