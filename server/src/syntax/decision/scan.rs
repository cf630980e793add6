//! Fast path of the decision-file parser: a line scanner finding headings and HTML comments exactly as pulldown-cmark.
//!
//! [`headings`] walks the text once, line by line, and returns the same
//! [`Raw`] as the pulldown-cmark path for the common shape of decision files
//! (ATX headings, paragraphs, fenced and indented code, HTML comments, simple
//! lists and quotes). Whenever a line could mean something it does not decide
//! exactly, it returns `None` and the caller parses the whole text with
//! pulldown-cmark instead. "Exactly" means pulldown-cmark 0.13 with YAML
//! metadata blocks and heading attributes, quirks included; the differential
//! property test in `tests.rs` holds the two paths equal on every text.
//!
//! # Up front
//!
//! `None` for a text with NUL, vertical tab or form feed anywhere, a leading
//! byte-order mark, or a lone `\r` terminator (pulldown-cmark runs some
//! constructs on to the next `\n`). `parse_with` hands it a copy with the
//! mark as spaces and lone `\r` as `\n`, so only the first three remain.
//!
//! # Lines
//!
//! A line whose first non-blank character cannot start a block anywhere (not
//! one of `` # ` ~ < = - * _ + > [ `` or a digit: [`may_start_block`]) is
//! paragraph text or code in every context. Otherwise a tab in its
//! indentation gives `None`; then, at top level, in this order:
//!
//! - Blank (spaces and tabs only): nothing.
//! - Indented 4 or more: indented code or a paragraph continuation, never a
//!   heading, comment or fence.
//! - A setext underline shape (`=`s or `-`s, then spaces or tabs) directly
//!   after a line that may be paragraph text: `None`. That is any non-blank
//!   line except an ATX heading, a fence line or code inside a fence, a
//!   comment-block line, or a thematic break.
//! - Exactly `---` (then spaces or tabs) at column 0, next to a line that is
//!   neither blank nor a closing `---`/`...`: pulldown-cmark opens a YAML
//!   metadata block here, anywhere in the file, when some later line closes
//!   it. Then `None`; otherwise a thematic break.
//! - ATX heading: 1–6 `#`, then space, tab or end of line. The heading range
//!   runs from the first `#` through the line terminator. The title starts
//!   after the spaces and tabs following the marker, and ends where
//!   pulldown-cmark ends it: trailing spaces (not tabs) dropped, then a
//!   closing `#` run dropped with the spaces before it, only when there are
//!   such spaces (a tab is not one); a title of `#`s only is empty. A title
//!   holding any of `` \ ` * _ & < > ! { } ~ | $ ^ `` has inline markup:
//!   pulldown-cmark parses that one line on its own (a heading's inline
//!   content is local), unless it also holds `[` or `]`, whose meaning can
//!   depend on link reference definitions anywhere in the file: `None`.
//! - Fence opener: 3 or more `` ` `` (no `` ` `` later on the line) or `~`.
//!   The fence closes at a line indented less than 4 columns with a run of
//!   the same character at least as long, then only spaces (a tab after the
//!   run does not close it). Unclosed, it runs to the end.
//! - `<!--`: a comment block from the `<` through the terminator of the first
//!   line containing `-->` (searched from the `<`, so `<!-->` closes at once),
//!   or to the end of the text. Any other `<`: `None`.
//! - A thematic break: 3 or more `*`, `-` or `_`, spaces and tabs between.
//! - `[` that may open a link reference definition (which can take the next
//!   lines): `None`. It cannot when a `[` comes before the first `]`, or the
//!   first `]` comes before any `\` and is not followed by `:`.
//! - A list item (`-`, `+`, `*`, or 1–9 digits and `.` or `)`, then space,
//!   tab or end of line) or a block quote (`>`): see containers.
//! - Anything else is paragraph text.
//!
//! # Containers
//!
//! After a list-item or block-quote line the scanner is "in a container" and
//! assumes nothing about the containers' extent or nesting. Until it is sure
//! they have ended, every line is checked:
//!
//! - A line indented 1 or more, or a container line: its markers are
//!   stripped (all of them, with the spaces and tabs between), and neither
//!   what remains nor the rest at any marker may start a block
//!   ([`container_line_is_plain`]): no ATX or fence shape, `<`, `[` as
//!   above, setext-underline shape or thematic break (`- ---`, or `  -`
//!   under an item's paragraph, a setext heading in pulldown-cmark).
//!   Otherwise `None`.
//! - At column 0, an ATX heading, fence opener, `<!--` or thematic break can
//!   neither continue a list item (that needs indentation) or quote (`>`)
//!   nor continue a paragraph lazily (they interrupt paragraphs): the
//!   containers are closed and the line is taken as at top level.
//! - At column 0 after a blank line, other text closes the containers too:
//!   no paragraph is open for it to continue lazily.
//! - At column 0 directly after a non-blank line, other text may be a lazy
//!   continuation: the scanner stays in the container.
//!
//! So headings, fences and comments never occur inside containers on the
//! fast path. Container lines count as paragraph text for the setext rule.

