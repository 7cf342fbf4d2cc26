//! The real window under Xvfb, driven with xdotool (DESIGN §5).
//!
//! Each test starts its own Xvfb. When Xvfb or xdotool is not installed
//! the tests print why and pass without checking anything; `.ci/run`
//! installs both, so CI always runs them.

mod common;

use common::TempDir;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// One window at a time: two cores, software GL.
static SERIAL: Mutex<()> = Mutex::new(());

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A private X server, killed on drop.
struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Option<Self> {
        Self::start_with(&[])
    }

    /// With more server arguments (`-auth FILE`).
    fn start_with(extra: &[&str]) -> Option<Self> {
        for tool in ["Xvfb", "xdotool"] {
            if !have(tool) {
                eprintln!(
                    "SKIPPED: {tool} is not installed (apt-get install xvfb xdotool); .ci/run installs it"
                );
                return None;
            }
        }
        // Xvfb picks a free display itself (it knows which lock files are
        // stale) and writes its number to `-displayfd` once it accepts
        // connections: no guessing from /tmp/.X*-lock or sockets, which
        // killed servers leave behind. `-noreset`: by default Xvfb resets
        // when its last client disconnects, and a client connecting during
        // the reset gets `XOpenDisplay() failed` — the window's own display
        // check (src/display.rs) connects and disconnects just before
        // miniquad connects, so this failed now and then in full runs.
        let mut child = Command::new("Xvfb")
            .args([
                "-noreset",
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("Xvfb's stdout is piped");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("Xvfb writes its display number");
        let n: u32 = line.trim().parse().unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("Xvfb did not come up (it wrote {line:?})")
        });
        let display = format!(":{n}");
        Some(Self { child, display })
    }

    fn xdotool(&self, args: &[&str]) {
        let ok = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("xdotool runs")
            .success();
        assert!(ok, "xdotool {args:?} failed");
    }
}

impl Drop for Xvfb {
    /// SIGTERM, so that Xvfb removes its lock file and socket (SIGKILL,
    /// `Child::kill`, leaves both behind); SIGKILL only if it is still
    /// there a second later.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .arg(self.child.id().to_string())
            .status();
        let deadline = Instant::now() + Duration::from_secs(1);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The catenary window, killed on drop.
struct App {
    child: Child,
    state: PathBuf,
    /// The window's stderr, shown when a wait times out.
    log: PathBuf,
}

impl App {
    /// Starts the window with `args`, anti-aliasing off unless they say:
    /// its trial (measuring FXAA in the first frames, see
    /// `smooth_edges_…`) would slow those frames under llvmpipe and switch
    /// it mid-test.
    fn start(x: &Xvfb, dir: &Path, args: &[&str]) -> Self {
        let mut all = args.to_vec();
        if !args.contains(&"--antialias") && !args.contains(&"--no-antialias") {
            all.push("--no-antialias");
        }
        Self::start_as_a_user_would(x, dir, &all)
    }

    /// Starts the window with exactly `args`.
    fn start_as_a_user_would(x: &Xvfb, dir: &Path, args: &[&str]) -> Self {
        let state = dir.join("state.txt");
        let _ = std::fs::remove_file(&state);
        let log = dir.join("stderr.txt");
        let child = Command::new(env!("CARGO_BIN_EXE_catenary"))
            .args(args)
            .arg("--dump-state")
            .arg(&state)
            .env("DISPLAY", &x.display)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("the window starts");
        let app = Self { child, state, log };
        app.wait_for("the first state dump", |_| true);
        // No window manager under Xvfb: give the window the keyboard focus.
        x.xdotool(&["search", "--name", "^catenary", "windowfocus", "--sync"]);
        app
    }

    fn state(&self) -> Option<State> {
        State::parse(&std::fs::read_to_string(&self.state).ok()?)
    }

