//! `duplicate-entry`: the same operator and normalized trigger twice; every copy but the kept one is reported.

use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};
use crate::syntax::index::IndexFile;
use crate::syntax::normalize;

pub(crate) const DOC: &str = "Two entries have the same operator and the same trigger (compared \
case-insensitively, whitespace collapsed). The copy kept is the one with the most extras (the \
first among equals), so a bare copy pasted above an entry is the one reported, not the entry \
that carries the extras; every other copy is reported, pointing at the kept one. Fix: delete \
the reported line, adding its extras that the kept entry lacks to the kept entry.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let b = ctx.b();
    for (i, e) in ctx.entries() {
        let Some(kept) = ctx.kept_copy(i) else { continue };
        let k = b.entry(kept);
        let l = index.range(e.line);
        let shown = l.slice(&src.text).trim();
        let mut edits = vec![TextEdit::delete(index.full(e.line))];
        // Extras of this copy the kept entry lacks, as written here.
        let missing: Vec<&str> = index
            .entry(e.line)
            .map(|syn| {
                let mut seen: Vec<String> = Vec::new();
                syn.extras
                    .iter()
                    .map(|r| r.slice(&src.text))
                    .filter(|raw| {
                        let norm = normalize(raw);
                        let new = !norm.is_empty()
                            && !k.extras.iter().any(|x| **x == *norm)
                            && *norm != *k.trigger
                            && !seen.contains(&norm);
                        seen.push(norm);
                        new
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut title = "Delete the duplicate entry".to_string();
        if !missing.is_empty() {
            edits.push(TextEdit::insert(kept_line_end(index, &src.text, k.line), with_extras(index, k.line, &missing)));
            title = format!("Delete the duplicate entry, keeping its extras {}", missing.join(", "));
        }
        let f = Finding::new(
            Rule::DuplicateEntry,
            id,
            l,
            format!("duplicate entry {}: the same trigger is already at line {}", q(shown), k.line + 1),
        )
        .related(id, index.range(k.line), "the entry kept for this trigger")
        .fix(Fix::new(title, Applicability::Safe, &src.path, edits));
        out.push(f);
    }
}

/// Where extras are appended to the kept line: after its last non-blank character.
fn kept_line_end(index: &IndexFile, text: &str, line: usize) -> usize {
    let r = index.range(line);
    r.start + r.slice(text).trim_end().len()
}

/// The text appended to the kept line: `, a, b` after its extras, or ` | a, b`.
fn with_extras(index: &IndexFile, line: usize, missing: &[&str]) -> String {
    let has_bar = index.entry(line).is_some_and(|e| e.bar.is_some() && e.extras.iter().any(|r| !r.is_empty()));
    let bare_bar = index.entry(line).is_some_and(|e| e.bar.is_some() && e.extras.iter().all(|r| r.is_empty()));
    let list = missing.join(", ");
    if has_bar {
        format!(", {list}")
    } else if bare_bar {
        format!(" {list}")
    } else {
        format!(" | {list}")
    }
}
