//! The sandbox window: macroquad for drawing and input, egui for panels.
//!
//! The app holds no physics: it steps [`World`] with a fixed `dt` and an
//! accumulator, reads positions to draw, and edits settings, compliances
//! and pins through the solver's API. `App` keeps the loop; around it:
//!
//! - `render/` draws a world: meshes, lighting and shadows, colliders and
//!   the analytic ghosts, the camera, anti-aliasing;
//! - `ui/` is egui: the side panel's sections (each a struct that answers
//!   with asks), the plots, the overlays on the view, the scene editor;
//! - `shell/` runs things: stepping, the hand, scene files, the edit
//!   stream and the asks' answers, compare mode, recording, automation.

mod render;
mod shell;
mod ui;

use std::path::{Path, PathBuf};

use macroquad::prelude::*;

use crate::clock::Stopwatch;

use crate::scene::{self, Scene};
use crate::solver::{Settings, ThreadChoice, World};
use render::camera::OrbitCamera;
use render::{Display, Highlight, Renderer, antialias, scenery};
#[cfg(not(target_arch = "wasm32"))]
use shell::automation;
use shell::interact::Mouse;
use shell::{platform, probe, recording, stepping};
use stepping::{Timing, WorldStats, smooth};
use ui::{editor, layout, plots, twist_plot};

/// Command-line options of the window.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Scene file; None = the built-in default scene.
    pub scene: Option<PathBuf>,
    /// Write the app's state to this file about 5 times a second (for tests and scripts).
    pub dump_state: Option<PathBuf>,
    /// Save a PNG of the window after this many seconds.
    pub screenshot: Option<(f32, PathBuf)>,
    /// Then one every this many seconds, numbered `NAME-000.png`, `NAME-001.png`, …
    pub screenshot_every: Option<f32>,
    /// Close the window after this many seconds.
    pub exit_after: Option<f32>,
    /// Start in compare mode: PBD and XPBD lanes side by side.
    pub compare: bool,
    /// Start with shadows off.
    pub no_shadows: bool,
    /// Start with ropes drawn as chains of links.
    pub chain_links: bool,
    /// Anti-aliasing on or off from the start; None = measure its cost
    /// in the first frames and keep it when cheap.
    pub antialias: Option<bool>,
    /// Start with this colour mode: "plain", "strain" or "tension".
    pub colour: Option<String>,
}

/// Opens the window and runs until it is closed.
pub fn run(options: Options) {
    let conf = macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "catenary".to_owned(),
            window_width: 1280,
            window_height: 800,
            sample_count: 1,
            ..Default::default()
        },
        draw_call_vertex_capacity: 65_536,
        draw_call_index_capacity: 400_000,
        ..Default::default()
    };
    macroquad::Window::from_config(conf, main_loop(options));
}

async fn main_loop(options: Options) {
    let mut app = App::new(&options);
    #[cfg(not(target_arch = "wasm32"))]
    let (started, mut script) = (Stopwatch::start(), automation::Script::new(&options));
    let mut probe = platform::test_mode().then(|| probe::Probe::new(&app));
    loop {
        #[cfg(not(target_arch = "wasm32"))]
        let wall = started.seconds() as f32;
        app.frame();
        if let Some(p) = probe.as_mut() {
            platform::report(&p.report(&app));
        }
        #[cfg(not(target_arch = "wasm32"))]
        if script.after_frame(&app, wall) {
            break;
        }
        next_frame().await;
    }
}