    /// Polls the state dump until `ok` holds (20 s at most).
    fn wait_for(&self, what: &str, ok: impl Fn(&State) -> bool) -> State {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(s) = self.state().filter(|s| ok(s)) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; last state: {:?}; the window's stderr:\n{}",
                self.state(),
                std::fs::read_to_string(&self.log).unwrap_or_default()
            );
            sleep(Duration::from_millis(100));
        }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The app's `--dump-state` file.
#[derive(Debug, Clone)]
struct State {
    frames: u64,
    /// Simulated time (s).
    time: f64,
    paused: bool,
    /// Simulated over wall-clock seconds, smoothed (1 = real time).
    realtime: f32,
    /// The hand's force while it pulls a particle (N).
    hand_force: Option<f32>,
    /// The hand's strength (N; inf = kinematic).
    hand_max: f32,
    /// Substeps and iterations applied, and whether a choice is pending.
    counts: (u32, u32, bool),
    /// The particle the hand holds.
    held: Option<usize>,
    /// The start-up hint is shown.
    hint: bool,
    /// Frames drawn per second, averaged over the last second.
    fps: f32,
    /// Anti-aliasing on.
    antialias: bool,
    plot_detail: bool,
    /// How far the side panel is scrolled (points).
    panel_scroll: f32,
    /// What the anti-aliasing trial measured: ms per frame with and without.
    antialias_ms: Option<(f32, f32)>,
    errors: Vec<String>,
    /// (position, screen position, pinned)
    particles: Vec<([f32; 3], [f32; 2], bool)>,
    /// The lane of each particle line (0, or 1 for compare mode's right lane).
    lanes: Vec<u8>,
    /// Per rigid body: (centre, its screen position, fixed, held).
    rigids: Vec<([f32; 3], [f32; 2], bool, bool)>,
    /// The overlays over the view: (name, [x0, y0, x1, y1] in pixels).
    rects: Vec<(String, [f32; 4])>,
    /// The strain colour scale's top (None: auto).
    strain_scale: Option<f32>,
    /// A drawn frame's time by part (ms): solver, meshes, ui, drawing, frame.
    budget: Option<[f32; 5]>,
}

impl State {
    fn parse(text: &str) -> Option<Self> {
        let mut s = State {
            frames: 0,
            time: 0.0,
            paused: false,
            realtime: 1.0,
            hand_force: None,
            hand_max: 0.0,
            counts: (0, 0, false),
            held: None,
            hint: false,
            fps: 0.0,
            antialias: false,
            plot_detail: true,
            panel_scroll: 0.0,
            antialias_ms: None,
            errors: vec![],
            particles: vec![],
            lanes: vec![],
            rigids: vec![],
            rects: vec![],
            strain_scale: None,
            budget: None,
        };
        let mut expected = None;
        for line in text.lines() {
            let (key, rest) = line.split_once(' ')?;
            match key {
                "frames" => s.frames = rest.parse().ok()?,
                "time" => s.time = rest.parse().ok()?,
                "paused" => s.paused = rest == "true",
                "realtime" => s.realtime = rest.parse().ok()?,
                "hint" => s.hint = rest == "true",
                "hand_max" => s.hand_max = rest.parse().ok()?,
                "counts" => {
                    let v: Vec<&str> = rest.split(' ').collect();
                    s.counts = (v[0].parse().ok()?, v[1].parse().ok()?, v[2] == "true");
                }
                "fps" => s.fps = rest.parse().ok()?,
                "budget" => {
                    // solver S meshes M ui U drawing D frame F
                    let v: Vec<f32> = (rest.split(' ').skip(1).step_by(2))
                        .map(|x| x.parse().unwrap_or(f32::NAN))
                        .collect();
                    s.budget = Some([v[0], v[1], v[2], v[3], v[4]]);
                }
                "antialias" => s.antialias = rest == "true",
                "plot_detail" => s.plot_detail = rest == "true",
                "panel_scroll" => s.panel_scroll = rest.parse().ok()?,
                "antialias_ms" => {
                    let (a, b) = rest.split_once(' ')?;
                    s.antialias_ms = Some((a.parse().ok()?, b.parse().ok()?));
                }
                "hand_force" => {
                    s.hand_force = rest
                        .strip_prefix("Some(")
                        .and_then(|r| r.strip_suffix(')'))
                        .and_then(|f| f.parse().ok())
                }
                "held" => {
                    s.held = rest
                        .strip_prefix("Some(")
                        .and_then(|r| r.strip_suffix(')'))
                        .and_then(|i| i.parse().ok())
                }
                "error" => s.errors.push(rest.to_string()),
                "rect" => {
                    let mut v = rest.split(' ');
                    let name = v.next()?.to_string();
                    let r: Vec<f32> = v.map(|x| x.parse().unwrap_or(f32::NAN)).collect();
                    s.rects.push((name, [r[0], r[1], r[2], r[3]]));
                }
                "strain_scale" => {
                    s.strain_scale = rest
                        .strip_prefix("Some(")
                        .and_then(|r| r.strip_suffix(')'))
                        .and_then(|f| f.parse().ok())
                }
                "rigid" => {
                    let v: Vec<f32> = (rest.split(' ').skip(1))
                        .map(|x| x.parse().unwrap_or(f32::NAN))
                        .collect();
                    s.rigids
                        .push(([v[0], v[1], v[2]], [v[3], v[4]], v[5] == 1.0, v[6] == 1.0));
                }
                "particles" => expected = Some(rest.parse::<usize>().ok()?),
                k if k.parse::<usize>().is_ok() => {
                    let v: Vec<f32> = rest
                        .split(' ')
                        .map(|x| x.parse().unwrap_or(f32::NAN))
                        .collect();
                    s.particles
                        .push(([v[0], v[1], v[2]], [v[3], v[4]], v[5] == 1.0));
                    s.lanes.push(v.get(6).map_or(0, |&l| l as u8));
                }
                _ => {}
            }
        }
        (expected == Some(s.particles.len())).then_some(s)
    }
}

#[test]
fn the_mouse_wheel_scrolls_the_side_panel_down_to_the_bodies() {
    // Five notches over the panel: at egui-macroquad's 1/90 of a line a
    // notch they moved it 2 points, so the per-body sliders below the fold
    // at 1280 × 800 were out of reach of the wheel.
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-wheel");
    let app = App::start(&x, &dir, &[]);
    let s = app.wait_for("the first frames", |s| s.frames > 10);
    assert_eq!(s.panel_scroll, 0.0);
    x.xdotool(&["mousemove", "1150", "400"]);
    x.xdotool(&["click", "--repeat", "5", "--delay", "50", "5"]);
    let s = app.wait_for("the panel to scroll", |s| s.panel_scroll >= 150.0);
    println!(
        "five notches down: the panel scrolled {} points",
        s.panel_scroll
    );
    x.xdotool(&["click", "--repeat", "5", "--delay", "50", "4"]);
    app.wait_for("the panel to scroll back", |s| s.panel_scroll == 0.0);
}

/// The largest strain of the default scene's sheet's grid links (rigid,
/// 30 × 24 particles from world index 25, 1.5 m × 1.2 m) in a state dump.
fn default_sheet_strain(s: &State) -> f32 {
    let (columns, rows, first) = (30, 24, 25);
    let at = |r: usize, c: usize| glam::Vec3::from_array(s.particles[first + r * columns + c].0);
    let (dx, dz) = (1.5 / 29.0, 1.2 / 23.0);
    let mut most = 0f32;
    for r in 0..rows {
        for c in 0..columns {
            if c + 1 < columns {
                most = most.max(at(r, c).distance(at(r, c + 1)) / dx - 1.0);
            }
            if r + 1 < rows {
                most = most.max(at(r, c).distance(at(r + 1, c)) / dz - 1.0);
            }
        }
    }
    most
}

#[test]
fn dragging_the_default_sheet_lags_the_cursor_instead_of_stretching_it() {
    // The mouse goes down where the free corner is drawn (the hand takes
    // the sheet particle it meets there) and drags 290 px down and right.
    // The window's hand is 38 N, 5 × the weight of what can move: without
    // the rigid-link limit of its pull the sheet stretched 127 % here.
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-sheet-drag");
    let app = App::start(&x, &dir, &[]);
    let s = app.wait_for("the sheet to settle", |s| {
        s.time > 5.0 && s.particles.len() == 745
    });
    let hanging = default_sheet_strain(&s);
    let corner = 25 + 23 * 30 + 29;
    let [sx, sy] = s.particles[corner].1;
    x.xdotool(&["mousemove", &format!("{sx:.0}"), &format!("{sy:.0}")]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "1"]);
    for k in 1..=10 {
        sleep(Duration::from_millis(60));
        let (px, py) = (sx + 25.0 * k as f32, sy + 15.0 * k as f32);
        x.xdotool(&["mousemove", &format!("{px:.0}"), &format!("{py:.0}")]);
    }
    let start = app.state().unwrap().time;
    let held = app.wait_for("a second of holding", |s| s.time > start + 1.0);
    x.xdotool(&["mouseup", "1"]);
    let pulled = default_sheet_strain(&held);
    println!(
        "sheet: {:.2}% hanging, {:.2}% held by particle {:?} with {:?} N",
        100.0 * hanging,
        100.0 * pulled,
        held.held,
        held.hand_force
    );
    assert!(
        held.held.is_some_and(|i| (25..745).contains(&i)),
        "the hand took hold of the sheet"
    );
    assert!(held.hand_force.is_some_and(|f| f > 0.0), "and pulls it");
    assert!(
        pulled <= hanging + 0.05,
        "{pulled} held against {hanging} hanging"
    );
}

/// A rope hanging straight down at rest from a pin: it stays still until touched.
const STILL_ROPE: &str = "Scene(name: \"still rope\", solver: (air_drag: 0.5),
    bodies: [Rope(start: (0.0, 2.0, 0.0), end: (0.0, 1.0, 0.0), segments: 10, compliance: 0.0, pins: [0])],
    camera: (target: (0.0, 1.5, 0.0), distance: 3.0))";

