//! `heading-prefix`: a semantic heading that starts with neither `When ` nor `How to `.

use super::{mark_structural, q, Ctx, Finding, Rule};
use crate::rules::placement::has_entry_prefix;

pub(crate) const DOC: &str = "A semantic heading starts with neither `When ` nor `How to `, so no \
entry can ever bind it. Rename it to `When …`/`How to …`, or mark it structural (`## .Title`) if \
it only groups other headings (the fix).";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (_, src, d) in ctx.ws.decisions() {
        let file = ctx.ws.file_id(&src.path);
        for h in &d.headings {
            if !h.is_semantic() || has_entry_prefix(&h.title) {
                continue;
            }
            let Some(file) = file else { continue };
            out.push(
                Finding::new(
                    Rule::HeadingPrefix,
                    file,
                    h.title_range,
                    format!(
                        "heading {} starts with neither `When ` nor `How to `, so no entry can bind it",
                        q(&h.title)
                    ),
                )
                .fix(mark_structural(&src.path, h)),
            );
        }
    }
}
