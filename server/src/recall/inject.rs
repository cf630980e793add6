//! What the hook injects (pure): the recalled decisions as `[memory-index]` blocks under a size cap, and the session note.
//!
//! A block starts with its [`Header`], the one type that writes the header
//! line and reads it back (`recall-stats` recognises injected decisions in
//! transcripts through [`Header::parse`], never by spelling the format
//! again). Decision text is data: a body line that would read as a header
//! is escaped ([`defang`]).

use crate::ide::resolve;
use crate::model::{EntryId, HeadingId, Workspace};
use crate::search::recall::{recall, recall_command, Recalled};
use crate::search::semantic::{rescore, Cosines};

/// A section is injected whole at or above this confidence when it is short.
pub const FULL_CONFIDENCE: f64 = 0.8;
/// Longest section body (characters) injected whole.
pub const FULL_BODY_CHARS: usize = 1500;
/// A longer or less certain section shows this many of its first lines.
pub const PREVIEW_LINES: usize = 3;
/// Longest text (bytes) ranked: a pasted log past this is cut.
pub const MAX_TEXT_BYTES: usize = 8 * 1024;

/// What one hook call may say.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Speak only at or above this confidence.
    pub threshold: f64,
    pub max_decisions: usize,
    pub max_chars: usize,
    /// The text is a shell command or a failure's output: ranked with the
    /// code evidence of `search::commands` ([`recall_command`]).
    pub shell: bool,
    /// The agent has the `/when` and `/how` skills (Claude Code): a cut
    /// block says to run the entry; other agents are given the shell
    /// command (found by review: Codex, Copilot and Gemini CLI were told to
    /// run a `/how` they do not have).
    pub skills: bool,
    /// Below the threshold, point at decisions at or above this confidence
    /// ([`pointer`]); at or above the threshold, never.
    pub pointer: f64,
    /// Most decisions pointed at (0: no pointer).
    pub max_pointers: usize,
    /// With the semantic tier, pointers also go to the decisions nearest the
    /// text in meaning at this cosine or more (above 1: never).
    pub meaning: f64,
}

/// The text to inject and the keys of the decisions it carries (for the session state).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Injection {
    pub text: String,
    pub keys: Vec<String>,
    /// The session keys of the decisions pointed at ([`pointer::key`]): a
    /// pointer is not a decision shown, so a later prompt still injects its
    /// body; it is not pointed at again in the session.
    pub pointed: Vec<String>,
}

/// The decisions for `text` at or above the threshold, skipping those `seen`
/// already in this session, as blocks each starting with
/// `[memory-index] /when trigger → Title (path:line, confidence 0.93)`, cut to
/// `max_chars` at a line boundary. None when nothing qualifies. With
/// `semantic`, a prompt's candidates are re-scored by meaning too
/// (`search::semantic`); commands and failures are ranked by words and code.
pub fn recalled(
    ws: &Workspace,
    text: &str,
    limits: Limits,
    seen: &dyn Fn(&str) -> bool,
    semantic: Option<&dyn Cosines>,
) -> Option<Injection> {
    if limits.max_decisions == 0 || limits.max_chars == 0 {
        return None;
    }
    let text = crate::text::cut(text, MAX_TEXT_BYTES);
    let ranked = if limits.shell {
        recall_command(ws, text, wanted(limits))
    } else {
        let found = recall(ws, text, wanted(limits));
        match semantic {
            Some(s) => rescore(ws, text, found, s),
            None => found,
        }
    };
    // No body: the decisions nearest in meaning are pointer candidates too.
    let body = ranked.first().is_some_and(|r| r.confidence >= limits.threshold);
    let near = match semantic {
        Some(s) if !limits.shell && !body && limits.max_pointers > 0 && limits.meaning <= 1.0 => {
            pointer::nearest(ws, s.nearest(ws, text, limits.max_pointers + 1), limits.meaning)
        }
        _ => Vec::new(),
    };
    // A workspace shows every section it holds.
    render_with(ws, ranked, &near, limits, seen).unwrap_or_default()
}

/// How many decisions a prompt's ranking asks for: the most injected, and
/// ten more for those already seen or under the threshold.
pub fn wanted(limits: Limits) -> usize {
    limits.max_decisions + 10
}

