//! Go to definition and references: entries, invocations and headings lead to each other.

use super::invocations;
use super::resolve::Located;
use super::target::{self, Target};
use crate::model::{FileId, FileRange, HeadingId, Workspace};
use crate::search::triggers;
use crate::text::TextRange;

/// Where the thing at `offset` is defined: the heading an entry or invocation
/// resolves to, a section mode's heading, a file mode's or section name's file.
pub fn definition(ws: &Workspace, file: FileId, offset: usize) -> Option<FileRange> {
    match target::at(ws, file, offset)? {
        Target::Entry(id, _) => heading_range(ws, triggers::entry_target(ws, ws.bindings().entry(id))?),
        Target::Section(name, _) => {
            let id = ws.file_id(crate::syntax::index::section_path(&name))?;
            Some(FileRange { file: id, range: TextRange::empty(0) })
        }
        Target::Invocation(inv) => match invocations::locate(ws, &invocations::Found { file, inv })? {
            Located::Heading(h) => heading_range(ws, h),
            Located::File(f) => Some(FileRange { file: f, range: TextRange::empty(0) }),
        },
        Target::Heading(..) => None,
    }
}

fn heading_range(ws: &Workspace, h: HeadingId) -> Option<FileRange> {
    Some(FileRange { file: h.file, range: ws.heading(h)?.range })
}

/// The heading a target is about (for references), if any.
fn heading_of(ws: &Workspace, file: FileId, offset: usize) -> Option<HeadingId> {
    match target::at(ws, file, offset)? {
        Target::Heading(h, _) => Some(h),
        Target::Entry(id, _) => triggers::entry_target(ws, ws.bindings().entry(id)),
        Target::Invocation(inv) => match invocations::locate(ws, &invocations::Found { file, inv })? {
            Located::Heading(h) => Some(h),
            Located::File(_) => None,
        },
        Target::Section(..) => None,
    }
}

/// The decision file a section line or a file-mode invocation names.
fn decision_file_of(ws: &Workspace, file: FileId, offset: usize) -> Option<String> {
    match target::at(ws, file, offset)? {
        Target::Section(name, _) => Some(crate::syntax::index::section_path(&name).to_string()),
        Target::Invocation(inv) => match invocations::locate(ws, &invocations::Found { file, inv })? {
            Located::File(f) => Some(ws.file(f)?.path.clone()),
            Located::Heading(_) => None,
        },
        _ => None,
    }
}

/// Every place that refers to decision file `path`: the index's section
/// lines naming it, the entries of those sections, and the `/when ..file.md`
/// invocations that load it.
fn file_references(ws: &Workspace, path: &str) -> Vec<FileRange> {
    let mut out = Vec::new();
    if let Some((index_id, _, index)) = ws.index() {
        for s in index.sections.iter().filter(|s| s.path() == path) {
            out.push(FileRange { file: index_id, range: index.range(s.heading_line) });
            for l in (s.heading_line + 1..s.end_line).filter(|&l| index.is_entry(l)) {
                out.push(FileRange { file: index_id, range: index.range(l) });
            }
        }
    }
    if let Some(id) = ws.file_id(path) {
        for found in invocations::of(ws).resolving_to(ws, Located::File(id)) {
            out.push(FileRange {
                file: found.file,
                range: TextRange::new(found.inv.op_range.start, found.inv.query.end),
            });
        }
    }
    out
}

/// Every place that refers to the heading at (or behind) the cursor: the
/// heading itself, the entries that bind it, and every `/when`/`/how`
/// invocation in the workspace's Markdown files that resolves to it
/// (inline code and code blocks included). On a section line or a
/// `/when ..file.md` invocation: the places that refer to that decision file.
pub fn references(ws: &Workspace, file: FileId, offset: usize) -> Vec<FileRange> {
    if let Some(path) = decision_file_of(ws, file, offset) {
        return file_references(ws, &path);
    }
    let Some(h) = heading_of(ws, file, offset) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(r) = heading_range(ws, h) {
        out.push(r);
    }
    let b = ws.bindings();
    if let Some((index_id, _, index)) = ws.index() {
        // Bound entries, and drifted entries of the heading's own file (only they can fall back to it).
        for e in &b.entries {
            let candidate = e.heading == Some(h) || (e.heading.is_none() && e.section_file == Some(h.file));
            if candidate && triggers::entry_target(ws, e) == Some(h) {
                out.push(FileRange { file: index_id, range: index.range(e.line) });
            }
        }
    }
    // Entries are listed above; preamble lines are examples, never references.
    for found in invocations::of(ws).resolving_to(ws, Located::Heading(h)) {
        out.push(FileRange { file: found.file, range: TextRange::new(found.inv.op_range.start, found.inv.query.end) });
    }
    out
}
