//! The search index of one workspace state: per-entry stems and the BM25 index, built once and cached.

use super::bm25::Bm25;
use super::query::TriggerQuery;
use crate::model::{Depends, EntryId, Workspace};
use crate::syntax::index::Op;

/// A query as memoised: its operator and text.
type QueryKey = (Option<Op>, String);

/// What ranking needs beyond the binding, computed once per workspace state.
#[derive(Debug, Default)]
pub struct SearchIndex {
    bm25: std::sync::OnceLock<Bm25>,
    /// Where a built index may come from instead of building it (a snapshot
    /// the service layer keeps on disk), asked once, on first use.
    source: std::sync::OnceLock<Bm25Source>,
    /// The technical terms of each decision's code (built on first use: commands and errors only).
    code: std::sync::OnceLock<super::commands::CodeIndex>,
    /// The ranking's first results (with their confidence) per query, for this state.
    recalled: std::sync::Mutex<rustc_hash::FxHashMap<QueryKey, Vec<(EntryId, f64)>>>,
}

impl SearchIndex {
    fn build(_: &Workspace) -> Self {
        Self::default()
    }

    /// The BM25 index (on first use: from the source when it has one, else built).
    pub fn bm25(&self, ws: &Workspace) -> &Bm25 {
        self.bm25.get_or_init(|| self.source.get().and_then(|s| (s.0)(ws)).unwrap_or_else(|| Bm25::build(ws)))
    }

    /// Sets where the BM25 index may come from before it is built (see
    /// [`Bm25Source`]); false when a source was set already.
    pub fn set_bm25_source(&self, source: Bm25Source) -> bool {
        self.source.set(source).is_ok()
    }

    /// The code index (built on first use).
    pub fn code(&self, ws: &Workspace) -> &super::commands::CodeIndex {
        self.code.get_or_init(|| super::commands::CodeIndex::build(ws))
    }

    /// The BM25 index, if this state has one yet (built or installed).
    pub fn bm25_if_built(&self) -> Option<&Bm25> {
        self.bm25.get()
    }

    /// Whether the BM25 index was built for this state (an exact trigger,
    /// a section or a file answer never builds it).
    pub fn bm25_built(&self) -> bool {
        self.bm25.get().is_some()
    }
}

/// A function that may give the BM25 index of the workspace it is passed
/// (None: build it). The engine never reads a disk; the service layer
/// passes one that reads a snapshot.
pub struct Bm25Source(pub Box<LoadBm25>);

/// What a [`Bm25Source`] calls.
pub type LoadBm25 = dyn Fn(&Workspace) -> Option<Bm25> + Send + Sync;

impl std::fmt::Debug for Bm25Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bm25Source")
    }
}

/// The cached index of `ws` (built on first use after a change to the index or a decision file).
pub fn of(ws: &Workspace) -> std::sync::Arc<SearchIndex> {
    ws.cached(Depends::IndexAndDecisions, SearchIndex::build)
}

impl SearchIndex {
    /// The memoised first results of the ranking for `query` (the resolver's
    /// answer and its suggestions), computing them with `f` the first time.
    pub fn recalled(&self, query: &TriggerQuery, f: impl FnOnce() -> Vec<(EntryId, f64)>) -> Vec<(EntryId, f64)> {
        let key = (query.op, query.text.clone());
        let lock = || self.recalled.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(hit) = lock().get(&key) {
            return hit.clone();
        }
        let hit = f();
        lock().insert(key, hit.clone());
        hit
    }
}
