//! Applying a change to disk: each file of a `SourceChange` written through the safe writer, created files first, each only if it is still the text the change was made from; when one cannot be written, those already written are put back.
//!
//! The caller holds the memory's lock ([`super::lock`]) and made the change
//! from `base`, the workspace it loaded under that lock. A file the other
//! program changed meanwhile stops the write with [`WriteError::Changed`]
//! after everything written before it was put back (the caller loads again
//! and starts over); a file created by this change is removed only if it
//! still holds exactly what was written. When something cannot be put back
//! the error says which file was left with the new text.

use std::path::Path;

use super::write::{self, WriteError};
use crate::edit::{self, SourceChange};
use crate::model::Workspace;

/// What one file looked like before and after, to put it back.
enum Done {
    Created { path: String, text: String },
    Replaced { path: String, old: String, new: String },
}

/// Writes `change` (made from `base`) under `root`.
pub fn apply(root: &Path, base: &Workspace, change: &SourceChange) -> Result<(), WriteError> {
    let canon = std::fs::canonicalize(root).map_err(|e| WriteError::Refused(format!("{}: {e}", root.display())))?;
    let mut done: Vec<Done> = Vec::new();
    let mut step = || -> Result<(), (String, WriteError)> {
        for c in &change.creates {
            let path = root.join(&c.path);
            if let Some(dir) = path.parent() {
                write::ensure_dir_inside(&canon, dir).map_err(|e| (c.path.clone(), e))?;
            }
            write::create(&path, &c.text).map_err(|e| (c.path.clone(), e))?;
            done.push(Done::Created { path: c.path.clone(), text: c.text.clone() });
            crash_point(done.len());
        }
        for e in change.edits.iter().filter(|e| !e.edits.is_empty()) {
            let old = match base.file_id(&e.path).and_then(|id| base.file(id)) {
                Some(f) if f.problem.is_none() => f.text.to_string(),
                Some(_) => return Err((e.path.clone(), WriteError::Refused("it could not be read as text".into()))),
                None => return Err((e.path.clone(), WriteError::Refused("it is not in the workspace".into()))),
            };
            let (new, _) = edit::apply(&old, &e.edits);
            if new == old {
                continue;
            }
            write::replace(&root.join(&e.path), &old, &new).map_err(|err| (e.path.clone(), err))?;
            done.push(Done::Replaced { path: e.path.clone(), old, new });
            crash_point(done.len());
        }
        Ok(())
    };
    let Err((failed, err)) = step() else { return Ok(()) };
    let mut left = Vec::new();
    for d in done.iter().rev() {
        let (path, back) = match d {
            Done::Created { path, text } => (path, write::remove_if_unchanged(&root.join(path), text)),
            Done::Replaced { path, old, new } => (path, write::replace(&root.join(path), new, old)),
        };
        if back.is_err() {
            left.push(path.as_str());
        }
    }
    match (err, left.is_empty()) {
        (WriteError::Changed, true) => Err(WriteError::Changed),
        (err, true) if done.is_empty() => Err(WriteError::Refused(format!("cannot write {failed}: {err}"))),
        (err, true) => {
            Err(WriteError::Refused(format!("cannot write {failed}: {err}; the files written before it were put back")))
        }
        (err, false) => Err(WriteError::Refused(format!(
            "cannot write {failed}: {err}; {} kept the new text (another program changed it too): run the same command \
             again to complete it",
            left.join(", ")
        ))),
    }
}

/// Test builds only: `MEMORY_INDEX_LSP_CRASH_AT=after-file-N` kills the
/// process right after the change's N-th file is written, as a power cut or
/// `kill -9` would (the kill tests in `tests/it/agent_faults.rs`). Release
/// builds have no such point.
fn crash_point(written: usize) {
    #[cfg(debug_assertions)]
    if std::env::var("MEMORY_INDEX_LSP_CRASH_AT").is_ok_and(|v| v == format!("after-file-{written}")) {
        std::process::abort();
    }
    let _ = written;
}
