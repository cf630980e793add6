//! The exact entry ↔ heading binding (spec §3): normalized-title hash maps, O(entries + headings).
//!
//! `/when X` binds the semantic heading whose title normalizes to `when x`,
//! `/how X` the one that normalizes to `how to x`. When a title occurs more
//! than once, the entry binds the occurrence in the file its section names,
//! else the first in path order. Fuzzy resemblance never binds.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{FileId, Workspace};

mod titles;
use crate::syntax::decision::Heading;
use crate::syntax::index::{Entry, Op};
use crate::syntax::normalize;
use titles::group_stable;
pub use titles::HeadingTable;

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
    /// Boxed strings and slices (16 bytes each, no spare room): an index of
    /// a million entries keeps a million of these.
    pub trigger: Box<str>,
    /// Normalized extras, empty ones dropped.
    pub extras: Box<[Box<str>]>,
    /// The section index, when the entry is in one.
    pub section: Option<u32>,
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
        format!("{}{}", self.op.key_prefix(), self.trigger)
    }
}

/// The binding of one workspace state.
///
/// Built without a heap allocation per key: the entries of each heading sit
/// in one flat vector (`bound`, sliced by `bound_start` per heading number),
/// and the exact table maps a key's hash to a chain of (entry, slot) links
/// whose strings are the entries' own.
#[derive(Clone, Debug, Default)]
pub struct Bindings {
    table: Arc<HeadingTable>,
    pub entries: Vec<EntryInfo>,
    /// `bound[bound_start[n]..bound_start[n + 1]]`: the entries binding heading number `n`, in index order.
    bound_start: Vec<u32>,
    bound: Vec<EntryId>,
    /// Hash of a normalized trigger or extra → the last link with that hash.
    exact_head: HashMap<u64, u32>,
    exact_links: Vec<ExactLink>,
    /// Links of entries re-bound since (skipped; compacted when they pile up).
    dead_links: usize,
    /// Heading number → its entries, for headings whose entries changed since
    /// `bound` was built (entries re-bound by a splice).
    bound_patch: HashMap<u32, Vec<EntryId>>,
}

/// `slot` of a link whose entry was re-bound.
const DEAD: u32 = u32::MAX;

/// One trigger (`slot` 0) or extra (`slot` k ≥ 1) in the exact table.
#[derive(Clone, Copy, Debug)]
struct ExactLink {
    entry: EntryId,
    slot: u32,
    /// The previous link with the same hash (`u32::MAX`: none).
    prev: u32,
}

/// The exact keys of an entry, in slot order: its trigger, then its extras
/// (none for an empty trigger). The recall view keeps the same table.
pub fn exact_keys(info: &EntryInfo) -> impl Iterator<Item = &str> {
    let keys = if info.trigger.is_empty() { None } else { Some(std::iter::once(&info.trigger).chain(&info.extras)) };
    keys.into_iter().flatten().map(|k| &**k)
}

fn key_hash(s: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(s)
}

