//! The stress test's editor: what it types and deletes, and the structural and out-of-range edits it makes.

#[allow(unused_imports)]
use super::*;

pub(super) const WORDS: &[&str] = &[
    "writing",
    "mock",
    "tests",
    "seed",
    "fixture",
    "sailings",
    "payment",
    "webhooks",
    "versioning",
    "public",
    "endpoints",
    "paginate",
    "list",
    "responses",
    "store",
    "ticket",
    "prices",
    "timestamps",
    "cross",
    "time",
    "zones",
    "purging",
    "expired",
    "holds",
    "split",
    "slow",
    "test",
    "suites",
    "café",
    "déjà",
    "vu",
    "😀",
    "naïve",
    "stress",
];
pub(super) const TRIGGERS: &[&str] = &[
    "/when writing mock tests",
    "/how seed fixture sailings",
    "/when versioning public endpoints",
    "/how paginate list responses",
    "/how store ticket prices",
    "/when timestamps cross time zones",
    "/how split slow test suites",
];
pub(super) const SECTIONS: &[&str] = &["api", "data", "testing", "operations", "missing"];
/// What typing inserts, one character at a time (letters weighted up).
pub(super) const TYPED: &[&str] = &[
    "a", "e", "i", "o", "n", "s", "t", "r", "l", "m", "w", "h", "g", "k", "p", " ", " ", " ", "/", "|", ",", "-", "é",
    "😀", "\n", "#",
];

