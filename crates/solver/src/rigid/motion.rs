//! A substep of the rigid bodies (Müller et al. 2020, Algorithm 2):
//! predict the poses with gravity, drag, driven torques and the
//! gyroscopic term; project contacts, joints and attachments; take
//! velocities from the moves; then, at the contacts, dynamic friction
//! and restitution (§3.6: an impact faster than 2·|g|·h leaves at e
//! times its approach speed, a slower one not at all).

use glam::{Quat, Vec3};

use super::Rigids;
use super::contact::Contact;
use super::end::{End, Ends, Particles, Tether};
use crate::collision::Collider;

/// Rounds of the contacts per pass: one round leaves a resting stack's
/// corners fighting each other (one corner's push turns the box into the
/// next), which jitters at mm/s; the rounds are cheap beside the
/// particles.
const CONTACT_ROUNDS: usize = 4;

/// Rounds of the joints per pass (see [`CONTACT_ROUNDS`]).
const JOINT_ROUNDS: usize = 8;

/// The most energy the gyroscopic step may add before it counts as not
/// converged (a fraction): the converged implicit midpoint adds none, and
/// four rounds leave (h·|ω|)⁴ of it, 2.6e−6 for a box at 50 rad/s and 20
/// substeps at 60 fps.
const GYROSCOPIC_GAIN: f32 = 0.01;

/// The most a free body turns in a substep (rad): a quarter turn.
const MAX_TURN: f32 = std::f32::consts::FRAC_PI_4;

/// What a substep needs besides the rigid world.
pub(crate) struct Sub {
    pub h: f32,
    pub gravity: Vec3,
    pub wind: Vec3,
    /// The air's velocity factor exp(−air_drag·h).
    pub drag: f32,
    /// Simulated time at the end of the substep (s).
    pub t: f64,
    /// The fraction of the frame it ends at.
    pub f: f32,
    /// The frame's length (s).
    pub dt: f32,
}

/// How fast the hand closes the gap to the cursor (s): the held point is
/// steered at the hand's velocity plus gap / HAND_LAG.
const HAND_LAG: f32 = 0.05;

/// The hand on a held body, in the velocity pass: an impulse at the held
/// point, at most max_force·h, steers the point's velocity to the hand's
/// plus gap / [`HAND_LAG`]. A velocity servo, not a position constraint:
/// held to a point with a capped force, a body swings about it for ever
/// (a pull always towards a point keeps the energy), where steering its
/// velocity settles it; on release it keeps the velocity it was given,
/// which is the flick.
fn steady<P: Particles>(e: &mut Ends<P>, hold: &mut super::RigidHold, h: f32) {
    let body = End::Rigid(hold.rigid);
    let at = e.point(body, hold.local);
    let goal = hold.from.lerp(hold.target, hold.fraction);
    let want = hold.velocity + (goal - at) / HAND_LAG;
    let change = want - e.velocity(body, at);
    let size = change.length();
    hold.force = 0.0;
    if size <= 0.0 || !size.is_finite() {
        return;
    }
    let w = e.inv_mass(body, change / size, Some(at));
    if w <= 0.0 {
        return;
    }
    // The impulse |Δv|/w, capped at the hand's strength over the substep.
    let impulse = (size / w).min(hold.max_force * h);
    hold.force = impulse / h;
    e.correct_velocity((body, at), (End::World, at), change * (impulse * w / size));
}

