//! Re-checking after an index splice: only what the changed entries can affect, the rest moved.
//!
//! A splice ([`crate::model::splice`]) changed a few entry lines and kept
//! every line's kind and number. The findings of the base state stay valid
//! except those *owned* by a part of the workspace the change can affect;
//! [`Scope`] is that part, built from what each rule reads:
//!
//! - the changed entries themselves (every per-entry rule);
//! - entries sharing a trigger or extra with a changed entry, old or new
//!   (`duplicate-entry`, `shadowed-trigger`: who is first, who wins);
//! - entries resolving to a heading a changed or such entry resolves to, old
//!   or new (the whole group of entries resolving to one heading);
//! - when a heading gained its first entry or lost its last: the entries
//!   binding no heading whose candidate list it enters or leaves (the
//!   unindexed headings sharing the most word keys with them), and that
//!   heading's file;
//! - the changed lines' sections (`unordered-section`), and the decision
//!   files they name: where a missing entry would be inserted moves with the
//!   section's entries (where a new entry for them would go);
//!   every file when the last line changed (a new section goes at the end).
//!
//! Old findings outside the scope are kept with their offsets moved by the
//! splice; the rules run on the scope only ([`super::Ctx::entries`] and
//! friends) and the union is sorted as a full check sorts it. A property test
//! (`tests/it/properties.rs`) checks the result equals a full check after random
//! edit sequences.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::{apply_levels, order, run, sort, Ctx, Finding, Owner, INDEX_LANES};
use crate::model::bind::EntryInfo;
use crate::model::{Depends, EntryId, FileId, HeadingId, IndexSplice, Workspace};
use crate::search::similar;
use crate::search::triggers::entry_target;

pub(crate) mod suggest;
use crate::syntax::index::IndexFile;
use crate::text::TextRange;

/// Entries by what the incremental scope needs to find quickly.
#[derive(Clone, Debug, Default)]
pub(crate) struct EntryClasses {
    /// Entries with a trigger that bind no heading and name no structural one, ascending.
    orphans: Vec<EntryId>,
    /// The orphans by the word keys of their triggers (which headings' switches can concern them).
    orphan_keys: similar::KeyIndex,
    /// Orphans by the heading they resemble most in their section's file.
    drift: FxHashMap<HeadingId, Vec<EntryId>>,
    /// Entries bound to a heading of another file than their section's, ascending.
    misplaced: Vec<EntryId>,
}

impl EntryClasses {
    /// The classes of `ws`, kept per state of its index and decision files.
    pub(crate) fn of(ws: &Workspace) -> Arc<EntryClasses> {
        ws.cached(Depends::IndexAndDecisions, |ws| {
            let patched = ws.index_splice().and_then(|sp| {
                let mut c = sp.take_base_owned::<EntryClasses>()?;
                for (id, old) in &sp.base_entries {
                    c.remove(ws, *id, old);
                }
                for (id, _) in &sp.base_entries {
                    c.add(ws, *id, ws.bindings().entry(*id));
                }
                Some(c)
            });
            patched.unwrap_or_else(|| {
                let mut c = EntryClasses::default();
                for (i, e) in ws.bindings().entries.iter().enumerate() {
                    c.add(ws, EntryId(i as u32), e);
                }
                c
            })
        })
    }

    /// The entries that bind nothing and resemble `h` most in their section's file.
    pub(crate) fn drifted_to(&self, h: HeadingId) -> impl Iterator<Item = EntryId> + '_ {
        self.drift.get(&h).into_iter().flatten().copied()
    }

    fn add(&mut self, ws: &Workspace, id: EntryId, e: &EntryInfo) {
        if is_orphan(e) {
            insert_sorted(&mut self.orphans, id);
            self.orphan_keys.insert_trigger(id.0, &e.trigger);
            if let Some(h) = entry_target(ws, e) {
                insert_sorted(self.drift.entry(h).or_default(), id);
            }
        }
        if e.heading.is_some_and(|h| e.section_file != Some(h.file)) {
            insert_sorted(&mut self.misplaced, id);
        }
    }

    fn remove(&mut self, ws: &Workspace, id: EntryId, e: &EntryInfo) {
        let drop = |v: &mut Vec<EntryId>| {
            if let Ok(at) = v.binary_search(&id) {
                v.remove(at);
            }
        };
        if is_orphan(e) {
            drop(&mut self.orphans);
            self.orphan_keys.remove_trigger(id.0, &e.trigger);
            if let Some(v) = entry_target(ws, e).and_then(|h| self.drift.get_mut(&h)) {
                drop(v);
            }
        }
        drop(&mut self.misplaced);
    }
}

