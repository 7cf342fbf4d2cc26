//! Hot reload: which settings survive a reload (the watching is in
//! `platform`).

use crate::solver::Settings;

/// The settings after a hot reload: a setting the user changed in the
/// panel (`panel` differs from `before`, the file's old value) is kept,
/// unless the file changed that setting too (`after` differs from
/// `before`) — then the file wins.
pub fn keep_panel_edits(before: Settings, panel: Settings, after: Settings) -> Settings {
    fn pick<T: PartialEq>(before: T, panel: T, after: T) -> T {
        if panel != before && after == before {
            panel
        } else {
            after
        }
    }
    let Settings {
        method,
        dt,
        substeps,
        iterations,
        gravity,
        damping,
        air_drag,
        wind,
        air_density,
        pbd_stiffness,
    } = after;
    Settings {
        method: pick(before.method, panel.method, method),
        dt: pick(before.dt, panel.dt, dt),
        substeps: pick(before.substeps, panel.substeps, substeps),
        iterations: pick(before.iterations, panel.iterations, iterations),
        gravity: pick(before.gravity, panel.gravity, gravity),
        damping: pick(before.damping, panel.damping, damping),
        air_drag: pick(before.air_drag, panel.air_drag, air_drag),
        wind: pick(before.wind, panel.wind, wind),
        air_density: pick(before.air_density, panel.air_density, air_density),
        pbd_stiffness: pick(before.pbd_stiffness, panel.pbd_stiffness, pbd_stiffness),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_keeps_panel_edits_unless_the_file_changed_the_same_setting() {
        let before = Settings::default();
        let mut panel = before;
        panel.substeps = 60; // the user's edit
        panel.damping = 5.0; // another edit
        let mut after = before;
        after.damping = 1.0; // the file changed damping too
        after.dt = 0.01; // and dt, which the user left alone
        let merged = keep_panel_edits(before, panel, after);
        assert_eq!(merged.substeps, 60);
        assert_eq!(merged.damping, 1.0);
        assert_eq!(merged.dt, 0.01);
        assert_eq!(merged.iterations, before.iterations);
    }
}
