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

use egui_macroquad::egui;
use macroquad::prelude::*;

use crate::clock::Stopwatch;

use crate::scene::{self, Scene};
use crate::solver::{Settings, World};
use render::camera::OrbitCamera;
use render::{Display, Highlight, Renderer, antialias, scenery};
use shell::interact::Mouse;
use shell::{automation, platform, probe, recording, stepping};
use stepping::smooth;
use ui::{editor, layout, plots};

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
    let started = Stopwatch::start();
    let mut last_dump = 0.0;
    let mut probe = platform::test_mode().then(|| probe::Probe::new(&app));
    loop {
        let wall = started.seconds() as f32;
        app.frame();
        if let Some(p) = probe.as_mut() {
            platform::report(&p.report(&app));
        }
        if let Some((after, path)) = &options.screenshot {
            let taken = app.screenshots_taken;
            let (due, path) = match options.screenshot_every {
                None => (taken == 0 && wall >= *after, path.clone()),
                Some(every) => (
                    wall >= after + every * taken as f32,
                    automation::numbered(path, taken),
                ),
            };
            if due {
                if let Err(e) = automation::save_screenshot(&path) {
                    crate::headless::tell(format_args!(
                        "error: {}: cannot save the screenshot: {e:#}",
                        path.display()
                    ));
                }
                app.screenshots_taken += 1;
            }
        }
        if let Some(path) = &options.dump_state
            && wall - last_dump >= 0.2
        {
            last_dump = wall;
            app.dump_state(path);
        }
        if options.exit_after.is_some_and(|t| wall >= t) {
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

/// Frame-time statistics (milliseconds), smoothed.
#[derive(Default)]
struct Timing {
    solver_ms: f32,
    render_ms: f32,
    /// Constraint projections per second of solver time, smoothed (0 = not measured yet).
    rate: f64,
}

impl Timing {
    /// Measured projections per second, or a modest guess before any step.
    fn projection_rate(&self) -> f64 {
        if self.rate > 0.0 { self.rate } else { 2e8 }
    }
}

/// Statistics of the world shown in the panel and plots.
#[derive(Clone, Copy, Debug, Default)]
struct WorldStats {
    max_strain: f32,
    /// N.
    max_tension: f32,
    /// Kinetic + gravitational potential (J).
    energy: f64,
}

/// All state of the window.
pub struct App {
    source: Source,
    /// The right lane in compare mode (see `lanes`).
    twin: Option<World>,
    /// The scene editor window.
    editor: editor::SceneEditor,
    /// Recording the user's inputs (see `recording`).
    recorder: Option<crate::record::Recorder>,
    /// The last recording stopped in this window.
    recorded: Option<crate::record::Recording>,
    /// Playing a recording back.
    replaying: Option<recording::Replay>,
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
    fxaa: antialias::Fxaa,
    /// Measures whether anti-aliasing is affordable here; None once the
    /// user or the command line chose.
    aa_trial: Option<antialias::Trial>,
    /// What the trial measured: ms per frame with and without.
    aa_measured: Option<(f64, f64)>,
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
    /// egui wants the pointer / keyboard this frame (the world must not react).
    ui_has_pointer: bool,
    ui_has_keyboard: bool,
    /// The side panel's sections.
    panel: ui::SidePanel,
    screenshots_taken: usize,
    /// Frames drawn per second, averaged over the last second.
    drawn_fps: f32,
    fps_meter: stepping::FpsMeter,
    /// A `--dump-state` write failed (reported once).
    dump_failed: std::cell::Cell<bool>,
    /// Where the overlays sit and the strain scale's choice.
    layout: layout::Layout,
}

impl App {
    fn new(options: &Options) -> Self {
        scenery::panels_show_background();
        let builtin = scene::parse(scene::DEFAULT_SCENE, Path::new("<built-in default scene>"))
            .expect("the built-in scene is valid (a test checks it)");
        let mut app = Self {
            source: Source::Builtin("default.ron"),
            twin: None,
            editor: Default::default(),
            recorder: None,
            recorded: None,
            replaying: None,
            right_view: None,
            right_lane_active: false,
            marked: None,
            world: solver_world(&builtin),
            camera: OrbitCamera::from(&builtin.camera),
            scene: builtin,
            display: Display::default(),
            renderer: Renderer::default(),
            fxaa: antialias::Fxaa::default(),
            aa_trial: Some(antialias::Trial::default()),
            aa_measured: None,
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
            ui_has_pointer: false,
            ui_has_keyboard: false,
            panel: ui::SidePanel::new(options.scene.as_deref()),
            screenshots_taken: 0,
            drawn_fps: 0.0,
            fps_meter: Default::default(),
            dump_failed: Default::default(),
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
            app.aa_trial = None;
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

        let t = Stopwatch::start();
        self.antialias_trial(frame_dt);
        let background = scenery::BACKGROUND;
        clear_background(background);
        self.renderer.target = self
            .display
            .antialias
            .then(|| self.fxaa.begin(background))
            .flatten();
        let hl = Highlight {
            hovered: self.mouse.hovered,
            held: self.world.grabbed(),
        };
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
        if self.renderer.target.is_some() {
            self.fxaa.finish();
        }
        egui_macroquad::draw();
        self.drawn_fps = self.fps_meter.tick();
        smooth(&mut self.timing.render_ms, ui_ms + t.ms() as f32);
    }

    /// Runs the anti-aliasing trial: the previous frame took `frame_dt`.
    fn antialias_trial(&mut self, frame_dt: f32) {
        let Some(trial) = self.aa_trial.as_mut() else {
            return;
        };
        if trial.set.is_some_and(|on| on != self.display.antialias) {
            self.aa_trial = None; // the user flipped the switch: theirs
            return;
        }
        trial.record(frame_dt as f64);
        match trial.wants() {
            Some(on) => {
                self.display.antialias = on;
                trial.set = Some(on);
            }
            None => {
                let (kept, with, without) = trial.verdict.expect("decided");
                self.display.antialias = kept;
                self.aa_measured = Some((with, without));
                if !kept {
                    // A renderer that slow (software) also pays much for
                    // the plots' grid lines and overlapping fills.
                    self.display.plot_detail = false;
                    self.status = format!(
                        "smooth edges, plot grids and fills off: {with:.0} ms per frame with smooth \
                         edges, {without:.0} ms without (software rendering?)"
                    );
                }
                self.aa_trial = None;
            }
        }
    }

    fn keyboard(&mut self) {
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
            self.camera.frame(&self.world.particles.pos);
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

    fn ui(&mut self, ctx: &egui::Context) {
        // A wheel notch reaches egui as 1/90 of a line on the desktop
        // (egui-macroquad divides X11's ±1 by 90), which at egui's 40
        // points a line scrolled the panel 0.4 points; this makes a notch
        // about 40 points. The browser's deltas come larger and are left.
        #[cfg(not(target_arch = "wasm32"))]
        ctx.options_mut(|o| o.line_scroll_speed = 40.0 * 90.0);
        // The panel reads the app and answers with asks, carried out after it.
        let mut panel = std::mem::take(&mut self.panel);
        let asks = panel.show(ctx, self);
        self.panel = panel;
        for ask in asks {
            self.answer(ask);
        }
        self.plots_panel(ctx);
        self.error_banner(ctx);
        self.editor_window(ctx);
        // The world is drawn in what the panels leave free.
        let free = ctx.available_rect();
        let ppp = ctx.pixels_per_point();
        let view = Rect::new(
            free.left() * ppp,
            free.top() * ppp,
            (free.width() * ppp).max(1.0),
            (free.height() * ppp).max(1.0),
        );
        let (left, right) = self.lane_views(view);
        self.camera.view = left;
        self.right_view = right;
        self.layout.rects.clear();
        self.legend(ctx);
        self.realtime_badge(ctx);
        self.hand_badge(ctx);
        self.pin_badge(ctx);
        self.link_badge(ctx);
        self.start_hint(ctx);
        self.caption(ctx);
        self.lane_labels(ctx);
        if self.help {
            self.help_window(ctx);
        }
        self.ui_has_pointer = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
        self.ui_has_keyboard = ctx.wants_keyboard_input();
    }
}

/// The world of `scene`, solved on as many cores as its size makes worth it.
fn solver_world(scene: &Scene) -> World {
    solver_world_from(scene.build())
}

/// `world` solved on as many cores as its size makes worth it, with a
/// hand as strong as its masses call for.
fn solver_world_from(mut world: World) -> World {
    world.use_suitable_threads();
    world.set_hand(crate::solver::Hand::suited_to(&world));
    world
}
