//! Go to definition and references: entries, invocations and headings lead to each other.

use super::resolve;
use super::target::{self, Target};
use crate::model::{FileId, FileRange, HeadingId, Workspace};
use crate::search::triggers;
use crate::syntax::invocation::{self, Mode};
use crate::text::TextRange;

/// Where the thing at `offset` is defined: the heading an entry or invocation
/// resolves to, a section mode's heading, a file mode's or section name's file.
pub fn definition(ws: &Workspace, file: FileId, offset: usize) -> Option<FileRange> {
    match target::at(ws, file, offset)? {
        Target::Entry(id, _) => heading_range(ws, triggers::entry_target(ws, ws.bindings().entry(id))?),
        Target::Section(name, _) => {
            let id = ws.file_id(crate::model::bind::section_path(&name))?;
            Some(FileRange { file: id, range: TextRange::empty(0) })
        }
        Target::Invocation(inv) => {
            let f = ws.file(file)?;
            let query = format!("{} {}", inv.op.word(), inv.query.slice(&f.text));
            let r = resolve::resolve(ws, &query, false).ok()?;
            match r.heading {
                Some(h) => heading_range(ws, h),
                None => Some(FileRange { file: ws.file_id(&r.path)?, range: TextRange::empty(0) }),
            }
        }
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
        Target::Invocation(_) => {
            let d = definition(ws, file, offset)?;
            ws.file(d.file)?
                .decision()?
                .headings
                .iter()
                .position(|h| h.range == d.range)
                .map(|i| HeadingId { file: d.file, idx: i as u32 })
        }
        Target::Section(..) => None,
    }
}

/// Every place that refers to the heading at (or behind) the cursor: the
/// heading itself, the entries that bind it, and every `/when`/`/how`
/// invocation in the workspace's Markdown files that resolves to it
/// (inline code and code blocks included).
pub fn references(ws: &Workspace, file: FileId, offset: usize) -> Vec<FileRange> {
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
                out.push(FileRange { file: index_id, range: index.lines[e.line].range });
            }
        }
    }
    for (id, f) in ws.files() {
        if f.index().is_none() && f.decision().is_none() && !f.path.ends_with(".md") {
            continue;
        }
        for inv in invocation::scan(&f.text) {
            if f.index().is_some_and(|i| {
                let line = f.line_index.line_of(inv.op_range.start);
                i.lines.get(line).is_some_and(|l| {
                    matches!(
                        l.kind,
                        crate::syntax::index::LineKind::Entry(_) | crate::syntax::index::LineKind::Preamble
                    )
                })
            }) {
                continue; // entries are listed above; preamble lines are examples
            }
            let query = format!("{} {}", inv.op.word(), inv.query.slice(&f.text));
            let hit = match inv.mode {
                Mode::File => None,
                _ => resolve::resolve(ws, &query, false).ok().and_then(|r| r.heading),
            };
            if hit == Some(h) {
                out.push(FileRange { file: id, range: TextRange::new(inv.op_range.start, inv.query.end) });
            }
        }
    }
    out
}
