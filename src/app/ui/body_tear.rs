//! The panel's part for tearable cloths: the tear limit the scene gave
//! (strain or force) on a slider, and how many tears and copies so far.

use egui_macroquad::egui;

use super::widgets::slider;
use crate::edit::Edit;
use crate::scene::BodyDef;
use crate::scene::Scene;
use crate::solver::World;
use crate::solver::limits;

/// Body `b`'s tear controls, for a cloth built tearable (only such a
/// cloth has the spare slots its splits need); what the user changed.
pub fn ui(ui: &mut egui::Ui, world: &World, scene: &Scene, b: usize) -> Option<Edit> {
    let BodyDef::Cloth(cl) = &scene.bodies[b] else {
        return None;
    };
    let body = &world.bodies()[b];
    body.faces.as_ref()?;
    let copies = body.count - cl.resolution.0 as usize * cl.resolution.1 as usize;
    let in_body = |&&(a, _): &&(u32, u32)| body.range().contains(&(a as usize));
    let tears = world.tears().iter().filter(in_body).count();
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
            edit = Some(Edit::TearStrain(b, strain));
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
            edit = Some(Edit::TearForce(b, force));
        }
    }
    edit
}
