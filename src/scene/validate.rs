//! Range checks for every field of a parsed scene. Nothing is "fixed"
//! silently: each bad value becomes an error naming the field and the
//! accepted range.

use super::schema::*;

/// Most particles a scene may create (all bodies together).
pub const MAX_PARTICLES: u64 = 2_000_000;

/// A field path and what is wrong with it.
pub(crate) type Problem = (String, String);

#[derive(Default)]
struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn fail(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.problems.push((field.into(), message.into()));
    }

    /// A finite number in `[lo, hi]`; `open_lo` excludes `lo`.
    fn num(&mut self, field: &str, v: f32, lo: f32, hi: f32, open_lo: bool) -> bool {
        let ok = v.is_finite() && (v > lo || (!open_lo && v == lo)) && v <= hi;
        if !ok {
            let bracket = if open_lo { '(' } else { '[' };
            let hi = if hi == f32::MAX {
                "∞)".to_string()
            } else {
                format!("{hi}]")
            };
            self.fail(
                field,
                format!("{v} is outside the accepted range {bracket}{lo}, {hi}"),
            );
        }
        ok
    }

    fn non_negative(&mut self, field: &str, v: f32) -> bool {
        self.num(field, v, 0.0, f32::MAX, false)
    }

    fn positive(&mut self, field: &str, v: f32) -> bool {
        self.num(field, v, 0.0, f32::MAX, true)
    }

    fn finite3(&mut self, field: &str, v: V3) -> bool {
        let ok = v.iter().all(|x| x.is_finite());
        if !ok {
            self.fail(field, format!("{v:?} must be finite numbers"));
        }
        ok
    }

    fn index(&mut self, field: &str, i: i64, len: u64) -> Option<usize> {
        let resolved = resolve_index(i, len);
        if resolved.is_none() {
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

/// `i` in `0..len`, or `-len..0` counted from the end.
pub fn resolve_index(i: i64, len: u64) -> Option<usize> {
    let len = len as i64;
    let j = if i < 0 { i + len } else { i };
    (0..len).contains(&j).then_some(j as usize)
}

/// Particles a body creates, if its sizes are sane.
pub(crate) fn particle_count(body: &BodyDef) -> u64 {
    match body {
        BodyDef::Rope(r) => r.segments as u64 + 1,
        BodyDef::Cloth(c) => c.resolution.0 as u64 * c.resolution.1 as u64,
        BodyDef::Mesh(m) => m.particles.len() as u64,
    }
}

/// Every problem in `scene`, as (field, message).
pub(crate) fn validate(scene: &Scene) -> Vec<Problem> {
    let mut c = Checker::default();
    solver(&mut c, &scene.solver);
    let mut total: u64 = 0;
    for (i, body) in scene.bodies.iter().enumerate() {
        let f = format!("bodies[{i}]");
        match body {
            BodyDef::Rope(r) => rope(&mut c, &f, r),
            BodyDef::Cloth(cl) => cloth(&mut c, &f, cl),
            BodyDef::Mesh(m) => mesh(&mut c, &f, m),
        }
        total += particle_count(body);
    }
    if total > MAX_PARTICLES {
        c.fail(
            "bodies",
            format!("{total} particles in all: at most {MAX_PARTICLES} are accepted"),
        );
    }
    for (i, col) in scene.colliders.iter().enumerate() {
        collider(&mut c, &format!("colliders[{i}]"), col);
    }
    for (i, d) in scene.drivers.iter().enumerate() {
        driver(&mut c, &format!("drivers[{i}]"), d, scene);
    }
    let cam = &scene.camera;
    c.finite3("camera.target", cam.target);
    c.positive("camera.distance", cam.distance);
    c.num("camera.yaw", cam.yaw, -360.0, 360.0, false);
    c.num("camera.pitch", cam.pitch, -89.0, 89.0, false);
    c.problems
}

fn solver(c: &mut Checker, s: &SolverDef) {
    c.num("solver.dt", s.dt, 0.0, 1.0, true);
    if !(1..=1000).contains(&s.substeps) {
        c.fail(
            "solver.substeps",
            format!("{} is outside the accepted range 1 ..= 1000", s.substeps),
        );
    }
    if !(1..=1000).contains(&s.iterations) {
        c.fail(
            "solver.iterations",
            format!("{} is outside the accepted range 1 ..= 1000", s.iterations),
        );
    }
    c.finite3("solver.gravity", s.gravity);
    c.non_negative("solver.damping", s.damping);
    c.non_negative("solver.air_drag", s.air_drag);
    c.finite3("solver.wind", s.wind);
    c.num("solver.pbd_stiffness", s.pbd_stiffness, 0.0, 1.0, true);
}

fn rope(c: &mut Checker, f: &str, r: &RopeDef) {
    let ends_ok = c.finite3(&format!("{f}.start"), r.start) & c.finite3(&format!("{f}.end"), r.end);
    if r.segments == 0 || r.segments as u64 >= MAX_PARTICLES {
        c.fail(
            format!("{f}.segments"),
            format!(
                "{} is outside the accepted range 1 ..= {}",
                r.segments,
                MAX_PARTICLES - 1
            ),
        );
    }
    match r.length {
        Some(l) => {
            c.positive(&format!("{f}.length"), l);
        }
        None if ends_ok && r.start == r.end => c.fail(
            format!("{f}.length"),
            "start and end coincide: give a `length` > 0",
        ),
        None => {}
    }
    c.positive(&format!("{f}.mass"), r.mass);
    c.non_negative(&format!("{f}.compliance"), r.compliance);
    if let Some(b) = r.bend_compliance {
        c.non_negative(&format!("{f}.bend_compliance"), b);
    }
    c.non_negative(&format!("{f}.radius"), r.radius);
    for (k, &p) in r.pins.iter().enumerate() {
        c.index(&format!("{f}.pins[{k}]"), p, r.segments as u64 + 1);
    }
}

fn cloth(c: &mut Checker, f: &str, cl: &ClothDef) {
    c.finite3(&format!("{f}.origin"), cl.origin);
    c.positive(&format!("{f}.size.0"), cl.size.0);
    c.positive(&format!("{f}.size.1"), cl.size.1);
    let (cols, rows) = cl.resolution;
    for (name, v) in [("resolution.0", cols), ("resolution.1", rows)] {
        if !(2..=MAX_PARTICLES as u32).contains(&v) {
            c.fail(
                format!("{f}.{name}"),
                format!(
                    "{v} is outside the accepted range 2 ..= {MAX_PARTICLES} particles per edge"
                ),
            );
        }
    }
    c.positive(&format!("{f}.mass"), cl.mass);
    c.non_negative(&format!("{f}.stretch_compliance"), cl.stretch_compliance);
    c.non_negative(&format!("{f}.shear_compliance"), cl.shear_compliance);
    if let Some(b) = cl.bend_compliance {
        c.non_negative(&format!("{f}.bend_compliance"), b);
    }
    c.non_negative(&format!("{f}.radius"), cl.radius);
    if let Some(t) = cl.tear_strain {
        c.positive(&format!("{f}.tear_strain"), t);
    }
    for (k, &(row, col)) in cl.pins.iter().enumerate() {
        c.index(&format!("{f}.pins[{k}].0 (row)"), row, rows as u64);
        c.index(&format!("{f}.pins[{k}].1 (column)"), col, cols as u64);
    }
}

fn mesh(c: &mut Checker, f: &str, m: &MeshDef) {
    let n = m.particles.len() as u64;
    for (k, p) in m.particles.iter().enumerate() {
        c.finite3(&format!("{f}.particles[{k}].position"), p.position);
        c.positive(&format!("{f}.particles[{k}].mass"), p.mass);
    }
    for (k, l) in m.links.iter().enumerate() {
        let a = c.index(&format!("{f}.links[{k}].a"), l.a, n);
        let b = c.index(&format!("{f}.links[{k}].b"), l.b, n);
        if a.is_some() && a == b {
            c.fail(
                format!("{f}.links[{k}]"),
                "a link needs two different particles",
            );
        }
        c.non_negative(&format!("{f}.links[{k}].compliance"), l.compliance);
        if let Some(rest) = l.rest {
            c.non_negative(&format!("{f}.links[{k}].rest"), rest);
        }
    }
    c.non_negative(&format!("{f}.radius"), m.radius);
}

fn collider(c: &mut Checker, f: &str, col: &ColliderDef) {
    match *col {
        ColliderDef::Ground { height, friction } => {
            c.num(&format!("{f}.height"), height, f32::MIN, f32::MAX, false);
            c.non_negative(&format!("{f}.friction"), friction);
        }
        ColliderDef::Sphere {
            center,
            radius,
            friction,
        } => {
            c.finite3(&format!("{f}.center"), center);
            c.positive(&format!("{f}.radius"), radius);
            c.non_negative(&format!("{f}.friction"), friction);
        }
        ColliderDef::Box {
            center,
            half_extents,
            friction,
        } => {
            c.finite3(&format!("{f}.center"), center);
            for (k, h) in half_extents.iter().enumerate() {
                c.positive(&format!("{f}.half_extents.{k}"), *h);
            }
            c.non_negative(&format!("{f}.friction"), friction);
        }
    }
}

fn driver(c: &mut Checker, f: &str, d: &DriverDef, scene: &Scene) {
    let Some(body) = scene.bodies.get(d.body) else {
        c.fail(
            format!("{f}.body"),
            format!(
                "body {} does not exist: accepted 0 ..= {} (index in `bodies`)",
                d.body,
                scene.bodies.len() as i64 - 1
            ),
        );
        return;
    };
    c.index(&format!("{f}.particle"), d.particle, particle_count(body));
    let Motion::Sine {
        axis,
        amplitude,
        frequency,
    } = d.motion;
    if c.finite3(&format!("{f}.motion.axis"), axis) && axis.iter().all(|&x| x == 0.0) {
        c.fail(format!("{f}.motion.axis"), "must be non-zero");
    }
    c.non_negative(&format!("{f}.motion.amplitude"), amplitude);
    c.num(
        &format!("{f}.motion.frequency"),
        frequency,
        0.0,
        1000.0,
        false,
    );
}
