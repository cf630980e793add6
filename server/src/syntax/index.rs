//! The index parser (spec §3): every line of `memory-index.md` classified, with byte ranges.
//!
//! Decisions the spec leaves open, written down here:
//! - A section starts at an ATX H2 (`## name`, up to three spaces of indent,
//!   closing `#`s stripped) outside fenced code. A bare `##` starts a section
//!   with an empty name.
//! - Entries may be indented (leading spaces/tabs are ignored); the operator is
//!   the first word up to whitespace or `|`.
//! - Fenced code blocks (```` ``` ```` / `~~~`) and multi-line HTML comments
//!   are tracked everywhere, so a `## ` inside them is never a section and their
//!   lines are never entries.
//! - Any ATX heading other than H2 inside a section is a label (kept, no finding).

use std::ops::Range;

use crate::text::{lines, TextRange};

pub use op::Op;

mod op;
mod stored;

use stored::StoredLine;

/// An entry line: `/when TRIGGER | extra, extra`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub op: Op,
    /// The operator token, `/when` or `/how`.
    pub op_range: TextRange,
    /// The trimmed trigger (empty range right after the operator when empty).
    pub trigger: TextRange,
    /// The first `|`, if any.
    pub bar: Option<usize>,
    /// Each comma-separated piece after the first `|`, trimmed; empty pieces
    /// are kept. Inline up to two (most entries), so an entry line is one
    /// block of memory: moving every later line after an edit streams.
    pub extras: smallvec::SmallVec<[TextRange; 2]>,
}

/// Why a non-blank line is kept without being an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    Bold,
    ListItem,
    Heading,
}

/// What a line is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// Before the first section: never an entry, whatever it looks like.
    Preamble,
    /// `## name`: starts section `.0` (an index into [`IndexFile::sections`]).
    SectionHeading(usize),
    Entry(Entry),
    Label(LabelKind),
    /// An HTML comment line (single or part of a multi-line comment).
    Comment,
    /// A fence line or a line inside fenced code.
    Code,
    Blank,
    /// Any other line inside a section: a format error. `slash` is true when
    /// it starts with `/` (an unknown operator rather than a missing one).
    Unknown {
        slash: bool,
    },
}

/// One physical line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexLine {
    /// The line's content, without its terminator.
    pub range: TextRange,
    /// The line including its terminator.
    pub full: TextRange,
    pub kind: LineKind,
    /// The section the line belongs to (None in the preamble).
    pub section: Option<usize>,
}

/// A `## path` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// Index of the heading line in [`IndexFile::lines`].
    pub heading_line: usize,
    /// The trimmed name (the decision file's path relative to the root).
    pub name: TextRange,
    pub name_text: String,
    /// Lines after the heading, up to the next section: `heading_line + 1 .. end_line`.
    pub end_line: usize,
}

impl Section {
    /// The decision file's path the section names (see [`section_path`]).
    pub fn path(&self) -> &str {
        section_path(&self.name_text)
    }
}

/// A parsed index file.
///
/// Lines are stored with their ranges relative to their own start, and the
/// starts apart: an edit that changes a line's length moves only the starts
/// of the lines after it (one number each), not every range of every later
/// line. The accessors give absolute ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexFile {
    /// Every line, its ranges relative to `starts[i]`.
    lines: Vec<StoredLine>,
    /// Where each line starts in the text.
    starts: Vec<usize>,
    pub sections: Vec<Section>,
    /// Section numbers ordered by [`section_path`], then number: what
    /// [`IndexFile::section_named`] searches. Names never change in a splice.
    by_path: Vec<u32>,
    /// Line indices of entries, in file order.
    pub entries: Vec<usize>,
}

impl IndexFile {
    /// Number of lines (as [`crate::text::lines`] counts them).
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// Line `i` with absolute ranges.
    pub fn line(&self, i: usize) -> Option<IndexLine> {
        Some(self.lines.get(i)?.line(self.starts[i]))
    }

