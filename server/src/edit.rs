//! Text edits, fixes and [`SourceChange`], as data: what every feature returns, what `fix`, the MCP server and the language server apply.

use crate::text::TextRange;

/// Replace `range` of one file's text with `insert` (empty `insert` deletes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub insert: String,
}

impl TextEdit {
    pub fn replace(range: TextRange, insert: impl Into<String>) -> Self {
        Self { range, insert: insert.into() }
    }
    pub fn delete(range: TextRange) -> Self {
        Self { range, insert: String::new() }
    }
    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Self { range: TextRange::empty(at), insert: text.into() }
    }
}

/// Edits to one file, named by its workspace-relative path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdit {
    pub path: String,
    pub edits: Vec<TextEdit>,
}

/// A file to create with its text, named by its workspace-relative path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCreate {
    pub path: String,
    pub text: String,
}

/// One change to the workspace, the one shape every feature returns (a
/// rule's fix, fix-all, rename, a decision file's rename, `remember`):
/// edits to files the workspace holds, and files to create. Edits are
/// relative to the texts the feature read. Front ends only convert it: the
/// language server to a `WorkspaceEdit`, the CLI and the MCP server write
/// it (or print its diff) through `project::change`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceChange {
    pub edits: Vec<FileEdit>,
    pub creates: Vec<FileCreate>,
}

impl SourceChange {
    /// Edits to one file.
    pub fn edit(path: &str, edits: Vec<TextEdit>) -> Self {
        Self { edits: vec![FileEdit { path: path.to_string(), edits }], creates: vec![] }
    }

    pub fn is_empty(&self) -> bool {
        self.edits.iter().all(|e| e.edits.is_empty()) && self.creates.is_empty()
    }

    /// Adds `edit` to `path`'s edits (after those already there).
    pub fn push(&mut self, path: &str, edit: TextEdit) {
        match self.edits.iter_mut().find(|c| c.path == path) {
            Some(c) => c.edits.push(edit),
            None => self.edits.push(FileEdit { path: path.to_string(), edits: vec![edit] }),
        }
    }

    /// Adds the edit that turns `old` (the file's text) into `new`: the whole
    /// lines between their common prefix and suffix, so an editor shows
    /// whole lines added; nothing when they are equal.
    pub fn replace_text(&mut self, path: &str, old: &str, new: &str) {
        if old != new {
            let (range, insert) = minimal(old, new);
            self.push(path, TextEdit::replace(range, insert));
        }
    }

    /// Adds a file to create.
    pub fn create(&mut self, path: &str, text: impl Into<String>) {
        self.creates.push(FileCreate { path: path.to_string(), text: text.into() });
    }

    /// `path`'s text after the change, from its text before (None: it did not
    /// exist); None when the change does not touch it.
    pub fn text_after(&self, path: &str, before: Option<&str>) -> Option<String> {
        if let Some(c) = self.creates.iter().find(|c| c.path == path) {
            return Some(c.text.clone());
        }
        let e = self.edits.iter().find(|c| c.path == path)?;
        Some(apply(before.unwrap_or(""), &e.edits).0)
    }

    /// Every file the change touches, in order: created files first.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.creates.iter().map(|c| c.path.as_str()).chain(self.edits.iter().map(|e| e.path.as_str()))
    }
}

/// The one replacement that turns `old` into `new` (see [`SourceChange::replace_text`]).
pub fn minimal<'a>(old: &str, new: &'a str) -> (TextRange, &'a str) {
    let floor = |s: &str, mut i: usize| {
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let pre = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    // Back to the start of the line the difference is in.
    let pre = old[..floor(old, pre)].rfind('\n').map_or(0, |i| i + 1);
    let max_suf = old.len().min(new.len()) - pre;
    let suf = old.bytes().rev().zip(new.bytes().rev()).take(max_suf).take_while(|(a, b)| a == b).count();
    // Forward to the start of a line (the common suffix is the same text on both sides).
    let mut end = old.len() - suf;
    if end > 0 && !old[..end].ends_with('\n') {
        end = old[end..].find('\n').map_or(old.len(), |i| end + i + 1);
    }
    let suf = old.len() - end;
    (TextRange::new(pre, end), &new[pre..new.len() - suf])
}

/// Whether "fix all" may apply a fix without asking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applicability {
    /// Exactly one right answer: `fix` and `source.fixAll` apply it.
    Safe,
    /// Needs a person's choice (which heading was meant, mark structural or add content):
    /// offered as a quick fix only.
    Suggestion,
}

