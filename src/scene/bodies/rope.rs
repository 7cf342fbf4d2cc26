//! `Rope(...)`: a chain of particles from `start` to `end`.

use glam::Vec3;
use serde::{Deserialize, Serialize};

use super::super::schema::{V3, one, rope_compliance, rope_radius};
use super::super::validate::{Checker, collision_radius};
use super::{Facts, Kind, check_chain, pin, pinned};
use crate::solver::limits::*;
use crate::solver::{Body, LinkKind, Shape, Tag, World};

/// `Rope(...)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RopeDef {
    /// First particle (m). Required.
    pub start: V3,
    /// Last particle (m). Required.
    pub end: V3,
    /// Number of links; particles = segments + 1. Required.
    pub segments: u32,
    /// Rest length of the whole rope (m); default |end − start|.
    #[serde(default)]
    pub length: Option<f32>,
    /// Total mass (kg), spread evenly over the particles (default 1).
    #[serde(default = "one")]
    pub mass: f32,
    /// Link compliance (m/N) (default 1e−4).
    #[serde(default = "rope_compliance")]
    pub compliance: f32,
    /// Compliance of the distance across every second particle (m/N); None = no bending.
    #[serde(default)]
    pub bend_compliance: Option<f32>,
    /// Particle radius (m) (default 0.02).
    #[serde(default = "rope_radius")]
    pub radius: f32,
    /// Collisions between the rope's own particles (default false).
    #[serde(default)]
    pub self_collision: bool,
    /// Pinned particle indices; negative counts from the end (default none).
    #[serde(default)]
    pub pins: Vec<i64>,
    /// Mass added to the last particle (kg): a weight on the end (default 0).
    #[serde(default)]
    pub tip_mass: f32,
    /// Long-range attachments: no particle gets farther from its nearest
    /// pin than its rest distance along the rope (default false).
    #[serde(default)]
    pub tethers: bool,
}

impl Default for RopeDef {
    /// A 1 m rope of 10 links along +x at 1 m height, every other field
    /// as a file without it gets.
    fn default() -> Self {
        Self::new([0.0, 1.0, 0.0], [1.0, 1.0, 0.0], 10)
    }
}

impl RopeDef {
    /// A rope of `segments` links from `start` to `end` (m), every other
    /// field at its default: 1 kg, compliance 1e−4 m/N, no pins.
    pub fn new(start: V3, end: V3, segments: u32) -> Self {
        Self {
            start,
            end,
            segments,
            length: None,
            mass: one(),
            compliance: rope_compliance(),
            bend_compliance: None,
            radius: rope_radius(),
            self_collision: false,
            pins: Vec::new(),
            tip_mass: 0.0,
            tethers: false,
        }
    }

    /// Each particle's share of the rope's mass (kg), before `tip_mass`.
    pub fn particle_mass(&self) -> f32 {
        self.mass / (self.segments + 1) as f32
    }

    /// The rest length of each link (m).
    fn link(&self) -> f32 {
        let chord = Vec3::from(self.start).distance(self.end.into());
        self.length.unwrap_or(chord) / self.segments as f32
    }
}

const FACTS: Facts = Facts {
    kind: "Rope",
    label: "rope",
    links: &[(LinkKind::Stretch, "links"), (LinkKind::Bend, "bending")],
    self_collision: true,
    tethers: true,
};

