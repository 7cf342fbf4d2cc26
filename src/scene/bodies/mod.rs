//! Body kinds, one module each: its scene definition (with `Default`),
//! range checks, construction, capture (Save as) and the facts the panel
//! shows. Validation, building, capture and the panel loop over bodies
//! through [`Kind`]; [`BodyDef::kind`] is the one place that matches every
//! kind. A new kind is a module here, a [`BodyDef`] variant and its two
//! lines in `kind` and `kind_mut`.

pub mod balloon;
pub mod cloth;
pub mod mesh;
pub mod rigid;
pub mod rod;
pub mod rope;
pub mod soft_box;

use glam::Vec3;

use super::schema::BodyDef;
use super::schema::V3;
use super::validate::{Checker, MAX_PARTICLES, resolve_index};
use crate::solver::{Body, LinkKind, Shape, Tag, World};

/// What the panel and the summaries say of a kind.
#[derive(Debug)]
pub struct Facts {
    /// The kind as written in a scene file ("Rope").
    pub kind: &'static str,
    /// The kind in the panel ("rope").
    pub label: &'static str,
    /// The link kinds it has, each with its compliance slider's label.
    pub links: &'static [(LinkKind, &'static str)],
    /// The panel offers a self-collision switch.
    pub self_collision: bool,
    /// The panel offers a tethers switch.
    pub tethers: bool,
}

/// The verbs every body kind answers (see the module doc).
pub(crate) trait Kind {
    /// What the panel and the summaries say of it.
    fn facts(&self) -> &'static Facts;

    /// The particles it creates, if its sizes are sane.
    fn particle_count(&self) -> u64;

    /// The positions (and velocities) its saved state has, when not one
    /// per particle (a rigid body's: its centre of mass).
    fn state_points(&self) -> Option<usize> {
        None
    }

    /// The orientations (and angular velocities) its saved state has: a
    /// rod's one per segment, a rigid body's one.
    fn orientations(&self) -> usize {
        0
    }

    /// Range checks of every field, under the field path `f`
    /// ("bodies[2]"); `body_collisions`: the scene's collisions between
    /// bodies, which need a radius the spatial hash can use.
    fn check(&self, c: &mut Checker, f: &str, body_collisions: bool);

    /// Adds its particles and constraints to `world` as body `body`
    /// (validated), pins included; returns its shape.
    fn build(&self, world: &mut World, body: usize) -> Shape;

    /// True when its links can tear: it keeps a spare slot per particle
    /// for the copies tears make.
    fn tearable(&self) -> bool {
        false
    }

    /// What it is given once added as a body (a balloon's gas).
    fn after_add(&self, _world: &mut World, _body: usize) {}

    /// Its rest shape, for self-collision and tethers: as built, unless
    /// the kind knows better (a rope laid straight).
    fn rest_shape(&self, world: &World, body: usize) -> Vec<Vec3> {
        world.particles.pos()[world.bodies()[body].range()].to_vec()
    }

    /// Self-collision switched on in the scene.
    fn self_collision(&self) -> bool {
        false
    }

    /// Tethers switched on in the scene.
    fn tethers(&self) -> bool {
        false
    }

    /// Drag and lift coefficients on its triangles, if any.
    fn aero(&self) -> Option<(f32, f32)> {
        None
    }

    /// The tear strain and tear force (N) of its links, for the joins to
    /// it (∞ = never).
    fn tear_limits(&self) -> (f32, f32) {
        (f32::INFINITY, f32::INFINITY)
    }

    /// Copies its run-time compliances (and gas, material) from `world`.
    fn capture_compliances(&mut self, world: &World, body: usize);

    /// Copies its run-time switches (self-collision, tethers) from `world`.
    fn capture_switches(&mut self, _world: &World, _body: usize) {}

    /// Copies its pins from `world`.
    fn capture_pins(&mut self, world: &World, body: &Body);
}

impl BodyDef {
    /// The body's kind, to ask its verbs.
    pub(crate) fn kind(&self) -> &dyn Kind {
        match self {
            BodyDef::Rope(r) => r,
            BodyDef::Cloth(c) => c,
            BodyDef::Mesh(m) => m,
            BodyDef::Balloon(b) => b,
            BodyDef::SoftBox(s) => s,
            BodyDef::Rod(r) => r,
            BodyDef::Rigid(r) => r,
        }
    }

