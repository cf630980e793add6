//! Text edits and fixes as data: what a rule proposes, what `fix` and the server apply.

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
    pub changes: Vec<FileEdit>,
}

impl Fix {
    pub fn new(title: impl Into<String>, applicability: Applicability, path: &str, edits: Vec<TextEdit>) -> Self {
        let title = crate::text::elide_owned(title.into(), 200);
        Self { title, applicability, changes: vec![FileEdit { path: path.to_string(), edits }] }
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
    fn conflicts_detects_touching_insertions() {
        let ins = TextEdit::insert(5, "x");
        assert!(conflicts(&ins, &TextEdit::insert(5, "y")));
        assert!(conflicts(&ins, &TextEdit::delete(TextRange::new(3, 7))));
        assert!(!conflicts(&TextEdit::delete(TextRange::new(0, 3)), &TextEdit::delete(TextRange::new(3, 5))));
    }
}
