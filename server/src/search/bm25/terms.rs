//! The term numbers every BM25 segment of a workspace shares: each word stemmed once, each stem numbered once.

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use rustc_hash::FxHashMap as HashMap;

use super::super::words::stem_phrase;
use super::is_stop;

/// The shared table, read by queries and grown by segment builds. It only
/// grows: a number once given always names the same stem, so segments built
/// at different times compare their terms by number. It holds every word
/// any state of the workspace indexed, words since deleted too, so
/// `Bm25::build` starts a fresh one past twice the size of the last cold
/// build's (plus a margin).
#[derive(Debug, Default)]
pub struct Terms(RwLock<Table>);

/// Words, stems and numbers.
#[derive(Debug, Default)]
pub(super) struct Table {
    /// Lowercase word → its term (None: a stop word or a single character).
    words: HashMap<Box<str>, Option<u32>>,
    /// Stem → its number.
    ids: HashMap<Arc<str>, u32>,
    /// Number → stem.
    names: Vec<Arc<str>>,
}

impl Terms {
    pub(super) fn read(&self) -> RwLockReadGuard<'_, Table> {
        // A panic while the lock was held leaves a table that only lacks what was being added.
        self.0.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn write(&self) -> RwLockWriteGuard<'_, Table> {
        self.0.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether no term was numbered yet.
    pub(super) fn is_empty(&self) -> bool {
        self.read().names.is_empty()
    }

    /// How many terms were numbered.
    pub(super) fn len(&self) -> usize {
        self.read().names.len()
    }
}

impl Table {
    /// The term of a lowercase word, stemming and numbering it on first sight
    /// (None for a stop word or a single character).
    pub(super) fn word(&mut self, word: &str) -> Option<u32> {
        if let Some(&id) = self.words.get(word) {
            return id;
        }
        let id = (!is_stop(word)).then(|| self.term_id(&stem_phrase(word)));
        self.words.insert(word.into(), id);
        id
    }

    /// The number of a stem, given one when first seen.
    pub(super) fn term_id(&mut self, stem: &str) -> u32 {
        if let Some(&id) = self.ids.get(stem) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = Arc::from(stem);
        self.ids.insert(name.clone(), id);
        self.names.push(name);
        id
    }

    /// The number of a stem, if one was given.
    pub(super) fn get(&self, stem: &str) -> Option<u32> {
        self.ids.get(stem).copied()
    }

    /// The stem of a number.
    pub(super) fn name(&self, id: u32) -> Option<&Arc<str>> {
        self.names.get(id as usize)
    }

    /// Every stem, by number.
    pub(super) fn names(&self) -> &[Arc<str>] {
        &self.names
    }

    /// Numbers `other`'s stems here; returns the number here of each of `other`'s.
    pub(super) fn absorb(&mut self, other: Table) -> Vec<u32> {
        let remap: Vec<u32> = other.names.iter().map(|t| self.term_id(t)).collect();
        for (w, id) in other.words {
            self.words.entry(w).or_insert_with(|| id.map(|i| remap[i as usize]));
        }
        remap
    }
}
