//! Inlay hints (where each index entry resolves) and document links (section names, `..file.md`).

use crate::model::{FileId, Workspace};
use crate::search::triggers;
use crate::syntax::invocation::{self, Mode};
use crate::text::TextRange;

/// `→ testing.md:42` after each entry that resolves, at the end of its line, for the
/// entries whose line ends in `within` (the editor asks for what it shows; found by
/// review: every line of the file was answered).
pub fn inlay_hints(ws: &Workspace, file: FileId, within: TextRange) -> Vec<(usize, String)> {
    let Some((index_id, _, index)) = ws.index() else { return Vec::new() };
    if index_id != file {
        return Vec::new();
    }
    let b = ws.bindings();
    b.entries
        .iter()
        .filter(|e| (within.start..=within.end).contains(&index.range(e.line).end))
        .filter_map(|e| {
            let h = triggers::entry_target(ws, e)?;
            let f = ws.file(h.file)?;
            let heading = ws.heading(h)?;
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            let mark = if e.heading.is_some() { "→" } else { "≈" };
            Some((index.range(e.line).end, format!(" {mark} {name}:{}", heading.line + 1)))
        })
        .collect()
}

/// Links: index section names to their files, `/when ..name.md` to decision files.
pub fn document_links(ws: &Workspace, file: FileId) -> Vec<(TextRange, String)> {
    let Some(f) = ws.file(file) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(index) = f.index() {
        for s in &index.sections {
            let path = s.path();
            if ws.file_id(path).is_some() {
                out.push((s.name, path.to_string()));
            }
        }
    }
    for inv in invocation::scan(&f.text).into_iter().filter(|i| i.mode == Mode::File) {
        let name = inv.target.slice(&f.text);
        if name.contains("..") || name.starts_with('/') {
            continue; // never link outside the decisions directory
        }
        let path = ws.decision_path(name);
        if ws.file_id(&path).is_some() {
            out.push((inv.target, path));
        }
    }
    out
}
