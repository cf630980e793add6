//! `collision`: two entries resolve to the same heading by the resolver's own matching.
//!
//! An entry resolves to the heading it binds; an orphan entry resolves, as in
//! the resolver, to the semantic heading of its section's file it most
//! resembles. Exact duplicates are `duplicate-entry`'s, not reported here.

use std::collections::HashMap;

use super::{q, Ctx, Finding, Rule};
use crate::model::{bind::EntryInfo, HeadingId};
use crate::search::similar;

pub(crate) const DOC: &str = "Two entries resolve to the same heading: one binds it, the other \
only resembles it (e.g. `/when mock test` and `/when mock testing` with the heading `When Mock \
Testing`). An agent typing either gets the same section, so one of them is stale. No automatic \
fix: delete the stale entry or point it at its own heading.";

/// The heading an entry resolves to: bound, else the closest heading of its section's file.
pub(crate) fn target(ctx: &Ctx, e: &EntryInfo) -> Option<HeadingId> {
    if e.heading.is_some() {
        return e.heading;
    }
    if e.trigger.is_empty() || e.structural.is_some() {
        return None;
    }
    let file = e.section_file?;
    let d = ctx.ws.file(file)?.decision()?;
    let cands = d
        .headings
        .iter()
        .enumerate()
        .filter(|(_, h)| h.is_semantic())
        .map(|(i, h)| (HeadingId { file, idx: i as u32 }, h.title.as_str()));
    similar::rank(&e.trigger, cands, 1).first().map(|(h, _)| *h)
}

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let dups = ctx.duplicates();
    let mut first: HashMap<HeadingId, usize> = HashMap::new();
    for (i, e) in ctx.b.entries.iter().enumerate() {
        if dups[i] {
            continue;
        }
        let Some(h) = target(ctx, e) else { continue };
        match first.get(&h) {
            None => {
                first.insert(h, i);
            }
            Some(&j) => {
                let other = &ctx.b.entries[j];
                let Some(heading) = ctx.ws.heading(h) else {
                    continue;
                };
                let text = |e: &EntryInfo| index.lines[e.line].range.slice(&src.text).trim().to_string();
                out.push(
                    Finding::new(
                        Rule::Collision,
                        id,
                        index.lines[e.line].range,
                        format!(
                            "{} and {} (line {}) both resolve to the heading {}",
                            q(&text(e)),
                            q(&text(other)),
                            other.line + 1,
                            q(&heading.title)
                        ),
                    )
                    .related(id, index.lines[other.line].range, "the other entry")
                    .related(h.file, heading.range, "the heading both resolve to"),
                );
            }
        }
    }
}
