//! `empty-trigger`: `/when` or `/how` with nothing before the `|`.

use super::{Ctx, Finding, Rule};
use crate::text::TextRange;

pub(crate) const DOC: &str = "An entry has an operator but no trigger (`/when`, `/when | extra`). \
Write the trigger: the heading title without its `When `/`How to ` prefix.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for (_, info) in ctx.entries() {
        let line = info.line;
        let Some(e) = index.entry(line) else { continue };
        if !e.trigger.is_empty() {
            continue;
        }
        let end = index.range(line).start + index.range(line).slice(&src.text).trim_end().len();
        out.push(Finding::new(
            Rule::EmptyTrigger,
            id,
            TextRange::new(e.op_range.start, end.max(e.op_range.end)),
            format!(
                "`{}` has no trigger: write the heading title without its `{}` prefix",
                e.op.token(),
                e.op.title_prefix().trim_end()
            ),
        ));
    }
}
