//! `structural-entry`: an entry that names a structural (`.`-prefixed) heading.

use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};

pub(crate) const DOC: &str = "An entry names a structural heading (`/when mock patching` for `## \
.Mock Patching`). Structural headings are containers and are never indexed. Fix: delete the line \
(index the headings inside the container instead).";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for (_, e) in ctx.entries() {
        let Some(h) = e.structural else { continue };
        let Some(heading) = ctx.ws.heading(h) else {
            continue;
        };
        let l = index.range(e.line);
        out.push(
            Finding::new(
                Rule::StructuralEntry,
                id,
                l,
                format!(
                    "this entry names the structural heading {} ({}), which is never indexed",
                    q(&heading.title),
                    ctx.loc(h.file, heading.range.start)
                ),
            )
            .related(h.file, heading.range, "structural heading")
            .fix(Fix::new(
                "Delete the entry",
                Applicability::Safe,
                &src.path,
                vec![TextEdit::delete(index.full(e.line))],
            )),
        );
    }
}
