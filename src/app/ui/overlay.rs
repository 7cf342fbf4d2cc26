//! What egui draws over the 3D view: the scene-error banner, the colour
//! legend and the help window.

use egui_macroquad::egui::{self, Color32, RichText};

use crate::app::App;
use crate::app::render::{ColourMode, colormap};
use crate::solver::Shape;

impl App {
    pub(in crate::app) fn error_banner(&mut self, ctx: &egui::Context) {
        if self.errors.is_empty() {
            return;
        }
        egui::TopBottomPanel::top("errors").show(ctx, |ui| {
            // In the browser there is no file to fix: the scene came in the
            // link (#scene=) or from the picker.
            let what = if crate::app::shell::platform::WEB {
                "Scene error — still running the last good scene; fix the scene text in the link (#scene=…):"
            } else {
                "Scene error — still running the last good scene; fix the file and save to reload:"
            };
            ui.label(
                RichText::new(what)
                    .color(Color32::from_rgb(255, 120, 100))
                    .strong(),
            );
            for e in &self.errors {
                ui.label(RichText::new(e).color(Color32::from_rgb(255, 170, 150)).monospace());
            }
        });
    }

    /// "0.4× real time" in the view's top-left corner while the solver
    /// cannot keep up with the wall clock (the world then runs slower
    /// rather than taking larger steps).
    pub(in crate::app) fn realtime_badge(&mut self, ctx: &egui::Context) {
        if self.paused || self.realtime > 0.95 {
            return;
        }
        // In the view left by the panels, so the error banner above it
        // never covers it; in compare mode at the bottom, where the lane
        // labels leave room.
        let view = ctx.available_rect();
        let at = if self.twin.is_some() {
            view.center_bottom() + egui::vec2(-60.0, -40.0)
        } else {
            view.left_top() + egui::vec2(10.0, 10.0)
        };
        egui::Area::new(egui::Id::new("realtime"))
            .fixed_pos(at)
            .interactable(false)
            .show(ctx, |ui| {
                ui.label(
                    RichText::new(format!("{:.1}× real time", self.realtime))
                        .color(Color32::from_rgb(255, 200, 90))
                        .strong()
                        .size(18.0),
                )
                .on_hover_text("the solver needs longer per frame than a frame lasts: fewer substeps or iterations make it real time");
            });
    }

