//! The decision files' heading titles, normalized and numbered: what binding looks titles up in, kept across index edits.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::super::{Depends, Workspace};
use super::{key_hash, HeadingId};

/// Heading titles of the decision files, normalized (kept across index edits).
#[derive(Debug, Default)]
pub struct HeadingTable {
    pub(super) titles: TitleMap,
    pub(super) structural: TitleMap,
    /// Per file id: the number of its first heading in one workspace-wide
    /// numbering (so per-heading data can live in flat vectors).
    first_heading: Vec<u32>,
    pub(super) headings: u32,
}

impl HeadingTable {
    /// The workspace-wide number of a heading, if it is one of this table's.
    pub(super) fn number(&self, h: HeadingId) -> Option<usize> {
        let n = *self.first_heading.get(h.file.0 as usize)? as usize + h.idx as usize;
        (n < self.headings as usize).then_some(n)
    }

    /// Every (normalized title, headings) group of semantic headings.
    pub fn title_groups(&self) -> impl Iterator<Item = (&str, &[HeadingId])> {
        self.titles.groups()
    }

    /// The table of `ws`, built once per state of its decision files.
    pub fn of(ws: &Workspace) -> Arc<HeadingTable> {
        ws.cached(Depends::Decisions, |ws| {
            let mut t = HeadingTable::default();
            let (mut titles, mut structural) = (TitleMapBuilder::default(), TitleMapBuilder::default());
            for (file, _, d) in ws.decisions() {
                let slot = file.0 as usize;
                if t.first_heading.len() <= slot {
                    t.first_heading.resize(slot + 1, u32::MAX);
                }
                t.first_heading[slot] = t.headings;
                t.headings += d.headings.len() as u32;
                for (i, h) in d.headings.iter().enumerate() {
                    let id = HeadingId { file, idx: i as u32 };
                    if h.is_semantic() {
                        titles.push(&h.key, id);
                    } else if h.structural {
                        structural.push(&h.key, id);
                    }
                }
            }
            t.titles = titles.finish();
            t.structural = structural.finish();
            t
        })
    }
}

/// Normalized titles → headings in path order, flat: the keys in one arena,
/// the ids in one vector sliced per title, and a map from a key's hash to its
/// title (a colliding different key probes the next hash). No allocation per title.
#[derive(Debug, Default)]
pub(super) struct TitleMap {
    slots: HashMap<u64, u32>,
    keys: String,
    /// Title `g`'s key is `keys[key_start[g]..key_start[g + 1]]`.
    key_start: Vec<u32>,
    /// Title `g`'s headings are `ids[id_start[g]..id_start[g + 1]]`.
    id_start: Vec<u32>,
    ids: Vec<HeadingId>,
}

impl TitleMap {
    pub(super) fn key(&self, g: u32) -> &str {
        &self.keys[self.key_start[g as usize] as usize..self.key_start[g as usize + 1] as usize]
    }

    /// The title number of `key`, probing past other keys with the same hash.
    pub(super) fn find(&self, key: &str) -> Option<u32> {
        let mut h = key_hash(key);
        loop {
            let g = *self.slots.get(&h)?;
            if self.key(g) == key {
                return Some(g);
            }
            h = h.wrapping_add(1);
        }
    }

    /// The headings of title `g`.
    pub(super) fn ids_of(&self, g: u32) -> &[HeadingId] {
        &self.ids[self.id_start[g as usize] as usize..self.id_start[g as usize + 1] as usize]
    }

    pub(super) fn get(&self, key: &str) -> &[HeadingId] {
        self.find(key).map_or(&[], |g| self.ids_of(g))
    }

    pub(super) fn groups(&self) -> impl Iterator<Item = (&str, &[HeadingId])> {
        (0..self.id_start.len().saturating_sub(1) as u32).map(|g| (self.key(g), self.ids_of(g)))
    }
}

/// Builds a [`TitleMap`] from (key, heading) pairs in path order.
#[derive(Default)]
struct TitleMapBuilder {
    map: TitleMap,
    /// Each pushed heading and its title number, in push order.
    pushed: Vec<(u32, HeadingId)>,
}

impl TitleMapBuilder {
    pub(super) fn push(&mut self, key: &str, id: HeadingId) {
        let m = &mut self.map;
        if m.key_start.is_empty() {
            m.key_start.push(0);
        }
        let g = match m.find(key) {
            Some(g) => g,
            None => {
                let mut h = key_hash(key);
                while m.slots.contains_key(&h) {
                    h = h.wrapping_add(1);
                }
                let g = m.key_start.len() as u32 - 1;
                m.slots.insert(h, g);
                m.keys.push_str(key);
                m.key_start.push(m.keys.len() as u32);
                g
            }
        };
        self.pushed.push((g, id));
    }

    /// Groups the headings by title, keeping path order within each.
    pub(super) fn finish(self) -> TitleMap {
        let mut m = self.map;
        let titles = m.key_start.len().saturating_sub(1);
        (m.id_start, m.ids) = group_stable(titles, self.pushed.into_iter().map(|(g, id)| (g as usize, id)));
        m
    }
}

/// `items` grouped by their group number (below `groups`), keeping their
/// order within each group (a counting sort): group `g` is
/// `values[start[g]..start[g + 1]]`. Returns `(start, values)`.
pub(super) fn group_stable<T: Copy>(
    groups: usize,
    items: impl Iterator<Item = (usize, T)> + Clone,
) -> (Vec<u32>, Vec<T>) {
    let mut start = vec![0u32; groups + 1];
    for (g, _) in items.clone() {
        start[g + 1] += 1;
    }
    for g in 0..groups {
        start[g + 1] += start[g];
    }
    let mut next = start.clone();
    let mut values = Vec::with_capacity(start[groups] as usize);
    // Filled in place below; every slot is written exactly once.
    let Some((_, first)) = items.clone().next() else { return (start, values) };
    values.resize(start[groups] as usize, first);
    for (g, v) in items {
        values[next[g] as usize] = v;
        next[g] += 1;
    }
    (start, values)
}
