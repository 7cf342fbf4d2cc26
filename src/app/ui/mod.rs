//! The side panel, one struct per section (as egui's demo windows): each
//! draws itself from the app it is shown and answers with [`Ask`]s, which
//! the app carries out after the panel (`App::answer`). A section keeps
//! only its own state — text fields, a choice waiting for Apply, a running
//! sweep — and never changes the world itself, so every change goes the
//! one way: material edits through the edit stream (`App::edit`) to the
//! world, the twin lane, the scene and the recorder.
//!
//! Beside the panel: the plots below the view, the overlays on it, the
//! scene editor's window.

mod bodies;
mod body_load;
mod body_rigid;
mod body_rod;
mod body_solid;
mod body_tear;
mod compare;
mod display;
pub mod editor;
pub mod layout;
pub mod overlay;
pub mod plots;
mod scene;
mod solver;
mod stats;
mod sweep;
pub mod twist_plot;
mod widgets;

use std::path::{Path, PathBuf};

use egui_macroquad::egui;
use macroquad::prelude::Rect;

use crate::app::App;
use crate::app::render::Display;
use crate::edit::Edit;
use crate::solver::{Hand, Settings, ThreadChoice};

/// What a section asks the app to do.
#[derive(Clone, Debug)]
pub enum Ask {
    /// A material or per-body change: world, twin, scene and recording.
    Edit(Edit),
    /// The left (or only) world's solver settings.
    Settings(Settings),
    /// Compare mode's right lane's solver settings.
    TwinSettings(Settings),
    /// Simulated seconds per real second.
    TimeScale(f32),
    /// The hand's strength, chosen by the user (a reload keeps it).
    Hand(Hand),
    /// How many threads solve both lanes (a reload keeps it).
    Threads(ThreadChoice),
    /// Rigid body `.0` fixed or freed in both lanes.
    Fixed(usize, bool),
    /// What is drawn and how.
    Display(Display),
    /// Compare mode on or off.
    Compare(bool),
    Open(PathBuf),
    OpenBuiltin(&'static str),
    Reload,
    Reset,
    TogglePause,
    SaveAs(PathBuf),
    /// The browser's link to this setup.
    CopyLink,
    OpenEditor,
    Record,
    /// Stop recording and write it to this path.
    StopRecording(PathBuf),
    /// Replay the recording named in `open`, else the last one, else the
    /// one at `beside`.
    Replay {
        open: PathBuf,
        beside: PathBuf,
    },
}

/// A section of the side panel.
pub trait Section {
    /// Draws the section for `app` as it is this frame, pushing what the
    /// user asked for onto `asks`.
    fn ui(&mut self, ui: &mut egui::Ui, app: &App, asks: &mut Vec<Ask>);
}

/// The side panel's sections, top to bottom, and how far it is scrolled.
#[derive(Default)]
pub struct SidePanel {
    pub scene: scene::SceneSection,
    pub solver: solver::SolverSection,
    compare: compare::CompareSection,
    sweep: sweep::SweepSection,
    display: display::DisplaySection,
    stats: stats::StatsSection,
    bodies: bodies::BodiesSection,
    /// Points scrolled, for `--dump-state`.
    pub scroll: f32,
}

impl SidePanel {
    /// The panel for a window opened on `opened` (None: the built-in scene).
    pub fn new(opened: Option<&Path>) -> Self {
        Self {
            scene: scene::SceneSection::new(opened),
            ..Default::default()
        }
    }

    /// Shows the panel on the right of the window; what the user asked for.
    pub fn show(&mut self, ctx: &egui::Context, app: &App) -> Vec<Ask> {
        let mut asks = Vec::new();
        // However far it is dragged, the view keeps at least 360 px.
        let widest = (ctx.screen_rect().width() - 360.0).max(200.0);
        egui::SidePanel::right("controls")
            .default_width(310.0)
            .max_width(widest)
            .resizable(true)
            .show(ctx, |ui| {
                let scrolled = egui::ScrollArea::vertical().show(ui, |ui| {
                    let sections: [&mut dyn Section; 7] = [
                        &mut self.scene,
                        &mut self.solver,
                        &mut self.compare,
                        &mut self.sweep,
                        &mut self.display,
                        &mut self.stats,
                        &mut self.bodies,
                    ];
                    for (k, section) in sections.into_iter().enumerate() {
                        if k > 0 {
                            ui.separator();
                        }
                        section.ui(ui, app, &mut asks);
                    }
                });
                self.scroll = scrolled.state.offset.y;
            });
        asks
    }
}

impl App {
    /// Everything egui draws this frame: the panels, then the overlays on
    /// what they leave of the view.
    pub(in crate::app) fn ui(&mut self, ctx: &egui::Context) {
        // A wheel notch reaches egui as 1/90 of a line on the desktop
        // (egui-macroquad divides X11's ±1 by 90), which at egui's 40
        // points a line scrolled the panel 0.4 points; this makes a notch
        // about 40 points. The browser's deltas come larger and are left.
        #[cfg(not(target_arch = "wasm32"))]
        ctx.options_mut(|o| o.line_scroll_speed = 40.0 * 90.0);
        // The panel reads the app and answers with asks, carried out after it.
        let mut panel = std::mem::take(&mut self.panel);
        let asks = panel.show(ctx, self);
        self.panel = panel;
        for ask in asks {
            self.answer(ask);
        }
        self.plots_panel(ctx);
        self.error_banner(ctx);
        self.editor_window(ctx);
        // The world is drawn in what the panels leave free.
        let free = ctx.available_rect();
        let ppp = ctx.pixels_per_point();
        let view = Rect::new(
            free.left() * ppp,
            free.top() * ppp,
            (free.width() * ppp).max(1.0),
            (free.height() * ppp).max(1.0),
        );
        let (left, right) = self.lane_views(view);
        self.camera.view = left;
        self.right_view = right;
        self.layout.rects.clear();
        self.legend(ctx);
        self.realtime_badge(ctx);
        self.hand_badge(ctx);
        self.pin_badge(ctx);
        self.link_badge(ctx);
        self.start_hint(ctx);
        self.caption(ctx);
        self.lane_labels(ctx);
        if self.help {
            self.help_window(ctx);
        }
        self.ui_has_pointer = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
        self.ui_has_keyboard = ctx.wants_keyboard_input();
    }
}
