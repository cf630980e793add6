//! Remembering a decision on disk: under the memory's lock, load, plan (`recall::remember`), write the decision file then the index, and undo what did not land.
//!
//! Every front end that writes a decision (the CLI's `remember`, the MCP
//! tool) calls [`remember`]. Under the lock the workspace is loaded afresh,
//! so the plan is made from what the previous writer left: twenty
//! `remember`s at once all land, one after the other. The decision file is
//! written first, then the index; when the index cannot be written the
//! decision file is put back (a file this run created is removed only if it
//! still holds exactly what was written). A run killed between the two
//! writes leaves a heading without its entry: running the same `remember`
//! again completes it (`recall::remember` plans only the entry), and `check`
//! reports the heading as `unindexed-heading` with the entry as its fix.
//! When another program changes either file meanwhile, the plan is made
//! again from the new content; after [`ATTEMPTS`] the run gives up and says
//! so. Success is reported only after the files were read back and the new
//! entry resolves to the new heading. The writing itself, with its undo, is
//! [`change::apply`]'s.

use std::path::Path;

use super::write::WriteError;
use super::{change, diff, load, lock};
use crate::recall::remember::{self, Plan, Request};

/// How many times a writer starts over when a file changes under it.
pub const ATTEMPTS: usize = 5;

/// Largest body accepted (bytes), from any front end.
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// Why nothing was remembered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The project could not be loaded (a usage error: exit 2).
    Project(String),
    /// Refused or failed, with what to do (exit 1).
    Refused(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Project(why) | Refusal::Refused(why) => write!(f, "{why}"),
        }
    }
}

/// What was remembered (or would be): the plan, and its diff against the files as they were read.
#[derive(Debug, Clone)]
pub struct Remembered {
    pub plan: Plan,
    pub diff: String,
}

/// Plans `req` on the project at `root` and, unless `dry_run`, writes it
/// under the memory's lock.
pub fn remember(root: &Path, req: &Request, dry_run: bool) -> Result<Remembered, Refusal> {
    if req.body.len() > MAX_BODY_BYTES {
        return Err(Refusal::Refused(format!(
            "the body has {} bytes, over the limit of {MAX_BODY_BYTES} bytes (1 MiB); keep the decision short and \
             link to longer documents",
            req.body.len()
        )));
    }
    let _lock = if dry_run { None } else { Some(lock::acquire(root).map_err(Refusal::Refused)?) };
    for _ in 0..ATTEMPTS {
        let ws = load::load(root).map_err(|e| Refusal::Project(e.to_string()))?;
        let plan = remember::plan(&ws, req).map_err(Refusal::Refused)?;
        let diff = diff::change(&ws, &plan.change);
        if dry_run {
            return Ok(Remembered { plan, diff });
        }
        match change::apply(root, &ws, &plan.change) {
            Ok(()) => {}
            Err(WriteError::Changed) => continue,
            Err(WriteError::Refused(why)) => return Err(Refusal::Refused(why)),
        }
        // Read back: the new entry must resolve to the new heading on disk.
        if !load::load(root).is_ok_and(|now| remember::landed(&now, &plan)) {
            return Err(Refusal::Refused(format!(
                "{} and {} were written, but another program changed them right after and `{}` no longer \
                 resolves to the new decision; run `memory-index-lsp check`",
                plan.decision_path, plan.index_path, plan.entry
            )));
        }
        return Ok(Remembered { plan, diff });
    }
    Err(Refusal::Refused(format!(
        "the index or the decision file kept changing ({ATTEMPTS} attempts); run it again when the other program is done"
    )))
}
