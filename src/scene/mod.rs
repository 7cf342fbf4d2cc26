//! Scene files (RON, DESIGN.md §3) ⇄ solver worlds.
//!
//! All validation of user input lives here: a [`Scene`] that [`parse`]
//! returns always builds a world without panicking, and every problem is
//! reported as a [`SceneError`] naming the file, line:column where the
//! parser has one, the field and the accepted range.

mod build;
mod error;
mod schema;
mod validate;

pub use error::{SceneError, SceneErrors};
pub use schema::*;
pub use validate::{MAX_PARTICLES, resolve_index};

use std::path::{Path, PathBuf};

use ron::extensions::Extensions;

use crate::solver::{Shape, World};

fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES)
}

/// Parses and validates scene text; `path` is only used in messages.
pub fn parse(text: &str, path: &Path) -> Result<Scene, SceneErrors> {
    let scene: Scene = ron_options().from_str(text).map_err(|e| {
        SceneErrors(vec![SceneError::Parse {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        }])
    })?;
    scene.validate(path)?;
    Ok(scene)
}

/// Reads, parses and validates a scene file.
pub fn load(path: &Path) -> Result<Scene, SceneErrors> {
    let text = std::fs::read_to_string(path).map_err(|source| {
        SceneErrors(vec![SceneError::Io {
            path: path.to_path_buf(),
            action: "cannot read",
            source,
        }])
    })?;
    parse(&text, path)
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
        let problems = validate::validate(self);
        if problems.is_empty() {
            return Ok(());
        }
        Err(SceneErrors(
            problems
                .into_iter()
                .map(|(field, message)| SceneError::Invalid {
                    path: path.to_path_buf(),
                    field,
                    message,
                })
                .collect(),
        ))
    }

    /// Copies what can change at run time — solver settings, pins and
    /// self-collision switches —
    /// from `world` (built from this scene) into the scene, so saving keeps
    /// a user's edits.
    pub fn capture(&mut self, world: &World) {
        self.solver = SolverDef::from(&world.settings);
        self.solver.body_collisions = world.body_collisions();
        for (b, (def, body)) in self.bodies.iter_mut().zip(&world.bodies).enumerate() {
            let pinned = body.range().filter(|&i| world.particles.is_pinned(i));
            match (def, &body.shape) {
                (BodyDef::Rope(r), _) => {
                    r.pins = pinned.map(|i| (i - body.first) as i64).collect();
                    r.self_collision = world.self_collision(b);
                }
                (BodyDef::Cloth(c), Shape::Cloth { columns, .. }) => {
                    c.self_collision = world.self_collision(b);
                    c.pins = pinned
                        .map(|i| i - body.first)
                        .map(|i| ((i / columns) as i64, (i % columns) as i64))
                        .collect();
                }
                (BodyDef::Mesh(m), _) => {
                    for (k, p) in m.particles.iter_mut().enumerate() {
                        p.pinned = world.particles.is_pinned(body.first + k);
                    }
                }
                (BodyDef::Cloth(_), _) => unreachable!("cloth bodies have cloth shapes"),
            }
        }
    }

    /// The scene as RON text, in the same format [`parse`] reads.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .extensions(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_VARIANT_NEWTYPES);
        let text = ron::ser::to_string_pretty(self, config)
            .expect("scene types always serialise: no maps with non-string keys");
        // Nested structs are written anonymous, `(...)`, as in the docs;
        // only the outermost one is named.
        let mut out = String::with_capacity(text.len() + 8);
        let mut named = false;
        for line in text.lines() {
            if !named && line.starts_with('(') {
                out.push_str("Scene");
                named = true;
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

/// Writes `scene` to `path` atomically: a temp file beside it, then a rename,
/// so a crash never leaves half a file.
pub fn save(path: &Path, scene: &Scene) -> Result<(), SceneError> {
    let io_err = |action, source| SceneError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let mut tmp = PathBuf::from(path);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    tmp.set_file_name(name);
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&tmp).map_err(|e| io_err("cannot write", e))?;
        f.write_all(scene.to_ron().as_bytes())
            .and_then(|_| f.sync_all())
            .map_err(|e| io_err("cannot write", e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| io_err("cannot rename the temp file onto", e))
}
