//! The panel's part for rigid bodies and their joints: a body's density,
//! friction, restitution and `fixed` switch; a joint's compliance, limits and (a
//! hinge's) motor.

use egui_macroquad::egui;

use super::App;
use super::panel::slider;
use super::panel_bodies::compliance_ui;
use crate::scene::BodyDef;
use crate::solver::rigid::{JointKind, Motor};
use crate::solver::{Method, World, limits};

/// A change to a rigid body from the panel.
#[derive(Clone, Copy)]
pub(super) enum RigidEdit {
    /// Density (kg/m³) and the mass it gives: the inertia follows.
    Density(f32, f32),
    /// Coulomb μ and restitution e.
    Surface(f32, f32),
    /// Never moves.
    Fixed(bool),
}

/// A change to joint `j` from the panel: its compliance, limits and motor.
#[derive(Clone, Copy)]
struct JointEdit {
    j: usize,
    compliance: f32,
    limits: Option<(f32, f32)>,
    motor: Option<Motor>,
}

impl App {
    /// Body `b`'s rigid-body controls, if it is one; what the user changed.
    pub(super) fn rigid_ui(&self, ui: &mut egui::Ui, b: usize) -> Option<RigidEdit> {
        let r = self.world.rigids().of_body(b)?;
        let body = &self.world.rigids().bodies[r];
        let mut edit = None;
        ui.label(format!(
            "mass {:.3} kg, speed {:.2} m/s, spin {:.2} rad/s",
            body.mass,
            body.v.length(),
            body.omega.length()
        ));
        let mut density = body.mass / body.shape.volume();
        if ui
            .add(
                slider(&mut density, limits::DENSITY.range())
                    .logarithmic(true)
                    .text("density kg/m³"),
            )
            .on_hover_text(
                "mass per volume: the mass and the inertia tensor follow from the shape \
                 (wood 600, water 1000, steel 7800)",
            )
            .changed()
        {
            edit = Some(RigidEdit::Density(density, density * body.shape.volume()));
        }
        let mut mu = body.friction;
        if ui
            .add(
                slider(&mut mu, limits::FRICTION.range())
                    .logarithmic(true)
                    .smallest_positive(0.01)
                    .text("friction μ"),
            )
            .on_hover_text(
                "Coulomb friction against the ground, colliders and other rigid bodies (the \
                 pair's μ is √(μ₁μ₂)) and against particles (this μ)",
            )
            .changed()
        {
            edit = Some(RigidEdit::Surface(mu, body.restitution));
        }
        let mut e = body.restitution;
        if ui
            .add(slider(&mut e, limits::RESTITUTION.range()).text("restitution e"))
            .on_hover_text(
                "the share of an impact's speed it leaves with: 0 stays put, 1 bounces back \
                 as high (slow touches never bounce, so it still comes to rest)",
            )
            .changed()
        {
            edit = Some(RigidEdit::Surface(body.friction, e));
        }
        let mut fixed = body.fixed;
        if ui
            .checkbox(&mut fixed, "fixed")
            .on_hover_text("never moves: an anchor for joints and ropes (right-click it, too)")
            .changed()
        {
            edit = Some(RigidEdit::Fixed(fixed));
        }
        edit
    }

    /// Applies `edit` to body `b` in both lanes and the scene (kept by Reset).
    pub(super) fn apply_rigid(&mut self, b: usize, edit: RigidEdit) {
        let Some(r) = self.world.rigids().of_body(b) else {
            return;
        };
        if let RigidEdit::Fixed(true) = edit
            && self.world.grabbed_rigid() == Some(r)
        {
            self.mouse.cancel(&mut self.world); // a fixed body is not held
        }
        let apply = |w: &mut World| match edit {
            RigidEdit::Density(_, mass) => w.set_rigid_mass(r, mass),
            RigidEdit::Surface(mu, e) => w.set_rigid_surface(r, mu, e),
            RigidEdit::Fixed(on) => w.set_rigid_fixed(r, on),
        };
        apply(&mut self.world);
        self.twin_do(apply);
        if let BodyDef::Rigid(def) = &mut self.scene.bodies[b] {
            match edit {
                RigidEdit::Density(d, _) => def.density = d,
                RigidEdit::Surface(mu, e) => {
                    def.friction = mu;
                    def.restitution = e;
                }
                RigidEdit::Fixed(_) => {} // Save as reads it from the world
            }
        }
    }

