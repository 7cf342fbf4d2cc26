//! Validated scene → solver world.

use glam::Vec3;

use super::schema::*;
use super::validate::resolve_index;
use crate::solver::{
    Body, Collider, Driver, Faces, LinkKind, QuadKind, Settings, Shape, Tag, World, dihedral_angle,
};

impl From<&SolverDef> for Settings {
    fn from(s: &SolverDef) -> Self {
        Settings {
            method: s.method,
            dt: s.dt,
            substeps: s.substeps,
            iterations: s.iterations,
            gravity: s.gravity.into(),
            damping: s.damping,
            air_drag: s.air_drag,
            wind: s.wind.into(),
            air_density: s.air_density,
            pbd_stiffness: s.pbd_stiffness,
        }
    }
}

impl From<&Settings> for SolverDef {
    fn from(s: &Settings) -> Self {
        SolverDef {
            method: s.method,
            dt: s.dt,
            substeps: s.substeps,
            iterations: s.iterations,
            gravity: s.gravity.into(),
            damping: s.damping,
            air_drag: s.air_drag,
            wind: s.wind.into(),
            air_density: s.air_density,
            pbd_stiffness: s.pbd_stiffness,
            body_collisions: false, // a world property, see `Scene::capture`
        }
    }
}

/// Indices were checked by `validate` before any scene reaches the builder.
const VALIDATED: &str = "index checked by scene validation";

/// Builds the world of a scene that passed validation.
pub(crate) fn build(scene: &Scene) -> World {
    let mut world = World::new(Settings::from(&scene.solver));
    for (i, body) in scene.bodies.iter().enumerate() {
        let first = world.particles.len();
        let shape = match body {
            BodyDef::Rope(r) => rope(&mut world, i, r),
            BodyDef::Cloth(c) => cloth(&mut world, i, c),
            BodyDef::Mesh(m) => mesh(&mut world, i, m),
            BodyDef::Balloon(b) => super::solid::balloon(&mut world, i, b),
            BodyDef::SoftBox(s) => super::solid::soft_box(&mut world, i, s),
        };
        let count = world.particles.len() - first;
        // A tearable cloth keeps one spare slot per particle for the
        // copies its tears make (see `solver::Faces`).
        let faces = match (body, &shape) {
            (BodyDef::Cloth(c), &Shape::Cloth { columns, rows })
                if c.tear_strain.is_some() || c.tear_force.is_some() =>
            {
                let at = world.particles.pos[first];
                for _ in 0..count {
                    world.particles.push_spare(at);
                }
                Some(Faces::grid(first, columns, rows))
            }
            _ => None,
        };
        world.add_body(Body {
            first,
            count,
            shape,
            spare: if faces.is_some() { count } else { 0 },
            faces,
        });
        if let BodyDef::Balloon(b) = body {
            super::solid::gas(&mut world, i, b);
        }
        self_collision(&mut world, i, body);
        tethers(&mut world, i, body);
    }
    aero(&mut world, scene);
    for j in &scene.joins {
        join(&mut world, scene, j);
    }
    world.constraints.sort_colours();
    world.reserve_for_splits();
    if scene.solver.body_collisions {
        world.set_body_collisions(true);
    }
    world.colliders = scene.colliders.iter().map(collider).collect();
    if scene.state.is_none() {
        place_clear_of_colliders(&mut world, scene);
    }
    for d in &scene.drivers {
        let body = &world.bodies()[d.body];
        let particle = body.first + resolve_index(d.particle, body.count as u64).expect(VALIDATED);
        let Motion::Sine {
            axis,
            amplitude,
            frequency,
        } = d.motion;
        world.add_driver(Driver {
            particle,
            origin: world.particles.pos[particle],
            axis: unit_axis(axis),
            amplitude,
            frequency,
        });
    }
    if let Some(state) = &scene.state {
        restore(&mut world, scene, state);
    }
    world
}

