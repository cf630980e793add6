//! Quick fixes for one finding: its own fixes, and for an unindexed heading also its entry with the shortest unique key.

use crate::edit::{Applicability, Fix};
use crate::model::Workspace;
use crate::rules::{Finding, Rule};

/// Every fix offered for `f`, safe ones first as the rule listed them.
pub fn fixes(ws: &Workspace, f: &Finding) -> Vec<Fix> {
    let mut out = crate::rules::fixes(ws, f).into_owned();
    if f.rule == Rule::UnindexedHeading {
        out.extend(compressed_entry_fix(ws, f));
    }
    out
}

/// "Add entry with its short key": the full trigger (binding is exact) with the
/// `compress-key` suggestion as an extra.
fn compressed_entry_fix(ws: &Workspace, f: &Finding) -> Option<Fix> {
    let d = ws.file(f.file)?.decision()?;
    let idx = d.headings.iter().position(|h| h.title_range == f.range)?;
    let hid = crate::model::HeadingId { file: f.file, idx: idx as u32 };
    let (op, key) = super::compress::compress_heading(ws, hid)?;
    let full = crate::rules::placement::trigger_from_title(&d.headings[idx].title)?.1;
    if key == full {
        return None;
    }
    // Binding is exact, so the full trigger stays; the short key becomes an extra.
    let line = format!("{} {full} | {key}", op.token());
    let edit = crate::rules::placement::insert_entry(ws, hid, &line)?;
    Some(Fix::new(
        format!("Add `{line}` to the index (with its shortest unique key)"),
        Applicability::Suggestion,
        &ws.config().index,
        vec![edit],
    ))
}
