//! The stress test's documents and edits: a seeded generator and the client's copy of a document with LSP positions.

#[allow(unused_imports)]
use super::*;

/// xorshift64*: small, deterministic, good enough to pick edits.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        // splitmix64 once, so that small seeds do not start in a weak state (and never 0).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub(super) fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------- the client's copy of the text

/// LSP line breaks (`\n`, `\r\n`, lone `\r`) and positions in UTF-8 bytes or UTF-16 units,
/// clamped as the specification says: a column past the end of its line is the line's end, a
/// line past the last one is the end of the document, a column inside a character is its start.
pub(super) struct Doc {
    pub(super) text: String,
    pub(super) utf8: bool,
}

impl Doc {
    pub(super) fn line_starts(&self) -> Vec<usize> {
        let b = self.text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\n' {
                starts.push(i + 1);
            } else if b[i] == b'\r' {
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                starts.push(i + 1);
            }
            i += 1;
        }
        starts
    }

    /// Start and end (before its break) of a line's content.
    pub(super) fn content(&self, starts: &[usize], line: usize) -> (usize, usize) {
        let start = starts[line];
        let mut end = starts.get(line + 1).copied().unwrap_or(self.text.len());
        let b = self.text.as_bytes();
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    pub(super) fn offset(&self, (line, col): (u32, u32)) -> usize {
        let starts = self.line_starts();
        let (line, col) = (line as usize, col as usize);
        if line >= starts.len() {
            return self.text.len();
        }
        let (start, end) = self.content(&starts, line);
        let content = &self.text[start..end];
        if self.utf8 {
            let mut c = col.min(content.len());
            while !content.is_char_boundary(c) {
                c -= 1;
            }
            return start + c;
        }
        let mut units = 0;
        for (i, ch) in content.char_indices() {
            units += ch.len_utf16();
            if units > col {
                return start + i;
            }
        }
        end
    }

    pub(super) fn units(&self, s: &str) -> usize {
        if self.utf8 {
            s.len()
        } else {
            s.encode_utf16().count()
        }
    }

    pub(super) fn position(&self, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset) - 1;
        (line as u32, self.units(&self.text[starts[line]..offset]) as u32)
    }

    /// Applies one change exactly as the server must: clamp both ends, then replace.
    pub(super) fn apply(&mut self, change: &Change) {
        let (a, b) = (self.offset(change.start), self.offset(change.end));
        self.text.replace_range(a.min(b)..a.max(b), &change.text);
    }

    pub(super) fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// A random character boundary.
    pub(super) fn boundary(&self, rng: &mut Rng) -> usize {
        let mut o = rng.below(self.text.len() + 1);
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }
}

/// One `contentChanges` element.
#[derive(Clone, Debug)]
pub(super) struct Change {
    pub(super) start: (u32, u32),
    pub(super) end: (u32, u32),
    pub(super) text: String,
}

impl Change {
    pub(super) fn json(&self) -> Value {
        json!({"range": {"start": {"line": self.start.0, "character": self.start.1},
                         "end": {"line": self.end.0, "character": self.end.1}}, "text": self.text})
    }
}

// ---------------------------------------------------------------- the edits
