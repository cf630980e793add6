//! Completion: operators, triggers, `.Title` and `..file.md` targets, and index section paths.
//!
//! In the index, after `/when `/`/how `: the semantic headings of the
//! section's file that no entry binds (the item inserts the exact trigger
//! that binds them), never an existing trigger (it would be a duplicate);
//! after `/` at the start of a line: the two operators; after `## `:
//! decision files without a section, then the others. In any other Markdown
//! file, after `/when ` or `/how `: existing triggers and extras of that
//! operator ranked by the resolver's own fuzzy matching, then the decisions
//! whose title or section words match (the one ranking, `search::recall`);
//! after `/when .`: heading titles; after `/when ..`: decision file names.

use super::hover;
use crate::model::{Depends, FileId, HeadingId, Workspace};
use crate::rules::placement::trigger_from_title;
use crate::search::fuzzy;
use crate::search::recall::recall;
use crate::syntax::index::LineKind;
use crate::text::TextRange;

/// Most items returned.
pub const MAX_ITEMS: usize = 50;

/// Most items added for decisions whose words (not letters) match.
const WORD_ITEMS: usize = 5;
/// Confidence those items need (`search::recall`): the `search` floor.
const WORD_MIN_CONFIDENCE: f64 = crate::ide::search::FLOOR;

/// Candidates from which trigger completion scores on every core.
const PARALLEL_FROM: usize = 8192;

/// What a completion item inserts, so a client can show its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    /// `/when` or `/how`.
    Operator,
    /// A trigger: an existing trigger or extra, or the one an unindexed heading needs.
    Trigger,
    /// `.Title`: a heading of a decision file.
    Title,
    /// `..file.md` or a section's `agents/decisions/file.md` path.
    File,
}

/// One completion item: what to show and the edit that inserts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub label: String,
    pub kind: ItemKind,
    pub range: TextRange,
    /// Text a client filters by, when the label does not start with what the
    /// range covers (an item that replaces the operator too).
    pub filter: Option<String>,
    pub insert: String,
    pub detail: Option<String>,
    pub documentation: Option<String>,
}

/// Items for the cursor at `offset` of `file`.
pub fn complete(ws: &Workspace, file: FileId, offset: usize) -> Vec<Item> {
    let Some(f) = ws.file(file) else { return Vec::new() };
    let line = f.line_index.line_content(&f.text, f.line_index.line_of(offset));
    let before = f.text.get(line.start..offset.min(line.end)).unwrap_or("");
    let in_section = f.index().is_some_and(|i| {
        i.line(f.line_index.line_of(offset))
            .is_some_and(|l| l.section.is_some() && !matches!(l.kind, LineKind::SectionHeading(_)))
    });
    if let Some(index) = f.index() {
        if let Some(typed) = before.strip_prefix("## ") {
            let start = line.start + 3;
            let with: Vec<&str> = index.sections.iter().map(|s| s.path()).collect();
            let mut paths: Vec<(bool, String)> =
                ws.decisions().map(|(_, d, _)| (with.contains(&d.path.as_str()), d.path.clone())).collect();
            paths.sort();
            return paths
                .into_iter()
                .filter(|(_, p)| typed.is_empty() || fuzzy::score(typed, p).is_some())
                .map(|(_, p)| Item {
                    label: p.clone(),
                    kind: ItemKind::File,
                    range: TextRange::new(start, offset),
                    filter: None,
                    insert: p,
                    detail: None,
                    documentation: None,
                })
                .take(MAX_ITEMS)
                .collect();
        }
        let t = before.trim_start();
        if in_section && t.starts_with('/') && !t.contains(char::is_whitespace) {
            let start = offset - t.len();
            return ["/when ", "/how "]
                .iter()
                .filter(|op| op.starts_with(t))
                .map(|op| Item {
                    label: op.trim().into(),
                    kind: ItemKind::Operator,
                    range: TextRange::new(start, offset),
                    filter: None,
                    insert: (*op).into(),
                    detail: None,
                    documentation: None,
                })
                .collect();
        }
    }
    // `/when ` or `/how ` followed by what is typed so far.
    let Some((op_at, op)) =
        ["/when ", "/how "].iter().filter_map(|op| before.rfind(op).map(|i| (i, *op))).max_by_key(|x| x.0)
    else {
        return Vec::new();
    };
    let typed = &before[op_at + op.len()..];
    let start = line.start + op_at + op.len();
    let range = TextRange::new(start, offset);
    if let Some(name) = typed.strip_prefix("..") {
        return file_items(ws, name, range);
    }
    if let Some(title) = typed.strip_prefix('.') {
        return title_items(ws, title, range);
    }
    triggers(ws, file, in_section, op.trim(), typed, range)
}

