//! The scene editor: the running scene's RON in a text panel, parsed and
//! validated as you type (errors listed with their line:column, their lines
//! tinted), Apply to rebuild the world. In the browser it is how scenes
//! change (no files to hot reload); on the desktop it is a scratch pad.

use std::path::Path;

use egui_macroquad::egui::{self, Color32, RichText, text::LayoutJob};

use crate::app::App;
use crate::scene::{self, SceneError};

/// The name errors and the scene picker give the editor's text.
pub const NAME: &str = "scene editor";

/// One problem with the text: where (1-based line and column, when the
/// parser knows it) and what.
#[derive(Clone, Debug, PartialEq)]
struct Problem {
    at: Option<(usize, usize)>,
    message: String,
}

/// The editor window's state.
#[derive(Default)]
pub struct SceneEditor {
    open: bool,
    text: String,
    /// Problems of `text` as last checked (empty: it would load).
    problems: Vec<Problem>,
    /// Move the cursor to this (line, column) on the next frame.
    jump: Option<(usize, usize)>,
}

impl SceneEditor {
    /// Opens the editor on `text` (or brings it to the front, keeping edits).
    pub fn open_with(&mut self, text: impl FnOnce() -> String) {
        if !self.open {
            self.set_text(text());
        }
        self.open = true;
    }

    fn set_text(&mut self, text: String) {
        self.text = text;
        self.check();
    }

    /// Parses and validates the text, as loading it would.
    fn check(&mut self) {
        self.problems = match scene::parse(&self.text, Path::new(NAME)) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.0.iter().map(problem).collect(),
        };
    }
}

fn problem(e: &SceneError) -> Problem {
    match e {
        SceneError::Parse {
            line,
            column,
            message,
            ..
        } => Problem {
            at: Some((*line, *column)),
            message: message.clone(),
        },
        SceneError::Invalid {
            at, field, message, ..
        } => Problem {
            at: *at,
            message: format!("{field}: {message}"),
        },
        SceneError::Io { .. } | SceneError::More { .. } => Problem {
            at: None,
            message: e.to_string(),
        },
    }
}

/// What the user asked of the editor this frame.
enum Action {
    Apply(String),
    FromSource,
    FromWorld,
}

impl App {
    /// The editor window, when open.
    pub(in crate::app) fn editor_window(&mut self, ctx: &egui::Context) {
        let mut open = self.editor.open;
        let mut action = None;
        egui::Window::new("Scene editor")
            .open(&mut open)
            .default_size([560.0, 620.0])
            .default_pos([40.0, 40.0])
            .show(ctx, |ui| action = self.editor.ui(ui));
        self.editor.open = open;
        match action {
            Some(Action::Apply(text)) => {
                self.status = if self.open_text(NAME, &text) {
                    "applied the scene editor's text".into()
                } else {
                    "the scene editor's text did not load; the last good scene keeps running".into()
                };
            }
            Some(Action::FromSource) => {
                let text = self.source_text().unwrap_or_else(|| self.scene.to_ron());
                self.editor.set_text(text);
            }
            Some(Action::FromWorld) => {
                let text = self.captured_scene(false).to_ron();
                self.editor.set_text(text);
            }
            None => {}
        }
    }

    /// Opens the editor on the running scene's text.
    pub(in crate::app) fn open_editor(&mut self) {
        let text = self.source_text().unwrap_or_else(|| self.scene.to_ron());
        self.editor.open_with(|| text);
    }
}