/// A section [`Shown::body`] could not read as it was indexed: the caller
/// ranks again from the files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stale;

/// What a block shows of a decision: from a [`Workspace`], or from a
/// memory's recall view (`recall::view`), which reads a section from
/// its file only when it is injected.
pub trait Shown {
    /// The decision's identity across calls: its file and normalized heading (stable when lines move).
    fn key(&self, id: HeadingId) -> Option<String>;
    /// The entry as written (`/when trigger`).
    fn written(&self, entry: EntryId) -> String;
    /// The heading's file path, title and 1-based line.
    fn place(&self, id: HeadingId) -> Option<(&str, &str, u32)>;
    /// The section's text after its heading line(s), without surrounding
    /// blank lines; None when it cannot be read as it was.
    fn body(&self, id: HeadingId) -> Option<std::borrow::Cow<'_, str>>;
}

impl Shown for Workspace {
    fn key(&self, id: HeadingId) -> Option<String> {
        let f = self.file(id.file)?;
        let h = self.heading(id)?;
        Some(format!("{}\t{}", f.path, h.key).replace(['\n', '\r'], " "))
    }
    fn written(&self, entry: EntryId) -> String {
        resolve::written(self, entry)
    }
    fn place(&self, id: HeadingId) -> Option<(&str, &str, u32)> {
        Some((self.file(id.file)?.path.as_str(), self.heading(id)?.name(), self.heading(id)?.line + 1))
    }
    fn body(&self, id: HeadingId) -> Option<std::borrow::Cow<'_, str>> {
        Some(resolve::body_of(self, id).into())
    }
}

/// The blocks of `ranked` (best first) at or above the threshold, skipping
/// those `seen`, under the limits; when none is at the threshold, pointers
/// at the decisions above the pointer floor ([`pointer`]); Ok(None) when
/// nothing qualifies, Err when a section could not be read as it was.
pub fn render(
    shown: &dyn Shown,
    ranked: Vec<Recalled>,
    limits: Limits,
    seen: &dyn Fn(&str) -> bool,
) -> Result<Option<Injection>, Stale> {
    render_with(shown, ranked, &[], limits, seen)
}

/// [`render`] with the decisions nearest the text in meaning as pointer
/// candidates too ([`pointer::Near`]), after the ranked ones.
pub fn render_with(
    shown: &dyn Shown,
    ranked: Vec<Recalled>,
    near: &[pointer::Near],
    limits: Limits,
    seen: &dyn Fn(&str) -> bool,
) -> Result<Option<Injection>, Stale> {
    if limits.max_decisions == 0 || limits.max_chars == 0 {
        return Ok(None);
    }
    let mut out = Injection::default();
    let mut used = 0usize;
    // A decision at the threshold already seen: the session has the ranking's best in view, and
    // nothing is pointed at either.
    let above = ranked.first().is_some_and(|r| r.confidence >= limits.threshold);
    for r in ranked.iter().filter(|r| r.confidence >= limits.threshold) {
        if out.keys.len() >= limits.max_decisions {
            break;
        }
        let Some(key) = shown.key(r.heading) else { continue };
        if seen(&key) || out.keys.contains(&key) {
            continue;
        }
        let sep = if out.text.is_empty() { 0 } else { 2 };
        let block = block(shown, r.entry, r.heading, r.confidence, limits.skills).ok_or(Stale)?;
        let room = limits.max_chars.saturating_sub(used + sep);
        let fitted = fit_lines(&block, room);
        if fitted.is_empty() {
            break;
        }
        if sep > 0 {
            out.text.push_str("\n\n");
        }
        out.text.push_str(fitted);
        used += sep + fitted.chars().count();
        out.keys.push(key);
        if fitted.len() < block.len() {
            break;
        }
    }
    if out.keys.is_empty() && !above {
        pointer::point(shown, &ranked, near, limits, seen, &mut out);
    }
    Ok((!out.text.is_empty()).then_some(out))
}

/// A decision's identity across calls: its file and normalized heading (stable when lines move).
pub fn key(ws: &Workspace, id: HeadingId) -> Option<String> {
    Shown::key(ws, id)
}

