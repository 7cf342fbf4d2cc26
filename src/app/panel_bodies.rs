//! The panel's bodies section: per body and constraint kind a compliance
//! slider (log scale, a *rigid* box; one scaling slider when a mesh's links
//! differ) and the self-collision switch.

use egui_macroquad::egui::{self, RichText};

use super::App;
use super::panel::slider;
use crate::edit::Edit;
use crate::solver::{Method, QuadKind, limits};

impl App {
    pub(super) fn bodies_section(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Bodies").strong());
        let mut edits: Vec<Edit> = Vec::new();
        let mut fixes: Vec<(usize, bool)> = Vec::new();
        for (b, def) in self.scene.bodies.iter().enumerate() {
            let facts = def.facts();
            let title = format!("{b}: {}", facts.label);
            egui::CollapsingHeader::new(title)
                .default_open(b < 2)
                .show(ui, |ui| {
                    let pbd = self.world.settings.method == Method::Pbd;
                    ui.add_enabled_ui(!pbd, |ui| {
                        for &(kind, label) in facts.links {
                            let Some((lo, hi)) = self.world.constraints.compliance_range(b, kind)
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
                        if let Some(alpha) = self.world.quads.compliance(b, QuadKind::Dihedral) {
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
                    edits.extend(self.solid_ui(ui, b));
                    edits.extend(self.load_ui(ui, b));
                    edits.extend(self.tear_ui(ui, b));
                    edits.extend(self.rod_ui(ui, b));
                    let (rigid, fixed) = self.rigid_ui(ui, b);
                    edits.extend(rigid);
                    if let (Some(on), Some(r)) = (fixed, self.world.rigids().of_body(b)) {
                        fixes.push((r, on));
                    }
                    if facts.self_collision {
                        let mut on = self.world.self_collision(b);
                        if ui
                            .checkbox(&mut on, "self-collision")
                            .on_hover_text("particles of this body push each other apart instead of passing through")
                            .changed()
                        {
                            edits.push(Edit::SelfCollision(b, on));
                        }
                    }
                    if facts.tethers {
                        let mut tethered = self.world.tethers().has(b);
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
        self.joins_section(ui);
        self.rigid_joints_section(ui);
        for (r, on) in fixes {
            self.set_fixed(r, on);
        }
        for edit in edits {
            self.edit(edit);
            if let Edit::SelfCollision(b, true) = edit
                && !self.world.self_collision(b)
            {
                self.status = format!(
                    "body {b}: self-collision refused — its radius is over {}× its particle spacing",
                    limits::RADIUS_PER_SPACING
                );
            }
        }
    }
}

impl App {
    /// Each join between bodies: its ends, its compliance, and whether it
    /// broke.
    fn joins_section(&mut self, ui: &mut egui::Ui) {
        if self.scene.joins.is_empty() {
            return;
        }
        let mut edits = Vec::new();
        egui::CollapsingHeader::new(format!("joins ({})", self.scene.joins.len()))
            .default_open(true)
            .show(ui, |ui| {
                let pbd = self.world.settings.method == Method::Pbd;
                for (k, j) in self.scene.joins.iter().enumerate() {
                    let (a, b) = self.scene.join_particles(&self.world, k);
                    let label =
                        format!("{k}: body {} #{} – body {} #{}", j.a.0, j.a.1, j.b.0, j.b.1);
                    match self.world.constraints.link_compliance(a, b) {
                        None => {
                            ui.label(format!("{label}: broken"));
                        }
                        Some(alpha) => {
                            ui.label(label);
                            ui.add_enabled_ui(!pbd, |ui| {
                                if let Some(v) = compliance_ui(ui, "join", alpha) {
                                    edits.push((a, b, v));
                                }
                            });
                        }
                    }
                }
            });
        for (a, b, v) in edits {
            self.edit(Edit::Link(a, b, v));
        }
    }
}

/// A compliance slider (m/N, logarithmic) with a "rigid" box for α = 0.
/// Returns the new value when the user changed it.
pub(super) fn compliance_ui(ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
    let kind = ComplianceSlider {
        zero: "rigid",
        zero_hover: "compliance α = 0: the constraint does not stretch at all",
        range: 1e-9..=1.0,
        hover: "compliance α in m/N, the inverse of stiffness: a link under a force F \
                stretches by α·F",
    };
    kind.show(ui, label, value)
}

/// A logarithmic compliance slider with a box for exactly 0.
pub(super) struct ComplianceSlider {
    /// The box's label ("rigid", "incompressible") and hover text.
    pub zero: &'static str,
    pub zero_hover: &'static str,
    /// The slider's range and hover text (with the unit).
    pub range: std::ops::RangeInclusive<f32>,
    pub hover: &'static str,
}

impl ComplianceSlider {
    /// Shows it for `value`; the new value when the user changed it.
    pub fn show(&self, ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
        let mut zero = value == 0.0;
        let mut v = if zero {
            *self.range.start() * 1e3
        } else {
            value
        };
        let mut changed = false;
        ui.horizontal(|ui| {
            changed |= ui
                .checkbox(&mut zero, self.zero)
                .on_hover_text(self.zero_hover)
                .changed();
            ui.add_enabled_ui(!zero, |ui| {
                changed |= ui
                    .add(
                        slider(&mut v, self.range.clone())
                            .logarithmic(true)
                            .text(label)
                            .custom_formatter(|x, _| format!("{x:.1e}")),
                    )
                    .on_hover_text(self.hover)
                    .changed();
            });
        });
        changed.then_some(if zero { 0.0 } else { v })
    }
}

/// A slider for links whose compliances differ: it shows the largest and
/// scales them all by one factor, so their ratios survive.
fn scale_ui(ui: &mut egui::Ui, label: &str, largest: f32) -> Option<f32> {
    let mut v = largest;
    ui.add(
        slider(&mut v, 1e-9..=1.0)
            .logarithmic(true)
            .text(format!("{label} (largest)"))
            .custom_formatter(|x, _| format!("{x:.1e}")),
    )
    .on_hover_text(
        "these links have different compliances: moving the slider scales all of them \
         by one factor (rigid links stay rigid)",
    )
    .changed()
    .then_some(v)
    .filter(|&v| v > 0.0)
}
