//! Range checks for every field of a parsed scene. Nothing is "fixed"
//! silently: each bad value becomes an error naming the field and the
//! accepted range.

use super::schema::*;
use crate::solver::limits::{self, Bounds, *};

/// Most particles a scene may create (all bodies together).
pub const MAX_PARTICLES: u64 = 2_000_000;

/// Most colliders a scene may have: every particle tests every collider
/// every substep, so 100,000 grounds ran at 5.9 s per frame; a sandbox
/// scene needs a handful.
pub const MAX_COLLIDERS: usize = 100;

/// Longest caption, in characters.
pub const MAX_CAPTION_CHARS: usize = 1000;

/// A field path and what is wrong with it.
pub(crate) type Problem = (String, String);

#[derive(Default)]
pub(crate) struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    pub(super) fn fail(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.problems.push((field.into(), message.into()));
    }

    /// A number within `bounds`.
    pub(super) fn num(&mut self, field: &str, v: f32, bounds: Bounds) -> bool {
        let ok = bounds.contains(v);
        if !ok {
            let shown = if v.is_finite() {
                limits::number(v)
            } else {
                format!("{v} (beyond f32's ±3.4e38, or not a number)")
            };
            self.fail(
                field,
                format!(
                    "{shown} is outside the accepted range {}",
                    bounds.describe()
                ),
            );
        }
        ok
    }

    /// Three numbers, each within `bounds`.
    pub(super) fn v3(&mut self, field: &str, v: V3, bounds: Bounds) -> bool {
        let ok = v.iter().all(|&x| bounds.contains(x));
        if !ok {
            self.fail(
                field,
                format!("{v:?}: each component must be within {}", bounds.describe()),
            );
        }
        ok
    }

    pub(super) fn count(&mut self, field: &str, v: u32, range: std::ops::RangeInclusive<u32>) {
        if !range.contains(&v) {
            self.fail(
                field,
                format!(
                    "{v} is outside the accepted range {} ..= {}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }

    pub(super) fn index(&mut self, field: &str, i: i64, len: u64) -> Option<usize> {
        let resolved = resolve_index(i, len);
        if len == 0 {
            self.fail(
                field,
                format!("index {i}: the list it points into is empty"),
            );
        } else if resolved.is_none() {
            self.fail(
                field,
                format!(
                    "index {i} is out of range: accepted {} ..= {} (negative counts from the end)",
                    -(len as i64),
                    len as i64 - 1
                ),
            );
        }
        resolved
    }
}

/// What a whole-number field accepts, for a number too large for its
/// type (the parser's "Integer is out of bounds", which names neither).
/// `field` is a path as the range checks write it.
pub(super) fn whole_number_range(field: &str) -> String {
    let name = field
        .rsplit(['.', '['])
        .find(|part| !part.is_empty() && !part.ends_with(']') && part.parse::<u32>().is_err())
        .unwrap_or(field);
    match name {
        "substeps" => format!("{} ..= {}", SUBSTEPS.start(), SUBSTEPS.end()),
        "iterations" => format!("{} ..= {}", ITERATIONS.start(), ITERATIONS.end()),
        "segments" => format!("1 ..= {}", MAX_PARTICLES - 1),
        "resolution" => format!("2 ..= {MAX_PARTICLES} particles per edge"),
        "subdivisions" => format!("{} ..= {}", SUBDIVISIONS.start(), SUBDIVISIONS.end()),
        "cells" => format!("{} ..= {} per axis", CELLS.start(), CELLS.end()),
        "frames" => format!("0 ..= {}", RECORDING_FRAMES),
        _ => format!(
            "an index below the scene's {MAX_PARTICLES} particles (negative counts from the end)"
        ),
    }
}

/// `i` in `0..len`, or `-len..0` counted from the end.
pub fn resolve_index(i: i64, len: u64) -> Option<usize> {
    let len = len as i64;
    let j = if i < 0 { i + len } else { i };
    (0..len).contains(&j).then_some(j as usize)
}

/// Particles a body creates, if its sizes are sane.
pub(crate) fn particle_count(body: &BodyDef) -> u64 {
    body.kind().particle_count()
}

/// Every problem in `scene`, as (field, message).
pub(crate) fn validate(scene: &Scene) -> Vec<Problem> {
    let mut c = Checker::default();
    solver(&mut c, &scene.solver);
    let mut total: u64 = 0;
    for (i, body) in scene.bodies.iter().enumerate() {
        let f = format!("bodies[{i}]");
        body.kind().check(&mut c, &f, scene.solver.body_collisions);
        total += particle_count(body);
    }
    if total > MAX_PARTICLES {
        c.fail(
            "bodies",
            format!("{total} particles in all: at most {MAX_PARTICLES} are accepted"),
        );
    }
    if scene.colliders.len() > MAX_COLLIDERS {
        c.fail(
            "colliders",
            format!(
                "{} colliders: at most {MAX_COLLIDERS} are accepted",
                scene.colliders.len()
            ),
        );
    }
    for (i, col) in scene.colliders.iter().enumerate().take(MAX_COLLIDERS) {
        collider(&mut c, &format!("colliders[{i}]"), col);
    }
    for (i, d) in scene.drivers.iter().enumerate() {
        driver(&mut c, &format!("drivers[{i}]"), d, scene);
    }
    for (i, j) in scene.joins.iter().enumerate() {
        join(&mut c, &format!("joins[{i}]"), j, scene);
    }
    super::joints::check(&mut c, scene);
    for (field, text) in [
        ("caption", &scene.caption),
        ("compare_caption", &scene.compare_caption),
    ] {
        let count = text.as_ref().map_or(0, |t| t.chars().count());
        if count > MAX_CAPTION_CHARS {
            c.fail(
                field,
                format!(
                    "{count} characters: at most {MAX_CAPTION_CHARS} are accepted (a few sentences)"
                ),
            );
        }
    }
    if let Some(st) = &scene.state {
        state(&mut c, scene, st);
    }
    let cam = &scene.camera;
    c.v3("camera.target", cam.target, COORDINATE);
    c.num("camera.distance", cam.distance, CAMERA_DISTANCE);
    c.num(
        "camera.yaw",
        cam.yaw,
        Bounds {
            min: -360.0,
            max: 360.0,
            unit: "°",
        },
    );
    c.num(
        "camera.pitch",
        cam.pitch,
        Bounds {
            min: -89.0,
            max: 89.0,
            unit: "°",
        },
    );
    c.problems
}

fn solver(c: &mut Checker, s: &SolverDef) {
    c.num("solver.dt", s.dt, DT);
    c.count("solver.substeps", s.substeps, SUBSTEPS);
    c.count("solver.iterations", s.iterations, ITERATIONS);
    if SUBSTEPS.contains(&s.substeps)
        && ITERATIONS.contains(&s.iterations)
        && s.substeps * s.iterations > PASSES_PER_FRAME
    {
        c.fail(
            "solver.iterations",
            format!(
                "{} substeps × {} iterations = {} passes per frame: at most {PASSES_PER_FRAME}",
                s.substeps,
                s.iterations,
                s.substeps * s.iterations
            ),
        );
    }
    c.v3("solver.gravity", s.gravity, GRAVITY);
    c.num("solver.damping", s.damping, DAMPING);
    c.num("solver.air_drag", s.air_drag, AIR_DRAG);
    c.num("solver.air_density", s.air_density, AIR_DENSITY);
    c.v3("solver.wind", s.wind, WIND);
    c.num("solver.pbd_stiffness", s.pbd_stiffness, PBD_STIFFNESS);
}

/// A self-colliding body's radius must leave the spatial hash useful.
pub(super) fn collision_radius(
    c: &mut Checker,
    f: &str,
    radius: f32,
    spacing: f32,
    colliding: bool,
) {
    let most = limits::RADIUS_PER_SPACING * spacing;
    if colliding && radius > most {
        c.fail(
            format!("{f}.radius"),
            format!(
                "{radius} m is too large for collisions between particles {spacing} m apart: \
                 accepted at most {} × the spacing = {most} m \
                 (or switch self_collision and body_collisions off)",
                limits::RADIUS_PER_SPACING
            ),
        );
    }
}

fn collider(c: &mut Checker, f: &str, col: &ColliderDef) {
    match *col {
        ColliderDef::Ground { height, friction } => {
            c.num(&format!("{f}.height"), height, COORDINATE);
            c.num(&format!("{f}.friction"), friction, FRICTION);
        }
        ColliderDef::Sphere {
            center,
            radius,
            friction,
        } => {
            c.v3(&format!("{f}.center"), center, COORDINATE);
            c.num(&format!("{f}.radius"), radius, LENGTH);
            c.num(&format!("{f}.friction"), friction, FRICTION);
        }
        ColliderDef::Box {
            center,
            half_extents,
            friction,
        } => {
            c.v3(&format!("{f}.center"), center, COORDINATE);
            c.v3(&format!("{f}.half_extents"), half_extents, LENGTH);
            c.num(&format!("{f}.friction"), friction, FRICTION);
        }
    }
}

/// The body `body` of `scene`, or a problem at `field`.
fn body_at<'s>(
    c: &mut Checker,
    field: String,
    body: usize,
    scene: &'s Scene,
) -> Option<&'s BodyDef> {
    let found = scene.bodies.get(body);
    if found.is_none() {
        let accepted = match scene.bodies.len() {
            0 => "the scene has no bodies".to_string(),
            n => format!("accepted 0 ..= {} (index in `bodies`)", n - 1),
        };
        c.fail(field, format!("body {body} does not exist: {accepted}"));
    }
    found
}

fn join(c: &mut Checker, f: &str, j: &JoinDef, scene: &Scene) {
    for (name, (body, particle)) in [("a", j.a), ("b", j.b)] {
        if let Some(def) = body_at(c, format!("{f}.{name}.0 (body)"), body, scene) {
            c.index(
                &format!("{f}.{name}.1 (particle)"),
                particle,
                particle_count(def),
            );
        }
    }
    if j.a.0 == j.b.0 {
        c.fail(
            format!("{f}.b.0 (body)"),
            format!(
                "both ends are in body {}: a join links two different bodies",
                j.a.0
            ),
        );
    }
    c.num(&format!("{f}.compliance"), j.compliance, COMPLIANCE);
    if let Some(rest) = j.rest {
        c.num(&format!("{f}.rest"), rest, REST);
    }
}

fn driver(c: &mut Checker, f: &str, d: &DriverDef, scene: &Scene) {
    let Some(body) = body_at(c, format!("{f}.body"), d.body, scene) else {
        return;
    };
    // A rigid body's one point is its centre, particle 0.
    let points = body
        .kind()
        .state_points()
        .map_or(particle_count(body), |n| n as u64);
    let particle = c.index(&format!("{f}.particle"), d.particle, points);
    let is_rigid = matches!(body, BodyDef::Rigid(_));
    if is_rigid && !matches!(d.motion, Motion::Moment { .. }) {
        c.fail(
            format!("{f}.motion"),
            "a Rigid body is driven by a Moment only",
        );
    }
    let axis_ok = |c: &mut Checker, axis: V3| {
        if axis.iter().any(|x| !x.is_finite()) {
            c.fail(
                format!("{f}.motion.axis"),
                format!("{axis:?} must be finite numbers"),
            );
        } else if axis.iter().all(|&x| x == 0.0) {
            c.fail(format!("{f}.motion.axis"), "must be non-zero");
        }
    };
    let rod = match body {
        BodyDef::Rod(r) => Some(r),
        _ => None,
    };
    match d.motion {
        Motion::Sine {
            axis,
            amplitude,
            frequency,
        } => {
            axis_ok(c, axis);
            c.num(&format!("{f}.motion.amplitude"), amplitude, AMPLITUDE);
            c.num(&format!("{f}.motion.frequency"), frequency, FREQUENCY);
        }
        Motion::Slide { offset, seconds } => {
            c.v3(&format!("{f}.motion.offset"), offset, OFFSET);
            c.num(&format!("{f}.motion.seconds"), seconds, SECONDS);
        }
        Motion::Twist { turns, seconds } => {
            c.num(&format!("{f}.motion.turns"), turns, TURNS);
            c.num(&format!("{f}.motion.seconds"), seconds, SECONDS);
            let n = particle_count(body);
            let clamped = |r: &RodDef| {
                (r.clamped.iter())
                    .any(|&k| resolve_index(k, n).is_some() && resolve_index(k, n) == particle)
            };
            if !rod.is_some_and(clamped) {
                c.fail(
                    format!("{f}.motion"),
                    "Twist turns a clamped end of a Rod: list the particle in the rod's `clamped`",
                );
            }
        }
        Motion::Moment {
            axis,
            newton_metres,
            seconds,
        } => {
            axis_ok(c, axis);
            c.num(&format!("{f}.motion.newton_metres"), newton_metres, MOMENT);
            c.num(&format!("{f}.motion.seconds"), seconds, SECONDS);
            if rod.is_none() && !is_rigid {
                c.fail(
                    format!("{f}.motion"),
                    "Moment acts on a Rod's segment or a Rigid body",
                );
            }
        }
    }
}

/// A saved state must fit its scene: one entry per body, one position and
/// velocity per particle (within the coordinates' and speeds' ranges: a
/// state continues a valid world), pins
/// in range, and broken links that the scene's bodies have.
fn state(c: &mut Checker, scene: &Scene, st: &StateDef) {
    if !(st.time.is_finite() && st.time >= 0.0) {
        c.fail(
            "state.time",
            format!("{} must be a finite time ≥ 0 s", st.time),
        );
    }
    if st.bodies.len() != scene.bodies.len() {
        c.fail(
            "state.bodies",
            format!(
                "{} entries for {} bodies: one per body is accepted",
                st.bodies.len(),
                scene.bodies.len()
            ),
        );
        return;
    }
    let counts = replay_tears(c, scene, st);
    for (b, (saved, &n)) in st.bodies.iter().zip(&counts).enumerate() {
        let f = format!("state.bodies[{b}]");
        let points = scene.bodies[b].kind().state_points().unwrap_or(n);
        for (name, list, bounds) in [
            ("positions", &saved.positions, COORDINATE),
            ("velocities", &saved.velocities, SPEED),
        ] {
            if list.len() != points {
                c.fail(
                    format!("{f}.{name}"),
                    format!(
                        "{} entries for {points} points: one per particle (a Rigid body: its centre) is accepted",
                        list.len()
                    ),
                );
            } else if let Some(k) = list
                .iter()
                .position(|v| !v.iter().all(|&x| bounds.contains(x)))
            {
                c.fail(
                    format!("{f}.{name}[{k}]"),
                    format!(
                        "{:?}: each component must be within {}",
                        list[k],
                        bounds.describe()
                    ),
                );
            }
        }
        rod_state(c, &f, saved, &scene.bodies[b]);
        for (k, &p) in saved.pins.iter().enumerate() {
            if p >= n {
                c.fail(
                    format!("{f}.pins[{k}]"),
                    format!(
                        "index {p} is out of range: accepted 0 ..= {}",
                        n.saturating_sub(1)
                    ),
                );
            }
        }
    }
    for (k, &j) in st.broken_joins.iter().enumerate() {
        if j >= scene.joins.len() {
            c.fail(
                format!("state.broken_joins[{k}]"),
                format!(
                    "join {j} does not exist: the scene has {} joins",
                    scene.joins.len()
                ),
            );
        }
    }
}

/// A Rod's saved orientations and angular velocities: one per segment
/// (or none), a Rigid body's one; unit quaternions, finite speeds; none
/// for other bodies.
fn rod_state(c: &mut Checker, f: &str, saved: &BodyStateDef, def: &BodyDef) {
    let (q, w) = (&saved.orientations, &saved.angular_velocities);
    let segments = match def.kind().orientations() {
        0 if q.is_empty() && w.is_empty() => return,
        0 => {
            c.fail(
                format!("{f}.orientations"),
                "only a Rod or a Rigid body has orientations",
            );
            return;
        }
        n => n,
    };
    let rigid = matches!(def, BodyDef::Rigid(_));
    if (rigid || !q.is_empty()) && q.len() != segments {
        let message = format!(
            "{} entries for {segments} orientations: one per segment (a Rigid body: one) is accepted",
            q.len()
        );
        c.fail(format!("{f}.orientations"), message);
    }
    if let Some(k) = q.iter().position(|q| {
        let norm = q.iter().map(|x| x * x).sum::<f32>().sqrt();
        !(q.iter().all(|x| x.is_finite()) && (norm - 1.0).abs() < 1e-3)
    }) {
        c.fail(
            format!("{f}.orientations[{k}]"),
            format!("{:?} must be a unit quaternion (x, y, z, w)", q[k]),
        );
    }
    if (rigid || !w.is_empty()) && w.len() != segments {
        let message = format!(
            "{} entries for {segments} orientations: one per segment (a Rigid body: one) is accepted",
            w.len()
        );
        c.fail(format!("{f}.angular_velocities"), message);
    }
    if let Some(k) = w
        .iter()
        .position(|v| !v.iter().all(|&x| ANGULAR_SPEED.contains(x)))
    {
        let message = format!(
            "{:?}: each component must be within {}",
            w[k],
            ANGULAR_SPEED.describe()
        );
        c.fail(format!("{f}.angular_velocities[{k}]"), message);
    }
}

/// Replays each body's tears on the scene as built, failing those that
/// name no link at their turn; returns each body's particle count after
/// them (a torn cloth's copies follow its grid).
fn replay_tears(c: &mut Checker, scene: &Scene, st: &StateDef) -> Vec<usize> {
    let built: Vec<usize> = (scene.bodies.iter())
        .map(|b| particle_count(b) as usize)
        .collect();
    if st.bodies.iter().all(|b| b.broken.is_empty()) || !c.problems.is_empty() {
        return built;
    }
    // Cheap next to stepping the world.
    let mut bare = scene.clone();
    bare.state = None;
    let mut world = super::build::build(&bare);
    for (b, saved) in st.bodies.iter().enumerate() {
        for (k, &(a, z)) in saved.broken.iter().enumerate() {
            let body = &world.bodies()[b];
            let (first, count) = (body.first, body.count);
            if a >= count || z >= count || !world.tear_link(first + a, first + z) {
                c.fail(
                    format!("state.bodies[{b}].broken[{k}]"),
                    format!("body {b} has no link between particles {a} and {z} at that tear"),
                );
            }
        }
    }
    world.bodies().iter().map(|b| b.count).collect()
}
