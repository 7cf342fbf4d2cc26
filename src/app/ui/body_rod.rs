//! The panel's part for Cosserat rods: the twist a rod holds now, its
//! Young's and shear moduli (bending and twisting stiffness), its radius,
//! its solver
//! (the direct solve or Gauss–Seidel, to watch the difference), a clamp
//! at either end and a half turn of a clamped end either way.

use egui_macroquad::egui;

use super::widgets::slider;
use crate::edit::Edit;
use crate::solver::World;
use crate::solver::rods::RodSolver;
use crate::solver::{Method, limits};

/// Body `b`'s rod controls, if it is a rod; returns what the user
/// changed.
pub fn ui(ui: &mut egui::Ui, world: &World, b: usize) -> Vec<Edit> {
    let Some((m, solver)) = world.rod_material(b) else {
        return Vec::new();
    };
    let mut edits = Vec::new();
    // Rounding noise would read "-0.00".
    let turns = (world.rods().twist_turns(b)).filter(|t| t.abs() >= 0.005);
    let turns = turns.unwrap_or(0.0);
    ui.label(format!("twist {turns:+.2} turns")).on_hover_text(
        "the turn of its last segment's frame about the rod relative to its first \
         (the stripe along the tube winds round once a turn)",
    );
    let pbd = world.settings.method == Method::Pbd;
    if let Some(critical) = world.greenhill_turns(b).filter(|_| !pbd) {
        ui.label(format!("buckles past {critical:.2} turns (Greenhill)"))
            .on_hover_text(format!(
                "Greenhill's critical twist for a rod clamped at both ends: the moment \
                 M = {:.2}·E·I/L turns its end by M·L/(G·J). Twisted further, the straight \
                 rod is unstable and coils out of its line (its ends must be free to come \
                 closer, or the rod free to stretch, for the coil to grow)",
                crate::solver::GREENHILL_CLAMPED
            ));
    }
    ui.add_enabled_ui(!pbd, |ui| {
        let (mut e, mut g) = (m.young_modulus, m.shear_modulus);
        let modulus = |value| {
            slider(value, limits::ROD_MODULUS.range())
                .logarithmic(true)
                .custom_formatter(|x, _| format!("{x:.2e}"))
        };
        let bend = ui
            .add(modulus(&mut e).text("E Pa"))
            .on_hover_text(
                "Young's modulus: the bending stiffness is E·I, I = πr⁴/4 (rubber 1e6–1e7, \
                 nylon 3e9, steel 2e11); half of E, twice the sag",
            )
            .changed();
        let twist = ui
            .add(modulus(&mut g).text("G Pa"))
            .on_hover_text(
                "shear modulus: the twisting stiffness is G·J, J = πr⁴/2 (about E/2.6 for \
                 most solids)",
            )
            .changed();
        if bend || twist {
            edits.push(Edit::RodModuli(b, e, g));
        }
    })
    .response
    .on_disabled_hover_text("PBD has no material: stiffness k and the substep count set it");
    let widest = world.rod_widest_radius(b).unwrap_or(limits::ROD_RADIUS.max);
    let mut radius = m.radius;
    if ui
        .add(
            slider(
                &mut radius,
                limits::ROD_RADIUS.min..=widest.max(limits::ROD_RADIUS.min),
            )
            .logarithmic(true)
            .custom_formatter(|x, _| format!("{x:.2e}"))
            .text("radius m"),
        )
        .on_hover_text(
            "the cross-section's radius: bending and twisting stiffness go as r⁴, the \
             mass as r² — double it and a cantilever sags a quarter as far; up to twice \
             its segments' length while its particles collide",
        )
        .changed()
    {
        edits.push(Edit::RodRadius(b, radius));
    }
    ui.horizontal(|ui| {
        ui.label("solver");
        let mut direct = solver == RodSolver::Direct;
        let all = ui
            .selectable_value(&mut direct, true, "direct")
            .on_hover_text(
                "all its joints at once (a block-tridiagonal solve): a stiff rod holds \
                 its stiffness in one pass",
            );
        let one = ui
            .selectable_value(&mut direct, false, "Gauss–Seidel")
            .on_hover_text(
                "one joint after another: cheap, but news travels one joint a pass, so a \
                 stiff rod of thin segments bends far more than its E allows",
            );
        if all.changed() || one.changed() {
            edits.push(Edit::RodDirect(b, direct));
        }
    });
    let last = world.rods().segments_of(b).len();
    ui.horizontal(|ui| {
        for (k, label) in [(0, "clamp start"), (last, "clamp end")] {
            let rods = world.rods();
            let held = (world.rod_particle(b, k)).is_some_and(|i| world.particles.is_pinned(i));
            let mut on = held && rods.is_clamped(b, k);
            if ui
                .checkbox(&mut on, label)
                .on_hover_text(
                    "holds the end's position and its segment's frame, as a vice does \
                     (a pin holds the position only and lets it turn)",
                )
                .changed()
            {
                edits.push(Edit::Clamp(b, k, on));
            }
        }
    });
    let clamped: Vec<_> = [(0, "start"), (last, "end")]
        .into_iter()
        .filter(|&(k, _)| world.rods().is_clamped(b, k))
        .collect();
    if !clamped.is_empty() {
        ui.horizontal(|ui| {
            ui.label("turn");
            for (k, end) in clamped {
                for (turns, sign) in [(-0.5, "−"), (0.5, "+")] {
                    if ui
                        .button(format!("{end} {sign}½"))
                        .on_hover_text(format!(
                            "turns the clamped {end} half a turn about the rod (+: right-handed \
                             about its tangent) over {:.1} s: watch the stripe wind as the twist \
                             spreads along it and, past Greenhill's twist, the rod coil",
                            0.5 / crate::edit::ROD_TURN_RATE
                        ))
                        .clicked()
                    {
                        edits.push(Edit::RodTurn(b, k, turns));
                    }
                }
            }
        });
    }
    edits
}
