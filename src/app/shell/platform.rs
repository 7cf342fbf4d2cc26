//! What differs between the desktop and the browser, in one place.
//!
//! The desktop reads and writes files and watches the open scene for hot
//! reload. The browser has no file system: every scene is built in, the
//! scene editor replaces hot reload, Save as and Stop recording download
//! their file, and a scene can arrive in the link (`#scene=…`). The calls
//! into the page are in `crate::web`. The other differences live beside
//! the code they change, each behind `cfg(target_arch = "wasm32")`: the
//! clock (`crate::clock`), the sweep's background (`sweep_panel`), and
//! `main` (no command line in a tab).

use std::path::{Path, PathBuf};

/// Gives egui its fonts: egui's bundled fonts on the desktop; in the
/// browser, subsets of the same four (assets/fonts, made by
/// tools/subset_fonts.py: 158 KB of wasm instead of 1.4 MB), in egui's
/// order and with its tweaks.
pub fn install_fonts() {
    #[cfg(target_arch = "wasm32")]
    egui_macroquad::cfg(|ctx| ctx.set_fonts(subset_fonts()));
}

#[cfg(target_arch = "wasm32")]
fn subset_fonts() -> egui_macroquad::egui::FontDefinitions {
    use egui_macroquad::egui::{FontData, FontDefinitions, FontFamily, FontTweak};
    use std::sync::Arc;
    let mut fonts = FontDefinitions::empty();
    let smaller = |scale| FontTweak {
        scale,
        ..Default::default()
    };
    for (name, bytes, tweak) in [
        (
            "Hack",
            &include_bytes!("../../../assets/fonts/Hack-Regular.ttf")[..],
            None,
        ),
        (
            "NotoEmoji-Regular",
            &include_bytes!("../../../assets/fonts/NotoEmoji-Regular.ttf")[..],
            Some(smaller(0.81)),
        ),
        (
            "Ubuntu-Light",
            &include_bytes!("../../../assets/fonts/Ubuntu-Light.ttf")[..],
            None,
        ),
        (
            "emoji-icon-font",
            &include_bytes!("../../../assets/fonts/emoji-icon-font.ttf")[..],
            Some(smaller(0.90)),
        ),
    ] {
        let data = FontData::from_static(bytes);
        let data = match tweak {
            Some(t) => data.tweak(t),
            None => data,
        };
        fonts.font_data.insert(name.to_owned(), Arc::new(data));
    }
    let family = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    fonts.families.insert(
        FontFamily::Monospace,
        family(&[
            "Hack",
            "Ubuntu-Light",
            "NotoEmoji-Regular",
            "emoji-icon-font",
        ]),
    );
    fonts.families.insert(
        FontFamily::Proportional,
        family(&["Ubuntu-Light", "NotoEmoji-Regular", "emoji-icon-font"]),
    );
    fonts
}

/// True in the browser build.
pub const WEB: bool = cfg!(target_arch = "wasm32");

/// Gives `text` to the user under `path`'s name: a file written atomically
/// on the desktop, a download in the browser. Returns the status line.
pub fn deliver(path: &Path, text: &str) -> Result<String, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        crate::scene::write_text(path, text)
            .map(|()| format!("saved {}", path.display()))
            .map_err(|e| format!("not saved: {e}"))
    }
    #[cfg(target_arch = "wasm32")]
    {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "catenary.ron".into());
        crate::web::download(&name, text);
        Ok(format!("downloaded {name}"))
    }
}

/// The `.ron` files in `dir`, sorted (none in the browser).
pub fn scene_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
}

/// Signals when the watched file was written, replaced or created.
#[cfg(not(target_arch = "wasm32"))]
pub struct FileWatcher {
    _watcher: notify::RecommendedWatcher,
    changes: std::sync::mpsc::Receiver<()>,
}

#[cfg(not(target_arch = "wasm32"))]
impl FileWatcher {
    /// Watches `file`. Its folder is watched, because editors often save
    /// by writing a new file and renaming it over the old one.
    pub fn new(file: &Path) -> notify::Result<Self> {
        let file: PathBuf = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
        let name = file.file_name().map(|n| n.to_os_string());
        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let (tx, changes) = std::sync::mpsc::channel();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                let Ok(event) = event else { return };
                let ours = event.paths.iter().any(|p| p.file_name() == name.as_deref());
                if ours && (event.kind.is_modify() || event.kind.is_create()) {
                    let _ = tx.send(());
                }
            })?;
        use notify::Watcher as _;
        watcher.watch(&dir, notify::RecursiveMode::NonRecursive)?;
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

/// No files to watch in the browser: the scene editor applies changes.
#[cfg(target_arch = "wasm32")]
pub struct FileWatcher;

#[cfg(target_arch = "wasm32")]
impl FileWatcher {
    /// Always refused: the browser has no files.
    pub fn new(_: &Path) -> Result<Self, &'static str> {
        Err("the browser has no files: edit the scene in the scene editor")
    }

    /// Never changes.
    pub fn changed(&self) -> bool {
        false
    }
}

/// The scene of a shared link (`#scene=…`), in the browser.
pub fn linked_scene() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        crate::web::fragment_scene()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// Puts `scene_text` in a link (browser only); the status line.
pub fn share(scene_text: &str) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        crate::web::share(scene_text);
        format!(
            "the address bar holds a link with this setup ({} characters); \
             it is on the clipboard too if the browser allowed it",
            scene_text.len()
        )
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = scene_text;
        "links are for the browser build; use Save as".into()
    }
}

/// True when the page was opened with `?test` (the browser test's hook;
/// never on the desktop, whose tests use `--dump-state`).
pub fn test_mode() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        crate::web::test_mode()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        false
    }
}

/// Shows the test hook's report line: in the page title.
pub fn report(line: &str) {
    #[cfg(target_arch = "wasm32")]
    crate::web::set_title(line);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = line;
}
