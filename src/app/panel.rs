//! The egui side: control panel, error banner, colour legend, help.

use std::path::{Path, PathBuf};

use egui_macroquad::egui::{self, RichText};

use super::{App, platform};
use crate::scene;
use crate::solver::{Method, limits};

/// Seconds of solver time per frame above which a substeps × iterations
/// choice waits for a confirmation: under 10 frames a second the window
/// no longer follows the hand.
const COSTLY_S: f64 = 0.1;

/// Text fields and the scene list.
pub struct PanelState {
    /// Substeps × iterations chosen on the sliders but too costly to apply
    /// without a confirmation.
    pending_counts: Option<(u32, u32)>,
    scene_files: Vec<PathBuf>,
    open_path: String,
    save_path: String,
}

impl PanelState {
    /// Lists the `.ron` files beside the opened scene, or in ./scenes.
    pub fn new(opened: Option<&Path>) -> Self {
        let dir = opened
            .and_then(Path::parent)
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("scenes"));
        Self {
            pending_counts: None,
            scene_files: platform::scene_files(&dir),
            open_path: opened.map(|p| p.display().to_string()).unwrap_or_default(),
            save_path: opened
                .map(|p| p.with_extension("edited.ron").display().to_string())
                .unwrap_or_else(|| "my_scene.ron".into()),
        }
    }
}

impl PanelState {
    /// Where Save as writes (the text field; Ctrl+S uses it too).
    pub fn save_path(&self) -> &str {
        &self.save_path
    }

    /// The save path as a path.
    pub fn save_path_buf(&self) -> PathBuf {
        PathBuf::from(self.save_path.trim())
    }

    /// The Open… field as a path.
    pub fn open_path_buf(&self) -> PathBuf {
        PathBuf::from(self.open_path.trim())
    }
}

/// A slider that never changes a value it did not set: a scene's value
/// outside the slider's range (say 500 substeps) stays as it is until the
/// user moves the slider.
pub(super) fn slider<'a, N: egui::emath::Numeric>(
    value: &'a mut N,
    range: std::ops::RangeInclusive<N>,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

impl PanelState {
    /// Substeps × iterations chosen but not applied: being dragged, or
    /// waiting for Apply.
    pub(super) fn pending(&self) -> Option<(u32, u32)> {
        self.pending_counts
    }
}

impl App {
    pub(super) fn side_panel(&mut self, ctx: &egui::Context) {
        // However far it is dragged, the view keeps at least 360 px.
        let widest = (ctx.screen_rect().width() - 360.0).max(200.0);
        egui::SidePanel::right("controls")
            .default_width(310.0)
            .max_width(widest)
            .resizable(true)
            .show(ctx, |ui| {
                let scrolled = egui::ScrollArea::vertical().show(ui, |ui| {
                    self.scene_section(ui);
                    ui.separator();
                    self.solver_section(ui);
                    ui.separator();
                    self.compare_section(ui);
                    ui.separator();
                    let (scene, world) = (&self.scene, &self.world);
                    self.sweep.ui(ui, || {
                        let mut scene = scene.clone();
                        scene.capture(world);
                        scene
                    });
                    ui.separator();
                    self.display_section(ui);
                    ui.separator();
                    self.stats_section(ui);
                    ui.separator();
                    self.bodies_section(ui);
                });
                self.panel_scroll = scrolled.state.offset.y;
            });
    }

