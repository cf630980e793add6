//! Where an entry line belongs in the index: its section (created in sorted position) and slot.
//!
//! Shared by the `misplaced-entry` move, the `unindexed-heading` "add entry"
//! fix and the server's code actions. Inside the section the line goes after
//! the bound entry whose heading comes last before the target heading, else
//! before the first one after it, else after the section's last non-blank line.

use crate::edit::TextEdit;
use crate::model::{HeadingId, Workspace};
use crate::syntax::index::IndexFile;

/// The line ending a file uses: CRLF when its first line ends in CRLF.
pub fn eol(text: &str) -> &'static str {
    // The first line's terminator decides (cheap, and files rarely mix).
    let first = text.find('\n');
    if first.is_some_and(|i| i > 0 && text.as_bytes()[i - 1] == b'\r') {
        "\r\n"
    } else {
        "\n"
    }
}

/// Finds insertion points for entry lines; build once, use for many headings.
pub struct Placer<'a> {
    ws: &'a Workspace,
    index: &'a IndexFile,
    text: &'a str,
    nl: &'static str,
}

impl<'a> Placer<'a> {
    /// None without an index.
    pub fn new(ws: &'a Workspace) -> Option<Self> {
        let (_, src, index) = ws.index()?;
        Some(Self { ws, index, text: &src.text, nl: eol(&src.text) })
    }

    /// An insertion of `line` (without terminator) into the index so that it
    /// sits in the section of `heading`'s file, in heading order.
    pub fn insert_entry(&self, heading: HeadingId, line: &str) -> Option<TextEdit> {
        let (index, text, nl) = (self.index, self.text, self.nl);
        let target_path = self.ws.file(heading.file)?.path.as_str();
        let Some(s) = index.section_named(target_path) else {
            return Some(new_section(index, text, target_path, line, nl));
        };
        let sec = &index.sections[s];
        let b = self.ws.bindings();
        let mut before: Option<(u32, usize)> = None; // (heading idx, line) largest idx <= target
        let mut after: Option<(u32, usize)> = None; // smallest idx > target
                                                    // Entries are in line order: only this section's slice is scanned.
        let first = b.entries.partition_point(|e| e.line <= sec.heading_line);
        let last = b.entries.partition_point(|e| e.line < sec.end_line).max(first);
        for e in &b.entries[first..last] {
            let Some(h) = e.heading.filter(|h| h.file == heading.file) else { continue };
            if h.idx <= heading.idx {
                if before.is_none_or(|(i, _)| h.idx >= i) {
                    before = Some((h.idx, e.line));
                }
            } else if after.is_none_or(|(i, _)| h.idx < i) {
                after = Some((h.idx, e.line));
            }
        }
        if let Some((_, l)) = before {
            return Some(after_line(index, l, line, nl));
        }
        if let Some((_, l)) = after {
            return Some(TextEdit::insert(index.full(l).start, format!("{line}{nl}")));
        }
        let body = sec.heading_line + 1..sec.end_line;
        let last = body.clone().rev().find(|&l| !index.range(l).slice(text).trim().is_empty());
        match last {
            Some(l) => Some(after_line(index, l, line, nl)),
            None => {
                // An empty section: keep one blank line under its heading.
                let h = sec.heading_line;
                if body.contains(&(h + 1)) {
                    Some(after_line(index, h + 1, line, nl))
                } else {
                    let (full, range) = (index.full(h), index.range(h));
                    let pre = if full.end == range.end { nl } else { "" };
                    Some(TextEdit::insert(full.end, format!("{pre}{nl}{line}{nl}")))
                }
            }
        }
    }
}

/// One insertion (see [`Placer::insert_entry`]); build a [`Placer`] for many.
pub fn insert_entry(ws: &Workspace, heading: HeadingId, line: &str) -> Option<TextEdit> {
    Placer::new(ws)?.insert_entry(heading, line)
}

