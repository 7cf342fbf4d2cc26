//! The egui side: control panel, error banner, colour legend, help.

use std::path::{Path, PathBuf};

use egui_macroquad::egui::{self, RichText};

use super::render::ColourMode;
use super::{App, interact, plots};
use crate::scene::{self, BodyDef};
use crate::solver::{LinkKind, Method, limits};

/// Seconds of solver time per frame above which a substeps × iterations
/// choice waits for a confirmation.
const COSTLY_S: f64 = 0.25;

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
        let mut scene_files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        scene_files.sort();
        Self {
            pending_counts: None,
            scene_files,
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
fn slider<'a, N: egui::emath::Numeric>(
    value: &'a mut N,
    range: std::ops::RangeInclusive<N>,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// A compliance slider (m/N, logarithmic) with a "rigid" box for α = 0.
/// Returns the new value when the user changed it.
fn compliance_ui(ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
    let mut rigid = value == 0.0;
    let mut v = if rigid { 1e-6 } else { value };
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui
            .checkbox(&mut rigid, "rigid")
            .on_hover_text("compliance α = 0: the constraint does not stretch at all")
            .changed();
        ui.add_enabled_ui(!rigid, |ui| {
            changed |= ui
                .add(
                    slider(&mut v, 1e-9..=1.0)
                        .logarithmic(true)
                        .text(label)
                        .custom_formatter(|x, _| format!("{x:.1e}")),
                )
                .on_hover_text(
                    "compliance α in m/N, the inverse of stiffness: a link under a force F stretches by α·F",
                )
                .changed();
        });
    });
    changed.then_some(if rigid { 0.0 } else { v })
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
                egui::ScrollArea::vertical().show(ui, |ui| {
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
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.panel.open_path).desired_width(190.0))
                .on_hover_text("path of a scene file to open");
            if ui.button("Open…").clicked() {
                pick = Some(PathBuf::from(self.panel.open_path.trim()));
            }
        });
        if let Some(path) = pick {
            self.panel.open_path = path.display().to_string();
            self.open(&path);
        }
        ui.horizontal(|ui| {
            if ui
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
            if ui.button("Save as").clicked() {
                let path = PathBuf::from(self.panel.save_path.trim());
                self.save_as(&path);
            }
        });
        self.recording_row(ui);
        if !self.status.is_empty() {
            ui.label(RichText::new(&self.status).small());
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
        // Substeps and iterations set the cost; a choice that would take
        // longer than COSTLY_S per frame waits for a confirmation, so the
        // window never freezes on a slider's way up.
        let (mut substeps, mut iterations) = self
            .panel
            .pending_counts
            .unwrap_or((s.substeps, s.iterations));
        ui.add(
            slider(&mut substeps, 1..=200)
                .logarithmic(true)
                .text("substeps"),
        )
        .on_hover_text("substeps per frame; h = dt / substeps");
        ui.add(
            slider(&mut iterations, 1..=100)
                .logarithmic(true)
                .text("iterations"),
        )
        .on_hover_text("Gauss–Seidel passes over all constraints per substep");
        if (substeps, iterations) != (s.substeps, s.iterations) {
            let passes = substeps as f64 * iterations as f64;
            let cost = self.world.constraints.len() as f64 * passes / self.timing.projection_rate();
            if cost <= COSTLY_S {
                s.substeps = substeps;
                s.iterations = iterations;
                self.panel.pending_counts = None;
            } else {
                self.panel.pending_counts = Some((substeps, iterations));
            }
        } else {
            self.panel.pending_counts = None;
        }
        if let Some((sub, it)) = self.panel.pending_counts {
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
            .on_hover_text("particles of different ropes and cloths push each other apart")
            .changed()
        {
            self.world.set_body_collisions(between);
            self.twin_do(|w| w.set_body_collisions(between));
            self.scene.solver.body_collisions = between; // kept by Reset
        }
    }

    /// The hand's strength: a capped pull, or kinematic (no limit).
    fn hand_row(&mut self, ui: &mut egui::Ui) {
        let mut hand = self.world.hand();
        let mut kinematic = hand.is_kinematic();
        let mut force = if kinematic {
            interact::default_hand(&self.world).max_force
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
        }
    }

    fn bodies_section(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Bodies").strong());
        let mut edits: Vec<(usize, LinkKind, Edit)> = Vec::new();
        let mut toggles: Vec<(usize, bool)> = Vec::new();
        for (b, def) in self.scene.bodies.iter().enumerate() {
            let kinds: &[(LinkKind, &str)] = match def {
                BodyDef::Rope(_) => &[(LinkKind::Stretch, "links"), (LinkKind::Bend, "bending")],
                BodyDef::Cloth(_) => &[
                    (LinkKind::Stretch, "stretch"),
                    (LinkKind::Shear, "shear"),
                    (LinkKind::Bend, "bending"),
                ],
                BodyDef::Mesh(_) => &[(LinkKind::Stretch, "links")],
            };
            let title = match def {
                BodyDef::Rope(_) => format!("{b}: rope"),
                BodyDef::Cloth(_) => format!("{b}: cloth"),
                BodyDef::Mesh(_) => format!("{b}: mesh"),
            };
            egui::CollapsingHeader::new(title)
                .default_open(b < 2)
                .show(ui, |ui| {
                    let pbd = self.world.settings.method == Method::Pbd;
                    ui.add_enabled_ui(!pbd, |ui| {
                        for &(kind, label) in kinds {
                            let Some((lo, hi)) = self.world.constraints.compliance_range(b, kind)
                            else {
                                continue;
                            };
                            if lo == hi {
                                if let Some(v) = compliance_ui(ui, label, hi) {
                                    edits.push((b, kind, Edit::Set(v)));
                                }
                            } else if let Some(v) = scale_ui(ui, label, hi) {
                                edits.push((b, kind, Edit::Scale(v / hi)));
                            }
                        }
                    })
                    .response
                    .on_disabled_hover_text(
                        "PBD has no compliance: stiffness k and the substep count set it",
                    );
                    if !matches!(def, BodyDef::Mesh(_)) {
                        let mut on = self.world.self_collision(b);
                        if ui
                            .checkbox(&mut on, "self-collision")
                            .on_hover_text("particles of this body push each other apart instead of passing through")
                            .changed()
                        {
                            toggles.push((b, on));
                        }
                    }
                });
        }
        for (b, wanted) in toggles {
            let on = self.world.set_self_collision(b, wanted);
            self.twin_do(|w| {
                w.set_self_collision(b, wanted);
            });
            if wanted && !on {
                self.status = format!(
                    "body {b}: self-collision refused — its radius is over {}× its particle spacing",
                    limits::RADIUS_PER_SPACING
                );
            }
            match &mut self.scene.bodies[b] {
                BodyDef::Rope(r) => r.self_collision = on, // kept by Reset
                BodyDef::Cloth(c) => c.self_collision = on,
                BodyDef::Mesh(_) => {}
            }
        }
        for (b, kind, edit) in edits {
            let c = &mut self.world.constraints;
            match edit {
                Edit::Set(v) => c.set_compliance(b, kind, v),
                Edit::Scale(f) => c.scale_compliance(b, kind, f),
            }
            self.twin_do(|w| match edit {
                Edit::Set(v) => w.constraints.set_compliance(b, kind, v),
                Edit::Scale(f) => w.constraints.scale_compliance(b, kind, f),
            });
            // Reset keeps the edit.
            self.scene.capture_compliances(&self.world);
        }
    }

    fn display_section(&mut self, ui: &mut egui::Ui) {
        let d = &mut self.display;
        ui.horizontal(|ui| {
            ui.label("colour");
            ui.selectable_value(&mut d.colour, ColourMode::Plain, "plain");
            ui.selectable_value(&mut d.colour, ColourMode::Strain, "strain")
                .on_hover_text("largest (length − rest)/rest at each particle");
            ui.selectable_value(&mut d.colour, ColourMode::Tension, "tension")
                .on_hover_text("largest |λ|/h² at each particle, newtons");
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut d.wireframe, "wireframe")
                .on_hover_text("cloth edges");
            ui.checkbox(&mut d.particles, "particles")
                .on_hover_text("dots on rope and mesh particles");
            ui.checkbox(&mut d.colliders, "colliders");
        });
        let auto_max = self.renderer.auto_max;
        let (scale, range, unit, factor) = match d.colour {
            ColourMode::Strain => (&mut d.strain_scale, 1e-5..=1.0, "%", 100.0),
            ColourMode::Tension => (&mut d.tension_scale, 1e-3..=1e5, "N", 1.0),
            ColourMode::Plain => (&mut None, 0.0..=1.0, "", 1.0),
        };
        if d.colour != ColourMode::Plain {
            ui.horizontal(|ui| {
                let mut auto = scale.is_none();
                if ui
                    .checkbox(&mut auto, "auto")
                    .on_hover_text("scale the colours to the largest value of each frame")
                    .changed()
                {
                    *scale = (!auto).then_some(auto_max.max(*range.start()));
                }
                if let Some(top) = scale.as_mut() {
                    ui.add(
                        slider(top, range)
                            .logarithmic(true)
                            .custom_formatter(move |x, _| format!("{:.3} {unit}", x * factor))
                            .text("scale top"),
                    )
                    .on_hover_text("the value drawn red: a fixed scale keeps colours comparable when settings change");
                }
            });
        }
        ui.checkbox(&mut d.caption, "caption")
            .on_hover_text("the scene's note on what to try and what to look for");
        ui.checkbox(&mut d.analytic, "analytic ghosts").on_hover_text(
            "cyan ghosts of the exact answers: the inextensible chain through the pinned ends, \
             y = a·cosh((x − x₀)/a) + c (ropes pinned at exactly their two ends, vertical gravity), \
             and the undamped spring of a single mass on one link (period 2π√(α·m))",
        );
    }

    fn stats_section(&mut self, ui: &mut egui::Ui) {
        let w = &self.world;
        let energy = self.stats.energy;
        egui::Grid::new("stats").num_columns(2).show(ui, |ui| {
            let mut row = |k: &str, v: String, hover: &str| {
                ui.label(k).on_hover_text(hover);
                ui.label(v);
                ui.end_row();
            };
            row(
                "fps",
                format!("{:.0}", macroquad::time::get_fps()),
                "frames drawn per second",
            );
            row(
                "solver",
                format!("{:.2} ms/frame", self.timing.solver_ms),
                "time in World::step per simulated frame",
            );
            row(
                "render",
                format!("{:.2} ms/frame", self.timing.render_ms),
                "time to build and draw the meshes and panels",
            );
            row("particles", w.particles.len().to_string(), "");
            row(
                "constraints",
                format!(
                    "{} in {} colours",
                    w.constraints.len(),
                    w.constraints.colour_count()
                ),
                "distance constraints; a colour holds constraints sharing no particle",
            );
            row(
                "max strain",
                format!("{:.3} %", 100.0 * self.stats.max_strain),
                "largest (length − rest)/rest",
            );
            row(
                "max tension",
                if w.settings.method == Method::Pbd && w.settings.pbd_stiffness != 1.0 {
                    format!("{:.3} (not a force)", self.stats.max_tension)
                } else {
                    format!("{:.3} N", self.stats.max_tension)
                },
                "largest |λ|/h² of the last substep; in PBD a force only when k = 1 \
                 (a PBD projection with k < 1 is not a physical impulse)",
            );
            row(
                "energy",
                format!("{energy:.4} J"),
                "kinetic + gravitational potential of the free particles",
            );
            row(
                "time",
                format!(
                    "{:.2} s{}",
                    w.time(),
                    if self.paused { " (paused)" } else { "" }
                ),
                "simulated time",
            );
        });
        ui.label(RichText::new("H or F1: help").small());
    }

    pub(super) fn plots_panel(&mut self, ctx: &egui::Context) {
        egui::TopBottomPanel::bottom("plots")
            .exact_height(150.0)
            .show(ctx, |ui| {
                // With a rope hanging as a catenary, a third plot: its
                // tension along the span against the analytic T(x).
                let rope = (0..self.world.bodies().len()).find_map(|b| {
                    crate::analytic::Catenary::of_rope(&self.world, b).map(|c| (b, c))
                });
                match rope {
                    Some((b, (curve, mu))) => {
                        ui.columns(2, |cols| {
                            self.history.ui(&mut cols[0]);
                            plots::tension_along(&mut cols[1], &self.world, b, &curve, mu);
                        });
                    }
                    None => self.history.ui(ui),
                }
            });
    }
}

/// A compliance change from the panel.
#[derive(Clone, Copy)]
enum Edit {
    /// Every constraint of the kind gets this compliance (m/N).
    Set(f32),
    /// Every constraint's compliance is multiplied by this factor.
    Scale(f32),
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
