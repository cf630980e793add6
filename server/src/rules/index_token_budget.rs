//! `index-token-budget`: the index costs agents more tokens than its budget; says which sections cost most.

use super::cost::IndexCost;
use super::{q, Ctx, Finding, Rule};
use crate::text::thousands;

pub(crate) const DOC: &str = "The index is loaded into every agent's context, so it has a budget: \
`token-budget` tokens (default 5,000, the design's figure), counted with the cl100k_base byte-pair \
encoding, a public one that counts English Markdown about as agents' own tokenizers do. The \
message says how far over the index is and which sections cost most. Shorten long triggers \
(`memory-index-lsp compress-key`), drop extras no query needs, or merge decisions that are \
always read together; raise `token-budget` if the agents you use can afford more.";

/// Most sections the message names.
const NAMED: usize = 3;

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    let budget = usize::try_from(ctx.option("token-budget")).unwrap_or(usize::MAX);
    // A token is at least a byte: an index this short is within budget, uncounted.
    if src.text.len() <= budget {
        return;
    }
    let cost = IndexCost::of(ctx.ws);
    let total = cost.total();
    if total <= budget {
        return;
    }
    let mut sections: Vec<(usize, &str)> =
        index.sections.iter().enumerate().map(|(k, s)| (cost.section(k), s.name_text.as_str())).collect();
    // Costliest first, then by name; only the first few are named, so only
    // they are sorted (this runs after every index edit).
    let order = |a: &(usize, &str), b: &(usize, &str)| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1));
    if sections.len() > NAMED {
        sections.select_nth_unstable_by(NAMED, order);
        sections.truncate(NAMED);
    }
    sections.sort_by(order);
    let costly: Vec<String> =
        sections.iter().take(NAMED).map(|(n, name)| format!("{} ({})", q(name), thousands(*n))).collect();
    let mut message = format!(
        "the index costs agents about {} tokens, {} over its budget of {} (`token-budget`)",
        thousands(total),
        thousands(total - budget),
        thousands(budget)
    );
    if !costly.is_empty() {
        message.push_str(&format!("; most costly sections: {}", costly.join(", ")));
    }
    let first_line = src.line_index.line_content(&src.text, 0);
    out.push(Finding::new(Rule::IndexTokenBudget, id, first_line, message));
}
