//! The index entry an imported decision gets: `/when` and its title's words, with the heading's shortest unique key as an extra when that key says something.

use super::compress;
use crate::model::{HeadingId, Workspace};
use crate::rules::placement;
use crate::syntax::normalize;

/// `/when trigger` (with the shortest unique key as an extra when shorter) for heading `h`.
pub(super) fn entry_line(ws: &Workspace, h: HeadingId, title: &str) -> Option<String> {
    let (op, trigger) = placement::trigger_from_title(title)?;
    // The short key, when it helps: not the trigger itself, not its lead word alone (`using`,
    // `deciding`: every imported title starts so), plain words, starting and ending with one
    // that says something (`code in`, found by review, is no key).
    let short = compress::compress_heading(ws, h).map(|(_, k)| k).filter(|k| short_key_helps(k, &trigger));
    Some(match short {
        Some(k) if !k.contains(['|', ',']) => format!("{} {trigger} | {k}", op.token()),
        _ => format!("{} {trigger}", op.token()),
    })
}

/// Whether the short key `k` of `trigger` is worth an extra (see [`entry_line`]).
pub(super) fn short_key_helps(k: &str, trigger: &str) -> bool {
    let lead = trigger.split_whitespace().next().unwrap_or("").to_lowercase();
    normalize(k) != normalize(trigger)
        && normalize(k) != lead
        && k.chars().all(|c| c.is_alphanumeric() || c.is_whitespace() || matches!(c, '-' | '/' | '.'))
        && k.split_whitespace().next().is_some_and(informative)
        && k.split_whitespace().last().is_some_and(informative)
}

/// Whether a word of a short key says something on its own: not a stop word
/// and not a function word (`our`, `one`, `all`, `new` are unique keys of
/// some titles but no one types `/when our`).
fn informative(word: &str) -> bool {
    const FUNCTION: &[&str] = &[
        "about", "across", "all", "any", "between", "each", "every", "few", "just", "more", "most", "new", "off",
        "old", "one", "only", "our", "out", "over", "own", "per", "same", "some", "their", "them", "they", "up", "us",
        "using", "very", "via", "why", "within", "without",
    ];
    let w = word.to_lowercase();
    !crate::search::bm25::is_stop(&w) && !FUNCTION.contains(&w.as_str())
}
