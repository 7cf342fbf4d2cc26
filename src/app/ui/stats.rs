//! The statistics section: frame rate and times, what the world holds,
//! its largest strain and tension, its energy, and the time.

use egui_macroquad::egui::{self, RichText};

use super::Ask;
use super::Section;
use crate::app::App;
use crate::solver::{Method, QuadKind};

/// The statistics section (it keeps no state of its own).
#[derive(Default)]
pub struct StatsSection;

impl Section for StatsSection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, _: &mut Vec<Ask>) {
        let w = &app.world;
        let energy = app.stats.energy;
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String, hover: &str| {
                ui.label(k).on_hover_text(hover);
                ui.label(v);
                ui.end_row();
            };
            row(
                "fps",
                format!("{:.0}", app.drawn_fps),
                "frames drawn per second",
            );
            row(
                "solver",
                format!("{:.2} ms/frame", app.timing.solver_ms),
                "time in World::step per simulated frame",
            );
            row(
                "render",
                format!("{:.2} ms/frame", app.timing.budget.render()),
                "time to build and draw the meshes and panels",
            );
            let b = &app.timing.budget;
            row(
                "frame",
                format!(
                    "{:.1} = {:.1} + {:.1} + {:.1} + {:.1} + {:.1} ms",
                    b.frame,
                    b.solver,
                    b.meshes,
                    b.ui,
                    b.drawing,
                    (b.frame - b.solver - b.meshes - b.ui - b.drawing).max(0.0)
                ),
                "a drawn frame's time: the solver's steps + building the meshes + the \
                 panels + drawing them + the rest (the driver, which gets the draw calls \
                 at the frame's end, and waiting for the screen)",
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
                        w.quads.count(QuadKind::NeoHookean),
                        w.quads.colour_count()
                    ),
                    "four-particle constraints: bending angles between two triangles, \
                     tetrahedron volumes, neo-Hookean tetrahedra (one constraint each, \
                     on their energy)",
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
                format!("{:.3} %", 100.0 * app.stats.max_strain),
                "largest (length − rest)/rest",
            );
            row(
                "max tension",
                if w.settings.method == Method::Pbd && w.settings.pbd_stiffness != 1.0 {
                    format!("{:.3} (not a force)", app.stats.max_tension)
                } else {
                    format!("{:.3} N", app.stats.max_tension)
                },
                "largest |λ|/h² of the last substep; in PBD a force only when k = 1 \
                 (a PBD projection with k < 1 is not a physical impulse)",
            );
            row(
                "energy",
                format!("{energy:.4} J"),
                "kinetic + gravitational + elastic energy the world holds",
            );
            if let Some(twin) = &app.twin {
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
                    if app.paused { " (paused)" } else { "" }
                ),
                "simulated time",
            );
        });
        ui.label(RichText::new("H or F1: help").small());
    }
}
