//! `duplicate-entry`: the same operator and normalized trigger twice; every later copy is reported.

use rustc_hash::FxHashMap as HashMap;

use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "Two entries have the same operator and the same trigger (compared \
case-insensitively, whitespace collapsed). Every later copy is reported, pointing at the first. \
Fix: delete the later line.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for (i, e) in ctx.entries() {
        let Some(first) = ctx.first_copy(i) else { continue };
        let line0 = ctx.b().entries[first].line;
        let l = index.range(e.line);
        let shown = l.slice(&src.text).trim();
        let f = Finding::new(
            Rule::DuplicateEntry,
            id,
            l,
            format!("duplicate entry {}: the same trigger is already at line {}", q(shown), line0 + 1),
        )
        .related(id, index.range(line0), "first entry with this trigger")
        .fix(Fix::new(
            "Delete the duplicate entry",
            Applicability::Safe,
            &src.path,
            vec![TextEdit::delete(index.full(e.line))],
        ));
        out.push(f);
    }
}

/// For each entry (by position in `Bindings::entries`): the first entry with
/// its operator and trigger (itself when it is the first, or has no trigger).
pub(crate) fn first_copies(ctx: &Ctx) -> Vec<u32> {
    let mut first: HashMap<(crate::syntax::index::Op, &str), u32> = HashMap::default();
    ctx.b()
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            if e.trigger.is_empty() {
                return i as u32;
            }
            *first.entry((e.op, e.trigger.as_str())).or_insert(i as u32)
        })
        .collect()
}
