//! `orphan-entry`: an entry that binds no semantic heading; suggests the headings it resembles.

use super::incremental::suggest::Suggester;
use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};
use crate::model::{FileProblem, Workspace};
use crate::rules::placement::{self, trigger_from_title};

pub(crate) const DOC: &str = "An entry binds no heading: no semantic heading is titled `When \
TRIGGER` (for `/when`) or `How to TRIGGER` (for `/how`), compared case-insensitively. The message \
lists the unindexed headings it resembles. Fixes (a choice, so never applied by fix-all): change \
the trigger to match a heading, or rename that heading to match the trigger; or delete the entry, \
when the decision is gone. Entries of a \
section whose file could not be read are not reported (its `unreadable-file` finding is).";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, _, index)) = ctx.index else {
        return;
    };
    let mut suggester = Suggester::new(ctx.ws);
    let orphan =
        |e: &crate::model::bind::EntryInfo| !e.trigger.is_empty() && e.heading.is_none() && e.structural.is_none();
    // Room for them all at once, and some for the rules after this one: an
    // index of orphans does not grow its findings by doubling.
    let orphans = ctx.entries().filter(|(_, e)| orphan(e)).count();
    out.reserve_exact(orphans + orphans / 8 + 64);
    for (_, e) in ctx.entries() {
        if !orphan(e) {
            continue;
        }
        // A section whose file could not be read: its `unreadable-file`
        // finding is the cause; one orphan per entry would bury it.
        if e.section_file
            .and_then(|f| ctx.ws.file(f))
            .is_some_and(|f| matches!(f.problem, Some(FileProblem::Unreadable(_))))
        {
            continue;
        }
        let Some(entry) = index.entry(e.line) else {
            continue;
        };
        let best = suggester.suggest(&e.trigger);
        // The message is built when shown (`message`), from the trigger and
        // these: a million orphans hold no million messages.
        let mut f = Finding::new(Rule::OrphanEntry, id, entry.trigger, String::new());
        for (h, _) in &best {
            if let Some(heading) = ctx.ws.heading(*h) {
                f = f.related(h.file, heading.range, RESEMBLES);
            }
        }
        out.push(f);
    }
}

/// What an orphan's related locations say: the unindexed headings it resembles, best first.
const RESEMBLES: &str = "unindexed heading this entry resembles";

/// An orphan finding's message (see [`Finding::message`]): the heading its
/// entry asks for, and the headings it resembles with their places.
pub(crate) fn message(ws: &Workspace, f: &Finding) -> Option<String> {
    Some(message_text(ws, f))
}

fn message_text(ws: &Workspace, f: &Finding) -> String {
    let entry = ws.index().and_then(|(_, src, index)| {
        let e = index.entry(src.line_index.line_of(f.range.start)).filter(|e| e.trigger == f.range)?;
        Some((e.op, e.trigger.slice(&src.text)))
    });
    let Some((op, typed)) = entry else { return "no heading for this entry".into() };
    let mut msg = format!("no heading {} for this entry", q(&format!("{}{typed}", op.title_prefix())));
    let names: Vec<String> = f
        .related
        .iter()
        .filter(|r| r.message == RESEMBLES)
        .filter_map(|r| {
            let file = ws.file(r.file)?;
            let heading = file.decision()?.headings.iter().find(|h| h.range == r.range)?;
            Some(format!("{} ({}:{})", q(&heading.title), file.path, file.line_col_1(r.range.start).0))
        })
        .collect();
    if names.is_empty() {
        msg.push_str("; restore its heading, or delete the entry if the decision is gone");
    } else {
        msg.push_str(&format!("; did you mean {}?", names.join(", ")));
    }
    crate::text::elide_owned(msg, super::MESSAGE_CHARS)
}

/// An orphan finding's fixes (see [`super::fixes`]): for each heading it
/// resembles, change the trigger to match the heading, or rename the heading
/// to match the trigger. Built from the finding (the trigger's range, the
/// headings' ranges) and the workspace it was found in; none when either
/// has changed since.
pub(crate) fn fixes(ws: &Workspace, f: &Finding) -> Vec<Fix> {
    let mut out = Vec::new();
    let Some((_, src, index)) = ws.index() else { return out };
    let entry_line = src.line_index.line_of(f.range.start);
    let Some(entry) = index.entry(entry_line).filter(|e| e.trigger == f.range) else {
        return out;
    };
    let typed = entry.trigger.slice(&src.text);
    for r in f.related.iter().filter(|r| r.message == RESEMBLES) {
        let Some(heading) = ws.file(r.file).and_then(|d| d.decision()?.headings.iter().find(|h| h.range == r.range))
        else {
            continue;
        };
        // Not to a trigger another entry has already (an extra yields).
        let free = |(op, t): &(_, String)| !placement::held_by_another_trigger(ws, *op, t, entry_line);
        if let Some((op, trigger)) = trigger_from_title(&heading.title).filter(free) {
            let mut edits = vec![TextEdit::replace(entry.trigger, trigger.clone())];
            if op != entry.op {
                edits.push(TextEdit::replace(entry.op_range, op.token()));
            }
            out.push(Fix::new(
                format!("Change trigger to {}", q(&format!("{} {trigger}", op.token()))),
                Applicability::Suggestion,
                &src.path,
                edits,
            ));
        }
        let new_title = placement::title_like(&heading.title, entry.op, typed);
        let path = ws.file(r.file).map_or("", |d| d.path.as_str());
        out.push(Fix::new(
            format!("Rename heading {} to {}", q(&heading.title), q(&new_title)),
            Applicability::Suggestion,
            path,
            vec![TextEdit::replace(heading.title_range, new_title.clone())],
        ));
    }
    // Last: the decision may be gone (found by review: a deleted heading left an entry no
    // quick fix could remove).
    // Its group with it when it is all the group holds (found by review: an empty
    // `## agents/decisions/x.md` was left).
    let text = src.text.as_str();
    let alone = index.sections.iter().find(|s| s.heading_line < entry_line && entry_line < s.end_line).filter(|s| {
        (s.heading_line + 1..s.end_line).all(|l| l == entry_line || index.range(l).slice(text).trim().is_empty())
    });
    let gone = match alone {
        Some(s) => index.whole_section(text, s.heading_line, s.end_line),
        None => index.full(entry_line),
    };
    out.push(Fix::new(
        format!("Delete the entry {}", q(&format!("{} {typed}", entry.op.token()))),
        Applicability::Suggestion,
        &src.path,
        vec![TextEdit::delete(gone)],
    ));
    out
}
