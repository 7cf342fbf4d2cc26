//! The keyboard's shortcuts (the help window lists them).

use macroquad::prelude::*;

use crate::app::App;

impl App {
    /// The keys: Space, Ctrl+S, S (a step while paused), R, F/Home, P,
    /// H/F1 and Escape, unless a text field has the keyboard.
    pub(in crate::app) fn keyboard(&mut self) {
        if self.ui_has_keyboard {
            return;
        }
        if is_key_pressed(KeyCode::Space) {
            self.paused = !self.paused;
        }
        let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
        if is_key_pressed(KeyCode::S) && ctrl {
            let path = self.panel.scene.save_path();
            self.save_as(&path);
        } else if is_key_pressed(KeyCode::S) && self.paused {
            self.step();
        }
        if is_key_pressed(KeyCode::R) {
            self.reset();
        }
        if is_key_pressed(KeyCode::F) || is_key_pressed(KeyCode::Home) {
            self.camera.frame(self.world.particles.pos());
        }
        if is_key_pressed(KeyCode::P) {
            self.mouse.toggle_pin(&mut self.world);
        }
        if is_key_pressed(KeyCode::H) || is_key_pressed(KeyCode::F1) {
            self.help = !self.help;
        }
        if is_key_pressed(KeyCode::Escape) {
            self.help = false;
        }
    }
}
