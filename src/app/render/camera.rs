//! The orbit camera: a target, a distance and two angles.

use macroquad::prelude::{Camera3D, Mat4, Rect, Vec2, Vec3, Vec4, screen_height, screen_width};

use crate::scene::CameraDef;

/// Vertical field of view (degrees).
const FOVY_DEGREES: f32 = 45.0;

/// Orbits `target` at `distance`; yaw 0 looks along −z, positive pitch looks down.
#[derive(Clone, Debug)]
pub struct OrbitCamera {
    /// Point looked at (m).
    pub target: Vec3,
    /// Distance from the target (m).
    pub distance: f32,
    /// Rotation about +y (degrees).
    pub yaw: f32,
    /// Elevation (degrees), clamped to ±89.
    pub pitch: f32,
    /// The part of the window the world is drawn in (pixels, origin top left).
    pub view: Rect,
}

impl From<&CameraDef> for OrbitCamera {
    fn from(c: &CameraDef) -> Self {
        Self {
            target: c.target.into(),
            distance: c.distance,
            yaw: c.yaw,
            pitch: c.pitch,
            view: Rect::new(0.0, 0.0, screen_width(), screen_height()),
        }
    }
}

impl OrbitCamera {
    /// Where the eye is (m).
    pub fn eye(&self) -> Vec3 {
        let (yaw, pitch) = (self.yaw.to_radians(), self.pitch.to_radians());
        let back = Vec3::new(
            pitch.cos() * yaw.sin(),
            pitch.sin(),
            pitch.cos() * yaw.cos(),
        );
        self.target + back * self.distance
    }

    /// Looks at the middle of `points` from the current direction, close
    /// enough that all of them fit in the view (F / Home).
    pub fn frame(&mut self, points: &[Vec3]) {
        let finite = points.iter().filter(|p| p.is_finite());
        let (lo, hi) = finite.fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        if lo.x > hi.x {
            return; // nothing to frame
        }
        let centre = (lo + hi) * 0.5;
        let radius = points
            .iter()
            .filter(|p| p.is_finite())
            .map(|p| p.distance(centre))
            .fold(0.0, f32::max)
            .max(0.05);
        let half_fovy = FOVY_DEGREES.to_radians() * 0.5;
        let aspect = self.view.w.max(1.0) / self.view.h.max(1.0);
        let half_fovx = (half_fovy.tan() * aspect).atan();
        self.target = centre;
        self.distance = radius / half_fovy.min(half_fovx).sin() * 1.05;
    }

    /// Unit vector from the eye toward the target.
    pub fn forward(&self) -> Vec3 {
        (self.target - self.eye()).normalize()
    }

    /// macroquad's camera for drawing on the screen.
    pub fn camera3d(&self) -> Camera3D {
        self.camera3d_into(None)
    }

    /// macroquad's camera for drawing into `target` (screen-sized), or on
    /// the screen.
    pub fn camera3d_into(&self, target: Option<macroquad::texture::RenderTarget>) -> Camera3D {
        let v = self.view;
        Camera3D {
            aspect: Some(v.w.max(1.0) / v.h.max(1.0)),
            viewport: Some((
                v.x as i32,
                (screen_height() - v.y - v.h) as i32,
                v.w as i32,
                v.h as i32,
            )),
            position: self.eye(),
            target: self.target,
            up: Vec3::Y,
            fovy: FOVY_DEGREES.to_radians(),
            z_near: (self.distance * 0.01).max(1e-3),
            z_far: self.distance * 100.0 + 100.0,
            render_target: target,
            ..Default::default()
        }
    }

    fn view_projection(&self) -> Mat4 {
        use macroquad::camera::Camera;
        self.camera3d().matrix()
    }

    /// A function projecting many points with one matrix to screen pixels
    /// (None behind the eye).
    pub fn projector(&self) -> impl Fn(Vec3) -> Option<Vec2> {
        let m = self.view_projection();
        let view = self.view;
        move |p| project_with(&m, view, p)
    }

    /// The ray (origin, unit direction) under a screen position.
    pub fn ray(&self, screen: Vec2) -> (Vec3, Vec3) {
        let inv = self.view_projection().inverse();
        let v = self.view;
        let ndc = Vec2::new(
            2.0 * (screen.x - v.x) / v.w - 1.0,
            1.0 - 2.0 * (screen.y - v.y) / v.h,
        );
        let near = inv * Vec4::new(ndc.x, ndc.y, -1.0, 1.0);
        let far = inv * Vec4::new(ndc.x, ndc.y, 1.0, 1.0);
        let (near, far) = (near.truncate() / near.w, far.truncate() / far.w);
        (near, (far - near).normalize_or_zero())
    }

    /// Where the ray under `screen` meets the plane through `point` facing the camera.
    pub fn on_view_plane(&self, screen: Vec2, point: Vec3) -> Option<Vec3> {
        let (origin, dir) = self.ray(screen);
        let n = self.forward();
        let denom = dir.dot(n);
        if denom.abs() < 1e-6 {
            return None;
        }
        let t = (point - origin).dot(n) / denom;
        (t > 0.0)
            .then(|| origin + dir * t)
            .filter(|p| p.is_finite())
    }

    /// Orbits by a mouse motion in pixels.
    pub fn orbit(&mut self, delta: Vec2) {
        self.yaw = (self.yaw - delta.x * 0.3).rem_euclid(360.0);
        self.pitch = (self.pitch + delta.y * 0.3).clamp(-89.0, 89.0);
    }

    /// Moves the target with the mouse, one screen pixel ≈ one pixel of the target plane.
    pub fn pan(&mut self, delta: Vec2) {
        let forward = self.forward();
        let right = forward.cross(Vec3::Y).normalize_or_zero();
        let up = right.cross(forward);
        let metres_per_pixel = 2.0 * self.distance * (22.5f32.to_radians()).tan() / self.view.h;
        self.target += (-right * delta.x + up * delta.y) * metres_per_pixel;
    }

    /// Zooms by mouse-wheel notches.
    pub fn zoom(&mut self, notches: f32) {
        self.distance = (self.distance * 0.9f32.powf(notches)).clamp(0.05, 1e4);
    }
}

fn project_with(m: &Mat4, view: Rect, p: Vec3) -> Option<Vec2> {
    let clip = *m * p.extend(1.0);
    if clip.w <= 1e-6 {
        return None;
    }
    let ndc = clip.truncate() / clip.w;
    Some(Vec2::new(
        view.x + (ndc.x + 1.0) * 0.5 * view.w,
        view.y + (1.0 - ndc.y) * 0.5 * view.h,
    ))
}
