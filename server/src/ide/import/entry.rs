//! The index entry an imported decision gets: `/when` and its title's words, with the heading's shortest unique key as an extra when that key says something; placed in the index, and verified to resolve.

use super::compress;
use crate::edit;
use crate::ide::remember::entry_resolves_to;
use crate::model::{HeadingId, Workspace};
use crate::rules::placement;
use crate::syntax::normalize;

/// Most new entries that get a short key as an extra ([`entry_line`]): each
/// key is chosen against every entry of the index, and each entry placed
/// in the index as it is after the last, so the work grows with the square
/// of the run (8,000 records took 92 s). A larger run writes its entries
/// without one, all placed at once (issue 52: linear, 8,000 in well under
/// 2 s); `memory-index-lsp compress-key` proposes keys for them afterwards.
pub(super) const KEYED: usize = 300;

/// `index` (the text of `next`'s index at `index_path`) with the entry of
/// each new heading (path, title, source) at its place; `next` holds the
/// result. At most [`KEYED`] new ones: each with its short key, placed in
/// the index as it is after the last; more: without keys, all at once.
/// Err when one would not resolve to its heading.
pub(super) fn add(
    next: &mut Workspace,
    index_path: &str,
    mut index: String,
    new_headings: &[(String, String, String)],
) -> Result<String, String> {
    let mut found: Vec<(HeadingId, &str, &str)> = Vec::with_capacity(new_headings.len());
    for (path, title, source) in new_headings {
        let Some(&hid) = next
            .bindings()
            .headings_titled(&normalize(title))
            .iter()
            .find(|h| next.file(h.file).is_some_and(|f| &f.path == path))
        else {
            return Err(format!("`{title}` from {source} would not be read as a heading in {path}"));
        };
        found.push((hid, title.as_str(), source.as_str()));
    }
    if found.len() <= KEYED {
        for (hid, title, source) in found {
            index = place(next, index_path, index, hid, title, source)?;
        }
        return Ok(index);
    }
    // Many: each file's new entries as one run of lines where its first goes (import appends a
    // file's new sections after its others, so its new entries follow one another).
    let nl = placement::eol(&index).to_string();
    let mut edits = Vec::new();
    let mut i = 0;
    while i < found.len() {
        let file = found[i].0.file;
        let run = found[i..].iter().take_while(|f| f.0.file == file).count();
        let mut lines: Vec<String> = Vec::with_capacity(run);
        for &(_, title, source) in &found[i..i + run] {
            let (op, trigger) = placement::trigger_from_title(title)
                .ok_or_else(|| format!("`{title}` from {source}: no trigger binds it"))?;
            lines.push(format!("{} {trigger}", op.token()));
        }
        edits.push(placement::insert_entry(next, found[i].0, &lines.join(&nl)).ok_or("the index cannot be read")?);
        i += run;
    }
    index = edit::apply(&index, &edits).0;
    next.set_file(index_path, index.clone().into());
    for &(_, title, source) in &found {
        let line =
            placement::trigger_from_title(title).map(|(op, t)| format!("{} {t}", op.token())).unwrap_or_default();
        if !entry_resolves_to(next, &line, &normalize(title)) {
            return Err(format!(
                "`{line}` (from {source}) would not resolve to `{title}`; rename the source's title and import again"
            ));
        }
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