use memchr::{memchr2, memchr3, memmem};

use super::{Raw, RawHeading};
use crate::syntax::{atx_marker, fence_marker};
use crate::text::{LineIndex, TextRange};

/// The headings and comment blocks of `text`, or `None` when the text has
/// something the scanner does not decide exactly.
pub(super) fn headings(text: &str, index: &LineIndex) -> Option<Raw> {
    let b = text.as_bytes();
    if text.starts_with('\u{feff}') || memchr3(0, 0x0b, 0x0c, b).is_some() {
        return None;
    }
    let mut st = Scan { raw: Raw::default(), block: Block::Flow, container: false, prev_text: false };
    let mut prev_blank = true;
    // Start of the last line that closes a YAML metadata block, computed at the first `---`.
    let mut last_closer: Option<Option<usize>> = None;
    let mut next = 0;
    for i in 1..=index.line_count() {
        let start = next;
        if start >= b.len() {
            break;
        }
        next = index.line_start(i);
        let end = line_end(b, next)?;
        let line = &b[start..end];
        match st.block {
            Block::Fence { ch, len } => {
                if closes_fence(line, ch, len) {
                    st.block = Block::Flow;
                }
                continue;
            }
            Block::Comment { start: from } => {
                if memmem::find(line, b"-->").is_some() {
                    st.raw.comments.push(TextRange::new(from, next));
                    st.block = Block::Flow;
                }
                continue;
            }
            Block::Flow => {}
        }
        let ws = line.iter().position(|&c| c != b' ' && c != b'\t');
        let Some(ws) = ws else {
            prev_blank = true;
            st.prev_text = false;
            continue;
        };
        let was_blank = std::mem::replace(&mut prev_blank, false);
        let was_text = std::mem::replace(&mut st.prev_text, true);
        let rest = &line[ws..];
        if !may_start_block(rest[0]) {
            // Paragraph text or indented code, whatever the context.
            if st.container && ws == 0 && was_blank {
                st.container = false;
            }
            continue;
        }
        if line[..ws].contains(&b'\t') {
            return None;
        }
        // Without tabs, the indentation in columns is `ws`.
        if st.container && ws > 0 {
            if !container_line_is_plain(rest) {
                return None;
            }
            continue;
        }
        if ws >= 4 {
            continue;
        }
        if was_text && is_setext_underline(rest) {
            return None;
        }
        if ws == 0 && is_metadata_open(rest) && !is_blank_or_closer(b, next) {
            let closer = *last_closer.get_or_insert_with(|| last_metadata_closer(b, next));
            if closer.is_some_and(|c| c > next) {
                return None;
            }
        }
        st.block_line(text, [start, start + ws, end, next], was_blank)?;
    }
    if let Block::Comment { start } = st.block {
        st.raw.comments.push(TextRange::new(start, b.len()));
    }
    Some(st.raw)
}

/// Where the line that ends at `next` ends, before its `\n` or `\r\n`;
/// None at a lone `\r` (pulldown-cmark runs some constructs on to the next `\n`).
#[inline]
fn line_end(b: &[u8], next: usize) -> Option<usize> {
    match b[..next] {
        [.., b'\r', b'\n'] => Some(next - 2),
        [.., b'\n'] => Some(next - 1),
        [.., b'\r'] => None,
        _ => Some(next),
    }
}

/// The scanner's state between lines.
struct Scan {
    raw: Raw,
    block: Block,
    /// Inside a list item or a block quote.
    container: bool,
    /// The last line was paragraph text.
    prev_text: bool,
}

