//! Compare mode in the window: the scene in two worlds side by side, PBD
//! left and XPBD right by default, one hand for both (`crate::compare`).
//! `self.world` is the left lane — every control and the mouse act on it —
//! and `self.twin` the right one, which mirrors its hand and pins and
//! takes every material edit too; its solver settings are its own.

use egui_macroquad::egui::{self, RichText};
use macroquad::prelude::Rect;

use crate::app::App;

/// The colours of the left and right lanes in labels and plots.
pub(in crate::app) const LANE_COLOURS: [egui::Color32; 2] = [
    egui::Color32::from_rgb(255, 170, 90),
    egui::Color32::from_rgb(110, 200, 255),
];
use crate::compare;
use crate::solver::{Method, World};

impl App {
    /// Switches compare mode on (both lanes restart from the scene, left
    /// PBD and right XPBD, each with the panel's other settings) or off.
    pub(in crate::app) fn set_compare(&mut self, on: bool) {
        self.mouse.cancel(&mut self.world);
        if !on {
            self.twin = None;
            return;
        }
        let settings = self.world.settings;
        let (hand, threads) = (self.world.hand(), self.world.thread_choice());
        let [left, right] = compare::lanes(&self.scene);
        self.world = crate::app::solver_world_from(left, threads);
        self.world.settings = settings;
        self.world.settings.method = Method::Pbd;
        self.world.set_hand(hand);
        let mut twin = crate::app::solver_world_from(right, threads);
        twin.settings = settings;
        twin.settings.method = Method::Xpbd;
        self.twin = Some(twin);
        self.accumulator = 0.0;
        self.stale_stats = true;
    }

    /// After the left world was rebuilt (load, reset): the right one too,
    /// keeping its own solver settings.
    pub(in crate::app) fn rebuild_twin(&mut self) {
        if let Some(old) = self.twin.take() {
            let threads = self.world.thread_choice();
            let mut twin = crate::app::solver_world_from(self.scene.build(), threads);
            twin.settings = old.settings;
            twin.set_hand(self.world.hand());
            self.twin = Some(twin);
        }
    }

    /// Applies a material edit made on the left world to the right one.
    pub(in crate::app) fn twin_do(&mut self, edit: impl FnOnce(&mut World)) {
        if let Some(twin) = self.twin.as_mut() {
            edit(twin);
        }
    }

    /// One frame of both lanes, the right one holding what the left holds.
    pub(in crate::app) fn step_lanes(&mut self) {
        if let Some(twin) = self.twin.as_mut() {
            compare::mirror(&self.world, twin);
            twin.step();
        }
        self.world.step();
    }

    /// While paused: the right lane follows the left one's pose too.
    pub(in crate::app) fn pose_lanes(&mut self) {
        self.world.pose_held();
        if let Some(twin) = self.twin.as_mut() {
            compare::mirror(&self.world, twin);
            twin.pose_held();
        }
    }

    /// The world under the cursor and the camera it is drawn through: the
    /// right lane in compare mode when the cursor is over it.
    pub(in crate::app) fn lane_under_cursor(
        &self,
    ) -> (&World, crate::app::render::camera::OrbitCamera) {
        let mut camera = self.camera.clone();
        match (&self.twin, self.right_view) {
            (Some(twin), Some(view)) if self.right_lane_active => {
                camera.view = view;
                (twin, camera)
            }
            _ => (&self.world, camera),
        }
    }

    /// The views of the lanes: the whole view, or its left and right
    /// halves in compare mode.
    pub(in crate::app) fn lane_views(&self, view: Rect) -> (Rect, Option<Rect>) {
        if self.twin.is_none() {
            return (view, None);
        }
        let half = (view.w * 0.5).floor();
        (
            Rect::new(view.x, view.y, half, view.h),
            Some(Rect::new(view.x + half, view.y, view.w - half, view.h)),
        )
    }

    /// "PBD 20 × 1" at the top of each lane, in its plot colour: the left
    /// lane's in its top-left corner, the right lane's in its top-right,
    /// clear of the compare caption between them (at the bottom the left
    /// one sat under the colour legend).
    pub(in crate::app) fn lane_labels(&mut self, ctx: &egui::Context) {
        let (Some(twin), Some(right)) = (&self.twin, self.right_view) else {
            return;
        };
        let ppp = ctx.pixels_per_point();
        let lanes = [
            (&self.world, self.camera.view, LANE_COLOURS[0]),
            (twin, right, LANE_COLOURS[1]),
        ];
        for (k, (world, view, colour)) in lanes.into_iter().enumerate() {
            let s = &world.settings;
            let method = match s.method {
                Method::Xpbd => "XPBD".to_string(),
                Method::Pbd => format!("PBD k = {}", s.pbd_stiffness),
            };
            let text = format!(
                "{method}   {} substeps × {} iterations",
                s.substeps, s.iterations
            );
            let (at, pivot) = if k == 0 {
                let at = egui::pos2(view.x / ppp + 10.0, view.y / ppp + 8.0);
                (at, egui::Align2::LEFT_TOP)
            } else {
                let at = egui::pos2((view.x + view.w) / ppp - 10.0, view.y / ppp + 8.0);
                (at, egui::Align2::RIGHT_TOP)
            };
            let shown = egui::Area::new(egui::Id::new(("lane", k)))
                .fixed_pos(at)
                .pivot(pivot)
                .interactable(false)
                .show(ctx, |ui| {
                    ui.label(RichText::new(text).color(colour).strong().size(16.0));
                });
            self.layout.keep("lane", shown.response.rect, ppp);
        }
    }
}

impl App {
    /// The XPBD paper's spring as a ghost: when the scene is one Mesh of a
    /// pinned particle and a free one on one compliant link, released at
    /// rest below it (lesson_spring.ron), where the undamped oscillator
    /// with period 2π√(α·m) would have the mass now.
    pub(in crate::app) fn spring_ghost(&self) -> Option<(crate::analytic::Spring, f32)> {
        let [crate::scene::BodyDef::Mesh(m)] = self.scene.bodies.as_slice() else {
            return None;
        };
        let ([a, b], [link]) = (m.particles.as_slice(), m.links.as_slice()) else {
            return None;
        };
        let (pin, free) = match (a.pinned, b.pinned) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => return None,
        };
        if self.scene.state.is_some() || self.world.particles.is_pinned(1) != b.pinned {
            return None;
        }
        let (p, q) = (
            glam::Vec3::from(pin.position),
            glam::Vec3::from(free.position),
        );
        let rest = link.rest.unwrap_or(p.distance(q));
        let alpha = self
            .world
            .constraints
            .compliance(0, crate::solver::LinkKind::Stretch)?;
        let spring = crate::analytic::Spring::new(
            p,
            q,
            free.mass,
            rest,
            alpha,
            self.world.settings.gravity,
        )?;
        Some((spring, m.radius * 1.6))
    }
}
