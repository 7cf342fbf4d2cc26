//! Execution of a step: the only module of the crate with `unsafe` code.
//!
//! # The shape of a frame
//! ```text
//!  step_frame(&mut World)            checks every stored index once, then
//!    │                               makes the frame's views (`Shared`)
//!    ▼
//!  Frame::run  (every thread of the team, same phases, same order)
//!    prepare   Coloured::prepare      per colour, when caches are stale
//!    per substep:
//!      aero    RawAero::faces, blow   force pass          ─ barrier each
//!      predict drivers, held hand     per particle share  ─ barrier
//!      per Gauss–Seidel pass:
//!        colour 0..n: Coloured::project for each kind     ─ barrier
//!                     (links.rs, quads.rs)
//!        Pass::project for each pass (gas, rigid, tethers, rods) ─ barrier
//!      tally   Coloured::tally        λ into the frame's impulse
//!      hand    Held::pull             capped hand         ─ barrier
//!      contact RawContacts/RawSheets::find                ─ barriers inside
//!      finish  pushes, colliders, v = Δx/h, x = x_prev + Δx
//!      damp    Coloured::damp per colour, Pass::damp      ─ barriers
//! ```
//! A constraint kind is a file implementing [`kinds::Coloured`] (colours
//! that share no particle) or [`kinds::Pass`] (after the colours), plus
//! its line in `step_frame`'s lists; its store and its physics live in
//! `solver::` beside the others (`distance`, `quads`, `volume`, `tether`).
//!
//! # Soundness
//! Every raw pointer is a [`shared::Shared`] slice, whose one `SAFETY`
//! argument is this:
//! - `Shared` views are made only in `step_frame`, from `&mut World`,
//!   after it has checked that every index a kind stores is within the
//!   particle tables and that every table has one entry per particle; no
//!   other code can touch the arrays while the team runs;
//! - in the per-particle phases a thread writes only its own share of the
//!   particles; in a colour, only its share of the constraints, which
//!   share no particle (the overflow batch runs on one thread, in order);
//! - threads meet at a barrier between phases, and [`pool::Pool::run_or_alone`]
//!   returns — or re-raises a panic — only after every thread left the job.
//!
//! SIMD lanes ([`simd`]) project several links of a colour at once with
//! the same IEEE operations as the scalar kernel.
#![allow(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod chooser;
mod contacts;
mod forces;
mod gas;
mod kinds;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod lanes;
mod links;
mod pool;
mod quads;
mod rigid;
mod rods;
mod share;
mod shared;
#[cfg(target_arch = "x86_64")]
#[macro_use]
mod simd;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(target_arch = "x86_64")]
mod simd512;
mod step;
mod tethers;