    /// [`BodyDef::kind`], to capture into.
    pub(crate) fn kind_mut(&mut self) -> &mut dyn Kind {
        match self {
            BodyDef::Rope(r) => r,
            BodyDef::Cloth(c) => c,
            BodyDef::Mesh(m) => m,
            BodyDef::Balloon(b) => b,
            BodyDef::SoftBox(s) => s,
            BodyDef::Rod(r) => r,
            BodyDef::Rigid(r) => r,
        }
    }

    /// What the panel and the summaries say of its kind.
    pub fn facts(&self) -> &'static Facts {
        self.kind().facts()
    }
}

/// Pins `pins` (validated, negative from the end) of the body of `n`
/// particles that starts at `first`.
pub(super) fn pin(world: &mut World, first: usize, n: usize, pins: &[i64]) {
    for &p in pins {
        let k = resolve_index(p, n as u64).expect("pins checked by scene validation");
        world.set_pinned(first + k, true);
    }
}

/// A chain's ends and segment count (a rope's, a rod's); true when both
/// ends are coordinates.
pub(super) fn check_chain(c: &mut Checker, f: &str, (start, end): (V3, V3), segments: u32) -> bool {
    use crate::solver::limits::COORDINATE;
    let ends_ok =
        c.v3(&format!("{f}.start"), start, COORDINATE) & c.v3(&format!("{f}.end"), end, COORDINATE);
    if segments == 0 || segments as u64 >= MAX_PARTICLES {
        let most = MAX_PARTICLES - 1;
        let message = format!("{segments} is outside the accepted range 1 ..= {most}");
        c.fail(format!("{f}.segments"), message);
    }
    ends_ok
}

/// Stretch links of body `body` on `edges` (indices from particle
/// `first`) at their lengths as built, holding tension only or both ways.
pub(super) fn stretch_links(
    world: &mut World,
    (body, first): (usize, usize),
    edges: &[[u32; 2]],
    compliance: f32,
    tension_only: bool,
) {
    let tag = Tag::new(body, LinkKind::Stretch);
    for &[a, b] in edges {
        let (a, b) = (first + a as usize, first + b as usize);
        let rest = world.particles.pos()[a].distance(world.particles.pos()[b]);
        if tension_only {
            world.add_tension_link((a, b), rest, compliance, tag);
        } else {
            world.add_link((a, b), rest, compliance, f32::INFINITY, tag);
        }
    }
}

/// The pinned particles of `body`, numbered within it.
pub(super) fn pinned(world: &World, body: &Body) -> Vec<i64> {
    (body.range())
        .filter(|&i| world.particles.is_pinned(i))
        .map(|i| (i - body.first) as i64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::schema::BodyDef;
    use super::*;

    /// Each kind's `Default` is what a scene file gets for a body with only
    /// its required fields: the defaults have one source, serde's.
    #[test]
    fn every_kind_defaults_to_what_a_file_with_its_required_fields_gets() {
        let defaults = [
            BodyDef::Rope(rope::RopeDef::default()),
            BodyDef::Cloth(cloth::ClothDef::default()),
            BodyDef::Mesh(mesh::MeshDef::default()),
            BodyDef::Balloon(balloon::BalloonDef::default()),
            BodyDef::SoftBox(soft_box::SoftBoxDef::default()),
            BodyDef::Rod(rod::RodDef::default()),
            BodyDef::Rigid(rigid::RigidDef::default()),
        ];
        let required = [
            "Rope(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 10)",
            "Cloth(origin: (0.0, 1.0, 0.0), size: (1.0, 1.0), resolution: (20, 20))",
            "Mesh()",
            "Balloon(center: (0.0, 1.0, 0.0), sphere_radius: 0.3)",
            "SoftBox(center: (0.0, 0.5, 0.0), size: (0.4, 0.4, 0.4), resolution: (4, 4, 4))",
            "Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 40)",
        ];
        for (def, text) in defaults.iter().zip(required) {
            let scene = format!("Scene(bodies: [{text}])");
            let path = std::path::Path::new("<test>");
            let parsed = super::super::parse(&scene, path).unwrap().bodies.remove(0);
            assert_eq!(&parsed, def, "{text}");
            assert_eq!(parsed.facts().kind, &text[..text.find('(').unwrap()]);
        }
    }
}
