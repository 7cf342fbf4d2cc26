//! Tethers: long-range attachments (Kim, Chentanez and Müller 2012).
//!
//! Gauss–Seidel carries a correction one link per pass, so a heavy weight
//! at the end of a long rigid chain stretches it like rubber: the pin's
//! "news" never reaches the tip within a substep. A tether is a one-sided
//! constraint from a particle straight to its nearest pin,
//! C = |x_i − x_pin| − L ≤ 0, with L the particle's rest distance from the
//! pin along the body: it never pulls while the body is slack and makes the
//! body inextensible as a whole at once, whatever the mass ratio.
//!
//! The pin does not move (w = 0), so the projection moves the particle
//! alone, back onto the sphere of radius L around the pin — rigid in both
//! methods, no λ. Each particle has at most one tether and only its owner
//! thread moves it, so the pass is per particle, bit-identical for any
//! thread count.
//!
//! L is the straight distance between particle and pin in the body's rest
//! shape — a rope laid straight, a cloth's flat grid — which is the
//! distance along the body (the geodesic on a flat sheet); the pin is the
//! nearest one the stretch and shear links still connect to the particle.
//! The table is rebuilt when pins change or links break, so tethers follow
//! new pins and a piece torn off every pin falls free.

use glam::Vec3;

use super::distance::{DistanceConstraints, LinkKind};

/// No tether for this particle.
pub(crate) const NONE: u32 = u32::MAX;

/// Tethered bodies and, per particle, its pin and maximum distance.
#[derive(Clone, Debug, Default)]
pub struct Tethers {
    /// (body index, its particle range, its rest shape).
    bodies: Vec<(usize, std::ops::Range<usize>, Vec<Vec3>)>,
    /// Per particle: the pin it is tethered to, or [`NONE`].
    pub(crate) anchor: Vec<u32>,
    /// Per particle: the largest distance from its pin (m).
    pub(crate) length: Vec<f32>,
    /// Pins or links changed since the table was built.
    stale: bool,
    /// How many links had broken when the table was built.
    broken_seen: usize,
}

impl Tethers {
    /// True when some particle has a tether (the step then runs the pass).
    pub fn any(&self) -> bool {
        !self.bodies.is_empty()
    }

    /// Tethers body `body` (particles `range`, rest shape `rest`).
    pub(crate) fn add(&mut self, body: usize, range: std::ops::Range<usize>, rest: Vec<Vec3>) {
        debug_assert_eq!(rest.len(), range.len());
        self.remove(body);
        self.bodies.push((body, range, rest));
        self.stale = true;
    }

    /// Takes body `body`'s tethers away.
    pub(crate) fn remove(&mut self, body: usize) {
        self.bodies.retain(|(b, ..)| *b != body);
        self.stale = true;
    }

    /// Whether body `body` is tethered.
    pub fn has(&self, body: usize) -> bool {
        self.bodies.iter().any(|(b, ..)| *b == body)
    }

    /// Marks the table out of date (a pin or a link changed).
    pub fn invalidate(&mut self) {
        self.stale |= self.any();
    }

    /// The tether of particle `i`: (pin, maximum distance), if any.
    pub fn of(&self, i: usize) -> Option<(usize, f32)> {
        let a = *self.anchor.get(i)?;
        (a != NONE).then(|| (a as usize, self.length[i]))
    }

    /// Rebuilds the table if pins changed or links broke since it was
    /// built: `pinned(i)` tells the pins, `links` the remaining constraints.
    pub fn refresh(
        &mut self,
        count: usize,
        pinned: impl Fn(usize) -> bool,
        links: &DistanceConstraints,
    ) {
        let same =
            !self.stale && links.broken().len() == self.broken_seen && self.anchor.len() == count;
        if !self.any() || same {
            return;
        }
        self.stale = false;
        self.broken_seen = links.broken().len();
        self.anchor.clear();
        self.anchor.resize(count, NONE);
        self.length.clear();
        self.length.resize(count, 0.0);
        for (body, range, rest) in &self.bodies {
            // The body's pieces over its stretch and shear links (bending
            // links reach across a cut), by local index.
            let mut next: Vec<Vec<usize>> = vec![Vec::new(); range.len()];
            for l in links.iter().filter(|l| {
                l.tag.body as usize == *body
                    && matches!(l.tag.kind, LinkKind::Stretch | LinkKind::Shear)
            }) {
                let (a, b) = (l.a - range.start, l.b - range.start);
                next[a].push(b);
                next[b].push(a);
            }
            let piece = pieces(&next);
            let pins: Vec<usize> = (0..range.len())
                .filter(|&k| pinned(range.start + k))
                .collect();
            for k in (0..range.len()).filter(|k| !pins.contains(k)) {
                let nearest = pins
                    .iter()
                    .filter(|&&p| piece[p] == piece[k])
                    .map(|&p| (p, rest[k].distance(rest[p])))
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((pin, length)) = nearest {
                    self.anchor[range.start + k] = (range.start + pin) as u32;
                    self.length[range.start + k] = length;
                }
            }
        }
    }
}

/// Per node: a label shared by exactly the nodes the links connect.
fn pieces(next: &[Vec<usize>]) -> Vec<usize> {
    let mut label = vec![usize::MAX; next.len()];
    let mut stack = Vec::new();
    for start in 0..next.len() {
        if label[start] != usize::MAX {
            continue;
        }
        label[start] = start;
        stack.push(start);
        while let Some(k) = stack.pop() {
            for &j in &next[k] {
                if label[j] == usize::MAX {
                    label[j] = start;
                    stack.push(j);
                }
            }
        }
    }
    label
}
