//! Execution of a step: the only module of the crate with `unsafe` code.
//!
//! A frame runs on a team of threads ([`pool`]) that share raw views of
//! the world's arrays ([`step`], [`kernel`]); SIMD lanes project several
//! constraints of a colour at once ([`simd`]). Soundness rests on three
//! rules, each checked where the raw pointers are used:
//! - a [`step::Frame`] is built only here, from `&mut World`, so no other
//!   code can touch the arrays while the team runs;
//! - in the per-particle phases a thread writes only its own share of the
//!   particles; in a colour, only its share of the constraints, which
//!   share no particle (the overflow batch runs on one thread, in order);
//! - threads meet at a barrier between phases, and [`pool::Pool::run`]
//!   returns — or re-raises a panic — only after every thread left the job.
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod chooser;
mod kernel;
mod pool;
#[cfg(target_arch = "x86_64")]
mod simd;
mod step;

pub(crate) use kernel::RawBatch;
pub(crate) use pool::Pool;
pub(crate) use step::RawQuads;

use super::{Method, World};

/// Advances `world` by one frame of its settings' `dt` (settings valid).
pub(crate) fn step_frame(world: &mut World) {
    let s = world.settings;
    let h = s.dt / s.substeps as f32;
    let prepare = world
        .constraints
        .needs_prepare(h, s.damping, s.method == Method::Xpbd);
    world.constraints.raw(&mut world.raw_batches);
    for b in &mut world.raw_batches {
        b.simd = !world.scalar;
    }
    world.raw_quads.clear();
    let d = &mut world.quads;
    for c in 0..d.idx.len() {
        world.raw_quads.push(step::RawQuads {
            idx: d.idx[c].as_ptr(),
            kind: d.kind[c].as_ptr(),
            rest: d.rest[c].as_ptr(),
            size: d.size[c].as_ptr(),
            shape: d.shape[c].as_ptr(),
            compliance: d.compliance[c].as_ptr(),
            lambda: d.lambda[c].as_mut_ptr(),
            len: d.idx[c].len(),
        });
    }
    world.contacts.fit(world.particles.len());
    world.sheets.fit(world.particles.len());
    world.sheets.forget_torn(world.constraints.broken());
    world.aero.fit(world.particles.len());
    let p = &mut world.particles;
    let max_force = world.hand.max_force;
    world.held_links.clear();
    if let Some(g) = world.grab.as_ref().filter(|g| !p.is_grabbed(g.particle)) {
        // Links break and move with tears: looked up every frame, into
        // room `World::grab` made.
        (world.constraints).rigid_links_of(g.particle, &mut world.held_links);
    }
    let held = world.grab.as_mut().map(|g| step::Held {
        particle: g.particle,
        from: g.from,
        to: g.target,
        kinematic: p.is_grabbed(g.particle),
        max_force,
        rigid: &world.held_links,
        force: &mut g.force,
    });
    // The step indexes these tables by particle without bounds checks.
    // Safe code can reach the first three (`particles.pos` is a public
    // Vec, `constraints.add` and `Enclosed::new` take any index): checked
    // here, once per step, in O(bodies) — a panic with a message, never a
    // read out of bounds (issue 22's two programs segfaulted).
    p.assert_consistent();
    assert!(
        world.constraints.particles_named() <= p.len(),
        "a constraint names particle {} but the world has {} particles",
        world.constraints.particles_named() - 1,
        p.len()
    );
    for gas in &world.volumes {
        assert!(
            gas.particles_named() <= p.len(),
            "a volume (body {}) names particles up to {} but the world has {}",
            gas.body,
            gas.particles_named() - 1,
            p.len()
        );
    }
    assert!(!world.tethers.any() || world.tethers.anchor.len() == p.len());
    assert!(world.grab.is_none_or(|g| g.particle < p.len()));
    assert!(world.aero.dv.len() == p.len() || !world.aero.any());
    assert!(world.aero.start.len() == p.len() + 1 || !world.aero.any());
    let frame = step::Frame {
        settings: s,
        prepare,
        particles: step::RawParticles {
            pos: p.pos.as_mut_ptr(),
            prev: p.prev.as_mut_ptr(),
            delta: p.delta.as_mut_ptr(),
            vel: p.vel.as_mut_ptr(),
            inv_mass: p.inv_mass.as_ptr(),
            radius: p.radius.as_ptr(),
            hold: p.hold.as_ptr(),
            lost: p.lost.as_mut_ptr(),
            len: p.len(),
        },
        batches: &world.raw_batches,
        quads: &world.raw_quads,
        volumes: step::RawVolumes {
            all: world.volumes.as_mut_ptr(),
            len: world.volumes.len(),
        },
        colliders: &world.colliders,
        contacts: step::RawContacts::new(&mut world.contacts),
        sheets: step::RawSheets::new(&mut world.sheets, p.len()),
        drivers: &world.drivers,
        aero: (world.aero.any() && s.air_density > 0.0).then_some(step::RawAero {
            triangles: world.aero.triangles.as_ptr(),
            coefficients: world.aero.coefficients.as_ptr(),
            start: world.aero.start.as_ptr(),
            around: world.aero.around.as_ptr(),
            dv: world.aero.dv.as_mut_ptr(),
        }),
        tethers: world.tethers.any().then_some(step::RawTethers {
            anchor: world.tethers.anchor.as_ptr(),
            length: world.tethers.length.as_ptr(),
        }),
        held,
        t0: world.time,
    };
    match &world.pool.0 {
        Some(pool) => pool.run_or_alone(&|team| frame.run(team)),
        None => frame.run(&pool::Team::alone()),
    }
}

