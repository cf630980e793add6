//! The resolver (spec §6): what `/when QUERY` prints, in trigger, section (`.Title`) and file (`..name.md`) mode.
//!
//! Pure: it reads the [`Workspace`] only, so file mode can never read a path
//! outside the decision files the loader accepted (and the loader never
//! follows a link out of the root). Output for a trigger:
//!
//! ```text
//! # When Writing Mock Tests
//!
//! <the section body, verbatim, up to the next heading of the same or higher level outside code>
//!
//! Broader:
//! /when .Mock Patching
//! /when ..testing.md
//!
//! Related:
//! /how split test modules
//!
//! Source: agents/decisions/testing.md
//! ```
//!
//! Decisions: the H1 (the file's title) is never listed under `Broader:` (the
//! file link covers it); `Related:` lists the entries of the headings that
//! share the heading's parent (file-level headings share the file), in
//! heading order; section and file modes end with the same `Source:` line.

use crate::model::{EntryId, FileId, HeadingId, SourceFile, Workspace};
use crate::search::index as search_index;
use crate::search::{fuzzy, recall, similar, triggers, TriggerQuery};
use crate::syntax::decision::Heading;
use crate::syntax::index::Op;
use crate::syntax::normalize;

/// What the resolver printed, and what for (editors navigate with it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    pub text: String,
    /// The heading printed (None in file mode).
    pub heading: Option<HeadingId>,
    /// The file printed from.
    pub path: String,
    /// The entry that matched (trigger mode).
    pub entry: Option<EntryId>,
}

/// The three modes, after the operator word is taken off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Trigger(TriggerQuery),
    Section(String),
    File(String),
}

/// The queries `resolve`'s arguments make: one of all the words when the
/// first is an operator word (`resolve when writing mock tests`, how a
/// skill passes what the agent typed) or when every argument is one word
/// (typed unquoted); else one query an argument (quoted queries stay apart).
pub fn queries_of(mut args: Vec<String>) -> Vec<String> {
    let unquoted = args.iter().all(|q| !q.trim().contains(char::is_whitespace));
    if args.len() > 1 && (crate::syntax::index::Op::from_word(&args[0]).is_some() || unquoted) {
        args = vec![args.join(" ")];
    }
    args
}

/// Parses a query as typed after `/when` or `/how` (a leading `when`/`how` word is the operator).
pub fn parse(query: &str) -> Mode {
    let q = TriggerQuery::parse(query);
    let text = q.text.trim();
    if let Some(name) = text.strip_prefix("..") {
        Mode::File(name.trim().to_string())
    } else if let Some(title) = text.strip_prefix('.') {
        Mode::Section(title.trim().to_string())
    } else {
        Mode::Trigger(q)
    }
}

/// Resolves one query. `nav` adds the `Broader:` and `Related:` blocks.
pub fn resolve(ws: &Workspace, query: &str, nav: bool) -> Result<Resolved, String> {
    match parse(query) {
        Mode::Trigger(q) => trigger(ws, &q, nav),
        Mode::Section(title) => section(ws, &title),
        Mode::File(name) => file(ws, &name),
    }
}

/// Where a query leads, found without printing anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Located {
    /// Trigger and section modes: the one heading printed.
    Heading(HeadingId),
    /// File mode: the decision file printed.
    File(FileId),
}

/// What [`resolve`] would print for `query`, for navigation: no text is
/// built, so asking for many invocations costs only the (memoised) matching.
/// None when the resolver would answer with an error.
pub fn locate(ws: &Workspace, query: &str) -> Option<Located> {
    match parse(query) {
        Mode::Trigger(q) => {
            let hit = trigger_entry(ws, &q)?;
            triggers::entry_target(ws, ws.bindings().entry(hit)).map(Located::Heading)
        }
        Mode::Section(title) => match sections_titled(ws, &title).as_slice() {
            [one] => Some(Located::Heading(*one)),
            _ => None,
        },
        Mode::File(name) => find_file(ws, &name).ok().and_then(|f| ws.file_id(&f.path)).map(Located::File),
    }
}