    /// The scene's caption in the view's top-left corner.
    pub(in crate::app) fn caption(&mut self, ctx: &egui::Context) {
        let Some(text) = self
            .scene
            .caption
            .as_deref()
            .filter(|_| self.display.caption)
        else {
            return;
        };
        let view = ctx.available_rect();
        // In compare mode a lesson's compare caption stands at the top
        // between the lanes, narrow enough to clear both lanes' pins; a
        // scene without one folds its caption to one line there (its full
        // text on hover): unfolded at the top left it covered the left
        // lane's pin, and a lesson's "flip PBD ↔ XPBD" is moot when both
        // run side by side.
        let compare = self.twin.is_some();
        let lanes = self.scene.compare_caption.as_deref().filter(|_| compare);
        let area = egui::Area::new(egui::Id::new("caption")).interactable(compare);
        let area = if compare {
            area.fixed_pos(view.center_top() + egui::vec2(-180.0, 8.0))
        } else {
            area.fixed_pos(view.left_top() + egui::vec2(10.0, 40.0))
        };
        let shown = area.show(ctx, |ui| {
            let frame = egui::Frame::new()
                .fill(Color32::from_black_alpha(150))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(10, 8))
                .show(ui, |ui| {
                    if compare && lanes.is_none() {
                        ui.set_max_width(340.0);
                        ui.label(
                            RichText::new(format!(
                                "{} — each lane its own method and steps (hover)",
                                self.scene.name
                            ))
                            .color(Color32::WHITE),
                        );
                        return;
                    }
                    let width: f32 = if compare { 340.0 } else { 420.0 };
                    ui.set_max_width(width.min(view.width() - 40.0));
                    ui.label(
                        RichText::new(&self.scene.name)
                            .strong()
                            .color(Color32::WHITE),
                    );
                    let body = lanes.unwrap_or(text);
                    ui.label(RichText::new(body).color(Color32::from_gray(225)));
                });
            if compare {
                frame.response.on_hover_text(text);
            }
        });
        (self.layout).keep("caption", shown.response.rect, ctx.pixels_per_point());
    }

    /// How visible the start-up hint is: 1 until the first interaction,
    /// then fading to 0 over a second.
    pub(in crate::app) fn hint_opacity(&self) -> f32 {
        self.hint_faded_from.map_or(1.0, |t| {
            (1.0 - (macroquad::time::get_time() - t) as f32).max(0.0)
        })
    }

    /// "drag the rope · right-click to pin · H for help" over the view
    /// (naming the scene's first body), until the user does something.
    pub(in crate::app) fn start_hint(&mut self, ctx: &egui::Context) {
        let alpha = self.hint_opacity();
        if alpha <= 0.0 {
            return;
        }
        let view = ctx.available_rect();
        egui::Area::new(egui::Id::new("hint"))
            .pivot(egui::Align2::CENTER_BOTTOM)
            .fixed_pos(egui::pos2(view.center().x, view.bottom() - 24.0))
            .interactable(false)
            .show(ctx, |ui| {
                let a = (alpha * 255.0) as u8;
                egui::Frame::new()
                    .fill(Color32::from_black_alpha((alpha * 170.0) as u8))
                    .corner_radius(6.0)
                    .inner_margin(egui::Margin::symmetric(12, 6))
                    .show(ui, |ui| {
                        // The first body with particles, else a rigid one.
                        let first = (self.world.bodies().iter())
                            .find(|b| b.shape != Shape::Rigid)
                            .map(|b| &b.shape);
                        let what = match first {
                            Some(Shape::Rope) => Some("the rope"),
                            Some(Shape::Cloth { .. }) => Some("the cloth"),
                            Some(Shape::Closed { .. }) => Some("the body"),
                            Some(Shape::Mesh | Shape::Rigid) => Some("a particle"),
                            None => None,
                        };
                        let hint = match what {
                            Some(what) => format!(
                                "drag {what} · right-click to pin · scroll to zoom · H for help"
                            ),
                            None if !self.world.rigids().is_empty() => {
                                "drag a body · right-click to fix it · scroll to zoom · H for help"
                                    .to_string()
                            }
                            None => "drag to orbit · scroll to zoom · H for help".to_string(),
                        };
                        ui.label(
                            RichText::new(hint)
                                .color(Color32::from_rgba_unmultiplied(235, 235, 235, a))
                                .size(16.0),
                        );
                    });
            });
    }

    /// Beside the cursor over a rope or mesh link (unless a pin is
    /// hovered, which shows its force): its tension, strain and compliance.
    pub(in crate::app) fn link_badge(&mut self, ctx: &egui::Context) {
        let pin_hovered = self
            .mouse
            .hovered
            .is_some_and(|i| self.world.pin_force(i).is_some());
        if pin_hovered || self.world.grabbed().is_some() {
            return;
        }
        let Some(cursor) = self.mouse.over_world else {
            return;
        };
        let (world, camera) = self.lane_under_cursor();
        let Some(link) = crate::app::shell::interact::pick_link(world, &camera, cursor) else {
            let joint = crate::app::shell::interact::pick_rod_joint(world, &camera, cursor)
                .and_then(|(b, j)| Some((j, world.rod_joint(b, j)?)));
            if let Some((j, at)) = joint {
                let text = format!(
                    "rod joint {j}: bending {:.4} N·m, twisting {:+.4} N·m, {:+.2} turns from the start",
                    at.bending, at.twisting, at.turns
                );
                badge(ctx, "link", text);
            }
            return;
        };
        let tension = world.tension(link.lambda);
        let strain = link.strain(world.particles.pos());
        let unit = if world.settings.method == crate::solver::Method::Pbd
            && world.settings.pbd_stiffness != 1.0
        {
            " (not a force)"
        } else {
            " N"
        };
        let text = format!(
            "link {}–{}: tension {tension:.3}{unit}, strain {:.3}%, α {} m/N",
            link.a,
            link.b,
            strain * 100.0,
            crate::solver::limits::number(link.compliance)
        );
        badge(ctx, "link", text);
    }

    /// Beside the cursor: the force a hovered pin (or driver) exerts.
    pub(in crate::app) fn pin_badge(&mut self, ctx: &egui::Context) {
        let Some(force) = self
            .mouse
            .hovered
            .filter(|_| self.world.grabbed().is_none())
            .and_then(|i| self.world.pin_force(i))
        else {
            return;
        };
        let at = ctx.pointer_latest_pos().unwrap_or_default() + egui::vec2(16.0, 12.0);
        let text = format!(
            "pin holds {:.2} N  ({:.2}, {:.2}, {:.2})",
            force.length(),
            force.x,
            force.y,
            force.z
        );
        egui::Area::new(egui::Id::new("pin"))
            .fixed_pos(at)
            .interactable(false)
            .show(ctx, |ui| {
                ui.add(
                    egui::Label::new(RichText::new(text).color(Color32::WHITE).strong())
                        .wrap_mode(egui::TextWrapMode::Extend),
                )
                .on_hover_text("−Σ λ·∇C/h² over its links: the force it holds the body with");
            });
    }

    /// The hand's force beside the cursor while it pulls a particle.
    pub(in crate::app) fn hand_badge(&mut self, ctx: &egui::Context) {
        let Some(force) = self.world.hand_force() else {
            return;
        };
        let max = self.world.hand().max_force;
        let at = ctx.pointer_latest_pos().unwrap_or_default() + egui::vec2(16.0, 12.0);
        let colour = if force >= 0.999 * max {
            Color32::from_rgb(255, 150, 90) // at full strength: the particle lags
        } else {
            Color32::from_rgb(230, 230, 230)
        };
        egui::Area::new(egui::Id::new("hand"))
            .fixed_pos(at)
            .interactable(false)
            .show(ctx, |ui| {
                let text = format!("hand {force:.1} N of {max:.1} N");
                ui.add(
                    egui::Label::new(RichText::new(text).color(colour).strong())
                        .wrap_mode(egui::TextWrapMode::Extend),
                );
            });
    }

    pub(in crate::app) fn legend(&mut self, ctx: &egui::Context) {
        let (title, unit) = match self.display.colour {
            ColourMode::Plain => return,
            ColourMode::Strain => ("strain", "%"),
            ColourMode::Tension => ("tension", "N"),
        };
        let max = self.renderer.scale_max * if unit == "%" { 100.0 } else { 1.0 };
        // Bottom left of the 3D view, clear of the plots below it.
        let ppp = ctx.pixels_per_point();
        let view = self.camera.view;
        let shown = egui::Area::new(egui::Id::new("legend"))
            .pivot(egui::Align2::LEFT_BOTTOM)
            .fixed_pos(egui::pos2(
                view.x / ppp + 12.0,
                (view.y + view.h) / ppp - 12.0,
            ))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(format!("{title} ({unit})"));
                    let (rect, _) =
                        ui.allocate_exact_size(egui::vec2(200.0, 14.0), egui::Sense::hover());
                    let steps = 40;
                    for k in 0..steps {
                        let c = colormap(k as f32 / (steps - 1) as f32);
                        let x0 = rect.left() + rect.width() * k as f32 / steps as f32;
                        let x1 = rect.left() + rect.width() * (k + 1) as f32 / steps as f32;
                        let r = egui::Rect::from_min_max(
                            egui::pos2(x0, rect.top()),
                            egui::pos2(x1, rect.bottom()),
                        );
                        let [cr, cg, cb] = c.map(|v| (v * 255.0) as u8);
                        ui.painter()
                            .rect_filled(r, 0.0, Color32::from_rgb(cr, cg, cb));
                    }
                    ui.horizontal(|ui| {
                        ui.label("0");
                        ui.add_space(150.0);
                        ui.label(format!("{max:.3}"));
                    });
                });
            });
        self.layout.keep("legend", shown.response.rect, ppp);
    }

    pub(in crate::app) fn help_window(&mut self, ctx: &egui::Context) {
        egui::Window::new("Controls")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .open(&mut self.help)
            .show(ctx, |ui| {
                egui::Grid::new("help")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        for (k, v) in CONTROLS {
                            ui.label(RichText::new(*k).strong());
                            ui.label(*v);
                            ui.end_row();
                        }
                    });
            });
    }
}