impl Bindings {
    pub(super) fn compute(ws: &Workspace) -> Self {
        let b = Bindings { table: HeadingTable::of(ws), ..Bindings::default() };
        let Some((_, src, index)) = ws.index() else {
            return b;
        };
        // Each section's decision file, resolved once.
        let section_files: Vec<Option<FileId>> = index.sections.iter().map(|s| ws.section_file(&s.name_text)).collect();
        // Normalizing and looking up each entry is independent of the others:
        // large indexes do it in two halves on two threads.
        // The hashes of their exact keys too, in link order (see `link`).
        // `room` is the capacity of the result: the first half's has room
        // for the second's, so joining them moves no entry twice.
        let bind_lines = |lines: &[usize], room: usize| -> (Vec<EntryInfo>, Vec<u64>) {
            let mut key = String::new();
            let mut hashes = Vec::with_capacity(room * 2);
            let mut infos = Vec::with_capacity(room);
            infos.extend(lines.iter().filter_map(|&line| {
                let entry = index.entry(line)?;
                let section = index.section_of(line);
                let section_file = section.and_then(|s| section_files[s]);
                let info = b.bind_entry(src.text.as_str(), &entry, line, section, section_file, &mut key);
                hashes.extend(exact_keys(&info).map(key_hash));
                Some(info)
            }));
            (infos, hashes)
        };
        let n = index.entries.len();
        let parallel = super::Work::Bind.split(ws, n);
        let (infos, hashes) = if parallel {
            let (first, second) = index.entries.split_at(n / 2);
            let ((mut infos, mut hashes), rest) =
                super::join(|| bind_lines(first, n), || bind_lines(second, second.len()));
            infos.extend(rest.0);
            hashes.extend(rest.1);
            (infos, hashes)
        } else {
            bind_lines(&index.entries, n)
        };
        let mut b = b;
        b.exact_head.reserve(hashes.len());
        b.exact_links.reserve(hashes.len());
        let mut hashes = hashes.into_iter();
        for (i, info) in infos.iter().enumerate() {
            b.link_hashed(EntryId(i as u32), info, || hashes.next().unwrap_or_default());
        }
        // The entries of each heading, in index order.
        let table = b.table.clone();
        let bound = infos.iter().enumerate().filter_map(|(i, e)| Some((table.number(e.heading?)?, EntryId(i as u32))));
        (b.bound_start, b.bound) = group_stable(table.headings as usize, bound);
        b.entries = infos;
        b
    }

    /// Adds an entry's trigger and extras to the exact table.
    fn link(&mut self, id: EntryId, info: &EntryInfo) {
        let mut keys = exact_keys(info);
        self.link_hashed(id, info, || keys.next().map_or(0, key_hash));
    }

    /// [`link`](Self::link) with the keys' hashes given in order by `hash`.
    fn link_hashed(&mut self, id: EntryId, info: &EntryInfo, mut hash: impl FnMut() -> u64) {
        for slot in 0..exact_keys(info).count() {
            let link = self.exact_links.len() as u32;
            let prev = self.exact_head.insert(hash(), link).unwrap_or(u32::MAX);
            self.exact_links.push(ExactLink { entry: id, slot: slot as u32, prev });
        }
    }

    /// Re-binds the entries `changed` (ids and lines in `index_file`, the new
    /// index that replaces this binding's) after a splice: every other entry
    /// and the heading table are unchanged, so this costs O(changed).
    pub(super) fn rebind(&mut self, ws: &Workspace, index_file: &super::SourceFile, changed: &[(EntryId, usize)]) {
        let Some(index) = index_file.index() else { return };
        let mut key = String::new();
        for &(id, line) in changed {
            let Some(entry) = index.entry(line) else { continue };
            let section = index.section_of(line);
            let section_file = section.and_then(|s| ws.section_file(&index.sections[s].name_text));
            let info = self.bind_entry(&index_file.text, &entry, line, section, section_file, &mut key);
            let old = std::mem::replace(&mut self.entries[id.0 as usize], info.clone());
            if old.heading != info.heading {
                if let Some(h) = old.heading {
                    let mut v = self.entries_of(h).to_vec();
                    v.retain(|&e| e != id);
                    self.patch_bound(h, v);
                }
                if let Some(h) = info.heading {
                    let mut v = self.entries_of(h).to_vec();
                    let at = v.partition_point(|&e| e < id);
                    v.insert(at, id);
                    self.patch_bound(h, v);
                }
            }
            if old.trigger != info.trigger || old.extras != info.extras {
                // Retire the old keys' links (found through their hash chains) and add the new ones.
                for k in std::iter::once(&old.trigger).chain(&old.extras).filter(|_| !old.trigger.is_empty()) {
                    let mut at = self.exact_head.get(&key_hash(k)).copied().unwrap_or(u32::MAX);
                    while let Some(l) = self.exact_links.get_mut(at as usize) {
                        if l.entry == id && l.slot != DEAD {
                            l.slot = DEAD;
                            self.dead_links += 1;
                        }
                        at = l.prev;
                    }
                }
                self.link(id, &info);
            }
        }
        if self.dead_links > 64 && self.dead_links * 2 > self.exact_links.len() {
            self.relink();
        }
    }

