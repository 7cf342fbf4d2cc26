//! The solver section: method, substeps × iterations (guarded against a
//! choice that would leave the window crawling), dt, damping, air, gravity,
//! PBD's stiffness, time scale, the hand's strength, the solver threads,
//! and collisions between bodies.

use egui_macroquad::egui::{self, RichText};

use super::Ask;
use super::Section;
use super::widgets::slider;
use crate::app::App;
use crate::edit::Edit;
use crate::solver::{Method, ThreadChoice, available_threads, limits};

/// Seconds of solver time per frame above which a substeps × iterations
/// choice waits for a confirmation: under 10 frames a second the window
/// no longer follows the hand.
const COSTLY_S: f64 = 0.1;

/// The section's state: a costly choice waiting.
#[derive(Default)]
pub struct SolverSection {
    /// Substeps × iterations chosen on the sliders but not applied: being
    /// dragged, or too costly to apply without a confirmation.
    pending: Option<(u32, u32)>,
}

impl SolverSection {
    /// Substeps × iterations chosen but not applied: being dragged, or
    /// waiting for Apply (the state dump reports it).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn pending(&self) -> Option<(u32, u32)> {
        self.pending
    }

    fn settings_rows(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        let mut settings = app.world.settings;
        let mut time_scale = app.time_scale;
        let s = &mut settings;
        ui.horizontal(|ui| {
            ui.label("method");
            ui.selectable_value(&mut s.method, Method::Xpbd, "XPBD")
                .on_hover_text("compliance in m/N: stiffness independent of substeps");
            ui.selectable_value(&mut s.method, Method::Pbd, "PBD")
                .on_hover_text(
                    "classic PBD: stiffness k per projection, depends on substeps and iterations",
                );
        });
        // Substeps and iterations set the cost. While a slider is dragged
        // nothing is applied (every value on its way up would be, and
        // 200 × 35 left the window at 4 fps); on release a choice that
        // would take longer than COSTLY_S per frame waits for Apply, and
        // Cancel leaves the settings as they were before the drag.
        let (mut substeps, mut iterations) = self.pending.unwrap_or((s.substeps, s.iterations));
        let sub_slider = ui
            .add(
                slider(&mut substeps, 1..=200)
                    .logarithmic(true)
                    .text("substeps"),
            )
            .on_hover_text("substeps per frame; h = dt / substeps");
        let it_slider = ui
            .add(
                slider(&mut iterations, 1..=100)
                    .logarithmic(true)
                    .text("iterations"),
            )
            .on_hover_text("Gauss–Seidel passes over all constraints per substep");
        let dragging = sub_slider.dragged() || it_slider.dragged();
        if (substeps, iterations) == (s.substeps, s.iterations) {
            self.pending = None;
        } else if dragging {
            self.pending = Some((substeps, iterations));
        } else {
            let passes = substeps as f64 * iterations as f64;
            let cost = app.world.constraints.len() as f64 * passes / app.timing.projection_rate();
            if cost <= COSTLY_S {
                s.substeps = substeps;
                s.iterations = iterations;
                self.pending = None;
            } else {
                self.pending = Some((substeps, iterations));
            }
        }
        if let Some((sub, it)) = self.pending.filter(|_| !dragging) {
            let cost = app.world.constraints.len() as f64 * (sub as f64 * it as f64)
                / app.timing.projection_rate();
            ui.label(
                RichText::new(format!(
                    "{sub} × {it} would take ≈ {cost:.1} s per frame: the window would answer \
                     only that often"
                ))
                .color(egui::Color32::from_rgb(255, 200, 90)),
            );
            ui.horizontal(|ui| {
                if ui.button("Apply").clicked() {
                    s.substeps = sub;
                    s.iterations = it;
                    self.pending = None;
                }
                if ui.button("Cancel").clicked() {
                    self.pending = None;
                }
            });
        }
        ui.add(
            slider(&mut s.dt, 1.0 / 480.0..=1.0 / 15.0)
                .logarithmic(true)
                .text("dt s")
                .custom_formatter(|x, _| format!("{:.4} (1/{:.0})", x, 1.0 / x)),
        )
        .on_hover_text("simulated seconds per frame");
        ui.add(
            slider(&mut s.damping, limits::DAMPING.range())
                .logarithmic(true)
                .max_decimals(2)
                .text("damping β kg/s"),
        )
        .on_hover_text(
            "a dashpot along every constraint (both methods): removes the fraction \
             β(w_a+w_b)h/(1+β(w_a+w_b)h) of each link's stretching speed per substep. \
             Damps stretching and bending, not free swinging; never moves the rest shape \
             and only takes energy out, at any value",
        );
        ui.add(
            slider(&mut s.air_drag, 0.0..=20.0)
                .logarithmic(true)
                .max_decimals(2)
                .text("air drag 1/s"),
        )
        .on_hover_text("velocity relaxes toward the wind at this rate");
        ui.horizontal(|ui| {
            ui.label("wind m/s")
                .on_hover_text("air velocity; acts through air drag");
            for k in 0..3 {
                ui.add(
                    egui::DragValue::new(&mut s.wind[k])
                        .speed(0.1)
                        .range(limits::WIND.range()),
                );
            }
        });
        ui.add(
            slider(&mut s.air_density, 0.0..=10.0)
                .max_decimals(2)
                .text("air density kg/m³"),
        )
        .on_hover_text(
            "ρ for the drag and lift on cloth triangles (a cloth's aero_drag and aero_lift \
             in its scene); 1.2 is air at sea level",
        );
        ui.add(slider(&mut s.gravity.y, -30.0..=0.0).text("gravity y m/s²"))
            .on_hover_text("vertical gravity; Earth is −9.81");
        ui.add_enabled(
            s.method == Method::Pbd,
            slider(&mut s.pbd_stiffness, 0.001..=1.0)
                .logarithmic(true)
                .text("PBD stiffness k"),
        )
        .on_hover_text("PBD only: fraction of the error corrected per projection");
        ui.add(
            slider(&mut time_scale, 0.05..=2.0)
                .logarithmic(true)
                .text("time scale"),
        )
        .on_hover_text("simulated seconds per real second (slow motion below 1)");
        if settings != app.world.settings {
            asks.push(Ask::Settings(settings));
        }
        if time_scale != app.time_scale {
            asks.push(Ask::TimeScale(time_scale));
        }
        hand_row(ui, app, asks);
        threads_row(ui, app, asks);
        let mut between = app.world.body_collisions();
        if ui
            .checkbox(&mut between, "collisions between bodies")
            .on_hover_text(
                "particles of different bodies push each other apart, and meet the other \
                 bodies' cloth and skin triangles",
            )
            .changed()
        {
            asks.push(Ask::Edit(Edit::BodyCollisions(between)));
        }
    }
}

