//! A decision's scope line, ``Applies to files matching `src/**/*.ts`, `test/**`.``: found in its section's own text, its globs and their source spans.
//!
//! The line is the first of the section's direct text (before any
//! sub-heading, outside fenced code) that starts, after a list marker, with
//! [`PREFIX`] (any case). Each code span on it holds one glob or several
//! separated by commas (Cursor's `globs: src/**/*.ts, test/**`, as
//! `import` writes it); `text::glob` says how a glob reads.

use crate::text::glob::{split_list, Glob};
use crate::text::TextRange;

/// The scope line as docs/rules.md ("Scopes") explains it to a person.
pub const DOC: &str = "A decision may say which files it governs, in one line of its own text \
(before any sub-heading): ``Applies to files matching `src/**/*.ts`, `test/**`.`` (any case; a list \
marker before it is fine; each glob in backticks, or several in one pair separated by commas, as \
`import` writes a Cursor rule's `globs:` and a Copilot file's `applyTo:`). When an agent reads or edits \
a file the scope holds (Claude Code `Read`, `Edit`, `Write`; Codex `apply_patch` or `cat`; Copilot \
`view`, `edit`, `create`; Gemini `read_file`, `replace`, `write_file`), the hook injects the decision \
whole, once a session.\n\nA glob is relative to the project's folder (the one holding \
`memory-index.toml` or `agents/`). `*` matches within one name, `?` one character, `[a-z]` and `[!a]` \
one of a set, `**` any number of folders, `{ts,tsx}` either word. A glob without a `/` matches at any \
depth (`*.ts`, `tests`); one with a `/` is anchored at the project's folder; a folder's glob matches \
everything under it (`docs` and `docs/` hold every folder named `docs`, `/docs` and `docs/**` only the \
project's own); `\\` makes the next character plain. Case matters; `!` negation and \
`..` are refused. `invalid-scope` reports a glob that cannot be read, `unmatched-scope` one that matches \
no file of the project, and hovering a glob in the editor lists the files it matches.";

/// How a scope line starts.
pub const PREFIX: &str = "Applies to files matching";

/// A section's scope line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    /// The line, without its line break.
    pub line: TextRange,
    /// Its globs in order (none when the line has no code span).
    pub globs: Vec<ScopeGlob>,
}

/// One glob of a scope line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScopeGlob {
    pub text: String,
    /// Its span in the file.
    pub range: TextRange,
    /// The glob, or why it cannot be read.
    pub parsed: Result<Glob, String>,
}

impl Scope {
    /// Whether the project-relative `path` is in the scope (a glob that cannot be read matches nothing).
    pub fn matches(&self, path: &str) -> bool {
        self.globs.iter().any(|g| g.parsed.as_ref().is_ok_and(|glob| glob.matches(path)))
    }

    /// The globs as written, for a reader (`src/**/*.ts, test/**`).
    pub fn written(&self) -> String {
        self.globs.iter().map(|g| g.text.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// The scope line of the section text `text[body]` (the part after its
/// heading line), if it has one.
pub fn find(text: &str, body: TextRange) -> Option<Scope> {
    let part = text.get(body.start..body.end)?;
    // Most sections have none: one search (any case) before reading lines.
    if !mentions(part) {
        return None;
    }
    let mut at = body.start;
    let mut fence: Option<(u8, usize)> = None;
    for line in part.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let t = line.trim_end_matches(['\n', '\r']);
        let lead = t.trim_start_matches([' ', '\t']);
        if let Some((ch, len)) = fence {
            if lead.bytes().take_while(|&c| c == ch).count() >= len
                && lead.trim_start_matches(ch as char).trim().is_empty()
            {
                fence = None;
            }
            continue;
        }
        if let Some(f) = super::fence_marker(lead.as_bytes()) {
            fence = Some(f);
            continue;
        }
        if super::atx_marker(lead.as_bytes()).is_some() {
            return None;
        }
        let item = lead.trim_start_matches(['-', '*', '+', '>', ' ']);
        let Some(head) = item.get(..PREFIX.len()) else { continue };
        if !head.eq_ignore_ascii_case(PREFIX) {
            continue;
        }
        let rest_at = start + (t.len() - item.len()) + PREFIX.len();
        return Some(Scope {
            line: TextRange { start, end: start + t.len() },
            globs: globs(text, rest_at, start + t.len()),
        });
    }
    None
}

/// Whether `text` holds `applies to` in any case (what every scope line starts with).
pub fn mentions(text: &str) -> bool {
    text.as_bytes().windows(10).any(|w| w.eq_ignore_ascii_case(b"applies to"))
}

/// The globs in the code spans of `text[from..to]`.
fn globs(text: &str, from: usize, to: usize) -> Vec<ScopeGlob> {
    let line = &text[from..to];
    let mut out = Vec::new();
    for span in crate::text::code_spans(line) {
        let run = line[span.clone()].bytes().take_while(|&c| c == b'`').count();
        let inner = span.start + run..span.end - run;
        for (off, g) in split_list(&line[inner.clone()]) {
            let start = from + inner.start + off;
            out.push(ScopeGlob {
                text: g.to_string(),
                range: TextRange { start, end: start + g.len() },
                parsed: Glob::parse(g),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(text: &str) -> Option<Scope> {
        find(text, TextRange { start: 0, end: text.len() })
    }

    #[test]
    fn the_line_as_import_and_people_write_it() {
        let text = "\nApplies to files matching `src/**/*.ts, test/**`.\n\nUse strict mode.\n";
        let s = scope(text).unwrap();
        assert_eq!(s.written(), "src/**/*.ts, test/**");
        assert_eq!(&text[s.globs[1].range.start..s.globs[1].range.end], "test/**");
        assert_eq!(&text[s.line.start..s.line.end], "Applies to files matching `src/**/*.ts, test/**`.");
        assert!(s.matches("src/a/b.ts") && s.matches("test/x.py") && !s.matches("lib/b.ts"));
        assert!(scope("Applies To Files Matching `src/**`.\n").is_some(), "any case");
        let two = scope("- applies to files matching `*.py` and `*.pyi`\n").unwrap();
        assert_eq!(two.written(), "*.py, *.pyi");
        let none = scope("Applies to files matching everything.\n").unwrap();
        assert!(none.globs.is_empty() && !none.matches("a.rs"));
        let bad = scope("Applies to files matching `src/[ab`.\n").unwrap();
        assert!(bad.globs[0].parsed.is_err() && !bad.matches("src/a"));
    }

    #[test]
    fn only_the_sections_own_text_outside_code() {
        assert_eq!(scope("Use strict mode.\n"), None);
        assert_eq!(scope("```\nApplies to files matching `*.ts`.\n```\n"), None);
        assert_eq!(scope("Intro.\n\n### Sub\n\nApplies to files matching `*.ts`.\n"), None);
        assert!(scope("Intro.\n\n```\nx\n```\nApplies to files matching `*.ts`.\n").is_some());
        assert_eq!(scope("It applies to files matching `*.ts` only.\n"), None, "not the line's start");
        // Never panics on a line cut inside a multi-byte character or an unclosed span.
        assert!(scope("Applies to files matching `é").unwrap().globs.is_empty());
        assert!(scope("Applies to files matchin").is_none());
    }
}
