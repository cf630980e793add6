//! `unindexed-heading`: a semantic `When …`/`How to …` heading that no entry binds.

use super::incremental::EntryClasses;
use super::{mark_structural, placement, q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};
use crate::model::{EntryId, HeadingId, Workspace};

pub(crate) const DOC: &str = "A semantic heading (`When …` or `How to …`, level 2 or deeper, not \
`.`-prefixed) has no index entry, so agents can never recall it. Fixes (a choice, never applied by \
fix-all): add the entry derived from the title in the right section at the right place, or mark \
the heading structural (`### .Title`). When an entry of its file's section binds nothing and \
resembles it (the heading was renamed), the message names that entry and the first fix changes its \
trigger, its extras kept. A heading whose title another heading has too cannot get an entry of its \
own (the entry would bind the other, or be a duplicate): the message says to rename one, and no \
entry is offered.";

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
            // Another heading with this title: an entry cannot tell them apart (found by review:
            // the entry suggested here became a `duplicate-entry`, which `fix` deleted).
            let twins = ctx.b().headings_titled(&h.key);
            if let Some(&other) = twins.iter().find(|&&o| o != hid) {
                let at = ctx.ws.heading(other).map_or(String::new(), |o| ctx.loc(other.file, o.range.start));
                let msg = format!(
                    "heading {} has no entry, and cannot have one while {at} has the same title: rename one of \
                     them, then index it",
                    q(&h.title)
                );
                out.push(
                    Finding::new(Rule::UnindexedHeading, file, h.title_range, msg).fix(mark_structural(&src.path, h)),
                );
                continue;
            }
            // The message is built when shown (`message`): it names a resembling entry if there is one.
            let mut f = Finding::new(Rule::UnindexedHeading, file, h.title_range, String::new());
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

/// An entry line quoted whole, for copying (a title's quote is cut at 80 characters; an
/// entry cut in the middle cannot be copied: found by review).
fn whole(line: &str) -> String {
    format!("`{}`", crate::text::elide(line, ENTRY_CHARS))
}

/// Most characters of a suggested entry line quoted in a message.
const ENTRY_CHARS: usize = 250;

/// The entry to add; or, when an entry that binds nothing resembles the heading (its trigger
/// drifted from the title, or the title from it), that entry to change, its extras kept (found
/// by review: adding the suggested entry and deleting the orphan lost them).
pub(crate) fn message(ws: &Workspace, f: &Finding) -> Option<String> {
    let hid = heading_of(ws, f)?;
    let title = &ws.heading(hid)?.title;
    let (op, trigger) = placement::trigger_from_title(title)?;
    let line = whole(&format!("{} {trigger}", op.token()));
    let Some(entry) = drifted(ws, hid) else {
        // Imported (a `Source:` line of its own): an import stopped before the index; running it
        // again adds the entry (issue 52).
        let again = imported_from(ws, hid)
            .map(|src| format!(" (or run `memory-index-lsp import {src}` again, which adds it)"))
            .unwrap_or_default();
        return Some(format!("heading {} has no entry in {}; add {line}{again}", q(title), q(&ws.config().index)));
    };
    let e = ws.bindings().entry(entry);
    Some(format!(
        "heading {} has no entry; {} ({}:{}) binds nothing and resembles it: change its trigger to {line} (its \
         extras stay)",
        q(title),
        q(&format!("{} {}", e.op.token(), e.trigger)),
        ws.config().index,
        e.line + 1,
    ))
}

/// The source file heading `hid`'s section was imported from: its last `Source:` line's path.
fn imported_from(ws: &Workspace, hid: HeadingId) -> Option<String> {
    let (f, h) = (ws.file(hid.file)?, ws.heading(hid)?);
    let section = f.text.get(h.section.start..h.section.end)?;
    let line = section.lines().rev().find(|l| l.starts_with("Source: "))?;
    let src = crate::syntax::source_mark::split(line).0.strip_prefix("Source: ")?;
    let file = src.split(" § ").next()?.trim();
    (!file.is_empty()).then(|| crate::text::escape_controls(file).into_owned())
}

/// The first entry of the index that binds nothing and resembles heading `hid`. None for a
/// heading whose title another heading has (no entry can be its own), and when the title's
/// trigger is another entry's trigger already ([`placement::held_by_another_trigger`]).
fn drifted(ws: &Workspace, hid: HeadingId) -> Option<EntryId> {
    let heading = ws.heading(hid)?;
    if ws.bindings().headings_titled(&heading.key).len() > 1 {
        return None;
    }
    let entry = EntryClasses::of(ws).drifted_to(hid).next()?;
    let (op, trigger) = placement::trigger_from_title(&heading.title)?;
    let line = ws.bindings().entry(entry).line;
    (!placement::held_by_another_trigger(ws, op, &trigger, line)).then_some(entry)
}

/// The heading a finding is on.
fn heading_of(ws: &Workspace, f: &Finding) -> Option<HeadingId> {
    let d = ws.file(f.file)?.decision()?;
    let idx = d.headings.iter().position(|h| h.title_range == f.range)?;
    Some(HeadingId { file: f.file, idx: idx as u32 })
}

/// The fixes an editor shows: the resembling entry's trigger changed to the title's, when
/// there is one; those found; then "add the entry with its shortest unique key" (key
/// compression is too costly to run for every unindexed heading of a check).
pub(crate) fn fixes(ws: &Workspace, f: &Finding) -> Vec<Fix> {
    let mut out: Vec<Fix> = retarget_fix(ws, f).into_iter().collect();
    out.extend(f.fixes.iter().cloned());
    out.extend(compressed_entry_fix(ws, f));
    out
}

/// "Change the trigger of line N": the resembling orphan entry made to bind this heading.
fn retarget_fix(ws: &Workspace, f: &Finding) -> Option<Fix> {
    let hid = heading_of(ws, f)?;
    let entry = drifted(ws, hid)?;
    let (op, trigger) = placement::trigger_from_title(&ws.heading(hid)?.title)?;
    let (_, src, index) = ws.index()?;
    let e = ws.bindings().entry(entry);
    let parsed = index.entry(e.line)?;
    let mut edits = vec![TextEdit::replace(parsed.trigger, trigger.clone())];
    if op != parsed.op {
        edits.push(TextEdit::replace(parsed.op_range, op.token()));
    }
    Some(Fix::new(
        format!("Change the trigger of line {} to {}", e.line + 1, whole(&format!("{} {trigger}", op.token()))),
        Applicability::Suggestion,
        &src.path,
        edits,
    ))
}

/// "Add entry with its short key": the full trigger (binding is exact) with the
/// `compress-key` suggestion as an extra.
fn compressed_entry_fix(ws: &Workspace, f: &Finding) -> Option<Fix> {
    let hid = heading_of(ws, f)?;
    if ws.bindings().headings_titled(&ws.heading(hid)?.key).len() > 1 {
        return None; // no entry of its own while another heading has its title
    }
    let (op, key) = super::compress::compress_heading(ws, hid)?;
    let full = placement::trigger_from_title(&ws.heading(hid)?.title)?.1;
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
