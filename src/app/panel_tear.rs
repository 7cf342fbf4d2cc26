//! The panel's part for tearable cloths: the tear limit the scene gave
//! (strain or force) on a slider, and how many tears and copies so far.

use egui_macroquad::egui;

use super::App;
use super::panel::slider;
use crate::scene::BodyDef;
use crate::solver::limits;

/// A change to a cloth's tear limit from the panel.
#[derive(Clone, Copy)]
pub(super) enum TearEdit {
    /// Strain past which its links break (dimensionless).
    Strain(f32),
    /// Tension past which its links break (N).
    Force(f32),
}

impl App {
    /// Body `b`'s tear controls, for a cloth built tearable (only such a
    /// cloth has the spare slots its splits need); what the user changed.
    pub(super) fn tear_ui(&self, ui: &mut egui::Ui, b: usize) -> Option<TearEdit> {
        let BodyDef::Cloth(cl) = &self.scene.bodies[b] else {
            return None;
        };
        let body = &self.world.bodies()[b];
        body.faces.as_ref()?;
        let copies = body.count - cl.resolution.0 as usize * cl.resolution.1 as usize;
        let in_body = |&&(a, _): &&(u32, u32)| body.range().contains(&(a as usize));
        let tears = self.world.tears().iter().filter(in_body).count();
        ui.label(format!("{tears} tears, {copies} particles split"))
            .on_hover_text(
                "a tear splits the particle at it in two, the triangles beyond the cut going \
                 to the copy; when nothing lies beyond, the link just breaks",
            );
        let mut edit = None;
        if let Some(mut strain) = cl.tear_strain {
            let range = limits::TEAR_STRAIN.min.max(1e-3)..=limits::TEAR_STRAIN.max.min(10.0);
            if ui
                .add(
                    slider(&mut strain, range)
                        .logarithmic(true)
                        .text("tear strain")
                        .custom_formatter(|x, _| format!("{:.1} %", 100.0 * x)),
                )
                .on_hover_text("a link stretched past this strain, (length − rest)/rest, tears")
                .changed()
            {
                edit = Some(TearEdit::Strain(strain));
            }
        }
        if let Some(mut force) = cl.tear_force {
            let range = limits::TEAR_FORCE.min.max(1e-3)..=limits::TEAR_FORCE.max.min(1e4);
            if ui
                .add(
                    slider(&mut force, range)
                        .logarithmic(true)
                        .text("tear force N")
                        .custom_formatter(|x, _| format!("{x:.3}")),
                )
                .on_hover_text(
                    "a link pulling harder than this on average over a frame (in newtons) \
                     tears, whatever the substep count",
                )
                .changed()
            {
                edit = Some(TearEdit::Force(force));
            }
        }
        edit
    }

    /// Applies `edit` to body `b` in both lanes and the scene (kept by Reset).
    pub(super) fn apply_tear(&mut self, b: usize, edit: TearEdit) {
        let apply = |w: &mut crate::solver::World| match edit {
            TearEdit::Strain(s) => w.constraints.set_tear_strain(b, s),
            TearEdit::Force(f) => w.constraints.set_tear_force(b, f),
        };
        apply(&mut self.world);
        self.twin_do(apply);
        if let BodyDef::Cloth(cl) = &mut self.scene.bodies[b] {
            match edit {
                TearEdit::Strain(s) => cl.tear_strain = Some(s),
                TearEdit::Force(f) => cl.tear_force = Some(f),
            }
        }
    }
}