#[test]
fn the_window_opens_and_draws_a_non_blank_frame() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-blank");
    let png = dir.join("shot.png");
    let app = App::start(
        &x,
        &dir,
        &[
            "--screenshot",
            png.to_str().unwrap(),
            "--screenshot-after",
            "1.5",
        ],
    );
    app.wait_for("a few frames", |s| s.frames > 30);
    // The frame's budget: each part measured, and the parts (one after
    // another in a frame) within the whole frame, give or take the
    // smoothing's lag.
    let state = app.state().expect("a state dump");
    let [solver, meshes, ui, drawing, frame] = state.budget.expect("a budget line");
    println!("budget: solver {solver} meshes {meshes} ui {ui} drawing {drawing} frame {frame} ms");
    assert!(
        [solver, meshes, ui, drawing]
            .iter()
            .all(|&p| p.is_finite() && p >= 0.0)
    );
    assert!(solver > 0.0 && meshes > 0.0 && ui > 0.0 && frame > 0.0);
    assert!(
        solver + meshes + ui + drawing <= 1.25 * frame + 1.0,
        "parts over the frame"
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while !png.exists() {
        assert!(Instant::now() < deadline, "no screenshot");
        sleep(Duration::from_millis(100));
    }
    sleep(Duration::from_millis(300));
    let img = image::open(&png).expect("a PNG").to_rgb8();
    assert_eq!((img.width(), img.height()), (1280, 800));
    // The 3D view (left of the panel, above the plots) is not just background:
    // the rope, cloth, pins and ground grid cover a good part of it.
    let background = *img.get_pixel(5, 5);
    let (mut drawn, mut total) = (0, 0);
    let mut colours = std::collections::HashSet::new();
    for y in (0..640).step_by(2) {
        for x in (0..960).step_by(2) {
            let p = img.get_pixel(x, y);
            total += 1;
            if *p != background {
                drawn += 1;
                colours.insert(p.0);
            }
        }
    }
    println!(
        "{drawn} of {total} sampled pixels drawn, {} colours",
        colours.len()
    );
    assert!(
        drawn * 10 > total,
        "only {drawn} of {total} pixels differ from the background"
    );
    assert!(colours.len() >= 5, "only {} colours", colours.len());
}

#[test]
fn dragging_a_rope_particle_pulls_it_to_the_cursor_with_a_hands_strength() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-drag");
    let scene = dir.join("still.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let s = app.wait_for("the rope", |s| s.frames > 10 && s.particles.len() == 11);
    let (start_pos, [sx, sy], _) = s.particles[10];
    let [_, py] = s.particles[0].1;
    let reach = sy - py; // the 1 m rope's length on screen
    let drag = |from: (f32, f32), to: (f32, f32)| {
        for k in 1..=10 {
            let f = k as f32 / 10.0;
            sleep(Duration::from_millis(60));
            x.xdotool(&[
                "mousemove",
                &format!("{:.0}", from.0 + (to.0 - from.0) * f),
                &format!("{:.0}", from.1 + (to.1 - from.1) * f),
            ]);
        }
        sleep(Duration::from_millis(1000));
    };
    x.xdotool(&["mousemove", &format!("{sx:.0}"), &format!("{sy:.0}")]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "1"]);
    // Within the rope's reach, holding it up needs less than the hand's
    // strength (5 × the rope's weight): the particle follows the cursor.
    let near = (sx + 0.55 * reach, sy - 0.2 * reach);
    drag((sx, sy), near);
    let held = app.state().unwrap();
    let (pos, [hx, hy], _) = held.particles[10];
    println!(
        "particle 10: screen ({sx}, {sy}) → ({hx}, {hy}), cursor at {near:?}; world {start_pos:?} → {pos:?}; hand {:?} N",
        held.hand_force
    );
    // 3 px allows for the mouse being sampled a frame before the dump.
    assert!(
        (hx - near.0).abs() < 3.0 && (hy - near.1).abs() < 3.0,
        "particle at ({hx}, {hy}), cursor at {near:?}"
    );
    assert!(
        pos[0] - start_pos[0] > 0.3,
        "the rope end did not move right: {pos:?}"
    );
    let force = held.hand_force.expect("a capped hand reports its force");
    assert!(force > 0.0 && force < 49.1, "{force} N");
    // Twice the rope's reach away: the hand pulls at full strength and
    // the particle lags; the rigid rope stays its length instead of
    // stretching to the cursor (kinematic holding stretched it 84%).
    let far = (sx + 2.0 * reach, sy - 0.2 * reach);
    drag(near, far);
    let held = app.state().unwrap();
    x.xdotool(&["mouseup", "1"]);
    let (pin, tip) = (held.particles[0].0, held.particles[10].0);
    let length =
        ((tip[0] - pin[0]).powi(2) + (tip[1] - pin[1]).powi(2) + (tip[2] - pin[2]).powi(2)).sqrt();
    println!(
        "pulled far: pin to tip {length:.4} m, hand {:?} N",
        held.hand_force
    );
    assert!(length < 1.02, "the rope stretched to {length} m");
    let [hx, _] = held.particles[10].1;
    assert!(
        hx < far.0 - 0.5 * reach,
        "the particle should lag the cursor"
    );
}

/// A soft box (27 particles, 0..27) and a balloon (42, 27..69) resting
/// on the ground, both with rigid edges.
const SOLIDS: &str = "Scene(name: \"solids\", solver: (air_drag: 0.5),
    bodies: [SoftBox(center: (-0.5, 0.2, 0.0), size: (0.4, 0.4, 0.4), resolution: (2, 2, 2),
                     mass: 1.0, edge_compliance: 0.0, radius: 0.02),
             Balloon(center: (0.6, 0.32, 0.0), sphere_radius: 0.3, subdivisions: 1, mass: 0.1,
                     stretch_compliance: 0.0, radius: 0.02)],
    colliders: [Ground()],
    camera: (target: (0.0, 0.5, 0.0), distance: 3.5, pitch: 15.0))";

/// The largest distance between two of `particles`.
fn span(s: &State, particles: std::ops::Range<usize>) -> f32 {
    let p = |i: usize| glam::Vec3::from(s.particles[i].0);
    particles
        .clone()
        .flat_map(|i| particles.clone().map(move |j| (i, j)))
        .map(|(i, j)| p(i).distance(p(j)))
        .fold(0.0, f32::max)
}

/// Mean height of `particles` (m).
fn mean_height(s: &State, particles: std::ops::Range<usize>) -> f32 {
    let n = particles.len() as f32;
    particles.map(|i| s.particles[i].0[1]).sum::<f32>() / n
}