    /// Rebuilds the exact table from the entries (drops dead links).
    fn relink(&mut self) {
        self.exact_head.clear();
        self.exact_links.clear();
        self.dead_links = 0;
        let entries = std::mem::take(&mut self.entries);
        for (i, e) in entries.iter().enumerate() {
            self.link(EntryId(i as u32), e);
        }
        self.entries = entries;
    }

    fn patch_bound(&mut self, h: HeadingId, entries: Vec<EntryId>) {
        if let Some(n) = self.table.number(h) {
            self.bound_patch.insert(n as u32, entries);
        }
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
        let trigger = normalize(e.trigger.slice(text)).into_boxed_str();
        let extras = e
            .extras
            .iter()
            .map(|r| normalize(r.slice(text)))
            .filter(|s| !s.is_empty())
            .map(String::into_boxed_str)
            .collect();
        let mut info = EntryInfo {
            line,
            op: e.op,
            trigger,
            extras,
            section: section.map(|s| s as u32),
            section_file,
            heading: None,
            structural: None,
        };
        if info.trigger.is_empty() {
            return info;
        }
        key.clear();
        key.push_str(info.op.key_prefix());
        key.push_str(&info.trigger);
        let key = key.as_str();
        let cands = self.table.titles.get(key);
        if !cands.is_empty() {
            info.heading = cands.iter().find(|h| Some(h.file) == section_file).or(cands.first()).copied();
        } else {
            let named = Some(self.table.structural.get(&info.trigger))
                .filter(|c| !c.is_empty())
                .unwrap_or_else(|| self.table.structural.get(key));
            info.structural = named.iter().find(|h| Some(h.file) == section_file).or(named.first()).copied();
        }
        info
    }

    /// Semantic headings with this normalized title, in path order.
    pub fn headings_titled(&self, normalized: &str) -> &[HeadingId] {
        self.table.titles.get(normalized)
    }

    /// Structural headings whose name (without the `.`) normalizes to this.
    pub fn structural_titled(&self, normalized: &str) -> &[HeadingId] {
        self.table.structural.get(normalized)
    }

    /// Entries that bind `heading`, in index order.
    pub fn entries_of(&self, heading: HeadingId) -> &[EntryId] {
        let Some(n) = self.table.number(heading) else { return &[] };
        if let Some(v) = self.bound_patch.get(&(n as u32)) {
            return v;
        }
        match (self.bound_start.get(n), self.bound_start.get(n + 1)) {
            (Some(&a), Some(&b)) => &self.bound[a as usize..b as usize],
            _ => &[],
        }
    }

    pub fn entry(&self, id: EntryId) -> &EntryInfo {
        &self.entries[id.0 as usize]
    }

    /// The resolver's exact tiers (spec §6): the entry whose trigger or extra
    /// equals `normalized`, preferring, in order, a trigger with operator `op`,
    /// an extra with `op`, then a trigger and an extra with the other
    /// operator; ties keep index order, except that of several copies of one
    /// trigger the kept one wins. With no `op`, triggers before extras.
    /// Returns the entry and whether it matched by an extra.
    pub fn exact_match(&self, op: Option<Op>, normalized: &str) -> Option<(EntryId, bool)> {
        pick_exact(
            op,
            self.matches(normalized).map(|(entry, slot)| {
                let e = &self.entries[entry.0 as usize];
                (entry, slot, e.op, e.extras.len())
            }),
        )
    }

    /// The copy kept among the entries with operator `op` and normalized
    /// trigger `trigger` (`duplicate-entry` reports the others): the one with
    /// the most extras, the first among equals. A copy pasted above an entry
    /// is reported, not the entry that carries the extras.
    pub fn kept_with(&self, op: Op, trigger: &str) -> Option<EntryId> {
        self.matches(trigger)
            .filter(|&(e, slot)| slot == 0 && self.entries[e.0 as usize].op == op)
            .map(|(e, _)| e)
            .min_by_key(|e| (std::cmp::Reverse(self.entries[e.0 as usize].extras.len()), e.0))
    }

