//! One frame (20 substeps × 1 iteration) of a cloth and of a rope with the
//! same number of particles, N = 32 … 256, sequential and on all cores.
//! `catenary bench` is the quick command-line version of the cloth case.
//! Then one frame of scenes with collisions between bodies, taken after a
//! second of motion so the bodies touch. Then a balloon's frame with and
//! without its dihedral hinges, and Cosserat rods (one long rod, 200 hair
//! strands).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use catenary::scene;
use catenary::scene::bench_cloth;
use catenary::solver::{World, available_threads};

fn rope(particles: u32) -> World {
    let text = format!(
        "Scene(solver: (substeps: 20), bodies: [Rope(start: (0.0, 2.0, 0.0), end: ({}, 2.0, 0.0),
           segments: {}, compliance: 0.0001, pins: [0])])",
        0.01 * particles as f32,
        particles - 1
    );
    scene::parse(&text, std::path::Path::new("<bench rope>"))
        .unwrap()
        .build()
}

fn frames(c: &mut Criterion) {
    for (kind, make) in [
        (
            "cloth",
            (|n: u32| bench_cloth(n, 20).unwrap().build()) as fn(u32) -> World,
        ),
        ("rope", |n: u32| rope(n * n)),
    ] {
        let mut group = c.benchmark_group(format!("{kind} frame"));
        group.sample_size(10);
        for n in [32u32, 64, 128, 256] {
            for threads in [1, available_threads()] {
                let mut world = make(n);
                world.set_threads(threads);
                world.step();
                group.throughput(Throughput::Elements(world.projections_per_frame()));
                group.bench_with_input(
                    BenchmarkId::new(format!("N={n}"), format!("{threads} threads")),
                    &(),
                    |b, _| b.iter(|| world.step()),
                );
            }
        }
        group.finish();
    }
}

/// One frame of scenes whose cost is collisions between bodies, on the
/// threads the window would choose.
fn contacts(c: &mut Criterion) {
    let mut group = c.benchmark_group("collisions between bodies frame");
    group.sample_size(10);
    let two_cloths = "Scene(solver: (substeps: 20, body_collisions: true),
        bodies: [
          Cloth(origin: (-1.0, 1.0, -1.0), size: (2.0, 2.0), resolution: (32, 32), mass: 1.0,
                orientation: Horizontal, pins: [(0, 0), (0, -1), (-1, 0), (-1, -1)], radius: 0.03),
          Cloth(origin: (-0.8, 1.5, -0.8), size: (1.6, 1.6), resolution: (32, 32), mass: 1.0,
                orientation: Horizontal, radius: 0.025)],
        colliders: [Ground()])";
    // Issue 27's pile: the same two sheets with and without collisions
    // between bodies, so the ratio is the contacts' cost.
    let pile = |on: bool| {
        format!(
            "Scene(solver: (substeps: 20, body_collisions: {on}),
            bodies: [
              Cloth(origin: (-1.0, 0.05, -1.0), size: (2.0, 2.0), resolution: (64, 64),
                    orientation: Horizontal, mass: 1.0, stretch_compliance: 0.0,
                    shear_compliance: 0.0001, bend_compliance: 0.01, radius: 0.01),
              Cloth(origin: (-0.8, 0.6, -0.8), size: (1.6, 1.6), resolution: (64, 64),
                    orientation: Horizontal, mass: 1.0, stretch_compliance: 0.0,
                    shear_compliance: 0.0001, bend_compliance: 0.01, radius: 0.01)],
            colliders: [Ground(height: 0.0)])"
        )
    };
    let (pile_on, pile_off) = (pile(true), pile(false));
    for (name, text) in [
        ("two 64x64 sheets in a pile", pile_on.as_str()),
        (
            "two 64x64 sheets in a pile, no collisions",
            pile_off.as_str(),
        ),
        ("hammock", include_str!("../scenes/hammock.ron")),
        (
            "soft_wrecking_ball",
            include_str!("../scenes/soft_wrecking_ball.ron"),
        ),
        ("two 32x32 cloths, one on the other", two_cloths),
    ] {
        let mut world = scene::parse(text, std::path::Path::new(name))
            .unwrap()
            .build();
        world.use_suitable_threads();
        for _ in 0..60 {
            world.step();
        }
        group.bench_function(name, |b| b.iter(|| world.step()));
    }
    group.finish();
}

