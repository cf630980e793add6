//! The index entry an imported decision gets: `/when` and its title's words, with the heading's shortest unique key as an extra when that key says something; placed in the index, and verified to resolve.

use super::compress;
use crate::edit;
use crate::model::{HeadingId, Workspace};
use crate::recall::remember::entry_resolves_to;
use crate::rules::placement;
use crate::syntax::normalize;

/// Most new entries that get a short key as an extra ([`entry_line`]): each
/// key is chosen against every entry of the index, and each entry placed
/// in the index as it is after the last, so the work grows with the square
/// of the run (8,000 records took 92 s). A larger run writes its entries
/// without one, all placed at once (issue 52: linear, 8,000 in well under
/// 2 s); `memory-index-lsp compress-key` proposes keys for them afterwards.
pub(super) const KEYED: usize = 300;

/// A heading to give an entry: its id, title and the source it came from.
type Unindexed<'a> = (HeadingId, &'a str, &'a str);

/// `index` (the text of `next`'s index at `index_path`) with the entry of
/// each new heading (path, title, source) at its place; `next` holds the
/// result ([`place_all`]). Err when one would not resolve to its heading.
pub(super) fn add(
    next: &mut Workspace,
    index_path: &str,
    index: String,
    new_headings: &[(String, String, String)],
) -> Result<String, String> {
    let mut found: Vec<Unindexed> = Vec::with_capacity(new_headings.len());
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
    place_all(next, index_path, index, &found)
}

/// `index` with an entry for each decision of `unbound` (its file, identity
/// line and source) that `next` holds without one: import wrote its section
/// and was killed before the index (found by review: running the same
/// import again called every record unchanged and repaired nothing). Each
/// is named in `completed`. One that an entry drifted from (a heading
/// renamed by hand), whose title another heading has, or whose trigger
/// another entry holds is left for `check`, which says what to do.
pub(super) fn complete(
    next: &mut Workspace,
    index_path: &str,
    index: String,
    unbound: &[(String, String, String)],
    completed: &mut Vec<String>,
) -> Result<String, String> {
    if unbound.is_empty() {
        return Ok(index);
    }
    // Each identity line to the innermost section holding it as its own, once per file.
    let mut held: rustc_hash::FxHashMap<(crate::model::FileId, String), HeadingId> = Default::default();
    let mut files: Vec<crate::model::FileId> = unbound.iter().filter_map(|(p, ..)| next.file_id(p)).collect();
    files.sort();
    files.dedup();
    for file in files {
        let Some(d) = next.file(file).and_then(|f| f.decision()) else { continue };
        for idx in (0..d.headings.len() as u32).rev() {
            let h = HeadingId { file, idx };
            if !next.heading(h).is_some_and(|hd| hd.is_semantic()) {
                continue;
            }
            if let Some(id) = super::identity::identity_of(next, h) {
                held.entry((file, id)).or_insert(h);
            }
        }
    }
    let classes = crate::rules::EntryClasses::of(next);
    let b = next.bindings();
    let mut found: Vec<(HeadingId, String, &str)> = Vec::new();
    for (path, id, source) in unbound {
        let Some(&h) = next.file_id(path).and_then(|f| held.get(&(f, id.clone()))) else { continue };
        let Some(hd) = next.heading(h) else { continue };
        let trigger = placement::trigger_from_title(&hd.title);
        let taken = trigger.is_none_or(|(op, t)| b.exact_match(Some(op), &normalize(&t)).is_some());
        if !b.entries_of(h).is_empty()
            || classes.drifted_to(h).next().is_some()
            || b.headings_titled(&hd.key).len() > 1
            || taken
            || found.iter().any(|f| f.0 == h)
        {
            continue;
        }
        found.push((h, hd.title.to_string(), source.as_str()));
    }
    found.sort_by_key(|f| f.0);
    let list: Vec<Unindexed> = found.iter().map(|(h, t, s)| (*h, t.as_str(), *s)).collect();
    let index = place_all(next, index_path, index, &list)?;
    for (h, title, _) in &found {
        let path = next.file(h.file).map_or("", |f| f.path.as_str());
        completed.push(format!("{title} in {path}"));
    }
    Ok(index)
}

