//! The index entry an imported decision gets: `/when` and its title's words, with the heading's shortest unique key as an extra when that key says something; placed in the index, and verified to resolve.

use super::compress;
use crate::edit;
use crate::ide::remember::entry_resolves_to;
use crate::model::{HeadingId, Workspace};
use crate::rules::placement;
use crate::syntax::normalize;

/// `index` (the text of `next`'s index at `index_path`) with the entry of
/// each new heading (path, title, source) at its place, each placed in the
/// index as it is after the last; `next` holds the result. Err when one
/// would not resolve to its heading.
pub(super) fn add(
    next: &mut Workspace,
    index_path: &str,
    mut index: String,
    new_headings: &[(String, String, String)],
) -> Result<String, String> {
    for (path, title, source) in new_headings {
        let key = normalize(title);
        let Some(&hid) =
            next.bindings().headings_titled(&key).iter().find(|h| next.file(h.file).is_some_and(|f| &f.path == path))
        else {
            return Err(format!("`{title}` from {source} would not be read as a heading in {path}"));
        };
        index = place(next, index_path, index, hid, title, source)?;
    }
    Ok(index)
}

/// `index` with an entry for each decision of `unbound` (its file, identity
/// line and source) that `next` holds without one: import wrote its section
/// and was killed before the index (found by review: running the same
/// import again called every record unchanged and repaired nothing). Each
/// is named in `completed`.
pub(super) fn complete(
    next: &mut Workspace,
    index_path: &str,
    mut index: String,
    unbound: &[(String, String, String)],
    completed: &mut Vec<String>,
) -> Result<String, String> {
    for (path, id, source) in unbound {
        let Some(file) = next.file_id(path) else { continue };
        let Some(d) = next.file(file).and_then(|f| f.decision()) else { continue };
        // The innermost section holding the identity as its own: the last heading to have it.
        let found = (0..d.headings.len() as u32).rev().map(|idx| HeadingId { file, idx }).find(|&h| {
            next.heading(h).is_some_and(|hd| hd.is_semantic())
                && super::identity::identity_of(next, h).as_deref() == Some(id)
        });
        // Unbound, and no entry drifted from it (a heading renamed by hand: `check` offers to
        // change that entry's trigger, which keeps its extras; a second entry would orphan it).
        let drifted = |h| crate::rules::EntryClasses::of(next).drifted_to(h).next().is_some();
        let found = found.filter(|&h| next.bindings().entries_of(h).is_empty() && !drifted(h));
        let Some(hid) = found else { continue };
        let title = next.heading(hid).map(|h| h.title.to_string()).unwrap_or_default();
        index = place(next, index_path, index, hid, &title, source)?;
        completed.push(format!("{title} in {path}"));
    }
    Ok(index)
}

/// `index` with heading `hid`'s entry at its place; `next` holds the result.
fn place(
    next: &mut Workspace,
    index_path: &str,
    index: String,
    hid: HeadingId,
    title: &str,
    source: &str,
) -> Result<String, String> {
    let line = entry_line(next, hid, title).ok_or_else(|| format!("`{title}` from {source}: no trigger binds it"))?;
    let insert = placement::insert_entry(next, hid, &line).ok_or("the index cannot be read")?;
    let index = edit::apply(&index, &[insert]).0;
    next.set_file(index_path, index.clone().into());
    if !entry_resolves_to(next, &line, &normalize(title)) {
        return Err(format!(
            "`{line}` (from {source}) would not resolve to `{title}`; rename the source's title and import again"
        ));
    }
    Ok(index)
}

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
