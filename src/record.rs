//! Record and replay: what a user does to a world — grabs, drags,
//! releases, pins, setting and hand changes — with the frame it happened
//! before, so that replaying it into the same scene gives the same world,
//! bit for bit (`catenary replay REC.ron`, and Record in the window).
//!
//! A [`Recorder`] watches the world just before every step and writes down
//! what changed since the last look; nothing in the app has to report its
//! inputs. The panel's edits come as [`crate::edit::Edit`]s, which the
//! window gives to [`Recorder::edit`] as it applies them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::scene::{self, Scene, SceneErrors, SolverDef};
use crate::solver::{Hand, Settings, World};

/// One input, applied just before a frame is stepped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The hand takes hold of a particle (world index).
    Grab(usize),
    /// The hand moves to this point (m) by the end of the frame.
    DragTo((f32, f32, f32)),
    /// The hand lets go; the particle gets this velocity (m/s).
    Release((f32, f32, f32)),
    /// A particle is pinned (true) or unpinned.
    Pin(usize, bool),
    /// New solver settings.
    Settings(SolverDef),
    /// A new hand strength (N); None = kinematic.
    Hand(Option<f32>),
    /// The hand takes hold of a rigid body (rigid index) at this point of
    /// its own frame (m).
    GrabRigid(usize, (f32, f32, f32)),
    /// A rigid body (rigid index) is fixed (true) or freed.
    Fix(usize, bool),
    /// A change from the panel (see [`crate::edit`]).
    Edit(crate::edit::Edit),
}

/// A recorded session: the scene it started from and what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The scene as it was when recording started (its `state` included).
    pub scene: Scene,
    /// Frames stepped in all.
    pub frames: u64,
    /// (frame, event): applied before stepping that frame, in order.
    pub events: Vec<(u64, Event)>,
}

/// What the recorder last saw of the world's inputs.
#[derive(Clone, Debug)]
struct Seen {
    settings: Settings,
    hand: Hand,
    grabbed: Option<usize>,
    /// The rigid body held and the point held, in its frame.
    grabbed_rigid: Option<(usize, glam::Vec3)>,
    goal: Option<glam::Vec3>,
    pinned: Vec<bool>,
    fixed: Vec<bool>,
}

impl Seen {
    fn of(world: &World) -> Self {
        Self {
            settings: world.settings,
            hand: world.hand(),
            grabbed: world.grabbed(),
            grabbed_rigid: world.rigids().hand.map(|h| (h.rigid, h.local)),
            goal: world.hand_goal(),
            pinned: (0..world.particles.len())
                .map(|i| world.particles.is_pinned(i))
                .collect(),
            fixed: world.rigids().bodies.iter().map(|r| r.fixed).collect(),
        }
    }
}

/// Watches a world and writes down its inputs (see the module doc).
#[derive(Clone, Debug)]
pub struct Recorder {
    recording: Recording,
    seen: Seen,
}

impl Recorder {
    /// Starts recording `world`, which `scene` describes (the window saves
    /// it with `Scene::capture` and `capture_state` first). Whatever of the
    /// world's inputs differs from a fresh build of the scene — the window's
    /// hand strength, settings changed since — becomes frame 0's events, so
    /// the replay starts from exactly this world.
    pub fn new(scene: Scene, world: &World) -> Self {
        let fresh = scene.build();
        let mut recorder = Self {
            seen: Seen::of(&fresh),
            recording: Recording {
                scene,
                frames: 0,
                events: Vec::new(),
            },
        };
        recorder.note(world);
        recorder
    }

    /// Call just before each `world.step()`: records what changed.
    pub fn before_step(&mut self, world: &World) {
        self.note(world);
        self.recording.frames += 1;
    }

