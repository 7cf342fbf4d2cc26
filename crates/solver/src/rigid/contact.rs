//! Contacts of rigid bodies: against the colliders, each other and every
//! particle, found once a substep from the predicted poses and then
//! projected like any XPBD constraint — the normal push at the points of
//! contact, and static friction that holds the points together while
//! |λ_t| < μ·λ_n (Müller et al. 2020 §3.5); dynamic friction is applied
//! to the velocities ([`super::motion`]).
//!
//! How the shapes meet is in [`super::geometry`].

use glam::{Quat, Vec3};

use super::geometry::{Solid, Touch, ground, meet, solid};

use super::Rigid;
use super::end::{End, Ends, Particles, Tether, inv_mass};
use crate::collision::{Collider, MAX_DEPENETRATION_SPEED};

/// One contact of rigid body `a` this substep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The rigid body pushed along +n.
    pub a: usize,
    /// What it touches.
    pub b: End,
    /// The point of contact on `a`, in its frame.
    pub ra: Vec3,
    /// The point on `b`: in its frame (a rigid), in the world (the world),
    /// unused for a particle (its centre).
    pub rb: Vec3,
    /// The contact normal, world frame: `a` is pushed along it.
    pub n: Vec3,
    /// Distance kept between the points along n (a particle's radius).
    pub gap: f32,
    /// How much of the overlap is left this substep: what the points
    /// overlapped when it began beyond what leaves at 10 m/s, the
    /// particles' depenetration speed (0 in a running world, but where a
    /// joint holds two bodies overlapping).
    pub slack: f32,
    /// Coulomb μ of the pair.
    pub friction: f32,
    /// Normal λ of the substep (position level).
    pub lambda_n: f32,
    /// Tangential (static friction) λ of the substep.
    pub lambda_t: f32,
    /// Restitution e of the pair (the larger of the two; a collider's
    /// and a particle's is 0).
    pub restitution: f32,
    /// The normal velocity (m/s) of a relative to b before the substep's
    /// projections: negative while they approach.
    pub approach: f32,
    /// Set when a particle's tether reached through this contact this
    /// substep: the body was pushed as from the world, and its velocity
    /// pass treats the contact as one with the point `rb` (world) moving
    /// as the particle's pin did (the pin's move this substep, m).
    pub(crate) through: Option<Vec3>,
}

/// Finds every contact of this substep into `out` (cleared first; its
/// capacity is kept, so a steady scene allocates nothing).
pub(crate) fn find<P: Particles>(
    out: &mut Vec<Contact>,
    bodies: &[Rigid],
    colliders: &[Collider],
    particles: &P,
    (count, held): (usize, &[(usize, usize)]),
) {
    out.clear();
    let mut touches: [Touch; 16] = [(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO); 16];
    for (i, r) in bodies.iter().enumerate() {
        if r.fixed {
            continue;
        }
        let s = solid(r);
        for c in colliders {
            let (n, mu) = match *c {
                Collider::Ground { height, friction } => {
                    (ground(s, height, &mut touches), friction)
                }
                Collider::Sphere {
                    center,
                    radius,
                    friction,
                } => (
                    meet(s, Solid::Round(center, center, radius), &mut touches),
                    friction,
                ),
                Collider::Box {
                    center,
                    half_extents,
                    friction,
                } => {
                    let b = Solid::Box(center, Quat::IDENTITY, half_extents);
                    (meet(s, b, &mut touches), friction)
                }
            };
            for &(pa, pb, normal) in &touches[..n] {
                out.push(contact(r, i, End::World, pb, normal, mu, (pa, 0.0)));
            }
        }
    }
    for (i, ri) in bodies.iter().enumerate() {
        for (j, rj) in bodies.iter().enumerate().skip(i + 1) {
            if (ri.fixed && rj.fixed) || ri.x.distance(rj.x) > ri.shape.bound() + rj.shape.bound() {
                continue;
            }
            // The pair is written with a free body first (a is pushed).
            let (a, b, ra, rb) = if ri.fixed {
                (j, i, rj, ri)
            } else {
                (i, j, ri, rj)
            };
            let n = meet(solid(ra), solid(rb), &mut touches);
            let mu = (ra.friction * rb.friction).sqrt();
            for &(pa, pb, normal) in &touches[..n] {
                let mut c = contact(ra, a, End::Rigid(b), rb.local(pb), normal, mu, (pa, 0.0));
                c.restitution = ra.restitution.max(rb.restitution);
                out.push(c);
            }
        }
    }
    // Particles meet fixed bodies too: a fixed body is an obstacle like
    // a collider (only the particle moves).
    for (i, r) in bodies.iter().enumerate() {
        let reach = r.shape.bound();
        let s = solid(r);
        for p in 0..count {
            let x = particles.x(p);
            let radius = particles.radius(p);
            let apart = x.distance(r.x) > reach + radius;
            if apart || held.contains(&(p, i)) || particles.spare(p) {
                continue;
            }
            // Found as a ball of the particle's radius; the contact keeps
            // the particle's centre `radius` off the body's surface.
            let n = meet(s, Solid::Round(x, x, radius), &mut touches);
            for &(pa, _, normal) in &touches[..n] {
                let mut c = contact(
                    r,
                    i,
                    End::Particle(p),
                    Vec3::ZERO,
                    normal,
                    r.friction,
                    (pa, radius),
                );
                c.restitution = 0.0; // a particle's velocity is not this pass's
                out.push(c);
            }
        }
    }
}

