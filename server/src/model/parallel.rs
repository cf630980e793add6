//! When engine work goes to a second thread: every threshold in one place, and [`join`].
//!
//! Spawning a scoped thread costs about 30 µs here; each threshold is where
//! the half of the work moved to the second thread costs clearly more than
//! that on a 2-core machine (measured with the `engine` and `lsp` benches).
//! A workspace limited to one thread ([`super::Workspace::set_threads`])
//! never spawns, and results never depend on the split (property-tested).

use super::Workspace;

/// Work the engine can split in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// Binding the index's entries (normalizing and looking up each): cheap per entry.
    Bind,
    /// A full check's two lanes of index rules (and the decision-only rules).
    Check,
    /// Keeping an incremental re-check's base findings (moving their offsets), per finding.
    KeepFindings,
    /// Tokenizing sections for the BM25 index: costly per entry.
    Bm25,
}

impl Work {
    /// From this many items on, the work is split.
    pub(crate) const fn threshold(self) -> usize {
        match self {
            Work::Bind => 4_000,
            Work::Check => 2_000,
            Work::KeepFindings => 1_000,
            Work::Bm25 => 256,
        }
    }

    /// Whether `items` of this work in `ws` are worth a second thread.
    pub(crate) fn split(self, ws: &Workspace, items: usize) -> bool {
        items >= self.threshold() && ws.threads() > 1
    }
}

/// Runs `here` on this thread and `there` on a second one, and returns both
/// results. The engine never panics on input (fuzzed); if it did, the panic
/// surfaces here as it would sequentially.
pub(crate) fn join<A, B: Send>(here: impl FnOnce() -> A, there: impl FnOnce() -> B + Send) -> (A, B) {
    std::thread::scope(|s| {
        let other = s.spawn(there);
        let a = here();
        (a, other.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    })
}
