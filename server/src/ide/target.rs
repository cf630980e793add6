//! What is under a cursor: an index entry, an index section name, a `/when` invocation, or a heading.

use crate::model::{EntryId, FileId, HeadingId, Workspace};
use crate::syntax::index::LineKind;
use crate::syntax::invocation::{self, Invocation};
use crate::text::TextRange;

/// The thing at a position, with the range it occupies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An index entry (the cursor anywhere on its line).
    Entry(EntryId, TextRange),
    /// An index section name (`## agents/decisions/x.md`).
    Section(String, TextRange),
    /// A `/when …` invocation in any Markdown text (index preamble included).
    Invocation(Invocation),
    /// A decision-file heading (the cursor on its heading line).
    Heading(HeadingId, TextRange),
}

/// The target at `offset` of `file`, if any.
pub fn at(ws: &Workspace, file: FileId, offset: usize) -> Option<Target> {
    let f = ws.file(file)?;
    if let Some(index) = f.index() {
        let line = f.line_index.line_of(offset);
        let l = index.line(line)?;
        match &l.kind {
            LineKind::Entry(_) => {
                let pos = index.entries.binary_search(&line).ok()?;
                return Some(Target::Entry(EntryId(pos as u32), l.range));
            }
            LineKind::SectionHeading(s) => {
                let sec = &index.sections[*s];
                return Some(Target::Section(sec.name_text.clone(), sec.name));
            }
            // The preamble shows examples (`/when <trigger>`): never navigable.
            LineKind::Preamble => return None,
            _ => {}
        }
    }
    if let Some(d) = f.decision() {
        if let Some((i, h)) = d.headings.iter().enumerate().find(|(_, h)| h.range.touches(offset)) {
            return Some(Target::Heading(HeadingId { file, idx: i as u32 }, h.title_range));
        }
    }
    let line = f.line_index.line_content(&f.text, f.line_index.line_of(offset));
    let base = line.start;
    invocation::scan(line.slice(&f.text))
        .into_iter()
        .map(|mut inv| {
            inv.op_range = shift(inv.op_range, base);
            inv.query = shift(inv.query, base);
            inv.target = shift(inv.target, base);
            inv
        })
        .find(|inv| TextRange::new(inv.op_range.start, inv.query.end).touches(offset))
        .map(Target::Invocation)
}

fn shift(r: TextRange, by: usize) -> TextRange {
    TextRange::new(r.start + by, r.end + by)
}