/// The entry a trigger-mode query means: the first result of the one
/// ranking ([`recall`]) when its confidence reaches `[recall] resolve`;
/// memoised per workspace state (navigation asks for many invocations).
fn trigger_entry(ws: &Workspace, q: &TriggerQuery) -> Option<EntryId> {
    if q.text.trim().is_empty() {
        return None;
    }
    // An exact trigger or extra is the ranking's first answer at confidence
    // 1.0 or 0.98: answered from the binding's table, without building BM25.
    // An exact entry wins even when its heading is gone (renamed, deleted):
    // the caller says so, rather than printing whatever else ranks first.
    if let Some((entry, _)) = ws.bindings().exact_match(q.op, &crate::syntax::normalize(&q.text)) {
        return Some(entry);
    }
    let threshold = ws.config().recall.resolve;
    ranked(ws, q).first().filter(|&&(_, c)| c >= threshold).map(|&(e, _)| e)
}

/// The ranking's first three entries for `q`, memoised per workspace state.
fn ranked(ws: &Workspace, q: &TriggerQuery) -> Vec<(EntryId, f64)> {
    search_index::of(ws)
        .recalled(q, || recall::recall_query(ws, q, 3).into_iter().map(|r| (r.entry, r.confidence)).collect())
}

fn trigger(ws: &Workspace, q: &TriggerQuery, nav: bool) -> Result<Resolved, String> {
    if q.text.trim().is_empty() {
        return Err("Empty query: type the trigger after /when or /how".into());
    }
    let Some(hit) = trigger_entry(ws, q) else {
        return Err(no_match(ws, q));
    };
    let b = ws.bindings();
    let e = b.entry(hit);
    let Some(hid) = triggers::entry_target(ws, e) else {
        let line = e.line + 1;
        return Err(format!(
            "The entry `{}` ({}:{line}) has no heading to print (its heading was renamed or deleted?); run \
             `memory-index-lsp check` to see why",
            written(ws, hit),
            ws.config().index
        ));
    };
    let (path, h) = heading(ws, hid).ok_or("the matched heading is gone")?;
    let mut out = format!("# {}\n", h.title);
    let body = body_of(ws, hid);
    if !body.is_empty() {
        out.push('\n');
        out.push_str(&crate::syntax::source_mark::without_marks(body));
        out.push('\n');
    }
    if nav {
        let broader = broader(ws, hid);
        if !broader.is_empty() {
            out.push_str(&format!("\nBroader:\n{}\n", broader.join("\n")));
        }
        let related = related(ws, hid);
        if !related.is_empty() {
            out.push_str(&format!("\nRelated:\n{}\n", related.join("\n")));
        }
    }
    out.push_str(&format!("\nSource: {path}"));
    Ok(Resolved { text: out, heading: Some(hid), path: path.to_string(), entry: Some(hit) })
}

fn no_match(ws: &Workspace, q: &TriggerQuery) -> String {
    let mut msg = format!("No match for '{}'", q.text.trim());
    let b = ws.bindings();
    // The one ranking's candidates first (they fell under the threshold), then
    // entries that share a word or the letters, so a query that shares any
    // word with the index gets a suggestion.
    // Only entries that lead somewhere: an entry without its heading would fail the same way.
    let leads = |e: EntryId| triggers::entry_target(ws, b.entry(e)).is_some();
    // Not a guess search would not list either (found by review: "choosing a logging library"
    // offered *Versioning Public Endpoints*, whose body says "log" once, at 0.02).
    let mut picks: Vec<EntryId> =
        ranked(ws, q).into_iter().filter(|&(_, c)| c >= recall::LISTED).map(|(e, _)| e).filter(|&e| leads(e)).collect();
    // Both scorers prepared once for every entry.
    let (resembler, letters) = (similar::Resembler::new(&q.text), fuzzy::Prepared::new(&q.text));
    let mut sugg: Vec<(u32, usize)> = b
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.trigger.is_empty())
        .filter_map(|(i, e)| {
            let s = resembler.score(&e.trigger).or_else(|| letters.raw(&e.trigger).filter(|&s| s > 0))?;
            Some((s, i))
        })
        .collect();
    sugg.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in sugg {
        if picks.len() >= 3 {
            break;
        }
        if !picks.contains(&EntryId(i as u32)) && leads(EntryId(i as u32)) {
            picks.push(EntryId(i as u32));
        }
    }
    if !picks.is_empty() {
        msg.push_str("\nDid you mean:");
        for e in picks {
            msg.push_str(&format!("\n  {}", written(ws, e)));
        }
    }
    msg
}

