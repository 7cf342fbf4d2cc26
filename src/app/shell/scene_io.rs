//! Where the scene comes from and goes: open a file or a built-in scene,
//! hot reload (keeping panel edits), reset, Save as.

use std::path::Path;

use super::platform;
use super::reload;
use crate::app::App;
use crate::app::Source;
use crate::app::render::camera::OrbitCamera;
use crate::app::solver_world;
use crate::scene;
use crate::solver::Settings;

impl App {
    /// Opens a scene file: on success it replaces the world and the camera
    /// and is watched from then on; on failure the errors are shown and the
    /// current scene keeps running.
    pub(in crate::app) fn open(&mut self, path: &Path) {
        self.source = Source::File(path.to_path_buf());
        self.watcher = match platform::FileWatcher::new(path) {
            Ok(w) => Some(w),
            Err(e) => {
                self.status = format!("hot reload unavailable: {e}");
                None
            }
        };
        if self.load(false) {
            self.camera = OrbitCamera::from(&self.scene.camera);
        }
    }

    /// Opens a scene built into the binary (not watched).
    pub(in crate::app) fn open_builtin(&mut self, name: &'static str) {
        self.source = Source::Builtin(name);
        self.watcher = None;
        if self.load(false) {
            self.camera = OrbitCamera::from(&self.scene.camera);
        }
    }

    /// Re-reads the scene (the camera stays), keeping every solver setting
    /// the user changed in the panel unless the file changed that setting
    /// too. Returns true on success.
    pub(in crate::app) fn reload(&mut self) -> bool {
        self.load(true)
    }

    pub(in crate::app) fn load(&mut self, keep_edits: bool) -> bool {
        let loaded = match &self.source {
            Source::File(path) => scene::load(path),
            Source::Builtin(name) => {
                let text = scene::builtin(name).expect("built-in names come from BUILTIN");
                scene::parse(text, Path::new(name))
            }
            Source::Text { name, text } => scene::parse(text, Path::new(name)),
        };
        match loaded {
            Ok(scene) => {
                self.mouse.cancel(&mut self.world);
                let mut world = solver_world(&scene, self.world.thread_choice());
                if keep_edits {
                    let file_before = Settings::from(&self.scene.solver);
                    world.settings =
                        reload::keep_panel_edits(file_before, self.world.settings, world.settings);
                    if self.hand_chosen {
                        world.set_hand(self.world.hand());
                    }
                } else {
                    self.hand_chosen = false;
                    self.layout.scale_chosen = false;
                }
                self.layout.scale_pending = true;
                self.world = world;
                self.status = format!("loaded {}", self.source_name());
                self.scene = scene;
                self.rebuild_twin();
                self.errors.clear();
                self.accumulator = 0.0;
                self.stale_stats = true;
                true
            }
            Err(errors) => {
                self.errors = errors.0.iter().map(|e| e.to_string()).collect();
                false
            }
        }
    }

    /// The running scene's file, or the built-in scene's name.
    pub(in crate::app) fn source_name(&self) -> String {
        match &self.source {
            Source::File(p) => p.display().to_string(),
            Source::Builtin(name) => format!("{name} (built in)"),
            Source::Text { name, .. } => name.clone(),
        }
    }

    /// Runs a scene given as text (the scene editor's Apply, a shared
    /// link): on failure the errors are shown and the current scene keeps
    /// running, and the source stays what it was.
    pub(in crate::app) fn open_text(&mut self, name: &str, text: &str) -> bool {
        let previous = std::mem::replace(
            &mut self.source,
            Source::Text {
                name: name.into(),
                text: text.into(),
            },
        );
        self.watcher = None;
        if self.load(false) {
            self.camera = OrbitCamera::from(&self.scene.camera);
            true
        } else {
            self.source = previous;
            false
        }
    }

    /// The running scene's source text (a file's as it is on disk now).
    pub(in crate::app) fn source_text(&self) -> Option<String> {
        match &self.source {
            Source::File(path) => scene::read_text(path).ok(),
            Source::Builtin(name) => scene::builtin(name).map(str::to_string),
            Source::Text { text, .. } => Some(text.clone()),
        }
    }

    /// The scene with the run-time edits: settings, pins, compliances and
    /// the camera; with the world's `state` when `with_state`.
    pub(in crate::app) fn captured_scene(&self, with_state: bool) -> scene::Scene {
        let mut scene = self.scene.clone();
        scene.capture(&self.world);
        if with_state {
            scene.capture_state(&self.world);
        }
        scene.camera = crate::scene::CameraDef {
            target: self.camera.target.into(),
            distance: self.camera.distance,
            yaw: self.camera.yaw,
            pitch: self.camera.pitch,
        };
        scene
    }

    /// Restarts the simulation and the camera from the scene, keeping the
    /// panel's settings.
    pub(in crate::app) fn reset(&mut self) {
        self.mouse.cancel(&mut self.world);
        self.camera = OrbitCamera::from(&self.scene.camera);
        let (settings, hand) = (self.world.settings, self.world.hand());
        self.world = solver_world(&self.scene, self.world.thread_choice());
        self.world.settings = settings;
        self.world.set_hand(hand);
        self.layout.scale_pending = true;
        self.rebuild_twin();
        self.accumulator = 0.0;
        self.stale_stats = true;
    }

    /// Writes the scene with the run-time edits (settings, pins,
    /// compliances, camera) and the world's state to `path` (a download
    /// named after it in the browser).
    pub(in crate::app) fn save_as(&mut self, path: &Path) {
        let text = self.captured_scene(true).to_ron();
        self.status = platform::deliver(path, &text).unwrap_or_else(|e| e);
    }
}
