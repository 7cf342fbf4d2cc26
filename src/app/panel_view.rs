//! The panel's view sections: colour mode and scale, what is drawn, the
//! statistics, and the plots below the view.

use egui_macroquad::egui::{self, RichText};

use super::panel::slider;
use super::render::ColourMode;
use super::{App, plots};
use crate::solver::{Method, QuadKind};

impl App {
    pub(super) fn display_section(&mut self, ui: &mut egui::Ui) {
        let strain_scale = self.display.strain_scale;
        self.display_controls(ui);
        if self.display.strain_scale != strain_scale {
            // The user's scale: no pick after the first second, and a
            // reload keeps it.
            self.layout.scale_chosen = true;
        }
    }

    fn display_controls(&mut self, ui: &mut egui::Ui) {
        let d = &mut self.display;
        ui.horizontal(|ui| {
            ui.label("colour");
            ui.selectable_value(&mut d.colour, ColourMode::Plain, "plain");
            ui.selectable_value(&mut d.colour, ColourMode::Strain, "strain")
                .on_hover_text("largest (length − rest)/rest at each particle");
            ui.selectable_value(&mut d.colour, ColourMode::Tension, "tension")
                .on_hover_text("largest |λ|/h² at each particle, newtons");
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut d.wireframe, "wireframe")
                .on_hover_text("cloth edges");
            ui.checkbox(&mut d.particles, "particles")
                .on_hover_text("dots on rope and mesh particles");
            ui.checkbox(&mut d.colliders, "colliders");
            ui.checkbox(&mut d.shadows, "shadows").on_hover_text(
                "bodies and colliders cast shadows on the ground, along the key light",
            );
        });
        ui.checkbox(&mut d.plot_detail, "plot grids and fills")
            .on_hover_text(
                "grid lines and dark backgrounds in the plots, and the energy plot's layers as \
             stacked areas (lines when off); under software rendering they cost a fifth of \
             the frame, so the window drops them with the smooth edges when those prove too \
             slow",
            );
        ui.checkbox(&mut d.chain_links, "chains as links")
            .on_hover_text(
                "draw ropes as chains: one link per segment, each turned 90° from the last, \
             hooked into its neighbours (as tubes when off)",
            );
        ui.checkbox(&mut d.antialias, "smooth edges").on_hover_text(
            "anti-aliasing (FXAA): one filtering pass over the 3D view that blends across \
             edges. The window tries it in its first frames and keeps it only when it costs \
             under a quarter of the frame (with software rendering it costs several times it)",
        );
        let auto_max = self.renderer.auto_max;
        let (scale, range, unit, factor) = match d.colour {
            ColourMode::Strain => (&mut d.strain_scale, 1e-5..=1.0, "%", 100.0),
            ColourMode::Tension => (&mut d.tension_scale, 1e-3..=1e5, "N", 1.0),
            ColourMode::Plain => (&mut None, 0.0..=1.0, "", 1.0),
        };
        if d.colour != ColourMode::Plain {
            ui.horizontal(|ui| {
                let mut auto = scale.is_none();
                if ui
                    .checkbox(&mut auto, "auto")
                    .on_hover_text("scale the colours to the largest value of each frame")
                    .changed()
                {
                    *scale = (!auto).then_some(auto_max.max(*range.start()));
                }
                if let Some(top) = scale.as_mut() {
                    ui.add(
                        slider(top, range)
                            .logarithmic(true)
                            .custom_formatter(move |x, _| format!("{:.3} {unit}", x * factor))
                            .text("scale top"),
                    )
                    .on_hover_text("the value drawn red: a fixed scale keeps colours comparable when settings change");
                }
            });
        }
        ui.checkbox(&mut d.caption, "caption")
            .on_hover_text("the scene's note on what to try and what to look for");
        ui.checkbox(&mut d.analytic, "analytic ghosts").on_hover_text(
            "cyan ghosts of the exact answers: the inextensible chain through the pinned ends, \
             y = a·cosh((x − x₀)/a) + c (ropes pinned at exactly their two ends, vertical gravity), \
             the undamped spring of a single mass on one link (period 2π√(α·m)), a soft rope \
             hanging from one pin (each link stretched α × the weight below it; a grey tick at \
             its rest length), and a rod clamped at one end bent by its weight, q·L⁴/(8·E·I) at \
             the tip",
        );
        ui.checkbox(&mut d.spin, "spin arrows").on_hover_text(
            "on a rigid body in free flight: its angular momentum L (gold, kept while nothing \
             touches it) and its angular velocity ω (cyan, 0.12 m per rad/s) — in the \
             tennis-racket flip ω swings round while L stands still",
        );
    }

    pub(super) fn stats_section(&mut self, ui: &mut egui::Ui) {
        let w = &self.world;
        let energy = self.stats.energy;
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String, hover: &str| {
                ui.label(k).on_hover_text(hover);
                ui.label(v);
                ui.end_row();
            };
            row(
                "fps",
                format!("{:.0}", self.drawn_fps),
                "frames drawn per second",
            );
            row(
                "solver",
                format!("{:.2} ms/frame", self.timing.solver_ms),
                "time in World::step per simulated frame",
            );
            row(
                "render",
                format!("{:.2} ms/frame", self.timing.render_ms),
                "time to build and draw the meshes and panels",
            );
            row("particles", w.live_particles().to_string(), "");
            row(
                "constraints",
                format!(
                    "{} in {} colours",
                    w.constraints.len(),
                    w.constraints.colour_count()
                ),
                "distance constraints; a colour holds constraints sharing no particle",
            );
            if !w.quads.is_empty() {
                row(
                    "quads",
                    format!(
                        "{} dihedral, {} volume, {} neo-Hookean in {} colours",
                        w.quads.count(QuadKind::Dihedral),
                        w.quads.count(QuadKind::Volume),
                        w.quads.count(QuadKind::Deviatoric),
                        w.quads.colour_count()
                    ),
                    "four-particle constraints: bending angles between two triangles, \
                     tetrahedron volumes, neo-Hookean tetrahedra (two constraints each)",
                );
            }
            if !w.rods().is_empty() {
                let segments: usize = (0..w.bodies().len())
                    .map(|b| w.rods().segments_of(b).len())
                    .sum();
                row(
                    "rods",
                    format!(
                        "{} in {} segments, {} constraints",
                        w.rods().len(),
                        segments,
                        w.rods().constraint_count()
                    ),
                    "Cosserat rods: a stretch–shear constraint per segment and a bend–twist \
                     constraint per joint, each rod solved by one thread",
                );
            }
            let rigid = w.rigids();
            if !rigid.is_empty() {
                row(
                    "rigid",
                    format!(
                        "{} bodies, {} joints, {} contacts",
                        rigid.bodies.len(),
                        rigid.joints.len(),
                        rigid.contacts.len()
                    ),
                    "rigid bodies, their joints and this substep's contacts (with colliders, \
                     each other and particles)",
                );
            }
            row(
                "max strain",
                format!("{:.3} %", 100.0 * self.stats.max_strain),
                "largest (length − rest)/rest",
            );
            row(
                "max tension",
                if w.settings.method == Method::Pbd && w.settings.pbd_stiffness != 1.0 {
                    format!("{:.3} (not a force)", self.stats.max_tension)
                } else {
                    format!("{:.3} N", self.stats.max_tension)
                },
                "largest |λ|/h² of the last substep; in PBD a force only when k = 1 \
                 (a PBD projection with k < 1 is not a physical impulse)",
            );
            row(
                "energy",
                format!("{energy:.4} J"),
                "kinetic + gravitational + elastic energy the world holds",
            );
            if let Some(twin) = &self.twin {
                // Compare mode: the same read-outs for the right lane.
                let (strain, tension) = (twin.max_strain(), twin.max_tension());
                let held = twin.energy_books().mechanical();
                row(
                    "right lane",
                    format!("{:.3} %, {tension:.3} N, {held:.4} J", 100.0 * strain),
                    "the right lane's max strain, max tension and energy",
                );
            }
            row(
                "time",
                format!(
                    "{:.2} s{}",
                    w.time(),
                    if self.paused { " (paused)" } else { "" }
                ),
                "simulated time",
            );
        });
        ui.label(RichText::new("H or F1: help").small());
    }

    pub(super) fn plots_panel(&mut self, ctx: &egui::Context) {
        egui::TopBottomPanel::bottom("plots")
            .exact_height(150.0)
            .show(ctx, |ui| {
                // With a rope hanging as a catenary, a third plot: its
                // tension along the span against the analytic T(x).
                let rope = (0..self.world.bodies().len()).find_map(|b| {
                    crate::analytic::Catenary::of_rope(&self.world, b).map(|c| (b, c))
                });
                match rope {
                    Some((b, (curve, mu))) => {
                        ui.columns(2, |cols| {
                            self.history.ui(&mut cols[0], self.display.plot_detail);
                            let rope = (b, &curve, mu);
                            let detail = self.display.plot_detail;
                            plots::tension_along(&mut cols[1], &self.world, rope, detail);
                        });
                    }
                    None => self.history.ui(ui, self.display.plot_detail),
                }
            });
    }
}
