//! The accepted range of every quantity a user can set — one source for
//! scene validation, [`super::Settings::is_valid`], the command line and
//! the window's sliders.
//!
//! The ranges are physical (nothing a rope, chain or cloth sandbox needs
//! lies outside them) and chosen so that every intermediate of a step
//! stays finite in f32: with h ≥ 1e−9 s (dt ≥ 1e−6 s over ≤ 1000
//! substeps) α/h² ≤ 1e21; a particle of a body's smallest mass spread
//! over the most particles still has w = 1/m ≤ 2e12; positions stay
//! within 1e5 m where f32 still resolves 8 mm, and corrections work on
//! displacements with full precision. A test builds scenes from the
//! corners of every range and steps them 200 frames.

use std::ops::RangeInclusive;

/// A closed interval `[min, max]` of finite numbers, with a unit for messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Smallest accepted value.
    pub min: f32,
    /// Largest accepted value.
    pub max: f32,
    /// Unit shown in messages ("" for dimensionless).
    pub unit: &'static str,
}

impl Bounds {
    const fn new(min: f32, max: f32, unit: &'static str) -> Self {
        Self { min, max, unit }
    }

    /// True for a finite `v` in `[min, max]`.
    pub fn contains(&self, v: f32) -> bool {
        v.is_finite() && v >= self.min && v <= self.max
    }

    /// The interval as shown in messages, e.g. `[1e-6, 1] s`.
    pub fn describe(&self) -> String {
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        format!("[{}, {}]{unit}", number(self.min), number(self.max))
    }

    /// The interval as a Rust range, for sliders.
    pub fn range(&self) -> RangeInclusive<f32> {
        self.min..=self.max
    }
}

/// `v` as a person writes it: 0.5, 100, 1e-6, 1e5.
pub fn number(v: f32) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-3..1e4).contains(&a) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// Frame length dt.
pub const DT: Bounds = Bounds::new(1e-6, 1.0, "s");
/// Substeps per frame.
pub const SUBSTEPS: RangeInclusive<u32> = 1..=1000;
/// Gauss–Seidel passes per substep.
pub const ITERATIONS: RangeInclusive<u32> = 1..=1000;
/// Most constraint passes per frame, substeps × iterations: 1,000
/// substeps of 20 passes (the panel's sliders reach 200 × 100). Each of
/// the two ranges alone would allow a million passes per frame, which
/// turns a small scene into minutes per frame.
pub const PASSES_PER_FRAME: u32 = 20_000;
/// Most frames a recording may hold: 4.6 hours at 60 frames per second.
/// A file asking for 1e8 frames would replay for days.
pub const RECORDING_FRAMES: u64 = 1_000_000;
/// Each component of gravity.
pub const GRAVITY: Bounds = Bounds::new(-1e4, 1e4, "m/s²");
/// Constraint damping β.
pub const DAMPING: Bounds = Bounds::new(0.0, 1e4, "kg/s");
/// Air density for cloth aerodynamics (water is 1000).
pub const AIR_DENSITY: Bounds = Bounds::new(0.0, 1e4, "kg/m³");
/// A cloth triangle's drag or lift coefficient (a flat plate's C_d ≈ 1.2).
pub const AERO_COEFFICIENT: Bounds = Bounds::new(0.0, 100.0, "");
/// Air drag rate toward the wind.
pub const AIR_DRAG: Bounds = Bounds::new(0.0, 1e4, "1/s");
/// Each component of the wind velocity.
pub const WIND: Bounds = Bounds::new(-1e3, 1e3, "m/s");
/// PBD stiffness k.
pub const PBD_STIFFNESS: Bounds = Bounds::new(1e-6, 1.0, "");
/// Each coordinate of a position or centre.
pub const COORDINATE: Bounds = Bounds::new(-1e5, 1e5, "m");
/// Each component of a velocity in a saved `state`: ten times a rifle
/// bullet, past anything a sandbox scene makes (a whip's tip breaks the
/// sound barrier at 340 m/s), and small enough that one frame's motion
/// (≤ 1e4 m at dt ≤ 1 s) keeps positions where f32 resolves millimetres.
pub const SPEED: Bounds = Bounds::new(-1e4, 1e4, "m/s");
/// Lengths and sizes: rope length, cloth size, collider radius and half extents.
pub const LENGTH: Bounds = Bounds::new(1e-6, 1e5, "m");
/// Rest length of a mesh link (0 pulls two particles together).
pub const REST: Bounds = Bounds::new(0.0, 1e5, "m");
/// Mass of a body (spread over its particles) or of one mesh particle.
pub const MASS: Bounds = Bounds::new(1e-6, 1e6, "kg");
/// A weight added to a particle (a rope's `tip_mass`; 0 = none).
pub const TIP_MASS: Bounds = Bounds::new(0.0, 1e6, "kg");
/// Compliance α (0 = rigid).
pub const COMPLIANCE: Bounds = Bounds::new(0.0, 1e3, "m/N");
/// Particle radius (collision and drawing).
pub const RADIUS: Bounds = Bounds::new(0.0, 100.0, "m");
/// A self-colliding body's particle radius, per particle spacing at rest:
/// larger radii put so many particles in one hash cell that every particle
/// is compared with every other (4,000 particles at r = 1000 m: 2.75 s/frame).
pub const RADIUS_PER_SPACING: f32 = 2.0;