/// One decision's block: the header line, then the section or its first
/// lines; None when its section cannot be read as it was.
fn block(shown: &dyn Shown, entry: EntryId, id: HeadingId, confidence: f64, skills: bool) -> Option<String> {
    let written = shown.written(entry);
    let (path, title, line) = shown.place(id).unwrap_or(("", "", 0));
    let mut out = Header { written: written.clone(), title: title.into(), path: path.into(), line, confidence }.line();
    let body = shown.body(id)?;
    let body = crate::syntax::source_mark::without_marks(&body);
    let body = defang(&body);
    let body = body.as_ref();
    if body.is_empty() {
        return Some(out);
    }
    out.push('\n');
    // Past the first lines, only where it came from (`Source: …`): nothing left to run `/when` for
    // (found by review: "Run … for the rest." after every rule line had been shown).
    let rest = body.lines().skip(PREVIEW_LINES).any(|l| !l.trim().is_empty() && !l.starts_with("Source: "));
    if confidence >= FULL_CONFIDENCE && body.chars().count() <= FULL_BODY_CHARS || !rest {
        out.push_str(body);
    } else {
        let lines: Vec<&str> = body.lines().take(PREVIEW_LINES).collect();
        out.push_str(&lines.join("\n"));
        // Only when there is a rest: a short section is shown whole either way.
        // How much is left out, and how to read it before acting on it (found by review: a
        // model read the first lines as the whole decision).
        if body.lines().nth(PREVIEW_LINES).is_some() {
            let left = body.lines().skip(PREVIEW_LINES).filter(|l| !l.trim().is_empty()).count();
            let run = how_to_read(&written, skills, path, line);
            let lines = if left == 1 { "line" } else { "lines" };
            out.push_str(&format!("\n[cut: {left} more {lines}; read them with {run} before acting on it]"));
        }
    }
    Some(out)
}

/// How the agent reads the decision of the entry `written` (`/when x | y`),
/// whose heading is at `path:line`: the skill in Claude Code, the shell
/// command or the MCP tool elsewhere. A query with a character a shell
/// reads (`$`, a quote, `;`: a title in a cloned repository may hold
/// `$(…)`) is never offered as a command to run (found by review): the
/// agent reads the file at the heading's line instead.
pub fn how_to_read(written: &str, skills: bool, path: &str, line: u32) -> String {
    let query = written.trim_start_matches('/').split(" | ").next().unwrap_or_default();
    let plain = |c: char| c.is_alphanumeric() || " -_.,:+@%=/".contains(c);
    if !query.chars().all(plain) {
        format!("your file-reading tool on `{path}` from line {line}")
    } else if skills {
        format!("`/{query}` (the skill)")
    } else {
        format!("`memory-index-lsp resolve \"{query}\"` or the MCP tool `resolve`")
    }
}

/// The block header's marker: only the hook writes a line that starts with it.
pub const MARKER: &str = "[memory-index]";

pub mod files;
pub mod pointer;
pub mod since;
pub use pointer::{Pointer, POINTER_MARKER};

/// A block's first line: `[memory-index] /when trigger → Title (path:line, confidence 0.93)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The entry as written (`/when trigger`).
    pub written: String,
    pub title: String,
    pub path: String,
    /// 1-based line of the heading.
    pub line: u32,
    pub confidence: f64,
}

impl Header {
    /// The header line.
    pub fn line(&self) -> String {
        let Header { written, title, path, line, confidence } = self;
        format!("{MARKER} {written} \u{2192} {title} ({path}:{line}, confidence {confidence:.2})")
    }

    /// Reads a header line back (None for any other line, an escaped body line included).
    pub fn parse(line: &str) -> Option<Header> {
        let rest = line.strip_prefix(MARKER)?.strip_prefix(' ')?;
        let (written, rest) = rest.split_once(" \u{2192} ")?;
        let rest = rest.strip_suffix(')')?;
        let (title, place) = rest.rsplit_once(" (")?;
        let (at, confidence) = place.rsplit_once(", confidence ")?;
        let (path, line) = at.rsplit_once(':')?;
        Some(Header {
            written: written.into(),
            title: title.into(),
            path: path.into(),
            line: line.parse().ok()?,
            confidence: confidence.parse().ok()?,
        })
    }
}