pub(super) fn words(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| *rng.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

pub(super) fn entry_line(rng: &mut Rng) -> String {
    let mut line = if rng.chance(40) {
        rng.pick(TRIGGERS).to_string()
    } else {
        let op = if rng.chance(60) { "/when" } else { "/how" };
        let n = 1 + rng.below(4);
        format!("{op} {}", words(rng, n))
    };
    if rng.chance(30) {
        let n = 1 + rng.below(2);
        line.push_str(&format!(" | {}", words(rng, n)));
    }
    line.push('\n');
    line
}

pub(super) fn some_lines(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(3) {
        match rng.below(10) {
            0 => out.push_str(&format!("## agents/decisions/{}.md\n", rng.pick(SECTIONS))),
            1 => out.push('\n'),
            2 => {
                let n = 2 + rng.below(5);
                out.push_str(&format!("{}\n", words(rng, n)));
            }
            3 if rng.chance(20) => out.push_str("/when crlf line é\r\n"),
            _ => out.push_str(&entry_line(rng)),
        }
    }
    out
}

/// The generator: an editor cursor that types and deletes, plus structural and out-of-range edits.
pub(super) struct Editor {
    pub(super) rng: Rng,
    pub(super) doc: Doc,
    pub(super) cursor: usize,
}

impl Editor {
    pub(super) fn pos(&self, offset: usize) -> (u32, u32) {
        self.doc.position(offset)
    }

    pub(super) fn change(&self, a: usize, b: usize, text: &str) -> Change {
        Change { start: self.pos(a), end: self.pos(b), text: text.into() }
    }

    /// The next change, computed on the current text (the caller applies it).
    pub(super) fn next_change(&mut self) -> Change {
        let len = self.doc.text.len();
        if !self.doc.text.is_char_boundary(self.cursor.min(len)) || self.cursor > len || self.rng.chance(4) {
            self.cursor = self.doc.boundary(&mut self.rng);
        }
        let c = self.cursor;
        // Keep the document between roughly 0.3 and 1 kB, a little under the demo index's 1.2 kB
        // (every edit costs the server a full check, more for a longer index, and the test must
        // stay well under a minute in a debug build). Codes from 100 up force a kind of edit.
        let roll = if len > 1000 {
            [100, 101, 102, 103][self.rng.below(4)]
        } else if len < 300 {
            104
        } else {
            self.rng.below(100)
        };
        match roll {
            // Typing at the cursor.
            0..=39 => {
                let s = *self.rng.pick(TYPED);
                self.cursor = c + s.len();
                self.change(c, c, s)
            }
            // Backspace.
            40..=54 | 100 => {
                let prev = self.doc.text[..c].chars().next_back().map_or(0, char::len_utf8);
                self.cursor = c - prev;
                self.change(c - prev, c, "")
            }
            // A new entry (or a few lines) at a line start.
            55..=62 | 104 => {
                let line = self.rng.below(self.doc.line_count());
                let at = self.doc.line_starts()[line];
                let text = if self.rng.chance(70) { entry_line(&mut self.rng) } else { some_lines(&mut self.rng) };
                self.cursor = at + text.len();
                Change { start: (line as u32, 0), end: (line as u32, 0), text }
            }
            // Delete a whole line.
            63..=69 | 101 => {
                let n = self.doc.line_count();
                let line = self.rng.below(n) as u32;
                self.cursor = self.doc.line_starts()[line as usize];
                Change { start: (line, 0), end: (line + 1, 0), text: String::new() }
            }
            // Multi-line replacement.
            70..=77 => {
                let n = self.doc.line_count();
                let a = self.rng.below(n);
                let b = (a + self.rng.below(4)).min(n - 1);
                let starts = self.doc.line_starts();
                let (sa, ea) = self.doc.content(&starts, a);
                let (sb, eb) = self.doc.content(&starts, b);
                let x = if self.rng.chance(50) { sa } else { ea };
                let y = if self.rng.chance(50) { sb } else { eb };
                let text = some_lines(&mut self.rng);
                self.cursor = x.min(y) + text.len();
                self.change(x.min(y), x.max(y), &text)
            }
            // A new section.
            78..=80 => {
                let line = self.rng.below(self.doc.line_count()) as u32;
                let text =
                    format!("## agents/decisions/{}.md\n\n{}", self.rng.pick(SECTIONS), entry_line(&mut self.rng));
                Change { start: (line, 0), end: (line, 0), text }
            }
            // Remove a section: from its heading to the next one, or past the end.
            81..=82 | 103 => {
                let starts = self.doc.line_starts();
                let heads: Vec<usize> =
                    (0..starts.len()).filter(|&l| self.doc.text[starts[l]..].starts_with("## ")).collect();
                if heads.is_empty() {
                    let a = self.doc.boundary(&mut self.rng);
                    let mut b = (a + 40).min(len);
                    while !self.doc.text.is_char_boundary(b) {
                        b -= 1;
                    }
                    return self.change(a, b, "");
                }
                let k = self.rng.below(heads.len());
                let end = heads.get(k + 1).map_or((starts.len() as u32 + 3, 7), |&l| (l as u32, 0));
                self.cursor = starts[heads[k]];
                Change { start: (heads[k] as u32, 0), end, text: String::new() }
            }
            // Ranges past the end: the server must clamp them.
            83..=89 => {
                let n = self.doc.line_count() as u32;
                match self.rng.below(4) {
                    0 => {
                        let at = (n + self.rng.below(50) as u32, self.rng.below(200) as u32);
                        Change { start: at, end: at, text: format!("\n{}", entry_line(&mut self.rng)) }
                    }
                    1 => {
                        let line = self.rng.below(n as usize) as u32;
                        let col = 1000 + self.rng.below(1000) as u32;
                        Change { start: (line, col), end: (line, col + 5), text: " é".into() }
                    }
                    2 => {
                        // Up to a column past the end of a later line, or past the last line.
                        let line = self.rng.below(n as usize) as u32;
                        let end = (line + 1 + self.rng.below(3) as u32, 9999);
                        Change { start: (line, 3), end, text: "\n".into() }
                    }
                    _ => {
                        let line = self.rng.below(n as usize) as u32;
                        Change { start: (line, 500), end: (line + 1, 9999), text: " 😀".into() }
                    }
                }
            }
            // A position inside a character: rounds down to its start.
            90..=91 => {
                let utf8 = self.doc.utf8;
                let found = self
                    .doc
                    .text
                    .char_indices()
                    .filter(|(_, ch)| if utf8 { !ch.is_ascii() } else { ch.len_utf16() > 1 });
                let candidates: Vec<(usize, char)> = found.collect();
                if candidates.is_empty() {
                    return self.change(c, c, "😀");
                }
                let (at, ch) = *self.rng.pick(&candidates);
                let (line, col) = self.pos(at);
                let inside = if utf8 { 1 + self.rng.below(ch.len_utf8() - 1) } else { 1 } as u32;
                self.cursor = at + 1;
                Change { start: (line, col + inside), end: (line, col + inside), text: "x".into() }
            }
            // A short random deletion (or replacement).
            _ => {
                let a = self.doc.boundary(&mut self.rng);
                let mut b = (a + 1 + self.rng.below(40)).min(len);
                while !self.doc.text.is_char_boundary(b) {
                    b -= 1;
                }
                let text = if self.rng.chance(30) { words(&mut self.rng, 1) } else { String::new() };
                self.cursor = a + text.len();
                self.change(a, b, &text)
            }
        }
    }
}

// ---------------------------------------------------------------- a client that never waits
