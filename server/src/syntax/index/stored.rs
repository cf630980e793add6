//! How a parsed index keeps its lines: ranges relative to each line's start, in 32 bits.
//!
//! An [`IndexLine`] with absolute `usize` ranges is about 150 bytes; stored
//! this way a line is 80, which is most of an index's memory when it
//! has hundreds of thousands of lines. Relative ranges also make an edit that
//! changes a line's length move only the starts of the lines after it. A
//! line longer than 4 GiB (no index is read or opened that large) would have
//! its offsets saturate: wrong ranges, never a panic.

use smallvec::SmallVec;

use super::{Entry, IndexLine, LabelKind, LineKind, Op};
use crate::text::TextRange;

/// A range relative to its line's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rel(u32, u32);

fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Rel {
    fn of(r: TextRange, start: usize) -> Rel {
        Rel(narrow(r.start.saturating_sub(start)), narrow(r.end.saturating_sub(start)))
    }
    fn at(self, start: usize) -> TextRange {
        TextRange::new(start + self.0 as usize, start + self.1 as usize)
    }
}

const NONE: u32 = u32::MAX;

/// One line as [`super::IndexFile`] stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct StoredLine {
    range: Rel,
    full: Rel,
    /// The section's number, [`NONE`] in the preamble.
    section: u32,
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Preamble,
    SectionHeading(u32),
    Entry(StoredEntry),
    Label(LabelKind),
    Comment,
    Code,
    Blank,
    Unknown { slash: bool },
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct StoredEntry {
    op: Op,
    op_range: Rel,
    trigger: Rel,
    /// The first `|`, relative; [`NONE`] without one.
    bar: u32,
    extras: SmallVec<[Rel; 2]>,
}

impl StoredLine {
    /// `line` (absolute ranges) stored relative to `start`, where it starts.
    pub(super) fn new(line: &IndexLine, start: usize) -> StoredLine {
        let kind = match &line.kind {
            LineKind::Preamble => Kind::Preamble,
            LineKind::SectionHeading(n) => Kind::SectionHeading(narrow(*n)),
            LineKind::Entry(e) => Kind::Entry(StoredEntry {
                op: e.op,
                op_range: Rel::of(e.op_range, start),
                trigger: Rel::of(e.trigger, start),
                bar: e.bar.map_or(NONE, |b| narrow(b.saturating_sub(start))),
                extras: e.extras.iter().map(|r| Rel::of(*r, start)).collect(),
            }),
            LineKind::Label(l) => Kind::Label(*l),
            LineKind::Comment => Kind::Comment,
            LineKind::Code => Kind::Code,
            LineKind::Blank => Kind::Blank,
            LineKind::Unknown { slash } => Kind::Unknown { slash: *slash },
        };
        StoredLine {
            range: Rel::of(line.range, start),
            full: Rel::of(line.full, start),
            section: line.section.map_or(NONE, narrow),
            kind,
        }
    }

    /// The line with absolute ranges, given where it starts.
    pub(super) fn line(&self, start: usize) -> IndexLine {
        let kind = match &self.kind {
            Kind::Preamble => LineKind::Preamble,
            Kind::SectionHeading(n) => LineKind::SectionHeading(*n as usize),
            Kind::Entry(e) => LineKind::Entry(e.at(start)),
            Kind::Label(l) => LineKind::Label(*l),
            Kind::Comment => LineKind::Comment,
            Kind::Code => LineKind::Code,
            Kind::Blank => LineKind::Blank,
            Kind::Unknown { slash } => LineKind::Unknown { slash: *slash },
        };
        IndexLine { range: self.range(start), full: self.full(start), kind, section: self.section() }
    }

    pub(super) fn range(&self, start: usize) -> TextRange {
        self.range.at(start)
    }

    pub(super) fn full(&self, start: usize) -> TextRange {
        self.full.at(start)
    }

    pub(super) fn section(&self) -> Option<usize> {
        (self.section != NONE).then_some(self.section as usize)
    }

    pub(super) fn is_entry(&self) -> bool {
        matches!(self.kind, Kind::Entry(_))
    }

    pub(super) fn unknown(&self) -> Option<bool> {
        match self.kind {
            Kind::Unknown { slash } => Some(slash),
            _ => None,
        }
    }

    /// The entry on this line with absolute ranges, given where it starts.
    pub(super) fn entry(&self, start: usize) -> Option<Entry> {
        match &self.kind {
            Kind::Entry(e) => Some(e.at(start)),
            _ => None,
        }
    }
}

impl StoredEntry {
    fn at(&self, start: usize) -> Entry {
        Entry {
            op: self.op,
            op_range: self.op_range.at(start),
            trigger: self.trigger.at(start),
            bar: (self.bar != NONE).then_some(start + self.bar as usize),
            extras: self.extras.iter().map(|r| r.at(start)).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_line_is_the_line_it_was_given_and_smaller() {
        let text = "# I\n\n## agents/decisions/a.md\n\n/when alpha beta | x, , y, z\n/how to go\nstray\n";
        let index = super::super::parse(text);
        for i in 0..index.line_count() {
            let line = index.line(i).expect("a line");
            let start = line.full.start;
            assert_eq!(StoredLine::new(&line, start).line(start), line, "line {i}");
        }
        assert!(
            std::mem::size_of::<StoredLine>() * 5 <= std::mem::size_of::<IndexLine>() * 3,
            "{} vs {} bytes",
            std::mem::size_of::<StoredLine>(),
            std::mem::size_of::<IndexLine>()
        );
    }
}
