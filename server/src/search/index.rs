//! The search index of one workspace state: per-entry stems and the BM25 index, built once and cached.

use super::bm25::Bm25;
use super::words::stem_phrase;
use super::Hit;
use crate::model::{Depends, EntryId, Workspace};
use crate::syntax::index::Op;

/// What ranking needs beyond the binding, computed once per workspace state.
#[derive(Debug, Default)]
pub struct SearchIndex {
    /// Per entry (binding order): the stemmed trigger, then each stemmed extra
    /// (built on first use: only the letters-in-order tiers need them).
    stems: std::sync::OnceLock<Vec<Vec<String>>>,
    bm25: std::sync::OnceLock<Bm25>,
    /// Trigger-mode answers already computed for this state (query → winner).
    resolved: std::sync::Mutex<rustc_hash::FxHashMap<(Option<Op>, String), Option<Hit>>>,
    /// BM25 answers for reworded queries already computed for this state.
    reworded: std::sync::Mutex<rustc_hash::FxHashMap<String, Option<EntryId>>>,
    /// The ranking's first result (and its confidence) per query, for this state.
    recalled: std::sync::Mutex<rustc_hash::FxHashMap<(Option<Op>, String), Option<(EntryId, f64)>>>,
}

impl SearchIndex {
    fn build(_: &Workspace) -> Self {
        Self::default()
    }

    /// Per entry (binding order): the stemmed trigger, then each stemmed extra.
    pub fn stems(&self, ws: &Workspace) -> &[Vec<String>] {
        self.stems.get_or_init(|| {
            ws.bindings()
                .entries
                .iter()
                .map(|e| std::iter::once(&e.trigger).chain(&e.extras).map(|t| stem_phrase(t)).collect())
                .collect()
        })
    }

    /// The BM25 index (built on first use: only reworded queries need it).
    pub fn bm25(&self, ws: &Workspace) -> &Bm25 {
        self.bm25.get_or_init(|| Bm25::build(ws))
    }

    /// The best BM25 entry for a reworded query (memoised for this state).
    pub fn reworded(&self, ws: &Workspace, query: &str) -> Option<EntryId> {
        let lock = || self.reworded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&hit) = lock().get(query) {
            return hit;
        }
        let hit = self.bm25(ws).rank(query, 1).first().map(|h| h.0);
        lock().insert(query.to_string(), hit);
        hit
    }
}

/// The cached index of `ws` (built on first use after a change to the index or a decision file).
pub fn of(ws: &Workspace) -> std::sync::Arc<SearchIndex> {
    ws.cached(Depends::IndexAndDecisions, SearchIndex::build)
}

impl SearchIndex {
    /// The memoised first result of the ranking for `query`, computing it with `f` the first time.
    pub fn recalled(
        &self,
        query: &super::TriggerQuery,
        f: impl FnOnce() -> Option<(EntryId, f64)>,
    ) -> Option<(EntryId, f64)> {
        let key = (query.op, query.text.clone());
        let lock = || self.recalled.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&hit) = lock().get(&key) {
            return hit;
        }
        let hit = f();
        lock().insert(key, hit);
        hit
    }

    /// The memoised answer for `query`, computing it with `f` the first time.
    pub fn memo(&self, query: &super::TriggerQuery, f: impl FnOnce() -> Option<Hit>) -> Option<Hit> {
        let key = (query.op, query.text.clone());
        let lock = || self.resolved.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&hit) = lock().get(&key) {
            return hit;
        }
        let hit = f();
        lock().insert(key, hit);
        hit
    }
}