impl Kind for RopeDef {
    fn facts(&self) -> &'static Facts {
        &FACTS
    }

    fn particle_count(&self) -> u64 {
        self.segments as u64 + 1
    }

    fn check(&self, c: &mut Checker, f: &str, body_collisions: bool) {
        let r = self;
        let ends_ok = check_chain(c, f, (r.start, r.end), r.segments);
        let chord = Vec3::from(r.start).distance(r.end.into());
        let length = match r.length {
            Some(l) => c.num(&format!("{f}.length"), l, LENGTH).then_some(l),
            None if ends_ok && !LENGTH.contains(chord) => {
                c.fail(
                    format!("{f}.length"),
                    format!(
                        "start and end are {chord} m apart: give a `length` in {}",
                        LENGTH.describe()
                    ),
                );
                None
            }
            None => ends_ok.then_some(chord),
        };
        c.num(&format!("{f}.mass"), r.mass, MASS);
        c.num(&format!("{f}.compliance"), r.compliance, COMPLIANCE);
        if let Some(b) = r.bend_compliance {
            c.num(&format!("{f}.bend_compliance"), b, COMPLIANCE);
        }
        if c.num(&format!("{f}.radius"), r.radius, RADIUS)
            && let Some(l) = length.filter(|_| r.segments > 0)
        {
            let colliding = r.self_collision || body_collisions;
            collision_radius(c, f, r.radius, l / r.segments as f32, colliding);
        }
        for (k, &p) in r.pins.iter().enumerate() {
            c.index(&format!("{f}.pins[{k}]"), p, r.segments as u64 + 1);
        }
        c.num(&format!("{f}.tip_mass"), r.tip_mass, TIP_MASS);
    }

    fn build(&self, world: &mut World, body: usize) -> Shape {
        let r = self;
        let (a, b) = (Vec3::from(r.start), Vec3::from(r.end));
        let n = r.segments as usize;
        let link = r.link();
        let down = world.settings.gravity.try_normalize().unwrap_or(-Vec3::Y);
        let first = world.particles.len();
        let m = r.particle_mass();
        for p in layout(a, b, n, link, down) {
            world.particles.push(p, m, r.radius);
        }
        for i in 0..n {
            let t = Tag::new(body, LinkKind::Stretch);
            let (a, b) = (first + i, first + i + 1);
            world.add_link((a, b), link, r.compliance, f32::INFINITY, t);
        }
        if let Some(bend) = r.bend_compliance {
            for i in 0..n.saturating_sub(1) {
                let t = Tag::new(body, LinkKind::Bend);
                let ends = (first + i, first + i + 2);
                world.add_link(ends, 2.0 * link, bend, f32::INFINITY, t);
            }
        }
        pin(world, first, n + 1, &r.pins);
        if r.tip_mass > 0.0 {
            world.add_mass(first + n, r.tip_mass);
        }
        Shape::Rope
    }

    /// The rope laid straight: particles apart by their distance along it.
    fn rest_shape(&self, _world: &World, _body: usize) -> Vec<Vec3> {
        let link = self.link();
        (0..=self.segments)
            .map(|i| Vec3::X * (i as f32 * link))
            .collect()
    }

    fn self_collision(&self) -> bool {
        self.self_collision
    }

    fn tethers(&self) -> bool {
        self.tethers
    }

    fn capture_compliances(&mut self, world: &World, body: usize) {
        let c = &world.constraints;
        self.compliance = c
            .compliance(body, LinkKind::Stretch)
            .unwrap_or(self.compliance);
        self.bend_compliance = c.compliance(body, LinkKind::Bend).or(self.bend_compliance);
    }

    fn capture_switches(&mut self, world: &World, body: usize) {
        self.self_collision = world.self_collision(body);
        self.tethers = world.tethers().has(body);
    }

    fn capture_pins(&mut self, world: &World, body: &Body) {
        self.pins = pinned(world, body);
    }
}

/// Particle positions of a rope of `n` links of length `link` from `a` to `b`.
///
/// When the links are longer than the chord allows, the rope is laid out as
/// a symmetric V (odd counts get a flat middle link) sagging along gravity,
/// so every link starts exactly at rest length; otherwise the particles sit
/// evenly on the chord (stretched when the rope is shorter than the chord).
fn layout(a: Vec3, b: Vec3, n: usize, link: f32, down: Vec3) -> Vec<Vec3> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slack_layouts_keep_every_link_at_rest_length() {
        for n in [2, 3, 7, 12] {
            let pts = layout(Vec3::ZERO, Vec3::X * 2.0, n, 3.0 / n as f32, -Vec3::Y);
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
