//! The display section: the colour mode and its scale, and what is drawn.

use egui_macroquad::egui;

use super::Ask;
use super::Section;
use super::widgets::slider;
use crate::app::App;
use crate::app::render::ColourMode;

/// The display section (what it shows lives in the app's `Display`).
#[derive(Default)]
pub struct DisplaySection;

impl Section for DisplaySection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        let mut display = app.display.clone();
        let d = &mut display;
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
        let auto_max = app.renderer.auto_max;
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
        if display != app.display {
            asks.push(Ask::Display(display));
        }
    }
}
