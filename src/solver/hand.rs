//! The mouse's hand: a particle held and pulled toward a target.
//!
//! With an unlimited strength the held particle is kinematic (w = 0): it
//! goes exactly where the hand is, whatever that does to the body. With a
//! finite strength F_max it stays dynamic and, once per substep after the
//! constraint passes, is pulled toward the hand's position by a rigid
//! point constraint C = |x − target| whose force is capped: the
//! correction is min(C, w·F_max·h²) along the way to the target, so the
//! hand never exerts more than F_max (force = correction/(w·h²), as for
//! λ/h² of any constraint). Past that force the particle lags the cursor
//! instead of the body turning into a rubber band.

use glam::Vec3;

/// How the hand holds (a setting of the world, kept between grabs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hand {
    /// The largest force the hand exerts (N); ∞ = kinematic, no limit
    /// (default ∞; the window sets a finite one from the scene's weight).
    pub max_force: f32,
}

impl Default for Hand {
    fn default() -> Self {
        Self {
            max_force: f32::INFINITY,
        }
    }
}

impl Hand {
    /// True when the held particle is moved kinematically.
    pub fn is_kinematic(&self) -> bool {
        self.max_force == f32::INFINITY
    }
}

/// A particle held by the hand.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grab {
    pub particle: usize,
    /// Where the hand is at the end of the next frame (m).
    pub target: Vec3,
    /// Where it was at the end of the last frame (m): the hand moves
    /// linearly from here to `target` over a frame.
    pub from: Vec3,
    /// The force the hand exerted in the last substep (N).
    pub force: f32,
}

/// The capped pull of a dynamic particle at `x` with inverse mass `w`
/// toward `target` in a substep `h`: (displacement, force in N).
pub(crate) fn pull(x: Vec3, target: Vec3, w: f32, h: f32, max_force: f32) -> (Vec3, f32) {
    let d = target - x;
    let c = d.length();
    if c <= 1e-12 || w <= 0.0 {
        return (Vec3::ZERO, 0.0);
    }
    let per_force = w * h * h; // displacement per newton over a substep
    let moved = c.min(max_force * per_force);
    (d * (moved / c), moved / per_force)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pull_reaches_the_target_when_weak_enough_and_is_capped_otherwise() {
        let (w, h) = (2.0, 1e-3);
        // Needs 0.001 / (2 · 1e-6) = 500 N: a 1000 N hand gets there.
        let (dx, f) = pull(Vec3::ZERO, Vec3::X * 1e-3, w, h, 1000.0);
        assert!((dx.x - 1e-3).abs() < 1e-9 && (f - 500.0).abs() < 1e-2);
        // A 100 N hand moves it a fifth of the way, at exactly 100 N.
        let (dx, f) = pull(Vec3::ZERO, Vec3::X * 1e-3, w, h, 100.0);
        assert!(
            (dx.x - 2e-4).abs() < 1e-9 && (f - 100.0).abs() < 1e-3,
            "{dx} {f}"
        );
    }
}
