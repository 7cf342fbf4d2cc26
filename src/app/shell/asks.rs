//! Carrying out what the panel's sections ask (`ui::Ask`): the one place
//! where a control's wish becomes a change to the app and its worlds.

use crate::app::App;
use crate::app::shell::platform;
use crate::app::ui::Ask;
use crate::edit::Edit;
use crate::solver::limits;

impl App {
    /// Does what `ask` asks.
    pub(in crate::app) fn answer(&mut self, ask: Ask) {
        match ask {
            Ask::Edit(edit) => {
                self.edit(edit);
                if let Edit::SelfCollision(b, true) = edit
                    && !self.world.self_collision(b)
                {
                    self.status = format!(
                        "body {b}: self-collision refused — its radius is over {}× its particle \
                         spacing",
                        limits::RADIUS_PER_SPACING
                    );
                }
            }
            // The recorder sees settings, the hand and `fixed` in the world.
            Ask::Settings(settings) => self.world.settings = settings,
            Ask::TwinSettings(settings) => {
                if let Some(twin) = self.twin.as_mut() {
                    twin.settings = settings;
                }
            }
            Ask::TimeScale(scale) => self.time_scale = scale,
            Ask::Hand(hand) => {
                // A grab in progress keeps its mode; the next one uses this.
                self.world.set_hand(hand);
                self.hand_chosen = true;
            }
            Ask::Threads(choice) => {
                self.world.choose_threads(choice);
                if let Some(twin) = self.twin.as_mut() {
                    twin.choose_threads(choice);
                }
            }
            Ask::Fixed(r, on) => self.set_fixed(r, on),
            Ask::Display(display) => {
                if display.strain_scale != self.display.strain_scale {
                    // The user's scale: no pick after the first second,
                    // and a reload keeps it.
                    self.layout.scale_chosen = true;
                }
                self.display = display;
            }
            Ask::Compare(on) => self.set_compare(on),
            Ask::Open(path) => self.open(&path),
            Ask::OpenBuiltin(name) => self.open_builtin(name),
            Ask::Reload => {
                self.reload();
            }
            Ask::Reset => self.reset(),
            Ask::TogglePause => self.paused = !self.paused,
            Ask::SaveAs(path) => self.save_as(&path),
            Ask::CopyLink => {
                let text = self.captured_scene(false).to_ron();
                self.status = platform::share(&text);
            }
            Ask::OpenEditor => self.open_editor(),
            Ask::Record => self.start_recording(),
            Ask::StopRecording(path) => self.stop_recording(&path),
            Ask::Replay { open, beside } => self.start_replay(&open, &beside),
        }
    }
}
