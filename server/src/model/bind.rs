//! The exact entry ↔ heading binding (spec §3): normalized-title hash maps, O(entries + headings).
//!
//! `/when X` binds the semantic heading whose title normalizes to `when x`,
//! `/how X` the one that normalizes to `how to x`. When a title occurs more
//! than once, the entry binds the occurrence in the file its section names,
//! else the first in path order. Fuzzy resemblance never binds.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{Depends, FileId, Workspace};
use crate::syntax::decision::Heading;
use crate::syntax::index::{Entry, Op};
use crate::syntax::normalize;

/// A heading: its file and its index in that file's heading list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HeadingId {
    pub file: FileId,
    pub idx: u32,
}

/// An entry: its position in [`crate::syntax::index::IndexFile::entries`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryId(pub u32);

/// What the binding knows about one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryInfo {
    /// Line index in the index file.
    pub line: usize,
    pub op: Op,
    /// Normalized trigger (`writing mock tests`).
    pub trigger: String,
    /// Normalized extras, empty ones dropped.
    pub extras: Vec<String>,
    /// The section index, when the entry is in one.
    pub section: Option<usize>,
    /// The decision file the section names, when it exists.
    pub section_file: Option<FileId>,
    /// The semantic heading the entry binds.
    pub heading: Option<HeadingId>,
    /// The structural heading the entry names instead, when it binds none.
    pub structural: Option<HeadingId>,
}

impl EntryInfo {
    /// The heading title this entry binds: `When <trigger>` / `How to <trigger>`, normalized.
    pub fn key(&self) -> String {
        let prefix = match self.op {
            Op::When => "when ",
            Op::How => "how to ",
        };
        format!("{prefix}{}", self.trigger)
    }
}

/// Heading titles of the decision files, normalized (kept across index edits).
#[derive(Debug, Default)]
pub struct HeadingTable {
    titles: HashMap<String, Vec<HeadingId>>,
    structural: HashMap<String, Vec<HeadingId>>,
}

impl HeadingTable {
    /// The table of `ws`, built once per state of its decision files.
    pub fn of(ws: &Workspace) -> Arc<HeadingTable> {
        ws.cached(Depends::Decisions, |ws| {
            let mut t = HeadingTable::default();
            for (file, _, d) in ws.decisions() {
                for (i, h) in d.headings.iter().enumerate() {
                    let id = HeadingId { file, idx: i as u32 };
                    if h.is_semantic() {
                        t.titles.entry(h.key.clone()).or_default().push(id);
                    } else if h.structural {
                        t.structural.entry(h.key.clone()).or_default().push(id);
                    }
                }
            }
            t
        })
    }
}

/// The binding of one workspace state.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    table: Arc<HeadingTable>,
    pub entries: Vec<EntryInfo>,
    heading_entries: HashMap<HeadingId, Vec<EntryId>>,
    /// Normalized trigger or extra → (entry, is_extra), in index order.
    exact: HashMap<String, Vec<(EntryId, bool)>>,
}

impl Bindings {
    pub(super) fn compute(ws: &Workspace) -> Self {
        let mut b = Bindings { table: HeadingTable::of(ws), ..Bindings::default() };
        let Some((_, src, index)) = ws.index() else {
            return b;
        };
        // Each section's decision file, resolved once.
        let section_files: Vec<Option<FileId>> = index
            .sections
            .iter()
            .map(|s| {
                ws.file_id(section_path(&s.name_text)).filter(|&f| ws.file(f).is_some_and(|f| f.decision().is_some()))
            })
            .collect();
        b.entries.reserve(index.entries.len());
        b.exact.reserve(index.entries.len() * 2);
        b.heading_entries.reserve(index.entries.len());
        let mut key = String::new();
        for &line in &index.entries {
            let Some(entry) = index.entry(line) else {
                continue;
            };
            let section = index.lines[line].section;
            let section_file = section.and_then(|s| section_files[s]);
            let info = b.bind_entry(src.text.as_str(), entry, line, section, section_file, &mut key);
            let id = EntryId(b.entries.len() as u32);
            if let Some(h) = info.heading {
                b.heading_entries.entry(h).or_default().push(id);
            }
            if !info.trigger.is_empty() {
                b.exact.entry(info.trigger.clone()).or_default().push((id, false));
                for x in &info.extras {
                    b.exact.entry(x.clone()).or_default().push((id, true));
                }
            }
            b.entries.push(info);
        }
        b
    }