impl Rigids {
    /// Step 1: x ← x + h·v, q turned by h·ω, after drag, gravity, driven
    /// torques and ω ← ω + h·I⁻¹(τ − ω × Iω).
    pub(crate) fn predict(&mut self, s: &Sub) {
        self.rest_speed = 2.0 * s.gravity.length() * s.h;
        if let Some(hold) = self.hand.as_mut() {
            hold.fraction = s.f;
            hold.velocity = (hold.target - hold.from) / s.dt;
        }
        for r in &mut self.bodies {
            r.x_prev = r.x;
            r.q_prev = r.q;
            if r.fixed {
                continue;
            }
            let before = r.kinetic_energy();
            r.v = s.wind + (r.v - s.wind) * s.drag;
            r.omega *= s.drag;
            self.lost[0] += before - r.kinetic_energy();
            r.v += s.gravity * s.h;
            // In the body frame, where I is diagonal.
            let w0 = r.q.conjugate() * r.omega;
            let mut w = w0;
            if self.gyroscopic {
                // dω/dt = −I⁻¹(ω × Iω) by the implicit midpoint rule, which
                // keeps both of a free body's quadratic invariants — the
                // energy ½ωᵀIω and |Iω| — exactly (a first-order step grew
                // the energy 0.04 % a second at 5 rad/s, an explicit
                // midpoint 0.7 % in 20 s of flipping). Fixed-point rounds
                // converge by h·|ω| each: four leave (h·|ω|)⁴.
                let f = |w: Vec3| -(w.cross(r.inertia * w)) / r.inertia;
                let mut next = w;
                for _ in 0..4 {
                    next = w + f((w + next) * 0.5) * s.h;
                }
                // The rounds contract only while h·|ω| < 1: past it
                // (a spin of 3e5 rad/s that a 60 m overlap's push gave
                // a box) they diverge, 7e17 rad/s after one substep and
                // NaN after two. The converged step keeps the energy, so
                // one that gained any is not converged and is left out.
                if r.spin_energy(next) <= r.spin_energy(w) * (1.0 + GYROSCOPIC_GAIN) {
                    w = next;
                }
            }
            if let Some((tau, seconds)) = r.torque {
                let ramp = if seconds > 0.0 {
                    (s.t / seconds as f64).min(1.0) as f32
                } else {
                    1.0
                };
                w += s.h * (r.q.conjugate() * (tau * ramp)) / r.inertia;
            }
            // Only the change goes back to the world: a round trip
            // world → body → world rescales ω by |q|² ≈ 1 ± 1e−7 a
            // substep, which ratcheted a spin's energy up 0.6 % in 20 s.
            r.omega += r.q * (w - w0);
            // At most MAX_TURN a substep (Box2D's maxRotation): past it
            // the contacts and joints, linear in the turn, do not hold (a
            // joint saved 1e5 m from its partner pumped its bodies up to
            // 2e8 rad/s), and a driven torque of 1e6 N·m on a 1 mm box
            // spun it to NaN. Nothing a scene does spins that fast (942
            // rad/s at 20 substeps of a 60 fps frame).
            let turn = r.omega.length() * s.h;
            if turn > MAX_TURN {
                let before = r.kinetic_energy();
                r.omega *= MAX_TURN / turn;
                self.lost[0] += before - r.kinetic_energy();
            }
            r.dx = Vec3::ZERO;
            r.dtheta = Vec3::ZERO;
            r.x += r.v * s.h;
            r.q = (Quat::from_scaled_axis(r.omega * s.h) * r.q).normalize();
        }
    }

    /// Step 3's projections: (on the substep's first pass) the contacts
    /// are found, then every contact, joint and attachment is projected
    /// once, in order.
    pub(crate) fn project<P: Particles>(
        &mut self,
        particles: &mut P,
        colliders: &[Collider],
        (count, h, xpbd, k): (usize, f32, bool, f32),
        first: bool,
    ) {
        let scale = |alpha: f32| if xpbd { alpha / (h * h) } else { 0.0 };
        if first {
            let mut held = std::mem::take(&mut self.held);
            held.clear();
            held.extend(self.attachments.iter().map(|a| (a.particle, a.rigid)));
            super::contact::find(
                &mut self.contacts,
                &self.bodies,
                colliders,
                particles,
                (count, &held),
            );
            self.held = held;
            for j in &mut self.joints {
                j.lambda_position = 0.0;
                j.lambda_angle = 0.0;
            }
            for a in &mut self.attachments {
                a.lambda = 0.0;
            }
        }
        let mut e = Ends {
            rigid: &mut self.bodies,
            particles,
        };
        if first {
            for c in &mut self.contacts {
                c.leave_slowly(&e, h);
            }
        }
        // All pushes, then all holds: friction corrects the slip the
        // pushes' turns left at every contact. A few rounds (CONTACT_ROUNDS).
        for _ in 0..CONTACT_ROUNDS {
            for c in &mut self.contacts {
                c.push(&mut e, k);
            }
            for c in &mut self.contacts {
                c.hold(&mut e, k);
            }
        }
        // Joints in rounds too: a chain of bodies passes a correction one
        // joint a round (an L of two bars swinging opened its middle
        // joint 2.6 mm in one round, 0.4 mm in eight).
        for _ in 0..JOINT_ROUNDS {
            for j in &mut self.joints {
                j.project(&mut e, scale(j.compliance), k);
            }
        }
        for a in &mut self.attachments {
            let (body, particle) = (End::Rigid(a.rigid), End::Particle(a.particle));
            let pa = e.point(body, a.anchor);
            let pp = e.point(particle, Vec3::ZERO);
            let ak = (scale(a.compliance), k);
            e.correct((body, pa), (particle, pp), pp - pa, ak, &mut a.lambda);
            // The particle's tether reaches through it: the body's point is
            // no farther from the pin than the particle may be, so a heavy
            // body on a light rope does not stretch it (the tether alone
            // would move the particle back, and the particle, 1/3000 of the
            // body, hardly the body).
            if let Some(Tether { pin, length, .. }) = e.particles.tether(a.particle) {
                let pa = e.point(body, a.anchor);
                let d = pa - pin;
                let dist = d.length();
                if dist > length && dist > 0.0 {
                    let corr = pin + d * (length / dist) - pa;
                    let mut free = 0.0;
                    e.correct((body, pa), (End::World, pin), corr, (0.0, k), &mut free);
                }
            }
        }
    }