/// The part of the move out of every rigid body that a particle of
/// inverse mass `w` and radius `radius` at `x` takes when its contact is
/// projected (its share w/(w + w_body) of each overlap, the body's
/// inverse mass at the point of contact counting its turn), the bodies
/// where they are now. A balloon's gas stops there (`exec/gas.rs`), as at
/// a collider: against a body heavier than a skin particle nearly all of
/// the overlap.
pub(crate) fn particle_share(bodies: &[Rigid], x: Vec3, radius: f32, w: f32) -> Vec3 {
    let mut touches = [(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO); 16];
    let mut out = Vec3::ZERO;
    for r in bodies {
        if x.distance(r.x) > r.shape.bound() + radius {
            continue;
        }
        let n = meet(Solid::Round(x, x, radius), solid(r), &mut touches);
        let deepest = (touches[..n].iter())
            .map(|&(on_particle, on_body, normal)| {
                ((on_body - on_particle).dot(normal), on_body, normal)
            })
            .filter(|t| t.0 > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((depth, on_body, normal)) = deepest {
            let body = inv_mass(r, normal, Some(on_body));
            if w + body > 0.0 {
                out += normal * depth * (w / (w + body));
            }
        }
    }
    out
}

fn contact(
    r: &Rigid,
    a: usize,
    b: End,
    rb: Vec3,
    n: Vec3,
    friction: f32,
    (pa, gap): (Vec3, f32),
) -> Contact {
    // A round's point is on its surface; a particle's gap is its radius,
    // so the point on the particle is its centre.
    Contact {
        a,
        b,
        ra: r.local(pa),
        rb,
        n,
        gap,
        slack: 0.0,
        friction: if matches!(b, End::World) {
            (friction * r.friction).sqrt()
        } else {
            friction
        },
        lambda_n: 0.0,
        lambda_t: 0.0,
        restitution: r.restitution,
        approach: 0.0,
        through: None,
    }
}

impl Contact {
    /// An overlap the points already had when the substep began (a body
    /// placed or saved inside the ground, another body or a particle)
    /// leaves at most [`MAX_DEPENETRATION_SPEED`], as a particle leaves a
    /// collider: pushed out at once, a box saved 60 m under the ground
    /// left at 7e4 m/s turning at 3e5 rad/s. In a running world the
    /// contacts leave a substep clear, and this keeps nothing, but where
    /// a joint holds two bodies overlapping (an L of bars overlapping at
    /// its corner): there the contact no longer pushes the whole overlap
    /// against the joint each substep.
    pub(crate) fn leave_slowly<P: Particles>(&mut self, e: &Ends<P>, h: f32) {
        let a = e.point_before(End::Rigid(self.a), self.ra);
        let b = e.point_before(self.b, self.rb);
        let before = self.overlap(a, b);
        self.slack = (before - MAX_DEPENETRATION_SPEED * h).max(0.0);
    }

    /// How far points `pa` (on a) and `pb` (on b) overlap along n,
    /// keeping the gap.
    fn overlap(&self, pa: Vec3, pb: Vec3) -> f32 {
        (pb - pa).dot(self.n) + self.gap
    }

    /// The points on a and b now.
    pub(crate) fn points<P: Particles>(&self, e: &Ends<P>) -> (Vec3, Vec3) {
        (
            e.point(End::Rigid(self.a), self.ra),
            e.point(self.b, self.rb),
        )
    }

    /// One projection of the normal push: a moves out along n.
    pub(crate) fn push<P: Particles>(&mut self, e: &mut Ends<P>, k: f32) {
        let a = End::Rigid(self.a);
        let (pa, pb) = self.points(e);
        let depth = self.overlap(pa, pb) - self.slack;
        if depth <= 0.0 {
            return;
        }
        let mut lambda = self.lambda_n;
        e.correct((a, pa), (self.b, pb), self.n * depth, (0.0, k), &mut lambda);
        self.lambda_n = lambda;
        if let End::Particle(i) = self.b {
            self.tether_through(e, i, k);
        }
    }

    /// A tethered particle's tether reaches through the contact, as
    /// through an attachment: a heavy body pushing a light particle past
    /// its tether length (a box dropped on a hammock of 0.8 g particles,
    /// 10,000 : 1) takes the push itself. The particle goes back onto its
    /// tether's sphere and the body is pushed out of it there as from the
    /// world; without it the tether pulls the particle back after the
    /// contact, the body keeps sinking by what the particle gave way, and
    /// the sheet stretches under it like rubber.
    fn tether_through<P: Particles>(&mut self, e: &mut Ends<P>, i: usize, k: f32) {
        let Some(Tether {
            pin,
            pin_moved,
            length,
        }) = e.particles.tether(i)
        else {
            return;
        };
        let x = e.particles.x(i);
        let d = x - pin;
        let dist = d.length();
        if dist <= length || dist <= 0.0 {
            return;
        }
        // Back onto the tether's sphere.
        let back = pin + d * (length / dist) - x;
        e.particles.shift(i, back);
        let a = End::Rigid(self.a);
        let (pa, pb) = self.points(e);
        let depth = self.overlap(pa, pb) - self.slack;
        if depth > 0.0 {
            let mut lambda = self.lambda_n;
            e.correct(
                (a, pa),
                (End::World, pb),
                self.n * depth,
                (0.0, k),
                &mut lambda,
            );
            self.lambda_n = lambda;
            // Where the particle is and how its pin moved, for the
            // velocity pass (which runs while other threads move
            // particles, so it reads none). Not the particle's own move:
            // that carries the sheet's jitter under the load into the body
            // (a box at rest on a hammock kept 1 to 4 mJ, against 0.2).
            self.rb = pb;
            self.through = Some(pin_moved);
        }
    }

    /// One projection of static friction: the points are held together
    /// while |λ_t| < μ·λ_n.
    pub(crate) fn hold<P: Particles>(&mut self, e: &mut Ends<P>, k: f32) {
        if self.lambda_n == 0.0 {
            return;
        }
        let a = End::Rigid(self.a);
        let (pa, pb) = self.points(e);
        let moved = (pa - e.point_before(a, self.ra)) - (pb - e.point_before(self.b, self.rb));
        let slip = moved - self.n * moved.dot(self.n);
        let len = slip.length();
        if len <= 0.0 {
            return;
        }
        let t = slip / len;
        let w = e.inv_mass(a, t, Some(pa)) + e.inv_mass(self.b, t, Some(pb));
        if w <= 0.0 {
            return;
        }
        // Held while the tangential λ it needs stays within the cone;
        // past it, moved back by what the cone holds (the rest slides, and
        // the velocity pass applies dynamic friction to it).
        let limit = self.friction * self.lambda_n.abs();
        let need = self.lambda_t.abs() + len / w;
        let share = if need <= limit {
            1.0
        } else {
            ((limit - self.lambda_t.abs()) / (len / w)).max(0.0)
        };
        if share > 0.0 {
            let mut lambda = self.lambda_t;
            e.correct((a, pa), (self.b, pb), -slip * share, (0.0, k), &mut lambda);
            self.lambda_t = lambda;
        }
    }
}
