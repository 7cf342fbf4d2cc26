//! World → scene: what a user changed at run time, and the world's state,
//! written back into a scene so saving keeps what they saw.

use super::schema::*;
use crate::solver::World;
use crate::solver::limits;
use crate::solver::rods::Rods;

impl Scene {
    /// Copies what can change at run time — solver settings, pins,
    /// compliances, self-collision and tethers switches —
    /// from `world` (built from this scene) into the scene, so saving keeps
    /// a user's edits.
    pub fn capture(&mut self, world: &World) {
        self.capture_compliances(world);
        self.solver = SolverDef::from(&world.settings);
        self.solver.body_collisions = world.body_collisions();
        for (b, (def, body)) in self.bodies.iter_mut().zip(world.bodies()).enumerate() {
            let kind = def.kind_mut();
            kind.capture_pins(world, body);
            kind.capture_switches(world, b);
        }
    }

    /// Copies every constraint compliance from `world` (built from this
    /// scene) into the body definitions: ropes' and cloths' per kind, each
    /// mesh link's own.
    pub fn capture_compliances(&mut self, world: &World) {
        for k in 0..self.joins.len() {
            let (a, b) = self.join_particles(world, k);
            if let Some(alpha) = world.constraints.link_compliance(a, b) {
                self.joins[k].compliance = alpha;
            }
        }
        for (b, def) in self.bodies.iter_mut().enumerate() {
            def.kind_mut().capture_compliances(world, b);
        }
    }

    /// Copies body `b`'s run-time settings — compliances and switches, not
    /// its pins — from `world`, so that Reset keeps a panel's edit.
    pub fn keep_settings(&mut self, world: &World, b: usize) {
        let kind = self.bodies[b].kind_mut();
        kind.capture_compliances(world, b);
        kind.capture_switches(world, b);
    }

    /// The world particle indices of join `k`'s two ends (in `world`,
    /// built from this scene).
    pub fn join_particles(&self, world: &World, k: usize) -> (usize, usize) {
        let j = &self.joins[k];
        (
            super::build::particle_of(world, self, j.a),
            super::build::particle_of(world, self, j.b),
        )
    }

    /// Records the world's state — time, every body's positions,
    /// velocities and pins, the links and joins that broke — so the scene
    /// starts from it, bit-exactly (DESIGN §3 `state`). A world gone past
    /// the ranges a `state` accepts (±1e5 m, ±1e4 m/s per component) is
    /// saved clamped into them, so what is saved always loads.
    pub fn capture_state(&mut self, world: &World) {
        let p = &world.particles;
        let within = |v: glam::Vec3, b: limits::Bounds| {
            // NaN (never in a world) would be kept, and refused on load.
            v.to_array().map(|x| x.clamp(b.min, b.max))
        };
        let rigid = world.rigids();
        let bodies = (world.bodies().iter().enumerate())
            .map(|(b, body)| match rigid.of_body(b) {
                Some(r) => {
                    let r = &rigid.bodies[r];
                    BodyStateDef {
                        positions: vec![within(r.x, limits::COORDINATE)],
                        velocities: vec![within(r.v, limits::SPEED)],
                        pins: Vec::new(),
                        broken: Vec::new(),
                        orientations: vec![r.q.to_array()],
                        angular_velocities: vec![within(r.omega, limits::ANGULAR_SPEED)],
                    }
                }
                None => BodyStateDef {
                    positions: body
                        .range()
                        .map(|i| within(p.pos()[i], limits::COORDINATE))
                        .collect(),
                    velocities: body
                        .range()
                        .map(|i| within(p.vel()[i], limits::SPEED))
                        .collect(),
                    pins: body
                        .range()
                        .filter(|&i| p.is_pinned(i))
                        .map(|i| i - body.first)
                        .collect(),
                    orientations: rod_column(world, b, |r, s| r.orientation(s).to_array()),
                    angular_velocities: rod_column(world, b, |r, s| {
                        within(r.angular_velocity(s), limits::ANGULAR_SPEED)
                    }),
                    broken: world
                        .tears()
                        .iter()
                        .map(|&(a, b)| (a as usize, b as usize))
                        .filter(|(a, b)| body.range().contains(a) && body.range().contains(b))
                        .map(|(a, b)| (a - body.first, b - body.first))
                        .collect(),
                },
            })
            .collect();
        let broken: std::collections::HashSet<(usize, usize)> = world
            .constraints
            .broken()
            .iter()
            .map(|&(a, b)| (a.min(b) as usize, a.max(b) as usize))
            .collect();
        let broken_joins = (0..self.joins.len())
            .filter(|&k| {
                let (a, b) = self.join_particles(world, k);
                broken.contains(&(a.min(b), a.max(b)))
            })
            .collect();
        self.state = Some(StateDef {
            time: world.time(),
            bodies,
            broken_joins,
        });
    }
}

/// One value per segment of rod body `b` (empty for other bodies).
fn rod_column<T>(world: &World, b: usize, value: impl Fn(&Rods, usize) -> T) -> Vec<T> {
    let rods = world.rods();
    rods.segments_of(b).map(|s| value(rods, s)).collect()
}