    /// Each joint between rigid bodies: what it holds, its compliance, its
    /// limits and a hinge's motor.
    pub(super) fn rigid_joints_section(&mut self, ui: &mut egui::Ui) {
        let joints = &self.world.rigids().joints;
        if joints.is_empty() {
            return;
        }
        let mut edits = Vec::new();
        let pbd = self.world.settings.method == Method::Pbd;
        egui::CollapsingHeader::new(format!("joints ({})", joints.len()))
            .default_open(false)
            .show(ui, |ui| {
                let rigids = self.world.rigids();
                for (j, joint) in rigids.joints.iter().enumerate() {
                    let body = |r: usize| rigids.bodies[r].body;
                    let other = joint
                        .b
                        .map_or("the world".into(), |r| format!("body {}", body(r)));
                    let kind = match joint.kind {
                        JointKind::Ball => "ball",
                        JointKind::Hinge(_) => "hinge",
                        JointKind::Slider(_) => "slider",
                        JointKind::Fixed => "fixed",
                    };
                    ui.label(format!("{j}: {kind}, body {} – {other}", body(joint.a)));
                    let mut edit = JointEdit {
                        j,
                        compliance: joint.compliance,
                        limits: joint.limits,
                        motor: joint.motor,
                    };
                    let mut changed = false;
                    ui.add_enabled_ui(!pbd, |ui| {
                        if let Some(v) = compliance_ui(ui, "compliance", joint.compliance) {
                            edit.compliance = v;
                            changed = true;
                        }
                    });
                    let now = joint.position(&rigids.bodies);
                    changed |= limits_ui(ui, joint.kind, now, &mut edit.limits);
                    if let JointKind::Hinge(_) = joint.kind {
                        changed |= motor_ui(ui, joint.motor_torque, &mut edit.motor);
                    }
                    if changed {
                        edits.push(edit);
                    }
                }
            });
        for e in edits {
            let apply = |w: &mut World| {
                w.set_joint_compliance(e.j, e.compliance, e.limits);
                w.set_joint_motor(e.j, e.motor);
            };
            apply(&mut self.world);
            self.twin_do(apply);
            // Kept by Reset.
            let def = &mut self.scene.joints[e.j];
            def.compliance = e.compliance;
            def.limits = e.limits;
            def.motor = e.motor.map(|m| crate::scene::MotorDef {
                speed: m.speed,
                max_torque: m.max_torque,
            });
        }
    }
}

/// A hinge's angle or a slider's travel limits: a switch and the two ends.
/// Switched on, they start 0.5 either side of where the joint is now.
fn limits_ui(
    ui: &mut egui::Ui,
    kind: JointKind,
    now: f32,
    limits: &mut Option<(f32, f32)>,
) -> bool {
    let (bounds, unit) = match kind {
        JointKind::Hinge(_) => (limits::HINGE_ANGLE, "rad"),
        JointKind::Slider(_) => (limits::OFFSET, "m"),
        JointKind::Ball | JointKind::Fixed => return false,
    };
    let mut on = limits.is_some();
    let mut changed = false;
    ui.horizontal(|ui| {
        if ui
            .checkbox(&mut on, "limits")
            .on_hover_text(format!(
                "the joint stops at these ends ({unit}; now {now:.2}): an angle about a \
                 hinge's axis, a travel along a slider's"
            ))
            .changed()
        {
            changed = true;
            *limits = on.then(|| {
                let (lo, hi) = bounds.range().into_inner();
                ((now - 0.5).max(lo), (now + 0.5).min(hi))
            });
        }
        if let Some((lo, hi)) = limits {
            let range = bounds.range();
            changed |= ui
                .add(
                    egui::DragValue::new(lo)
                        .range(*range.start()..=*hi)
                        .speed(0.01),
                )
                .changed();
            changed |= ui
                .add(
                    egui::DragValue::new(hi)
                        .range(*lo..=*range.end())
                        .speed(0.01),
                )
                .changed();
            ui.label(unit);
        }
    });
    changed
}

/// A hinge's motor: a switch, its speed and its torque limit; the torque it
/// gave last substep beside them.
fn motor_ui(ui: &mut egui::Ui, torque: f32, motor: &mut Option<Motor>) -> bool {
    let mut on = motor.is_some();
    let mut changed = false;
    if ui
        .checkbox(&mut on, "motor")
        .on_hover_text(
            "turns the hinge toward a speed with no more than a torque: a load past it \
             slows it, and the hand can stall it",
        )
        .changed()
    {
        changed = true;
        *motor = on.then_some(Motor {
            speed: 1.0,
            max_torque: 10.0,
        });
    }
    if let Some(m) = motor {
        changed |= ui
            .add(slider(&mut m.speed, -20.0..=20.0).text("speed rad/s"))
            .on_hover_text("the speed it turns the first body at, relative to the second")
            .changed();
        changed |= ui
            .add(
                slider(&mut m.max_torque, 0.01..=1e4)
                    .logarithmic(true)
                    .text("max torque N·m"),
            )
            .changed();
        ui.label(format!("torque now {torque:.2} N·m"));
    }
    changed
}