#[test]
fn a_soft_box_and_a_balloon_are_lifted_whole_by_the_hand_and_a_pin_holds_the_balloon_up() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-solids");
    let scene = dir.join("solids.ron");
    std::fs::write(&scene, SOLIDS).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let (cube, balloon) = (0..27, 27..69);
    // At rest: a second in and the box no longer moving between two
    // reads of the state (a frame count alone once let the drag start on
    // a box still settling, and the hand missed it).
    let last = std::cell::Cell::new(f32::NAN);
    let rest = app.wait_for("the solids at rest", |s| {
        if s.particles.len() != 69 || s.time < 1.0 {
            return false;
        }
        let h = mean_height(s, cube.clone());
        (h - last.replace(h)).abs() < 1e-3
    });
    let (box_span, ball_span) = (span(&rest, cube.clone()), span(&rest, balloon.clone()));
    // The highest particle of a body on screen (top of the window = 0).
    let top = |s: &State, r: std::ops::Range<usize>| {
        r.min_by(|&a, &b| s.particles[a].1[1].total_cmp(&s.particles[b].1[1]))
            .unwrap()
    };
    let lift = |from: [f32; 2], pixels: f32| {
        x.xdotool(&[
            "mousemove",
            &format!("{:.0}", from[0]),
            &format!("{:.0}", from[1]),
        ]);
        sleep(Duration::from_millis(300));
        x.xdotool(&["mousedown", "1"]);
        for k in 1..=10 {
            sleep(Duration::from_millis(60));
            let y = from[1] - pixels * k as f32 / 10.0;
            x.xdotool(&["mousemove", &format!("{:.0}", from[0]), &format!("{y:.0}")]);
        }
        sleep(Duration::from_millis(1200));
    };
    // The box, taken by its top: it comes off the ground whole.
    lift(rest.particles[top(&rest, cube.clone())].1, 120.0);
    let held = app.state().unwrap();
    x.xdotool(&["mouseup", "1"]);
    println!(
        "box: held {:?}, mean height {:.3} → {:.3} m, span {box_span:.4} → {:.4} m",
        held.held,
        mean_height(&rest, cube.clone()),
        mean_height(&held, cube.clone()),
        span(&held, cube.clone())
    );
    assert!(
        held.held.is_some_and(|i| cube.contains(&i)),
        "{:?}",
        held.held
    );
    assert!(
        mean_height(&held, cube.clone()) > mean_height(&rest, cube.clone()) + 0.15,
        "the box did not come up"
    );
    // Rigid edges: the box keeps its shape in the hand (within 3 %, the
    // cells' diagonals bending a little) instead of stretching to the cursor.
    assert!((span(&held, cube.clone()) / box_span - 1.0).abs() < 0.03);
    // The balloon, lifted by its top and pinned there by a right-click
    // while held: it hangs from the pin, off the ground, keeping its shape.
    sleep(Duration::from_millis(1500));
    let before = app.state().unwrap();
    let i = top(&before, balloon.clone());
    lift(before.particles[i].1, 100.0);
    x.xdotool(&["mousedown", "3"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "3"]);
    x.xdotool(&["mouseup", "1"]);
    let pinned = app.wait_for("the pin", |s| s.particles[i].2);
    let frames = pinned.frames;
    let hung = app.wait_for("1.5 s hanging", |s| s.frames > frames + 90);
    let lowest = balloon
        .clone()
        .map(|k| hung.particles[k].0[1])
        .fold(f32::INFINITY, f32::min);
    println!(
        "balloon: particle {i} pinned at {:?} (then {:?}), lowest point {lowest:.3} m, span {ball_span:.4} → {:.4} m",
        pinned.particles[i].0,
        hung.particles[i].0,
        span(&hung, balloon.clone())
    );
    assert!(hung.particles[i].2);
    assert_eq!(hung.particles[i].0, pinned.particles[i].0, "the pin moved");
    assert!(lowest > 0.05, "the balloon sank to the ground: {lowest} m");
    assert!((span(&hung, balloon.clone()) / ball_span - 1.0).abs() < 0.05);
}

#[test]
fn the_hand_lifts_a_rigid_box_by_a_point_and_right_click_fixes_it_in_the_air_and_frees_it() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-rigid");
    let scene = dir.join("rigid.ron");
    std::fs::write(
        &scene,
        "Scene(name: \"rigid\",
          bodies: [Rigid(shape: Box(half_extents: (0.15, 0.15, 0.15)), position: (0.0, 0.15, 0.0),
                         density: 500.0)],
          colliders: [Ground()],
          camera: (target: (0.0, 0.5, 0.0), distance: 3.0, pitch: 10.0))",
    )
    .unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let rest = app.wait_for("the box at rest", |s| s.frames > 30 && s.rigids.len() == 1);
    let (centre, screen, ..) = rest.rigids[0];
    let at = |x_px: f32, y_px: f32| [format!("{x_px:.0}"), format!("{y_px:.0}")];
    let [sx, sy] = at(screen[0], screen[1]);
    x.xdotool(&["mousemove", &sx, &sy]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "1"]);
    for k in 1..=10 {
        sleep(Duration::from_millis(60));
        let [mx, my] = at(screen[0], screen[1] - 15.0 * k as f32);
        x.xdotool(&["mousemove", &mx, &my]);
    }
    // 150 px up at about 3 m: the 13.5 kg box (a 662 N hand) comes up
    // by the point held, its centre at least 0.25 m higher.
    let lifted = app.wait_for("the box lifted", |s| {
        s.rigids[0].3 && s.rigids[0].0[1] > centre[1] + 0.25
    });
    println!("lifted: {:?} from {centre:?}", lifted.rigids[0]);
    // A right-click while held: the hand lets go and the box is fixed
    // where it is, in the air.
    x.xdotool(&["mousedown", "3"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "3"]);
    x.xdotool(&["mouseup", "1"]);
    let fixed = app.wait_for("the box fixed", |s| s.rigids[0].2 && !s.rigids[0].3);
    let frames = fixed.frames;
    let later = app.wait_for("a second fixed", |s| s.frames > frames + 60);
    assert_eq!(later.rigids[0].0, fixed.rigids[0].0, "a fixed box moved");
    assert!(
        later.rigids[0].0[1] > centre[1] + 0.2,
        "{:?}",
        later.rigids[0]
    );
    // Right-click it again: freed, it falls back onto the ground.
    let [fx, fy] = at(later.rigids[0].1[0], later.rigids[0].1[1]);
    x.xdotool(&["mousemove", &fx, &fy]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "3"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "3"]);
    let landed = app.wait_for("the box back on the ground", |s| {
        !s.rigids[0].2 && (s.rigids[0].0[1] - centre[1]).abs() < 0.01
    });
    println!("landed: {:?}", landed.rigids[0]);
}