    /// Records what changed since the last look, as events of this frame.
    fn note(&mut self, world: &World) {
        let now = Seen::of(world);
        let frame = self.recording.frames;
        let mut push = |e: Event| self.recording.events.push((frame, e));
        let seen = &self.seen;
        if now.settings != seen.settings {
            push(Event::Settings(SolverDef::from(&now.settings)));
        }
        if now.hand != seen.hand {
            push(Event::Hand(
                (!now.hand.is_kinematic()).then_some(now.hand.max_force),
            ));
        }
        if let (Some(i), false) = (seen.grabbed, now.grabbed == seen.grabbed) {
            let v = world.particles.vel()[i];
            push(Event::Release((v.x, v.y, v.z)));
        }
        for (i, (&was, &is)) in seen.pinned.iter().zip(&now.pinned).enumerate() {
            if was != is {
                push(Event::Pin(i, is));
            }
        }
        let (held, was) = (
            now.grabbed_rigid.map(|h| h.0),
            seen.grabbed_rigid.map(|h| h.0),
        );
        if was.is_some() && held != was && now.grabbed.is_none() {
            push(Event::Release((0.0, 0.0, 0.0)));
        }
        for (r, (&was, &is)) in seen.fixed.iter().zip(&now.fixed).enumerate() {
            if was != is {
                push(Event::Fix(r, is));
            }
        }
        if let (Some(i), false) = (now.grabbed, now.grabbed == seen.grabbed) {
            push(Event::Grab(i));
        }
        if let (Some((r, at)), false) = (now.grabbed_rigid, held == was) {
            push(Event::GrabRigid(r, (at.x, at.y, at.z)));
        }
        if let Some(g) = now
            .goal
            .filter(|_| now.goal != seen.goal || now.grabbed != seen.grabbed || held != was)
        {
            push(Event::DragTo((g.x, g.y, g.z)));
        }
        self.seen = now;
    }

    /// Records an edit applied to the world just now (before the next
    /// step, as the events watched for are).
    pub fn edit(&mut self, edit: crate::edit::Edit) {
        let frame = self.recording.frames;
        self.recording.events.push((frame, Event::Edit(edit)));
    }

    /// What was recorded so far.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }
}

/// Applies one event to `world`.
pub fn apply(world: &mut World, event: &Event) {
    match event {
        Event::Grab(i) => world.grab(*i),
        Event::DragTo((x, y, z)) => world.drag_to(glam::Vec3::new(*x, *y, *z)),
        Event::Release((x, y, z)) => world.release(Some(glam::Vec3::new(*x, *y, *z))),
        Event::Pin(i, on) => world.set_pinned(*i, *on),
        Event::Settings(def) => world.settings = Settings::from(def),
        Event::Hand(force) => world.set_hand(Hand {
            max_force: force.unwrap_or(f32::INFINITY),
        }),
        Event::GrabRigid(r, (x, y, z)) => world.grab_rigid_local(*r, glam::Vec3::new(*x, *y, *z)),
        Event::Fix(r, on) => world.set_rigid_fixed(*r, *on),
        Event::Edit(edit) => edit.apply(world),
    }
}

/// Replays `rec` into a world built from its scene, `frames` frames.
pub fn replay(rec: &Recording) -> World {
    let mut world = rec.scene.build();
    world.use_suitable_threads();
    let mut events = rec.events.iter().peekable();
    for frame in 0..rec.frames {
        while let Some((_, e)) = events.next_if(|(f, _)| *f == frame) {
            apply(&mut world, e);
        }
        world.step();
    }
    world
}

/// Checks a recording's events against its scene: particle indices in
/// range, settings and hand strengths within the accepted ranges, frames in
/// order and within `frames`.
pub fn validate(rec: &Recording, path: &Path) -> Result<(), SceneErrors> {
    check(rec, path, None)
}

