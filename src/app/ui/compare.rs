//! The compare section: compare mode on or off, and the right lane's own
//! method, substeps, iterations and PBD stiffness.

use egui_macroquad::egui::{self, RichText};

use super::Ask;
use super::Section;
use crate::app::App;
use crate::compare;
use crate::solver::Method;

/// The compare section (it keeps no state of its own).
#[derive(Default)]
pub struct CompareSection;

impl Section for CompareSection {
    /// The panel's compare section: the switch, the right lane's own
    /// solver settings and the difference between the lanes.
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        let mut on = app.twin.is_some();
        if ui
            .checkbox(&mut on, "compare: PBD left | XPBD right")
            .on_hover_text(
                "the scene in two worlds side by side, one hand for both: the settings above \
                 are the left lane's, the right lane's are below; compliances are shared",
            )
            .changed()
        {
            asks.push(Ask::Compare(on));
        }
        let Some(twin) = &app.twin else {
            return;
        };
        let mut settings = twin.settings;
        let s = &mut settings;
        ui.horizontal(|ui| {
            ui.label("right lane");
            ui.selectable_value(&mut s.method, Method::Xpbd, "XPBD");
            ui.selectable_value(&mut s.method, Method::Pbd, "PBD");
        });
        ui.add(
            egui::Slider::new(&mut s.substeps, 1..=200)
                .logarithmic(true)
                .text("substeps"),
        );
        ui.add(
            egui::Slider::new(&mut s.iterations, 1..=100)
                .logarithmic(true)
                .text("iterations"),
        );
        ui.add_enabled(
            s.method == Method::Pbd,
            egui::Slider::new(&mut s.pbd_stiffness, 0.001..=1.0)
                .logarithmic(true)
                .text("PBD k"),
        );
        if settings != twin.settings {
            asks.push(Ask::TwinSettings(settings));
        }
        let gap = compare::largest_difference(&app.world, twin);
        ui.label(RichText::new(format!(
            "lanes differ by up to {:.1} mm",
            gap * 1e3
        )))
        .on_hover_text("the largest distance between corresponding particles of the two lanes");
    }
}