/// A titled change: one or more files' edits, applied together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub title: String,
    pub applicability: Applicability,
    pub change: SourceChange,
}

impl Fix {
    pub fn new(title: impl Into<String>, applicability: Applicability, path: &str, edits: Vec<TextEdit>) -> Self {
        let title = crate::text::elide_owned(title.into(), 200);
        Self { title, applicability, change: SourceChange::edit(path, edits) }
    }
    pub fn is_safe(&self) -> bool {
        self.applicability == Applicability::Safe
    }
}

/// Applies `edits` to `text`. Edits are sorted by position (stable, so two
/// insertions at one offset keep their given order); an edit that overlaps an
/// earlier one is skipped and reported in the second value. Ranges are clamped
/// to the text and to character boundaries, so bad input cannot panic.
pub fn apply(text: &str, edits: &[TextEdit]) -> (String, Vec<TextEdit>) {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start, e.range.end));
    let mut out = String::with_capacity(text.len() + edits.iter().map(|e| e.insert.len()).sum::<usize>());
    let mut skipped = Vec::new();
    let mut pos = 0usize;
    let clamp = |mut o: usize| {
        o = o.min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        o
    };
    for e in sorted {
        let (start, end) = (clamp(e.range.start), clamp(e.range.end.max(e.range.start)));
        if start < pos {
            skipped.push(e.clone());
            continue;
        }
        out.push_str(&text[pos..start]);
        out.push_str(&e.insert);
        pos = end;
    }
    out.push_str(&text[pos..]);
    (out, skipped)
}

/// True when two edits cannot both be applied in one pass without ambiguity:
/// overlapping ranges, or an insertion strictly inside (or at the same point as)
/// another edit.
pub fn conflicts(a: &TextEdit, b: &TextEdit) -> bool {
    let (a, b) = (a.range, b.range);
    if a.is_empty() || b.is_empty() {
        return a.start.max(b.start) <= a.end.min(b.end);
    }
    a.start < b.end && b.start < a.end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apply_sorts_and_skips_overlaps() {
        let text = "hello world";
        let edits = vec![
            TextEdit::replace(TextRange::new(6, 11), "there"),
            TextEdit::insert(0, ">> "),
            TextEdit::delete(TextRange::new(8, 9)),
        ];
        let (out, skipped) = apply(text, &edits);
        assert_eq!(out, ">> hello there");
        assert_eq!(skipped.len(), 1);
    }

    #[test]
    fn apply_clamps_out_of_range_and_mid_char() {
        let (out, _) = apply("é", &[TextEdit::replace(TextRange::new(1, 99), "x")]);
        assert_eq!(out, "x");
    }

    #[test]
    fn minimal_edit_is_the_changed_middle() {
        assert_eq!(minimal("a\nb\n", "a\nx\nb\n"), (TextRange::new(2, 2), "x\n"));
        assert_eq!(minimal("abc\n", "abc\n"), (TextRange::new(4, 4), ""));
        assert_eq!(minimal("", "new"), (TextRange::new(0, 0), "new"));
        assert_eq!(minimal("é\n", "è\n"), (TextRange::new(0, 3), "è\n"), "whole lines, never inside a character");
        assert_eq!(
            minimal("## a.md\n/x\n## c.md\n", "## a.md\n/x\n## b.md\n/y\n## c.md\n"),
            (TextRange::new(11, 11), "## b.md\n/y\n")
        );
        let mut c = SourceChange::default();
        c.replace_text("a.md", "a\nb\n", "a\nx\nb\n");
        c.create("n.md", "new\n");
        assert_eq!(c.text_after("a.md", Some("a\nb\n")).as_deref(), Some("a\nx\nb\n"));
        assert_eq!(c.text_after("n.md", None).as_deref(), Some("new\n"));
        assert_eq!(c.text_after("z.md", Some("z")), None);
        assert_eq!(c.paths().collect::<Vec<_>>(), ["n.md", "a.md"]);
    }

    #[test]
    fn conflicts_detects_touching_insertions() {
        let ins = TextEdit::insert(5, "x");
        assert!(conflicts(&ins, &TextEdit::insert(5, "y")));
        assert!(conflicts(&ins, &TextEdit::delete(TextRange::new(3, 7))));
        assert!(!conflicts(&TextEdit::delete(TextRange::new(0, 3)), &TextEdit::delete(TextRange::new(3, 5))));
    }
}