impl Scan {
    /// A line (`[start, at, end, next]`: its start, its first character
    /// after at most three spaces, its end, the next line's start) that may
    /// start a block; None when the scanner does not decide it exactly.
    #[inline]
    fn block_line(&mut self, text: &str, [start, at, end, next]: [usize; 4], was_blank: bool) -> Option<()> {
        let rest = &text.as_bytes()[at..end];
        if let Some(level) = atx_marker(rest) {
            self.container = false;
            self.prev_text = false;
            self.raw.headings.push(atx_heading(text, start, at, end, next, level)?);
        } else if let Some((ch, len)) = fence_marker(rest) {
            self.container = false;
            self.prev_text = false;
            self.block = Block::Fence { ch, len };
        } else if rest[0] == b'<' {
            if !rest.starts_with(b"<!--") {
                return None;
            }
            self.container = false;
            self.prev_text = false;
            if memmem::find(rest, b"-->").is_some() {
                self.raw.comments.push(TextRange::new(at, next));
            } else {
                self.block = Block::Comment { start: at };
            }
        } else if is_thematic_break(rest) {
            self.container = false;
            self.prev_text = false;
        } else if rest[0] == b'[' && may_be_link_reference(rest) {
            return None;
        } else if marker_len(rest).is_some() {
            if !container_line_is_plain(rest) {
                return None;
            }
            self.container = true;
        } else if self.container && was_blank {
            self.container = false;
        }
        Some(())
    }
}

#[derive(Clone, Copy)]
enum Block {
    /// Between blocks, in a paragraph, or in indented code.
    Flow,
    Fence {
        ch: u8,
        len: usize,
    },
    /// An HTML comment block opened at `start` and not yet closed.
    Comment {
        start: usize,
    },
}

/// End of the content of the line starting at `pos` (the text's length past the end).
fn line_end_or_len(b: &[u8], pos: usize) -> usize {
    memchr2(b'\n', b'\r', &b[pos..]).map_or(b.len(), |i| pos + i)
}

/// Could `c`, first on a line, start a block (or a container) in some context?
/// Lines starting with any other character are plain text wherever they are.
fn may_start_block(c: u8) -> bool {
    BLOCK_START[usize::from(c)]
}

static BLOCK_START: [bool; 256] = {
    let mut t = [false; 256];
    let chars = b"#`~<=-*_+>[0123456789";
    let mut i = 0;
    while i < chars.len() {
        t[chars[i] as usize] = true;
        i += 1;
    }
    t
};