#[test]
fn right_click_pins_a_particle_which_then_stays_put_and_ctrl_s_saves_it_with_the_state() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-pin");
    let scene = dir.join("horizontal.ron");
    // Horizontal rope, left end pinned; paused at once so it is still straight.
    std::fs::write(
        &scene,
        "Scene(bodies: [Rope(start: (-1.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 10, pins: [0])],
               camera: (target: (0.0, 1.5, 0.0), distance: 4.0))",
    )
    .unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    x.xdotool(&["key", "space"]);
    let s = app.wait_for("pause", |s| s.paused);
    sleep(Duration::from_millis(500));
    let s2 = app.state().unwrap();
    assert_eq!(s.particles[10].0, s2.particles[10].0, "space did not pause");
    let (before, [sx, sy], pinned) = s2.particles[10];
    assert!(!pinned);
    x.xdotool(&["mousemove", &format!("{sx:.0}"), &format!("{sy:.0}")]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "3"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "3"]);
    app.wait_for("the pin", |s| s.particles[10].2);
    x.xdotool(&["mousemove", "400", "700"]);
    x.xdotool(&["key", "space"]);
    let frames = app.wait_for("run", |s| !s.paused).frames;
    let after = app.wait_for("1.5 s of simulation", |s| s.frames > frames + 90);
    let (pos, _, pinned) = after.particles[10];
    assert!(pinned);
    assert_eq!(pos, before, "the pinned end moved");
    let middle = after.particles[5].0;
    assert!(
        middle[1] < 1.9,
        "the free middle should sag under gravity: {middle:?}"
    );
    // Ctrl+S while paused saves what is shown — the run-time pin and the
    // positions, bit for bit — and reopening starts from it.
    x.xdotool(&["key", "space"]);
    app.wait_for("pause", |s| s.paused);
    sleep(Duration::from_millis(300));
    let shown = app.state().unwrap();
    // Held across frames, as a person does (a one-frame chord can lose Ctrl).
    x.xdotool(&["keydown", "ctrl"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["key", "s"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["keyup", "ctrl"]);
    let saved_path = dir.join("horizontal.edited.ron");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !saved_path.exists() && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    let saved = catenary::scene::load(&saved_path).expect("Ctrl+S wrote a valid scene");
    let state = saved.state.expect("with the world's state");
    assert!(
        state.bodies[0].pins.contains(&10),
        "{:?}",
        state.bodies[0].pins
    );
    for (k, p) in shown.particles.iter().enumerate() {
        assert_eq!(state.bodies[0].positions[k], p.0, "particle {k}");
    }
    drop(app);
    let reopened = App::start(&x, &dir, &[saved_path.to_str().unwrap()]);
    let first = reopened.wait_for("the saved scene", |s| s.particles.len() == 11);
    assert!(
        first.time >= state.time,
        "starts at {} s, saved at {} s",
        first.time,
        state.time
    );
    let (pos, _, pinned) = first.particles[10];
    assert!(
        pinned && pos == before,
        "the run-time pin is back where it was"
    );
}

#[test]
fn a_broken_edit_shows_the_error_and_fixing_it_reloads() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-reload");
    let scene = dir.join("edit.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let mut app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    app.wait_for("the rope", |s| s.particles.len() == 11);
    std::fs::write(
        &scene,
        STILL_ROPE.replace("segments: 10", "segments: 10,, oops"),
    )
    .unwrap();
    let broken = app.wait_for("the error", |s| !s.errors.is_empty());
    println!("shown: {:?}", broken.errors);
    // The edit is on line 2 of the file.
    assert!(
        broken.errors[0].contains("edit.ron:2:"),
        "{:?}",
        broken.errors
    );
    let frames = broken.frames;
    let still = app.wait_for("frames after the error", |s| s.frames > frames + 30);
    assert_eq!(
        still.particles.len(),
        11,
        "the last good scene keeps running"
    );
    assert!(app.running());
    std::fs::write(&scene, STILL_ROPE.replace("segments: 10", "segments: 20")).unwrap();
    let fixed = app.wait_for("the reload", |s| {
        s.errors.is_empty() && s.particles.len() == 21
    });
    assert!(fixed.errors.is_empty());
    // A value out of range is reported too, with its field.
    std::fs::write(&scene, STILL_ROPE.replace("segments: 10", "segments: 0")).unwrap();
    let invalid = app.wait_for("the range error", |s| !s.errors.is_empty());
    assert!(
        invalid.errors[0].contains("bodies[0].segments"),
        "{:?}",
        invalid.errors
    );
    assert!(app.running());
}

#[test]
fn a_reload_that_makes_the_rope_heavier_makes_the_hand_stronger() {
    // The hand is 5 × the weight of what can move, from the scene: a hot
    // reload that doubles the mass doubles it (it kept the old hand).
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-reload-hand");
    let scene = dir.join("rope.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let before = app
        .wait_for("the rope", |s| s.particles.len() == 11)
        .hand_max;
    std::fs::write(
        &scene,
        STILL_ROPE.replace("segments: 10,", "segments: 10, mass: 2.0,"),
    )
    .unwrap();
    let after = app
        .wait_for("the reload", |s| s.hand_max > before * 1.5)
        .hand_max;
    println!("hand {before} N, then {after} N after the mass doubled");
    // 10 of the 11 particles of 1 kg, then 2 kg, can move: 5 × m·g.
    assert!((before - 5.0 * 9.81 * 10.0 / 11.0).abs() < 1e-3, "{before}");
    assert!((after - 2.0 * before).abs() < 1e-3, "{after}");
}

#[test]
fn a_scene_too_heavy_for_real_time_says_how_far_behind_it_runs() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-realtime");
    // 1,200 particles at 1,000 substeps × 10 passes: far more than a
    // frame's budget on any machine this runs on (1,000 × 1 ran at 0.62×
    // real time on an idle 2-core machine), and still a few frames a second.
    let heavy =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/curtain.ron"))
            .unwrap()
            .replacen("substeps: 20", "substeps: 1000, iterations: 10", 1);
    assert!(heavy.contains("substeps: 1000"), "{heavy}");
    let scene = dir.join("heavy.ron");
    std::fs::write(&scene, heavy).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let behind = app.wait_for("the real-time ratio to fall", |s| s.realtime < 0.5);
    println!("runs at {:.2}× real time", behind.realtime);
    // The light still rope keeps up.
    drop(app);
    let scene = dir.join("still.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    // (The ratio is smoothed over about a second; start-up frames are slow.)
    let fine = app.wait_for("real time", |s| s.realtime > 0.95);
    println!("the still rope runs at {:.2}× real time", fine.realtime);
}

#[test]
fn dragging_the_iterations_slider_applies_nothing_until_release_and_cancel_keeps_what_was_there() {
    // curtain_128 (97,026 constraints): dragged from 1 to 100 iterations,
    // every value on the way used to be applied (200 × 35 left it at
    // 4 fps, and Cancel kept that); now nothing is applied while the
    // slider moves, the costly end waits for Apply, and Cancel leaves 1.
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-guard");
    let scene = dir.join("c.ron");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/curtain_128.ron"),
        &scene,
    )
    .unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    app.wait_for("the curtain", |s| s.frames > 3 && s.counts.0 == 20);
    // The iterations slider's handle at 1 (its row is at y 204 or 214 as
    // the status line above takes one line or two: 208 is on both).
    x.xdotool(&["mousemove", "983", "208"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "1"]);
    for px in [1000, 1020, 1040, 1060, 1078] {
        sleep(Duration::from_millis(150));
        x.xdotool(&["mousemove", &px.to_string(), "208"]);
    }
    let held = app.wait_for("the drag pending", |s| s.counts.2);
    assert_eq!(
        (held.counts.0, held.counts.1),
        (20, 1),
        "applied while dragged"
    );
    x.xdotool(&["mouseup", "1"]);
    let frames = app.state().unwrap().frames;
    let after = app.wait_for("frames after the release", |s| s.frames > frames + 3);
    assert_eq!(
        after.counts,
        (20, 1, true),
        "the costly choice did not wait for Apply"
    );
    // Cancel, beside Apply under the prompt (y 256 or 266: 260 is on both).
    x.xdotool(&["mousemove", "1045", "260"]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["click", "1"]);
    let cancelled = app.wait_for("the cancel", |s| !s.counts.2);
    assert_eq!((cancelled.counts.0, cancelled.counts.1), (20, 1));
}

#[test]
fn a_hint_says_what_to_do_until_the_first_interaction() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-hint");
    let scene = dir.join("still.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let first = app.wait_for("some frames", |s| s.frames > 30);
    assert!(first.hint, "the hint shows at start");
    sleep(Duration::from_millis(1500));
    assert!(
        app.state().unwrap().hint,
        "and stays until the user does something"
    );
    x.xdotool(&["key", "Escape"]);
    app.wait_for("the hint to fade", |s| !s.hint);
}

#[test]
fn compare_mode_shows_pbd_and_xpbd_side_by_side_under_one_hand() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-compare");
    let scene = dir.join("soft.ron");
    // A soft chain: XPBD stretches it, PBD does not.
    std::fs::write(
        &scene,
        STILL_ROPE.replace("compliance: 0.0", "compliance: 0.001"),
    )
    .unwrap();
    let app = App::start(&x, &dir, &["--compare", scene.to_str().unwrap()]);
    let s = app.wait_for("two lanes", |s| s.frames > 60 && s.particles.len() == 22);
    assert_eq!(s.lanes.iter().filter(|&&l| l == 1).count(), 11);
    let (left, right) = s.particles.split_at(11);
    // Lane 1 (XPBD) hangs lower than lane 0 (PBD), and is drawn to its right.
    println!("tips: PBD {:?}, XPBD {:?}", left[10].0, right[10].0);
    assert!(
        right[10].0[1] < left[10].0[1] - 0.003,
        "{:?} vs {:?}",
        right[10].0,
        left[10].0
    );
    assert!(right[10].1[0] > left[10].1[0] + 100.0);
    // Right-click a particle near the top of the right lane (it moves
    // least while the soft chain bounces): both lanes pin it.
    x.xdotool(&["mousemove", "300", "300"]);
    sleep(Duration::from_millis(200));
    let [sx, sy] = app.state().unwrap().particles[11 + 2].1;
    x.xdotool(&["mousemove", &format!("{sx:.0}"), &format!("{sy:.0}")]);
    sleep(Duration::from_millis(300));
    x.xdotool(&["mousedown", "3"]);
    sleep(Duration::from_millis(150));
    x.xdotool(&["mouseup", "3"]);
    let pinned = app.wait_for("the pin in both lanes", |s| {
        s.particles[2].2 && s.particles[13].2
    });
    assert!(pinned.particles[2].2 && pinned.particles[13].2);
    // A hot reload rebuilds both lanes from the new file.
    std::fs::write(
        &scene,
        STILL_ROPE
            .replace("compliance: 0.0", "compliance: 0.001")
            .replace("segments: 10", "segments: 20"),
    )
    .unwrap();
    let reloaded = app.wait_for("both lanes reloaded", |s| s.particles.len() == 42);
    assert_eq!(reloaded.lanes.iter().filter(|&&l| l == 1).count(), 21);
}

