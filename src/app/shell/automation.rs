//! Window automation for tests and scripts: the `--dump-state` snapshot
//! and `--screenshot`.

use std::path::{Path, PathBuf};

use image::ImageEncoder;
use macroquad::prelude::*;

use crate::app::{App, Options};
use crate::scene;

/// What the command line asked the window to do on its own: screenshots,
/// the state dump, closing after a while.
pub(in crate::app) struct Script {
    /// Seconds (wall) after which to save the first screenshot, and where.
    screenshot: Option<(f32, PathBuf)>,
    /// Then one every this many seconds, numbered.
    every: Option<f32>,
    taken: usize,
    dump: Option<PathBuf>,
    /// Wall time of the last dump.
    dumped_at: f32,
    /// A dump failed (said once, not five times a second).
    dump_failed: bool,
    exit_after: Option<f32>,
}

impl Script {
    pub(in crate::app) fn new(options: &Options) -> Self {
        Self {
            screenshot: options.screenshot.clone(),
            every: options.screenshot_every,
            taken: 0,
            dump: options.dump_state.clone(),
            dumped_at: 0.0,
            dump_failed: false,
            exit_after: options.exit_after,
        }
    }

    /// Does what is due after a frame drawn at `wall` seconds: true when
    /// the window should close.
    pub(in crate::app) fn after_frame(&mut self, app: &App, wall: f32) -> bool {
        if let Some((after, path)) = &self.screenshot {
            let (due, path) = match self.every {
                None => (self.taken == 0 && wall >= *after, path.clone()),
                Some(every) => (
                    wall >= after + every * self.taken as f32,
                    numbered(path, self.taken),
                ),
            };
            if due {
                if let Err(e) = save_screenshot(&path) {
                    crate::headless::tell(format_args!(
                        "error: {}: cannot save the screenshot: {e:#}",
                        path.display()
                    ));
                }
                self.taken += 1;
            }
        }
        if let Some(path) = &self.dump
            && wall - self.dumped_at >= 0.2
        {
            self.dumped_at = wall;
            if let Err(e) = app.dump_state(path)
                && !std::mem::replace(&mut self.dump_failed, true)
            {
                crate::headless::tell(format_args!("error: --dump-state: {e}"));
            }
        }
        self.exit_after.is_some_and(|t| wall >= t)
    }
}

impl App {
    /// Writes a plain-text snapshot: a header and one line per particle
    /// `index x y z screen_x screen_y pinned`, via a temp file and a rename.
    fn dump_state(&self, path: &Path) -> Result<(), scene::SceneError> {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "frames {}", self.frames);
        let _ = writeln!(s, "time {}", self.world.time());
        let _ = writeln!(s, "paused {}", self.paused);
        let _ = writeln!(s, "realtime {:.3}", self.realtime);
        let _ = writeln!(s, "fps {:.1}", self.drawn_fps);
        let b = &self.timing.budget;
        let _ = writeln!(
            s,
            "budget solver {:.2} meshes {:.2} ui {:.2} drawing {:.2} frame {:.2}",
            b.solver, b.meshes, b.ui, b.drawing, b.frame
        );
        let _ = writeln!(s, "antialias {}", self.display.antialias);
        let _ = writeln!(s, "plot_detail {}", self.display.plot_detail);
        let _ = writeln!(s, "panel_scroll {:.1}", self.panel.scroll);
        if let Some((with, without)) = self.smoothing.measured {
            let _ = writeln!(s, "antialias_ms {with:.2} {without:.2}");
        }
        let _ = writeln!(s, "hint {}", self.hint_opacity() > 0.0);
        let _ = writeln!(s, "scene {}", self.scene.name);
        let _ = writeln!(s, "held {:?}", self.world.grabbed());
        let _ = writeln!(s, "hand_force {:?}", self.world.hand_force());
        let _ = writeln!(s, "hand_max {}", self.world.hand().max_force);
        // `threads CHOICE TEAM`: auto or the fixed count, and how many
        // threads ran the last frame.
        let choice = self.world.thread_choice();
        let _ = writeln!(s, "threads {choice} {}", self.world.team_size());
        let settings = &self.world.settings;
        let _ = writeln!(
            s,
            "counts {} {} {}",
            settings.substeps,
            settings.iterations,
            self.panel.solver.pending().is_some()
        );
        let _ = writeln!(s, "strain_scale {:?}", self.display.strain_scale);
        // `rect name x0 y0 x1 y1` (pixels) for each overlay over the view.
        for (name, r) in &self.layout.rects {
            let _ = writeln!(
                s,
                "rect {name} {} {} {} {}",
                r.min.x, r.min.y, r.max.x, r.max.y
            );
        }
        let _ = writeln!(s, "errors {}", self.errors.len());
        for e in &self.errors {
            let _ = writeln!(s, "error {}", e.replace('\n', " "));
        }
        // One line per rigid body of the left or only world: `rigid index
        // x y z screen_x screen_y fixed held` (its centre).
        let project = self.camera.projector();
        for (r, body) in self.world.rigids().bodies.iter().enumerate() {
            let sc = project(body.x).unwrap_or(Vec2::splat(-1.0));
            let held = self.world.grabbed_rigid() == Some(r);
            let _ = writeln!(
                s,
                "rigid {r} {} {} {} {} {} {} {}",
                body.x.x, body.x.y, body.x.z, sc.x, sc.y, body.fixed as u8, held as u8
            );
        }
        // One line per particle and lane: `index x y z screen_x screen_y
        // pinned lane` (lane 0 = the left or only world, 1 = the right).
        let mut lanes = vec![(&self.world, self.camera.clone())];
        if let (Some(twin), Some(view)) = (&self.twin, self.right_view) {
            let mut camera = self.camera.clone();
            camera.view = view;
            lanes.push((twin, camera));
        }
        let total: usize = lanes.iter().map(|(w, _)| w.live_particles()).sum();
        let _ = writeln!(s, "particles {total}");
        for (lane, (world, camera)) in lanes.iter().enumerate() {
            let project = camera.projector();
            let pos = world.particles.pos().iter().enumerate();
            for (i, &p) in pos.filter(|&(i, _)| !world.particles.is_spare(i)) {
                let sc = project(p).unwrap_or(Vec2::splat(-1.0));
                let pinned = world.particles.is_pinned(i) as u8;
                let _ = writeln!(
                    s,
                    "{i} {} {} {} {} {} {pinned} {lane}",
                    p.x, p.y, p.z, sc.x, sc.y
                );
            }
        }
        scene::TempFile::create(path).and_then(|mut f| {
            use std::io::Write;
            f.write_all(s.as_bytes())
                .map_err(|source| scene::SceneError::Io {
                    path: path.to_path_buf(),
                    action: "cannot write",
                    source,
                })?;
            f.commit()
        })
    }
}

/// `NAME.png` numbered `k`: `NAME-00k.png`.
fn numbered(path: &Path, k: usize) -> std::path::PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}-{k:03}.png"))
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
