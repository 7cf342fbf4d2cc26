//! The bodies section: per body and constraint kind a compliance slider
//! (log scale, a *rigid* box; one scaling slider when a mesh's links
//! differ), the self-collision and tether switches, and each kind's own
//! part (`body_*`); then the joins between bodies and the rigid joints.

use egui_macroquad::egui::{self, RichText};

use super::Ask;
use super::Section;
use super::body_load;
use super::body_rigid;
use super::body_rod;
use super::body_solid;
use super::body_tear;
use super::widgets::{compliance_ui, scale_ui, slider};
use crate::app::App;
use crate::edit::Edit;
use crate::solver::{Method, QuadKind};

/// The bodies section (it keeps no state of its own).
#[derive(Default)]
pub struct BodiesSection;

impl Section for BodiesSection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        ui.label(RichText::new("Bodies").strong());
        let (world, scene) = (&app.world, &app.scene);
        let mut edits: Vec<Edit> = Vec::new();
        for (b, def) in scene.bodies.iter().enumerate() {
            let facts = def.facts();
            let title = format!("{b}: {}", facts.label);
            egui::CollapsingHeader::new(title)
                .default_open(b < 2)
                .show(ui, |ui| {
                    let pbd = world.settings.method == Method::Pbd;
                    ui.add_enabled_ui(!pbd, |ui| {
                        for &(kind, label) in facts.links {
                            let Some((lo, hi)) = world.constraints.compliance_range(b, kind)
                            else {
                                continue;
                            };
                            if lo == hi {
                                if let Some(v) = compliance_ui(ui, label, hi) {
                                    edits.push(Edit::Compliance(b, kind, v));
                                }
                            } else if let Some(v) = scale_ui(ui, label, hi) {
                                edits.push(Edit::ScaleCompliance(b, kind, v / hi));
                            }
                        }
                        if let Some(alpha) = world.quads.compliance(b, QuadKind::Dihedral) {
                            let mut v = alpha;
                            if ui
                                .add(
                                    slider(&mut v, 1e-4..=1e3)
                                        .logarithmic(true)
                                        .text("dihedral")
                                        .custom_formatter(|x, _| format!("{x:.1e}")),
                                )
                                .on_hover_text(
                                    "dihedral bending compliance in rad/(N·m): a hinge under a \
                                     torque M turns by α·M",
                                )
                                .changed()
                            {
                                edits.push(Edit::Dihedral(b, v));
                            }
                        }
                    })
                    .response
                    .on_disabled_hover_text(
                        "PBD has no compliance: stiffness k and the substep count set it",
                    );
                    edits.extend(body_solid::ui(ui, world, b));
                    edits.extend(body_load::ui(ui, world, scene, b));
                    edits.extend(body_tear::ui(ui, world, scene, b));
                    edits.extend(body_rod::ui(ui, world, b));
                    let (rigid, fixed) = body_rigid::ui(ui, world, b);
                    edits.extend(rigid);
                    if let (Some(on), Some(r)) = (fixed, world.rigids().of_body(b)) {
                        asks.push(Ask::Fixed(r, on));
                    }
                    if facts.self_collision {
                        let mut on = world.self_collision(b);
                        if ui
                            .checkbox(&mut on, "self-collision")
                            .on_hover_text("particles of this body push each other apart instead of passing through")
                            .changed()
                        {
                            edits.push(Edit::SelfCollision(b, on));
                        }
                    }
                    if facts.tethers {
                        let mut tethered = world.tethers().has(b);
                        if ui
                            .checkbox(&mut tethered, "tethers")
                            .on_hover_text(
                                "no particle gets farther from its nearest pin than its rest \
                                 distance along the body: a weight cannot stretch it like rubber",
                            )
                            .changed()
                        {
                            edits.push(Edit::Tethers(b, tethered));
                        }
                    }
                });
        }
        asks.extend(edits.into_iter().map(Ask::Edit));
        joins_ui(ui, app, asks);
        body_rigid::joints_ui(ui, world, asks);
    }
}

/// Each join between bodies: its ends, its compliance, and whether it
/// broke.
fn joins_ui(ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
    let (world, scene) = (&app.world, &app.scene);
    if scene.joins.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(format!("joins ({})", scene.joins.len()))
        .default_open(true)
        .show(ui, |ui| {
            let pbd = world.settings.method == Method::Pbd;
            for (k, j) in scene.joins.iter().enumerate() {
                let (a, b) = scene.join_particles(world, k);
                let label = format!("{k}: body {} #{} – body {} #{}", j.a.0, j.a.1, j.b.0, j.b.1);
                match world.constraints.link_compliance(a, b) {
                    None => {
                        ui.label(format!("{label}: broken"));
                    }
                    Some(alpha) => {
                        ui.label(label);
                        ui.add_enabled_ui(!pbd, |ui| {
                            if let Some(v) = compliance_ui(ui, "join", alpha) {
                                asks.push(Ask::Edit(Edit::Link(a, b, v)));
                            }
                        });
                    }
                }
            }
        });
}