/// [`validate`] of a recording read from `text`: each problem, in the
/// scene or in the events, names its line:column there.
fn check(rec: &Recording, path: &Path, text: Option<&str>) -> Result<(), SceneErrors> {
    let problems = rec.scene.problems("scene.");
    if !problems.is_empty() {
        return SceneErrors::check_in(path, text, problems);
    }
    let built = rec.scene.build();
    let (n, rigid) = (built.particles.len(), built.rigids().bodies.len());
    let mut problems = Vec::new();
    let most = crate::solver::limits::RECORDING_FRAMES;
    if rec.frames > most {
        problems.push((
            "frames".to_string(),
            format!("{}: at most {most} are accepted", rec.frames),
        ));
    }
    let mut last = 0;
    for (k, (frame, e)) in rec.events.iter().enumerate() {
        let field = format!("events[{k}]");
        if *frame < last || *frame >= rec.frames.max(1) {
            problems.push((
                field.clone(),
                format!(
                    "frame {frame} is out of order or past `frames` ({})",
                    rec.frames
                ),
            ));
        }
        last = *frame;
        let bad = match e {
            Event::Grab(i) | Event::Pin(i, _) if *i >= n => {
                Some(format!("particle {i}: the scene has {n}"))
            }
            Event::GrabRigid(r, _) | Event::Fix(r, _) if *r >= rigid => {
                Some(format!("rigid body {r}: the scene has {rigid}"))
            }
            Event::Edit(edit) => edit.problem(&built),
            Event::DragTo(p) | Event::Release(p) | Event::GrabRigid(_, p)
                if ![p.0, p.1, p.2]
                    .iter()
                    .all(|x| x.is_finite() && x.abs() <= 1e7) =>
            {
                Some(format!("{p:?} must be finite and within ±1e7"))
            }
            Event::Settings(def) if !Settings::from(def).is_valid() => Some(format!(
                "settings outside the accepted ranges (substeps × iterations at most {})",
                crate::solver::limits::PASSES_PER_FRAME
            )),
            Event::Hand(Some(f)) if !crate::solver::limits::HAND_FORCE.contains(*f) => {
                Some(format!(
                    "hand {f} N: accepted {}",
                    crate::solver::limits::HAND_FORCE.describe()
                ))
            }
            _ => None,
        };
        if let Some(message) = bad {
            problems.push((format!("{field}.1"), message));
        }
    }
    SceneErrors::check_in(path, text, problems)
}

/// Reads and checks a recording file.
pub fn load(path: &Path) -> Result<Recording, SceneErrors> {
    parse(&scene::read_text(path)?, path)
}

/// Parses and validates a recording's text; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<Recording, SceneErrors> {
    let rec: Recording = scene::from_ron(text, path)?;
    check(
        &rec,
        path,
        Some(text.strip_prefix('\u{feff}').unwrap_or(text)),
    )?;
    Ok(rec)
}

/// A recording as RON text, as [`load`] reads it.
pub fn to_text(rec: &Recording) -> String {
    scene::to_ron_text(rec, "Recording")
}

/// `catenary replay`: replays a recording headless and prints a summary.
pub fn run(path: &Path) -> anyhow::Result<()> {
    use std::io::Write;
    let rec = load(path)?;
    let started = std::time::Instant::now();
    let world = replay(&rec);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "replayed: {} ({}): {} frames, {} events, {:.3} s",
        path.display(),
        rec.scene.name,
        rec.frames,
        rec.events.len(),
        started.elapsed().as_secs_f64()
    )?;
    writeln!(out, "{}", crate::headless::final_line(&world))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_session_replays_to_the_same_bits() {
        let scene = scene::parse(
            "Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 12, pins: [0])],
                   colliders: [Ground()])",
            Path::new("<test>"),
        )
        .unwrap();
        let mut world = scene.build();
        let mut rec = Recorder::new(scene.clone(), &world);
        for frame in 0..240 {
            match frame {
                20 => world.grab(12),
                21..=60 => world.drag_to(glam::Vec3::new(1.0 + frame as f32 * 0.01, 2.5, 0.2)),
                61 => world.release(Some(glam::Vec3::new(3.0, 1.0, 0.0))),
                90 => world.set_pinned(6, true),
                120 => world.settings.substeps = 7,
                150 => world.set_hand(Hand { max_force: 5.0 }),
                160 => world.grab(3),
                161..=200 => world.drag_to(glam::Vec3::new(-1.0, 1.0, frame as f32 * 0.01)),
                201 => world.release(None),
                _ => {}
            }
            rec.before_step(&world);
            world.step();
        }
        let recording = rec.recording().clone();
        // Through text, as a file would.
        let text = scene::to_ron_text(&recording, "Recording");
        let back: Recording = scene::ron_options().from_str(&text).unwrap();
        assert_eq!(back, recording);
        let replayed = replay(&back);
        assert!(
            replayed.particles.pos() == world.particles.pos(),
            "replay differs"
        );
        assert!(replayed.particles.is_pinned(6));
    }
}
