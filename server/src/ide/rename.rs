//! Rename that keeps trigger and heading in sync, and updates `/when` invocations that resolved to them.
//!
//! On a trigger: the new trigger; the bound heading becomes `When …`/`How to …`
//! in its own case style and level. On a heading title: the new title; the
//! binding entry's trigger (and operator) follow. Every trigger-mode
//! invocation in the workspace's Markdown files that resolved to the entry is
//! rewritten to the new trigger; nothing else is touched. Refused, with a
//! message, when the name could not be a trigger or title (see
//! [`check_name`]), when the result would duplicate a trigger or heading, when
//! a title would leave no valid trigger, when trigger and heading would no
//! longer correspond, or when a file to edit is not valid UTF-8.

use super::invocations;
use super::target::{self, Target};
use crate::edit::{SourceChange, TextEdit};
use crate::model::{EntryId, FileId, Workspace};
use crate::rules::placement::trigger_from_title;
use crate::search::triggers;
use crate::syntax::invocation::Mode;
use crate::syntax::normalize;
use crate::text::TextRange;

/// The range to rename and its current text, or why nothing can be renamed here.
pub fn prepare(ws: &Workspace, file: FileId, offset: usize) -> Result<(TextRange, String), String> {
    let f = ws.file(file).ok_or("unknown file")?;
    match target::at(ws, file, offset) {
        Some(Target::Entry(id, _)) => {
            let e = ws.bindings().entry(id);
            let range = ws.index().and_then(|(_, _, i)| Some(i.entry(e.line)?.trigger)).ok_or("no trigger")?;
            if range.is_empty() {
                return Err("This entry has no trigger to rename".into());
            }
            Ok((range, range.slice(&f.text).to_string()))
        }
        Some(Target::Heading(h, range)) => {
            let heading = ws.heading(h).ok_or("no heading")?;
            if !heading.is_semantic() {
                return Err("Structural headings and the document title are not indexed; rename them as text".into());
            }
            Ok((range, range.slice(&f.text).to_string()))
        }
        _ => Err("Rename works on an index trigger or a decision heading".into()),
    }
}

/// Longest trigger or title a rename accepts, in characters.
pub const MAX_NAME_CHARS: usize = 200;

/// Why `name` cannot be a trigger or a heading title, if it cannot: a name
/// is one line of text written into the index and a heading, so it may not
/// hold line breaks or other control characters, `|` (it starts the extras),
/// or start with `/` (an operator), `.` (a structural heading) or `#` (a
/// heading marker), and it has at most [`MAX_NAME_CHARS`] characters.
pub fn check_name(name: &str) -> Result<(), String> {
    let shown = crate::text::elide(name, 60);
    if name.is_empty() {
        return Err("The new name is empty".into());
    }
    if name.chars().any(|c| matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{85}')) {
        return Err("The new name has a line break: a trigger or title is one line".into());
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(format!("The new name has a control character (U+{:04X}): use visible text", c as u32));
    }
    if name.contains('|') {
        return Err(format!("`{shown}` has a `|`, which starts an entry's extras: use other words"));
    }
    if let Some(c) = name.chars().next().filter(|c| matches!(c, '/' | '.' | '#')) {
        let why = match c {
            '/' => "an operator (`/when`, `/how`)",
            '.' => "a structural heading or a `.Title` query",
            _ => "a Markdown heading marker",
        };
        return Err(format!("`{shown}` starts with `{c}`, which marks {why}: start with a word"));
    }
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(format!("The new name has {n} characters; at most {MAX_NAME_CHARS}"));
    }
    Ok(())
}

