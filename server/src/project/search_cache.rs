//! The search index's snapshot on disk: read before ranking, written after a build, so `resolve`, `search` and the hook do not rebuild BM25 for a memory that has not changed.
//!
//! One file per project root, `<state dir>/search/<hash of the root>.bm25`
//! (the state directory of [`super::session::base`]), holding the index and
//! the key of the workspace state it was built from
//! ([`crate::search::snapshot`]). Every process still reads and parses the
//! memory's files (so an answer is never stale); only the index built from
//! them is reused when the key matches, memory-mapped and read in place
//! (nothing copied or rebuilt: [`crate::search::bm25::mapped`]). A snapshot that is stale, truncated,
//! corrupt, foreign, too large or not a regular file is a miss: the index is
//! built as before and the snapshot rewritten (through a temporary file and
//! a rename, so a reader never sees half a file, and two writers at once
//! leave one whole file). Nothing here can fail a command: a cache that
//! cannot be read or written costs only the build.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::read;
use super::session::{base, fnv1a, write_cache_file};
use crate::model::Workspace;
use crate::search::index::{self, Bm25Source};
use crate::search::snapshot;

/// A snapshot larger than this is not read (a 100,000-entry memory's is about 60 MB).
const MAX_BYTES: u64 = 512 * 1024 * 1024;

/// This process's use of the snapshot of one workspace state.
#[derive(Debug)]
pub struct Warm {
    path: PathBuf,
    loaded: Arc<AtomicBool>,
}

impl Warm {
    /// Whether the index came from the snapshot.
    pub fn loaded(&self) -> bool {
        self.loaded.load(Ordering::Relaxed)
    }
}

/// Lets `ws` (the memory at `root`) take its BM25 index from the snapshot,
/// when the snapshot is of this very state, the first time ranking needs
/// it (an exact trigger never reads it). None when there is no state directory.
pub fn warm(ws: &Workspace, root: &Path) -> Option<Warm> {
    let path = cache_path(root, "bm25")?;
    let loaded = Arc::new(AtomicBool::new(false));
    let (from, flag) = (path.clone(), loaded.clone());
    let source = Bm25Source(Box::new(move |ws: &Workspace| {
        let bm = snapshot::open(map(&from)?, snapshot::key(ws), ws.bindings().entries.len())?;
        flag.store(true, Ordering::Relaxed);
        Some(bm)
    }));
    index::of(ws).set_bm25_source(source);
    Some(Warm { path, loaded })
}

/// `<state dir>/search/<hash of the canonical root>.<ext>`: where the
/// memory at `root` keeps its snapshot (`bm25`), its recall view (`view`,
/// [`super::recall_cache`]) and the view's letters file (`names`).
pub(crate) fn cache_path(root: &Path, ext: &str) -> Option<PathBuf> {
    let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    Some(base()?.join("search").join(format!("{:016x}.{ext}", fnv1a(canon.to_string_lossy().as_bytes()))))
}

/// The snapshot of the memory at `root` when it is of the state with `key`
/// over `entries` entries (the recall view's state: [`super::recall_cache`]).
pub(crate) fn snapshot_of(root: &Path, key: u64, entries: usize) -> Option<crate::search::bm25::Bm25> {
    snapshot::open(map(&cache_path(root, "bm25")?)?, key, entries)
}

/// The snapshot at `path`, memory-mapped (read in place: its pages are read
/// once by the checks, nothing is copied or rebuilt). Opened as the guarded
/// reader opens a file (a FIFO, a device or a directory is refused), at
/// most [`MAX_BYTES`]. Snapshots are replaced by a rename, never written in
/// place, so the map never sees a file change under it. (Where a mapped
/// file cannot be renamed over, as on Windows, a writer's rename fails while
/// another process reads the snapshot: the write is best effort, and the
/// next process writes it.)
pub(crate) fn map(path: &Path) -> Option<crate::search::bm25::mapped::Bytes> {
    let file = read::open_regular(None, path).ok()?;
    let len = file.metadata().ok()?.len();
    if len > MAX_BYTES {
        return None;
    }
    // SAFETY: a read-only map of a regular file in this user's private state
    // directory that every writer replaces by a rename (see above).
    let map = unsafe { memmap2::MmapOptions::new().populate().map(&file) }.ok()?;
    Some(Arc::new(map))
}

/// After ranking: writes the snapshot when this process built the index
/// (best effort; see the module docs).
pub fn keep(ws: &Workspace, warm: &Warm) {
    if warm.loaded() {
        return;
    }
    let idx = index::of(ws);
    let Some(bm) = idx.bm25_if_built() else { return };
    write_cache_file(&warm.path, &snapshot::encode(bm, snapshot::key(ws)));
    if let Some(dir) = warm.path.parent() {
        sweep(dir);
    }
}

/// Removes temporary files a killed writer left (older than ten minutes).
fn sweep(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let old = |p: &Path| {
        std::fs::symlink_metadata(p)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > std::time::Duration::from_secs(600)))
    };
    for e in rd.flatten() {
        let p = e.path();
        if e.file_name().to_string_lossy().ends_with(".tmp") && old(&p) {
            let _ = std::fs::remove_file(&p);
        }
    }
}
