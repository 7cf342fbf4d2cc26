//! The scene section: which scene runs (files beside the opened one and
//! the built-in ones), Open…, Edit…, Reload, Reset, Run/Pause, Save as,
//! the browser's link, recording and replay, and the last file action's
//! status.

use std::path::{Path, PathBuf};

use egui_macroquad::egui::{self, RichText};

use super::Ask;
use super::Section;
use crate::app::shell::platform;
use crate::app::{App, Source};
use crate::scene;

/// The section's text fields and the scene files it offers.
#[derive(Default)]
pub struct SceneSection {
    scene_files: Vec<PathBuf>,
    open_path: String,
    save_path: String,
}

impl SceneSection {
    /// Lists the `.ron` files beside the opened scene, or in ./scenes.
    pub fn new(opened: Option<&Path>) -> Self {
        let dir = opened
            .and_then(Path::parent)
            .filter(|d| !d.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("scenes"));
        Self {
            scene_files: platform::scene_files(&dir),
            open_path: opened.map(|p| p.display().to_string()).unwrap_or_default(),
            save_path: opened
                .map(|p| p.with_extension("edited.ron").display().to_string())
                .unwrap_or_else(|| "my_scene.ron".into()),
        }
    }

    /// Where Save as writes (the text field; Ctrl+S uses it too).
    pub fn save_path(&self) -> PathBuf {
        PathBuf::from(self.save_path.trim())
    }

    /// The Open… field as a path.
    fn open_path(&self) -> PathBuf {
        PathBuf::from(self.open_path.trim())
    }

    /// The scene list, Open… and the buttons that act on the scene.
    fn scene_rows(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        ui.heading(&app.scene.name);
        let current = app.source_name();
        let mut pick = None;
        egui::ComboBox::from_label("scene")
            .selected_text(&current)
            .width(200.0)
            .show_ui(ui, |ui| {
                if !self.scene_files.is_empty() {
                    ui.label(RichText::new("files (reload when saved)").small());
                }
                for f in &self.scene_files {
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
                    let selected = matches!(app.source, Source::Builtin(n) if n == name);
                    if ui.selectable_label(selected, name).clicked() {
                        asks.push(Ask::OpenBuiltin(name));
                    }
                }
            })
            .response
            .on_hover_text("the .ron files beside the opened scene (or in ./scenes), and every scene built into catenary");
        if !platform::WEB {
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut self.open_path).desired_width(190.0))
                    .on_hover_text("path of a scene file to open");
                if ui.button("Open…").clicked() {
                    pick = Some(self.open_path());
                }
            });
        }
        if let Some(path) = pick {
            self.open_path = path.display().to_string();
            asks.push(Ask::Open(path));
        }
        ui.horizontal(|ui| {
            if ui
                .button("Edit…")
                .on_hover_text("the scene's text: edit it, see errors as you type, Apply")
                .clicked()
            {
                asks.push(Ask::OpenEditor);
            }
            if !platform::WEB
                && ui
                    .button("Reload")
                    .on_hover_text("re-read the scene file")
                    .clicked()
            {
                asks.push(Ask::Reload);
            }
            if ui
                .button("Reset (R)")
                .on_hover_text("restart from the scene, keeping the solver settings")
                .clicked()
            {
                asks.push(Ask::Reset);
            }
            let label = if app.paused {
                "Run (Space)"
            } else {
                "Pause (Space)"
            };
            if ui.button(label).clicked() {
                asks.push(Ask::TogglePause);
            }
        });
    }

    /// Save as, the browser's link, and the status line.
    fn save_rows(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut self.save_path).desired_width(190.0))
                .on_hover_text(
                    "where to save the scene with your edits (settings, pins, compliances, camera)",
                );
            let hover = if platform::WEB {
                "download the scene with your edits and the world's state under this name"
            } else {
                "write the scene with your edits and the world's state to this file"
            };
            if ui.button("Save as").on_hover_text(hover).clicked() {
                asks.push(Ask::SaveAs(self.save_path()));
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
            asks.push(Ask::CopyLink);
        }
        self.recording_row(ui, app, asks);
        if !app.status.is_empty() {
            // Wrapped within the default panel width, so a long message
            // never widens the panel (and moves the buttons under the cursor).
            ui.scope(|ui| {
                ui.set_max_width(ui.available_width().min(290.0));
                ui.add(egui::Label::new(RichText::new(&app.status).small()).wrap());
            });
        }
    }

    /// Record / Stop recording, and Replay.
    fn recording_row(&self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        let target = recording_path(&self.save_path());
        ui.horizontal(|ui| {
            if app.tape.recorder.is_none() {
                if ui
                    .button("Record")
                    .on_hover_text("record drags, pins and setting changes from now on")
                    .clicked()
                {
                    asks.push(Ask::Record);
                }
            } else if ui
                .button("Stop recording")
                .on_hover_text(format!("write the recording to {}", target.display()))
                .clicked()
            {
                asks.push(Ask::StopRecording(target.clone()));
            }
            if ui
                .button("Replay")
                .on_hover_text(if platform::WEB {
                    "play the last recording made in this tab"
                } else {
                    "play a recording: the .rec.ron named in Open…'s field, else the last one \
                     recorded here, else the one beside the save path"
                })
                .clicked()
            {
                asks.push(Ask::Replay {
                    open: self.open_path(),
                    beside: target.clone(),
                });
            }
        });
    }
}

impl Section for SceneSection {
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>) {
        self.scene_rows(ui, app, asks);
        self.save_rows(ui, app, asks);
    }
}

/// `scene.ron` → `scene.rec.ron`.
fn recording_path(save: &Path) -> PathBuf {
    let stem = save.file_stem().unwrap_or_default().to_string_lossy();
    let stem = stem.strip_suffix(".edited").unwrap_or(&stem).to_string();
    save.with_file_name(format!("{stem}.rec.ron"))
}