fn is_space_or_tab(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

/// `=`s or `-`s, then only spaces and tabs: pulldown-cmark's setext underline.
fn is_setext_underline(s: &[u8]) -> bool {
    let c = s[0];
    (c == b'=' || c == b'-') && s.iter().skip_while(|&&x| x == c).all(|&x| is_space_or_tab(x))
}

/// Three or more `*`, `-` or `_` with only spaces and tabs between them and after.
fn is_thematic_break(s: &[u8]) -> bool {
    let c = s[0];
    if !matches!(c, b'*' | b'-' | b'_') {
        return false;
    }
    let mut n = 0;
    for &x in s {
        if x == c {
            n += 1;
        } else if !is_space_or_tab(x) {
            return false;
        }
    }
    n >= 3
}

/// Exactly `---`, then only spaces and tabs: a YAML metadata block may open here.
fn is_metadata_open(s: &[u8]) -> bool {
    s.starts_with(b"---") && s[3..].iter().all(|&x| is_space_or_tab(x))
}

/// `---` or `...`, then only spaces: a line that closes a metadata block.
fn is_metadata_closer(line: &[u8]) -> bool {
    (line.starts_with(b"---") || line.starts_with(b"...")) && line[3..].iter().all(|&x| x == b' ')
}

/// Whether the line starting at `pos` (if any) is blank or closes a metadata
/// block at once; either way no metadata block opens on the line before it.
fn is_blank_or_closer(b: &[u8], pos: usize) -> bool {
    if pos >= b.len() {
        return true;
    }
    let line = &b[pos..line_end_or_len(b, pos)];
    line.iter().all(|&x| is_space_or_tab(x)) || is_metadata_closer(line)
}

/// Content start of the last line at or after `pos` that closes a metadata block.
fn last_metadata_closer(b: &[u8], mut pos: usize) -> Option<usize> {
    let mut last = None;
    while pos < b.len() {
        let end = line_end_or_len(b, pos);
        if is_metadata_closer(&b[pos..end]) {
            last = Some(pos);
        }
        pos = match b.get(end) {
            Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => end,
        };
    }
    last
}

/// Whether `line` closes a fence of `len` `ch`s.
fn closes_fence(line: &[u8], ch: u8, len: usize) -> bool {
    let spaces = line.iter().take_while(|&&c| c == b' ').count();
    if spaces >= 4 {
        return false;
    }
    let rest = &line[spaces..];
    let n = rest.iter().take_while(|&&c| c == ch).count();
    n >= len && rest[n..].iter().all(|&c| c == b' ')
}

/// The length of a list-item or block-quote marker at the start of `s`.
fn marker_len(s: &[u8]) -> Option<usize> {
    let after = |n: usize| s.get(n).is_none_or(|&c| is_space_or_tab(c)).then_some(n);
    match s[0] {
        b'>' => Some(1),
        b'-' | b'+' | b'*' => after(1),
        b'0'..=b'9' => {
            let digits = s.iter().take(10).take_while(|c| c.is_ascii_digit()).count();
            if digits <= 9 && matches!(s.get(digits), Some(b'.' | b')')) {
                after(digits + 1)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether a line inside a container (from its first non-blank character)
/// is plain text under every reading: with all its list and quote markers
/// stripped, neither it nor any suffix at a marker boundary starts a block
/// that could hold or be a heading, fence or comment.
fn container_line_is_plain(mut s: &[u8]) -> bool {
    loop {
        let ws = s.iter().take_while(|&&c| is_space_or_tab(c)).count();
        s = &s[ws..];
        let Some(&c) = s.first() else { return true };
        if is_setext_underline(s) || is_thematic_break(s) {
            return false;
        }
        match marker_len(s) {
            Some(n) => s = &s[n..],
            None => {
                let fence_like = (c == b'`' || c == b'~') && s.iter().take_while(|&&x| x == c).count() >= 3;
                return !(atx_marker(s).is_some()
                    || fence_like
                    || c == b'<'
                    || (c == b'[' && may_be_link_reference(s)));
            }
        }
    }
}

/// Whether `s`, starting with `[`, may start a link reference definition.
/// pulldown-cmark's label ends at the first unescaped `]` and fails at a
/// `[`; so the line cannot start one when a `[` comes first, or when the
/// first `]` comes before any backslash and is not followed by `:`.
fn may_be_link_reference(s: &[u8]) -> bool {
    match s[1..].iter().position(|&c| matches!(c, b'[' | b']' | b'\\')) {
        Some(i) => match s[1 + i] {
            b'[' => false,
            b']' => s.get(2 + i) == Some(&b':'),
            _ => true,
        },
        None => true,
    }
}

/// Title bytes: [`INLINE`] for those that make an ATX title more than its
/// source text, [`BRACKET`] for `[` and `]`.
static TITLE_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let inline = b"\\`*_&<>!{}~|$^";
    let mut i = 0;
    while i < inline.len() {
        t[inline[i] as usize] = INLINE;
        i += 1;
    }
    t[b'[' as usize] = BRACKET;
    t[b']' as usize] = BRACKET;
    t
};
const INLINE: u8 = 1;
const BRACKET: u8 = 2;

/// The ATX heading on the line `start..end` (terminator through `next`), its
/// marker at `at`, as pulldown-cmark reports it; `None` when its title may
/// depend on the rest of the file.
fn atx_heading(text: &str, start: usize, at: usize, end: usize, next: usize, level: u8) -> Option<RawHeading> {
    let b = text.as_bytes();
    let range = TextRange::new(at, next);
    let marker_end = at + usize::from(level);
    let title_start = marker_end + b[marker_end..end].iter().take_while(|&&c| is_space_or_tab(c)).count();
    let content = &b[title_start..end];
    let kinds = content.iter().fold(0, |k, &c| k | TITLE_BYTES[usize::from(c)]);
    if kinds & BRACKET != 0 {
        return None;
    }
    if kinds & INLINE != 0 {
        // Inline markup: pulldown-cmark on this line alone gives the same title.
        let mut alone = super::pulldown(&text[start..next]);
        if alone.headings.len() != 1 {
            return None;
        }
        let h = alone.headings.pop()?;
        let shift = |r: TextRange| TextRange::new(r.start + start, r.end + start);
        if shift(h.range) != range {
            return None;
        }
        return Some(RawHeading { level, range, title: h.title, span: h.span.map(shift) });
    }
    // pulldown-cmark's end of the title: trailing spaces dropped, then a closing `#` run
    // with the spaces before it, when there are such spaces; a title of `#`s only is empty.
    let mut limit = content.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
    let closer = content[..limit].iter().rposition(|&c| c != b'#').map_or(0, |i| i + 1);
    if closer == 0 {
        limit = 0;
    } else {
        let spaces = content[..closer].iter().rev().take_while(|&&c| c == b' ').count();
        if spaces > 0 {
            limit = closer - spaces;
        }
    }
    if limit == 0 {
        return Some(RawHeading { level, range, title: String::new(), span: None });
    }
    let span = TextRange::new(title_start, title_start + limit);
    Some(RawHeading { level, range, title: span.slice(text).to_string(), span: Some(span) })
}
