//! The sandbox window: macroquad for drawing and input, egui for panels.
//!
//! The app holds no physics: it steps [`World`] with a fixed `dt` and an
//! accumulator, reads positions to draw, and edits settings, compliances
//! and pins through the solver's API.

mod camera;
mod interact;
mod lanes;
mod overlay;
mod panel;
mod plots;
mod recording;
mod reload;
mod render;
mod sweep_panel;

use std::path::{Path, PathBuf};
use std::time::Instant;

use egui_macroquad::egui;
use macroquad::prelude::*;

use image::ImageEncoder;

use crate::scene::{self, Scene};
use crate::solver::{Settings, World};
use camera::OrbitCamera;
use interact::Mouse;
use render::{Display, Highlight, Renderer};

/// Command-line options of the window.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Scene file; None = the built-in default scene.
    pub scene: Option<PathBuf>,
    /// Write the app's state to this file about 5 times a second (for tests and scripts).
    pub dump_state: Option<PathBuf>,
    /// Save a PNG of the window after this many seconds.
    pub screenshot: Option<(f32, PathBuf)>,
    /// Close the window after this many seconds.
    pub exit_after: Option<f32>,
    /// Start in compare mode: PBD and XPBD lanes side by side.
    pub compare: bool,
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
    let started = Instant::now();
    let mut last_dump = 0.0;
    loop {
        let wall = started.elapsed().as_secs_f32();
        app.frame();
        if let Some((after, path)) = &options.screenshot
            && wall >= *after
            && !app.screenshot_taken
        {
            if let Err(e) = save_screenshot(path) {
                eprintln!(
                    "error: {}: cannot save the screenshot: {e:#}",
                    path.display()
                );
            }
            app.screenshot_taken = true;
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
    /// The small-steps experiment section of the panel.
    sweep: sweep_panel::SweepPanel,
    /// Recording the user's inputs (see `recording`).
    recorder: Option<crate::record::Recorder>,
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
    mouse: Mouse,
    paused: bool,
    /// Simulated seconds per real second.
    time_scale: f32,
    accumulator: f32,
    /// Simulated over wanted seconds, smoothed over about a second: below 1
    /// the solver cannot keep up with the wall clock.
    realtime: f32,
    /// (simulated, wanted) seconds behind `realtime`.
    paced: (f32, f32),
    frames: u64,
    /// Problems with the scene file; the last good scene keeps running.
    errors: Vec<String>,
    /// One-line status of the last file action.
    status: String,
    watcher: Option<reload::FileWatcher>,
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
    panel: panel::PanelState,
    screenshot_taken: bool,
    /// A `--dump-state` write failed (reported once).
    dump_failed: std::cell::Cell<bool>,
}

impl App {
    fn new(options: &Options) -> Self {
        let builtin = scene::parse(scene::DEFAULT_SCENE, Path::new("<built-in default scene>"))
            .expect("the built-in scene is valid (a test checks it)");
        let mut app = Self {
            source: Source::Builtin("default.ron"),
            twin: None,
            sweep: Default::default(),
            recorder: None,
            replaying: None,
            right_view: None,
            right_lane_active: false,
            marked: None,
            world: solver_world(&builtin),
            camera: OrbitCamera::from(&builtin.camera),
            scene: builtin,
            display: Display::default(),
            renderer: Renderer::default(),
            mouse: Mouse::default(),
            paused: false,
            time_scale: 1.0,
            accumulator: 0.0,
            realtime: 1.0,
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
            panel: panel::PanelState::new(options.scene.as_deref()),
            screenshot_taken: false,
            dump_failed: Default::default(),
        };
        if let Some(path) = &options.scene {
            app.open(path);
        }
        if options.compare {
            app.set_compare(true);
        }
        app
    }

    /// Opens a scene file: on success it replaces the world and the camera
    /// and is watched from then on; on failure the errors are shown and the
    /// current scene keeps running.
    fn open(&mut self, path: &Path) {
        self.source = Source::File(path.to_path_buf());
        self.watcher = match reload::FileWatcher::new(path) {
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
    fn open_builtin(&mut self, name: &'static str) {
        self.source = Source::Builtin(name);
        self.watcher = None;
        if self.load(false) {
            self.camera = OrbitCamera::from(&self.scene.camera);
        }
    }

    /// Re-reads the scene (the camera stays), keeping every solver setting
    /// the user changed in the panel unless the file changed that setting
    /// too. Returns true on success.
    fn reload(&mut self) -> bool {
        self.load(true)
    }

    fn load(&mut self, keep_edits: bool) -> bool {
        let loaded = match &self.source {
            Source::File(path) => scene::load(path),
            Source::Builtin(name) => {
                let text = scene::builtin(name).expect("built-in names come from BUILTIN");
                scene::parse(text, Path::new(name))
            }
        };
        match loaded {
            Ok(scene) => {
                self.mouse.cancel(&mut self.world);
                let mut world = solver_world(&scene);
                if keep_edits {
                    let file_before = Settings::from(&self.scene.solver);
                    world.settings =
                        reload::keep_panel_edits(file_before, self.world.settings, world.settings);
                    world.set_hand(self.world.hand());
                }
                self.world = world;
                self.rebuild_twin();
                self.status = format!("loaded {}", self.source_name());
                self.scene = scene;
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
    fn source_name(&self) -> String {
        match &self.source {
            Source::File(p) => p.display().to_string(),
            Source::Builtin(name) => format!("{name} (built in)"),
        }
    }

    /// Restarts the simulation and the camera from the scene, keeping the
    /// panel's settings.
    fn reset(&mut self) {
        self.mouse.cancel(&mut self.world);
        self.camera = OrbitCamera::from(&self.scene.camera);
        let (settings, hand) = (self.world.settings, self.world.hand());
        self.world = solver_world(&self.scene);
        self.world.settings = settings;
        self.world.set_hand(hand);
        self.rebuild_twin();
        self.accumulator = 0.0;
        self.stale_stats = true;
    }

    /// Writes the scene with the run-time edits (settings, pins,
    /// compliances) and the world's state to `path`.
    fn save_as(&mut self, path: &Path) {
        let mut scene = self.scene.clone();
        scene.capture(&self.world);
        scene.capture_state(&self.world);
        scene.camera = crate::scene::CameraDef {
            target: self.camera.target.into(),
            distance: self.camera.distance,
            yaw: self.camera.yaw,
            pitch: self.camera.pitch,
        };
        self.status = match scene::save(path, &scene) {
            Ok(()) => format!("saved {}", path.display()),
            Err(e) => format!("not saved: {e}"),
        };
    }

    fn frame(&mut self) {
        if self.watcher.as_ref().is_some_and(|w| w.changed()) {
            self.reload();
        }
        let t = Instant::now();
        // egui sees this frame's input first, so a click on a panel is never
        // also taken as a click in the world.
        egui_macroquad::ui(|ctx| self.ui(ctx));
        let ui_ms = t.elapsed().as_secs_f32() * 1e3;
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

        let t = Instant::now();
        clear_background(Color::new(0.11, 0.12, 0.14, 1.0));
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
            render::draw_ghost_ball(&self.camera, spring.position(self.world.time()), radius);
        }
        egui_macroquad::draw();
        smooth(
            &mut self.timing.render_ms,
            ui_ms + t.elapsed().as_secs_f32() * 1e3,
        );
    }

    /// Fixed-dt stepping with an accumulator: at most 4 steps per drawn
    /// frame, so a slow frame slows the simulation rather than snowballing.
    fn simulate(&mut self, frame_dt: f32) {
        if self.paused {
            self.accumulator = 0.0;
            // The world stays frozen, but a held particle follows the
            // cursor, so the rope can be posed before pressing Space.
            if self.world.grabbed().is_some() {
                self.pose_lanes();
                self.stale_stats = true;
            }
            return;
        }
        let dt = self.world.settings.dt;
        self.accumulator += frame_dt.min(0.1) * self.time_scale;
        let t = Instant::now();
        let mut steps = 0;
        // At most 4 steps, and no more once a drawn frame's budget (33 ms)
        // is spent: a heavy scene then runs slower but the window answers.
        while self.accumulator >= dt
            && steps < 4
            && (steps == 0 || t.elapsed().as_secs_f32() < 0.033)
        {
            self.step();
            self.accumulator -= dt;
            steps += 1;
        }
        if self.accumulator >= dt {
            // Behind: drop the backlog rather than snowball (the world
            // always steps whole frames of dt, so it stays deterministic).
            self.accumulator = self.accumulator.min(dt);
        }
        // Simulated and wanted seconds, each decaying with a ~1 s time
        // constant of wall time; their ratio is the real-time factor.
        let keep = (-frame_dt).exp();
        self.paced.0 = self.paced.0 * keep + steps as f32 * dt;
        self.paced.1 = self.paced.1 * keep + frame_dt * self.time_scale;
        if self.paced.1 > 0.0 {
            self.realtime = (self.paced.0 / self.paced.1).min(1.0);
        }
        if steps > 0 {
            let per_step = t.elapsed().as_secs_f64() / steps as f64;
            smooth(&mut self.timing.solver_ms, (per_step * 1e3) as f32);
            let rate = self.world.projections_per_frame() as f64 / per_step.max(1e-9);
            self.timing.rate = if self.timing.rate == 0.0 {
                rate
            } else {
                self.timing.rate * 0.9 + rate * 0.1
            };
        }
    }

    fn step(&mut self) {
        self.before_step();
        self.step_lanes();
        self.frames += 1;
        self.stale_stats = true;
    }

    /// Recomputes the statistics after the world changed (once per drawn
    /// frame at most: each is a pass over every constraint or particle).
    fn update_stats(&mut self) {
        // A labelled line in the plots wherever a setting changed.
        // (Not across a reset or reload: time going back starts afresh.)
        let now = (self.world.time(), self.world.settings);
        if let Some((_, before)) = self.marked.filter(|m| m.0 <= now.0)
            && before != now.1
        {
            self.history.mark(now.0, before, now.1);
        }
        self.marked = Some(now);
        if !std::mem::take(&mut self.stale_stats) {
            return;
        }
        let w = &self.world;
        let books = w.energy_books();
        self.stats = WorldStats {
            max_strain: w.max_strain(),
            max_tension: w.max_tension(),
            energy: books.mechanical(),
        };
        let mut lanes = vec![plots::LaneSample {
            name: lane_name(w),
            strain_percent: 100.0 * self.stats.max_strain as f64,
            mechanical: books.mechanical(),
            total: books.total(),
        }];
        if let Some(twin) = &self.twin {
            lanes[0].name = format!("left {}", lanes[0].name);
            let books = twin.energy_books();
            lanes.push(plots::LaneSample {
                name: format!("right {}", lane_name(twin)),
                strain_percent: 100.0 * twin.max_strain() as f64,
                mechanical: books.mechanical(),
                total: books.total(),
            });
        }
        self.history.push(w.time(), &lanes);
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
            let path = PathBuf::from(self.panel.save_path().trim());
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
        self.side_panel(ctx);
        self.plots_panel(ctx);
        self.error_banner(ctx);
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

    /// Writes a plain-text snapshot: a header and one line per particle
    /// `index x y z screen_x screen_y pinned`, via a temp file and a rename.
    fn dump_state(&self, path: &Path) {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "frames {}", self.frames);
        let _ = writeln!(s, "time {}", self.world.time());
        let _ = writeln!(s, "paused {}", self.paused);
        let _ = writeln!(s, "realtime {:.3}", self.realtime);
        let _ = writeln!(s, "hint {}", self.hint_opacity() > 0.0);
        let _ = writeln!(s, "scene {}", self.scene.name);
        let _ = writeln!(s, "held {:?}", self.world.grabbed());
        let _ = writeln!(s, "hand_force {:?}", self.world.hand_force());
        let _ = writeln!(s, "errors {}", self.errors.len());
        for e in &self.errors {
            let _ = writeln!(s, "error {}", e.replace('\n', " "));
        }
        // One line per particle and lane: `index x y z screen_x screen_y
        // pinned lane` (lane 0 = the left or only world, 1 = the right).
        let mut lanes = vec![(&self.world, self.camera.clone())];
        if let (Some(twin), Some(view)) = (&self.twin, self.right_view) {
            let mut camera = self.camera.clone();
            camera.view = view;
            lanes.push((twin, camera));
        }
        let total: usize = lanes.iter().map(|(w, _)| w.particles.len()).sum();
        let _ = writeln!(s, "particles {total}");
        for (lane, (world, camera)) in lanes.iter().enumerate() {
            let project = camera.projector();
            for (i, &p) in world.particles.pos.iter().enumerate() {
                let sc = project(p).unwrap_or(Vec2::splat(-1.0));
                let pinned = world.particles.is_pinned(i) as u8;
                let _ = writeln!(
                    s,
                    "{i} {} {} {} {} {} {pinned} {lane}",
                    p.x, p.y, p.z, sc.x, sc.y
                );
            }
        }
        let written = scene::TempFile::create(path).and_then(|mut f| {
            use std::io::Write;
            f.write_all(s.as_bytes())
                .map_err(|source| scene::SceneError::Io {
                    path: path.to_path_buf(),
                    action: "cannot write",
                    source,
                })?;
            f.commit()
        });
        // Said once, not five times a second.
        if let Err(e) = written
            && !self.dump_failed.replace(true)
        {
            eprintln!("error: --dump-state: {e}");
        }
    }
}

/// Saves the window as a PNG (macroquad's own `export_png` panics on
/// errors), encoded in memory and written through a temp file, so a
/// failure leaves no empty or partial file.
fn save_screenshot(path: &Path) -> anyhow::Result<()> {
    let shot = get_screen_data();
    let (w, h) = (shot.width as usize, shot.height as usize);
    // The framebuffer is stored bottom row first.
    let rows: Vec<u8> = (0..h)
        .rev()
        .flat_map(|y| shot.bytes[y * w * 4..(y + 1) * w * 4].iter().copied())
        .collect();
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png).write_image(
        &rows,
        w as u32,
        h as u32,
        image::ColorType::Rgba8,
    )?;
    let mut file = scene::TempFile::create(path)?;
    std::io::Write::write_all(&mut file, &png)?;
    Ok(file.commit()?)
}

/// The world of `scene`, solved on as many cores as its size makes worth it.
fn solver_world(scene: &Scene) -> World {
    solver_world_from(scene.build())
}

/// `world` solved on as many cores as its size makes worth it, with a
/// hand as strong as its masses call for.
fn solver_world_from(mut world: World) -> World {
    world.use_suitable_threads();
    world.set_hand(interact::default_hand(&world));
    world
}

impl App {
    /// The XPBD paper's spring as a ghost: when the scene is one Mesh of a
    /// pinned particle and a free one on one compliant link, released at
    /// rest below it (lesson_spring.ron), where the undamped oscillator
    /// with period 2π√(α·m) would have the mass now.
    fn spring_ghost(&self) -> Option<(crate::analytic::Spring, f32)> {
        let [crate::scene::BodyDef::Mesh(m)] = self.scene.bodies.as_slice() else {
            return None;
        };
        let ([a, b], [link]) = (m.particles.as_slice(), m.links.as_slice()) else {
            return None;
        };
        let (pin, free) = match (a.pinned, b.pinned) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => return None,
        };
        if self.scene.state.is_some() || self.world.particles.is_pinned(1) != b.pinned {
            return None;
        }
        let (p, q) = (
            glam::Vec3::from(pin.position),
            glam::Vec3::from(free.position),
        );
        let rest = link.rest.unwrap_or(p.distance(q));
        let alpha = self
            .world
            .constraints
            .compliance(0, crate::solver::LinkKind::Stretch)?;
        let spring = crate::analytic::Spring::new(
            p,
            q,
            free.mass,
            rest,
            alpha,
            self.world.settings.gravity,
        )?;
        Some((spring, m.radius * 1.6))
    }
}

/// "XPBD 20×1": a lane's method and split, for plot legends.
fn lane_name(w: &World) -> String {
    let s = &w.settings;
    let method = match s.method {
        crate::solver::Method::Xpbd => "XPBD",
        crate::solver::Method::Pbd => "PBD",
    };
    format!("{method} {}×{}", s.substeps, s.iterations)
}

fn smooth(avg: &mut f32, sample: f32) {
    *avg = if *avg == 0.0 {
        sample
    } else {
        *avg * 0.9 + sample * 0.1
    };
}