impl SceneEditor {
    fn ui(&mut self, ui: &mut egui::Ui) -> Option<Action> {
        let mut action = None;
        ui.horizontal(|ui| {
            let valid = self.problems.is_empty();
            if ui
                .add_enabled(valid, egui::Button::new("Apply"))
                .on_hover_text("rebuild the world from this text (Ctrl+Enter)")
                .clicked()
                || (valid && ui.input(|i| i.modifiers.command && i.key_pressed(egui::Key::Enter)))
            {
                action = Some(Action::Apply(self.text.clone()));
            }
            if ui
                .button("Revert")
                .on_hover_text("the running scene's text as it was loaded (comments kept)")
                .clicked()
            {
                action = Some(Action::FromSource);
            }
            if ui
                .button("From the world")
                .on_hover_text(
                    "the scene with the panel's edits: settings, pins, compliances, camera",
                )
                .clicked()
            {
                action = Some(Action::FromWorld);
            }
            if valid {
                ui.label(RichText::new("✔ valid").color(Color32::from_rgb(120, 200, 120)));
            } else {
                ui.label(
                    RichText::new(format!("{} problem(s)", self.problems.len()))
                        .color(Color32::from_rgb(255, 120, 110)),
                );
            }
        });
        // Problems first, so they stay in sight above a long text.
        let mut jump = None;
        for p in &self.problems {
            let text = match p.at {
                Some((line, column)) => format!("{line}:{column}: {}", p.message),
                None => p.message.clone(),
            };
            let label = ui.add(
                egui::Label::new(RichText::new(text).color(Color32::from_rgb(255, 140, 130)))
                    .sense(egui::Sense::click()),
            );
            if let Some(at) = p.at
                && label.on_hover_text("go there").clicked()
            {
                jump = Some(at);
            }
        }
        if jump.is_some() {
            self.jump = jump;
        }
        ui.separator();
        let bad_lines: Vec<usize> = self
            .problems
            .iter()
            .filter_map(|p| p.at)
            .map(|a| a.0)
            .collect();
        let mut layouter = |ui: &egui::Ui, text: &str, wrap: f32| {
            let mut job = highlight(ui, text, &bad_lines);
            job.wrap.max_width = wrap;
            ui.fonts(|f| f.layout_job(job))
        };
        let id = egui::Id::new("scene editor text");
        if let Some((line, column)) = self.jump.take()
            && let Some(mut state) = egui::text_edit::TextEditState::load(ui.ctx(), id)
        {
            let at = char_index(&self.text, line, column);
            state
                .cursor
                .set_char_range(Some(egui::text::CCursorRange::one(
                    egui::text::CCursor::new(at),
                )));
            state.store(ui.ctx(), id);
            ui.ctx().memory_mut(|m| m.request_focus(id));
        }
        egui::ScrollArea::vertical().show(ui, |ui| {
            let edit = egui::TextEdit::multiline(&mut self.text)
                .id(id)
                .code_editor()
                .desired_width(f32::INFINITY)
                .desired_rows(30)
                .layouter(&mut layouter)
                .show(ui);
            if edit.response.changed() {
                self.check();
            }
        });
        action
    }
}

/// The text in the monospace font, lines with a problem tinted red.
fn highlight(ui: &egui::Ui, text: &str, bad_lines: &[usize]) -> LayoutJob {
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let normal = egui::TextFormat::simple(font.clone(), ui.visuals().text_color());
    let mut bad = normal.clone();
    bad.background = Color32::from_rgba_unmultiplied(200, 40, 40, 90);
    let mut job = LayoutJob::default();
    for (k, line) in text.split_inclusive('\n').enumerate() {
        let format = if bad_lines.contains(&(k + 1)) {
            bad.clone()
        } else {
            normal.clone()
        };
        job.append(line, 0.0, format);
    }
    job
}

/// The character index of 1-based `line` and `column` in `text` (clamped).
fn char_index(text: &str, line: usize, column: usize) -> usize {
    let mut index = 0;
    for (k, l) in text.split_inclusive('\n').enumerate() {
        let chars = l.chars().count();
        if k + 1 == line {
            return index + column.saturating_sub(1).min(chars);
        }
        index += chars;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_a_problem_at_its_line_and_column_and_a_fix_clears_it() {
        let mut editor = SceneEditor::default();
        editor.set_text(crate::scene::DEFAULT_SCENE.into());
        assert!(editor.problems.is_empty(), "{:?}", editor.problems);
        editor.set_text(crate::scene::DEFAULT_SCENE.replace("segments: 24", "segmnts: 24"));
        let p = &editor.problems[0];
        let (line, column) = p.at.expect("a parse error has a place");
        let line_text = editor.text.lines().nth(line - 1).unwrap();
        assert!(line_text.contains("segmnts"), "{line}:{column} {line_text}");
        editor.set_text(crate::scene::DEFAULT_SCENE.replace("segments: 24", "segments: 0"));
        assert!(
            editor.problems[0].message.contains("segments"),
            "{:?}",
            editor.problems
        );
        editor.set_text(crate::scene::DEFAULT_SCENE.into());
        assert!(editor.problems.is_empty());
    }

    #[test]
    fn line_and_column_map_to_the_character_index() {
        let text = "ab\ncdé\nf";
        assert_eq!(char_index(text, 1, 1), 0);
        assert_eq!(char_index(text, 2, 3), 5);
        assert_eq!(char_index(text, 3, 1), 7);
        assert_eq!(char_index(text, 9, 1), 8);
    }
}
