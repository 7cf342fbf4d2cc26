//! Watching the open scene file for changes (hot reload).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use notify::{RecursiveMode, Watcher as _};

use crate::solver::Settings;

/// Signals when the watched file was written, replaced or created.
pub struct FileWatcher {
    _watcher: notify::RecommendedWatcher,
    changes: Receiver<()>,
}

impl FileWatcher {
    /// Watches `file`. Its folder is watched, because editors often save
    /// by writing a new file and renaming it over the old one.
    pub fn new(file: &Path) -> notify::Result<Self> {
        let file: PathBuf = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
        let name = file.file_name().map(|n| n.to_os_string());
        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let (tx, changes) = channel();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else { return };
                let ours = event.paths.iter().any(|p| p.file_name() == name.as_deref());
                if ours && (event.kind.is_modify() || event.kind.is_create()) {
                    let _ = tx.send(());
                }
            })?;
        watcher.watch(&dir, RecursiveMode::NonRecursive)?;
        Ok(Self {
            _watcher: watcher,
            changes,
        })
    }

    /// True when the file changed since the last call.
    pub fn changed(&self) -> bool {
        let mut any = false;
        while self.changes.try_recv().is_ok() {
            any = true;
        }
        any
    }
}

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