/// `index` with the entry of each of `found` at its place; `next` holds the
/// result. At most [`KEYED`]: each with its short key, placed in the index
/// as it is after the last. More: without keys, every place reckoned on
/// the index as it is and the lines that share one written together in
/// order (a file without a group gets one with all its lines), then the
/// index read once and each entry verified to resolve.
fn place_all(next: &mut Workspace, index_path: &str, mut index: String, found: &[Unindexed]) -> Result<String, String> {
    if found.len() <= KEYED {
        for &(hid, title, source) in found {
            index = place(next, index_path, index, hid, title, source)?;
        }
        return Ok(index);
    }
    let nl = placement::eol(&index).to_string();
    let line_of = |title: &str, source: &str| {
        placement::trigger_from_title(title)
            .map(|(op, t)| format!("{} {t}", op.token()))
            .ok_or_else(|| format!("`{title}` from {source}: no trigger binds it"))
    };
    let grouped = |path: &str| next.index().is_some_and(|(_, _, i)| i.section_named(path).is_some());
    let mut inserts: Vec<(usize, String)> = Vec::with_capacity(found.len());
    let mut i = 0;
    while i < found.len() {
        let file = found[i].0.file;
        let run = found[i..].iter().take_while(|f| f.0.file == file).count();
        let path = next.file(file).map_or("", |f| f.path.as_str());
        let mut lines: Vec<(HeadingId, String)> = Vec::with_capacity(run);
        for &(hid, title, source) in &found[i..i + run] {
            lines.push((hid, line_of(title, source)?));
        }
        if grouped(path) {
            for (hid, line) in &lines {
                let e = placement::insert_entry(next, *hid, line).ok_or("the index cannot be read")?;
                inserts.push((e.range.start, e.insert));
            }
        } else {
            let all: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
            let e = placement::insert_entry(next, lines[0].0, &all.join(&nl)).ok_or("the index cannot be read")?;
            inserts.push((e.range.start, e.insert));
        }
        i += run;
    }
    // Inserts at one place, in the order reckoned (the headings' order), as one.
    let mut merged: Vec<(usize, String)> = Vec::with_capacity(inserts.len());
    let mut slot: rustc_hash::FxHashMap<usize, usize> = Default::default();
    for (at, text) in inserts {
        match slot.get(&at) {
            Some(&k) => merged[k].1.push_str(&text),
            None => {
                slot.insert(at, merged.len());
                merged.push((at, text));
            }
        }
    }
    let edits: Vec<edit::TextEdit> = merged.into_iter().map(|(at, t)| edit::TextEdit::insert(at, t)).collect();
    index = edit::apply(&index, &edits).0;
    next.set_file(index_path, index.clone().into());
    for &(_, title, source) in found {
        let line = line_of(title, source)?;
        if !entry_resolves_to(next, &line, &normalize(title)) {
            return Err(format!(
                "`{line}` (from {source}) would not resolve to `{title}`; rename the source's title and import again"
            ));
        }
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
    let before = index.clone();
    let insert = placement::insert_entry(next, hid, &line).ok_or("the index cannot be read")?;
    let index = edit::apply(&index, &[insert]).0;
    next.set_file(index_path, index.clone().into());
    if entry_resolves_to(next, &line, &normalize(title)) {
        return Ok(index);
    }
    // Its short key misleads (the trigger alone may still resolve): the entry without it.
    let Some((plain, _)) = line.split_once(" | ") else {
        return Err(format!(
            "`{line}` (from {source}) would not resolve to `{title}`; rename the source's title and import again"
        ));
    };
    next.set_file(index_path, before.clone().into());
    let insert = placement::insert_entry(next, hid, plain).ok_or("the index cannot be read")?;
    let index = edit::apply(&before, &[insert]).0;
    next.set_file(index_path, index.clone().into());
    if !entry_resolves_to(next, plain, &normalize(title)) {
        return Err(format!(
            "`{plain}` (from {source}) would not resolve to `{title}`; rename the source's title and import again"
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
    let short = compress::compress_heading(ws, h)
        .map(|(_, k)| k)
        .filter(|k| short_key_helps(k, &trigger) && (k.contains(' ') || names_something(k, title)));
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
        // An extra starting with `.` is read as a section lookup (`| .NET`): found by review, the
        // whole run stopped on it.
        && !k.starts_with('.')
        && k.chars().all(|c| c.is_alphanumeric() || c.is_whitespace() || matches!(c, '-' | '/' | '.'))
        && k.split_whitespace().next().is_some_and(informative)
        && k.split_whitespace().last().is_some_and(informative)
}

/// Whether a one-word short key is a word that tells its decision apart
/// (issue 51: `| app`, `| web` matched every prompt that said "app"): a
/// word with a digit (`k8s`), a word cased inside (`GitHub`, `iOS`), or a
/// name the title capitalises among lower-case words (`Use Helm for
/// packages`; in a Title Case title every word is capitalised, which says
/// nothing); never a common word, short (`app`) or long (`guidelines`,
/// `structure`: measured on the twelve projects' imports, every long
/// lower-case one-word key was a common word).
pub(super) fn names_something(k: &str, title: &str) -> bool {
    let k = k.trim();
    if k.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    // Past `When` and its verb, and past the source title's own first word, capitalised as a
    // sentence starts (`When Deciding Single command …`, `When Working On Help texts`).
    let lead = if title.starts_with("When Working On ") {
        4
    } else if title.starts_with("When Deciding ") {
        3
    } else {
        2
    };
    let words: Vec<&str> =
        title.split_whitespace().skip(lead).map(|w| w.trim_matches(|c: char| !c.is_alphanumeric())).collect();
    let title_case = words.iter().filter(|w| w.starts_with(char::is_uppercase)).count() * 5 >= words.len() * 3;
    words.iter().any(|w| {
        w.eq_ignore_ascii_case(k)
            && (w.chars().skip(1).any(char::is_uppercase) || (!title_case && w.starts_with(char::is_uppercase)))
    })
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
