//! `promote-to-fragment`: a decision as cheap as its index entry, which agents should load always instead.

use super::cost::IndexCost;
use super::{q, Ctx, Finding, Rule};
use crate::text::tokens;

pub(crate) const DOC: &str = "A decision's whole section (heading and body) costs no more tokens \
than its index entry plus 2: indexing it saves nothing, and an agent must first recall it. \
Promote it to a fragment the agents always load (their instructions file, such as `CLAUDE.md` or \
`AGENTS.md`), then delete the entry and the section. Tokens are cl100k_base tokens, as \
`index-token-budget` counts them. Informational: the choice is yours, so there is no automatic fix.";

/// Tokens a section may cost beyond its entry and still be promoted (the design's rule).
const SLACK: usize = 2;

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, _, index)) = ctx.index else {
        return;
    };
    let mut cost: Option<std::sync::Arc<IndexCost>> = None;
    for (i, e) in ctx.entries() {
        let Some(h) = e.heading else { continue };
        let (Some(heading), Some(file)) = (ctx.ws.heading(h), ctx.ws.file(h.file)) else {
            continue;
        };
        let section = heading.section.slice(&file.text).trim_end();
        // What the entry costs in the index: its line, as `index-token-budget`
        // counts it (counted once per index state, re-counted when edited).
        let entry_cost = cost.get_or_insert_with(|| IndexCost::of(ctx.ws)).line(e.line);
        // Every piece the pre-tokenizer cuts is at least a token: most
        // sections are ruled out after their first few words, before any
        // merge.
        let most = entry_cost + SLACK;
        if tokens::at_least(section, most) > most {
            continue;
        }
        let section_cost = tokens::count(section);
        // Last: a duplicate's copies are looked up, the costliest test here.
        if section_cost > most || ctx.is_duplicate(i) {
            continue;
        }
        out.push(
            Finding::new(
                Rule::PromoteToFragment,
                id,
                index.range(e.line),
                format!(
                    "{} costs {section_cost} tokens, no more than this entry ({entry_cost}) plus {SLACK}: load it always \
                     (in the agents' instructions) instead of indexing it",
                    q(&heading.title)
                ),
            )
            .related(h.file, heading.range, "the decision to load always"),
        );
    }
}
