//! `unindexed-heading`: a semantic `When …`/`How to …` heading that no entry binds.

use super::{mark_structural, placement, q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix};
use crate::model::{HeadingId, Workspace};

pub(crate) const DOC: &str = "A semantic heading (`When …` or `How to …`, level 2 or deeper, not \
`.`-prefixed) has no index entry, so agents can never recall it. Fixes (a choice, never applied by \
fix-all): add the entry derived from the title in the right section at the right place, or mark \
the heading structural (`### .Title`).";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let index_path = ctx.ws.config().index.clone();
    let placer = placement::Placer::new(ctx.ws);
    for (file, src, d) in ctx.ws.decisions().filter(|(f, _, _)| ctx.covers_file(*f)) {
        for (i, h) in d.headings.iter().enumerate() {
            let hid = HeadingId { file, idx: i as u32 };
            if !h.is_semantic() || !ctx.b().entries_of(hid).is_empty() {
                continue;
            }
            let Some((op, trigger)) = placement::trigger_from_title(&h.title) else {
                continue;
            };
            let line = format!("{} {trigger}", op.token());
            let mut f = Finding::new(
                Rule::UnindexedHeading,
                file,
                h.title_range,
                format!("heading {} has no entry in {}; add {}", q(&h.title), q(&index_path), q(&line)),
            );
            if let Some(edit) = placer.as_ref().and_then(|p| p.insert_entry(hid, &line)) {
                f = f.fix(Fix::new(
                    format!("Add {} to the index", q(&line)),
                    Applicability::Suggestion,
                    &index_path,
                    vec![edit],
                ));
            }
            out.push(f.fix(mark_structural(&src.path, h)));
        }
    }
}

/// The message is the one found.
pub(crate) fn message(_: &Workspace, _: &Finding) -> Option<String> {
    None
}

/// The fixes an editor shows: those found, then "add the entry with its
/// shortest unique key" (key compression is too costly to run for every
/// unindexed heading of a check).
pub(crate) fn fixes(ws: &Workspace, f: &Finding) -> Vec<Fix> {
    let mut out = f.fixes.to_vec();
    out.extend(compressed_entry_fix(ws, f));
    out
}

/// "Add entry with its short key": the full trigger (binding is exact) with the
/// `compress-key` suggestion as an extra.
fn compressed_entry_fix(ws: &Workspace, f: &Finding) -> Option<Fix> {
    let d = ws.file(f.file)?.decision()?;
    let idx = d.headings.iter().position(|h| h.title_range == f.range)?;
    let hid = HeadingId { file: f.file, idx: idx as u32 };
    let (op, key) = super::compress::compress_heading(ws, hid)?;
    let full = placement::trigger_from_title(&d.headings[idx].title)?.1;
    if key == full {
        return None;
    }
    // Binding is exact, so the full trigger stays; the short key becomes an extra.
    let line = format!("{} {full} | {key}", op.token());
    let edit = placement::insert_entry(ws, hid, &line)?;
    Some(Fix::new(
        format!("Add `{line}` to the index (with its shortest unique key)"),
        Applicability::Suggestion,
        &ws.config().index,
        vec![edit],
    ))
}
