//! A soft rope hanging still from one pin: XPBD's static answer, which
//! does not depend on the substep count (the default scene's lesson).

use glam::Vec3;

use crate::solver::{LinkKind, Shape, World};

/// A rope hanging straight down from `pin`: unstretched it would reach
/// `rest` below it; each link k stretched by α·W_k (W_k the weight below
/// it) it reaches `stretched`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HangingRope {
    /// The pinned end (m).
    pub pin: Vec3,
    /// Unit direction of gravity.
    pub down: Vec3,
    /// Its rest length (m).
    pub rest: f32,
    /// Its length hanging still with the links' compliance (m).
    pub stretched: f32,
}

impl HangingRope {
    /// Rope body `b` of `world` hanging from its first particle: when that
    /// is its only pinned particle (not driven), its links are compliant
    /// and it has no tethers (which would hold it at its rest length).
    /// Defined in either method: in PBD it shows what the compliance
    /// would give.
    pub fn of_rope(world: &World, b: usize) -> Option<Self> {
        let body = world.bodies().get(b)?;
        let p = &world.particles;
        let first = body.first;
        let only_first = body.range().all(|i| p.is_pinned(i) == (i == first));
        let g = world.settings.gravity;
        let rope = body.shape == Shape::Rope && world.rods().segments_of(b).is_empty();
        if !rope || body.count < 2 || !only_first || p.is_driven(first) || g == Vec3::ZERO {
            return None;
        }
        if world.tethers().has(b) {
            return None;
        }
        // A rope's stretch link joins particles i and i + 1; it carries
        // the particles beyond it, the body's mass less what lies before.
        let links = (world.constraints.iter())
            .filter(|l| l.tag.body as usize == b && l.tag.kind == LinkKind::Stretch);
        let mass = |i: usize| p.mass()[i] as f64;
        let total: f64 = body.range().map(mass).sum();
        let (mut count, mut rest, mut stretch) = (0, 0.0f64, 0.0f64);
        for l in links {
            let before: f64 = (body.first..l.a.max(l.b)).map(mass).sum();
            count += 1;
            rest += l.rest as f64;
            stretch += l.compliance as f64 * g.length() as f64 * (total - before);
        }
        if count + 1 != body.count || stretch == 0.0 {
            return None;
        }
        Some(Self {
            pin: p.pos()[first],
            down: g.normalize(),
            rest: rest as f32,
            stretched: (rest + stretch) as f32,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rope(fields: &str) -> World {
        let text = format!(
            "Scene(bodies: [Rope(start: (0.0, 3.0, 0.0), end: (0.0, 1.0, 0.0), segments: 2,
                                mass: 3.0, {fields})])"
        );
        let scene = crate::scene::parse(&text, std::path::Path::new("t.ron")).unwrap();
        scene.build()
    }

    #[test]
    fn each_link_stretches_by_alpha_times_the_weight_below_it() {
        // Three particles of 1 kg on two links of 1 m and 0.01 m/N: the
        // top link carries 2 kg, the lower one 1 kg, so the rope reaches
        // 2 + 0.01·9.81·3 m below its pin.
        let h = HangingRope::of_rope(&rope("compliance: 0.01, pins: [0]"), 0).unwrap();
        assert!((h.rest - 2.0).abs() < 1e-6, "{h:?}");
        assert!(
            (h.stretched - (2.0 + 0.01 * 9.81 * 3.0)).abs() < 1e-5,
            "{h:?}"
        );
        assert_eq!(h.down, -Vec3::Y);
        // Rigid, tethered or pinned twice: no such answer.
        assert_eq!(
            HangingRope::of_rope(&rope("compliance: 0.0, pins: [0]"), 0),
            None
        );
        assert_eq!(
            HangingRope::of_rope(&rope("compliance: 0.01, pins: [0], tethers: true"), 0),
            None
        );
        assert_eq!(
            HangingRope::of_rope(&rope("compliance: 0.01, pins: [0, 2]"), 0),
            None
        );
    }
}
