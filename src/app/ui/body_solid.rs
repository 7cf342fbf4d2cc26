//! The panel's part for closed bodies: a balloon's pressure and gas
//! compliance, a soft box's volume compliance or neo-Hookean material
//! (E, ν), and the volume each encloses now.

use egui_macroquad::egui;

use super::widgets::ComplianceSlider;
use super::widgets::slider;
use crate::edit::Edit;
use crate::solver::World;
use crate::solver::{Method, QuadKind, limits};

/// Body `b`'s closed-body controls; returns what the user changed.
pub fn ui(ui: &mut egui::Ui, world: &World, b: usize) -> Option<Edit> {
    let volume = world.enclosed_volume(b)?;
    let pbd = world.settings.method == Method::Pbd;
    let mut edit = None;
    if let Some(gas) = world.volumes().iter().find(|g| g.body == b) {
        ui.label(format!(
            "volume {:.5} m³ ({:.1} % of built, target {:.0} %)",
            volume,
            100.0 * volume / gas.rest,
            100.0 * gas.inflation()
        ))
        .on_hover_text(format!(
            "the volume the surface encloses now, against the gas's target, which \
             follows the pressure at {} built volumes a second",
            crate::solver::INFLATION_RATE
        ));
        let mut p = gas.pressure;
        if ui
            .add(slider(&mut p, limits::PRESSURE.range()).text("pressure"))
            .on_hover_text(
                "target volume over the volume as built: 1 keeps it, 1.5 inflates it \
                 to 1.5× (as far as its skin stretches), 0.5 lets half the air out \
                 (the skin shrinks with it, as rubber does)",
            )
            .changed()
        {
            edit = Some(Edit::Pressure(b, p));
        }
        ui.add_enabled_ui(!pbd, |ui| {
            if let Some(v) = volume_compliance_ui(ui, "gas", gas.compliance) {
                edit = Some(Edit::GasCompliance(b, v));
            }
        });
    } else if let Some((mut e, mut nu)) = world.neo_hookean(b) {
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
                edit = Some(Edit::Material(b, e, nu));
            }
        });
    } else if let Some(alpha) = world.quads.compliance(b, QuadKind::Volume) {
        ui.label(format!("volume {volume:.5} m³"))
            .on_hover_text("the volume its skin encloses now");
        ui.add_enabled_ui(!pbd, |ui| {
            if let Some(v) = volume_compliance_ui(ui, "cells", alpha) {
                edit = Some(Edit::CellCompliance(b, v));
            }
        });
    }
    edit
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