/// `/when ..NAME`: the decision files whose names match what is typed.
fn file_items(ws: &Workspace, name: &str, range: TextRange) -> Vec<Item> {
    ws.decisions()
        .map(|(_, d, _)| d.path.rsplit('/').next().unwrap_or(&d.path).to_string())
        .filter(|n| name.is_empty() || fuzzy::score(name, n).is_some())
        .map(|n| Item {
            label: format!("..{n}"),
            kind: ItemKind::File,
            range,
            filter: None,
            insert: format!("..{n}"),
            detail: None,
            documentation: None,
        })
        .take(MAX_ITEMS)
        .collect()
}

/// `/when .TITLE`: the headings whose titles match what is typed, best first.
fn title_items(ws: &Workspace, title: &str, range: TextRange) -> Vec<Item> {
    let mut out: Vec<(u32, Item)> = Vec::new();
    for (_, d, parsed) in ws.decisions() {
        for h in parsed.headings.iter().filter(|h| h.level >= 2) {
            let score = if title.is_empty() { Some(0) } else { fuzzy::score(title, h.name()) };
            if let Some(s) = score {
                let label = format!(".{}", h.name());
                out.push((
                    s,
                    Item {
                        label: label.clone(),
                        kind: ItemKind::Title,
                        range,
                        filter: None,
                        insert: label,
                        detail: Some(d.path.clone()),
                        documentation: None,
                    },
                ));
            }
        }
    }
    out.sort_by_key(|x| std::cmp::Reverse(x.0));
    out.into_iter().map(|x| x.1).take(MAX_ITEMS).collect()
}

/// Every trigger and extra as (entry, slot, [`fuzzy::letters`]), per index state.
struct CandidateLetters(Vec<(u32, u32, u128)>);

impl CandidateLetters {
    fn of(ws: &Workspace) -> Self {
        let b = ws.bindings();
        let mut v = Vec::with_capacity(b.entries.len() * 3);
        for (i, e) in b.entries.iter().enumerate().filter(|(_, e)| !e.trigger.is_empty()) {
            for (slot, word) in std::iter::once(&e.trigger).chain(&e.extras).enumerate() {
                v.push((i as u32, slot as u32, fuzzy::letters(word)));
            }
        }
        Self(v)
    }
}

/// In the index: the headings of the section's file that no entry names, as triggers to add (the operator as the heading has it).
fn unindexed(ws: &Workspace, file: FileId, op: &str, typed: &str, range: TextRange) -> Vec<(u8, u32, Item)> {
    let b = ws.bindings();
    let mut items: Vec<(u8, u32, Item)> = Vec::new();
    let section_file = ws.file(file).and_then(|f| {
        let index = f.index()?;
        let line = f.line_index.line_of(range.start);
        let s = index.section_of(line)?;
        ws.section_file(&index.sections[s].name_text)
    });
    if let Some(sf) = section_file.and_then(|id| Some((id, ws.file(id)?.decision()?))) {
        for (i, h) in sf.1.headings.iter().enumerate() {
            let hid = HeadingId { file: sf.0, idx: i as u32 };
            if !h.is_semantic() || !b.entries_of(hid).is_empty() {
                continue;
            }
            let Some((hop, trigger)) = trigger_from_title(&h.title) else { continue };
            let score = if typed.trim().is_empty() { Some(0) } else { fuzzy::score(typed, &trigger) };
            if let Some(s) = score {
                // The operator follows the heading: replace `/when` with `/how` when needed.
                let (r, insert, filter) = if hop.token() == op {
                    (range, trigger.clone(), None)
                } else {
                    let r = TextRange::new(range.start - op.len() - 1, range.end);
                    (r, format!("{} {trigger}", hop.token()), Some(format!("{op} {trigger}")))
                };
                let doc = hover::preview(ws, hid);
                items.push((
                    0,
                    s,
                    Item {
                        label: trigger,
                        kind: ItemKind::Trigger,
                        range: r,
                        filter,
                        insert,
                        detail: Some(format!("unindexed: {}", h.title)),
                        documentation: doc,
                    },
                ));
            }
        }
    }
    items
}

