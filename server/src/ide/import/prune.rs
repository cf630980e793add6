//! Decisions whose record is gone from its source: listed, or with `--prune` removed (section and entries) when unedited since import wrote them.
//!
//! A rule deleted from `CLAUDE.md`, an ADR file deleted from a folder
//! imported whole, a record superseded since: the decision import made of
//! it stays in the memory, and the hook keeps injecting a rule the team
//! dropped (found by review). Import never deletes on its own (the decision
//! may have been edited since, or be wanted still); `import --prune` removes
//! each such decision whose section still holds the fingerprint import left
//! on it ([`super::mark`]): its section and every index entry that binds it.
//! An edited one is kept and listed: the person decides.

use super::mark;
use crate::edit::TextEdit;
use crate::model::{HeadingId, Workspace};
use crate::text::TextRange;

/// A decision imported before whose record is gone, where it is (when found), and why it is stale.
pub(super) struct Gone {
    pub at: Option<(String, HeadingId)>,
    pub why: String,
}

/// What is done with the gone decisions.
#[derive(Default)]
pub(super) struct Settled {
    /// Messages for the decisions kept (listed as stale).
    pub stale: Vec<String>,
    /// `heading in path` of each decision removed.
    pub removed: Vec<String>,
    /// Deletions, per decision file.
    pub files: Vec<(String, TextEdit)>,
    /// Deletions of the removed decisions' entries in the index.
    pub index: Vec<TextEdit>,
}

/// Lists each gone decision, or with `prune` removes those unedited since import wrote them.
pub(super) fn settle(ws: &Workspace, gone: Vec<Gone>, prune: bool) -> Settled {
    let mut out = Settled::default();
    let mut done: Vec<HeadingId> = Vec::new();
    for g in gone {
        let Some((path, h)) = g.at else {
            out.stale.push(g.why);
            continue;
        };
        if done.contains(&h) {
            continue;
        }
        let Some((text, heading)) = ws.file_id(&path).and_then(|id| ws.file(id)).zip(ws.heading(h)) else {
            out.stale.push(g.why);
            continue;
        };
        let text = text.text.as_str();
        let section = text.get(heading.section.start..heading.section.end).unwrap_or("");
        let unedited = mark::held(section) == Some(mark::of(section).as_str());
        match (prune, unedited) {
            (false, true) => out.stale.push(format!("{} (or import again with --prune to remove it)", g.why)),
            (false, false) => out.stale.push(g.why),
            (true, false) => out.stale.push(format!(
                "{} (edited since it was imported, so --prune keeps it: delete it and its entry by hand)",
                g.why
            )),
            (true, true) => {
                done.push(h);
                out.files.push((path.clone(), TextEdit::delete(heading.section)));
                if let Some((_, _, index)) = ws.index() {
                    for &e in ws.bindings().entries_of(h) {
                        let line = ws.bindings().entry(e).line;
                        if line < index.line_count() {
                            out.index.push(TextEdit::delete(index.full(line)));
                        }
                    }
                }
                out.removed.push(format!("{} in {path}", heading.title));
            }
        }
    }
    // Sections side by side are deleted as one; the last of a file takes the blank lines before it.
    out.files = merged(std::mem::take(&mut out.files))
        .into_iter()
        .map(|(path, e)| {
            let text = ws.file_id(&path).and_then(|id| ws.file(id)).map_or("", |f| f.text.as_str());
            let range = section_range(text, e.range);
            (path, TextEdit::delete(range))
        })
        .collect();
    out
}

/// Deletions per file with those that overlap or touch made one.
fn merged(mut files: Vec<(String, TextEdit)>) -> Vec<(String, TextEdit)> {
    files.sort_by(|a, b| (&a.0, a.1.range.start).cmp(&(&b.0, b.1.range.start)));
    let mut out: Vec<(String, TextEdit)> = Vec::new();
    for (path, e) in files {
        match out.last_mut() {
            Some((p, last)) if *p == path && e.range.start <= last.range.end => {
                let end = last.range.end.max(e.range.end);
                *last = TextEdit::delete(TextRange::new(last.range.start, end));
            }
            _ => out.push((path, e)),
        }
    }
    out
}

/// The bytes to delete for a section: the section itself; the last one of
/// its file with the blank lines before it, so the file still ends with one
/// line terminator after its last kept line.
fn section_range(text: &str, section: TextRange) -> TextRange {
    let (mut start, end) = (section.start.min(text.len()), section.end.min(text.len()));
    if end == text.len() {
        let before = text[..start].trim_end_matches(['\n', '\r']);
        if !before.is_empty() {
            let nl = if text[before.len()..].starts_with("\r\n") { 2 } else { 1 };
            start = (before.len() + nl).min(start);
        }
    }
    TextRange::new(start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_section_takes_the_blank_lines_before_it() {
        let text = "# T\n\n## A\n\nx\n\n## B\n\ny\n";
        let b = text.find("## B").unwrap();
        let r = section_range(text, TextRange::new(b, text.len()));
        assert_eq!(format!("{}{}", &text[..r.start], &text[r.end..]), "# T\n\n## A\n\nx\n");
        let crlf = text.replace('\n', "\r\n");
        let b = crlf.find("## B").unwrap();
        let r = section_range(&crlf, TextRange::new(b, crlf.len()));
        assert_eq!(format!("{}{}", &crlf[..r.start], &crlf[r.end..]), "# T\r\n\r\n## A\r\n\r\nx\r\n");
        let a = text.find("## A").unwrap();
        assert_eq!(section_range(text, TextRange::new(a, b)), TextRange::new(a, b), "not the last: as it is");
        // The last two sections: one deletion, the file ends after the first.
        let two = merged(vec![
            ("f".into(), TextEdit::delete(TextRange::new(b, text.len()))),
            ("f".into(), TextEdit::delete(TextRange::new(a, b))),
        ]);
        assert_eq!(two.len(), 1);
        let all = TextEdit::delete(section_range(text, two[0].1.range));
        assert_eq!(crate::edit::apply(text, &[all]).0, "# T\n");
    }
}
