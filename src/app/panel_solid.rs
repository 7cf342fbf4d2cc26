//! The panel's part for closed bodies: a balloon's pressure and gas
//! compliance, a soft box's volume compliance or neo-Hookean material
//! (E, ν), and the volume each encloses now.

use egui_macroquad::egui;

use super::App;
use super::panel::slider;
use super::panel_bodies::ComplianceSlider;
use crate::scene::BodyDef;
use crate::solver::{Method, QuadKind, limits};

/// A change to a closed body from the panel.
#[derive(Clone, Copy)]
pub(super) enum SolidEdit {
    /// A balloon's target volume / built volume.
    Pressure(f32),
    /// A balloon's gas compliance (m⁵/N).
    GasCompliance(f32),
    /// A soft box's tetrahedron volume compliance (m⁵/N).
    CellCompliance(f32),
    /// A neo-Hookean soft box's Young's modulus (Pa) and Poisson's ratio.
    Material(f32, f32),
}

impl App {
    /// Body `b`'s closed-body controls; returns what the user changed.
    pub(super) fn solid_ui(&self, ui: &mut egui::Ui, b: usize) -> Option<SolidEdit> {
        let volume = self.world.enclosed_volume(b)?;
        let pbd = self.world.settings.method == Method::Pbd;
        let mut edit = None;
        if let Some(gas) = self.world.volumes.iter().find(|g| g.body == b) {
            ui.label(format!(
                "volume {:.5} m³ ({:.1} % of built, target {:.0} %)",
                volume,
                100.0 * volume / gas.rest,
                100.0 * gas.pressure
            ))
            .on_hover_text("the volume the surface encloses now, against the gas's target");
            let mut p = gas.pressure;
            if ui
                .add(slider(&mut p, limits::PRESSURE.range()).text("pressure"))
                .on_hover_text(
                    "target volume over the volume as built: 1 keeps it, 1.5 inflates it \
                     to 1.5× (as far as its skin stretches)",
                )
                .changed()
            {
                edit = Some(SolidEdit::Pressure(p));
            }
            ui.add_enabled_ui(!pbd, |ui| {
                if let Some(v) = volume_compliance_ui(ui, "gas", gas.compliance) {
                    edit = Some(SolidEdit::GasCompliance(v));
                }
            });
        } else if let Some((mut e, mut nu)) = self.world.neo_hookean(b) {
            ui.label(format!("volume {volume:.5} m³"))
                .on_hover_text("the volume its skin encloses now");
            ui.add_enabled_ui(!pbd, |ui| {
                let stiff = ui
                    .add(
                        slider(&mut e, limits::YOUNG_MODULUS.range())
                            .logarithmic(true)
                            .text("E Pa"),
                    )
                    .on_hover_text(
                        "Young's modulus: the stress per unit of stretch (jelly 1e3–1e4, \
                         rubber 1e6); PBD has no material and keeps the shape",
                    )
                    .changed();
                let lateral = ui
                    .add(slider(&mut nu, limits::POISSON_RATIO.range()).text("ν Poisson"))
                    .on_hover_text(
                        "Poisson's ratio: how much it narrows per unit of stretch \
                         (foam ≈ 0, rubber and jelly ≈ 0.5: they keep their volume)",
                    )
                    .changed();
                if stiff || lateral {
                    edit = Some(SolidEdit::Material(e, nu));
                }
            });
        } else if let Some(alpha) = self.world.quads.compliance(b, QuadKind::Volume) {
            ui.label(format!("volume {volume:.5} m³"))
                .on_hover_text("the volume its skin encloses now");
            ui.add_enabled_ui(!pbd, |ui| {
                if let Some(v) = volume_compliance_ui(ui, "cells", alpha) {
                    edit = Some(SolidEdit::CellCompliance(v));
                }
            });
        }
        edit
    }

    /// Applies `edit` to body `b` in both lanes and the scene (kept by Reset).
    pub(super) fn apply_solid(&mut self, b: usize, edit: SolidEdit) {
        let apply = |w: &mut crate::solver::World| match edit {
            SolidEdit::Pressure(p) => {
                if let Some(g) = w.gas_mut(b) {
                    g.pressure = p;
                }
            }
            SolidEdit::GasCompliance(a) => {
                if let Some(g) = w.gas_mut(b) {
                    g.compliance = a;
                }
            }
            SolidEdit::CellCompliance(a) => w.quads.set_compliance(b, QuadKind::Volume, a),
            SolidEdit::Material(e, nu) => w.set_neo_hookean(b, e, nu),
        };
        apply(&mut self.world);
        self.twin_do(apply);
        match (&mut self.scene.bodies[b], edit) {
            (BodyDef::Balloon(bl), SolidEdit::Pressure(p)) => bl.pressure = p,
            (BodyDef::Balloon(bl), SolidEdit::GasCompliance(a)) => bl.volume_compliance = a,
            (BodyDef::SoftBox(s), SolidEdit::CellCompliance(a)) => s.volume_compliance = a,
            (BodyDef::SoftBox(s), SolidEdit::Material(e, nu)) => {
                s.young_modulus = Some(e);
                s.poisson_ratio = nu;
            }
            _ => {}
        }
    }
}

/// A volume compliance slider (m⁵/N, logarithmic) with an "incompressible" box for 0.
fn volume_compliance_ui(ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
    let kind = ComplianceSlider {
        zero: "incompressible",
        zero_hover: "volume compliance 0: the volume does not give at all",
        range: 1e-12..=1e-3,
        hover: "volume compliance in m⁵/N: a pressure difference p changes the volume by α·p",
    };
    kind.show(ui, label, value)
}