/// One frame of a level-3 balloon (1,920 dihedral hinges) on one thread,
/// with and without its hinges, so the difference is the hinges' cost.
fn hinges(c: &mut Criterion) {
    let mut group = c.benchmark_group("hinges frame");
    group.sample_size(20);
    for (name, bend) in [
        ("balloon, 1920 hinges", "0.01"),
        ("balloon, no hinges", "None"),
    ] {
        let text = format!(
            "Scene(solver: (substeps: 20, air_drag: 0.4), bodies: [
               Balloon(center: (0.0, 0.5, 0.0), sphere_radius: 0.3, subdivisions: 3, mass: 0.05,
                       stretch_compliance: 0.001, bend_compliance: {bend}, radius: 0.015)],
             colliders: [Ground()])"
        );
        let mut world = scene::parse(&text, std::path::Path::new(name))
            .unwrap()
            .build();
        world.set_threads(1);
        for _ in 0..30 {
            world.step();
        }
        group.bench_function(name, |b| b.iter(|| world.step()));
    }
    group.finish();
}

/// Issue 25's rod workloads at 60 frames a second, 20 substeps: one
/// clamped rod of 100 segments, and 200 curly strands of 30 segments on a
/// head (a hemisphere of roots), on one thread and on all.
fn rods(c: &mut Criterion) {
    let mut group = c.benchmark_group("rods frame");
    group.sample_size(10);
    let one = "Scene(solver: (substeps: 20), bodies: [
        Rod(start: (0.0, 1.0, 0.0), end: (1.0, 1.0, 0.0), segments: 100, radius: 0.01,
            young_modulus: 1e9, shear_modulus: 4e8, clamped: [0])])"
        .to_string();
    let strands: Vec<String> = (0..200)
        .map(|i| {
            let y = 1.0 - (i as f32 + 0.5) / 200.0;
            let (r, phi) = ((1.0 - y * y).sqrt(), i as f32 * 2.399_963);
            let d = glam::Vec3::new(r * phi.cos(), y, r * phi.sin());
            let (s, e) = (
                glam::Vec3::Y * 1.5 + d * 0.12,
                glam::Vec3::Y * 1.5 + d * 0.52,
            );
            let twist = if i % 2 == 0 { 6.0 } else { -6.0 };
            format!(
                "Rod(start: ({}, {}, {}), end: ({}, {}, {}), segments: 30, radius: 0.002,
                     density: 1100.0, young_modulus: 2e8, shear_modulus: 8e7,
                     rest_darboux: (18.0, 0.0, {twist:.1}), clamped: [0])",
                s.x, s.y, s.z, e.x, e.y, e.z
            )
        })
        .collect();
    let hair = format!(
        "Scene(solver: (substeps: 20, air_drag: 1.0), bodies: [{}],
           colliders: [Sphere(center: (0.0, 1.5, 0.0), radius: 0.11)])",
        strands.join(",\n")
    );
    for (name, text) in [
        ("one rod of 100 segments", one),
        ("200 hair strands of 30 segments", hair),
    ] {
        let world = scene::parse(&text, std::path::Path::new(name))
            .unwrap()
            .build();
        for threads in [1, available_threads()] {
            let mut world = world.clone();
            world.set_threads(threads);
            for _ in 0..30 {
                world.step();
            }
            group.bench_function(format!("{name}, {threads} threads"), |b| {
                b.iter(|| world.step())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, frames, contacts, hinges, rods);
criterion_main!(benches);
