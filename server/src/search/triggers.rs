//! Trigger-mode matching (spec §6): which entry a `/when`/`/how` query resolves to.
//!
//! Order of precedence, ties broken by index order:
//! 1. the query equals an entry's trigger (normalized), same operator;
//! 2. equals one of its extras, same operator;
//! 3. 1–2 with the other operator (or no operator given);
//! 4. the best fuzzy score of `OPERATOR QUERY` against `OPERATOR TRIGGER` and
//!    each `OPERATOR EXTRA`, above the fuzzy engine's threshold.

use super::fuzzy;
use crate::model::{EntryId, Workspace};
use crate::syntax::index::Op;
use crate::syntax::normalize;

/// A query as typed after `/when` or `/how` (operator optional).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TriggerQuery {
    pub op: Option<Op>,
    pub text: String,
}

impl TriggerQuery {
    /// Splits a leading `when`/`how` word (any case) off `query`; `how to x` drops the `to`.
    pub fn parse(query: &str) -> Self {
        let q = query.trim();
        let (first, rest) = q.split_once(char::is_whitespace).unwrap_or((q, ""));
        let op = match first.to_lowercase().as_str() {
            "when" | "/when" => Some(Op::When),
            "how" | "/how" => Some(Op::How),
            _ => None,
        };
        match op {
            Some(Op::How) => {
                let rest = rest.trim_start();
                let rest = match rest.split_once(char::is_whitespace) {
                    Some((to, r)) if to.eq_ignore_ascii_case("to") => r,
                    _ => rest,
                };
                Self { op, text: rest.trim().to_string() }
            }
            Some(_) => Self { op, text: rest.trim().to_string() },
            None => Self { op: None, text: q.to_string() },
        }
    }
}

/// How a query matched an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HitKind {
    ExactTrigger,
    ExactExtra,
    Fuzzy,
}

/// A matched entry with its score (exact hits score `u32::MAX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub entry: EntryId,
    pub kind: HitKind,
    pub score: u32,
}

/// Ranks entries for `query`, best first (at most `limit`).
pub fn rank(ws: &Workspace, query: &TriggerQuery, limit: usize) -> Vec<Hit> {
    let b = ws.bindings();
    let q = normalize(&query.text);
    if q.is_empty() {
        return Vec::new();
    }
    // Exact tiers.
    let mut exact: Vec<(u8, Hit)> = Vec::new();
    for (i, e) in b.entries.iter().enumerate() {
        let same_op = query.op.is_none_or(|op| op == e.op);
        let tier_base = if same_op { 0 } else { 2 };
        let entry = EntryId(i as u32);
        if e.trigger == q {
            exact.push((tier_base, Hit { entry, kind: HitKind::ExactTrigger, score: u32::MAX }));
        } else if e.extras.iter().any(|x| *x == q) {
            exact.push((tier_base + 1, Hit { entry, kind: HitKind::ExactExtra, score: u32::MAX }));
        }
    }
    exact.sort_by_key(|(t, h)| (*t, h.entry));
    let mut hits: Vec<Hit> = exact.into_iter().map(|(_, h)| h).collect();
    if hits.len() >= limit {
        hits.truncate(limit);
        return hits;
    }
    let query_text = match query.op {
        Some(op) => format!("{} {q}", op.word()),
        None => q.clone(),
    };
    let mut fuzzy_hits: Vec<Hit> = Vec::new();
    for (i, e) in b.entries.iter().enumerate() {
        let entry = EntryId(i as u32);
        if hits.iter().any(|h| h.entry == entry) || e.trigger.is_empty() {
            continue;
        }
        let with_op = |s: &str| {
            if query.op.is_some() {
                format!("{} {s}", e.op.word())
            } else {
                s.to_string()
            }
        };
        let best =
            std::iter::once(&e.trigger).chain(&e.extras).filter_map(|c| fuzzy::score(&query_text, &with_op(c))).max();
        if let Some(score) = best {
            fuzzy_hits.push(Hit { entry, kind: HitKind::Fuzzy, score });
        }
    }
    fuzzy_hits.sort_by(|a, b| b.score.cmp(&a.score).then(a.entry.cmp(&b.entry)));
    hits.extend(fuzzy_hits);
    hits.truncate(limit);
    hits
}

/// The entry a query resolves to, if any.
pub fn resolve(ws: &Workspace, query: &TriggerQuery) -> Option<Hit> {
    rank(ws, query, 1).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Config;

    fn ws() -> Workspace {
        let mut ws = Workspace::new(Config::default());
        ws.set_file(
            "agents/memory-index.md",
            "## agents/decisions/a.md\n/when choosing review gates\n/when review gates | gate\n/how gate things\n"
                .into(),
        );
        ws
    }

    #[test]
    fn parse_splits_the_operator() {
        assert_eq!(
            TriggerQuery::parse("how to encode paths"),
            TriggerQuery { op: Some(Op::How), text: "encode paths".into() }
        );
        assert_eq!(TriggerQuery::parse("When x"), TriggerQuery { op: Some(Op::When), text: "x".into() });
        assert_eq!(TriggerQuery::parse("whenever"), TriggerQuery { op: None, text: "whenever".into() });
    }

    #[test]
    fn exact_trigger_wins_over_longer_fuzzy_match() {
        let ws = ws();
        let hit = resolve(&ws, &TriggerQuery::parse("when review gates")).unwrap();
        assert_eq!((hit.entry, hit.kind), (EntryId(1), HitKind::ExactTrigger));
    }

    #[test]
    fn same_operator_exact_beats_other_operator() {
        let ws = ws();
        assert_eq!(resolve(&ws, &TriggerQuery::parse("when gate")).map(|h| h.entry), Some(EntryId(1)));
        assert_eq!(resolve(&ws, &TriggerQuery::parse("how gate things")).map(|h| h.entry), Some(EntryId(2)));
    }

    #[test]
    fn off_topic_is_no_match() {
        assert_eq!(resolve(&ws(), &TriggerQuery::parse("kubernetes autoscaling")), None);
    }
}