pub(crate) use links::RawBatch;
pub(crate) use pool::Pool;
pub(crate) use quads::RawQuads;
pub(crate) use shared::Shared;

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
    RawQuads::of(&mut world.quads, &mut world.raw_quads);
    for q in &mut world.raw_quads {
        q.simd = !world.scalar;
    }
    world.contacts.fit(world.particles.len());
    world.sheets.fit(world.particles.len());
    world.sheets.forget_torn(world.constraints.broken());
    world.aero.fit(world.particles.len());
    (world.rigids).reserve_contacts(world.colliders.len(), world.particles.len());
    let p = &mut world.particles;
    let max_force = world.hand.max_force;
    world.held_links.clear();
    if let Some(g) = world.grab.as_ref().filter(|g| !p.is_grabbed(g.particle)) {
        // Links break and move with tears: looked up every frame, into
        // room `World::grab` made.
        (world.constraints).rigid_links_of(g.particle, &mut world.held_links);
    }
    world.reach.forget_if_torn(&world.constraints);
    let held = world.grab.as_mut().map(|g| forces::Held {
        particle: g.particle,
        from: g.from,
        to: g.target,
        kinematic: p.is_grabbed(g.particle),
        max_force,
        rigid: &world.held_links,
        pins: &world.reach.pins,
        force: Shared::new(std::slice::from_mut(&mut g.force)),
    });
    // The step indexes these tables by particle without bounds checks.
    // Safe code can no longer make them disagree (the particle tables are
    // private, `World::add_link`, `add_quad` and `add_body` check their
    // indices); the unsafe code still checks its own premise here, once
    // per step, in O(bodies): a panic with a message, never a read out of
    // bounds.
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
    let t = &world.tethers;
    assert!(!t.any() || (t.anchor.len() == p.len() && t.length.len() == p.len()));
    assert!(world.grab.is_none_or(|g| g.particle < p.len()));
    let reach = &world.reach.pins;
    assert!(reach.iter().all(|&(i, _)| (i as usize) < p.len()));
    assert!(world.aero.dv.len() == p.len() || !world.aero.any());
    assert!(world.aero.start.len() == p.len() + 1 || !world.aero.any());
    assert_eq!(world.aero.faces.len(), world.aero.triangles.len());
    let links = links::Links(&world.raw_batches);
    let quads = quads::QuadColours(&world.raw_quads);
    for gas in &mut world.volumes {
        // Joins move with tears and recolouring: found every frame, into
        // the room the first frame made.
        (world.constraints).joins_into(gas.particles(), &mut gas.joins);
        let batches = world.raw_batches.len();
        assert!(gas.joins.iter().all(|&[c, i, _]| {
            (c as usize) < batches && (i as usize) < world.raw_batches[c as usize].len
        }));
    }
    let rigids =
        (!world.rigids.is_empty()).then(|| Shared::new(std::slice::from_mut(&mut world.rigids)));
    let sheets = contacts::RawSheets::new(&mut world.sheets, p.len(), !world.scalar);
    let gas = gas::Gas {
        volumes: Shared::new(&mut world.volumes),
        links: &world.raw_batches,
        colliders: &world.colliders,
        rigids,
        sheets: sheets.as_ref().map(contacts::RawSheets::table),
    };
    let tethers = (world.tethers).any().then(|| {
        let t = &mut world.tethers;
        (Shared::new(&mut t.anchor), Shared::new(&mut t.length))
    });
    let tethers = tethers::TetherPass(tethers);
    let tether_table = tethers.0;
    let rods = rods::RodPass(rods::RawRods::new(&mut world.rods, p.len()));
    let rigid = rigid::RigidPass {
        rigids,
        colliders: &world.colliders,
        gravity: s.gravity,
        wind: s.wind,
        tethers: tether_table,
        frame: (world.time, s.dt),
    };
    // The kinds, in the order they are solved: a new kind is one line here.
    let coloured: [&dyn kinds::Coloured; 2] = [&links, &quads];
    let passes: [&dyn kinds::Pass; 4] = [&gas, &rigid, &tethers, &rods];
    let air = world.aero.any() && s.air_density > 0.0;
    let frame = step::Frame {
        settings: s,
        prepare,
        particles: step::RawParticles {
            len: p.len(),
            pos: Shared::new(&mut p.pos),
            prev: Shared::new(&mut p.prev),
            delta: Shared::new(&mut p.delta),
            vel: Shared::new(&mut p.vel),
            inv_mass: Shared::new(&mut p.inv_mass),
            radius: Shared::new(&mut p.radius),
            hold: Shared::new(&mut p.hold),
            lost: Shared::new(&mut p.lost),
        },
        coloured: &coloured,
        passes: &passes,
        colliders: &world.colliders,
        contacts: contacts::RawContacts::new(&mut world.contacts, p.len()),
        sheets,
        drivers: &world.drivers,
        aero: air.then(|| {
            let a = &mut world.aero;
            forces::RawAero {
                triangles: Shared::new(&mut a.triangles),
                coefficients: Shared::new(&mut a.coefficients),
                start: Shared::new(&mut a.start),
                around: Shared::new(&mut a.around),
                dv: Shared::new(&mut a.dv),
                faces: Shared::new(&mut a.faces),
            }
        }),
        held,
        t0: world.time,
    };
    match &world.pool.0 {
        Some(pool) => pool.run_or_alone(frame.loose(), &|team| frame.run(team)),
        None => frame.run(&pool::Team::alone()),
    }
}
