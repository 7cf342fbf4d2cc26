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
    #[error("{path}{place}: {field}: {message}", path = .path.display(), place = place(*.at))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based (line, column) of the field, or of the nearest enclosing
        /// value written when the field is left to its default; None when
        /// the scene did not come from text.
        at: Option<(usize, usize)>,
        /// Path of the field, e.g. `bodies[0].segments`.
        field: String,
        /// What was found and what is accepted.
        message: String,
    },
    /// More problems than are worth listing: the first
    /// [`MAX_REPORTED`] are, this counts the rest.
    #[error("{path}: and {more} more problems (the first {MAX_REPORTED} are listed)", path = .path.display())]
    More {
        /// The file.
        path: PathBuf,
        /// Problems not listed.
        more: usize,
    },
}

/// Problems listed per file; past it, [`SceneError::More`] counts the
/// rest. A file with thousands of bad values reports at once (placing each
/// costs a lookup) and a person reads the first ones anyway.
pub const MAX_REPORTED: usize = 100;

/// Every problem found in one scene file (at least one).
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct SceneErrors(pub Vec<SceneError>);

/// ":line:column" of a place, or nothing.
fn place(at: Option<(usize, usize)>) -> String {
    at.map(|(line, column)| format!(":{line}:{column}"))
        .unwrap_or_default()
}

impl SceneErrors {
    /// Ok when `problems` — (field, what is accepted) — is empty, else
    /// one [`SceneError::Invalid`] per problem, in `path`.
    pub fn check(path: &std::path::Path, problems: Vec<(String, String)>) -> Result<(), Self> {
        Self::check_in(path, None, problems)
    }

    /// [`Self::check`] of a value read from `text`: each problem names
    /// the line:column of its field there.
    pub fn check_in(
        path: &std::path::Path,
        text: Option<&str>,
        problems: Vec<(String, String)>,
    ) -> Result<(), Self> {
        if problems.is_empty() {
            return Ok(());
        }
        let fields = text.map(super::locate::Fields::of);
        let more = problems.len().saturating_sub(MAX_REPORTED);
        let mut errors: Vec<SceneError> = problems
            .into_iter()
            .take(MAX_REPORTED)
            .map(|(field, message)| SceneError::Invalid {
                path: path.to_path_buf(),
                at: fields.as_ref().and_then(|f| f.locate(&field)),
                field,
                message,
            })
            .collect();
        if more > 0 {
            errors.push(SceneError::More {
                path: path.to_path_buf(),
                more,
            });
        }
        Err(Self(errors))
    }
}
