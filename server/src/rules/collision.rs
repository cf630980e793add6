//! `collision`: two entries resolve to the same heading by the resolver's own matching.
//!
//! An entry resolves to the heading it binds; an orphan entry resolves, as in
//! the resolver, to the semantic heading of its section's file it most
//! resembles. Exact duplicates are `duplicate-entry`'s, not reported here.

use rustc_hash::FxHashMap as HashMap;

use super::{q, Ctx, Finding, Rule};
use crate::model::{bind::EntryInfo, EntryId, HeadingId};
use crate::search::triggers;

pub(crate) const DOC: &str = "Two entries resolve to the same heading: one binds it, the other \
only resembles it (e.g. `/when mock test` and `/when mock testing` with the heading `When Mock \
Testing`). An agent typing either gets the same section, so one of them is stale. No automatic \
fix: delete the stale entry or point it at its own heading.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    // The first non-duplicate entry resolving to each heading: in a full
    // check, met in index order; in a scoped one, looked up in its group.
    let mut first: HashMap<HeadingId, EntryId> = HashMap::default();
    for (i, e) in ctx.entries() {
        if ctx.is_duplicate(i) {
            continue;
        }
        let Some(h) = triggers::entry_target(ctx.ws, e) else { continue };
        let reference = match ctx.scope {
            None => *first.entry(h).or_insert(i),
            Some(scope) => first_resolving_to(ctx, scope, h).unwrap_or(i),
        };
        match reference {
            j if j == i => {}
            j => {
                let other = ctx.b().entry(j);
                let Some(heading) = ctx.ws.heading(h) else {
                    continue;
                };
                let text = |e: &EntryInfo| index.range(e.line).slice(&src.text).trim().to_string();
                out.push(
                    Finding::new(
                        Rule::Collision,
                        id,
                        index.range(e.line),
                        format!(
                            "{} and {} (line {}) both resolve to the heading {}",
                            q(&text(e)),
                            q(&text(other)),
                            other.line + 1,
                            q(&heading.title)
                        ),
                    )
                    .related(id, index.range(other.line), "the other entry")
                    .related(h.file, heading.range, "the heading both resolve to"),
                );
            }
        }
    }
}

/// The first non-duplicate entry resolving to `h`, bound or drifted: the
/// reference entry of `h`'s group when only part of the index is re-checked.
fn first_resolving_to(ctx: &Ctx, scope: &super::incremental::Scope, h: HeadingId) -> Option<EntryId> {
    let bound = ctx.b().entries_of(h).iter().copied();
    bound.chain(scope.drifted_to(h)).filter(|&id| !ctx.is_duplicate(id)).min()
}
