//! `empty-extra`: an empty piece among an entry's extras (`| a,,b`, a trailing `|` or `,`).

use super::{Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};
use crate::text::TextRange;

pub(crate) const DOC: &str = "An entry's extras (the comma-separated words after `|`) contain an \
empty piece, as in `| a,,b` or a trailing `|` or `,`. Fix: drop the empty pieces.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for (_, info) in ctx.entries() {
        let line = info.line;
        let Some(e) = index.entry(line) else { continue };
        let (Some(bar), false) = (e.bar, e.extras.iter().all(|x| !x.is_empty())) else {
            continue;
        };
        let content_end = index.range(line).start + index.range(line).slice(&src.text).trim_end().len();
        let range = TextRange::new(bar, content_end.max(bar + 1));
        let kept: Vec<&str> = e.extras.iter().filter(|x| !x.is_empty()).map(|x| x.slice(&src.text)).collect();
        let edit = if kept.is_empty() {
            // Nothing left after `|`: remove it with the space before it.
            let start = if e.trigger.is_empty() { bar } else { e.trigger.end };
            TextEdit::delete(TextRange::new(start, content_end.max(bar + 1)))
        } else {
            TextEdit::replace(TextRange::new(bar, content_end), format!("| {}", kept.join(", ")))
        };
        out.push(
            Finding::new(Rule::EmptyExtra, id, range, "empty extra trigger after `|`: remove the empty piece")
                .fix(Fix::new("Remove empty extras", Applicability::Safe, &src.path, vec![edit])),
        );
    }
}
