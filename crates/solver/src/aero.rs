//! Air that pushes on faces: drag and lift per cloth triangle.
//!
//! The uniform `air_drag` relaxes every particle's velocity toward the
//! wind, so a sheet edge-on and one face-on to the wind feel the same. A
//! triangle of area A, unit normal n̂ and relative velocity
//! v_rel = v̄ − wind (v̄ the mean of its corners') feels
//!
//! - drag along its normal: F_d = −½ρ·C_d·A·(v_rel·n̂)|v_rel·n̂|·n̂,
//! - lift across the relative wind, in the plane of n̂ and v_rel:
//!   F_l = −½ρ·C_l·A·|v_rel|·(v_rel·n̂)·(n̂ − (n̂·v̂)v̂),
//!
//! zero edge-on (v_rel ⟂ n̂) and, for lift, face-on too. Both flip sign
//! with n̂ twice, so the triangle's winding does not matter. Each corner
//! takes a third. The force is explicit, so a light corner in a strong
//! wind could be thrown past the air's own speed in one substep. In the
//! wind's frame drag only takes speed away and lift is perpendicular to
//! the motion, so air never speeds a particle up there; the step enforces
//! that on each corner's total change (scaled back so that |v − wind| does
//! not grow), and each triangle's drag at most stops its normal motion —
//! so the world stays finite at any density, coefficient or substep length
//! (`tests/limits.rs`).
//!
//! Each substep the step finds every triangle's air once ([`AirFace`],
//! each thread its share of the triangles), then each particle's change
//! from the triangles around it (a fixed order per particle, read-only
//! positions and velocities), so a thread writes only its own triangles
//! and particles: bit-identical for any count.

use glam::Vec3;

/// Triangles with aerodynamic coefficients, and per particle the
/// triangles it is a corner of.
#[derive(Clone, Debug, Default)]
pub struct Aero {
    /// Per body: its triangles' (first, count) in `triangles`.
    bodies: Vec<(usize, std::ops::Range<usize>)>,
    /// Corners (world particle indices) of every triangle.
    pub(crate) triangles: Vec<[u32; 3]>,
    /// (C_d, C_l) of every triangle.
    pub(crate) coefficients: Vec<(f32, f32)>,
    /// Per particle: its triangles are `around[start[i]..start[i + 1]]`.
    pub(crate) start: Vec<u32>,
    pub(crate) around: Vec<u32>,
    /// Per particle: the velocity change of the next substep (m/s).
    pub(crate) dv: Vec<Vec3>,
    /// Per triangle: its air this substep.
    pub(crate) faces: Vec<AirFace>,
    /// Some triangle has a coefficient.
    active: bool,
}

impl Aero {
    /// True when some triangle has a coefficient (the step then runs the pass).
    pub fn any(&self) -> bool {
        self.active
    }

    /// Body `body`'s (C_d, C_l), if it has triangles here.
    pub(crate) fn coefficients(&self, body: usize) -> Option<(f32, f32)> {
        let (_, range) = self.bodies.iter().find(|(b, _)| *b == body)?;
        self.coefficients.get(range.start).copied()
    }

    /// Sets body `body`'s triangles and coefficients (C_d, C_l ≥ 0) for a
    /// world of `particles` particles; replaces what the body had.
    pub(crate) fn set(
        &mut self,
        body: usize,
        triangles: Vec<[u32; 3]>,
        cd: f32,
        cl: f32,
        particles: usize,
    ) {
        self.set_many(vec![(body, triangles, cd, cl)], particles);
    }

    /// [`Self::set`] for many bodies at once, in time linear in the
    /// triangles (a scene of 4,000 cloths set one by one took 52 s to
    /// build: every call rebuilt every table).
    pub(crate) fn set_many(
        &mut self,
        new: Vec<(usize, Vec<[u32; 3]>, f32, f32)>,
        particles: usize,
    ) {
        let replaced: std::collections::HashSet<usize> = new.iter().map(|n| n.0).collect();
        let mut all: Vec<([u32; 3], (f32, f32))> = Vec::new();
        let mut bodies: Vec<(usize, usize)> = Vec::new();
        for (b, range) in &self.bodies {
            if !replaced.contains(b) {
                all.extend(
                    range
                        .clone()
                        .map(|t| (self.triangles[t], self.coefficients[t])),
                );
                bodies.push((*b, range.len()));
            }
        }
        for (body, triangles, cd, cl) in new {
            bodies.push((body, triangles.len()));
            all.extend(triangles.into_iter().map(|t| (t, (cd, cl))));
        }
        self.triangles = all.iter().map(|a| a.0).collect();
        self.coefficients = all.iter().map(|a| a.1).collect();
        let mut first = 0;
        self.bodies = bodies
            .into_iter()
            .map(|(b, n)| {
                first += n;
                (b, first - n..first)
            })
            .collect();
        // Per particle, its triangles in index order.
        let corners = (self.triangles.iter().enumerate())
            .flat_map(|(k, t)| t.iter().map(move |&i| (i, k as u32)));
        (self.start, self.around) = super::particles::by_particle(particles, corners);
        self.dv = vec![Vec3::ZERO; particles];
        self.faces = vec![AirFace::default(); self.triangles.len()];
        self.active = self.coefficients.iter().any(|&(d, l)| d > 0.0 || l > 0.0);
    }

