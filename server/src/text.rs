//! Byte ranges and the line index: byte offset ↔ (line, column) in UTF-8 or UTF-16 units.
//!
//! Line terminators are `\n`, `\r\n` and a lone `\r`, exactly the set the
//! Language Server Protocol uses, so line numbers agree between the parsers,
//! the CLI and every editor. Conversions never fail: an offset past the end,
//! a line past the last one, a column past the end of its line, or a column in
//! the middle of a character are all clamped (rounded down) to the nearest
//! valid position, as rust-analyzer and the LSP specification do.
//! [`elide`] is the one way user text is shortened to be quoted in a message,
//! [`thousands`] the one way a count is written in one.

pub mod glob;
pub mod tokens;

use std::ops::Range;

/// A half-open byte range `start..end` into one file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

impl TextRange {
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }
    pub const fn empty(at: usize) -> Self {
        Self { start: at, end: at }
    }
    pub const fn len(self) -> usize {
        self.end - self.start
    }
    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }
    pub const fn contains(self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }
    /// Like [`contains`](Self::contains) but also true at the end (a cursor just after a word).
    pub const fn touches(self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }
    pub fn slice(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }
    pub const fn as_range(self) -> Range<usize> {
        self.start..self.end
    }
    /// This range moved `by` bytes later (earlier when negative); wraps
    /// nothing: moving before offset 0 is a caller's bug.
    pub const fn moved(self, by: isize) -> Self {
        Self::new(self.start.wrapping_add_signed(by), self.end.wrapping_add_signed(by))
    }
    /// This range moved `by` bytes later.
    pub const fn shifted(self, by: usize) -> Self {
        Self::new(self.start + by, self.end + by)
    }
}

impl From<Range<usize>> for TextRange {
    fn from(r: Range<usize>) -> Self {
        Self::new(r.start, r.end)
    }
}

/// The unit columns are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Bytes of UTF-8 (what the CLI prints and LSP clients that offer `utf-8` get).
    Utf8,
    /// UTF-16 code units (the LSP default).
    #[default]
    Utf16,
}

/// A zero-based line and column; the column unit depends on the [`Encoding`] used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

/// One line of a text: its content range (without terminator) and the range including it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub content: TextRange,
    pub full: TextRange,
}

/// Iterates the lines of `text` split at `\n`, `\r\n` and lone `\r`.
///
/// A text ending in a terminator has no empty last line here (unlike
/// [`LineIndex`], which counts the position after it as a line of its own).
pub fn lines(text: &str) -> impl Iterator<Item = Line> + '_ {
    let bytes = text.as_bytes();
    let mut pos = 0usize;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let rest = &bytes[start..];
        match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            None => {
                pos = bytes.len();
                Some(Line { content: TextRange::new(start, pos), full: TextRange::new(start, pos) })
            }
            Some(i) => {
                let content_end = start + i;
                let term =
                    if bytes[content_end] == b'\r' && bytes.get(content_end + 1) == Some(&b'\n') { 2 } else { 1 };
                pos = content_end + term;
                Some(Line { content: TextRange::new(start, content_end), full: TextRange::new(start, pos) })
            }
        }
    })
}