    fn bind_entry(
        &self,
        text: &str,
        e: &Entry,
        line: usize,
        section: Option<usize>,
        section_file: Option<FileId>,
        key: &mut String,
    ) -> EntryInfo {
        let trigger = normalize(e.trigger.slice(text));
        let extras = e.extras.iter().map(|r| normalize(r.slice(text))).filter(|s| !s.is_empty()).collect();
        let mut info =
            EntryInfo { line, op: e.op, trigger, extras, section, section_file, heading: None, structural: None };
        if info.trigger.is_empty() {
            return info;
        }
        key.clear();
        key.push_str(if info.op == Op::When { "when " } else { "how to " });
        key.push_str(&info.trigger);
        let key = key.as_str();
        if let Some(cands) = self.table.titles.get(key) {
            info.heading = cands.iter().find(|h| Some(h.file) == section_file).or(cands.first()).copied();
        } else {
            let named = self.table.structural.get(&info.trigger).or_else(|| self.table.structural.get(key));
            info.structural =
                named.and_then(|c| c.iter().find(|h| Some(h.file) == section_file).or(c.first()).copied());
        }
        info
    }

    /// Semantic headings with this normalized title, in path order.
    pub fn headings_titled(&self, normalized: &str) -> &[HeadingId] {
        self.table.titles.get(normalized).map_or(&[], Vec::as_slice)
    }

    /// Structural headings whose name (without the `.`) normalizes to this.
    pub fn structural_titled(&self, normalized: &str) -> &[HeadingId] {
        self.table.structural.get(normalized).map_or(&[], Vec::as_slice)
    }

    /// Entries that bind `heading`, in index order.
    pub fn entries_of(&self, heading: HeadingId) -> &[EntryId] {
        self.heading_entries.get(&heading).map_or(&[], Vec::as_slice)
    }

    pub fn entry(&self, id: EntryId) -> &EntryInfo {
        &self.entries[id.0 as usize]
    }

    /// The resolver's exact tiers (spec §6): the entry whose trigger or extra
    /// equals `normalized`, preferring, in order, a trigger with operator `op`,
    /// an extra with `op`, then a trigger and an extra with the other
    /// operator; ties keep index order. With no `op`, triggers before extras.
    /// Returns the entry and whether it matched by an extra.
    pub fn exact_match(&self, op: Option<Op>, normalized: &str) -> Option<(EntryId, bool)> {
        let hits = self.exact.get(normalized)?;
        hits.iter()
            .min_by_key(|(id, extra)| {
                let other_op = op.is_some_and(|op| self.entries[id.0 as usize].op != op);
                (u8::from(other_op) * 2 + u8::from(*extra), *id)
            })
            .copied()
    }

    /// Every (normalized title, headings) group of semantic headings.
    pub fn title_groups(&self) -> impl Iterator<Item = (&str, &[HeadingId])> {
        self.table.titles.iter().map(|(k, v)| (k.as_str(), v.as_slice()))
    }
}

/// A section name as a workspace path (`./` prefixes dropped).
pub fn section_path(name: &str) -> &str {
    let mut n = name.trim();
    while let Some(rest) = n.strip_prefix("./") {
        n = rest;
    }
    n
}

impl Workspace {
    /// The heading behind an id.
    pub fn heading(&self, id: HeadingId) -> Option<&Heading> {
        self.file(id.file)?.decision()?.headings.get(id.idx as usize)
    }
}