#[test]
fn compare_mode_lays_its_caption_legend_and_lane_labels_clear_of_each_other_and_the_pins() {
    // lesson_soft_chain in compare mode, coloured by strain: the lesson's
    // compare caption between the lanes, the colour legend at the bottom
    // left, a label at the top of each lane — none over another, none
    // over a lane's pin — and the strain scale chosen for the lesson
    // after its first second (XPBD's soft chain stretches about 5 %, all
    // red on the old fixed 0–2 %).
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-compare-layout");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lesson_soft_chain.ron");
    let app = App::start(
        &x,
        &dir,
        &["--compare", "--colour", "strain", scene.to_str().unwrap()],
    );
    let s = app.wait_for("two lanes laid out, a second in", |s| {
        s.time > 1.2 && s.rects.len() == 4 && s.lanes.contains(&1)
    });
    let names: Vec<&str> = s.rects.iter().map(|(n, _)| n.as_str()).collect();
    println!("{:?}, strain scale {:?}", s.rects, s.strain_scale);
    for want in ["caption", "legend", "lane"] {
        assert!(names.contains(&want), "no {want} among {names:?}");
    }
    let inside =
        |r: &[f32; 4], p: [f32; 2]| p[0] >= r[0] && p[0] <= r[2] && p[1] >= r[1] && p[1] <= r[3];
    for (i, (a, ra)) in s.rects.iter().enumerate() {
        for (b, rb) in &s.rects[i + 1..] {
            let apart = ra[2] < rb[0] || rb[2] < ra[0] || ra[3] < rb[1] || rb[3] < ra[1];
            assert!(apart, "{a} {ra:?} overlaps {b} {rb:?}");
        }
        for (k, p) in s.particles.iter().enumerate().filter(|(_, p)| p.2) {
            assert!(
                !inside(ra, p.1),
                "{a} {ra:?} covers pinned particle {k} at {:?}",
                p.1
            );
        }
    }
    let scale = s.strain_scale.expect("a fixed strain scale");
    assert!(scale > 0.02 && scale <= 0.2, "strain scale {scale}");
}

