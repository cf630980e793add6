//! `duplicate-entry`: the same operator and normalized trigger twice; every later copy is reported.

use rustc_hash::FxHashMap as HashMap;

use super::{q, whole_line, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "Two entries have the same operator and the same trigger (compared \
case-insensitively, whitespace collapsed). Every later copy is reported, pointing at the first. \
Fix: delete the later line.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let mut first: HashMap<(crate::syntax::index::Op, &str), usize> = HashMap::default();
    for e in &ctx.b.entries {
        if e.trigger.is_empty() {
            continue;
        }
        match first.get(&(e.op, e.trigger.as_str())) {
            None => {
                first.insert((e.op, e.trigger.as_str()), e.line);
            }
            Some(&line0) => {
                let l = &index.lines[e.line];
                let shown = l.range.slice(&src.text).trim();
                let f = Finding::new(
                    Rule::DuplicateEntry,
                    id,
                    l.range,
                    format!("duplicate entry {}: the same trigger is already at line {}", q(shown), line0 + 1),
                )
                .related(id, index.lines[line0].range, "first entry with this trigger")
                .fix(Fix::new(
                    "Delete the duplicate entry",
                    Applicability::Safe,
                    &src.path,
                    vec![TextEdit::delete(whole_line(index, e.line))],
                ));
                out.push(f);
            }
        }
    }
}

/// For each entry (by position in `Bindings::entries`): whether it repeats an earlier one.
pub(crate) fn duplicates(ctx: &Ctx) -> Vec<bool> {
    let mut seen = rustc_hash::FxHashSet::default();
    ctx.b.entries.iter().map(|e| !e.trigger.is_empty() && !seen.insert((e.op, e.trigger.as_str()))).collect()
}
