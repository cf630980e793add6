//! `no-direct-content`: a non-structural heading with sub-headings but ≤ 2 lines of its own.

use super::{mark_structural, q, Ctx, Finding, Rule};

pub(crate) const DOC: &str = "A non-structural heading (level 2 or deeper) has sub-headings but at \
most 2 substantive lines (non-blank, not an HTML comment) before the first one: it is a container, \
not a decision. Mark it structural (`### .Title`, the fix) or write its content.";

/// Most substantive lines a container may have before being a decision.
const MAX_LINES: u32 = 2;

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    for (file, src, d) in ctx.ws.decisions() {
        for h in &d.headings {
            if h.level < 2 || h.structural || !h.has_children || h.direct_lines > MAX_LINES {
                continue;
            }
            out.push(
                Finding::new(
                    Rule::NoDirectContent,
                    file,
                    h.title_range,
                    format!(
                        "heading {} has sub-headings but only {} line(s) of its own: mark it structural ({}) or add content",
                        q(&h.title),
                        h.direct_lines,
                        q(&format!("{} .{}", "#".repeat(h.level as usize), h.title))
                    ),
                )
                .fix(mark_structural(&src.path, h)),
            );
        }
    }
}
