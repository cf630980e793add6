//! The decision-file parser (spec §4): CommonMark headings with titles, levels and sections.
//!
//! Headings are what pulldown-cmark's offset iterator reports, so headings
//! inside fenced or indented code and HTML blocks are never headings, setext
//! headings count, and closing `#`s are not part of the title. YAML front
//! matter is skipped. The title is the heading's plain text (inline markup
//! dropped, code spans kept); `title_range` is the raw source span of that
//! text, for renames.
//!
//! Two parsers produce the same `Raw` headings and comment blocks: the line
//! scanner in `scan`, which decides the common shape of decision files
//! exactly and gives up on anything else, and pulldown-cmark itself, which
//! parses whatever the scanner gives up on. One finishing step (`finish`)
//! turns either into headings, sections and content counts.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::text::{LineIndex, TextRange};

mod scan;

/// One heading of a decision file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    /// Plain text of the title as written (may start with `.` when structural).
    pub title: String,
    /// The normalized title (lowercase, whitespace collapsed; without the `.` when
    /// structural), computed once at parse time: what binding compares.
    pub key: String,
    /// Source span of the title (empty, at the end of the marker, for an empty heading).
    pub title_range: TextRange,
    /// The heading's own source: the ATX line, or the setext text and underline.
    pub range: TextRange,
    /// The heading plus everything up to the next heading of the same or a higher level.
    pub section: TextRange,
    /// Zero-based line of the heading.
    pub line: u32,
    /// Level ≥ 2 and the title starts with `.`.
    pub structural: bool,
    pub setext: bool,
    /// The nearest enclosing heading of a lower level.
    pub parent: Option<usize>,
    /// Whether a deeper heading follows inside this heading's section.
    pub has_children: bool,
    /// Substantive lines (non-blank, not an HTML comment) before the first
    /// sub-heading, or in the whole section when there is none.
    pub direct_lines: u32,
}

impl Heading {
    /// The title without a structural heading's leading `.`.
    pub fn name(&self) -> &str {
        if self.structural {
            self.title[1..].trim_start()
        } else {
            &self.title
        }
    }
    /// Levels ≥ 2 that are not structural: these must be indexed.
    pub fn is_semantic(&self) -> bool {
        self.level >= 2 && !self.structural
    }
}

/// A parsed decision file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecisionFile {
    pub headings: Vec<Heading>,
    /// Number of lines (a final line without terminator counts; a trailing terminator adds none).
    pub line_count: u32,
}

/// The text of each code span of a heading's title as written (`` When Running `cargo test` ``
/// gives `cargo test`), in order, as CommonMark reads them (double backticks included).
pub fn code_spans(title: &str) -> Vec<String> {
    let line = format!("# {}\n", title.replace(['\n', '\r'], " "));
    Parser::new_ext(&line, Options::empty())
        .filter_map(|e| match e {
            Event::Code(c) => Some(c.to_string()),
            _ => None,
        })
        .collect()
}

/// Parses a decision file. Never fails.
pub fn parse(text: &str) -> DecisionFile {
    parse_with(text, &LineIndex::new(text))
}

/// [`parse`] with the text's line index already built.
///
/// The line scanner (`scan`) decides the common shape of decision files on
/// its own, and its answer, when it gives one, is pulldown-cmark's; whatever
/// it cannot decide exactly goes to pulldown-cmark. One finishing step turns
/// either into headings and sections.
///
/// A leading byte-order mark and lone `\r` line ends are read as an editor
/// shows them: the mark as nothing (its first heading is a heading) and `\r`
/// as a line end, as CommonMark defines line endings (pulldown-cmark runs
/// some constructs on across a lone `\r`). Both parsers see a copy with the
/// mark as three spaces and each lone `\r` as `\n`: the same offsets.
pub fn parse_with(text: &str, index: &LineIndex) -> DecisionFile {
    let plain = plain_line_ends(text);
    let raw = scan::headings(&plain, index).unwrap_or_else(|| pulldown(&plain));
    finish(text, index, raw)
}

/// `text` with a leading byte-order mark as three spaces and every lone `\r`
/// as `\n` (byte for byte, so every offset stays); borrowed when it has neither.
fn plain_line_ends(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    let bom = text.starts_with('\u{feff}');
    let lone_cr = memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'));
    if !bom && !lone_cr {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(b.len());
    let mut rest = b;
    if bom {
        out.extend_from_slice(b"   ");
        rest = &b[3..];
    }
    for (i, &c) in rest.iter().enumerate() {
        out.push(if c == b'\r' && rest.get(i + 1) != Some(&b'\n') { b'\n' } else { c });
    }
    // Only ASCII bytes were replaced by ASCII bytes, and the mark by three.
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// A heading as a parser found it, before [`finish_heading`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct RawHeading {
    level: u8,
    /// pulldown-cmark's heading range: from the first `#` (after the
    /// indentation), or the setext text, through the line terminator.
    range: TextRange,
    /// The title's Text and Code events concatenated, breaks as one space; untrimmed.
    title: String,
    /// From the start of the title's first inline event to the end of its last;
    /// `None` for an empty heading.
    span: Option<TextRange>,
}

/// What a parser hands to [`finish`]: the headings, and the HTML-comment
/// blocks (from their `<!--` through the line terminator after `-->`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Raw {
    headings: Vec<RawHeading>,
    comments: Vec<TextRange>,
}