    /// For every entry (by position in `entries`), the copy kept among the
    /// entries with its operator and trigger ([`kept_with`](Self::kept_with)):
    /// itself when it is kept or has no trigger.
    ///
    /// Walks the exact table once, a chain of links per key hash, instead of
    /// building a map of every trigger: an index of a million entries needs
    /// no transient table of a million keys. Identical triggers share a chain
    /// and are grouped in one pass of it.
    pub fn kept_copies(&self) -> Vec<EntryId> {
        let mut kept: Vec<EntryId> = (0..self.entries.len() as u32).map(EntryId).collect();
        let mut chain: Vec<EntryId> = Vec::new();
        for &head in self.exact_head.values() {
            chain.clear();
            let mut link = head;
            while let Some(l) = self.exact_links.get(link as usize) {
                link = l.prev;
                if l.slot == 0 {
                    chain.push(l.entry);
                }
            }
            // Usually one trigger per chain; a hash shared by several
            // triggers is split into groups of equal (operator, trigger).
            while let Some(&first) = chain.last() {
                let e = &self.entries[first.0 as usize];
                let same = |id: &EntryId| {
                    let o = &self.entries[id.0 as usize];
                    o.op == e.op && o.trigger == e.trigger
                };
                let best = chain
                    .iter()
                    .filter(|id| same(id))
                    .min_by_key(|id| (std::cmp::Reverse(self.entries[id.0 as usize].extras.len()), id.0))
                    .copied()
                    .unwrap_or(first);
                for id in chain.iter().filter(|id| same(id)) {
                    kept[id.0 as usize] = best;
                }
                chain.retain(|id| !same(id));
            }
        }
        kept
    }

    /// Every entry that has `key` as its trigger or one of its extras, in no particular order.
    pub fn entries_with_key(&self, key: &str) -> Vec<EntryId> {
        self.matches(key).map(|(e, _)| e).collect()
    }

    /// The live links whose text (the trigger for slot 0, else that extra) is `key`: (entry, slot).
    fn matches<'s>(&'s self, key: &'s str) -> impl Iterator<Item = (EntryId, u32)> + 's {
        let mut link = self.exact_head.get(&key_hash(key)).copied().unwrap_or(u32::MAX);
        std::iter::from_fn(move || {
            while let Some(l) = self.exact_links.get(link as usize) {
                link = l.prev;
                let e = &self.entries[l.entry.0 as usize];
                let text = match l.slot {
                    DEAD => None,
                    0 => Some(&e.trigger),
                    k => e.extras.get(k as usize - 1),
                };
                if text.is_some_and(|t| **t == *key) {
                    return Some((l.entry, l.slot));
                }
            }
            None
        })
    }

    /// Every (normalized title, headings) group of semantic headings.
    pub fn title_groups(&self) -> impl Iterator<Item = (&str, &[HeadingId])> {
        self.table.title_groups()
    }
}

/// [`Bindings::exact_match`]'s choice among the entries whose text equals
/// the query: each hit as (entry, slot: 0 for the trigger, k for extra k,
/// the entry's operator, its number of extras). Shared with the recall view
/// (`recall::view`), which keeps the same table as bytes.
pub fn pick_exact(op: Option<Op>, hits: impl Iterator<Item = (EntryId, u32, Op, usize)>) -> Option<(EntryId, bool)> {
    hits.map(|(entry, slot, entry_op, extras)| {
        let other_op = op.is_some_and(|op| entry_op != op);
        let extra = slot > 0;
        // Among copies of one trigger, the kept one (see `kept_with`).
        let extras = if extra { 0 } else { extras };
        ((u8::from(other_op) * 2 + u8::from(extra), std::cmp::Reverse(extras), entry), (entry, extra))
    })
    .min_by_key(|(rank, _)| *rank)
    .map(|(_, hit)| hit)
}
impl Workspace {
    /// The heading behind an id.
    pub fn heading(&self, id: HeadingId) -> Option<&Heading> {
        self.file(id.file)?.decision()?.headings.get(id.idx as usize)
    }

    /// The text of a heading's section after its heading line(s) ("" when gone).
    pub fn section_body(&self, id: HeadingId) -> &str {
        let Some(h) = self.heading(id) else { return "" };
        self.file(id.file).and_then(|f| f.text.get(h.range.end..h.section.end)).unwrap_or("")
    }
}
