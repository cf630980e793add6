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

/// A decision imported before whose record is gone, where it is (when
/// found), its identity line, why it is stale, and whether its record is
/// superseded (or otherwise no longer in force) rather than gone.
pub(super) struct Gone {
    pub at: Option<(String, HeadingId)>,
    pub id: Option<String>,
    pub why: String,
    pub superseded: bool,
}

/// What is done with the gone decisions.
#[derive(Default)]
pub(super) struct Settled {
    /// Messages for the decisions kept (listed as stale).
    pub stale: Vec<String>,
    /// `heading in path (why)` of each decision removed.
    pub removed: Vec<String>,
    /// Deletions, per decision file.
    pub files: Vec<(String, TextEdit)>,
    /// Deletions of the removed decisions' entries in the index.
    pub index: Vec<TextEdit>,
}

/// Lists each gone decision, or with `prune` removes those unedited since
/// import wrote them; never one imported from a folder of `unread` (given,
/// but unreadable or yielding no record now): a folder that reads empty is
/// far more often a checkout or sync without it than a team that dropped
/// every record at once, so its decisions stay, listed.
pub(super) fn settle(ws: &Workspace, gone: Vec<Gone>, prune: bool, unread: &[String]) -> Settled {
    let mut out = Settled::default();
    let mut done: Vec<HeadingId> = Vec::new();
    let mut entry_lines: Vec<usize> = Vec::new();
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
        let section = text.text.get(heading.section.start..heading.section.end).unwrap_or("");
        if let Some(dir) = g.id.as_deref().and_then(|id| unread_folder(id, unread)) {
            let kept = if prune { "kept: " } else { "" };
            out.stale.push(format!(
                "{} ({kept}no record was read from {dir} this run, so --prune removes nothing imported from it; if the \
                 team dropped those records, delete the decisions and their entries by hand)",
                g.why
            ));
            continue;
        }
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
                // The section's bytes (the blank lines it ends with included); a file left
                // ending in blank lines is trimmed by the caller.
                out.files.push((path.clone(), TextEdit::delete(heading.section)));
                entry_lines.extend(ws.bindings().entries_of(h).iter().map(|&e| ws.bindings().entry(e).line));
                let why = if g.superseded {
                    "its record is no longer in force"
                } else {
                    "its record is gone from its source"
                };
                out.removed.push(format!("{} in {path} ({why})", heading.title));
            }
        }
    }
    out.index = index_deletions(ws, &entry_lines);
    out
}

/// The folder of `unread` that the identity line `id` (`Source: docs/adr/1.md`) imports from, if any.
fn unread_folder<'a>(id: &str, unread: &'a [String]) -> Option<&'a str> {
    let src = id.strip_prefix("Source: ")?;
    let file = src.split_once(" § ").map_or(src, |(f, _)| f);
    unread.iter().map(String::as_str).find(|d| {
        let d = d.trim_end_matches('/');
        file.strip_prefix(d).is_some_and(|rest| rest.starts_with('/'))
    })
}

/// Whether `text` holds nothing but a document title (`# Title`) and blank lines: a decision
/// file the removals left empty (import deletes no file, so it says so; found by review).
pub(super) fn only_title(text: &str) -> bool {
    text.lines().all(|l| l.trim().is_empty() || l.starts_with("# "))
}

/// Deletions of the index lines `lines` (entries): each line, or the whole
/// group (`## agents/decisions/x.md`) when they are all it holds (found by
/// review: pruning a file's last decision left its group empty).
fn index_deletions(ws: &Workspace, lines: &[usize]) -> Vec<TextEdit> {
    let Some((_, src, index)) = ws.index() else { return Vec::new() };
    let text = src.text.as_str();
    let mut out = Vec::new();
    for sec in &index.sections {
        let body = sec.heading_line + 1..sec.end_line;
        let mine: Vec<usize> = body.clone().filter(|l| lines.contains(l)).collect();
        if mine.is_empty() {
            continue;
        }
        let blank = |l: usize| index.range(l).slice(text).trim().is_empty();
        if body.clone().all(|l| blank(l) || mine.contains(&l)) {
            out.push(TextEdit::delete(index.whole_section(text, sec.heading_line, sec.end_line)));
        } else {
            out.extend(mine.into_iter().map(|l| TextEdit::delete(index.full(l))));
        }
    }
    out
}

/// `text` ending with one line terminator after its last line that is not
/// blank, when a deletion left it ending with blank lines (the last
/// section removed takes no blank line from the section before it, which
/// may be rewritten in the same run).
pub(super) fn trimmed_end(text: String) -> String {
    let kept = text.trim_end_matches(['\n', '\r']).len();
    if kept == 0 || text[kept..].matches('\n').count() <= 1 {
        return text;
    }
    let nl = if text[kept..].starts_with("\r\n") { "\r\n" } else { "\n" };
    format!("{}{nl}", &text[..kept])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_left_ending_in_blank_lines_ends_with_one_terminator() {
        assert_eq!(trimmed_end("# T\n\n## A\n\nx\n\n".into()), "# T\n\n## A\n\nx\n");
        assert_eq!(trimmed_end("# T\r\n\r\nx\r\n\r\n\r\n".into()), "# T\r\n\r\nx\r\n");
        assert_eq!(trimmed_end("# T\n\nx\n".into()), "# T\n\nx\n", "as it is");
        assert_eq!(trimmed_end("# T".into()), "# T", "no terminator: as it is");
    }
}