/// Moves each free body that was placed overlapping a collider out of it,
/// whole (see [`crate::solver::clearance`]). A body held by a pin, a
/// driver or a join stays where the scene put it; its overlapping
/// particles are pushed out by the contacts as before.
fn place_clear_of_colliders(world: &mut World, scene: &Scene) {
    for b in 0..world.bodies().len() {
        let range = world.bodies()[b].range();
        let held = range.clone().any(|i| world.particles.is_pinned(i))
            || scene.drivers.iter().any(|d| d.body == b)
            || scene.joins.iter().any(|j| j.a.0 == b || j.b.0 == b);
        if held {
            continue;
        }
        let p = &world.particles;
        let shift = crate::solver::clearance(
            &world.colliders,
            &p.pos[range.clone()],
            &p.radius[range.clone()],
        );
        if shift != Vec3::ZERO {
            world.move_body(b, shift);
        }
    }
}

/// The world index of (body, particle) of a validated scene.
pub(crate) fn particle_of(world: &World, scene: &Scene, (body, particle): (usize, i64)) -> usize {
    let n = super::validate::particle_count(&scene.bodies[body]);
    world.bodies()[body].first + resolve_index(particle, n).expect(VALIDATED)
}

/// A join: a link between two bodies' particles, breaking by the tear
/// strain of either body (the smaller).
fn join(world: &mut World, scene: &Scene, j: &JoinDef) {
    let (a, b) = (
        particle_of(world, scene, j.a),
        particle_of(world, scene, j.b),
    );
    let rest = j
        .rest
        .unwrap_or_else(|| world.particles.pos[a].distance(world.particles.pos[b]));
    let tear = |body: usize| match &scene.bodies[body] {
        BodyDef::Cloth(c) => c.tear_strain.unwrap_or(f32::INFINITY),
        _ => f32::INFINITY,
    };
    let tear = tear(j.a.0).min(tear(j.b.0));
    let tag = Tag::new(j.a.0, LinkKind::Join);
    world.constraints.add(a, b, rest, j.compliance, tear, tag);
    let force = |body: usize| match &scene.bodies[body] {
        BodyDef::Cloth(c) => c.tear_force.unwrap_or(f32::INFINITY),
        _ => f32::INFINITY,
    };
    let force = force(j.a.0).min(force(j.b.0));
    if force.is_finite() {
        world.constraints.set_link_tear_force(a, b, force);
    }
}

/// Puts a validated `state` into a freshly built world.
fn restore(world: &mut World, scene: &Scene, state: &StateDef) {
    for &k in &state.broken_joins {
        let j = &scene.joins[k];
        let (a, b) = (
            particle_of(world, scene, j.a),
            particle_of(world, scene, j.b),
        );
        let removed = world.constraints.break_link(a, b);
        debug_assert!(removed, "validation checks that broken joins exist");
    }
    // The tears first: a cloth's splits make the copies whose positions follow.
    for (b, saved) in state.bodies.iter().enumerate() {
        let first = world.bodies()[b].first;
        for &(a, z) in &saved.broken {
            let torn = world.tear_link(first + a, first + z);
            debug_assert!(torn, "validation replays the tears");
        }
    }
    world.refresh_split();
    world.set_time(state.time);
    for (b, saved) in state.bodies.iter().enumerate() {
        let range = world.bodies()[b].range();
        for i in range.clone() {
            world.set_pinned(i, false);
        }
        for &k in &saved.pins {
            world.set_pinned(range.start + k, true);
        }
        for (k, i) in range.clone().enumerate() {
            world.set_particle(i, saved.positions[k].into(), saved.velocities[k].into());
        }
    }
}