fn after_line(index: &IndexFile, l: usize, line: &str, nl: &str) -> TextEdit {
    let full = index.full(l);
    if full.end == index.range(l).end {
        TextEdit::insert(full.end, format!("{nl}{line}"))
    } else {
        TextEdit::insert(full.end, format!("{line}{nl}"))
    }
}

fn new_section(index: &IndexFile, text: &str, path: &str, line: &str, nl: &str) -> TextEdit {
    let next = index.sections.iter().find(|s| s.path() > path);
    match next {
        Some(s) => TextEdit::insert(index.full(s.heading_line).start, format!("## {path}{nl}{nl}{line}{nl}{nl}")),
        None => {
            let mut pre = String::new();
            if !text.is_empty() && !text.ends_with(['\n', '\r']) {
                pre.push_str(nl);
            }
            let last_blank = index.lines().next_back().is_none_or(|l| l.range.slice(text).trim().is_empty());
            if !text.is_empty() && !last_blank {
                pre.push_str(nl);
            }
            TextEdit::insert(text.len(), format!("{pre}## {path}{nl}{nl}{line}{nl}"))
        }
    }
}

/// Whether a title starts with `When ` or `How to ` (followed by more words).
pub fn has_entry_prefix(title: &str) -> bool {
    crate::syntax::index::Op::split_title(title).is_some()
}

/// The trigger a heading title asks for: the title without its `When `/`How to `
/// prefix, lowercased except for names: each part of a word (split at `-`,
/// `/` and `.`) keeps its casing when it has a capital after its first letter
/// (`CLI`, `LLM`, `classifyHandoffIfNeeded`, `macOS`), so `CLI Commands Are
/// LLM-Native` asks for `CLI commands are LLM-native`, never a mix of both.
pub fn trigger_from_title(title: &str) -> Option<(crate::syntax::index::Op, String)> {
    use crate::syntax::index::Op;
    let (op, rest) = Op::split_title(title)?;
    let words: Vec<String> = rest.split_whitespace().map(trigger_word).collect();
    Some((op, words.join(" ")))
}

/// Whether `op trigger` is already the trigger of an entry other than the one on index
/// line `own_line`: a fix that gave it to that entry would make a `duplicate-entry`. An extra
/// holding the words yields (a trigger binds its heading exactly, and wins over an extra).
pub fn held_by_another_trigger(ws: &Workspace, op: crate::syntax::index::Op, trigger: &str, own_line: usize) -> bool {
    let b = ws.bindings();
    b.exact_match(Some(op), &crate::syntax::normalize(trigger))
        .is_some_and(|(e, extra)| !extra && b.entry(e).line != own_line)
}

/// One title word as a trigger word (see [`trigger_from_title`]).
fn trigger_word(word: &str) -> String {
    let letters: Vec<char> = word.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() >= 2 && letters.iter().all(|c| c.is_uppercase()) {
        return word.to_string(); // `I/O`, `CLI`
    }
    let mut out = String::with_capacity(word.len());
    for part in word.split_inclusive(['-', '/', '.']) {
        let is_name = part.chars().skip(1).any(char::is_uppercase);
        if is_name {
            out.push_str(part);
        } else {
            out.extend(part.chars().flat_map(char::to_lowercase));
        }
    }
    out
}

/// The title an entry asks for, in the case style of `existing`: Title Case
/// when every word of the existing title starts with a capital, else as typed.
pub fn title_like(existing: &str, op: crate::syntax::index::Op, trigger: &str) -> String {
    let title_case =
        crate::search::similar::strip_prefix(existing).split_whitespace().all(|w| !w.starts_with(char::is_lowercase));
    let words: Vec<String> = trigger
        .split_whitespace()
        .map(|w| {
            if title_case {
                let mut c = w.chars();
                c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
            } else {
                w.to_string()
            }
        })
        .collect();
    format!("{}{}", op.title_prefix(), words.join(" "))
}
