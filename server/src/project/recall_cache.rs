//! The recall view kept between hook processes (`recall::view`): written after a prompt hook that loaded the memory, with the identity of every file the memory was loaded from, and read by the next prompt hook only while every one is unchanged, so that hook neither reads nor parses the memory.
//!
//! One file per project root beside the search snapshot
//! (`<state dir>/search/<hash of the root>.view`): the identities, then the
//! view. An identity is, for a path relative to the root (the configuration
//! file, the index, the decisions folder and each decision file) and for
//! this program's own file (another build may rank differently): its
//! device, inode, kind, size, and modification and change times to the
//! nanosecond, or that it is absent. A file written, added, removed or
//! renamed changes one of them (a folder's times change when a name in it
//! does). A file changed after the load began, or within [`RACY`] before it,
//! is not trusted (what was loaded may not be what its identity now stands
//! for, and a later write in the same clock tick could leave its times as
//! they were: git's "racy" rule, applied to the change time, which no tool
//! can set back): no view is written then, and a later hook writes it. Only
//! plain files and folders are stamped: a memory with a link among its
//! files gets no view (a link's own times say nothing of its target), nor
//! one with a file not read whole, nor one with the semantic tier on. The
//! program's own file is stamped last, and a view is read only by the
//! program whose file that is (another build ranks its own way). A section is
//! still checked against its hash when it is injected
//! (`recall::view::View`). Unix only; elsewhere every hook loads the
//! memory. Nothing here can fail a hook: a view that cannot be read or
//! written costs only the load.

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::search_cache::{cache_path, map};
use super::session::write_cache_file;
use crate::model::Workspace;
use crate::recall::view::{self as recall_view, View};
use crate::search::bm25::Bm25;

/// Files changed more recently than this before the stamping are not trusted.
pub const RACY: Duration = Duration::from_secs(2);

const MAGIC: &[u8; 8] = b"MISTAMP1";
/// An identity: device, inode, kind (0 absent, 1 file, 2 folder), size, modification and change times (seconds, nanoseconds).
type Identity = [u64; 8];

/// The identity of `path` now (all zero when absent); None for anything but a plain file or folder.
#[cfg(unix)]
fn identity(path: &Path) -> Option<Identity> {
    use std::os::unix::fs::MetadataExt;
    let m = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some([0; 8]),
        Err(_) => return None,
    };
    let kind = if m.file_type().is_file() {
        1
    } else if m.file_type().is_dir() {
        2
    } else {
        return None;
    };
    let t = |s: i64, ns: i64| (s as u64, ns as u64);
    let ((ms, mns), (cs, cns)) = (t(m.mtime(), m.mtime_nsec()), t(m.ctime(), m.ctime_nsec()));
    Some([m.dev(), m.ino(), kind, m.size(), ms, mns, cs, cns])
}

#[cfg(not(unix))]
fn identity(_: &Path) -> Option<Identity> {
    None
}

/// The view of the memory at `root` when every file it was built from is
/// as it was, with the BM25 snapshot of the same state; None otherwise.
/// Sections are read through the guarded reader when injected.
pub fn open(root: &Path) -> Option<(View, Bm25)> {
    let view = open_view(root)?;
    let bm = super::search_cache::snapshot_of(root, view.bm25_key, view.entries())?;
    Some((view, bm))
}

/// The view of the memory at `root` alone (its settings say whether a file
/// event may recall anything), when it is of the files as they are.
pub fn open_view(root: &Path) -> Option<View> {
    let bytes = map(&cache_path(root, "view")?)?;
    let at = stamps_hold(root, (*bytes).as_ref())?;
    let canon = std::fs::canonicalize(root).ok()?;
    let read: recall_view::Reader = Box::new(move |rel: &str, limit: u64| {
        super::read::read_inside(&canon, &canon.join(rel), limit).filter(|t| t.problem.is_none()).map(|t| t.text)
    });
    let names = cache_path(root, "names")?;
    Some(View::open(bytes, at, read)?.with_letters(Box::new(move || map(&names))))
}

