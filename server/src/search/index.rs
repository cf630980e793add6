//! The search index of one workspace state: per-entry stems and the BM25 index, built once and cached.

use super::bm25::Bm25;
use super::words::stem_phrase;
use crate::model::Workspace;

/// What ranking needs beyond the binding, computed once per workspace state.
#[derive(Debug, Default)]
pub struct SearchIndex {
    /// Per entry (binding order): the stemmed trigger, then each stemmed extra.
    pub stems: Vec<Vec<String>>,
    bm25: std::sync::OnceLock<Bm25>,
}

impl SearchIndex {
    fn build(ws: &Workspace) -> Self {
        let stems = ws
            .bindings()
            .entries
            .iter()
            .map(|e| std::iter::once(&e.trigger).chain(&e.extras).map(|t| stem_phrase(t)).collect())
            .collect();
        Self { stems, bm25: Default::default() }
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
        Self { stems: self.stems.clone(), bm25: Default::default() }
    }
}