#[cfg(test)]
mod tests {
    use super::kernel::RawState;
    use crate::solver::{DistanceConstraints, LinkKind, Tag};
    use glam::Vec4;

    const TAG: Tag = Tag {
        body: 0,
        kind: LinkKind::Stretch,
    };

    #[test]
    fn simd_and_scalar_projections_give_the_same_bits() {
        // 40 disjoint constraints with awkward numbers, some degenerate.
        let mut c = DistanceConstraints::default();
        let mut prev = Vec::new();
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
        };
        for i in 0..40 {
            let a = Vec4::new(rnd(), rnd(), rnd(), rnd().abs() * 3.0);
            let b = if i % 13 == 0 {
                a
            } else {
                Vec4::new(rnd(), rnd(), rnd(), rnd().abs())
            };
            prev.extend([a, b]);
            let (rest, compliance) = (rnd().abs(), rnd().abs() * 1e-3);
            // Every third link holds only tension (slack when short).
            if i % 3 == 1 {
                c.add_tension_only(2 * i, 2 * i + 1, rest, compliance, TAG);
            } else {
                c.add(2 * i, 2 * i + 1, rest, compliance, f32::INFINITY, TAG);
            }
        }
        let delta: Vec<Vec4> = (0..80)
            .map(|_| Vec4::new(rnd(), rnd(), rnd(), 0.0) * 1e-3)
            .collect();
        let inv_mass: Vec<f32> = prev.iter().map(|p| p.w).collect();
        let run = |simd: bool| {
            let mut c = c.clone();
            let mut delta = delta.clone();
            let mut raw = Vec::new();
            c.raw(&mut raw);
            let state = RawState {
                prev: prev.as_ptr(),
                delta: delta.as_mut_ptr(),
            };
            let b = raw[0];
            // SAFETY: the arrays outlive the calls and one thread uses them.
            unsafe {
                b.prepare(0..b.len, inv_mass.as_ptr(), 1e-3, 5.0, true);
                for first in [true, false] {
                    match (simd, first) {
                        (true, true) => b.project::<true>(0..b.len, state, 1.0),
                        (true, false) => b.project::<false>(0..b.len, state, 1.0),
                        (false, true) => {
                            (0..b.len).for_each(|i| b.project_one::<true, true>(i, state, 1.0))
                        }
                        (false, false) => {
                            (0..b.len).for_each(|i| b.project_one::<false, true>(i, state, 1.0))
                        }
                    }
                }
            }
            (delta, c.batches[0].lambda.clone())
        };
        assert_eq!(c.colour_count(), 1);
        let (simd, scalar) = (run(true), run(false));
        let bits = |v: &[Vec4]| {
            v.iter()
                .flat_map(|x| x.to_array().map(f32::to_bits))
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(&simd.0), bits(&scalar.0));
        assert_eq!(
            simd.1.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            scalar.1.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_tension_only_link_pulls_when_long_and_lets_go_when_short() {
        let mut c = DistanceConstraints::default();
        c.add_tension_only(0, 1, 1.0, 0.0, TAG);
        c.add_tension_only(2, 3, 1.0, 0.0, TAG);
        let prev = [
            Vec4::new(0.0, 0.0, 0.0, 1.0),
            Vec4::new(1.5, 0.0, 0.0, 1.0), // stretched by 0.5
            Vec4::new(0.0, 1.0, 0.0, 1.0),
            Vec4::new(0.5, 1.0, 0.0, 1.0), // 0.5 short
        ];
        let mut delta = [Vec4::ZERO; 4];
        let mut raw = Vec::new();
        c.raw(&mut raw);
        let b = raw[0];
        let state = RawState {
            prev: prev.as_ptr(),
            delta: delta.as_mut_ptr(),
        };
        // SAFETY: the arrays outlive the calls and one thread uses them.
        unsafe {
            b.prepare(0..b.len, [1.0f32; 4].as_ptr(), 1e-3, 0.0, true);
            b.project::<true>(0..b.len, state, 1.0);
        }
        assert_eq!(c.len(), 2);
        assert!(
            (delta[0].x - 0.25).abs() < 1e-6 && (delta[1].x + 0.25).abs() < 1e-6,
            "{delta:?}"
        );
        assert_eq!(delta[2], Vec4::ZERO);
        assert_eq!(delta[3], Vec4::ZERO);
    }

    #[test]
    fn the_dashpot_removes_its_fraction_of_the_normal_speed_and_nothing_else() {
        let mut c = DistanceConstraints::default();
        c.add(0, 1, 1.0, 0.0, f32::INFINITY, TAG);
        let mut raw = Vec::new();
        c.raw(&mut raw);
        let b = raw[0];
        let pos = [glam::Vec3::ZERO, glam::Vec3::X];
        let inv_mass = [2.0f32, 0.5];
        let (beta, h) = (30.0f32, 1e-3f32);
        for beta in [0.0, beta, 1e4, 1e8] {
            let mut vel = [
                glam::Vec3::new(3.0, 1.0, 0.0),
                glam::Vec3::new(-1.0, 0.0, 2.0),
            ];
            let before: f32 = (0..2).map(|i| vel[i].length_squared() / inv_mass[i]).sum();
            // SAFETY: the arrays outlive the calls and one thread uses them.
            unsafe {
                b.prepare(0..1, inv_mass.as_ptr(), h, beta, true);
                let mut lost = [[0.0f64; 3]; 2];
                b.damp(
                    0..1,
                    pos.as_ptr(),
                    vel.as_mut_ptr(),
                    inv_mass.as_ptr(),
                    lost.as_mut_ptr(),
                );
                let after: f64 = (0..2)
                    .map(|i| 0.5 * vel[i].length_squared() as f64 / inv_mass[i] as f64)
                    .sum();
                let taken = lost[0][1] + lost[1][1];
                // The books hold exactly what the dashpot took.
                assert!(
                    (before as f64 * 0.5 - after - taken).abs() < 1e-5,
                    "β = {beta}"
                );
            }
            let w = inv_mass[0] + inv_mass[1];
            let kept = 1.0 / (1.0 + beta * w * h); // of the relative normal speed, 4 → 4·kept
            let vn = vel[0].x - vel[1].x;
            assert!((vn - 4.0 * kept).abs() < 1e-5 * 4.0, "β = {beta}: {vn}");
            // Tangential motion and momentum are untouched.
            assert_eq!(
                (vel[0].y, vel[0].z, vel[1].y, vel[1].z),
                (1.0, 0.0, 0.0, 2.0)
            );
            let p = vel[0] / inv_mass[0] + vel[1] / inv_mass[1];
            assert!((p.x - (1.5 - 2.0)).abs() < 1e-5, "momentum {p}");
            let after: f32 = (0..2).map(|i| vel[i].length_squared() / inv_mass[i]).sum();
            assert!(after <= before + 1e-5, "energy rose at β = {beta}");
        }
    }
}
