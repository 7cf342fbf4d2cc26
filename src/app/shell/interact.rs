//! Mouse and keyboard: picking, dragging particles and rigid bodies,
//! pinning (fixing a rigid body), camera.

use macroquad::prelude::*;

use crate::app::render::camera::OrbitCamera;
use crate::solver::{LinkView, Shape, World};

/// Pick radius around the cursor (pixels).
const PICK_RADIUS: f32 = 14.0;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Drag {
    None,
    /// Pulling particle `i` on the plane facing the camera through `anchor`.
    Particle {
        anchor: Vec3,
    },
    /// Pulling a rigid body by the point `anchor` it was taken at, likewise.
    Rigid {
        anchor: Vec3,
    },
    Orbit,
    Pan,
}

/// The mouse state between frames.
#[derive(Clone, Debug)]
pub struct Mouse {
    /// Particle under the cursor.
    pub hovered: Option<usize>,
    /// The rigid body under the cursor, and the point of it there, when
    /// no particle is.
    pub hovered_rigid: Option<(usize, Vec3)>,
    /// Where the cursor is over the world (for link read-outs), with the
    /// camera it was seen through; None over the panels.
    pub over_world: Option<Vec2>,
    drag: Drag,
    last: Vec2,
    /// The cursor has moved since the window opened: before that its
    /// position is wherever the pointer happened to be, not a choice.
    moved: bool,
    /// Where the held particle was asked to be last frame (m).
    last_target: Option<Vec3>,
    /// Smoothed velocity of the drag target (m/s), handed to the particle on release.
    velocity: Vec3,
}

impl Default for Mouse {
    fn default() -> Self {
        Self {
            hovered: None,
            hovered_rigid: None,
            over_world: None,
            drag: Drag::None,
            last: Vec2::ZERO,
            moved: false,
            last_target: None,
            velocity: Vec3::ZERO,
        }
    }
}

/// The free particle nearest the cursor within [`PICK_RADIUS`] pixels.
pub fn pick(world: &World, camera: &OrbitCamera, cursor: Vec2) -> Option<usize> {
    let project = camera.projector();
    let eye = camera.eye();
    let mut best: Option<(usize, f32, f32)> = None;
    for (i, &p) in world.particles.pos().iter().enumerate() {
        if world.particles.is_spare(i) {
            continue;
        }
        let Some(s) = project(p) else { continue };
        let d = s.distance(cursor);
        let depth = p.distance_squared(eye);
        // Nearest on screen; among equally near ones, the nearest to the eye.
        let better = best.is_none_or(|(_, bd, bz)| d < bd - 0.5 || (d < bd + 0.5 && depth < bz));
        if d <= PICK_RADIUS && better {
            best = Some((i, d, depth));
        }
    }
    best.map(|(i, _, _)| i)
}

