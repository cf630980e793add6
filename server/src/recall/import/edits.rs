//! The edits an import plans per decision file, and its refusal when they would add errors.

use super::super::remember::added_findings;
use crate::edit;
use crate::model::Workspace;
use crate::rules::Severity;

/// Edits per decision file: its path, its text as read (None: new) and the edits to it, all against that text.
pub(super) type Edits = Vec<(String, Option<String>, Vec<edit::TextEdit>)>;

/// Adds `e` to the edits of `path` (its text as read from `old` when it has none yet).
pub(super) fn add_edit(edits: &mut Edits, path: &str, old: impl FnOnce() -> Option<String>, e: edit::TextEdit) {
    match edits.iter_mut().find(|x| x.0 == path) {
        Some(x) => x.2.push(e),
        None => edits.push((path.to_string(), old(), vec![e])),
    }
}

/// Refuses when `next` has more error-severity findings of a rule in a file than `ws`.
pub(super) fn new_errors(ws: &Workspace, next: &Workspace) -> Result<(), String> {
    let added = added_findings(ws, next, Severity::Error);
    if added.is_empty() {
        Ok(())
    } else {
        Err(format!("importing would add {} error(s); nothing was written:\n  {}", added.len(), added.join("\n  ")))
    }
}
