//! The search index of one workspace state: per-entry stems and the BM25 index, built once and cached.

use super::bm25::Bm25;
use super::words::stem_phrase;
use super::Hit;
use crate::model::Workspace;
use crate::syntax::index::Op;

/// What ranking needs beyond the binding, computed once per workspace state.
#[derive(Debug, Default)]
pub struct SearchIndex {
    /// Per entry (binding order): the stemmed trigger, then each stemmed extra.
    pub stems: Vec<Vec<String>>,
    bm25: std::sync::OnceLock<Bm25>,
    /// Trigger-mode answers already computed for this state (query → winner).
    resolved: std::sync::Mutex<std::collections::HashMap<(Option<Op>, String), Option<Hit>>>,
}

impl SearchIndex {
    fn build(ws: &Workspace) -> Self {
        let stems = ws
            .bindings()
            .entries
            .iter()
            .map(|e| std::iter::once(&e.trigger).chain(&e.extras).map(|t| stem_phrase(t)).collect())
            .collect();
        Self { stems, bm25: Default::default(), resolved: Default::default() }
    }

    /// The BM25 index (built on first use: only reworded queries need it).
    pub fn bm25(&self, ws: &Workspace) -> &Bm25 {
        self.bm25.get_or_init(|| Bm25::build(ws))
    }
}

/// The cached index of `ws` (built on first use after a change).
pub fn of(ws: &Workspace) -> std::borrow::Cow<'_, SearchIndex> {
    match ws.derived(SearchIndex::build) {
        Some(idx) => std::borrow::Cow::Borrowed(idx),
        None => std::borrow::Cow::Owned(SearchIndex::build(ws)),
    }
}

impl Clone for SearchIndex {
    fn clone(&self) -> Self {
        Self { stems: self.stems.clone(), bm25: Default::default(), resolved: Default::default() }
    }
}

impl SearchIndex {
    /// The memoised answer for `query`, computing it with `f` the first time.
    pub fn memo(&self, query: &super::TriggerQuery, f: impl FnOnce() -> Option<Hit>) -> Option<Hit> {
        let key = (query.op, query.text.clone());
        if let Some(hit) = self.resolved.lock().ok().and_then(|m| m.get(&key).copied()) {
            return hit;
        }
        let hit = f();
        if let Ok(mut m) = self.resolved.lock() {
            m.insert(key, hit);
        }
        hit
    }
}
