//! The findings of a workspace state, computed once (one caller at a time) and updated after an index splice.

use super::{check, incremental, Finding};
use crate::model::{Depends, Workspace};

/// The findings of `ws` ([`check`](super::check)), computed once per state of its index and
/// decision files (what the language server's handlers share).
///
/// After an index edit that kept the index's line structure (a splice, see
/// [`crate::model::splice`]) the previous findings are updated instead: only
/// what the changed entries can affect is re-checked (`rules/incremental.rs`).
///
/// One check at a time per state: a second caller (a client's pull beside
/// the publisher, both off the server's lock) waits for the first's
/// findings rather than computing them again on the same two cores.
pub fn findings(ws: &Workspace) -> std::sync::Arc<Vec<Finding>> {
    if let Some(found) = ws.built::<Vec<Finding>>(Depends::IndexAndDecisions) {
        return found;
    }
    let gate = ws.cached(Depends::IndexAndDecisions, |_| FindingsGate::default());
    let _one = gate.0.lock().unwrap_or_else(|p| p.into_inner());
    ws.cached(Depends::IndexAndDecisions, |ws| {
        let found = incremental::update(ws).unwrap_or_else(|| check(ws));
        // What the next splice's re-check starts from.
        let _ = incremental::EntryClasses::of(ws);
        found
    })
}

/// Held while one caller computes a state's [`findings`].
#[derive(Default)]
struct FindingsGate(std::sync::Mutex<()>);

/// Whether [`findings`] of `ws` costs little now: they were computed, or
/// the last change was an index splice from a state whose findings were
/// (a re-check of what it touched). Anything else is a full check (at
/// 100,000 entries, about a tenth of a second): the language server runs
/// those off its state's lock.
pub fn findings_cheap(ws: &Workspace) -> bool {
    ws.built::<Vec<Finding>>(Depends::IndexAndDecisions).is_some()
        || ws.index_splice().is_some_and(|sp| sp.base::<Vec<Finding>>().is_some())
}