/// Where the running scene came from.
#[derive(Clone, Debug)]
enum Source {
    /// A scene built into the binary, by file name.
    Builtin(&'static str),
    File(PathBuf),
    /// Text from the scene editor or a shared link, named for messages.
    Text {
        name: String,
        text: String,
    },
}

/// All state of the window.
pub struct App {
    source: Source,
    /// The right lane in compare mode (see `lanes`).
    twin: Option<World>,
    /// The scene editor window.
    editor: editor::SceneEditor,
    /// Recording and replaying the user's inputs (see `recording`).
    tape: recording::Tape,
    /// Where the right lane is drawn (pixels), in compare mode.
    right_view: Option<Rect>,
    /// In compare mode: the mouse acts through the right lane.
    right_lane_active: bool,
    /// The time and settings the plots last saw.
    marked: Option<(f64, Settings)>,
    /// The last scene that loaded, with the panel's compliance and collision edits.
    scene: Scene,
    world: World,
    camera: OrbitCamera,
    display: Display,
    renderer: Renderer,
    /// Anti-aliasing and the trial that decides whether it stays.
    smoothing: antialias::Smoothing,
    mouse: Mouse,
    paused: bool,
    /// Simulated seconds per real second.
    time_scale: f32,
    accumulator: f32,
    /// Simulated over wanted seconds, smoothed over about a second: below 1
    /// the solver cannot keep up with the wall clock.
    realtime: f32,
    /// The user set the hand's strength in the panel: a reload keeps it;
    /// otherwise the hand follows the scene's masses.
    hand_chosen: bool,
    /// (simulated, wanted) seconds behind `realtime`.
    paced: (f32, f32),
    frames: u64,
    /// Problems with the scene file; the last good scene keeps running.
    errors: Vec<String>,
    /// One-line status of the last file action.
    status: String,
    watcher: Option<platform::FileWatcher>,
    help: bool,
    /// The start-up hint: None while shown, then the time (s, wall) of the
    /// first interaction, from which it fades.
    hint_faded_from: Option<f64>,
    timing: Timing,
    stats: WorldStats,
    stale_stats: bool,
    history: plots::History,
    /// The Greenhill lesson's twist, when a rod is clamped at both ends.
    twist: twist_plot::TwistTrace,
    /// egui wants the pointer / keyboard this frame (the world must not react).
    ui_has_pointer: bool,
    ui_has_keyboard: bool,
    /// The side panel's sections.
    panel: ui::SidePanel,
    /// Frames drawn per second, averaged over the last second.
    drawn_fps: f32,
    fps_meter: stepping::FpsMeter,
    /// Where the overlays sit and the strain scale's choice.
    layout: layout::Layout,
}

impl App {
    fn new(options: &Options) -> Self {
        scenery::panels_show_background();
        platform::install_fonts();
        let builtin = scene::parse(scene::DEFAULT_SCENE, Path::new("<built-in default scene>"))
            .expect("the built-in scene is valid (a test checks it)");
        let mut app = Self {
            source: Source::Builtin("default.ron"),
            twin: None,
            editor: Default::default(),
            tape: Default::default(),
            right_view: None,
            right_lane_active: false,
            marked: None,
            world: solver_world(&builtin, ThreadChoice::Auto),
            camera: OrbitCamera::from(&builtin.camera),
            scene: builtin,
            display: Display::default(),
            renderer: Renderer::default(),
            smoothing: Default::default(),
            mouse: Mouse::default(),
            paused: false,
            time_scale: 1.0,
            accumulator: 0.0,
            realtime: 1.0,
            hand_chosen: false,
            paced: (0.0, 0.0),
            frames: 0,
            errors: Vec::new(),
            status: String::new(),
            watcher: None,
            help: false,
            hint_faded_from: None,
            timing: Timing::default(),
            stats: WorldStats::default(),
            stale_stats: true,
            history: plots::History::default(),
            twist: twist_plot::TwistTrace::default(),
            ui_has_pointer: false,
            ui_has_keyboard: false,
            panel: ui::SidePanel::new(options.scene.as_deref()),
            drawn_fps: 0.0,
            fps_meter: Default::default(),
            layout: Default::default(),
        };
        if let Some(path) = &options.scene {
            app.open(path);
        }
        if let Some(text) = platform::linked_scene() {
            app.open_text("the link's scene", &text);
        }
        if options.compare {
            app.set_compare(true);
        }
        app.display.shadows = !options.no_shadows;
        app.display.chain_links = options.chain_links;
        app.display.colour = match options.colour.as_deref() {
            Some("strain") => render::ColourMode::Strain,
            Some("tension") => render::ColourMode::Tension,
            _ => render::ColourMode::Plain,
        };
        if let Some(on) = options.antialias {
            app.display.antialias = on;
            app.smoothing.chosen();
        }
        app
    }

