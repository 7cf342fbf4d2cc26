//! Watching the open scene file for changes (hot reload).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

use notify::{RecursiveMode, Watcher as _};

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
