//! `file-too-long`: a decision file over the configured line limit (`max-lines`, default 400).

use super::{Ctx, Finding, Rule};
use crate::text::TextRange;

pub(crate) const DOC: &str = "A decision file has more lines than `max-lines` (default 400): long \
files are costly for agents to load whole. Split it by topic into several decision files.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let max = u32::try_from(ctx.option("max-lines")).unwrap_or(u32::MAX);
    for (file, src, d) in ctx.ws.decisions() {
        if d.line_count <= max {
            continue;
        }
        let start = src.line_index.line_start(max as usize);
        let range = src.line_index.line_content(&src.text, max as usize);
        out.push(Finding::new(
            Rule::FileTooLong,
            file,
            TextRange::new(start, range.end),
            format!(
                "{} has {} lines, over the limit of {max}: split it into smaller decision files",
                src.path, d.line_count
            ),
        ));
    }
}
