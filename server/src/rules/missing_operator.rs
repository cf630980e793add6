//! `missing-operator`: a section line that is neither an entry nor a kept label, comment or blank.

use super::{q, Ctx, Finding, Rule};
use crate::text::TextRange;

pub(crate) const DOC: &str = "A line inside an index section is not an entry: entries start with \
`/when` or `/how` (legacy `Key — description` lines, prose). Bold labels, list items, deeper \
headings and HTML comments are allowed. No automatic fix: the line is never deleted; rewrite it \
as `/when TRIGGER` or move it to the preamble.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for l in ctx.lines().filter(|&l| index.unknown(l) == Some(false)) {
        let l = index.range(l);
        let s = l.slice(&src.text);
        let lead = s.len() - s.trim_start().len();
        let range = TextRange::new(l.start + lead, l.start + s.trim_end().len());
        let shown: String = s.trim().chars().take(60).collect();
        out.push(Finding::new(
            Rule::MissingOperator,
            id,
            range,
            format!("{} is not an entry: index entries start with `/when` or `/how`", q(&shown)),
        ));
    }
}
