//! Scene errors: each names the file, the place (line:column where the
//! parser knows it), the field and what is accepted.

use std::path::PathBuf;

/// One problem with a scene file.
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read or written.
    #[error("{path}: {action}: {source}", path = .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// "cannot read", "cannot write", …
        action: &'static str,
        /// The OS error.
        source: std::io::Error,
    },
    /// RON syntax or a type/field the format does not have.
    #[error("{path}:{line}:{column}: {message}", path = .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A value outside its accepted range.
    #[error("{path}: {field}: {message}", path = .path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Path of the field, e.g. `bodies[0].segments`.
        field: String,
        /// What was found and what is accepted.
        message: String,
    },
}

/// Every problem found in one scene file (at least one).
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct SceneErrors(pub Vec<SceneError>);

impl SceneErrors {
    /// Ok when `problems` — (field, what is accepted) — is empty, else
    /// one [`SceneError::Invalid`] per problem, in `path`.
    pub fn check(path: &std::path::Path, problems: Vec<(String, String)>) -> Result<(), Self> {
        if problems.is_empty() {
            return Ok(());
        }
        Err(Self(
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
}