/// Byte offsets of line starts for one text. Build once per text version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
    ascii: bool,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = Vec::with_capacity(bytes.len() / 40 + 1);
        starts.push(0);
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            match bytes[i] {
                // The `\n` of a `\r\n` pair: the `\r` already started the line after both.
                b'\n' if i > 0 && bytes[i - 1] == b'\r' => *starts.last_mut().unwrap_or(&mut 0) = i + 1,
                _ => starts.push(i + 1),
            }
        }
        Self { starts, len: bytes.len(), ascii: text.is_ascii() }
    }

    /// The line index of `new`, a copy of this index's text with bytes
    /// `from..to` replaced (`to` in this text's offsets): lines before the
    /// change are kept, the changed span is scanned, and the lines after it
    /// move by the length difference. Equal to `LineIndex::new(new)`.
    pub fn edited(&self, new: &str, from: usize, to: usize) -> Self {
        let bytes = new.as_bytes();
        let delta = bytes.len() as isize - self.len as isize;
        // Re-scan whole lines: from the start of `from`'s line to the start of the line after `to`'s.
        let first = self.line_of(from);
        let last = self.line_of(to);
        let scan_from = self.starts[first];
        let old_end = self.starts.get(last + 1).copied().unwrap_or(self.len);
        let scan_to = (old_end as isize + delta) as usize;
        let mut starts = Vec::with_capacity(self.starts.len() + 4);
        starts.extend_from_slice(&self.starts[..=first]);
        for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[scan_from..scan_to]).map(|i| i + scan_from) {
            match bytes[i] {
                b'\n' if i > 0 && bytes[i - 1] == b'\r' => *starts.last_mut().unwrap_or(&mut 0) = i + 1,
                _ => starts.push(i + 1),
            }
        }
        // A scanned terminator at the very end already started the next kept line.
        if starts.last() == Some(&scan_to) && last + 1 < self.starts.len() {
            starts.pop();
        }
        starts.extend(self.starts[(last + 1).min(self.starts.len())..].iter().map(|&s| (s as isize + delta) as usize));
        let ascii = if self.ascii { new[scan_from..scan_to].is_ascii() } else { new.is_ascii() };
        Self { starts, len: bytes.len(), ascii }
    }

    /// Number of lines; a text ending in a terminator has an empty last line.
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The byte length of the text this index was built for.
    pub fn text_len(&self) -> usize {
        self.len
    }

    /// Zero-based line containing `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        self.starts.partition_point(|&s| s <= offset) - 1
    }

    /// Start offset of `line`, or the text length past the last line.
    pub fn line_start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.len)
    }

    /// Range of `line`'s content, without its terminator (empty past the end).
    pub fn line_content(&self, text: &str, line: usize) -> TextRange {
        let start = self.line_start(line);
        let mut end = self.starts.get(line + 1).copied().unwrap_or(self.len);
        let b = text.as_bytes();
        if end > start && b.get(end - 1) == Some(&b'\n') {
            end -= 1;
        }
        if end > start && b.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        TextRange::new(start, end)
    }

    /// Position of `offset` in `enc` units. Offsets past the end or inside a
    /// character are clamped down to the nearest character boundary.
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> LineCol {
        let mut offset = offset.min(self.len).min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let start = self.line_start(line);
        let prefix = text.get(start..offset).unwrap_or("");
        let col = match enc {
            Encoding::Utf8 => prefix.len(),
            Encoding::Utf16 if self.ascii => prefix.len(),
            Encoding::Utf16 => prefix.chars().map(char::len_utf16).sum(),
        };
        LineCol { line: line as u32, col: col as u32 }
    }

    /// Byte offset of `pos` in `enc` units. A line past the end gives the text
    /// length; a column past the line's end gives the line's end; a column
    /// inside a character (or a surrogate pair) rounds down to its start.
    pub fn offset(&self, text: &str, pos: LineCol, enc: Encoding) -> usize {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return self.len;
        }
        let content = self.line_content(text, line);
        let want = pos.col as usize;
        let line_text = content.slice(text);
        match enc {
            Encoding::Utf8 => {
                let mut col = want.min(line_text.len());
                while col > 0 && !line_text.is_char_boundary(col) {
                    col -= 1;
                }
                content.start + col
            }
            Encoding::Utf16 if self.ascii => content.start + want.min(line_text.len()),
            Encoding::Utf16 => {
                let mut units = 0usize;
                for (i, ch) in line_text.char_indices() {
                    let next = units + ch.len_utf16();
                    if next > want {
                        return content.start + i;
                    }
                    units = next;
                }
                content.end
            }
        }
    }
}

/// At most `max` bytes of `s`, cut at a character boundary (never inside a character).
pub fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `s` with its middle replaced by `…` when it has more than `max` characters
/// (the start and a little of the end kept): what a message quotes of user
/// text, so a 50 MB line never becomes a 50 MB message.
pub fn elide(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return std::borrow::Cow::Borrowed(s);
    }
    let tail = max / 4;
    let head = max.saturating_sub(tail + 1);
    let start: String = s.chars().take(head).collect();
    let end: String = s.chars().skip(n - tail).collect();
    std::borrow::Cow::Owned(format!("{start}…{end}"))
}

/// [`elide`] on an owned string, without copying one that is short enough.
pub fn elide_owned(s: String, max: usize) -> String {
    if s.len() <= max {
        return s; // bytes ≥ characters
    }
    match elide(&s, max) {
        std::borrow::Cow::Borrowed(_) => s,
        std::borrow::Cow::Owned(short) => short,
    }
}

/// `s` with every control character but the tab (C0, DEL, C1; line ends too) written as
/// `\u{1b}`: what a message or a memory says of a name it did not choose (a
/// file name from a cloned repository), so that terminal escape sequences
/// in it are shown, never run by the terminal that prints it.
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    let shown = |c: char| c.is_control() && c != '\t';
    if !s.chars().any(shown) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if shown(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` with each lone `\r` (one not followed by `\n`) made a `\n`: a
/// source written with classic Mac line ends read line by line, as
/// [`lines`] (and so `check` and the server) reads it.
pub fn lone_cr_as_lf(text: &str) -> std::borrow::Cow<'_, str> {
    let b = text.as_bytes();
    if !b.iter().enumerate().any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n')) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() != Some(&'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A count for a message, with thousands separated: `5186` → `5,186`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// FNV-1a, 64 bits: a hash that is the same on every platform and Rust
/// version, for what is kept between runs (a session id's file name, a
/// cache key, an imported section's fingerprint).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The byte ranges of `line`'s inline code spans (a run of backticks to the
/// next run of the same length).
pub fn code_spans(line: &str) -> Vec<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'`' {
            i += 1;
            continue;
        }
        let run = b[i..].iter().take_while(|&&c| c == b'`').count();
        let mut j = i + run;
        let mut closed = None;
        while j < b.len() {
            if b[j] == b'`' {
                let n = b[j..].iter().take_while(|&&c| c == b'`').count();
                if n == run {
                    closed = Some(j + n);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(end) => {
                out.push(i..end);
                i = end;
            }
            None => i += run,
        }
    }
    out
}

#[cfg(test)]
mod tests;
