//! Memoised data derived from a workspace state, kept until a file it depends on changes.
//!
//! A [`Cache`] holds at most one value per type. Later layers (search,
//! rules, ide) store what they derive here without the model knowing their
//! types. Values are built outside the lock, so building one may read
//! another; if two threads race, the first stored value wins and both get it.

use std::any::{Any, TypeId};
use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap;

/// What a derived value depends on; it is dropped when such a file changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depends {
    /// The decision files and the configuration only: survives index edits.
    Decisions,
    /// The index and the decision files: survives edits to other Markdown files.
    IndexAndDecisions,
    /// Every file of the workspace (invocations in any Markdown file).
    AllFiles,
}

type Value = Arc<dyn Any + Send + Sync>;

/// One value per type.
#[derive(Default)]
pub(crate) struct Cache(Mutex<FxHashMap<TypeId, Value>>);

impl Cache {
    /// The stored `T`, built by `init` when absent.
    pub fn get_or_init<T: Any + Send + Sync>(&self, init: impl FnOnce() -> T) -> Arc<T> {
        let key = TypeId::of::<T>();
        if let Some(v) = self.map().get(&key).cloned().and_then(|v| v.downcast::<T>().ok()) {
            return v;
        }
        let built = Arc::new(init());
        let stored = self.map().entry(key).or_insert_with(|| built.clone()).clone();
        stored.downcast::<T>().unwrap_or(built)
    }

    /// The stored `T`, if one was built.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.map().get(&TypeId::of::<T>()).cloned().and_then(|v| v.downcast::<T>().ok())
    }

    /// Stores `value` as the `T`, replacing any.
    pub fn set<T: Any + Send + Sync>(&self, value: Arc<T>) {
        self.map().insert(TypeId::of::<T>(), value);
    }

    /// Removes and returns the stored `T`, if one was built.
    pub fn take<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.map().remove(&TypeId::of::<T>()).and_then(|v| v.downcast::<T>().ok())
    }

    /// Whether nothing was built for this state.
    pub fn is_empty(&self) -> bool {
        self.map().is_empty()
    }

    pub fn clear(&mut self) {
        self.0.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
    }

    fn map(&self) -> std::sync::MutexGuard<'_, FxHashMap<TypeId, Value>> {
        // A panic while the lock was held cannot leave the map half-updated.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A clone shares the values built so far (they describe the same state); a
/// change to the clone's files clears what it makes stale in the clone only.
/// This is what lets a request read a snapshot of the workspace while an edit
/// goes on with a copy (see `lsp::state::Snapshot`).
impl Clone for Cache {
    fn clone(&self) -> Self {
        Self(Mutex::new(self.map().clone()))
    }
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cache({} values)", self.map().len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_value_per_type_built_once_until_cleared() {
        let mut c = Cache::default();
        let mut builds = 0;
        assert_eq!(
            *c.get_or_init(|| {
                builds += 1;
                7u32
            }),
            7
        );
        assert_eq!(
            *c.get_or_init(|| {
                builds += 1;
                8u32
            }),
            7
        );
        assert_eq!(*c.get_or_init(|| "other type"), "other type");
        assert_eq!(builds, 1);
        c.clear();
        assert_eq!(*c.get_or_init(|| 9u32), 9);
    }

    #[test]
    fn a_clone_shares_what_was_built_and_clears_on_its_own() {
        let c = Cache::default();
        let first = c.get_or_init(|| 7u32);
        let mut copy = c.clone();
        assert!(Arc::ptr_eq(&first, &copy.get_or_init(|| 8u32)), "shared, not rebuilt");
        copy.clear();
        assert_eq!(*copy.get_or_init(|| 9u32), 9);
        assert_eq!(*c.get_or_init(|| 10u32), 7, "the original keeps its value");
    }

    #[test]
    fn building_may_read_another_value() {
        let c = Cache::default();
        let n = c.get_or_init(|| *c.get_or_init(|| 2u8) as u16 * 10);
        assert_eq!(*n, 20);
    }
}