/// The particle spacing the contacts' hash sees in a rest shape: the
/// smallest non-zero distance between consecutive points (infinite for
/// fewer than two distinct points).
pub fn spacing(points: impl IntoIterator<Item = glam::Vec3>) -> f32 {
    let mut points = points.into_iter();
    let Some(mut last) = points.next() else {
        return f32::INFINITY;
    };
    let mut least = f32::INFINITY;
    for p in points {
        let d = last.distance(p);
        if d > 0.0 {
            least = least.min(d);
        }
        last = p;
    }
    least
}
/// A balloon's target volume over its built volume.
pub const PRESSURE: Bounds = Bounds::new(0.1, 10.0, "");
/// Volume compliance: m³ of volume change per pascal.
pub const VOLUME_COMPLIANCE: Bounds = Bounds::new(0.0, 1e3, "m⁵/N");
/// Young's modulus of a neo-Hookean soft box: foam and jelly (1 kPa) to
/// hard rubber (1 GPa).
pub const YOUNG_MODULUS: Bounds = Bounds::new(1.0, 1e9, "Pa");
/// Poisson's ratio of a neo-Hookean soft box: 0.5 itself (incompressible)
/// would make λ infinite.
pub const POISSON_RATIO: Bounds = Bounds::new(0.0, 0.49, "");
/// A rod's cross-section radius: its stiffness grows as r⁴, its
/// rotational inertia too (a zero radius would have none).
pub const ROD_RADIUS: Bounds = Bounds::new(1e-5, 1.0, "m");
/// A rod's density.
pub const DENSITY: Bounds = Bounds::new(1.0, 1e5, "kg/m³");
/// A rod's Young's and shear moduli (steel: 2e11 and 8e10 Pa).
pub const ROD_MODULUS: Bounds = Bounds::new(1.0, 1e12, "Pa");
/// A rod's rest curvature and twist, per component.
pub const CURVATURE: Bounds = Bounds::new(-1e4, 1e4, "1/m");
/// A `Twist` driver's turns.
pub const TURNS: Bounds = Bounds::new(-1e3, 1e3, "turns");
/// A driver's ramp or travel time.
pub const SECONDS: Bounds = Bounds::new(0.0, 1e5, "s");
/// A saved rod segment's angular velocity, per component.
pub const ANGULAR_SPEED: Bounds = Bounds::new(-1e6, 1e6, "rad/s");
/// A `Slide` driver's offset, per component.
pub const OFFSET: Bounds = Bounds::new(-1e3, 1e3, "m");
/// A `Moment` driver's torque.
pub const MOMENT: Bounds = Bounds::new(-1e6, 1e6, "N·m");
/// A balloon's icosphere subdivision level (level 6: 40,962 particles).
pub const SUBDIVISIONS: RangeInclusive<u32> = 1..=6;
/// Cells per axis of a soft box.
pub const CELLS: RangeInclusive<u32> = 1..=100;
/// A rigid body's half extents, radius or half length.
pub const RIGID_SIZE: Bounds = Bounds::new(1e-3, 100.0, "m");
/// A rotation vector's components (rad): any turn, written up to 1000 rad.
pub const ROTATION: Bounds = Bounds::new(-1e3, 1e3, "rad");
/// A joint's or attachment's compliance (m/N, rad/(N·m)).
pub const JOINT_COMPLIANCE: Bounds = Bounds::new(0.0, 1e3, "");
/// A hinge's angle limits (rad).
pub const HINGE_ANGLE: Bounds = Bounds::new(-std::f32::consts::PI, std::f32::consts::PI, "rad");
/// A hinge motor's target speed (rad/s).
pub const MOTOR_SPEED: Bounds = Bounds::new(-1e3, 1e3, "rad/s");
/// A hinge motor's torque limit (N·m).
pub const MOTOR_TORQUE: Bounds = Bounds::new(0.0, 1e6, "N·m");
/// A rigid body's coefficient of restitution.
pub const RESTITUTION: Bounds = Bounds::new(0.0, 1.0, "");
/// Coulomb friction μ.
pub const FRICTION: Bounds = Bounds::new(0.0, 100.0, "");
/// Strain past which a constraint tears.
pub const TEAR_STRAIN: Bounds = Bounds::new(1e-6, 1e6, "");
/// Tension past which a constraint tears.
pub const TEAR_FORCE: Bounds = Bounds::new(1e-6, 1e9, "N");
/// Driver amplitude.
pub const AMPLITUDE: Bounds = Bounds::new(0.0, 1e3, "m");
/// Driver frequency.
pub const FREQUENCY: Bounds = Bounds::new(0.0, 1000.0, "Hz");
/// The hand's strength, the largest force it pulls a held particle with.
pub const HAND_FORCE: Bounds = Bounds::new(1e-3, 1e6, "N");
/// Interval of the window's `--screenshot-every` frames.
pub const SCREENSHOT_EVERY: Bounds = Bounds::new(0.01, 3600.0, "s");
/// Camera distance from its target.
pub const CAMERA_DISTANCE: Bounds = Bounds::new(1e-3, 1e6, "m");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_read_as_intervals() {
        assert_eq!(DT.describe(), "[1e-6, 1] s");
        assert_eq!(FRICTION.describe(), "[0, 100]");
        assert_eq!(GRAVITY.describe(), "[-1e4, 1e4] m/s²");
        assert!(DT.contains(1e-6) && !DT.contains(1e-7) && !DT.contains(f32::NAN));
    }
}