    fn scene_section(&mut self, ui: &mut egui::Ui) {
        ui.heading(&self.scene.name);
        let current = self.source_name();
        let mut pick = None;
        let mut pick_builtin = None;
        egui::ComboBox::from_label("scene")
            .selected_text(&current)
            .width(200.0)
            .show_ui(ui, |ui| {
                if !self.panel.scene_files.is_empty() {
                    ui.label(RichText::new("files (reload when saved)").small());
                }
                for f in &self.panel.scene_files {
                    let name = f.file_name().unwrap_or_default().to_string_lossy();
                    if ui
                        .selectable_label(current == f.display().to_string(), name)
                        .clicked()
                    {
                        pick = Some(f.clone());
                    }
                }
                ui.label(RichText::new("built in").small());
                for &(name, _) in scene::BUILTIN {
                    let selected = matches!(self.source, super::Source::Builtin(n) if n == name);
                    if ui.selectable_label(selected, name).clicked() {
                        pick_builtin = Some(name);
                    }
                }
            })
            .response
            .on_hover_text("the .ron files beside the opened scene (or in ./scenes), and every scene built into catenary");
        if let Some(name) = pick_builtin {
            self.open_builtin(name);
        }
        if !platform::WEB {
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.panel.open_path).desired_width(190.0))
                    .on_hover_text("path of a scene file to open");
                if ui.button("Open…").clicked() {
                    pick = Some(PathBuf::from(self.panel.open_path.trim()));
                }
            });
        }
        if let Some(path) = pick {
            self.panel.open_path = path.display().to_string();
            self.open(&path);
        }
        ui.horizontal(|ui| {
            if ui
                .button("Edit…")
                .on_hover_text("the scene's text: edit it, see errors as you type, Apply")
                .clicked()
            {
                self.open_editor();
            }
            if !platform::WEB
                && ui
                    .button("Reload")
                    .on_hover_text("re-read the scene file")
                    .clicked()
            {
                self.reload();
            }
            if ui
                .button("Reset (R)")
                .on_hover_text("restart from the scene, keeping the solver settings")
                .clicked()
            {
                self.reset();
            }
            let label = if self.paused {
                "Run (Space)"
            } else {
                "Pause (Space)"
            };
            if ui.button(label).clicked() {
                self.paused = !self.paused;
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.panel.save_path).desired_width(190.0))
                .on_hover_text(
                    "where to save the scene with your edits (settings, pins, compliances, camera)",
                );
            let hover = if platform::WEB {
                "download the scene with your edits and the world's state under this name"
            } else {
                "write the scene with your edits and the world's state to this file"
            };
            if ui.button("Save as").on_hover_text(hover).clicked() {
                let path = PathBuf::from(self.panel.save_path.trim());
                self.save_as(&path);
            }
        });
        if platform::WEB
            && ui
                .button("Copy link")
                .on_hover_text(
                    "a link that opens this setup (settings, pins, compliances, camera; \
                     not the motion): in the address bar and on the clipboard",
                )
                .clicked()
        {
            let text = self.captured_scene(false).to_ron();
            self.status = platform::share(&text);
        }
        self.recording_row(ui);
        if !self.status.is_empty() {
            // Wrapped within the default panel width, so a long message
            // never widens the panel (and moves the buttons under the cursor).
            ui.scope(|ui| {
                ui.set_max_width(ui.available_width().min(290.0));
                ui.add(egui::Label::new(RichText::new(&self.status).small()).wrap());
            });
        }
    }

    fn solver_section(&mut self, ui: &mut egui::Ui) {
        let s = &mut self.world.settings;
        ui.horizontal(|ui| {
            ui.label("method");
            ui.selectable_value(&mut s.method, Method::Xpbd, "XPBD")
                .on_hover_text("compliance in m/N: stiffness independent of substeps");
            ui.selectable_value(&mut s.method, Method::Pbd, "PBD")
                .on_hover_text(
                    "classic PBD: stiffness k per projection, depends on substeps and iterations",
                );
        });
        // Substeps and iterations set the cost. While a slider is dragged
        // nothing is applied (every value on its way up would be, and
        // 200 × 35 left the window at 4 fps); on release a choice that
        // would take longer than COSTLY_S per frame waits for Apply, and
        // Cancel leaves the settings as they were before the drag.
        let (mut substeps, mut iterations) = self
            .panel
            .pending_counts
            .unwrap_or((s.substeps, s.iterations));
        let sub_slider = ui
            .add(
                slider(&mut substeps, 1..=200)
                    .logarithmic(true)
                    .text("substeps"),
            )
            .on_hover_text("substeps per frame; h = dt / substeps");
        let it_slider = ui
            .add(
                slider(&mut iterations, 1..=100)
                    .logarithmic(true)
                    .text("iterations"),
            )
            .on_hover_text("Gauss–Seidel passes over all constraints per substep");
        let dragging = sub_slider.dragged() || it_slider.dragged();
        if (substeps, iterations) == (s.substeps, s.iterations) {
            self.panel.pending_counts = None;
        } else if dragging {
            self.panel.pending_counts = Some((substeps, iterations));
        } else {
            let passes = substeps as f64 * iterations as f64;
            let cost = self.world.constraints.len() as f64 * passes / self.timing.projection_rate();
            if cost <= COSTLY_S {
                s.substeps = substeps;
                s.iterations = iterations;
                self.panel.pending_counts = None;
            } else {
                self.panel.pending_counts = Some((substeps, iterations));
            }
        }
        if let Some((sub, it)) = self.panel.pending_counts.filter(|_| !dragging) {
            let cost = self.world.constraints.len() as f64 * (sub as f64 * it as f64)
                / self.timing.projection_rate();
            ui.label(
                RichText::new(format!(
                    "{sub} × {it} would take ≈ {cost:.1} s per frame: the window would answer \
                     only that often"
                ))
                .color(egui::Color32::from_rgb(255, 200, 90)),
            );
            ui.horizontal(|ui| {
                if ui.button("Apply").clicked() {
                    s.substeps = sub;
                    s.iterations = it;
                    self.panel.pending_counts = None;
                }
                if ui.button("Cancel").clicked() {
                    self.panel.pending_counts = None;
                }
            });
        }
        ui.add(
            slider(&mut s.dt, 1.0 / 480.0..=1.0 / 15.0)
                .logarithmic(true)
                .text("dt s")
                .custom_formatter(|x, _| format!("{:.4} (1/{:.0})", x, 1.0 / x)),
        )
        .on_hover_text("simulated seconds per frame");
        ui.add(
            slider(&mut s.damping, limits::DAMPING.range())
                .logarithmic(true)
                .max_decimals(2)
                .text("damping β kg/s"),
        )
        .on_hover_text(
            "a dashpot along every constraint (both methods): removes the fraction \
             β(w_a+w_b)h/(1+β(w_a+w_b)h) of each link's stretching speed per substep. \
             Damps stretching and bending, not free swinging; never moves the rest shape \
             and only takes energy out, at any value",
        );
        ui.add(
            slider(&mut s.air_drag, 0.0..=20.0)
                .logarithmic(true)
                .max_decimals(2)
                .text("air drag 1/s"),
        )
        .on_hover_text("velocity relaxes toward the wind at this rate");
        ui.horizontal(|ui| {
            ui.label("wind m/s")
                .on_hover_text("air velocity; acts through air drag");
            for k in 0..3 {
                ui.add(
                    egui::DragValue::new(&mut s.wind[k])
                        .speed(0.1)
                        .range(limits::WIND.range()),
                );
            }
        });
        ui.add(
            slider(&mut s.air_density, 0.0..=10.0)
                .max_decimals(2)
                .text("air density kg/m³"),
        )
        .on_hover_text(
            "ρ for the drag and lift on cloth triangles (a cloth's aero_drag and aero_lift \
             in its scene); 1.2 is air at sea level",
        );
        ui.add(slider(&mut s.gravity.y, -30.0..=0.0).text("gravity y m/s²"))
            .on_hover_text("vertical gravity; Earth is −9.81");
        ui.add_enabled(
            s.method == Method::Pbd,
            slider(&mut s.pbd_stiffness, 0.001..=1.0)
                .logarithmic(true)
                .text("PBD stiffness k"),
        )
        .on_hover_text("PBD only: fraction of the error corrected per projection");
        ui.add(
            slider(&mut self.time_scale, 0.05..=2.0)
                .logarithmic(true)
                .text("time scale"),
        )
        .on_hover_text("simulated seconds per real second (slow motion below 1)");
        self.hand_row(ui);
        let mut between = self.world.body_collisions();
        if ui
            .checkbox(&mut between, "collisions between bodies")
            .on_hover_text(
                "particles of different bodies push each other apart, and meet the other \
                 bodies' cloth and skin triangles",
            )
            .changed()
        {
            self.edit(crate::edit::Edit::BodyCollisions(between));
        }
    }

    /// The hand's strength: a capped pull, or kinematic (no limit).
    fn hand_row(&mut self, ui: &mut egui::Ui) {
        let mut hand = self.world.hand();
        let mut kinematic = hand.is_kinematic();
        let mut force = if kinematic {
            crate::solver::Hand::suited_to(&self.world).max_force
        } else {
            hand.max_force
        };
        let mut changed = false;
        ui.horizontal(|ui| {
            changed |= ui
                .checkbox(&mut kinematic, "kinematic")
                .on_hover_text(
                    "the held particle goes exactly where the cursor is, whatever force that takes",
                )
                .changed();
            ui.add_enabled_ui(!kinematic, |ui| {
                changed |= ui
                    .add(
                        slider(&mut force, limits::HAND_FORCE.range())
                            .logarithmic(true)
                            .text("hand N"),
                    )
                    .on_hover_text(
                        "the largest force the mouse pulls a particle with; past it the particle \
                         lags the cursor instead of the body stretching like rubber",
                    )
                    .changed();
            });
        });
        if changed {
            hand.max_force = if kinematic { f32::INFINITY } else { force };
            // A grab in progress keeps its mode; the next one uses this.
            self.world.set_hand(hand);
            self.hand_chosen = true;
        }
    }
}
