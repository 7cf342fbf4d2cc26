//! The panel's part for rigid bodies and their joints: a body's density,
//! friction, restitution and `fixed` switch; a joint's compliance, limits and (a
//! hinge's) motor.

use egui_macroquad::egui;

use super::Ask;
use super::widgets::{compliance_ui, slider};
use crate::edit::Edit;
use crate::solver::World;
use crate::solver::rigid::{JointKind, Motor};
use crate::solver::{Method, limits};

/// Body `b`'s rigid-body controls, if it is one: what the user changed,
/// and the `fixed` switch when it was flipped (which the recorder sees
/// in the world, as it sees a right-click).
pub fn ui(ui: &mut egui::Ui, world: &World, b: usize) -> (Option<Edit>, Option<bool>) {
    let Some(r) = world.rigids().of_body(b) else {
        return (None, None);
    };
    let body = &world.rigids().bodies[r];
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
        edit = Some(Edit::RigidMass(r, density * body.shape.volume()));
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
        edit = Some(Edit::RigidSurface(r, mu, body.restitution));
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
        edit = Some(Edit::RigidSurface(r, body.friction, e));
    }
    let mut fixed = body.fixed;
    let flipped = ui
        .checkbox(&mut fixed, "fixed")
        .on_hover_text("never moves: an anchor for joints and ropes (right-click it, too)")
        .changed();
    (edit, flipped.then_some(fixed))
}

/// Each joint between rigid bodies: what it holds, its compliance, its
/// limits and a hinge's motor.
pub fn joints_ui(ui: &mut egui::Ui, world: &World, asks: &mut Vec<Ask>) {
    let joints = &world.rigids().joints;
    if joints.is_empty() {
        return;
    }
    let pbd = world.settings.method == Method::Pbd;
    egui::CollapsingHeader::new(format!("joints ({})", joints.len()))
        .default_open(false)
        .show(ui, |ui| {
            let rigids = world.rigids();
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
                let (mut alpha, mut limits, mut motor) =
                    (joint.compliance, joint.limits, joint.motor);
                let mut changed = false;
                ui.add_enabled_ui(!pbd, |ui| {
                    if let Some(v) = compliance_ui(ui, "compliance", joint.compliance) {
                        alpha = v;
                        changed = true;
                    }
                });
                let now = joint.position(&rigids.bodies);
                changed |= limits_ui(ui, joint.kind, now, &mut limits);
                if let JointKind::Hinge(_) = joint.kind {
                    changed |= motor_ui(ui, joint.motor_torque, &mut motor);
                }
                if changed {
                    let motor = motor.map(|m: Motor| (m.speed, m.max_torque));
                    asks.push(Ask::Edit(Edit::Joint(j, alpha, limits, motor)));
                }
            }
        });
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