#[test]
fn record_a_drag_in_the_window_and_replay_it_headless() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-record");
    let scene = dir.join("still.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    let app = App::start(&x, &dir, &[scene.to_str().unwrap()]);
    let s = app.wait_for("the rope", |s| s.frames > 10 && s.particles.len() == 11);
    let [sx, sy] = s.particles[10].1;
    // The panel's Record button: its row sits under Save as, at the same
    // place in every 1280×800 window.
    let click = |px: &str, py: &str| {
        x.xdotool(&["mousemove", px, py]);
        sleep(Duration::from_millis(300));
        x.xdotool(&["click", "1"]);
        sleep(Duration::from_millis(300));
    };
    click("995", "120");
    x.xdotool(&["mousemove", &format!("{sx:.0}"), &format!("{sy:.0}")]);
    sleep(Duration::from_millis(400));
    x.xdotool(&["mousedown", "1"]);
    sleep(Duration::from_millis(200));
    for k in 1..=10 {
        x.xdotool(&[
            "mousemove",
            &format!("{:.0}", sx + 20.0 * k as f32),
            &format!("{:.0}", sy - 5.0 * k as f32),
        ]);
        sleep(Duration::from_millis(50));
    }
    app.wait_for("the held particle", |s| s.particles[10].0[0] > 0.2);
    x.xdotool(&["mouseup", "1"]);
    sleep(Duration::from_millis(800));
    click("1010", "120"); // Stop recording
    let rec = dir.join("still.rec.ron");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !rec.exists() && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    let recording = catenary::record::load(&rec).expect("a valid recording");
    let events = format!("{:?}", recording.events);
    assert!(
        events.contains("Grab(10)") && events.contains("Release"),
        "{events}"
    );
    // Headless, the recording gives a world that moved as the hand moved it.
    let replayed = catenary::record::replay(&recording);
    assert!(replayed.particles.pos().iter().all(|p| p.is_finite()));
    assert!(
        replayed.particles.pos()[10].x.abs() > 1e-3,
        "the drag was replayed"
    );
    // In the window, Replay (beside Record) plays the recording just made
    // while Open…'s field still names the scene: the world starts over
    // and the drag happens again, with no error banner (it read the scene
    // as a recording and said "Expected struct Recording").
    let before = app.state().unwrap();
    sleep(Duration::from_millis(600));
    click("1054", "120");
    let restarted = app.wait_for("the replay's start", |s| s.time < before.time);
    assert!(restarted.errors.is_empty(), "{:?}", restarted.errors);
    app.wait_for("the replayed drag", |s| s.particles[10].0[0] > 0.2);
}

/// A cloth held flat by its four corners 1.2 m over the ground, seen from
/// above at an angle, from the side its shadow falls on.
const HELD_SHEET: &str = "Scene(name: \"held sheet\", solver: (air_drag: 2.0),
    bodies: [Cloth(origin: (-0.6, 1.2, -0.6), size: (1.2, 1.2), resolution: (16, 16),
                   orientation: Horizontal, pins: [(0, 0), (0, -1), (-1, 0), (-1, -1)])],
    colliders: [Ground()],
    camera: (target: (-0.3, 0.4, -0.4), distance: 4.0, yaw: 200.0, pitch: 50.0))";

/// Screenshot of `scene` after 1.5 s, with extra `args`, and the fps the
/// app reported.
fn screenshot(x: &Xvfb, scene: &Path, args: &[&str], tag: &str) -> (image::RgbImage, f32) {
    let dir = TempDir::new(tag);
    let png = dir.join("shot.png");
    let mut all = vec![
        scene.to_str().unwrap(),
        "--screenshot",
        png.to_str().unwrap(),
        "--screenshot-after",
        "1.5",
    ];
    all.extend_from_slice(args);
    let app = App::start(x, &dir, &all);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !png.exists() {
        assert!(Instant::now() < deadline, "no screenshot");
        sleep(Duration::from_millis(100));
    }
    sleep(Duration::from_millis(300));
    let fps = app.wait_for("a second of frames", |s| s.fps > 0.0).fps;
    (image::open(&png).expect("a PNG").to_rgb8(), fps)
}

/// Screenshots (and fps) of the scene `text` with shadows on, then off.
fn with_and_without_shadows(x: &Xvfb, text: &str, tag: &str) -> [(image::RgbImage, f32); 2] {
    let dir = TempDir::new(&format!("window-shadow-{tag}"));
    let scene = dir.join("scene.ron");
    std::fs::write(&scene, text).unwrap();
    [
        screenshot(x, &scene, &[], &format!("window-shadow-{tag}-on")),
        screenshot(
            x,
            &scene,
            &["--no-shadows"],
            &format!("window-shadow-{tag}-off"),
        ),
    ]
}

/// Sum of a pixel's red, green and blue.
fn luminance(p: &image::Rgb<u8>) -> i32 {
    p.0.iter().map(|&c| c as i32).sum()
}

#[test]
fn shadows_darken_the_ground_under_a_held_sheet() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let [(on, fps_on), (off, fps_off)] = with_and_without_shadows(&x, HELD_SHEET, "sheet");
    // View pixels (left of the panel, above the plots) darker with shadows
    // on than off, and lighter.
    let (mut darker, mut lighter) = (0, 0);
    for y in 0..640 {
        for x in 0..960 {
            let d = luminance(on.get_pixel(x, y)) - luminance(off.get_pixel(x, y));
            darker += (d < -30) as usize;
            lighter += (d > 30) as usize;
        }
    }
    println!(
        "{darker} pixels darker with shadows, {lighter} lighter; {fps_on:.0} fps with, {fps_off:.0} without"
    );
    // The sheet's shadow covers tens of thousands of pixels of ground at
    // this distance; the sheet itself is where it was (it hangs still).
    assert!(darker > 20_000, "{darker} darker");
    assert!(lighter < darker / 20, "{lighter} lighter, {darker} darker");
}

/// The held sheet over a box on the ground: the box's top lies in the
/// sheet's shadow.
const SHEET_OVER_BOX: &str = "Scene(name: \"held sheet over a box\", solver: (air_drag: 2.0),
    bodies: [Cloth(origin: (-0.6, 1.2, -0.6), size: (1.2, 1.2), resolution: (16, 16),
                   orientation: Horizontal, pins: [(0, 0), (0, -1), (-1, 0), (-1, -1)])],
    colliders: [Ground(), Box(center: (-0.5, 0.25, -0.5), half_extents: (0.5, 0.25, 0.5))],
    camera: (target: (-0.3, 0.4, -0.4), distance: 4.0, yaw: 200.0, pitch: 50.0))";

#[test]
fn shadows_fall_on_a_box_under_a_held_sheet() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let [(on, _), (off, _)] = with_and_without_shadows(&x, SHEET_OVER_BOX, "box");
    // The box's lit faces without shadows: bright grey (the ground is
    // darker, the sheet blue).
    let stone = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0.map(|c| c as i32);
        r > 90 && (r - b).abs() < 25 && (r - g).abs() < 25
    };
    let (mut lit, mut shaded) = (0, 0);
    for y in 0..640 {
        for x in 0..960 {
            if stone(off.get_pixel(x, y)) {
                lit += 1;
                let d = luminance(on.get_pixel(x, y)) - luminance(off.get_pixel(x, y));
                shaded += (d < -60) as usize;
            }
        }
    }
    println!("{shaded} of the box's {lit} lit pixels in the sheet's shadow");
    // The sheet's shadow covers most of the box's top from this side.
    assert!(lit > 10_000, "{lit} box pixels");
    assert!(shaded > lit / 3, "{shaded} of {lit} in shadow");
}