/// The edits for renaming the trigger or heading at `offset` to `new_name`.
pub fn rename(ws: &Workspace, file: FileId, offset: usize, new_name: &str) -> Result<SourceChange, String> {
    prepare(ws, file, offset)?;
    let new_name = new_name.trim_matches([' ', '\t']);
    check_name(new_name)?;
    let b = ws.bindings();
    let (entry, heading, op, trigger, title) = match target::at(ws, file, offset) {
        Some(Target::Entry(id, _)) => {
            let e = b.entry(id);
            let heading = e.heading;
            let title = heading.and_then(|id| Some((ws.file(id.file)?, ws.heading(id)?))).map(|(f, h)| {
                let raw = h.title_range.slice(&f.text);
                with_code_spans(raw, &crate::rules::placement::title_like(&without_code(raw, &h.title), e.op, new_name))
            });
            (Some(id), heading, e.op, new_name.to_string(), title)
        }
        Some(Target::Heading(h, _)) => {
            // The title as Markdown reads it (`When Using `kubectl`` reads `When Using kubectl`).
            let Some((op, trigger)) = trigger_from_title(&plain(new_name)) else {
                return Err(format!("`{new_name}` starts with neither `When ` nor `How to `: no entry could bind it"));
            };
            (b.entries_of(h).first().copied(), Some(h), op, trigger, Some(new_name.to_string()))
        }
        _ => return Err("Rename works on an index trigger or a decision heading".into()),
    };
    // The trigger a new title asks for is checked as a name too.
    check_name(&trigger)?;
    // After the edit, the title must ask for exactly this trigger.
    if let Some(t) = &title {
        check_name(t)?;
        let asks = trigger_from_title(&plain(t)).map(|(o, tr)| (o, normalize(&tr)));
        if asks != Some((op, normalize(&trigger))) {
            return Err(format!(
                "`{}` would no longer correspond to the heading `{}`: choose words that make a title",
                crate::text::elide(&trigger, 60),
                crate::text::elide(t, 60)
            ));
        }
    }
    // Refusals: duplicates.
    let key = normalize(&trigger);
    if let Some((other, extra)) = b.exact_match(Some(op), &key).filter(|(o, _)| Some(*o) != entry) {
        let line = b.entry(other).line + 1;
        // An extra too (found by review): the new trigger would take that entry's word from it.
        let what = if extra { format!("is an extra of `{}`", b.entry(other).trigger) } else { "already exists".into() };
        return Err(format!("`{} {trigger}` {what} ({}:{line})", op.token(), ws.config().index));
    }
    if let Some(t) = &title {
        if let Some(&dup) = b.headings_titled(&normalize(&plain(t))).iter().find(|&&h| Some(h) != heading) {
            let f = ws.file(dup.file).map_or("", |f| f.path.as_str());
            let line = ws.heading(dup).map_or(0, |h| h.line + 1);
            return Err(format!("A heading `{t}` already exists ({f}:{line})"));
        }
    }
    let mut edits = SourceChange::default();
    let mut push = |ws: &Workspace, id: FileId, e: TextEdit| -> Result<(), String> {
        let f = ws.file(id).ok_or("unknown file")?;
        if f.problem.is_some() {
            return Err(format!("{} is not valid UTF-8 (or unreadable); it is never rewritten", f.path));
        }
        edits.push(&f.path, e);
        Ok(())
    };
    if let (Some(h), Some(t)) = (heading, &title) {
        let hd = ws.heading(h).ok_or("no heading")?;
        push(ws, h.file, TextEdit::replace(hd.title_range, t.clone()))?;
    }
    if let Some(id) = entry {
        let (index_id, _, index) = ws.index().ok_or("no index")?;
        let e = b.entry(id);
        let parsed = index.entry(e.line).ok_or("no entry")?;
        push(ws, index_id, TextEdit::replace(parsed.trigger, trigger.clone()))?;
        if e.op != op {
            push(ws, index_id, TextEdit::replace(parsed.op_range, op.token()))?;
        }
        for (file, op_range, query) in invocations_of(ws, id) {
            push(ws, file, TextEdit::replace(query, trigger.clone()))?;
            if e.op != op {
                push(ws, file, TextEdit::replace(op_range, op.token()))?;
            }
        }
    }
    Ok(edits)
}

/// `raw`, a heading's text as written, as Markdown reads its title: inline markup
/// dropped, code spans' text kept (found by review: a rename to ``When Using `kubectl` ``
/// wrote the backticks into the trigger, which then bound nothing).
fn plain(raw: &str) -> String {
    let parsed = crate::syntax::decision::parse(&format!("# {raw}\n"));
    parsed.headings.first().map_or_else(|| raw.to_string(), |h| h.title.clone())
}

/// `title` with the text of `raw`'s code spans left out (each once, in order), to tell its case style by.
fn without_code(raw: &str, title: &str) -> String {
    let mut t = title.to_string();
    let mut from = 0;
    for c in crate::syntax::decision::code_spans(raw) {
        if let Some(at) = find_words(&t, &c, from) {
            t.replace_range(at..at + c.len(), " ");
            from = at + 1;
        }
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `title` (a new heading made from a trigger) with the words `raw` wrote as code written
/// as code again, each span once, in order, as it was written (found by review: renaming
/// `/when using kubectl` dropped `` `kubectl` ``; a word-by-word match split `cargo test`
/// and made every `make` code).
fn with_code_spans(raw: &str, title: &str) -> String {
    let mut out = title.to_string();
    let mut from = 0;
    for c in crate::syntax::decision::code_spans(raw) {
        let Some(at) = find_words(&out, &c, from) else { continue };
        let wrapped = if c.contains('`') { format!("`` {c} ``") } else { format!("`{c}`") };
        out.replace_range(at..at + c.len(), &wrapped);
        from = at + wrapped.len();
    }
    out
}

/// Where `needle` first occurs in `hay` at or after byte `from`, ASCII case ignored, as whole
/// words.
fn find_words(hay: &str, needle: &str, from: usize) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    // Whole words of the title as written: a space or the edge either side (an opening bracket
    // before, closing punctuation after); `go` is not the `go` of `go-task` (found by review).
    let before = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || c == '(');
    let after = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || ",;:.!?)".contains(c));
    (from..=hay.len().saturating_sub(needle.len())).find(|&at| {
        hay.is_char_boundary(at)
            && hay.is_char_boundary(at + needle.len())
            && hay[at..at + needle.len()].eq_ignore_ascii_case(needle)
            && before(hay[..at].chars().next_back())
            && after(hay[at + needle.len()..].chars().next())
    })
}

/// Trigger-mode invocations (outside index entries and the preamble) that resolve to `entry`.
fn invocations_of(ws: &Workspace, entry: EntryId) -> Vec<(FileId, TextRange, TextRange)> {
    let mut out = Vec::new();
    for found in invocations::of(ws).all.iter().filter(|f| f.inv.mode == Mode::Trigger) {
        let Some(f) = ws.file(found.file) else { continue };
        let inv = &found.inv;
        let q = triggers::TriggerQuery { op: Some(inv.op), text: inv.query.slice(&f.text).to_string() };
        // Invocations that used one of the entry's extras keep their words.
        let hit = triggers::resolve(ws, &q).filter(|h| h.kind != triggers::HitKind::ExactExtra);
        if hit.map(|h| h.entry) == Some(entry) {
            out.push((found.file, inv.op_range, inv.query));
        }
    }
    out
}