    /// Step 5 and the velocity pass: v = Δx/h, ω = Δθ/h; then at each
    /// contact that pushed, dynamic friction takes up to μ·λ_n/h of the
    /// sliding velocity and the normal velocity is stopped.
    ///
    /// Contacts with particles take no velocity pass: a particle's
    /// velocity is its own phase's, and reads as its own move.
    pub(crate) fn finish<P: Particles>(&mut self, particles: &mut P, h: f32) {
        // Each bouncing contact's approach speed, from the velocities
        // before this substep's corrections are added to them.
        if self.contacts.iter().any(|c| c.restitution > 0.0) {
            let e = Ends {
                rigid: &mut self.bodies,
                particles,
            };
            for c in (self.contacts.iter_mut()).filter(|c| c.restitution > 0.0) {
                let (pa, pb) = c.points(&e);
                c.approach = (e.velocity(End::Rigid(c.a), pa) - e.velocity(c.b, pb)).dot(c.n);
            }
        }
        for r in self.bodies.iter_mut().filter(|r| !r.fixed) {
            r.v += r.dx / h;
            r.omega += r.dtheta / h;
        }
        let mut e = Ends {
            rigid: &mut self.bodies,
            particles,
        };
        for j in &mut self.joints {
            j.drive(&mut e, h);
        }
        if self.contacts.is_empty() {
            self.steady_hand(particles, h);
            return;
        }
        let before = self.kinetic_energy();
        self.each_contact(particles, h, |e, c, (a, pa), (b, pb), vb| {
            let v = e.velocity(a, pa) - vb;
            let vt = v - c.n * v.dot(c.n);
            let slide = vt.length();
            if slide > 0.0 {
                let take = (c.friction * c.lambda_n.abs() / h).min(slide);
                e.correct_velocity((a, pa), (b, pb), -vt * (take / slide));
            }
        });
        let after = self.kinetic_energy();
        self.lost[1] += before - after;
        let rest_speed = self.rest_speed;
        self.each_contact(particles, h, |e, c, (a, pa), (b, pb), vb| {
            let vn = (e.velocity(a, pa) - vb).dot(c.n);
            let leave = if -c.approach > rest_speed {
                -c.restitution * c.approach
            } else {
                0.0
            };
            if vn != leave {
                e.correct_velocity((a, pa), (b, pb), c.n * (leave - vn));
            }
        });
        self.steady_hand(particles, h);
    }

    /// Runs `verb` on every contact that pushed this substep with its two
    /// ends, their points now and the velocity of b's point. A contact
    /// with a particle takes part only where the particle's tether reached
    /// through it: the body was pushed as from the world there, so it is
    /// stopped as by the world, moving as the particle moved. Elsewhere
    /// a particle's velocity is its own phase's (an impulse between a
    /// body and a particle 1/10,000 of it would fling the particle at the
    /// body's speed, and read nothing of the body's).
    fn each_contact<P: Particles>(
        &mut self,
        particles: &mut P,
        h: f32,
        mut verb: impl FnMut(&mut Ends<P>, &Contact, (End, Vec3), (End, Vec3), Vec3),
    ) {
        let mut e = Ends {
            rigid: &mut self.bodies,
            particles,
        };
        for c in (self.contacts.iter()).filter(|c| c.lambda_n != 0.0) {
            let pa = e.point(End::Rigid(c.a), c.ra);
            let (b, pb, vb) = match (c.b, c.through) {
                (End::Particle(_), None) => continue,
                (End::Particle(_), Some(moved)) => (End::World, c.rb, moved / h),
                (b, _) => {
                    let pb = e.point(b, c.rb);
                    (b, pb, e.velocity(b, pb))
                }
            };
            verb(&mut e, c, (End::Rigid(c.a), pa), (b, pb), vb);
        }
    }

    /// The hand on a held body, after the contacts' velocity pass (which
    /// stops the normal motion of every contact that pushed, a lift's too).
    fn steady_hand<P: Particles>(&mut self, particles: &mut P, h: f32) {
        if let Some(hold) = &mut self.hand {
            let mut e = Ends {
                rigid: &mut self.bodies,
                particles,
            };
            steady(&mut e, hold, h);
        }
    }
}