    /// Sizes the per-particle tables for `particles` particles (bodies
    /// added after the cloth have no triangles).
    pub(crate) fn fit(&mut self, particles: usize) {
        if self.start.len() != particles + 1 {
            let last = self.start.last().copied().unwrap_or(0);
            self.start.resize(particles + 1, last);
            self.dv.resize(particles, Vec3::ZERO);
        }
    }
}

/// What every corner of a triangle shares of its air this substep, found
/// once per triangle (a corner's change then needs only its inverse mass;
/// found per corner, it was three times over).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AirFace {
    /// Unit normal n̂.
    n: Vec3,
    /// ½ρA/3: each corner's share of the dynamic pressure's area term.
    share: f32,
    /// v_rel·n̂ and |v_rel|.
    normal: f32,
    speed: f32,
    /// n̂ − (n̂·v̂)v̂ and its length.
    across: Vec3,
    reach: f32,
    /// False for a triangle air does not push (degenerate, overflowing,
    /// or still in the wind's frame).
    pushed: bool,
}

impl AirFace {
    /// The face of a triangle with corner positions `x` and velocities
    /// `v` in air of density `rho` moving at `wind`.
    #[inline]
    pub(crate) fn of(x: [Vec3; 3], v: [Vec3; 3], rho: f32, wind: Vec3) -> Self {
        let cross = (x[1] - x[0]).cross(x[2] - x[0]);
        // A degenerate (or overflowing) triangle has no normal: no force.
        let n = cross.normalize_or_zero();
        let area = 0.5 * cross.length();
        let rel = (v[0] + v[1] + v[2]) / 3.0 - wind;
        let speed = rel.length();
        // Speed² is divided by below: it must be a positive, finite number.
        let usable = (speed * speed).is_normal();
        if n == Vec3::ZERO || !area.is_finite() || !usable {
            return Self::default();
        }
        let across = n - rel * (n.dot(rel) / (speed * speed));
        Self {
            n,
            share: 0.5 * rho * area / 3.0,
            normal: rel.dot(n),
            speed,
            across,
            reach: across.length(),
            pushed: true,
        }
    }

    /// The velocity change (m/s) over a substep of `h` seconds it gives a
    /// corner of inverse mass `w`, with coefficients `cd` and `cl`.
    #[inline]
    pub(crate) fn corner_dv(&self, w: f32, h: f32, cd: f32, cl: f32) -> Vec3 {
        if !self.pushed {
            return Vec3::ZERO;
        }
        let Self {
            n,
            normal,
            speed,
            across,
            reach,
            ..
        } = *self;
        let q = self.share * w * h;
        // Written as (cap)·min(1, rate) so that no product overflows into
        // ∞·0: the caps hold for any speed, density or mass.
        // Drag: at most stops the triangle's normal motion.
        let drag = if cd > 0.0 {
            normal.abs() * (q * cd * normal.abs()).min(1.0)
        } else {
            0.0
        };
        let dv_drag = -n * (drag * normal.signum());
        // Lift: along −sign(v·n̂)·(n̂ − (n̂·v̂)v̂), at most the triangle's speed.
        let dv_lift = if reach > 0.0 && cl > 0.0 {
            let lift = speed * (q * cl * normal.abs() * reach).min(1.0);
            -across * (lift / reach * normal.signum())
        } else {
            Vec3::ZERO
        };
        dv_drag + dv_lift
    }
}

/// The velocity change (m/s) over a substep of `h` seconds that a triangle
/// (corner positions `x`, velocities `v`) gives a corner with inverse mass
/// `w`, in air of density `rho` moving at `wind`.
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
fn corner_dv(
    x: [Vec3; 3],
    v: [Vec3; 3],
    w: f32,
    h: f32,
    rho: f32,
    wind: Vec3,
    cd: f32,
    cl: f32,
) -> Vec3 {
    AirFace::of(x, v, rho, wind).corner_dv(w, h, cd, cl)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAT: [Vec3; 3] = [Vec3::ZERO, Vec3::X, Vec3::Z];

    #[test]
    fn drag_opposes_motion_through_a_face_and_ignores_motion_along_it() {
        let down = [Vec3::NEG_Y; 3];
        let dv = corner_dv(FLAT, down, 1.0, 0.01, 1.2, Vec3::ZERO, 1.0, 0.0);
        // ½·1.2·0.5 m²·1·1 (m/s)² / 3 · 1/kg · 0.01 s = 1e-3 m/s, upward.
        assert!((dv - Vec3::Y * 1e-3).length() < 1e-7, "{dv}");
        // Moving the other way through the face: pushed the other way.
        let up = [Vec3::Y; 3];
        let dv = corner_dv(FLAT, up, 1.0, 0.01, 1.2, Vec3::ZERO, 1.0, 0.0);
        assert!((dv + Vec3::Y * 1e-3).length() < 1e-7, "{dv}");
        let along = [Vec3::X; 3];
        let dv = corner_dv(FLAT, along, 1.0, 0.01, 1.2, Vec3::ZERO, 1.0, 1.0);
        assert_eq!(dv, Vec3::ZERO);
    }

    #[test]
    fn air_never_reverses_a_corners_velocity() {
        let down = [Vec3::NEG_Y * 100.0; 3];
        let dv = corner_dv(FLAT, down, 1e6, 1.0, 1e3, Vec3::ZERO, 100.0, 100.0);
        assert!(dv.y <= 100.0 + 1e-3 && dv.y > 0.0, "{dv}");
        assert!(dv.is_finite());
    }
}