/// Every control of the window (also in docs/guide.md).
pub const CONTROLS: &[(&str, &str)] = &[
    (
        "left-drag a particle",
        "pull it (on a plane facing the camera) with the hand's strength; release to throw",
    ),
    ("left-drag empty space", "orbit the camera"),
    ("middle-drag", "pan"),
    ("scroll", "zoom"),
    (
        "right-click / P",
        "pin or unpin the particle under the cursor",
    ),
    ("Space", "pause / run"),
    ("S", "single step while paused"),
    (
        "Ctrl+S",
        "save as (the path in the panel), with the world's state",
    ),
    (
        "R",
        "reset to the scene and its camera (solver settings kept)",
    ),
    ("F / Home", "frame the scene: look at all of it"),
    ("H / F1", "this help"),
    ("Esc", "close this help"),
];

/// `text` beside the cursor, white on the view (an egui area named `id`).
fn badge(ctx: &egui::Context, id: &str, text: String) {
    let at = ctx.pointer_latest_pos().unwrap_or_default() + egui::vec2(16.0, 12.0);
    egui::Area::new(egui::Id::new(id))
        .fixed_pos(at)
        .interactable(false)
        .show(ctx, |ui| {
            ui.add(
                egui::Label::new(RichText::new(text).color(Color32::WHITE))
                    .wrap_mode(egui::TextWrapMode::Extend),
            );
        });
}