/// The reference parse: pulldown-cmark's offset iterator.
fn pulldown(text: &str) -> Raw {
    let opts = Options::ENABLE_YAML_STYLE_METADATA_BLOCKS | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut raw = Raw::default();
    let mut current: Option<RawHeading> = None;
    let mut html_block: Option<(usize, bool)> = None;
    for (event, range) in Parser::new_ext(text, opts).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                current =
                    Some(RawHeading { level: level as u8, range: range.into(), title: String::new(), span: None });
            }
            Event::End(TagEnd::Heading(_)) => raw.headings.extend(current.take()),
            Event::Start(Tag::HtmlBlock) => {
                let is_comment = text.get(range.clone()).is_some_and(|s| s.trim_start().starts_with("<!--"));
                html_block = Some((range.start, is_comment));
            }
            Event::End(TagEnd::HtmlBlock) => {
                if let Some((start, true)) = html_block.take() {
                    raw.comments.push(TextRange::new(start, range.end));
                }
            }
            ev => {
                if let Some(h) = current.as_mut() {
                    match &ev {
                        Event::Text(t) | Event::Code(t) => h.title.push_str(t),
                        Event::SoftBreak | Event::HardBreak => h.title.push(' '),
                        _ => {}
                    }
                    let r = TextRange::from(range);
                    h.span = Some(match h.span {
                        None => r,
                        Some(s) => TextRange::new(s.start.min(r.start), s.end.max(r.end)),
                    });
                }
            }
        }
    }
    raw
}

/// Headings, sections and the line count from either parser's [`Raw`].
fn finish(text: &str, index: &LineIndex, raw: Raw) -> DecisionFile {
    let mut headings: Vec<Heading> = raw.headings.into_iter().map(|h| finish_heading(text, index, h)).collect();
    link_tree(text, index, &mut headings, &raw.comments);
    let line_count = index.line_count() as u32 - u32::from(text.ends_with(['\n', '\r']) || text.is_empty());
    DecisionFile { headings, line_count }
}

fn finish_heading(text: &str, index: &LineIndex, raw: RawHeading) -> Heading {
    let RawHeading { level, range, title, span } = raw;
    let src = range.slice(text);
    let setext = !src.trim_start().starts_with('#');
    // The heading's own range without its final line terminator.
    let own_end = range.start + src.trim_end_matches(['\n', '\r']).len();
    let range = TextRange::new(range.start, own_end);
    let title_range = span.unwrap_or_else(|| {
        let first_line_end = src.find(['\n', '\r']).map_or(own_end, |i| range.start + i);
        TextRange::empty(first_line_end.min(own_end))
    });
    let trimmed = if title.trim().len() == title.len() { title } else { title.trim().to_string() };
    let structural = level >= 2 && trimmed.starts_with('.');
    let line = index.line_of(range.start) as u32;
    let key = if structural { super::normalize(&trimmed[1..]) } else { super::normalize(&trimmed) };
    Heading {
        level,
        key,
        title: trimmed,
        title_range,
        range,
        section: range,
        line,
        structural,
        setext,
        parent: None,
        has_children: false,
        direct_lines: 0,
    }
}

/// Fills sections, parents, children flags and direct-content counts.
fn link_tree(text: &str, index: &LineIndex, headings: &mut [Heading], comments: &[TextRange]) {
    let mut stack: Vec<usize> = Vec::new();
    for i in 0..headings.len() {
        let level = headings[i].level;
        while let Some(&top) = stack.last() {
            if headings[top].level >= level {
                stack.pop();
            } else {
                break;
            }
        }
        headings[i].parent = stack.last().copied();
        if let Some(p) = headings[i].parent {
            headings[p].has_children = true;
        }
        stack.push(i);
    }
    for i in 0..headings.len() {
        let level = headings[i].level;
        let end = headings[i + 1..].iter().find(|h| h.level <= level).map_or(text.len(), |h| h.range.start);
        headings[i].section = TextRange::new(headings[i].range.start, end);
        let body_start = headings[i].range.end;
        let body_end = headings.get(i + 1).map_or(text.len(), |h| h.range.start.min(end)).max(body_start);
        headings[i].direct_lines = substantive_lines(text, index, TextRange::new(body_start, body_end), comments);
    }
}

/// Non-blank lines of `body` that are not inside an HTML comment, split as
/// [`crate::text::lines`] splits the body's text. `comments` are in document
/// order and disjoint, so one forward walk decides every line.
fn substantive_lines(text: &str, index: &LineIndex, body: TextRange, comments: &[TextRange]) -> u32 {
    let b = text.as_bytes();
    // The first comment that could contain a line of the body.
    let mut next = comments.partition_point(|c| c.end < body.start);
    let mut n = 0;
    // The index's lines, clipped to the body.
    for line in index.line_of(body.start).. {
        let start = index.line_start(line).max(body.start);
        if start >= body.end {
            break;
        }
        let mut end = index.line_start(line + 1);
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        let end = end.clamp(start, body.end);
        if text.get(start..end).is_none_or(is_blank) {
            continue;
        }
        // Comments ending before this line ends cannot contain it or any later line.
        while comments.get(next).is_some_and(|c| c.end < end) {
            next += 1;
        }
        if comments.get(next).is_some_and(|c| c.start <= start) {
            continue;
        }
        n += 1;
    }
    n
}

/// `line.trim().is_empty()`, decided by the first byte for most lines.
fn is_blank(line: &str) -> bool {
    match line.as_bytes().first() {
        None => true,
        // ASCII, and not one of the ASCII characters `char::is_whitespace` accepts.
        Some(&c) if c.is_ascii() && !matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') => false,
        _ => line.trim().is_empty(),
    }
}

#[cfg(test)]
mod tests;