/// Semantic and structural headings titled `title` (without the dot), case-insensitively.
/// Without an exact title, `.writing cli output` finds `When Writing CLI
/// Output` (and `How to …`): the title without its prefix, as the trigger reads.
fn sections_titled(ws: &Workspace, title: &str) -> Vec<HeadingId> {
    let key = normalize(title);
    let b = ws.bindings();
    let exact: Vec<HeadingId> = b.headings_titled(&key).iter().chain(b.structural_titled(&key)).copied().collect();
    if !exact.is_empty() {
        return exact;
    }
    Op::ALL.iter().flat_map(|op| b.headings_titled(&format!("{}{key}", op.key_prefix())).iter().copied()).collect()
}

fn section(ws: &Workspace, title: &str) -> Result<Resolved, String> {
    let found = sections_titled(ws, title);
    match found.as_slice() {
        [] => {
            let mut all: Vec<(HeadingId, &str)> = Vec::new();
            for (file, _, d) in ws.decisions() {
                for (i, h) in d.headings.iter().enumerate().filter(|(_, h)| h.level >= 2) {
                    all.push((HeadingId { file, idx: i as u32 }, h.name()));
                }
            }
            let query = fuzzy::Prepared::new(title);
            let mut scored: Vec<(u32, usize)> =
                all.iter().enumerate().filter_map(|(i, (_, t))| Some((query.raw(t)?, i))).collect();
            scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let mut closest: Vec<&str> = scored.into_iter().take(10).map(|(_, i)| all[i].1).collect();
            // No title has the letters in order: the headings whose words match, by the one ranking.
            if closest.is_empty() {
                for r in recall::recall(ws, title, 10) {
                    if let Some(h) = ws.heading(r.heading) {
                        closest.push(h.name());
                    }
                }
            }
            let mut msg = format!("Section '{title}' not found.");
            if !closest.is_empty() {
                msg.push_str("\nClosest:");
                for t in closest {
                    msg.push_str(&format!("\n  /when .{t}"));
                }
            }
            Err(msg)
        }
        [one] => {
            let (path, h) = heading(ws, *one).ok_or("the heading is gone")?;
            let text = ws.file(one.file).map_or("", |f| h.section.slice(&f.text)).trim_end();
            // As trigger mode shows it: without import's fingerprints (found by review).
            let text = crate::syntax::source_mark::without_marks(text);
            Ok(Resolved {
                text: format!("{text}\n\nSource: {path}"),
                heading: Some(*one),
                path: path.to_string(),
                entry: None,
            })
        }
        many => {
            let locs: Vec<String> = many
                .iter()
                .filter_map(|id| {
                    let f = ws.file(id.file)?;
                    let h = heading(ws, *id)?.1;
                    Some(format!("{}:{}", f.path, h.line + 1))
                })
                .collect();
            Err(format!("Ambiguous heading '{title}' found in: {}", locs.join(", ")))
        }
    }
}

/// File mode. The name is relative to the decisions directory: absolute
/// paths, `..` parts and anything that is not a loaded decision file are
/// refused before anything is read.
fn file(ws: &Workspace, name: &str) -> Result<Resolved, String> {
    let f = find_file(ws, name)?;
    match &f.problem {
        Some(crate::model::FileProblem::Unreadable(why)) => {
            return Err(format!("Refused: cannot read {}: {why}", f.path))
        }
        Some(crate::model::FileProblem::InvalidUtf8 { .. }) => {
            return Err(format!("Cannot print {}: it is not valid UTF-8 text", f.path));
        }
        None => {}
    }
    Ok(Resolved {
        text: format!("{}\n\nSource: {}", f.text.trim_end(), f.path),
        heading: None,
        path: f.path.clone(),
        entry: None,
    })
}

