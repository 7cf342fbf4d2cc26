//! The browser test's hook (`?test` in the page's URL): every frame the
//! app reports, in the page title, what a test can check from outside —
//! simulated time, how far the particles moved, where a slow free particle
//! is on the screen (for a synthetic drag), how long something was held
//! and how far the held particle followed the mouse, the frame rate, the
//! solver's and the drawing's milliseconds per frame, its projections per
//! second, and whether the solver's SIMD lanes gave the bits of the
//! constraints projected one by one (checked once, as the page opens).

use macroquad::prelude::{Vec2, Vec3};

use crate::app::App;

/// What the hook has seen since the page opened.
pub struct Probe {
    start: Vec<Vec3>,
    moved: f32,
    held_frames: u64,
    /// Screen position of the held particle when the grab began.
    grabbed_at: Option<Vec2>,
    dragged_px: f32,
    fps: super::stepping::FpsMeter,
    lanes_same: bool,
}

/// True when a small cloth with dihedral hinges, and a balloon landing on
/// a mat, step to the same bits with the solver's SIMD lanes (the
/// browser's wasm SIMD, or AVX/SSE) as with every constraint projected
/// and every triangle shaped alone.
fn lanes_match_one_by_one() -> bool {
    let text = "Scene(solver: (substeps: 10, body_collisions: true), bodies: [
        Cloth(origin: (-0.5, 1.5, 0.0), size: (1.0, 1.0), resolution: (12, 12),
              bending: Dihedral, pins: [(0, 0), (0, -1)]),
        Balloon(center: (0.0, 0.4, 0.6), sphere_radius: 0.3, subdivisions: 2, pressure: 1.2,
                stretch_compliance: 0.001),
        Cloth(origin: (-0.4, 0.02, 0.2), size: (0.8, 0.8), resolution: (9, 9),
              orientation: Horizontal)],
      colliders: [Ground()])";
    let Ok(scene) = crate::scene::parse(text, std::path::Path::new("<lanes check>")) else {
        return false;
    };
    let run = |simd: bool| {
        let mut world = scene.build();
        world.set_simd(simd);
        for _ in 0..30 {
            world.step();
        }
        world.particles.pos().to_vec()
    };
    run(true) == run(false)
}

impl Probe {
    /// Starts watching `app`'s world as it is now.
    pub fn new(app: &App) -> Self {
        Self {
            start: app.world.particles.pos().to_vec(),
            moved: 0.0,
            held_frames: 0,
            grabbed_at: None,
            dragged_px: 0.0,
            fps: Default::default(),
            lanes_same: lanes_match_one_by_one(),
        }
    }

    /// Takes this frame into account and returns the report line.
    pub fn report(&mut self, app: &App) -> String {
        let world = &app.world;
        let project = app.camera.projector();
        let pos = world.particles.pos();
        if pos.len() == self.start.len() {
            for (p, s) in pos.iter().zip(&self.start) {
                self.moved = self.moved.max(p.distance(*s));
            }
        }
        match world.grabbed().and_then(|i| project(pos[i])) {
            Some(at) => {
                self.held_frames += 1;
                let from = *self.grabbed_at.get_or_insert(at);
                self.dragged_px = self.dragged_px.max(at.distance(from));
            }
            None => self.grabbed_at = None,
        }
        let fps = self.fps.tick();
        // The free particle on screen farthest from the pins among the
        // slow ones (or the slowest): a drag aimed at it lands even a frame
        // later, and moves it far.
        let pins: Vec<Vec3> = (0..pos.len())
            .filter(|&i| world.particles.is_pinned(i))
            .map(|i| pos[i])
            .collect();
        let reach = |p: Vec3| {
            pins.iter()
                .map(|q| q.distance(p))
                .fold(f32::INFINITY, f32::min)
        };
        let candidates: Vec<(f32, f32, Vec2)> = (0..pos.len())
            .filter(|&i| !world.particles.is_pinned(i))
            .filter_map(|i| {
                let s = project(pos[i]).filter(|s| app.camera.view.contains(*s))?;
                Some((world.particles.vel()[i].length(), reach(pos[i]), s))
            })
            .collect();
        let slow = candidates
            .iter()
            .filter(|c| c.0 < 0.5)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let target = slow
            .or_else(|| candidates.iter().min_by(|a, b| a.0.total_cmp(&b.0)))
            .map_or(Vec2::splat(-1.0), |c| c.2);
        format!(
            "catenary-test time={:.3} frames={} moved={:.4} target={:.0},{:.0} held={} dragged={:.0} \
             fps={:.1} solver_ms={:.2} render_ms={:.2} projections_per_s={:.3e} lanes_same={}",
            world.time(),
            app.frames,
            self.moved,
            target.x,
            target.y,
            self.held_frames,
            self.dragged_px,
            fps,
            app.timing.solver_ms,
            app.timing.budget.render(),
            world.projections_per_frame() as f64 * 1e3 / app.timing.solver_ms.max(1e-6) as f64,
            u8::from(self.lanes_same)
        )
    }
}
