//! What trigger matching takes and gives: a query as typed after `/when` or `/how`, and the entry it hits.

use crate::model::EntryId;
use crate::syntax::index::Op;

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
        let op = Op::from_word(first);
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
