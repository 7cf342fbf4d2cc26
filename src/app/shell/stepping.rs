//! Stepping against the wall clock: whole frames of `dt` from an
//! accumulator, the real-time factor, and the statistics and plots after.

use macroquad::prelude::*;

use crate::clock::Stopwatch;

use crate::app::App;
use crate::app::ui::plots;
use crate::solver::World;

/// Frame-time statistics (milliseconds), smoothed.
#[derive(Default)]
pub(in crate::app) struct Timing {
    /// Per simulated frame (one `World::step`).
    pub solver_ms: f32,
    /// Where a drawn frame's time goes: the steps it took, building the
    /// meshes (and queueing them), egui's panels, drawing (the filter and
    /// egui's meshes), and the whole frame (the rest is the driver's:
    /// macroquad submits the draw calls at the end of the frame).
    pub budget: Budget,
    /// Constraint projections per second of solver time, smoothed (0 = not measured yet).
    pub rate: f64,
}

/// A drawn frame's time by part (ms, smoothed); see [`Timing::budget`].
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::app) struct Budget {
    pub solver: f32,
    pub meshes: f32,
    pub ui: f32,
    pub drawing: f32,
    pub frame: f32,
}

impl Budget {
    /// Building, queueing and drawing the meshes and panels (ms).
    pub fn render(&self) -> f32 {
        self.meshes + self.ui + self.drawing
    }
}

impl Timing {
    /// Measured projections per second, or a modest guess before any step.
    pub fn projection_rate(&self) -> f64 {
        if self.rate > 0.0 { self.rate } else { 2e8 }
    }
}

/// Statistics of the world shown in the panel and plots.
#[derive(Clone, Copy, Debug, Default)]
pub(in crate::app) struct WorldStats {
    pub max_strain: f32,
    /// N.
    pub max_tension: f32,
    /// Kinetic + gravitational potential (J).
    pub energy: f64,
}

impl App {
    /// Fixed-dt stepping with an accumulator: at most 4 steps per drawn
    /// frame, so a slow frame slows the simulation rather than snowballing.
    pub(in crate::app) fn simulate(&mut self, frame_dt: f32) {
        if self.paused {
            self.accumulator = 0.0;
            smooth(&mut self.timing.budget.solver, 0.0);
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
        let t = Stopwatch::start();
        let mut steps = 0;
        // At most 4 steps, and no more once a drawn frame's budget (33 ms)
        // is spent: a heavy scene then runs slower but the window answers.
        while self.accumulator >= dt && steps < 4 && (steps == 0 || t.seconds() < 0.033) {
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
        smooth(&mut self.timing.budget.solver, (t.seconds() * 1e3) as f32);
        if steps > 0 {
            let per_step = t.seconds() / steps as f64;
            smooth(&mut self.timing.solver_ms, (per_step * 1e3) as f32);
            let rate = self.world.projections_per_frame() as f64 / per_step.max(1e-9);
            self.timing.rate = if self.timing.rate == 0.0 {
                rate
            } else {
                self.timing.rate * 0.9 + rate * 0.1
            };
        }
    }

    pub(in crate::app) fn step(&mut self) {
        self.before_step();
        self.step_lanes();
        self.frames += 1;
        self.stale_stats = true;
    }

    /// Recomputes the statistics after the world changed (once per drawn
    /// frame at most: each is a pass over every constraint or particle).
    pub(in crate::app) fn update_stats(&mut self) {
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
        self.history.push(w.time(), &lanes, w.energy_books());
        self.twist.push(w);
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

pub(in crate::app) fn smooth(avg: &mut f32, sample: f32) {
    *avg = if *avg == 0.0 {
        sample
    } else {
        *avg * 0.9 + sample * 0.1
    };
}

/// Frames drawn per second of wall time, averaged over the last whole
/// second (macroquad's own `get_fps` is one frame's inverse).
pub(in crate::app) struct FpsMeter {
    window: Stopwatch,
    frames: u32,
    fps: f32,
}

impl Default for FpsMeter {
    fn default() -> Self {
        Self {
            window: Stopwatch::start(),
            frames: 0,
            fps: 0.0,
        }
    }
}

impl FpsMeter {
    /// Counts a drawn frame; returns the last second's average.
    pub fn tick(&mut self) -> f32 {
        self.frames += 1;
        let elapsed = self.window.seconds();
        if elapsed >= 1.0 {
            self.fps = self.frames as f32 / elapsed as f32;
            *self = Self {
                fps: self.fps,
                ..Self::default()
            };
        }
        self.fps
    }
}