fn is_orphan(e: &EntryInfo) -> bool {
    !e.trigger.is_empty() && e.heading.is_none() && e.structural.is_none()
}

fn insert_sorted(v: &mut Vec<EntryId>, id: EntryId) {
    if let Err(at) = v.binary_search(&id) {
        v.insert(at, id);
    }
}

/// The part of the workspace a splice can affect (see the module docs).
#[derive(Debug)]
pub(crate) struct Scope {
    /// Entries whose per-entry findings are re-checked, ascending.
    pub entries: Vec<EntryId>,
    /// Index lines whose line findings are re-checked (the changed lines).
    pub lines: std::ops::Range<usize>,
    /// Sections whose order is re-checked, ascending.
    pub sections: Vec<usize>,
    /// Decision files whose unindexed headings are re-checked.
    pub files: FxHashSet<FileId>,
    classes: Arc<EntryClasses>,
}

impl Scope {
    fn build(ws: &Workspace, sp: &IndexSplice, index: &IndexFile) -> Scope {
        let b = ws.bindings();
        let classes = EntryClasses::of(ws);
        let now = |id: crate::model::EntryId| b.entry(id);
        let mut set: FxHashSet<EntryId> = sp.base_entries.iter().map(|(id, _)| *id).collect();
        // Entries sharing a trigger or an extra with a changed entry, before or after.
        let mut keys: FxHashSet<&str> = FxHashSet::default();
        for (id, old) in &sp.base_entries {
            for e in [old, now(*id)] {
                if !e.trigger.is_empty() {
                    keys.insert(&e.trigger);
                    keys.extend(e.extras.iter().map(|x| &**x));
                }
            }
        }
        for k in keys {
            set.extend(b.entries_with_key(k));
        }
        // The whole group of entries resolving to each heading these resolve to (before or after).
        let mut targets: FxHashSet<HeadingId> = FxHashSet::default();
        for (_, old) in &sp.base_entries {
            targets.extend(entry_target(ws, old));
        }
        for &id in &set {
            targets.extend(entry_target(ws, b.entry(id)));
        }
        for h in &targets {
            set.extend(b.entries_of(*h).iter().copied());
            set.extend(classes.drift.get(h).into_iter().flatten().copied());
        }
        // Headings that gained their first entry or lost their last.
        let mut files: FxHashSet<FileId> = FxHashSet::default();
        let mut toggled: Vec<(HeadingId, bool)> = Vec::new();
        for (id, old) in &sp.base_entries {
            for h in [old.heading, now(*id).heading].into_iter().flatten() {
                let bound_now = b.entries_of(h).len();
                let gained = sp.base_entries.iter().filter(|(i, _)| now(*i).heading == Some(h)).count();
                let lost = sp.base_entries.iter().filter(|(_, o)| o.heading == Some(h)).count();
                let bound_before = bound_now + lost - gained;
                if (bound_now == 0) != (bound_before == 0) && !toggled.iter().any(|t| t.0 == h) {
                    files.insert(h.file);
                    toggled.push((h, bound_now == 0));
                }
            }
        }
        // Orphans whose candidate headings (unindexed ones, by word key) change.
        if !toggled.is_empty() {
            set.extend(suggest::affected_orphans(ws, &toggled, &classes.orphan_keys).into_iter().map(EntryId));
        }
        // The changed lines' sections, and where entries of the files they name would go.
        let lines = sp.lines.clone();
        let mut sections: Vec<usize> = lines.clone().filter_map(|l| index.section_of(l)).collect();
        sections.dedup();
        let named: Vec<FileId> =
            sections.iter().filter_map(|&s| ws.section_file(&index.sections[s].name_text)).collect();
        let last_line_changed = lines.end >= index.line_count();
        if last_line_changed {
            files.extend(ws.decisions().map(|(f, _, _)| f));
        } else {
            files.extend(named.iter().copied());
        }
        for &m in &classes.misplaced {
            let placed_in = b.entry(m).heading.map(|h| h.file);
            if last_line_changed || placed_in.is_some_and(|f| named.contains(&f)) {
                set.insert(m);
            }
        }
        let mut entries: Vec<EntryId> = set.into_iter().collect();
        entries.sort_unstable();
        Scope { entries, lines, sections, files, classes }
    }

    /// The entries that drifted to `h` (resolve to it without binding it).
    pub(crate) fn drifted_to(&self, h: HeadingId) -> impl Iterator<Item = EntryId> + '_ {
        self.classes.drifted_to(h)
    }
}