/// Particle positions of a rope of `n` links of length `link` from `a` to `b`.
///
/// When the links are longer than the chord allows, the rope is laid out as
/// a symmetric V (odd counts get a flat middle link) sagging along gravity,
/// so every link starts exactly at rest length; otherwise the particles sit
/// evenly on the chord (stretched when the rope is shorter than the chord).
fn rope_layout(a: Vec3, b: Vec3, n: usize, link: f32, down: Vec3) -> Vec<Vec3> {
    let chord = b - a;
    let span = chord.length();
    let even = |i: usize| a.lerp(b, i as f32 / n as f32);
    if link * n as f32 <= span * (1.0 + 1e-6) || n < 2 {
        return (0..=n).map(even).collect();
    }
    let along = chord / span.max(1e-9);
    let mut sag = down - along * along.dot(down);
    if sag.length_squared() < 1e-12 {
        sag = along.any_orthonormal_vector();
    }
    let sag = sag.normalize();
    // Half the rope: `k` slanted links, plus a flat middle link when n is odd.
    let k = n / 2;
    let flat = if n % 2 == 1 { link } else { 0.0 };
    let cos = ((span - flat) / (2.0 * k as f32 * link)).clamp(-1.0, 1.0);
    let sin = (1.0 - cos * cos).sqrt();
    let step_down = along * (link * cos) + sag * (link * sin);
    let step_up = along * (link * cos) - sag * (link * sin);
    let mut points = vec![a];
    for i in 0..n {
        let step = if i < k {
            step_down
        } else if i < n - k {
            along * flat
        } else {
            step_up
        };
        points.push(points[i] + step);
    }
    points
}

fn rope(world: &mut World, body: usize, r: &RopeDef) -> Shape {
    let (a, b) = (Vec3::from(r.start), Vec3::from(r.end));
    let n = r.segments as usize;
    let link = r.length.unwrap_or(a.distance(b)) / n as f32;
    let down = world.settings.gravity.try_normalize().unwrap_or(-Vec3::Y);
    let first = world.particles.len();
    let m = r.particle_mass();
    for p in rope_layout(a, b, n, link, down) {
        world.particles.push(p, m, r.radius);
    }
    let c = &mut world.constraints;
    for i in 0..n {
        let t = Tag::new(body, LinkKind::Stretch);
        c.add(
            first + i,
            first + i + 1,
            link,
            r.compliance,
            f32::INFINITY,
            t,
        );
    }
    if let Some(bend) = r.bend_compliance {
        for i in 0..n.saturating_sub(1) {
            let t = Tag::new(body, LinkKind::Bend);
            c.add(first + i, first + i + 2, 2.0 * link, bend, f32::INFINITY, t);
        }
    }
    for &p in &r.pins {
        world.set_pinned(
            first + resolve_index(p, n as u64 + 1).expect(VALIDATED),
            true,
        );
    }
    if r.tip_mass > 0.0 {
        world.add_mass(first + n, r.tip_mass);
    }
    Shape::Rope
}

/// Gives a body just built its rest shape — the rope laid straight
/// (particles apart by their distance along it), any other body as built —
/// and switches its self-collision on when the scene asks. Collisions
/// between bodies take the bodies with a rest shape: all of them.
fn self_collision(world: &mut World, body: usize, def: &BodyDef) {
    let b = &world.bodies()[body];
    let (rest, on): (Vec<Vec3>, bool) = match def {
        BodyDef::Rope(r) => {
            let chord = Vec3::from(r.start).distance(r.end.into());
            let link = r.length.unwrap_or(chord) / r.segments as f32;
            let rest = (0..b.count).map(|i| Vec3::X * (i as f32 * link)).collect();
            (rest, r.self_collision)
        }
        BodyDef::Cloth(c) => (world.particles.pos[b.range()].to_vec(), c.self_collision),
        BodyDef::Balloon(bl) => (world.particles.pos[b.range()].to_vec(), bl.self_collision),
        BodyDef::SoftBox(_) | BodyDef::Mesh(_) => (world.particles.pos[b.range()].to_vec(), false),
    };
    world.set_rest_shape(body, rest);
    if on {
        world.set_self_collision(body, true);
    }
}

