//! Scene files (RON, DESIGN.md §3) ⇄ solver worlds.
//!
//! All validation of user input lives here: a [`Scene`] that [`parse`]
//! returns always builds a world without panicking, and every problem is
//! reported as a [`SceneError`] naming the file, line:column where the
//! parser has one, the field and the accepted range.

mod build;
mod builtin;
mod capture;
mod error;
mod locate;
mod meshes;
mod schema;
mod solid;
mod validate;

pub use builtin::{BUILTIN, DEFAULT_SCENE, builtin};
pub use error::{SceneError, SceneErrors};
pub use schema::*;
pub use solid::{BalloonDef, SoftBoxDef};
pub use validate::{MAX_PARTICLES, resolve_index};

use std::path::{Path, PathBuf};

use ron::extensions::Extensions;

use crate::solver::World;

/// The RON options of every file catenary reads (`implicit_some`, so an
/// `Option` takes a bare value).
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// Parses and validates scene text; `path` is only used in messages.
pub fn parse(text: &str, path: &Path) -> Result<Scene, SceneErrors> {
    let scene: Scene = from_ron(text, path)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    SceneErrors::check_in(path, Some(text), validate::validate(&scene))?;
    Ok(scene)
}

/// Reads RON text of catenary's formats (a scene, a recording), without
/// validating it; a syntax error names `path`, line and column.
pub fn from_ron<T: serde::de::DeserializeOwned>(text: &str, path: &Path) -> Result<T, SceneErrors> {
    // Editors on some systems start UTF-8 files with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    ron_options().from_str(text).map_err(|e| {
        SceneErrors(vec![SceneError::Parse {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        }])
    })
}

/// Largest scene file read (bytes): far more than the 2,000,000-particle
/// limit needs, and a bound on what a mistaken path (`/dev/zero`) can cost.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads, parses and validates a scene file: a regular file of at most
/// [`MAX_FILE_BYTES`] (a FIFO or device would block or never end).
pub fn load(path: &Path) -> Result<Scene, SceneErrors> {
    parse(&read_text(path)?, path)
}

/// The text of a regular file of at most [`MAX_FILE_BYTES`] (a FIFO or a
/// device would block or never end).
pub fn read_text(path: &Path) -> Result<String, SceneErrors> {
    let fail = |source: std::io::Error| {
        SceneErrors(vec![SceneError::Io {
            path: path.to_path_buf(),
            action: "cannot read",
            source,
        }])
    };
    let meta = std::fs::metadata(path).map_err(fail)?;
    let invalid = |why: String| fail(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
    if !meta.is_file() {
        return Err(invalid("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(invalid(format!(
            "{} bytes: files of at most {MAX_FILE_BYTES} bytes are read",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path).map_err(fail)?;
    // Editors on some systems start UTF-8 files with a byte-order mark.
    Ok(text
        .strip_prefix('\u{feff}')
        .map(str::to_string)
        .unwrap_or(text))
}

/// `value` as RON in the format catenary reads: the outermost struct named
/// (`Scene(...)`, `Recording(...)`), nested ones anonymous as in the docs.
pub fn to_ron_text<T: serde::Serialize>(value: &T, name: &str) -> String {
    let config = ron::ser::PrettyConfig::new()
        // Deeper than a body definition's own lists (a state's positions,
        // a mesh's particles), one item per line rather than one number.
        .depth_limit(4)
        .extensions(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES);
    let text = ron::ser::to_string_pretty(value, config)
        .expect("catenary's file types always serialise: no maps with non-string keys");
    let mut out = String::with_capacity(text.len() + name.len());
    let mut named = false;
    for line in text.lines() {
        if !named && line.starts_with('(') {
            out.push_str(name);
            named = true;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

impl Scene {
    /// The solver world this scene describes.
    ///
    /// # Panics
    /// If the scene has an index out of range: scenes from [`parse`] and
    /// [`load`] never do; check a scene assembled in code with
    /// [`Scene::validate`] first.
    pub fn build(&self) -> World {
        build::build(self)
    }

    /// Checks every field's range (what [`parse`] does after reading);
    /// `path` is only used in the messages.
    pub fn validate(&self, path: &Path) -> Result<(), SceneErrors> {
        SceneErrors::check(path, validate::validate(self))
    }

    /// The scene as RON text, in the same format [`parse`] reads.
    pub fn to_ron(&self) -> String {
        to_ron_text(self, "Scene")
    }
}

/// Writes `scene` to `path` atomically: a temp file beside it, then a rename,
/// so a crash never leaves half a file, and a failure leaves no temp file.
pub fn save(path: &Path, scene: &Scene) -> Result<(), SceneError> {
    write_text(path, &scene.to_ron())
}

/// Writes `text` to `path` atomically (temp file beside it, then a rename).
pub fn write_text(path: &Path, text: &str) -> Result<(), SceneError> {
    use std::io::Write;
    let mut file = TempFile::create(path)?;
    file.write_all(text.as_bytes())
        .map_err(|source| SceneError::Io {
            path: path.to_path_buf(),
            action: "cannot write",
            source,
        })?;
    file.commit()
}

/// A file written beside `target` as `NAME.tmp` and renamed onto it by
/// [`TempFile::commit`]; dropped without a commit, it removes itself.
#[derive(Debug)]
pub struct TempFile {
    file: Option<std::fs::File>,
    tmp: PathBuf,
    target: PathBuf,
}

impl TempFile {
    /// Creates the temp file for `target`; refuses an empty path, a path
    /// ending in `/` and an existing directory up front.
    pub fn create(target: &Path) -> Result<Self, SceneError> {
        let refuse = |why: &str| SceneError::Io {
            path: target.to_path_buf(),
            action: "cannot write",
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, why.to_string()),
        };
        let text = target.as_os_str().to_string_lossy();
        if text.trim().is_empty() {
            return Err(refuse("no file name given"));
        }
        if text.ends_with('/') || target.is_dir() {
            return Err(refuse("it is a directory, not a file name"));
        }
        let mut name = target.file_name().unwrap_or_default().to_os_string();
        name.push(".tmp");
        let tmp = target.with_file_name(name);
        let file = std::fs::File::create(&tmp).map_err(|source| SceneError::Io {
            path: target.to_path_buf(),
            action: "cannot write",
            source,
        })?;
        Ok(Self {
            file: Some(file),
            tmp,
            target: target.to_path_buf(),
        })
    }

    /// Flushes to disk and renames the temp file onto the target.
    pub fn commit(mut self) -> Result<(), SceneError> {
        let io_err = |action, source| SceneError::Io {
            path: self.target.clone(),
            action,
            source,
        };
        {
            // Closed at the end of the block, before the rename.
            let file = self.file.take().expect("a TempFile is committed once");
            file.sync_all().map_err(|e| io_err("cannot write", e))?;
        }
        std::fs::rename(&self.tmp, &self.target)
            .map_err(|e| io_err("cannot rename the temp file onto", e))?;
        self.tmp = PathBuf::new(); // nothing left to remove
        Ok(())
    }
}

impl std::io::Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        self.file.take();
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
