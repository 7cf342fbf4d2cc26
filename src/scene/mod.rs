//! Scene files (RON, DESIGN.md §3) ⇄ solver worlds.
//!
//! All validation of user input lives here: a [`Scene`] that [`parse`]
//! returns always builds a world without panicking, and every problem is
//! reported as a [`SceneError`] naming the file, line:column where the
//! parser has one, the field and the accepted range.

mod bodies;
mod build;
mod builder;
mod builtin;
mod capture;
mod error;
mod joints;
mod locate;
mod meshes;
mod output;
mod schema;
mod validate;

pub use bodies::Facts;
pub use builder::bench_cloth;
pub use builtin::{BUILTIN, DEFAULT_SCENE, builtin};
pub use error::{MAX_REPORTED, SceneError, SceneErrors};
pub use output::{TempFile, remove_unfinished};
pub use schema::*;
pub use validate::{MAX_COLLIDERS, MAX_PARTICLES, resolve_index};

use std::path::Path;

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
        let (line, column) = (e.span.start.line, e.span.start.col);
        let message = match e.code {
            // The parser names neither the field nor what it accepts.
            ron::Error::IntegerOutOfBounds => {
                let fields = locate::Fields::of(text);
                match fields.at((line, column)) {
                    Some(field) => format!(
                        "{field}: the number is out of range: accepted {}",
                        validate::whole_number_range(field)
                    ),
                    None => e.code.to_string(),
                }
            }
            code => code.to_string(),
        };
        SceneErrors(vec![SceneError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message,
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
    let bytes = std::fs::read(path).map_err(fail)?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        // Valid up to there, so a str: its lines and characters.
        let good = std::str::from_utf8(good).unwrap_or_default();
        let line = good.matches('\n').count() + 1;
        let column = good.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        SceneErrors(vec![SceneError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "not UTF-8 text: byte 0x{:02x} (save the file as UTF-8)",
                e.as_bytes()[good.len()]
            ),
        }])
    })?;
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

    /// Every problem of [`Scene::validate`] as (field, message), each
    /// field path starting with `prefix` (a scene inside a recording).
    #[cfg(feature = "cli")]
    pub(crate) fn problems(&self, prefix: &str) -> Vec<(String, String)> {
        validate::validate(self)
            .into_iter()
            .map(|(field, message)| (format!("{prefix}{field}"), message))
            .collect()
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
