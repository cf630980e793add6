//! `shadowed-trigger`: typing an entry's trigger (or an extra) to the resolver returns another entry.

use super::{q, Ctx, Finding, Rule};

pub(crate) const DOC: &str = "Typing `/when TRIGGER` (or one of the entry's extras) to the resolver \
returns a different entry, so this one cannot be reached by its own words (for example an extra \
that equals another entry's trigger). The message says which entry wins. No automatic fix: make \
the trigger or extra distinctive, or remove it.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for (i, e) in ctx.entries() {
        if e.trigger.is_empty() || ctx.is_duplicate(i) {
            continue;
        }
        let Some(entry) = index.entry(e.line) else {
            continue;
        };
        // The binding's normalized words line up with the non-empty ranges.
        let ranges = std::iter::once(entry.trigger).chain(entry.extras.iter().copied().filter(|r| !r.is_empty()));
        let keys = std::iter::once(&e.trigger).chain(&e.extras);
        for (range, key) in ranges.zip(keys) {
            let typed = range.slice(&src.text);
            // Typing an entry's own words always hits an exact tier, so the
            // resolver's answer is the exact match (fuzzy ranking never runs).
            let Some((winner_id, _)) = ctx.b().exact_match(Some(e.op), key) else {
                continue;
            };
            if winner_id == i {
                continue;
            }
            let winner = ctx.b().entry(winner_id);
            let shown = index.range(winner.line).slice(&src.text).trim();
            out.push(
                Finding::new(
                    Rule::ShadowedTrigger,
                    id,
                    range,
                    format!(
                        "`{} {typed}` resolves to {} (line {}), not to this entry",
                        e.op.token(),
                        q(shown),
                        winner.line + 1
                    ),
                )
                .related(id, index.range(winner.line), "the entry that wins"),
            );
        }
    }
}
