//! What later layers derive from a workspace state: the binding, the caches by dependency, what is carried to the next state, and what a change drops.

use std::sync::{Arc, OnceLock};

use super::{cache, Bindings, Depends, FileId, Role, SourceFile, Workspace};

/// What binding reads of a decision file: each heading's normalized title,
/// whether it is semantic and whether it is structural (see
/// `bind::HeadingTable`). None for any other file.
pub(super) fn heading_shape(file: Option<&SourceFile>) -> Option<Vec<(String, bool, bool)>> {
    let d = file?.decision()?;
    Some(d.headings.iter().map(|h| (h.key.clone(), h.is_semantic(), h.structural)).collect())
}

impl Workspace {
    /// The entry ↔ heading binding, computed once per workspace state.
    pub fn bindings(&self) -> &Bindings {
        self.bindings_arc()
    }

    /// The binding as this state shares it: states with the same binding
    /// (an edit of a decision body keeps it) hold the same `Arc`, so what a
    /// later layer derives from the binding alone may be kept by its identity
    /// (held as a [`std::sync::Weak`], for the reasons of [`Workspace::file_arc`]).
    pub fn bindings_arc(&self) -> &Arc<Bindings> {
        self.bindings.get_or_init(|| Arc::new(Bindings::compute(self)))
    }

    /// Data a later layer derives from this workspace state, built once by
    /// `init` (one value per type) and dropped when a file it `depends` on changes.
    pub fn cached<T: std::any::Any + Send + Sync>(
        &self,
        depends: Depends,
        init: impl FnOnce(&Workspace) -> T,
    ) -> Arc<T> {
        self.caches[depends as usize].get_or_init(|| init(self))
    }

    /// The value of type `T` this state built for `depends`, if it built one.
    pub fn built<T: std::any::Any + Send + Sync>(&self, depends: Depends) -> Option<Arc<T>> {
        self.caches[depends as usize].get::<T>()
    }

    /// The value of type `T` last kept with [`Workspace::carry`] by this
    /// workspace or any clone of it, whatever state that was: what a later
    /// layer rebuilds from after a change, reusing the parts that still
    /// match this state (the BM25 index keeps one segment per decision
    /// file). Never an answer by itself: the caller checks every part it
    /// reuses against this state (see [`Workspace::is_version`]). Holds one
    /// value per type, so what it keeps alive is bounded; a carried value
    /// refers to files and bindings weakly, so an edit never copies them.
    pub fn carried<T: std::any::Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.carry.get::<T>()
    }

    /// Keeps `value` for the next state's [`Workspace::carried`], replacing the last one.
    pub fn carry<T: std::any::Any + Send + Sync>(&self, value: Arc<T>) {
        self.carry.set(value)
    }

    /// The file `id` as this state shares it. A carried value identifies
    /// the version it was built from by a [`std::sync::Weak`] of it
    /// ([`Workspace::is_version`]): a weak reference keeps the allocation,
    /// not the file, so a later version never gets the same address, and an
    /// edit still moves the file rather than copying it (`Arc::make_mut`
    /// copies only for strong references).
    pub fn file_arc(&self, id: FileId) -> Option<&Arc<SourceFile>> {
        self.files.get(id.0 as usize)?.as_ref()
    }

    /// Whether `version` (taken from [`Workspace::file_arc`] in some state)
    /// is file `id` as this state has it.
    pub fn is_version(&self, id: FileId, version: &std::sync::Weak<SourceFile>) -> bool {
        self.file_arc(id).is_some_and(|a| std::ptr::eq(Arc::as_ptr(a), version.as_ptr()))
    }

    pub(super) fn cache_mut(&mut self, depends: Depends) -> &mut cache::Cache {
        &mut self.caches[depends as usize]
    }

    /// Drops what a change to a decision file that kept its headings' shape
    /// makes stale: every derived value but the binding and the heading table.
    pub(super) fn invalidate_bodies(&mut self) {
        let table = self.caches[Depends::Decisions as usize].take::<super::bind::HeadingTable>();
        let bindings = self.bindings.take();
        self.invalidate(Role::Decision);
        if let Some(table) = table {
            self.caches[Depends::Decisions as usize].set(table);
        }
        if let Some(bindings) = bindings {
            let _ = self.bindings.set(bindings);
        }
    }

    /// Drops what a change to a file of this role makes stale.
    pub(super) fn invalidate(&mut self, role: Role) {
        use Depends::*;
        let stale: &[Depends] = match role {
            Role::Decision => &[Decisions, IndexAndDecisions, AllFiles],
            Role::Index | Role::Config => &[IndexAndDecisions, AllFiles],
            Role::Other => &[AllFiles],
        };
        if stale.contains(&IndexAndDecisions) {
            self.bindings = OnceLock::new();
            self.splice = None;
        }
        for &d in stale {
            self.cache_mut(d).clear();
        }
    }
}
