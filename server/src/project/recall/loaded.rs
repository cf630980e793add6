//! A memory loaded to read decisions from: the ranking's index warmed from the snapshot the last call kept, and kept for the next one when it is dropped; `resolve`, `search`, MCP and the hook's ranked moments read through it.

use std::path::{Path, PathBuf};

use crate::ide::resolve::Resolved;
use crate::ide::search::Found;
use crate::model::Workspace;
use crate::project::{search_cache, semantic};

/// A loaded memory and its ranking's index. Dropping it keeps the index for
/// the next process while the memory's files are unchanged (`project::search_cache`).
pub struct Loaded {
    root: PathBuf,
    ws: Workspace,
    warm: std::cell::Cell<Option<search_cache::Warm>>,
}

impl Loaded {
    /// The memory `ws` of the project at `root`, its index warmed from the kept snapshot when it is this memory's.
    pub fn new(root: PathBuf, ws: Workspace) -> Loaded {
        let warm = search_cache::warm(&ws, &root);
        Loaded { root, ws, warm: std::cell::Cell::new(warm) }
    }

    /// The memory of the project at `root`, read afresh; a folder with no
    /// memory at all is an error that says how to start one.
    pub fn open(root: &Path) -> Result<Loaded, super::Failure> {
        let ws = crate::project::load::load(root).map_err(|e| super::Failure::Unloadable(e.to_string()))?;
        match crate::project::load::missing_memory(&ws, &root.display().to_string()) {
            Some(why) => Err(super::Failure::Empty(why)),
            None => Ok(Loaded::new(root.to_path_buf(), ws)),
        }
    }

    /// The project's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The loaded memory.
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// `/when QUERY` (`ide::resolve`): the section, or why there is none.
    pub fn resolve(&self, query: &str, nav: bool) -> Result<Resolved, String> {
        crate::ide::resolve::resolve(&self.ws, query, nav)
    }

    /// The decisions `text` finds, best first, at most `limit`; by meaning
    /// too when the semantic tier is on (`[recall] semantic`, or unset and
    /// the model there: never fetched or waited for); a model that would
    /// not load is a note, and the ranking by words the answer.
    pub fn search(&self, text: &str, limit: usize, notes: &super::Notes) -> Vec<Found> {
        let lazy = semantic::enabled(&self.ws, &self.root).then(|| semantic::Lazy::new(&self.root, false));
        let semantic = lazy.as_ref().map(|l| l as &dyn crate::search::semantic::Cosines);
        let found = crate::ide::search::search(&self.ws, text, limit, semantic);
        if let Some(e) = lazy.as_ref().and_then(|l| l.error()) {
            notes.add(format!("{e}; ranked by words only"));
        }
        found
    }

    /// Keeps the ranking's index for the next process now (once; dropping does it otherwise).
    pub fn keep(&self) {
        if let Some(w) = self.warm.take() {
            search_cache::keep(&self.ws, &w);
        }
    }
}

impl Drop for Loaded {
    fn drop(&mut self) {
        self.keep();
    }
}