/// A body as data: a line that would start like a block header (`[memory-index] …`,
/// after any indentation) gets a backslash before it, so a decision's text can
/// never pass for another block with a title, source and confidence of its own.
pub fn defang(body: &str) -> std::borrow::Cow<'_, str> {
    if !body.contains(MARKER) && !body.contains(POINTER_MARKER) {
        return body.into();
    }
    let mut out = String::with_capacity(body.len() + 8);
    for line in body.split_inclusive('\n') {
        let rest = line.trim_start();
        if rest.starts_with(MARKER) || rest.starts_with(POINTER_MARKER) {
            out.push_str(&line[..line.len() - rest.len()]);
            out.push('\\');
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
    }
    out.into()
}

/// The longest prefix of `text` made of whole lines with at most `max` characters.
pub fn fit_lines(text: &str, max: usize) -> &str {
    if text.chars().count() <= max {
        return text;
    }
    let mut end = 0usize;
    let mut chars = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let n = body.chars().count();
        if chars + n > max {
            break;
        }
        end += body.len();
        chars += n;
        if body.len() < line.len() {
            if chars + 1 > max {
                break;
            }
            end += 1;
            chars += 1;
        }
    }
    text[..end].trim_end_matches('\n')
}

/// The SessionStart note: how to recall, and the index's size. With
/// `skills` (Claude Code) it names the `/when` and `/how` skills; other
/// agents are told the shell commands and the MCP tools.
pub fn session_note(ws: &Workspace, skills: bool) -> String {
    let entries = ws.bindings().entries.len();
    let files = ws.decisions().count();
    let index = &ws.config().index;
    let how = if skills {
        "`/when <situation>` or `/how <task>` (the skills `when` and `how`; with the plugin they are \
`memory-index:when` and `memory-index:how`), `/when .Section Title` for one section, `/when ..file.md` for a whole \
decision file; in a shell, `memory-index-lsp resolve \"when <words>\"`"
    } else {
        "in a shell, `memory-index-lsp resolve \"when <situation>\"` or `memory-index-lsp resolve \"how <task>\"` \
(`\"when .Section Title\"` for one section, `\"when ..file.md\"` for a whole decision file), or the MCP server \
`memory-index` (tools resolve, search, remember)"
    };
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let (entries, files) = (plural(entries, "entry", "entries"), plural(files, "decision file", "decision files"));
    let mut note = format!(
        "memory-index: this project records its decisions in {index} ({entries}, {files}). \
Before deciding how to do something, recall what was decided: {how}, or `memory-index-lsp search <any words>` for a \
ranked list when you do not know the trigger. Decisions that match a prompt, a command or an error are injected on \
their own, each headed `[memory-index]` with how sure the match is: a decision applies to the situation its title \
names; follow it when your work is in that situation and set it aside when it is not. A line headed \
`[memory-index?]` names a decision that may apply without showing it: read it only if it applies to your task. The \
person's instruction of the moment wins; say so when the two conflict. Record what the person settles with `remember`."
    );
    if let Some(list) = small_index(ws) {
        note.push_str("\nIts decisions (recall one when the work touches it):\n");
        note.push_str(&list);
    }
    note
}

/// Most entries, and most characters, of an index the SessionStart note lists whole.
pub const LIST_ENTRIES: usize = 40;
pub const LIST_CHARS: usize = 3000;

/// Every entry of a small memory (at most [`LIST_ENTRIES`] bound entries
/// and [`LIST_CHARS`] characters), one per line as written, without its
/// extras: a new memory's few decisions are cheaper to show at the start
/// than to miss when a prompt words them differently. None for a larger one.
fn small_index(ws: &Workspace) -> Option<String> {
    let b = ws.bindings();
    let bound: Vec<_> = b.entries.iter().enumerate().filter(|(_, e)| e.heading.is_some()).collect();
    if bound.is_empty() || bound.len() > LIST_ENTRIES {
        return None;
    }
    let mut out = String::new();
    for (i, _) in bound {
        let written = crate::ide::resolve::written(ws, crate::model::EntryId(i as u32));
        let line = written.split(" | ").next().unwrap_or(&written).trim();
        out.push_str(&defang(line));
        out.push('\n');
    }
    (out.chars().count() <= LIST_CHARS).then(|| out.trim_end().to_string())
}

#[cfg(test)]
mod tests;
