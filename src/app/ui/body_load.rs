//! The panel's part for what a body carries: a rope's weight on its end
//! (`tip_mass`) and a cloth's drag and lift on its faces (`aero_drag`,
//! `aero_lift`), on sliders, so they can be turned while it runs.

use egui_macroquad::egui;

use super::widgets::slider;
use crate::edit::Edit;
use crate::scene::BodyDef;
use crate::scene::Scene;
use crate::solver::World;
use crate::solver::limits;

/// Body `b`'s load controls; what the user changed.
pub fn ui(ui: &mut egui::Ui, world: &World, scene: &Scene, b: usize) -> Option<Edit> {
    let mut edit = None;
    match &scene.bodies[b] {
        BodyDef::Rope(r) => {
            let mut m = r.tip_mass;
            if ui
                .add(
                    slider(&mut m, 0.0..=limits::TIP_MASS.max.min(1e3))
                        .logarithmic(true)
                        .smallest_positive(0.01)
                        .text("tip mass kg"),
                )
                .on_hover_text(
                    "a weight on the rope's last particle, on top of its share of the \
                     rope's mass: without tethers a heavy one stretches a rigid rope",
                )
                .changed()
            {
                // The last particle's own share of the rope, then the weight.
                let tip = world.bodies()[b].first + r.segments as usize;
                edit = Some(Edit::Mass(tip, r.particle_mass() + m));
            }
        }
        BodyDef::Cloth(c) => {
            let (mut drag, mut lift) = (c.aero_drag, c.aero_lift);
            let range = 0.0..=limits::AERO_COEFFICIENT.max.min(10.0);
            let mut changed = ui
                .add(slider(&mut drag, range.clone()).text("aero drag C_d"))
                .on_hover_text(
                    "drag coefficient of each triangle: a force ½ρ·C_d·A·(v·n)² along \
                     its normal n against its motion through the air v (relative to the \
                     wind); a flat plate ≈ 1.2",
                )
                .changed();
            changed |= ui
                .add(slider(&mut lift, range).text("aero lift C_l"))
                .on_hover_text(
                    "lift coefficient of each triangle: a force across its motion \
                     through the air, in the plane of its normal and that motion (a flag \
                     flutters with drag and lift)",
                )
                .changed();
            if changed {
                edit = Some(Edit::Aero(b, drag, lift));
            }
        }
        _ => {}
    }
    edit
}