impl Section for SolverSection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        self.settings_rows(ui, app, asks);
    }
}

/// How many threads solve the steps: auto, or a count the user fixes
/// (beside busy programs the measurements can mislead); the label says
/// how many ran the last frame.
fn threads_row(ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
    let now = app.world.thread_choice();
    let mut chosen = now;
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("threads")
            .selected_text(now.to_string())
            .show_ui(ui, |ui| {
                let fixed = (1..=available_threads()).map(ThreadChoice::Fixed);
                for c in std::iter::once(ThreadChoice::Auto).chain(fixed) {
                    ui.selectable_value(&mut chosen, c, c.to_string());
                }
            })
            .response
            .on_hover_text(
                "solver threads; results are the same for any count. auto runs each frame \
                 on the count measured fastest lately (in a scene of links, hinges and \
                 dashpots alone: one a core); pick 1 when other programs keep the cores busy and the \
                 window stutters",
            );
        ui.label(format!("{} running", app.world.team_size()));
    });
    if chosen != now {
        asks.push(Ask::Threads(chosen));
    }
}

/// The hand's strength: a capped pull, or kinematic (no limit).
fn hand_row(ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
    let mut hand = app.world.hand();
    let mut kinematic = hand.is_kinematic();
    let mut force = if kinematic {
        crate::solver::Hand::suited_to(&app.world).max_force
    } else {
        hand.max_force
    };
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui
            .checkbox(&mut kinematic, "kinematic")
            .on_hover_text(
                "the held particle goes exactly where the cursor is, whatever force that takes",
            )
            .changed();
        ui.add_enabled_ui(!kinematic, |ui| {
            changed |= ui
                .add(
                    slider(&mut force, limits::HAND_FORCE.range())
                        .logarithmic(true)
                        .text("hand N"),
                )
                .on_hover_text(
                    "the largest force the mouse pulls a particle with; past it the particle \
                     lags the cursor instead of the body stretching like rubber",
                )
                .changed();
        });
    });
    if changed {
        hand.max_force = if kinematic { f32::INFINITY } else { force };
        asks.push(Ask::Hand(hand));
    }
}