    /// Every line with absolute ranges, in order.
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = IndexLine> + ExactSizeIterator + '_ {
        self.lines.iter().zip(&self.starts).map(|(l, &s)| l.line(s))
    }

    /// Line `i`'s content range (without its terminator). Panics when `i` is
    /// out of range, like slice indexing: line numbers come from this file.
    pub fn range(&self, i: usize) -> TextRange {
        self.lines[i].range(self.starts[i])
    }

    /// The bytes that remove a section (lines `heading..end` of `text`, this
    /// index's text) whole: at the end of the file, with the blank lines
    /// before it, so the file still ends with exactly one line terminator
    /// after the last kept line.
    pub fn whole_section(&self, text: &str, heading: usize, end: usize) -> TextRange {
        let start = self.full(heading).start;
        if end < self.line_count() {
            return TextRange::new(start, self.full(end).start);
        }
        let mut first = heading;
        while first > 0 && self.range(first - 1).slice(text).trim().is_empty() && self.section_of(first - 1).is_some() {
            first -= 1;
        }
        if first == heading || first == 0 {
            return TextRange::new(start, text.len());
        }
        TextRange::new(self.full(first).start, text.len())
    }

    /// Line `i` including its terminator. Panics when `i` is out of range.
    pub fn full(&self, i: usize) -> TextRange {
        self.lines[i].full(self.starts[i])
    }

    /// The section line `i` belongs to (None in the preamble or past the end).
    pub fn section_of(&self, i: usize) -> Option<usize> {
        self.lines.get(i)?.section()
    }

    /// If line `i` is an unrecognised line in a section: whether it starts with `/`.
    pub fn unknown(&self, i: usize) -> Option<bool> {
        self.lines.get(i)?.unknown()
    }

    /// The first section named `path` (as [`section_path`] reads names).
    pub fn section_named(&self, path: &str) -> Option<usize> {
        let name = |i: u32| section_path(&self.sections[i as usize].name_text);
        let at = self.by_path.partition_point(|&i| name(i) < path);
        self.by_path.get(at).filter(|&&i| name(i) == path).map(|&i| i as usize)
    }

    /// Whether line `i` is an entry.
    pub fn is_entry(&self, i: usize) -> bool {
        self.lines.get(i).is_some_and(StoredLine::is_entry)
    }

    /// The entry on line `line`, with absolute ranges.
    pub fn entry(&self, line: usize) -> Option<Entry> {
        self.lines.get(line)?.entry(self.starts[line])
    }

    fn push(&mut self, line: IndexLine, start: usize) {
        self.lines.push(StoredLine::new(&line, start));
        self.starts.push(start);
    }

    /// Re-parses lines `window` of `text` (the edited index; `lines` is its
    /// line index) in place, every later line moving by `delta` bytes, when
    /// the edit keeps every line's role: the old and new lines of the window
    /// are entries, blank, labels or other lines inside a section (so no
    /// section, fence or comment starts or ends), and an entry stays an
    /// entry. Returns false, changing nothing, otherwise. The result equals
    /// [`parse`] of `text`; that is what makes it a splice.
    pub fn splice(&mut self, text: &str, lines: &crate::text::LineIndex, window: Range<usize>, delta: isize) -> bool {
        let neutral = |k: &LineKind| {
            matches!(k, LineKind::Entry(_) | LineKind::Blank | LineKind::Unknown { .. } | LineKind::Label(_))
        };
        let entry = |k: &LineKind| matches!(k, LineKind::Entry(_));
        if window.end > self.lines.len() {
            return false;
        }
        let mut fresh = Vec::with_capacity(window.len());
        for l in window.clone() {
            let old = self.lines[l].line(self.starts[l]);
            let content = lines.line_content(text, l);
            let s = content.slice(text);
            if !neutral(&old.kind) || fence_open(s).is_some() || h2_name(s).is_some() {
                return false;
            }
            let mut in_comment = false;
            let kind = classify(s, content.start, &mut in_comment);
            if in_comment || !neutral(&kind) || entry(&kind) != entry(&old.kind) {
                return false;
            }
            let full = TextRange::new(content.start, lines.line_start(l + 1).max(content.end));
            let start = lines.line_start(l);
            fresh
                .push((StoredLine::new(&IndexLine { range: content, full, kind, section: old.section }, start), start));
        }
        if delta != 0 {
            // Only the starts move: ranges are relative to them.
            for s in &mut self.starts[window.end..] {
                *s = (*s as isize + delta) as usize;
            }
            for s in self.sections.iter_mut().filter(|s| s.heading_line >= window.end) {
                s.name = s.name.moved(delta);
            }
        }
        for (l, (line, start)) in window.zip(fresh) {
            self.lines[l] = line;
            self.starts[l] = start;
        }
        true
    }
}

/// Parses an index. Never fails: format problems are line kinds that rules report.
pub fn parse(text: &str) -> IndexFile {
    let mut file = IndexFile::default();
    // Room for every line at once (lone-CR line ends aside): a large index's
    // lines are not moved while they are read.
    let lines_hint = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
    file.lines.reserve_exact(lines_hint);
    file.starts.reserve_exact(lines_hint);
    let mut fence: Option<(u8, usize)> = None; // (char, length)
    let mut in_comment = false;
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    for (i, line) in lines(text).enumerate() {
        let start = if i == 0 { line.content.start + bom.min(line.content.len()) } else { line.content.start };
        let range = TextRange::new(start, line.content.end);
        let s = range.slice(text);
        let section = file.sections.len().checked_sub(1);
        let kind = if let Some((ch, len)) = fence {
            if is_fence_close(s, ch, len) {
                fence = None;
            }
            if section.is_some() {
                LineKind::Code
            } else {
                LineKind::Preamble
            }
        } else if in_comment {
            if s.contains("-->") {
                in_comment = false;
            }
            if section.is_some() {
                LineKind::Comment
            } else {
                LineKind::Preamble
            }
        } else if let Some(open) = fence_open(s) {
            fence = Some(open);
            if section.is_some() {
                LineKind::Code
            } else {
                LineKind::Preamble
            }
        } else if let Some(name) = h2_name(s) {
            let name = TextRange::new(range.start + name.start, range.start + name.end);
            file.sections.push(Section {
                heading_line: i,
                name,
                name_text: name.slice(text).to_string(),
                end_line: i + 1,
            });
            LineKind::SectionHeading(file.sections.len() - 1)
        } else if section.is_none() {
            if s.trim_start().starts_with("<!--") && !s.contains("-->") {
                in_comment = true;
            }
            LineKind::Preamble
        } else {
            classify(s, range.start, &mut in_comment)
        };
        if matches!(kind, LineKind::Entry(_)) {
            file.entries.push(i);
        }
        let section = file.sections.len().checked_sub(1);
        file.push(IndexLine { range, full: line.full, kind, section }, line.full.start);
    }
    let n = file.lines.len();
    let count = file.sections.len();
    for k in 0..count {
        file.sections[k].end_line = if k + 1 < count { file.sections[k + 1].heading_line } else { n };
    }
    file.by_path = (0..count as u32).collect();
    let sections = &file.sections;
    file.by_path.sort_by(|&a, &b| {
        section_path(&sections[a as usize].name_text).cmp(section_path(&sections[b as usize].name_text))
    });
    file
}

