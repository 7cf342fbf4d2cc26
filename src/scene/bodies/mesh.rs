//! `Mesh(...)`: free-form particles and links.

use std::collections::HashMap;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::schema::{V3, one, rope_radius};
use super::super::validate::{Checker, collision_radius, resolve_index};
use super::{Facts, Kind};
use crate::solver::limits::{self, *};
use crate::solver::{Body, LinkKind, Shape, Tag, World};

/// `Mesh(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshDef {
    /// Particles in index order.
    #[serde(default)]
    pub particles: Vec<MeshParticle>,
    /// Distance links between particles.
    #[serde(default)]
    pub links: Vec<MeshLink>,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
}

impl Default for MeshDef {
    /// No particles, no links, the default radius.
    fn default() -> Self {
        Self {
            particles: Vec::new(),
            links: Vec::new(),
            radius: rope_radius(),
        }
    }
}

/// One mesh particle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshParticle {
    /// Initial position (m). Required.
    pub position: V3,
    /// Mass (kg) (default 1).
    #[serde(default = "one")]
    pub mass: f32,
    /// Pinned (default false).
    #[serde(default)]
    pub pinned: bool,
}

/// One mesh link.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshLink {
    /// First particle index. Required.
    pub a: i64,
    /// Second particle index. Required.
    pub b: i64,
    /// Compliance (m/N) (default 0).
    #[serde(default)]
    pub compliance: f32,
    /// Rest length (m); default the initial distance.
    #[serde(default)]
    pub rest: Option<f32>,
}

const FACTS: Facts = Facts {
    kind: "Mesh",
    label: "mesh",
    links: &[(LinkKind::Stretch, "links")],
    self_collision: false,
    tethers: false,
};

impl Kind for MeshDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn particle_count(&self) -> u64 {
        self.particles.len() as u64
    }

    fn check(&self, c: &mut Checker, f: &str, body_collisions: bool) {
        let m = self;
        let n = m.particles.len() as u64;
        for (k, p) in m.particles.iter().enumerate() {
            let at = format!("{f}.particles[{k}]");
            c.v3(&format!("{at}.position"), p.position, COORDINATE);
            c.num(&format!("{at}.mass"), p.mass, MASS);
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
            let field = format!("{f}.links[{k}].compliance");
            c.num(&field, l.compliance, COMPLIANCE);
            if let Some(rest) = l.rest {
                c.num(&format!("{f}.links[{k}].rest"), rest, REST);
            }
        }
        c.num(&format!("{f}.radius"), m.radius, RADIUS);
        // A mesh's rest shape is its particles as placed.
        let spacing = limits::spacing(m.particles.iter().map(|p| Vec3::from(p.position)));
        if spacing.is_finite() {
            collision_radius(c, f, m.radius, spacing, body_collisions);
        }
    }

    fn build(&self, world: &mut World, body: usize) -> Shape {
        let first = world.particles.len();
        let n = self.particles.len() as u64;
        for p in &self.particles {
            let i = world.particles.push(p.position.into(), p.mass, self.radius);
            if p.pinned {
                world.set_pinned(i, true);
            }
        }
        let valid = "links checked by scene validation";
        for l in &self.links {
            let a = first + resolve_index(l.a, n).expect(valid);
            let b = first + resolve_index(l.b, n).expect(valid);
            let p = world.particles.pos();
            let rest = l.rest.unwrap_or(p[a].distance(p[b]));
            let t = Tag::new(body, LinkKind::Stretch);
            world.add_link((a, b), rest, l.compliance, f32::INFINITY, t);
        }
        Shape::Mesh
    }

    /// Each link's own, found by its particle pair (the world may have
    /// torn some).
    fn capture_compliances(&mut self, world: &World, b: usize) {
        let c = &world.constraints;
        let mut of_pair = HashMap::new();
        for l in c
            .iter()
            .filter(|l| l.tag.body as usize == b && l.tag.kind != LinkKind::Join)
        {
            of_pair.insert((l.a.min(l.b), l.a.max(l.b)), l.compliance);
        }
        let first = world.bodies()[b].first;
        let n = self.particles.len() as u64;
        for link in &mut self.links {
            let ends = (resolve_index(link.a, n), resolve_index(link.b, n));
            if let (Some(a), Some(b)) = ends {
                let (a, b) = (first + a, first + b);
                if let Some(&alpha) = of_pair.get(&(a.min(b), a.max(b))) {
                    link.compliance = alpha;
                }
            }
        }
    }

    fn capture_pins(&mut self, world: &World, body: &Body) {
        for (k, p) in self.particles.iter_mut().enumerate() {
            p.pinned = world.particles.is_pinned(body.first + k);
        }
    }
}