/// The findings of `ws` updated from its splice's base, or None when there is
/// no splice or the base was never checked.
///
/// Keeping the base findings (dropping what the scope owns, moving the rest
/// by the splice) and re-checking the scope are independent: with many
/// findings they run on two threads.
pub(super) fn update(ws: &Workspace) -> Option<Vec<Finding>> {
    let sp = ws.index_splice()?;
    let (_, _, index) = ws.index()?;
    // Updated in place when nothing else holds the base findings (the usual case).
    let base = sp.take_base_owned::<Vec<Finding>>()?;
    let scope = Scope::build(ws, sp, index);
    let recheck = || {
        let ctx = Ctx::new(ws, Some(&scope));
        let mut fresh = Vec::new();
        for lane in INDEX_LANES {
            run(&ctx, lane, &mut fresh);
        }
        apply_levels(ws, &mut fresh);
        sort(ws, &mut fresh);
        fresh
    };
    let parallel = crate::model::Work::KeepFindings.split(ws, base.len());
    let (fresh, kept) = if parallel {
        crate::model::join(recheck, || keep(ws, sp, &scope, base))
    } else {
        (recheck(), keep(ws, sp, &scope, base))
    };
    // The kept findings are still in order (offsets moved monotonically): merge.
    Some(merge(ws, kept, fresh))
}

/// The base findings the scope does not own, their offsets in the index
/// moved by the splice.
fn keep(ws: &Workspace, sp: &IndexSplice, scope: &Scope, mut out: Vec<Finding>) -> Vec<Finding> {
    let Some((index_id, src, index)) = ws.index() else { return out };
    let entry_lines: FxHashSet<usize> = scope.entries.iter().map(|&id| ws.bindings().entry(id).line).collect();
    // The base findings of the index come in offset order: their lines are
    // found by walking forward, not by a search over every line each.
    let base_lines = &sp.base_lines;
    let mut cursor = 0usize;
    let mut line_of = |offset: usize| -> usize {
        if offset < base_lines.line_start(cursor) {
            cursor = base_lines.line_of(offset);
        }
        while cursor + 1 < base_lines.line_count() && base_lines.line_start(cursor + 1) <= offset {
            cursor += 1;
        }
        cursor
    };
    // What the scope owns, by what the registry says owns each rule's findings.
    let mut owned = |f: &Finding| -> bool {
        match f.rule.owner() {
            Owner::Nothing => false,
            Owner::Index => true,
            Owner::File => f.file != index_id && scope.files.contains(&f.file),
            _ if f.file != index_id => false,
            Owner::Line => scope.lines.contains(&line_of(f.range.start)),
            Owner::Section => {
                index.section_of(line_of(f.range.start)).is_some_and(|s| scope.sections.binary_search(&s).is_ok())
            }
            Owner::Entry => entry_lines.contains(&line_of(f.range.start)),
        }
    };
    // Offsets before the changed lines stay; after them they move by the
    // length change; between them (composed splices cover unchanged lines
    // too) they keep their line and column.
    let now_lines = &src.line_index;
    let (lo, hi_old) = (base_lines.line_start(sp.lines.start), base_lines.line_start(sp.lines.end));
    let hi_new = now_lines.line_start(sp.lines.end);
    let map = |o: usize| {
        if o < lo {
            o
        } else if o >= hi_old {
            o - hi_old + hi_new
        } else {
            let line = base_lines.line_of(o);
            let start = now_lines.line_start(line);
            (start + o - base_lines.line_start(line)).min(now_lines.line_start(line + 1).max(start))
        }
    };
    let moved = lo != hi_old || hi_old != hi_new;
    let map_range = |r: &mut TextRange| *r = TextRange::new(map(r.start), map(r.end));
    out.retain(|f| !owned(f));
    for f in out.iter_mut().filter(|_| moved) {
        if f.file == index_id {
            map_range(&mut f.range);
        }
        for r in f.related.iter_mut().filter(|r| r.file == index_id) {
            map_range(&mut r.range);
        }
        for change in f.fixes.iter_mut().flat_map(|x| &mut x.change.edits).filter(|c| c.path == src.path) {
            for e in &mut change.edits {
                map_range(&mut e.range);
            }
        }
    }
    out
}

/// Two sorted lists of findings as one, in [`order`]; `b` is the short one
/// (the re-checked part): each of its findings is placed by binary search and
/// the runs of `a` between them are moved, not compared one by one.
fn merge(ws: &Workspace, a: Vec<Finding>, b: Vec<Finding>) -> Vec<Finding> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut a = a.into_iter();
    for y in b {
        // On a tie the kept finding comes first.
        let before = a.as_slice().partition_point(|x| !order(ws, &y, x).is_lt());
        out.extend(a.by_ref().take(before));
        out.push(y);
    }
    out.extend(a);
    out
}
