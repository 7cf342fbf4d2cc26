//! Widgets the sections share: a slider that leaves out-of-range values
//! alone, and compliance sliders with a box for exactly zero.

use egui_macroquad::egui;

/// A slider that never changes a value it did not set: a scene's value
/// outside the slider's range (say 500 substeps) stays as it is until the
/// user moves the slider.
pub fn slider<'a, N: egui::emath::Numeric>(
    value: &'a mut N,
    range: std::ops::RangeInclusive<N>,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits)
}

/// A compliance slider (m/N, logarithmic) with a "rigid" box for α = 0.
/// Returns the new value when the user changed it.
pub fn compliance_ui(ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
    let kind = ComplianceSlider {
        zero: "rigid",
        zero_hover: "compliance α = 0: the constraint does not stretch at all",
        range: 1e-9..=1.0,
        hover: "compliance α in m/N, the inverse of stiffness: a link under a force F \
                stretches by α·F",
    };
    kind.show(ui, label, value)
}

/// A logarithmic compliance slider with a box for exactly 0.
pub struct ComplianceSlider {
    /// The box's label ("rigid", "incompressible") and hover text.
    pub zero: &'static str,
    pub zero_hover: &'static str,
    /// The slider's range and hover text (with the unit).
    pub range: std::ops::RangeInclusive<f32>,
    pub hover: &'static str,
}

impl ComplianceSlider {
    /// Shows it for `value`; the new value when the user changed it.
    pub fn show(&self, ui: &mut egui::Ui, label: &str, value: f32) -> Option<f32> {
        let mut zero = value == 0.0;
        let mut v = if zero {
            *self.range.start() * 1e3
        } else {
            value
        };
        let mut changed = false;
        ui.horizontal(|ui| {
            changed |= ui
                .checkbox(&mut zero, self.zero)
                .on_hover_text(self.zero_hover)
                .changed();
            ui.add_enabled_ui(!zero, |ui| {
                changed |= ui
                    .add(
                        slider(&mut v, self.range.clone())
                            .logarithmic(true)
                            .text(label)
                            .custom_formatter(|x, _| format!("{x:.1e}")),
                    )
                    .on_hover_text(self.hover)
                    .changed();
            });
        });
        changed.then_some(if zero { 0.0 } else { v })
    }
}

/// A slider for links whose compliances differ: it shows the largest and
/// scales them all by one factor, so their ratios survive.
pub fn scale_ui(ui: &mut egui::Ui, label: &str, largest: f32) -> Option<f32> {
    let mut v = largest;
    ui.add(
        slider(&mut v, 1e-9..=1.0)
            .logarithmic(true)
            .text(format!("{label} (largest)"))
            .custom_formatter(|x, _| format!("{x:.1e}")),
    )
    .on_hover_text(
        "these links have different compliances: moving the slider scales all of them \
         by one factor (rigid links stay rigid)",
    )
    .changed()
    .then_some(v)
    .filter(|&v| v > 0.0)
}