    fn frame(&mut self) {
        if self.watcher.as_ref().is_some_and(|w| w.changed()) {
            self.reload();
        }
        let t = Stopwatch::start();
        // egui sees this frame's input first, so a click on a panel is never
        // also taken as a click in the world.
        egui_macroquad::ui(|ctx| self.ui(ctx));
        let ui_ms = t.ms() as f32;
        self.keyboard();
        let touched = [MouseButton::Left, MouseButton::Right, MouseButton::Middle]
            .into_iter()
            .any(is_mouse_button_pressed)
            || get_last_key_pressed().is_some()
            || mouse_wheel().1 != 0.0;
        if touched && self.hint_faded_from.is_none() {
            self.hint_faded_from = Some(get_time());
        }
        let frame_dt = get_frame_time();
        // The hand's velocity is measured in simulated time, as the grab
        // moves the particle in simulated time: a flick in slow motion
        // throws as hard as one at full speed.
        let sim_dt = if self.paused {
            0.0
        } else {
            frame_dt * self.time_scale
        };
        // In compare mode the lane under the cursor (chosen while no button
        // is down) is the one picked in and dragged through.
        if !is_mouse_button_down(MouseButton::Left) && !is_mouse_button_down(MouseButton::Middle) {
            let x = mouse_position().0;
            self.right_lane_active = self.right_view.is_some_and(|r| x >= r.x);
        }
        let mut camera = self.camera.clone();
        let seen = match (self.right_view, &self.twin) {
            (Some(view), Some(twin)) if self.right_lane_active => {
                camera.view = view;
                Some(twin)
            }
            _ => None,
        };
        self.mouse.update(
            &mut self.world,
            seen,
            &mut camera,
            self.ui_has_pointer,
            sim_dt,
        );
        // Orbit, pan and zoom move the one camera both lanes share.
        camera.view = self.camera.view;
        self.camera = camera;
        self.simulate(frame_dt);
        self.update_stats();
        self.pick_strain_scale();

        if let Some(news) = self.smoothing.trial(frame_dt, &mut self.display) {
            self.status = news;
        }
        let background = scenery::BACKGROUND;
        clear_background(background);
        self.renderer.target = self
            .display
            .antialias
            .then(|| self.smoothing.fxaa.begin(background))
            .flatten();
        let hl = Highlight {
            hovered: self.mouse.hovered,
            held: self.world.grabbed(),
        };
        let meshes = Stopwatch::start();
        self.renderer
            .draw(&self.world, &self.camera, &self.display, hl);
        if let (Some(twin), Some(view)) = (&self.twin, self.right_view) {
            let mut camera = self.camera.clone();
            camera.view = view;
            self.renderer.draw(twin, &camera, &self.display, hl);
        }
        if let Some((spring, radius)) = self.spring_ghost().filter(|_| self.display.analytic) {
            let (target, at) = (
                self.renderer.target.clone(),
                spring.position(self.world.time()),
            );
            scenery::draw_ghost_ball(&self.camera, target, at, radius);
        }
        let meshes_ms = meshes.ms() as f32;
        let drawing = Stopwatch::start();
        if self.renderer.target.is_some() {
            self.smoothing.fxaa.finish();
        }
        egui_macroquad::draw();
        self.drawn_fps = self.fps_meter.tick();
        let b = &mut self.timing.budget;
        smooth(&mut b.meshes, meshes_ms);
        smooth(&mut b.ui, ui_ms);
        smooth(&mut b.drawing, drawing.ms() as f32);
        smooth(&mut b.frame, frame_dt * 1e3);
    }
}

/// The world of `scene`, solved on the threads `threads` chooses.
fn solver_world(scene: &Scene, threads: ThreadChoice) -> World {
    solver_world_from(scene.build(), threads)
}

/// `world` solved on the threads `threads` chooses (by default as many
/// cores as its size makes worth it), with a hand as strong as its
/// masses call for.
fn solver_world_from(mut world: World, threads: ThreadChoice) -> World {
    world.choose_threads(threads);
    world.set_hand(crate::solver::Hand::suited_to(&world));
    world
}
