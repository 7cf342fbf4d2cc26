//! Validated scene → solver world.

use glam::Vec3;

use super::schema::*;
use super::validate::resolve_index;
use crate::solver::{
    Body, Collider, Driver, DriverPath, Faces, LinkKind, Settings, Shape, Tag, World,
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
        let kind = body.kind();
        let first = world.particles.len();
        let shape = kind.build(&mut world, i);
        let count = world.particles.len() - first;
        // A tearable cloth keeps one spare slot per particle for the
        // copies its tears make (see `solver::Faces`).
        let faces = match &shape {
            &Shape::Cloth { columns, rows } if kind.tearable() => {
                let at = world.particles.pos()[first];
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
        kind.after_add(&mut world, i);
        // The rest shape, for self-collision and tethers. Collisions
        // between bodies take the bodies with a rest shape: all of them.
        let rest = kind.rest_shape(&world, i);
        world.set_rest_shape(i, rest);
        if kind.self_collision() {
            world.set_self_collision(i, true);
        }
        if kind.tethers() {
            world.set_tethers(i, true);
        }
    }
    aero(&mut world, scene);
    for j in &scene.joins {
        join(&mut world, scene, j);
    }
    super::joints::build(&mut world, scene);
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
        // A rigid body's one point is its centre, particle 0.
        let points = scene.bodies[d.body]
            .kind()
            .state_points()
            .unwrap_or(body.count);
        let k = resolve_index(d.particle, points as u64).expect(VALIDATED);
        let particle = body.first + k;
        let done = match d.motion {
            Motion::Sine {
                axis,
                amplitude,
                frequency,
            } => {
                world.add_driver(Driver {
                    particle,
                    origin: world.particles.pos()[particle],
                    path: DriverPath::Sine {
                        axis: unit_axis(axis),
                        amplitude,
                        frequency,
                    },
                });
                true
            }
            Motion::Slide { offset, seconds } => {
                world.add_driver(Driver {
                    particle,
                    origin: world.particles.pos()[particle],
                    path: DriverPath::Slide {
                        offset: offset.into(),
                        seconds,
                    },
                });
                true
            }
            Motion::Twist { turns, seconds } => world.twist_rod(d.body, k, turns, seconds),
            Motion::Moment {
                axis,
                newton_metres,
                seconds,
            } => match world.rigids().of_body(d.body) {
                Some(r) => {
                    world.torque_rigid(r, unit_axis(axis) * newton_metres, seconds);
                    true
                }
                None => world.torque_rod(d.body, k, unit_axis(axis) * newton_metres, seconds),
            },
        };
        debug_assert!(done, "validation checks that the driver fits its body");
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
            &p.pos()[range.clone()],
            &p.radius()[range.clone()],
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
        .unwrap_or_else(|| world.particles.pos()[a].distance(world.particles.pos()[b]));
    let limits = |body: usize| scene.bodies[body].kind().tear_limits();
    let ((strain_a, force_a), (strain_b, force_b)) = (limits(j.a.0), limits(j.b.0));
    let tag = Tag::new(j.a.0, LinkKind::Join);
    world.add_link((a, b), rest, j.compliance, strain_a.min(strain_b), tag);
    let force = force_a.min(force_b);
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
        // Only the particles the state has free are unpinned: a rod's
        // clamp goes with its pin, and a clamped end saved pinned keeps it.
        for (k, i) in range.clone().enumerate() {
            if !saved.pins.contains(&k) {
                world.set_pinned(i, false);
            }
        }
        for &k in &saved.pins {
            world.set_pinned(range.start + k, true);
        }
        for (k, i) in range.clone().enumerate() {
            world.set_particle(i, saved.positions[k].into(), saved.velocities[k].into());
        }
        if let Some(r) = world.rigids().of_body(b) {
            let q = glam::Quat::from_array(saved.orientations[0]);
            let pose = (saved.positions[0].into(), q);
            let motion = (
                saved.velocities[0].into(),
                saved.angular_velocities[0].into(),
            );
            world.set_rigid_state(r, pose, motion);
        } else if let Some(gas) = world.gas_mut(b) {
            gas.settle();
        } else if !saved.orientations.is_empty() {
            let q: Vec<glam::Quat> = (saved.orientations.iter())
                .map(|q| glam::Quat::from_array(*q))
                .collect();
            let omega: Vec<Vec3> = (saved.angular_velocities.iter())
                .map(|&w| w.into())
                .collect();
            world.set_rod_state(b, &q, &omega);
        }
    }
}

/// Gives every body that asks for it its triangles' drag and lift.
fn aero(world: &mut World, scene: &Scene) {
    let cloths: Vec<(usize, f32, f32)> = (scene.bodies.iter().enumerate())
        .filter_map(|(i, def)| def.kind().aero().map(|(drag, lift)| (i, drag, lift)))
        .collect();
    if !cloths.is_empty() {
        world.set_aero_many(&cloths);
    }
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
pub(super) fn unit_axis(axis: V3) -> Vec3 {
    let [x, y, z] = axis.map(f64::from);
    let scale = x.abs().max(y.abs()).max(z.abs());
    let (x, y, z) = (x / scale, y / scale, z / scale);
    let len = (x * x + y * y + z * z).sqrt();
    Vec3::new((x / len) as f32, (y / len) as f32, (z / len) as f32)
}