/// The existing triggers and extras of `op` that `typed` matches, as (score, entry, slot).
/// Ranked before any item is built: only the shown ones allocate.
/// Candidates lacking a letter of the query are skipped before the fuzzy
/// engine runs. Large indexes are scored on every core (in order-preserving chunks).
fn existing(ws: &Workspace, op: &str, typed: &str) -> Vec<(u32, usize, usize)> {
    let b = ws.bindings();
    let needed = fuzzy::required_letters(typed);
    let words = ws.cached(Depends::IndexAndDecisions, CandidateLetters::of);
    let score_chunk = |chunk: &[(u32, u32, u128)]| {
        let prepared = fuzzy::Prepared::new(typed);
        let mut found: Vec<(u32, usize, usize)> = Vec::new();
        for &(i, slot, letters) in chunk {
            if letters & needed != needed {
                continue;
            }
            let e = &b.entries[i as usize];
            if e.op.token() != op {
                continue;
            }
            let word = if slot == 0 { &e.trigger } else { &e.extras[slot as usize - 1] };
            let score = if typed.trim().is_empty() { Some(0) } else { prepared.score(word) };
            if let Some(s) = score {
                found.push((s, i as usize, slot as usize));
            }
        }
        found
    };
    let threads = crate::model::cores();
    if threads > 1 && words.0.len() >= PARALLEL_FROM {
        let chunk = words.0.len().div_ceil(threads);
        // This thread scores the first chunk while helpers score the others.
        std::thread::scope(|s| {
            let mut chunks = words.0.chunks(chunk);
            let mine = chunks.next().unwrap_or_default();
            let handles: Vec<_> = chunks.map(|c| s.spawn(move || score_chunk(c))).collect();
            let mut found = score_chunk(mine);
            // Scoring never panics on input; if it did, the panic surfaces here as it would inline.
            found.extend(handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))));
            found
        })
    } else {
        score_chunk(&words.0)
    }
}

/// Adds the decisions whose words match `typed` to `out` (up to [`MAX_ITEMS`]).
fn word_items(ws: &Workspace, op: &str, typed: &str, range: TextRange, out: &mut Vec<Item>) {
    let b = ws.bindings();
    // Then the decisions whose words (title, section) match what was typed,
    // by the one ranking (`search::recall`), for words that are not in any
    // trigger's letters: `/when flaky fixtures` offers the decision whose
    // section is about them.
    if typed.split_whitespace().any(|w| w.chars().count() >= 3) && out.len() < MAX_ITEMS {
        for r in recall(ws, typed, WORD_ITEMS).into_iter().filter(|r| r.confidence >= WORD_MIN_CONFIDENCE) {
            let e = b.entry(r.entry);
            if e.op.token() != op {
                continue;
            }
            if out.len() >= MAX_ITEMS || out.iter().any(|i| *i.label == *e.trigger) {
                continue;
            }
            let detail = ws.heading(r.heading).map(|h| format!("{} (matches its section)", h.title));
            out.push(Item {
                label: e.trigger.to_string(),
                kind: ItemKind::Trigger,
                range,
                filter: None,
                insert: e.trigger.to_string(),
                detail,
                documentation: None,
            });
        }
    }
}

fn triggers(
    ws: &Workspace,
    file: FileId,
    in_index_section: bool,
    op: &str,
    typed: &str,
    range: TextRange,
) -> Vec<Item> {
    let b = ws.bindings();
    // In the index, an existing trigger or extra would be a duplicate entry
    // (and one of the other operator an orphan): only the unindexed
    // headings of the section's file are offered there.
    if in_index_section {
        let mut items = unindexed(ws, file, op, typed, range);
        items.sort_by_key(|x| std::cmp::Reverse(x.1));
        return items.into_iter().map(|x| x.2).take(MAX_ITEMS).collect();
    }
    let mut existing = existing(ws, op, typed);
    // Only those within 60% of the best score (scattered-letter matches go).
    let best = existing.iter().map(|x| x.0).max().unwrap_or(0);
    existing.retain(|x| x.0 * 10 >= best * 6);
    existing.sort_by(|a, b| b.0.cmp(&a.0).then((a.1, a.2).cmp(&(b.1, b.2))));
    let mut out: Vec<Item> = Vec::new();
    for &(_, i, slot) in existing.iter().take(MAX_ITEMS) {
        let e = &b.entries[i];
        let word = if slot == 0 { &e.trigger } else { &e.extras[slot - 1] };
        let detail = e.heading.and_then(|h| ws.heading(h)).map(|h| h.title.clone());
        out.push(Item {
            label: word.to_string(),
            kind: ItemKind::Trigger,
            range,
            filter: None,
            insert: word.to_string(),
            detail,
            documentation: None,
        });
    }
    word_items(ws, op, typed, range, &mut out);
    out.dedup_by(|a, b| a.label == b.label);
    out
}