/// Where the view starts in `bytes` when every identity they list is the
/// file's identity now; None when one differs or the list is not whole.
fn stamps_hold(root: &Path, bytes: &[u8]) -> Option<usize> {
    let me = this_program()?;
    let u32_at = |at: usize| bytes.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]));
    if bytes.get(..8)? != MAGIC {
        return None;
    }
    let count = u32_at(8)? as usize;
    let mut at = 12;
    for i in 0..count {
        let len = u32_at(at)? as usize;
        let rel = std::str::from_utf8(bytes.get(at + 4..(at + 4).checked_add(len)?)?).ok()?;
        at += 4 + len;
        let mut kept: Identity = [0; 8];
        for (i, v) in kept.iter_mut().enumerate() {
            *v = u64::from_le_bytes(bytes.get(at + 8 * i..at + 8 * i + 8)?.try_into().ok()?);
        }
        at += 64;
        // The last is the program that wrote it, which must be this one.
        if (i + 1 == count && (rel != me || kept[2] != 1)) || identity(&root.join(rel))? != kept {
            return None;
        }
    }
    Some(at)
}

/// The paths `ws` (the memory at `root`, loaded from `loaded_at` on) was
/// loaded from, relative to the root, and this program's, with their
/// identities now; None when one is not a plain file or folder, when the
/// decisions folder holds a Markdown file the workspace does not (or the
/// reverse), or when one changed after `loaded_at` less [`RACY`] (what the
/// workspace holds may then not be what the identity stands for).
fn stamps(ws: &Workspace, root: &Path, loaded_at: SystemTime) -> Option<Vec<(String, Identity)>> {
    let cfg = ws.config();
    let mut paths = vec![ws.config_path().to_string(), cfg.index.clone(), cfg.decisions.clone()];
    let mut listed: Vec<String> = std::fs::read_dir(root.join(&cfg.decisions))
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".md"))
        .map(|n| ws.decision_path(&n))
        .collect();
    listed.sort();
    let mut loaded: Vec<String> = ws.decisions().map(|(_, f, _)| f.path.clone()).collect();
    loaded.sort();
    if listed != loaded || cfg.decisions.is_empty() {
        return None;
    }
    paths.extend(listed);
    // This very program, last: another build may rank or show differently.
    paths.push(this_program()?);
    let loaded = loaded_at.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    // Changed after the load began, or too shortly before it to be told apart.
    let recent = |s: u64, ns: u64| loaded.saturating_sub(Duration::new(s, ns as u32)) < RACY;
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        let id = identity(&root.join(&p))?;
        if id[2] != 0 && (recent(id[4], id[5]) || recent(id[6], id[7])) {
            return None;
        }
        out.push((p, id));
    }
    // The index must be there (a view answers from it), and this program a file.
    (out[1].1[2] == 1 && out.last().is_some_and(|l| l.1[2] == 1)).then_some(out)
}

/// Writes the view of `ws` (the memory at `root`, loaded from `loaded_at`
/// on) with its files' identities, when they can be trusted (see the module
/// docs); best effort, like the snapshot. `bm25_key` names the snapshot of
/// the same state; with `letters`, the view's letters file too (a short
/// prompt's letters-in-order tier: `recall::view::letters`).
pub fn keep(ws: &Workspace, root: &Path, bm25_key: u64, loaded_at: SystemTime, letters: bool) {
    // A view cannot show a section of a file not read whole. (With the semantic tier on, the
    // view still answers commands and files; prompts load the memory: `project::recall::fast`.)
    if ws.files().any(|(_, f)| f.problem.is_some()) {
        return;
    }
    let Some(path) = cache_path(root, "view") else { return };
    let Some(stamps) = stamps(ws, root, loaded_at) else { return };
    let Some(view) = recall_view::encode(ws, bm25_key) else { return };
    // With `letters`, the letters file first: a view never meets letters
    // older than itself (they name the view they were written with; a short
    // prompt meeting none, or another view's, reads the files and keeps both).
    if letters {
        let (Some(path), Some(bytes)) = (cache_path(root, "names"), recall_view::encode_letters(ws, &view)) else {
            return;
        };
        write_cache_file(&path, &bytes);
    }
    let mut out = Vec::with_capacity(view.len() + stamps.len() * 100);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(stamps.len() as u32).to_le_bytes());
    for (p, id) in &stamps {
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(p.as_bytes());
        for v in id {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out.extend_from_slice(&view);
    write_cache_file(&path, &out);
}

/// This program's file, links resolved (an install by link stamps its target).
fn this_program() -> Option<String> {
    Some(std::fs::canonicalize(std::env::current_exe().ok()?).ok()?.to_str()?.to_string())
}
