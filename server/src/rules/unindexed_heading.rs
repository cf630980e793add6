//! `unindexed-heading`: a semantic `When …`/`How to …` heading that no entry binds.

use super::{mark_structural, placement, q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix};
use crate::model::HeadingId;

pub(crate) const DOC: &str = "A semantic heading (`When …` or `How to …`, level 2 or deeper, not \
`.`-prefixed) has no index entry, so agents can never recall it. Fixes (a choice, never applied by \
fix-all): add the entry derived from the title in the right section at the right place, or mark \
the heading structural (`### .Title`).";

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
            let mut f = Finding::new(
                Rule::UnindexedHeading,
                file,
                h.title_range,
                format!("heading {} has no entry in {}; add {}", q(&h.title), q(&index_path), q(&line)),
            );
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