/// The rigid body the ray under the cursor enters first, and where.
pub fn pick_rigid(world: &World, camera: &OrbitCamera, cursor: Vec2) -> Option<(usize, Vec3)> {
    let (origin, dir) = camera.ray(cursor);
    (world.rigids().bodies.iter().enumerate())
        .filter_map(|(r, b)| b.ray_hit(origin, dir).map(|t| (r, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(r, t)| (r, origin + dir * t))
}

/// The rope or mesh link nearest the cursor within 5 pixels
/// (cloth edges are left out: too many and too close to tell apart).
pub fn pick_link(world: &World, camera: &OrbitCamera, cursor: Vec2) -> Option<LinkView> {
    let project = camera.projector();
    let bodies = world.bodies();
    let mut best: Option<(LinkView, f32)> = None;
    for l in world.constraints.iter() {
        if matches!(bodies[l.tag.body as usize].shape, Shape::Cloth { .. }) {
            continue;
        }
        let (Some(a), Some(b)) = (
            project(world.particles.pos()[l.a]),
            project(world.particles.pos()[l.b]),
        ) else {
            continue;
        };
        let ab = b - a;
        let t = ((cursor - a).dot(ab) / ab.length_squared().max(1e-6)).clamp(0.0, 1.0);
        let d = cursor.distance(a + ab * t);
        if d <= 5.0 && best.is_none_or(|(_, bd)| d < bd) {
            best = Some((l, d));
        }
    }
    best.map(|(l, _)| l)
}

/// The rod joint nearest the cursor within 5 px, as (body, joint
/// numbered within the rod): of the segment under the cursor, the joint
/// at its nearer end.
pub fn pick_rod_joint(world: &World, camera: &OrbitCamera, cursor: Vec2) -> Option<(usize, usize)> {
    let project = camera.projector();
    let pos = world.particles.pos();
    let mut best: Option<((usize, usize), f32)> = None;
    for (b, body) in world.bodies().iter().enumerate() {
        let n = world.rods().segments_of(b).len();
        for s in 0..n {
            let (i, j) = (body.first + s, body.first + s + 1);
            let (Some(a), Some(c)) = (project(pos[i]), project(pos[j])) else {
                continue;
            };
            let ac = c - a;
            let t = ((cursor - a).dot(ac) / ac.length_squared().max(1e-6)).clamp(0.0, 1.0);
            let d = cursor.distance(a + ac * t);
            // Joint s − 1 is at the segment's start, joint s at its end.
            let joint = if t < 0.5 { s.saturating_sub(1) } else { s };
            if n >= 2 && d <= 5.0 && best.is_none_or(|(_, bd)| d < bd) {
                best = Some(((b, joint.min(n - 2)), d));
            }
        }
    }
    best.map(|(at, _)| at)
}

impl Mouse {
    /// True while the left button pulls a particle or a rigid body.
    pub fn dragging_particle(&self) -> bool {
        matches!(self.drag, Drag::Particle { .. } | Drag::Rigid { .. })
    }

    /// Handles one frame of mouse input. `over_ui`: egui wants the pointer,
    /// so the world is left alone (a drag already started continues).
    /// `seen` is the world drawn under the cursor when it is not `world`
    /// (compare mode's right lane): particles are picked and dragged where
    /// they are there, and the hand acts on `world` (which the other lane
    /// mirrors) by particle index.
    pub fn update(
        &mut self,
        world: &mut World,
        seen: Option<&World>,
        camera: &mut OrbitCamera,
        over_ui: bool,
        frame_dt: f32,
    ) {
        let cursor = Vec2::from(mouse_position());
        let delta = cursor - self.last;
        if self.last != Vec2::ZERO && delta != Vec2::ZERO {
            self.moved = true;
        }
        self.last = cursor;
        self.over_world = (!over_ui && self.moved).then_some(cursor);
        if self.drag == Drag::None {
            self.hovered = if over_ui || !self.moved {
                None
            } else {
                pick(seen.unwrap_or(world), camera, cursor)
            };
            self.hovered_rigid = if self.hovered.is_some() || over_ui || !self.moved {
                None
            } else {
                pick_rigid(seen.unwrap_or(world), camera, cursor)
            };
        }
        if !over_ui {
            let wheel = mouse_wheel().1;
            if wheel != 0.0 {
                camera.zoom(wheel.signum());
            }
            if is_mouse_button_pressed(MouseButton::Left) {
                self.press(world, seen);
            }
            if is_mouse_button_pressed(MouseButton::Middle) {
                self.drag = Drag::Pan;
            }
            if is_mouse_button_pressed(MouseButton::Right) {
                self.toggle_pin(world);
            }
        }
        match self.drag {
            Drag::Particle { anchor } | Drag::Rigid { anchor } => {
                if let Some(target) = camera.on_view_plane(cursor, anchor) {
                    self.follow(world, target, frame_dt);
                }
                if !is_mouse_button_down(MouseButton::Left) {
                    world.release(Some(self.velocity));
                    self.end_drag();
                }
            }
            Drag::Orbit => {
                camera.orbit(delta);
                if !is_mouse_button_down(MouseButton::Left) {
                    self.end_drag();
                }
            }
            Drag::Pan => {
                camera.pan(delta);
                if !is_mouse_button_down(MouseButton::Middle) {
                    self.end_drag();
                }
            }
            Drag::None => {}
        }
        // The held particle may have been removed by a reload.
        if self.dragging_particle() && world.grabbed().is_none() && world.grabbed_rigid().is_none()
        {
            self.end_drag();
        }
    }

    fn press(&mut self, world: &mut World, seen: Option<&World>) {
        match self.hovered {
            Some(i) if !world.particles.is_pinned(i) && !world.particles.is_driven(i) => {
                world.grab(i);
                self.drag = Drag::Particle {
                    anchor: seen.unwrap_or(world).particles.pos()[i],
                };
                self.last_target = None;
                self.velocity = Vec3::ZERO;
            }
            Some(_) => {} // pinned or driven: right-click / P unpins
            None => match self.hovered_rigid {
                Some((r, at)) if !world.rigids().bodies[r].fixed => {
                    world.grab_rigid(r, at);
                    self.drag = Drag::Rigid { anchor: at };
                    self.last_target = None;
                    self.velocity = Vec3::ZERO;
                }
                Some(_) => {} // fixed: right-click frees it
                None => self.drag = Drag::Orbit,
            },
        }
    }

    fn follow(&mut self, world: &mut World, target: Vec3, frame_dt: f32) {
        world.drag_to(target);
        if let Some(last) = self.last_target
            && frame_dt > 0.0
        {
            let v = (target - last) / frame_dt;
            // Smooth over a few frames: a flick throws, jitter does not.
            self.velocity = self.velocity.lerp(v, 0.5);
        }
        self.last_target = Some(target);
    }

    fn end_drag(&mut self) {
        self.drag = Drag::None;
        self.last_target = None;
    }

    /// Pins or unpins the particle under the cursor (right-click or P), or
    /// fixes or frees the rigid body there.
    pub fn toggle_pin(&mut self, world: &mut World) {
        if let (None, Some((r, _))) = (self.hovered, self.hovered_rigid) {
            if world.grabbed_rigid() == Some(r) {
                world.release(None);
                self.end_drag();
            }
            let fixed = world.rigids().bodies[r].fixed;
            world.set_rigid_fixed(r, !fixed);
        }
        if let Some(i) = self.hovered {
            if world.grabbed() == Some(i) {
                world.release(None);
                self.end_drag();
            }
            let pinned = world.particles.is_pinned(i);
            world.set_pinned(i, !pinned);
        }
    }

    /// Lets go of anything held (before the world is replaced).
    pub fn cancel(&mut self, world: &mut World) {
        world.release(None);
        self.end_drag();
        self.hovered = None;
        self.hovered_rigid = None;
    }
}
