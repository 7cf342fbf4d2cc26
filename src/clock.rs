//! Wall-clock stopwatch for timings (ms per frame, projections per second).
//!
//! `std::time::Instant::now()` panics on `wasm32-unknown-unknown`; there the
//! browser's `performance.now()` is read (see `crate::web`). Timings only: nothing
//! the physics computes depends on the clock.

/// Seconds since some fixed moment, for differences only.
#[cfg(not(all(target_arch = "wasm32", feature = "window")))]
fn now() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Seconds since some fixed moment, for differences only.
#[cfg(all(target_arch = "wasm32", feature = "window"))]
fn now() -> f64 {
    crate::web::now()
}

/// Measures elapsed wall time from its start.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch(f64);

impl Stopwatch {
    /// Starts now.
    pub fn start() -> Self {
        Self(now())
    }

    /// Seconds since the start.
    pub fn seconds(&self) -> f64 {
        (now() - self.0).max(0.0)
    }

    /// Milliseconds since the start.
    pub fn ms(&self) -> f64 {
        self.seconds() * 1e3
    }
}
