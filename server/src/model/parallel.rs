//! When engine work goes to a second thread: every threshold in one place, and [`join`].
//!
//! Spawning a scoped thread costs about 30 µs here, and the new thread may
//! wait up to 250 µs more for the virtual machine to wake an idle core (the
//! first runs of a bench; less once the host keeps the core polling). Each
//! threshold is where the half of the work moved to the second thread costs
//! clearly more than that on a 2-core machine (measured with the `engine`,
//! `scale` and `lsp` benches).
//! A workspace limited to one thread ([`super::Workspace::set_threads`])
//! never spawns, and results never depend on the split (property-tested).

use super::Workspace;

/// Work the engine can split in two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// Parsing the files a workspace is loaded with, per byte of them all.
    Parse,
    /// Binding the index's entries (normalizing and looking up each): cheap per entry.
    Bind,
    /// A full check's two lanes of index rules (and the decision-only rules).
    Check,
    /// Keeping an incremental re-check's base findings (moving their offsets), per finding.
    KeepFindings,
    /// Tokenizing sections for the BM25 index: costly per entry.
    Bm25,
    /// Counting the index's tokens beside a full check's rules, per index byte.
    Tokens,
}

impl Work {
    /// From this many items on, the work is split.
    pub(crate) const fn threshold(self) -> usize {
        match self {
            // About 0.8 ns a byte: 512 KB is some 400 µs of parsing (a
            // 400-entry workspace is 100 KB; waking a second core of a VM
            // costs up to 250 µs).
            Work::Parse => 512 * 1024,
            Work::Bind => 4_000,
            Work::Check => 2_000,
            Work::KeepFindings => 1_000,
            Work::Bm25 => 256,
            // About 5 ns a byte: 16 KB is some 80 µs of counting.
            Work::Tokens => 16 * 1024,
        }
    }

    /// Whether `items` of this work in `ws` are worth a second thread.
    pub(crate) fn split(self, ws: &Workspace, items: usize) -> bool {
        items >= self.threshold() && ws.threads() > 1
    }
}

/// `f` of every item, in the items' order, on `threads` threads that take
/// the largest items first (by `size`) from one queue: one large item (the
/// index, often the largest file by far) never leaves one thread with most
/// of the work. One thread (or one item) maps in place.
pub(crate) fn map_largest_first<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    size: impl Fn(&T) -> usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || items.len() <= 1 {
        return items.into_iter().map(f).collect();
    }
    let mut jobs: Vec<(usize, T)> = items.into_iter().enumerate().collect();
    jobs.sort_by_key(|(_, item)| std::cmp::Reverse(size(item)));
    let queue: Vec<std::sync::Mutex<Option<(usize, T)>>> =
        jobs.into_iter().map(|j| std::sync::Mutex::new(Some(j))).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(slot) = queue.get(i) else { break done };
            if let Some((order, item)) = slot.lock().unwrap_or_else(|p| p.into_inner()).take() {
                done.push((order, f(item)));
            }
        }
    };
    let mut done: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
        let mut all = work();
        // The engine never panics on input (fuzzed); if it did, the panic surfaces here as it would sequentially.
        for h in handles {
            all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        all
    });
    // In the items' order, whatever thread mapped them.
    done.sort_unstable_by_key(|d| d.0);
    done.into_iter().map(|(_, r)| r).collect()
}

/// The cores this process may use (at most 8), asked of the system once:
/// the answer reads cgroup files, about 15 µs a call.
pub(crate) fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(8))
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
