//! `duplicate-heading`: the same semantic title twice, in one file or across files.

use super::{q, Ctx, Finding, Rule};
use crate::model::bind::HeadingTable;

pub(crate) const DOC: &str = "Two semantic headings have the same title (case-insensitive), in one \
file or across files; an entry can only bind one of them. Every occurrence is reported with the \
others as related locations. Rename or merge them.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (_, ids) in HeadingTable::of(ctx.ws).title_groups() {
        if ids.len() < 2 {
            continue;
        }
        for &id in ids {
            let Some(h) = ctx.ws.heading(id) else {
                continue;
            };
            let others: Vec<String> = ids
                .iter()
                .filter(|&&o| o != id)
                .filter_map(|&o| Some(ctx.loc(o.file, ctx.ws.heading(o)?.range.start)))
                .collect();
            let mut f = Finding::new(
                Rule::DuplicateHeading,
                id.file,
                h.title_range,
                format!("heading {} also appears at {}; rename one, or merge them", q(&h.title), others.join(", ")),
            );
            for &o in ids.iter().filter(|&&o| o != id) {
                if let Some(oh) = ctx.ws.heading(o) {
                    f = f.related(o.file, oh.range, "same title");
                }
            }
            out.push(f);
        }
    }
}
