//! What trigger matching derives from the binding alone (the entries' triggers and extras): kept while the binding is.
//!
//! An edit of a decision file's body keeps the binding (the model keeps the
//! same `Arc`), so the letters-in-order tiers' word tables and their answers
//! survive it: at 100,000 entries, stemming every trigger costs tens of
//! milliseconds and one letters-in-order pass over them ten or more.

use std::sync::{Arc, Mutex, OnceLock, Weak};

use rustc_hash::{FxHashMap, FxHashSet};

use super::query::Hit;
use super::words::stem_phrase;
use crate::model::{Bindings, Workspace};
use crate::syntax::index::Op;

/// Most answers kept per binding (the oldest half is dropped past it).
const MAX_RANKED: usize = 512;

/// A ranking query as kept: operator, normalized text, how many hits.
type RankKey = (Option<Op>, String, usize);

/// Kept answers by query, and the queries in the order they were asked.
type Ranked = (FxHashMap<RankKey, Vec<Hit>>, Vec<RankKey>);

/// The binding's derived tables and the trigger ranking's answers.
#[derive(Debug)]
pub struct Names {
    /// The binding these describe, held weakly (its address is never reused
    /// while this lives, and an index edit still moves it rather than copying it).
    bindings: Weak<Bindings>,
    /// Per entry (binding order): the stemmed trigger, then each stemmed extra.
    stems: OnceLock<Vec<Vec<String>>>,
    /// Every word of every trigger and extra.
    vocabulary: OnceLock<FxHashSet<String>>,
    /// The stems of [`Self::vocabulary`].
    vocabulary_stems: OnceLock<FxHashSet<String>>,
    /// [`super::triggers::rank`]'s answers, in the order they were asked.
    ranked: Mutex<Ranked>,
}

/// The tables of `ws`'s binding: the last state's when it had the same binding.
pub fn of(ws: &Workspace) -> Arc<Names> {
    let bindings = ws.bindings_arc();
    if let Some(n) = ws.carried::<Names>().filter(|n| std::ptr::eq(n.bindings.as_ptr(), Arc::as_ptr(bindings))) {
        return n;
    }
    let n = Arc::new(Names {
        bindings: Arc::downgrade(bindings),
        stems: OnceLock::new(),
        vocabulary: OnceLock::new(),
        vocabulary_stems: OnceLock::new(),
        ranked: Mutex::default(),
    });
    ws.carry(n.clone());
    n
}

impl Names {
    /// Every word of every trigger and extra of `b` (the binding these
    /// describe, as [`of`] matched it), normalized.
    pub fn vocabulary(&self, b: &Bindings) -> &FxHashSet<String> {
        self.vocabulary.get_or_init(|| {
            let mut v = FxHashSet::default();
            for e in &b.entries {
                for t in std::iter::once(&e.trigger).chain(&e.extras) {
                    for w in t.split_whitespace() {
                        if !v.contains(w) {
                            v.insert(w.to_string());
                        }
                    }
                }
            }
            v
        })
    }

    /// The stem of every word of every trigger and extra.
    pub fn vocabulary_stems(&self, b: &Bindings) -> &FxHashSet<String> {
        self.vocabulary_stems.get_or_init(|| self.vocabulary(b).iter().map(|w| stem_phrase(w)).collect())
    }

    /// Per entry (binding order): the stemmed trigger, then each stemmed extra.
    pub fn stems(&self, b: &Bindings) -> &[Vec<String>] {
        self.stems.get_or_init(|| {
            b.entries
                .iter()
                .map(|e| std::iter::once(&e.trigger).chain(&e.extras).map(|t| stem_phrase(t)).collect())
                .collect()
        })
    }

    /// The kept answer for `key`, computing it with `f` the first time.
    pub(super) fn ranked(&self, key: RankKey, f: impl FnOnce() -> Vec<Hit>) -> Vec<Hit> {
        let lock = || self.ranked.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(hits) = lock().0.get(&key) {
            return hits.clone();
        }
        let hits = f();
        let mut kept = lock();
        if kept.1.len() >= MAX_RANKED {
            let old: Vec<RankKey> = kept.1.drain(..MAX_RANKED / 2).collect();
            for k in old {
                kept.0.remove(&k);
            }
        }
        if kept.0.insert(key.clone(), hits.clone()).is_none() {
            kept.1.push(key);
        }
        hits
    }
}
