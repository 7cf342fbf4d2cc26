//! Output files written whole or not at all.
//!
//! A [`TempFile`] is created exclusively (`O_EXCL`, by the `tempfile`
//! crate) under an unpredictable name beside its target — a planted
//! symlink or a user's own `x.csv.tmp` is never followed, truncated or
//! deleted, and two runs writing one target at once each write their own
//! file — and renamed onto the target when complete, so the target is
//! always one run's whole output. A target that exists and is not a
//! regular file (`/dev/null`, a FIFO, a terminal) is written directly:
//! renaming over it would replace the device with a file.
//!
//! Every temp file not yet renamed is listed, so that a program stopped by
//! a signal can remove them ([`remove_unfinished`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::SceneError;

/// Temp files created and not yet renamed or removed; None once
/// [`remove_unfinished`] ran (the program is ending: no new ones).
static UNFINISHED: Mutex<Option<Vec<PathBuf>>> = Mutex::new(Some(Vec::new()));

/// Removes every temp file not yet renamed onto its target and refuses
/// new ones; for a signal handler, just before the program exits.
pub fn remove_unfinished() {
    let mut list = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
    for path in list.take().unwrap_or_default() {
        let _ = std::fs::remove_file(path);
    }
}

fn unlist(path: &Path) {
    let mut list = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(list) = list.as_mut() {
        list.retain(|p| p != path);
    }
}

/// Where the bytes go.
#[derive(Debug)]
enum Sink {
    /// A temp file beside the target, renamed onto it by `commit`.
    Temp(tempfile::NamedTempFile),
    /// The target itself, a device or FIFO.
    Direct(std::fs::File),
    /// Committed.
    Done,
}

/// A file written beside `target` and renamed onto it by
/// [`TempFile::commit`]; dropped without a commit, it removes itself (see
/// the module doc).
#[derive(Debug)]
pub struct TempFile {
    sink: Sink,
    target: PathBuf,
}

impl TempFile {
    /// Creates the temp file for `target`; refuses an empty path, a path
    /// ending in `/` and an existing directory up front.
    pub fn create(target: &Path) -> Result<Self, SceneError> {
        let fail = |source| SceneError::Io {
            path: target.to_path_buf(),
            action: "cannot write",
            source,
        };
        let refuse = |why: &str| {
            fail(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                why.to_string(),
            ))
        };
        let text = target.as_os_str().to_string_lossy();
        if text.trim().is_empty() {
            return Err(refuse("no file name given"));
        }
        if text.ends_with('/') || target.is_dir() {
            return Err(refuse("it is a directory, not a file name"));
        }
        let Some(name) = target.file_name() else {
            return Err(refuse("no file name given"));
        };
        if let Ok(meta) = std::fs::metadata(target)
            && !meta.is_file()
        {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(target)
                .map_err(fail)?;
            return Ok(Self {
                sink: Sink::Direct(file),
                target: target.to_path_buf(),
            });
        }
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut list = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = list.as_mut() else {
            return Err(refuse("the program is ending"));
        };
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // As a plain `create` would: rw for all, less the umask (the crate's
        // default is owner-only).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let file = builder.tempfile_in(dir).map_err(fail)?;
        list.push(file.path().to_path_buf());
        Ok(Self {
            sink: Sink::Temp(file),
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
        match std::mem::replace(&mut self.sink, Sink::Done) {
            Sink::Temp(file) => {
                let path = file.path().to_path_buf();
                // Renamed, or removed when `file` drops on an error.
                let done = (file.as_file().sync_all())
                    .map_err(|e| io_err("cannot write", e))
                    .and_then(|()| {
                        (file.persist(&self.target).map(drop))
                            .map_err(|e| io_err("cannot rename the temp file onto", e.error))
                    });
                unlist(&path);
                done
            }
            Sink::Direct(mut file) => {
                std::io::Write::flush(&mut file).map_err(|e| io_err("cannot write", e))
            }
            Sink::Done => Ok(()),
        }
    }

    fn file(&mut self) -> &mut std::fs::File {
        match &mut self.sink {
            Sink::Temp(f) => f.as_file_mut(),
            Sink::Direct(f) => f,
            Sink::Done => unreachable!("a TempFile is not written after its commit"),
        }
    }
}

impl std::io::Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file().flush()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Sink::Temp(file) = std::mem::replace(&mut self.sink, Sink::Done) {
            let path = file.path().to_path_buf();
            drop(file); // removes it
            unlist(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("catenary-out-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_planted_tmp_name_is_neither_followed_nor_removed() {
        let dir = scratch("planted");
        let victim = dir.join("victim");
        std::fs::write(&victim, "keep me").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&victim, dir.join("x.csv.tmp")).unwrap();
        std::fs::write(dir.join(".x.csv.tmp"), "mine").unwrap();
        let mut f = TempFile::create(&dir.join("x.csv")).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(dir.join("x.csv")).unwrap(), "new");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
        assert_eq!(
            std::fs::read_to_string(dir.join(".x.csv.tmp")).unwrap(),
            "mine"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_uncommitted_file_leaves_nothing_and_the_target_untouched() {
        let dir = scratch("dropped");
        std::fs::write(dir.join("x.csv"), "old").unwrap();
        let mut f = TempFile::create(&dir.join("x.csv")).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        assert_eq!(std::fs::read_to_string(dir.join("x.csv")).unwrap(), "old");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_in_place_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch("fifo");
        let fifo = dir.join("pipe");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let mut f = TempFile::create(&fifo).unwrap();
        f.write_all(b"through").unwrap();
        f.commit().unwrap();
        assert_eq!(reader.join().unwrap(), "through");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