/// The decision file file mode names, or why there is none.
fn find_file<'a>(ws: &'a Workspace, name: &str) -> Result<&'a SourceFile, String> {
    let dir = &ws.config().decisions;
    let escapes = name.is_empty()
        || name.starts_with('/')
        || name.starts_with('\\')
        || name.contains(':')
        || name.split(['/', '\\']).any(|p| p == ".." || p == ".");
    if escapes {
        return Err(format!("Refused: '..{name}' is not a file inside {dir}/ (file mode reads decision files only)"));
    }
    // `..cli` means `..cli.md` when that file exists (decision files are `*.md`).
    let found = |name: &str| {
        let path = ws.decision_path(name);
        ws.file_id(&path).and_then(|id| ws.file(id)).filter(|f| f.decision().is_some())
    };
    let with_md = format!("{name}.md");
    let Some(f) = found(name).or_else(|| (!name.ends_with(".md")).then(|| found(&with_md)).flatten()) else {
        let names: Vec<String> =
            ws.decisions().map(|(_, f, _)| format!("  ..{}", f.path.rsplit('/').next().unwrap_or(&f.path))).collect();
        let mut msg = format!("File '{name}' not found in {dir}/.");
        if !names.is_empty() {
            msg.push_str(&format!("\nAvailable:\n{}", names.join("\n")));
        }
        return Err(msg);
    };
    Ok(f)
}

/// `/when trigger` as written in the index.
pub fn written(ws: &Workspace, id: EntryId) -> String {
    let e = ws.bindings().entry(id);
    let raw = ws.index().and_then(|(_, f, i)| Some(i.entry(e.line)?.trigger.slice(&f.text).to_string()));
    format!("{} {}", e.op.token(), raw.unwrap_or_else(|| e.trigger.to_string()))
}

fn heading(ws: &Workspace, id: HeadingId) -> Option<(&str, &Heading)> {
    let f = ws.file(id.file)?;
    Some((f.path.as_str(), f.decision()?.headings.get(id.idx as usize)?))
}

/// The section's text after its heading line(s), without surrounding blank lines.
pub fn body_of(ws: &Workspace, id: HeadingId) -> &str {
    ws.section_body(id).trim_start_matches(['\n', '\r']).trim_end()
}

fn broader(ws: &Workspace, id: HeadingId) -> Vec<String> {
    let Some(d) = ws.file(id.file).and_then(|f| f.decision()) else { return Vec::new() };
    let mut chain = Vec::new();
    let mut cur = d.headings.get(id.idx as usize).and_then(|h| h.parent);
    while let Some(p) = cur {
        let h = &d.headings[p];
        if h.level >= 2 {
            chain.push(format!("/when .{}", h.name()));
        }
        cur = h.parent;
    }
    chain.reverse();
    if let Some(f) = ws.file(id.file) {
        chain.push(format!("/when ..{}", f.path.rsplit('/').next().unwrap_or(&f.path)));
    }
    chain
}

fn related(ws: &Workspace, id: HeadingId) -> Vec<String> {
    let Some(d) = ws.file(id.file).and_then(|f| f.decision()) else { return Vec::new() };
    let parent = d.headings.get(id.idx as usize).and_then(|h| h.parent);
    let b = ws.bindings();
    let mut out = Vec::new();
    for (i, h) in d.headings.iter().enumerate() {
        if i as u32 == id.idx || h.parent != parent || !h.is_semantic() {
            continue;
        }
        if let Some(&e) = b.entries_of(HeadingId { file: id.file, idx: i as u32 }).first() {
            out.push(written(ws, e));
        }
    }
    out
}

#[cfg(test)]
mod tests;