/// A section name as a workspace path (`./` prefixes dropped).
pub fn section_path(name: &str) -> &str {
    let mut n = name.trim();
    while let Some(rest) = n.strip_prefix("./") {
        n = rest;
    }
    n
}

fn classify(s: &str, base: usize, in_comment: &mut bool) -> LineKind {
    let t = s.trim_start_matches([' ', '\t']);
    let lead = s.len() - t.len();
    if t.trim_end().is_empty() {
        return LineKind::Blank;
    }
    if t.starts_with("<!--") {
        if !t.contains("-->") {
            *in_comment = true;
        }
        return LineKind::Comment;
    }
    if t.starts_with("**") {
        return LineKind::Label(LabelKind::Bold);
    }
    if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") || t == "-" {
        return LineKind::Label(LabelKind::ListItem);
    }
    if atx_level(t).is_some() {
        return LineKind::Label(LabelKind::Heading);
    }
    if t.starts_with('/') {
        let word_len = t.find(|c: char| c.is_whitespace() || c == '|').unwrap_or(t.len());
        let op = match &t[..word_len] {
            "/when" => Op::When,
            "/how" => Op::How,
            _ => return LineKind::Unknown { slash: true },
        };
        return LineKind::Entry(parse_entry(t, base + lead, op, word_len));
    }
    LineKind::Unknown { slash: false }
}

fn parse_entry(t: &str, base: usize, op: Op, op_len: usize) -> Entry {
    let rest = &t[op_len..];
    let (trig_part, bar) = match rest.find('|') {
        Some(b) => (&rest[..b], Some(op_len + b)),
        None => (rest, None),
    };
    let trigger = trim_range(trig_part, base + op_len);
    let trigger = if trigger.is_empty() { TextRange::empty(base + op_len) } else { trigger };
    let mut extras = smallvec::SmallVec::new();
    if let Some(b) = bar {
        let mut piece_start = b + 1;
        for piece in t[b + 1..].split(',') {
            let r = trim_range(piece, base + piece_start);
            extras.push(if r.is_empty() { TextRange::empty(base + piece_start) } else { r });
            piece_start += piece.len() + 1;
        }
    }
    Entry { op, op_range: TextRange::new(base, base + op_len), trigger, bar: bar.map(|b| base + b), extras }
}

/// The trimmed sub-range of `s`, which starts at `base`.
fn trim_range(s: &str, base: usize) -> TextRange {
    let lead = s.len() - s.trim_start().len();
    let trimmed = s.trim();
    if trimmed.is_empty() {
        return TextRange::empty(base);
    }
    TextRange::new(base + lead, base + lead + trimmed.len())
}

/// The level of an ATX heading line (CommonMark: ≤3 spaces, 1–6 `#`, then space, tab or end).
pub fn atx_level(s: &str) -> Option<usize> {
    let indent = s.len() - s.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    super::atx_marker(&s.as_bytes()[indent..]).map(usize::from)
}

/// If `s` is an ATX H2, the range (relative to `s`) of its trimmed name without closing `#`s.
fn h2_name(s: &str) -> Option<TextRange> {
    if atx_level(s) != Some(2) {
        return None;
    }
    let after = s.find("##").map(|p| p + 2)?;
    let mut content = &s[after..];
    // Closing sequence: trailing `#`s preceded by a space (or the whole content).
    let trimmed = content.trim_end();
    let without = trimmed.trim_end_matches('#');
    if without.len() < trimmed.len() && (without.is_empty() || without.ends_with([' ', '\t'])) {
        content = without;
    }
    let r = trim_range(content, after);
    Some(r)
}

fn fence_open(s: &str) -> Option<(u8, usize)> {
    let indent = s.len() - s.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    super::fence_marker(&s.as_bytes()[indent..])
}

fn is_fence_close(s: &str, ch: u8, len: usize) -> bool {
    let indent = s.len() - s.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let t = s[indent..].trim_end();
    let n = t.len() - t.trim_start_matches(ch as char).len();
    n >= len && n == t.len()
}

#[cfg(test)]
mod tests;
