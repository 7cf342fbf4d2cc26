//! World → scene: what a user changed at run time, and the world's state,
//! written back into a scene so saving keeps what they saw.

use super::schema::*;
use super::validate::resolve_index;
use crate::solver::limits;
use crate::solver::{QuadKind, Shape, World};

impl Scene {
    /// Copies what can change at run time — solver settings, pins,
    /// compliances and self-collision switches —
    /// from `world` (built from this scene) into the scene, so saving keeps
    /// a user's edits.
    pub fn capture(&mut self, world: &World) {
        self.capture_compliances(world);
        self.solver = SolverDef::from(&world.settings);
        self.solver.body_collisions = world.body_collisions();
        for (b, (def, body)) in self.bodies.iter_mut().zip(world.bodies()).enumerate() {
            let pinned = body.range().filter(|&i| world.particles.is_pinned(i));
            match (def, &body.shape) {
                (BodyDef::Rope(r), _) => {
                    r.pins = pinned.map(|i| (i - body.first) as i64).collect();
                    r.self_collision = world.self_collision(b);
                    r.tethers = world.tethers().has(b);
                }
                (BodyDef::Cloth(c), Shape::Cloth { columns, .. }) => {
                    c.self_collision = world.self_collision(b);
                    c.tethers = world.tethers().has(b);
                    // A copy made by a tear is pinned where its original is.
                    let grid = |k: usize| body.faces.as_ref().map_or(k, |f| f.origin[k] as usize);
                    let mut pins: Vec<(i64, i64)> = pinned
                        .map(|i| grid(i - body.first))
                        .map(|i| ((i / columns) as i64, (i % columns) as i64))
                        .collect();
                    pins.sort_unstable();
                    pins.dedup();
                    c.pins = pins;
                }
                (BodyDef::Mesh(m), _) => {
                    for (k, p) in m.particles.iter_mut().enumerate() {
                        p.pinned = world.particles.is_pinned(body.first + k);
                    }
                }
                (BodyDef::Balloon(bl), _) => {
                    bl.self_collision = world.self_collision(b);
                    bl.pins = pinned.map(|i| (i - body.first) as i64).collect();
                }
                (BodyDef::SoftBox(s), _) => {
                    s.pins = pinned.map(|i| (i - body.first) as i64).collect();
                }
                (BodyDef::Cloth(_), _) => unreachable!("cloth bodies have cloth shapes"),
            }
        }
    }

    /// Copies every constraint compliance from `world` (built from this
    /// scene) into the body definitions: ropes' and cloths' per kind, each
    /// mesh link's own.
    pub fn capture_compliances(&mut self, world: &World) {
        use crate::solver::LinkKind::*;
        let c = &world.constraints;
        for k in 0..self.joins.len() {
            let (a, b) = self.join_particles(world, k);
            if let Some(alpha) = c.link_compliance(a, b) {
                self.joins[k].compliance = alpha;
            }
        }
        for (b, (def, body)) in self.bodies.iter_mut().zip(world.bodies()).enumerate() {
            match def {
                BodyDef::Rope(r) => {
                    r.compliance = c.compliance(b, Stretch).unwrap_or(r.compliance);
                    r.bend_compliance = c.compliance(b, Bend).or(r.bend_compliance);
                }
                BodyDef::Cloth(cl) => {
                    cl.stretch_compliance =
                        c.compliance(b, Stretch).unwrap_or(cl.stretch_compliance);
                    cl.shear_compliance = c.compliance(b, Shear).unwrap_or(cl.shear_compliance);
                    cl.bend_compliance = c
                        .compliance(b, Bend)
                        .or(world.quads.compliance(b, QuadKind::Dihedral))
                        .or(cl.bend_compliance);
                }
                BodyDef::Balloon(bl) => super::solid::capture_balloon(world, b, bl),
                BodyDef::SoftBox(s) => super::solid::capture_soft_box(world, b, s),
                BodyDef::Mesh(m) => {
                    // Links by their particle pair (the world may have torn some).
                    let mut of_pair = std::collections::HashMap::new();
                    for l in c
                        .iter()
                        .filter(|l| l.tag.body as usize == b && l.tag.kind != Join)
                    {
                        of_pair.insert((l.a.min(l.b), l.a.max(l.b)), l.compliance);
                    }
                    let n = m.particles.len() as u64;
                    for link in &mut m.links {
                        let ends = (resolve_index(link.a, n), resolve_index(link.b, n));
                        if let (Some(a), Some(b)) = ends {
                            let (a, b) = (body.first + a, body.first + b);
                            if let Some(&alpha) = of_pair.get(&(a.min(b), a.max(b))) {
                                link.compliance = alpha;
                            }
                        }
                    }
                }
            }
        }
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
        let bodies = world
            .bodies()
            .iter()
            .map(|body| BodyStateDef {
                positions: body
                    .range()
                    .map(|i| within(p.pos[i], limits::COORDINATE))
                    .collect(),
                velocities: body
                    .range()
                    .map(|i| within(p.vel[i], limits::SPEED))
                    .collect(),
                pins: body
                    .range()
                    .filter(|&i| p.is_pinned(i))
                    .map(|i| i - body.first)
                    .collect(),
                broken: world
                    .tears()
                    .iter()
                    .map(|&(a, b)| (a as usize, b as usize))
                    .filter(|(a, b)| body.range().contains(a) && body.range().contains(b))
                    .map(|(a, b)| (a - body.first, b - body.first))
                    .collect(),
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