#[test]
fn screenshot_every_saves_numbered_frames_of_a_falling_sheet() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-every");
    let png = dir.join("f.png");
    // The default scene's sheet falls and swings from its two corners: the
    // frames 0.3 s apart differ.
    let _app = App::start(
        &x,
        &dir,
        &[
            "--screenshot",
            png.to_str().unwrap(),
            "--screenshot-after",
            "0.5",
            "--screenshot-every",
            "0.3",
        ],
    );
    let frame = |k: usize| dir.join(format!("f-{k:03}.png"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while !frame(3).exists() {
        assert!(Instant::now() < deadline, "no fourth frame");
        sleep(Duration::from_millis(100));
    }
    sleep(Duration::from_millis(300));
    assert!(!png.exists(), "frames are numbered, not FILE itself");
    let (first, fourth) = (
        image::open(frame(0)).unwrap().to_rgb8(),
        image::open(frame(3)).unwrap().to_rgb8(),
    );
    let differing = first
        .pixels()
        .zip(fourth.pixels())
        .filter(|(a, b)| a != b)
        .count();
    println!("{differing} pixels differ between frames 0 and 3");
    assert!(differing > 1000, "{differing}");
}

/// Distinct colours in the 3D view of `img` (left of the panel, above the plots).
fn view_colours(img: &image::RgbImage) -> usize {
    let mut colours = std::collections::HashSet::new();
    for y in 0..640 {
        for x in 0..840 {
            colours.insert(img.get_pixel(x, y).0);
        }
    }
    colours.len()
}

#[test]
fn smooth_edges_blend_the_rope_into_the_background_and_are_dropped_where_they_cost_too_much() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-aa");
    let scene = dir.join("still.ron");
    std::fs::write(&scene, STILL_ROPE).unwrap();
    // Forced on and off: FXAA puts blended shades along every edge.
    let (on, _) = screenshot(&x, &scene, &["--antialias"], "window-aa-on");
    let (off, _) = screenshot(&x, &scene, &["--no-antialias"], "window-aa-off");
    let (c_on, c_off) = (view_colours(&on), view_colours(&off));
    println!("distinct colours in the view: {c_on} with FXAA, {c_off} without");
    assert!(c_on > c_off * 3 / 2, "{c_on} vs {c_off}");
    // Left to decide, the window measures the filter in its first frames
    // and says what it chose; under Xvfb's software rendering it costs
    // several times the frame, so it is dropped.
    let app = App::start_as_a_user_would(&x, &dir, &[scene.to_str().unwrap()]);
    let s = app.wait_for("the trial to end", |s| s.antialias_ms.is_some());
    println!(
        "after the trial: antialias {} ({:?} ms per frame with and without)",
        s.antialias, s.antialias_ms
    );
    assert!(!s.antialias, "llvmpipe: FXAA should not be affordable");
    assert!(
        !s.plot_detail,
        "nor the energy plot's fills, dropped with it"
    );
}

/// A rope held still along its whole length (every particle pinned),
/// filling the view's middle.
const HELD_ROPE: &str = "Scene(
    bodies: [Rope(start: (-0.6, 1.0, 0.0), end: (0.6, 1.0, 0.0), segments: 6, radius: 0.03,
                  pins: [0, 1, 2, 3, 4, 5, 6])],
    camera: (target: (0.0, 1.0, 0.0), distance: 1.6, yaw: 30.0, pitch: 25.0),
)";

#[test]
fn chains_as_links_draw_a_rope_as_hollow_interlocking_links() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(x) = Xvfb::start() else { return };
    let dir = TempDir::new("window-chain-scene");
    let scene = dir.join("rope.ron");
    std::fs::write(&scene, HELD_ROPE).unwrap();
    let (tube, _) = screenshot(&x, &scene, &["--no-shadows"], "window-chain-off");
    let (chain, _) = screenshot(
        &x,
        &scene,
        &["--no-shadows", "--chain-links"],
        "window-chain-on",
    );
    // Rope-coloured (tan: red well above blue) view pixels, in each and
    // in the chain only.
    let tan = |p: &image::Rgb<u8>| p.0[0] as i32 - p.0[2] as i32 > 60;
    let (mut in_tube, mut in_chain, mut only_chain, mut only_tube) = (0, 0, 0, 0);
    for y in 0..640 {
        for x in 0..960 {
            let (t, c) = (tan(tube.get_pixel(x, y)), tan(chain.get_pixel(x, y)));
            in_tube += t as usize;
            in_chain += c as usize;
            only_chain += (c && !t) as usize;
            only_tube += (t && !c) as usize;
        }
    }
    println!(
        "tan pixels: {in_tube} as a tube, {in_chain} as links, {only_chain} only as links, \
         {only_tube} only as a tube"
    );
    // Both draw the rope; the links (0.6 × a segment wide, 0.12 m here,
    // against the tube's 6 cm) reach where the tube does not, and their
    // holes leave out some of what it covered.
    assert!(in_tube > 2_000 && in_chain > 2_000, "{in_tube} {in_chain}");
    assert!(only_chain > in_tube / 5, "{only_chain} of {in_tube}");
    assert!(only_tube > in_tube / 10, "{only_tube} of {in_tube}");
}

/// A screen the server does not have and a server that refuses the
/// client's cookie: miniquad panicked on both (exit 101); the display
/// check makes the same handshake first and says why (issue 28).
#[test]
fn a_missing_screen_or_a_refused_cookie_is_an_error_not_a_panic() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !have("xauth") {
        eprintln!("SKIPPED: xauth is not installed; .ci/run installs it");
        return;
    }
    let dir = TempDir::new("refused-display");
    let run = |display: &str, authority: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_catenary"))
            .env("DISPLAY", display)
            .env("XAUTHORITY", authority)
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let none = dir.join("none");
    std::fs::write(&none, "").unwrap();
    {
        let Some(x) = Xvfb::start() else { return };
        let (code, err) = run(&format!("{}.7", x.display), &none);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains("no such screen"), "{err}");
    }
    // A server that reads its cookies from a file: a client without one is refused.
    let cookies = dir.join("cookies");
    let made = Command::new("xauth")
        .args(["-f", cookies.to_str().unwrap(), "add", ":0", "."])
        .arg("0123456789abcdef0123456789abcdef")
        .status()
        .unwrap();
    assert!(made.success(), "xauth add");
    let Some(x) = Xvfb::start_with(&["-auth", cookies.to_str().unwrap()]) else {
        return;
    };
    let (code, err) = run(&x.display, &none);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("refused"), "{err}");
}