/// Tethers a rope or cloth that asks for it (after its rest shape is set).
fn tethers(world: &mut World, body: usize, def: &BodyDef) {
    if let BodyDef::Rope(RopeDef { tethers: true, .. })
    | BodyDef::Cloth(ClothDef { tethers: true, .. }) = def
    {
        world.set_tethers(body, true);
    }
}

/// Gives every cloth that asks for it its triangles' drag and lift.
fn aero(world: &mut World, scene: &Scene) {
    let cloths: Vec<(usize, f32, f32)> = (scene.bodies.iter().enumerate())
        .filter_map(|(i, def)| match def {
            BodyDef::Cloth(c) if c.aero_drag > 0.0 || c.aero_lift > 0.0 => {
                Some((i, c.aero_drag, c.aero_lift))
            }
            _ => None,
        })
        .collect();
    if !cloths.is_empty() {
        world.set_aero_many(&cloths);
    }
}

fn cloth(world: &mut World, body: usize, cl: &ClothDef) -> Shape {
    let (cols, rows) = (cl.resolution.0 as usize, cl.resolution.1 as usize);
    let along_row = Vec3::X * (cl.size.0 / (cols - 1) as f32);
    let along_col = match cl.orientation {
        Orientation::Vertical => -Vec3::Y,
        Orientation::Horizontal => Vec3::Z,
    } * (cl.size.1 / (rows - 1) as f32);
    let origin = Vec3::from(cl.origin);
    let first = world.particles.len();
    let m = cl.mass / (cols * rows) as f32;
    for row in 0..rows {
        for col in 0..cols {
            let p = origin + along_row * col as f32 + along_col * row as f32;
            world.particles.push(p, m, cl.radius);
        }
    }
    let tear = cl.tear_strain.unwrap_or(f32::INFINITY);
    let id = |row: usize, col: usize| first + row * cols + col;
    let mut families: Vec<(LinkKind, f32, [usize; 2], [usize; 2])> = vec![
        (LinkKind::Stretch, cl.stretch_compliance, [0, 0], [0, 1]),
        (LinkKind::Stretch, cl.stretch_compliance, [0, 0], [1, 0]),
        (LinkKind::Shear, cl.shear_compliance, [0, 0], [1, 1]),
        (LinkKind::Shear, cl.shear_compliance, [0, 1], [1, 0]),
    ];
    if let Some(bend) = cl
        .bend_compliance
        .filter(|_| cl.bending == Bending::Distance)
    {
        families.push((LinkKind::Bend, bend, [0, 0], [0, 2]));
        families.push((LinkKind::Bend, bend, [0, 0], [2, 0]));
    }
    // Family by family in row-major order: greedy colouring then finds the
    // two-colour pattern of each family, at most 12 colours in all.
    for (kind, compliance, [r0, c0], [r1, c1]) in families {
        let reach_r = r0.max(r1);
        let reach_c = c0.max(c1);
        for row in 0..rows.saturating_sub(reach_r) {
            for col in 0..cols.saturating_sub(reach_c) {
                let (a, b) = (id(row + r0, col + c0), id(row + r1, col + c1));
                let rest = world.particles.pos[a].distance(world.particles.pos[b]);
                world
                    .constraints
                    .add(a, b, rest, compliance, tear, Tag::new(body, kind));
            }
        }
    }
    if let Some(bend) = cl
        .bend_compliance
        .filter(|_| cl.bending == Bending::Dihedral)
    {
        dihedrals(world, body, rows, cols, first, bend);
    }
    if let Some(force) = cl.tear_force {
        world.constraints.set_tear_force(body, force);
    }
    for &(row, col) in &cl.pins {
        let row = resolve_index(row, rows as u64).expect(VALIDATED);
        let col = resolve_index(col, cols as u64).expect(VALIDATED);
        world.set_pinned(id(row, col), true);
    }
    Shape::Cloth {
        columns: cols,
        rows,
    }
}

