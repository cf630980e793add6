//! Remembering a decision on disk: under the memory's lock, load, plan (`ide::remember`), write the decision file then the index, and undo what did not land.
//!
//! Every front end that writes a decision (the CLI's `remember`, the MCP
//! tool) calls [`remember`]. Under the lock the workspace is loaded afresh,
//! so the plan is made from what the previous writer left: twenty
//! `remember`s at once all land, one after the other. The decision file is
//! written first, then the index; when the index cannot be written the
//! decision file is put back (a file this run created is removed only if it
//! still holds exactly what was written). A run killed between the two
//! writes leaves a heading without its entry: running the same `remember`
//! again completes it (`ide::remember` plans only the entry), and `check`
//! reports the heading as `unindexed-heading` with the entry as its fix.
//! When another program changes either file meanwhile, the plan is made
//! again from the new content; after [`ATTEMPTS`] the run gives up and says
//! so. Success is reported only after both files were read back as planned.

use std::path::Path;

use super::write::{self, WriteError};
use super::{load, lock};
use crate::ide::remember::{self, Plan, Request};

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

/// Plans `req` on the project at `root` and, unless `dry_run`, writes it
/// under the memory's lock. Ok is the plan that was written (or would be).
pub fn remember(root: &Path, req: &Request, dry_run: bool) -> Result<Plan, Refusal> {
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
        if dry_run {
            return Ok(plan);
        }
        match write_plan(root, &plan) {
            Ok(()) => return Ok(plan),
            Err(WriteError::Changed) => continue,
            Err(WriteError::Refused(why)) => return Err(Refusal::Refused(why)),
        }
    }
    Err(Refusal::Refused(format!(
        "the index or the decision file kept changing ({ATTEMPTS} attempts); run it again when the other program is done"
    )))
}

/// Writes a plan under `root` (the caller holds the lock): the decision file
/// first, then the index, then reads both back. `Changed` when either file
/// is no longer what the plan read (nothing of the plan is left written).
fn write_plan(root: &Path, plan: &Plan) -> Result<(), WriteError> {
    let decision = root.join(&plan.decision_path);
    let decision_changes = plan.decision_old.as_deref() != Some(plan.decision_new.as_str());
    if decision_changes {
        if let Some(dir) = decision.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| WriteError::Refused(format!("cannot create {}: {e}", dir.display())))?;
        }
        let wrote = match &plan.decision_old {
            Some(old) => write::replace(&decision, old, &plan.decision_new),
            None => write::create(&decision, &plan.decision_new),
        };
        wrote.map_err(|e| match e {
            WriteError::Changed => WriteError::Changed,
            e => WriteError::Refused(format!("cannot write {}: {e}", plan.decision_path)),
        })?;
        crash_point("decision-written");
    }
    if let Err(e) = write::replace(&root.join(&plan.index_path), &plan.index_old, &plan.index_new) {
        let restored = !decision_changes
            || match &plan.decision_old {
                Some(old) => write::replace(&decision, &plan.decision_new, old).is_ok(),
                None => write::remove_if_unchanged(&decision, &plan.decision_new).is_ok(),
            };
        if matches!(e, WriteError::Changed) && restored {
            return Err(WriteError::Changed);
        }
        let state = if restored {
            "put back as it was".to_string()
        } else {
            "left with the new section (another program changed it too): run the same command again to add its entry"
                .to_string()
        };
        return Err(WriteError::Refused(format!(
            "cannot write {}: {e}; {} {state}",
            plan.index_path, plan.decision_path
        )));
    }
    crash_point("index-written");
    // Read back: the new entry must resolve to the new heading on disk.
    let landed = load::load(root).is_ok_and(|ws| remember::landed(&ws, plan));
    if !landed {
        return Err(WriteError::Refused(format!(
            "{} and {} were written, but another program changed them right after and `{}` no longer \
             resolves to the new decision; run `memory-index-lsp check`",
            plan.decision_path, plan.index_path, plan.entry
        )));
    }
    Ok(())
}

/// Test builds only: `MEMORY_INDEX_LSP_CRASH_AT=NAME` kills the process at
/// the point named, as a power cut or `kill -9` would (the kill tests of
/// `tests/it/remember_faults.rs`). Release builds have no such point.
fn crash_point(name: &str) {
    #[cfg(debug_assertions)]
    if std::env::var("MEMORY_INDEX_LSP_CRASH_AT").is_ok_and(|v| v == name) {
        std::process::abort();
    }
    let _ = name;
}
