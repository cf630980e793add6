//! `/when …` and `/how …` invocations written in any Markdown text (skills, CLAUDE.md, decisions).
//!
//! An invocation is `/when` or `/how` at the start of a word (start of line,
//! after whitespace, a backtick, `(`, `"`, `'`, `[` or `*`), then whitespace,
//! then the query. The query ends at the end of the line, at the closing
//! backtick when the invocation starts inline code, at a `|`, or before a
//! `  #` comment; trailing whitespace and sentence punctuation (`.,;:!?)`)
//! are dropped. A query starting with `<` is a placeholder (`/when <trigger>`)
//! and not an invocation. `.Title` is section mode and `..name.md` file mode.
//! Code blocks are scanned too: agents paste examples there.

use crate::syntax::index::Op;
use crate::text::{lines, TextRange};

/// What an invocation asks the resolver for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Trigger,
    /// `.Title`: a heading by title.
    Section,
    /// `..name.md`: a whole decision file.
    File,
}

/// One invocation found in a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub op: Op,
    /// `/when` or `/how`.
    pub op_range: TextRange,
    /// The query as written (for Section and File modes, including the dots).
    pub query: TextRange,
    /// The target name without the mode's dots (equals `query` in Trigger mode).
    pub target: TextRange,
    pub mode: Mode,
    /// Whether it sits inside inline code (a backtick right before the operator).
    pub in_code_span: bool,
}

/// Every invocation in `text`, in order. Never fails.
pub fn scan(text: &str) -> Vec<Invocation> {
    let mut out = Vec::new();
    for line in lines(text) {
        let s = line.content.slice(text);
        let mut from = 0;
        while let Some(pos) = s[from..].find('/') {
            let at = from + pos;
            from = at + 1;
            if let Some(inv) = at_slash(s, at, line.content.start) {
                from = inv.query.end.max(at + 1) - line.content.start;
                out.push(inv);
            }
        }
    }
    out
}

fn at_slash(s: &str, at: usize, base: usize) -> Option<Invocation> {
    let before = s[..at].chars().next_back();
    if !matches!(before, None | Some(' ' | '\t' | '`' | '(' | '"' | '\'' | '[' | '*' | '>')) {
        return None;
    }
    let rest = &s[at..];
    let (op, len) = if rest.starts_with("/when") {
        (Op::When, 5)
    } else if rest.starts_with("/how") {
        (Op::How, 4)
    } else {
        return None;
    };
    let after = &rest[len..];
    let ws = after.len() - after.trim_start_matches([' ', '\t']).len();
    if ws == 0 {
        return None;
    }
    let q_start = at + len + ws;
    let in_code_span = before == Some('`');
    let tail = &s[q_start..];
    let mut end = tail.len();
    if in_code_span {
        end = end.min(tail.find('`')?);
    }
    if let Some(b) = tail.find('|') {
        end = end.min(b);
    }
    for marker in ["  #", "\t#"] {
        if let Some(c) = tail.find(marker) {
            end = end.min(c);
        }
    }
    let mut q = tail[..end].trim_end();
    if !in_code_span {
        q = q.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '"', '\'', '*', ']']).trim_end();
    }
    if q.is_empty() || q.starts_with('<') {
        return None;
    }
    let query = TextRange::new(base + q_start, base + q_start + q.len());
    let (mode, dots) = if q.starts_with("..") {
        (Mode::File, 2)
    } else if q.starts_with('.') {
        (Mode::Section, 1)
    } else {
        (Mode::Trigger, 0)
    };
    let name = &q[dots..];
    let lead = name.len() - name.trim_start().len();
    let target = TextRange::new(query.start + dots + lead, query.end);
    if target.is_empty() {
        return None;
    }
    Some(Invocation { op, op_range: TextRange::new(base + at, base + at + len), query, target, mode, in_code_span })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(Op, Mode, &str)> {
        scan(text).into_iter().map(|i| (i.op, i.mode, i.target.slice(text))).collect()
    }

    /// A text and the invocations found in it.
    type Case<'a> = (&'a str, &'a [(Op, Mode, &'a str)]);

    #[test]
    fn table_of_invocation_shapes() {
        let cases: &[Case] = &[
            ("/when writing mock tests", &[(Op::When, Mode::Trigger, "writing mock tests")]),
            ("**Same principle as `/when choosing name`:** more", &[(Op::When, Mode::Trigger, "choosing name")]),
            ("Run /how encode paths.", &[(Op::How, Mode::Trigger, "encode paths")]),
            ("/when .Mock Patching", &[(Op::When, Mode::Section, "Mock Patching")]),
            ("see `/when ..testing.md` first", &[(Op::When, Mode::File, "testing.md")]),
            ("/when <trigger>        # behavioral", &[]),
            ("/when x  # comment", &[(Op::When, Mode::Trigger, "x")]),
            ("/when a | extra", &[(Op::When, Mode::Trigger, "a")]),
            ("path/when x and /whenever y and /how", &[]),
            ("`/when a` and `/how b`", &[(Op::When, Mode::Trigger, "a"), (Op::How, Mode::Trigger, "b")]),
            ("`/when unterminated", &[]),
            ("(/when in parens)", &[(Op::When, Mode::Trigger, "in parens")]),
            ("/when ..", &[]),
        ];
        for (text, want) in cases {
            assert_eq!(&found(text), want, "{text:?}");
        }
    }

    #[test]
    fn ranges_are_absolute_across_lines_and_crlf() {
        let text = "x\r\n```\r\n/when in code\r\n```\r\n";
        let inv = &scan(text)[0];
        assert_eq!(inv.target.slice(text), "in code");
        assert_eq!(inv.op_range.slice(text), "/when");
        assert!(!inv.in_code_span);
    }
}
