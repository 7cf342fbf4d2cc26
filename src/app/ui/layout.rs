//! What the overlays over the view take up and how their colours are
//! scaled: where the caption, the colour legend and compare mode's lane
//! labels sit this frame (kept for `--dump-state`, whose layout check
//! asserts that they cover neither each other nor a lane's pins), and the
//! strain scale's top chosen for the scene after its first second.

use egui_macroquad::egui;

use crate::app::App;

/// The overlays' rectangles and the strain scale's choice.
#[derive(Debug)]
pub(in crate::app) struct Layout {
    /// (name, rectangle in pixels) of each overlay drawn this frame.
    pub rects: Vec<(&'static str, egui::Rect)>,
    /// The user set the strain scale in the panel: reloads keep it.
    pub scale_chosen: bool,
    /// The scale is still to be chosen, once the world has run a second.
    pub scale_pending: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            rects: Vec::new(),
            scale_chosen: false,
            scale_pending: true,
        }
    }
}

impl Layout {
    /// Keeps overlay `name`'s rectangle `rect` (egui points, `ppp` pixels
    /// a point).
    pub fn keep(&mut self, name: &'static str, rect: egui::Rect, ppp: f32) {
        self.rects.push((name, rect * ppp));
    }
}

/// The strain drawn red for a scene whose links stretch `strain` a second
/// in: the next of 1, 2, 5 × 10ᵏ at or above 1.25 × it, at least 2 %
/// (rigid bodies' noise keeps the old 0–2 %) and at most 100 %.
pub(in crate::app) fn scale_for(strain: f32) -> f32 {
    let want = 1.25 * strain;
    let steps = [0.02, 0.05, 0.1, 0.2, 0.5, 1.0];
    steps.into_iter().find(|&s| s >= want).unwrap_or(1.0)
}

impl App {
    /// A second into a scene, unless the user set it: the strain scale's
    /// top from how far its links (both lanes') stretch by then, so a
    /// soft lesson's 5 % is not all red on a 0–2 % scale and a rigid
    /// sheet's 0.5 % not all blue on a 0–20 % one. It then holds still.
    pub(in crate::app) fn pick_strain_scale(&mut self) {
        let layout = &mut self.layout;
        if !layout.scale_pending || self.world.time() < 1.0 {
            return;
        }
        layout.scale_pending = false;
        if layout.scale_chosen || self.display.strain_scale.is_none() {
            return;
        }
        let twin = self.twin.as_ref().map_or(0.0, |t| t.max_strain());
        self.display.strain_scale = Some(scale_for(self.world.max_strain().max(twin)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_the_next_round_step_above_the_strain_with_a_margin() {
        assert_eq!(scale_for(0.0), 0.02);
        assert_eq!(scale_for(0.015), 0.02);
        assert_eq!(scale_for(0.017), 0.05);
        assert_eq!(scale_for(0.055), 0.1);
        assert_eq!(scale_for(0.12), 0.2);
        assert_eq!(scale_for(3.0), 1.0);
        assert_eq!(scale_for(f32::NAN), 1.0);
    }
}
