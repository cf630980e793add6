//! Renaming a decision file: the index section names and `/when ..old.md` invocations follow.

use crate::edit::{SourceChange, TextEdit};
use crate::model::Workspace;
use crate::syntax::invocation::{self, Mode};

/// Why `new` cannot be a decision file's path, if it cannot: it must be
/// `DECISIONS/NAME.md` with one plain file name (no `.`/`..` parts, no
/// further folders, no control characters or line breaks, no `|`), since it
/// is written into the index as a section line and into invocations.
pub fn check_new_path(ws: &Workspace, new: &str) -> Result<(), String> {
    let dir = &ws.config().decisions;
    let name =
        if dir.is_empty() { Some(new) } else { new.strip_prefix(dir.as_str()).and_then(|r| r.strip_prefix('/')) };
    let shown = crate::text::elide(new, 80);
    let Some(name) = name else {
        return Err(format!("`{shown}` is outside {dir}/: the index only names decision files there"));
    };
    if name.contains('/') || name.contains('\\') || name.starts_with('.') {
        return Err(format!("`{shown}` is not a plain file name in {dir}/"));
    }
    if name.chars().any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '|')) {
        return Err(format!("`{shown}` has a line break, control character or `|`: it cannot be a section line"));
    }
    if !name.ends_with(".md") || name.len() <= 3 {
        return Err(format!("`{shown}` is not a Markdown file name (NAME.md)"));
    }
    Ok(())
}

/// Edits for renaming the decision file `old` to `new` (workspace-relative
/// paths), or why the new path cannot be written into the index (nothing is
/// edited then). File-mode invocations are updated only when both names are
/// in the decisions directory.
pub fn rename_decision_file(ws: &Workspace, old: &str, new: &str) -> Result<SourceChange, String> {
    let named = ws.index().is_some_and(|(_, _, index)| index.sections.iter().any(|s| s.path() == old));
    if !named && ws.file_id(old).and_then(|id| ws.file(id)?.decision()).is_none() {
        return Ok(SourceChange::default()); // not a decision file: nothing refers to it
    }
    check_new_path(ws, new)?;
    let mut out = SourceChange::default();
    let mut push = |path: &str, e: TextEdit| out.push(path, e);
    if let Some((_, f, index)) = ws.index() {
        for s in index.sections.iter().filter(|s| s.path() == old) {
            push(&f.path, TextEdit::replace(s.name, new));
        }
    }
    let dir = &ws.config().decisions;
    let strip = |p: &str| {
        if dir.is_empty() {
            Some(p.to_string())
        } else {
            p.strip_prefix(&format!("{dir}/")).map(str::to_string)
        }
    };
    let (Some(old_name), Some(new_name)) = (strip(old), strip(new)) else { return Ok(out) };
    for (_, f) in ws.files() {
        if f.problem.is_some() {
            continue;
        }
        for inv in invocation::scan(&f.text).into_iter().filter(|i| i.mode == Mode::File) {
            if inv.target.slice(&f.text) == old_name {
                push(&f.path, TextEdit::replace(inv.target, new_name.clone()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Config, FileText};

    #[test]
    fn sections_and_file_invocations_follow() {
        let mut ws = Workspace::new(Config::default());
        ws.set_file(
            "agents/memory-index.md",
            FileText::from("# I\nsee /when ..old.md\n## agents/decisions/old.md\n/when x\n"),
        );
        ws.set_file("agents/decisions/old.md", FileText::from("## When X\n"));
        ws.set_file("CLAUDE.md", FileText::from("Load `/when ..old.md` and /when ..other.md\n"));
        let edits = rename_decision_file(&ws, "agents/decisions/old.md", "agents/decisions/new.md").expect("valid");
        let get = |p: &str| {
            let fe = edits.edits.iter().find(|e| e.path == p).expect("edited");
            crate::edit::apply(&ws.file(ws.file_id(p).expect("id")).expect("f").text, &fe.edits).0
        };
        assert_eq!(get("agents/memory-index.md"), "# I\nsee /when ..new.md\n## agents/decisions/new.md\n/when x\n");
        assert_eq!(get("CLAUDE.md"), "Load `/when ..new.md` and /when ..other.md\n");
        for bad in [
            "agents/decisions/../../etc/x.md",
            "agents/decisions/sub/x.md",
            "agents/x.md",
            "agents/decisions/a\n## agents/decisions/evil.md",
            "agents/decisions/x.txt",
            "agents/decisions/.hidden.md",
        ] {
            assert!(rename_decision_file(&ws, "agents/decisions/old.md", bad).is_err(), "{bad:?}");
        }
    }
}
