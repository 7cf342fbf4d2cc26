//! `World::step` allocates nothing once warm (DESIGN §6), sequential or
//! parallel, with collisions, drivers, tearing and a held particle, and
//! while the threads' shares of a core are measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn stepping_allocates_nothing_after_warm_up() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for name in [
        "tearing.ron",
        "cloth_on_sphere.ron",
        "waves.ron",
        "rope_bridge.ron",
        "rope_pile.ron",
        "hammock.ron",
        "soft_wrecking_ball.ron",
        "balloon_on_string.ron",
        "soft_bodies.ron",
        "tear_apart.ron",
        "thin_shelf.ron",
        "wrecking_ball.ron",
        "plank_bridge.ron",
        "hair.ron",
        "rod_cantilever.ron",
        "plectoneme.ron",
    ] {
        for threads in [1, 2] {
            let mut w = catenary::scene::load(&dir.join(name)).unwrap().build();
            w.set_threads(threads);
            if !w.rods().is_empty() {
                // The rods' dashpot too (β is 0 in their scenes).
                w.settings.damping = 0.5;
            }
            w.grab(3);
            w.drag_to(glam::Vec3::new(0.5, 1.0, 0.2));
            for _ in 0..3 {
                w.step();
            }
            let (before, live) = (ALLOCATIONS.load(Ordering::SeqCst), w.live_particles());
            for _ in 0..30 {
                w.step();
            }
            let after = ALLOCATIONS.load(Ordering::SeqCst);
            if name.starts_with("tear") {
                // The window must see particles split, not only links break.
                assert!(w.live_particles() > live, "{name}: no split in the window");
            }
            assert_eq!(
                after - before,
                0,
                "{name}, {threads} threads: {} allocations in 30 steps",
                after - before
            );
        }
    }
    // Frames of pieces choose their team by the threads' shares of a
    // core, read from the OS every 0.1 s (exec/share.rs): several such
    // readings, in the same test (the count is global).
    let mut w = catenary::scene::bench_cloth(32, 20).unwrap().build();
    w.set_threads(2);
    for _ in 0..3 {
        w.step();
    }
    let (before, start) = (ALLOCATIONS.load(Ordering::SeqCst), Instant::now());
    let mut frames = 0;
    while start.elapsed() < Duration::from_millis(500) || frames < 30 {
        w.step();
        frames += 1;
    }
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(
        after - before,
        0,
        "bench cloth, 2 threads: {} allocations in {frames} steps over 0.5 s",
        after - before
    );
}