/// A dihedral constraint on every interior edge of a grid cut into two
/// triangles per cell, (r, c), (r, c+1), (r+1, c) and (r, c+1),
/// (r+1, c+1), (r+1, c), as `World::set_aero` cuts it: wings first, then
/// the edge; rest angles from the grid as built.
fn dihedrals(world: &mut World, body: usize, rows: usize, cols: usize, first: usize, bend: f32) {
    let id = |r: usize, c: usize| first + r * cols + c;
    let mut hinges = Vec::new();
    for r in 0..rows - 1 {
        for c in 0..cols - 1 {
            // The cell's diagonal (r, c+1)–(r+1, c).
            hinges.push([id(r, c), id(r + 1, c + 1), id(r, c + 1), id(r + 1, c)]);
            // The row edge (r, c)–(r, c+1) between this cell and the one above.
            if r > 0 {
                hinges.push([id(r + 1, c), id(r - 1, c + 1), id(r, c), id(r, c + 1)]);
            }
            // The column edge (r, c)–(r+1, c) between this cell and the one left.
            if c > 0 {
                hinges.push([id(r, c + 1), id(r + 1, c - 1), id(r, c), id(r + 1, c)]);
            }
        }
    }
    for h in hinges {
        let rest = dihedral_angle(&world.particles.pos, h).unwrap_or(0.0);
        world.add_quad(QuadKind::Dihedral, h, rest, bend, body);
    }
}

fn mesh(world: &mut World, body: usize, m: &MeshDef) -> Shape {
    let first = world.particles.len();
    let n = m.particles.len() as u64;
    for p in &m.particles {
        let i = world.particles.push(p.position.into(), p.mass, m.radius);
        if p.pinned {
            world.set_pinned(i, true);
        }
    }
    for l in &m.links {
        let a = first + resolve_index(l.a, n).expect(VALIDATED);
        let b = first + resolve_index(l.b, n).expect(VALIDATED);
        let p = &world.particles.pos;
        let rest = l.rest.unwrap_or(p[a].distance(p[b]));
        let t = Tag::new(body, LinkKind::Stretch);
        world
            .constraints
            .add(a, b, rest, l.compliance, f32::INFINITY, t);
    }
    Shape::Mesh
}

fn collider(c: &ColliderDef) -> Collider {
    match *c {
        ColliderDef::Ground { height, friction } => Collider::Ground { height, friction },
        ColliderDef::Sphere {
            center,
            radius,
            friction,
        } => Collider::Sphere {
            center: center.into(),
            radius,
            friction,
        },
        ColliderDef::Box {
            center,
            half_extents,
            friction,
        } => Collider::Box {
            center: center.into(),
            half_extents: half_extents.into(),
            friction,
        },
    }
}

/// `axis` scaled to length 1, computed in f64 so that neither a tiny
/// (1e−23) nor a huge (3e38) finite axis underflows or overflows.
fn unit_axis(axis: V3) -> Vec3 {
    let [x, y, z] = axis.map(f64::from);
    let scale = x.abs().max(y.abs()).max(z.abs());
    let (x, y, z) = (x / scale, y / scale, z / scale);
    let len = (x * x + y * y + z * z).sqrt();
    Vec3::new((x / len) as f32, (y / len) as f32, (z / len) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slack_layouts_keep_every_link_at_rest_length() {
        for n in [2, 3, 7, 12] {
            let pts = rope_layout(Vec3::ZERO, Vec3::X * 2.0, n, 3.0 / n as f32, -Vec3::Y);
            assert_eq!(pts.len(), n + 1);
            for w in pts.windows(2) {
                assert!((w[0].distance(w[1]) - 3.0 / n as f32).abs() < 1e-5);
            }
            assert!(
                pts[n].distance(Vec3::X * 2.0) < 1e-4,
                "n = {n}: ends at {}",
                pts[n]
            );
            assert!(pts[n / 2].y < 0.0, "sags along gravity");
        }
    }
}
