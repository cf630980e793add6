//! The server's state: one workspace per root folder, open documents' versions (and texts outside the roots), published diagnostics.
//!
//! All mutation happens synchronously under one lock, in the order the client
//! sent the notifications (see `server.rs`). Requests read a [`Snapshot`]:
//! taken under the lock in microseconds (the workspaces are shared, not
//! copied), then read without it, so a long request never holds up an edit;
//! an edit that arrives meanwhile goes on with a copy (see [`Root::ws_mut`]). Open documents override the
//! disk; closing one falls back to the disk content. Only the changed file is
//! re-read and re-parsed; diagnostics are recomputed for its root and
//! republished only for files whose diagnostics changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::ls_types::{Diagnostic, TextDocumentContentChangeEvent, Uri};

use super::convert;
pub use super::docs::Doc;
use crate::model::config::ConfigPatch;
use crate::model::{FileText, Workspace};
use crate::project::load;
use crate::rules;
use crate::text::Encoding;

/// Most diagnostics sent for one file (see [`State::changed_diagnostics`]).
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 1_000;

/// Diagnostics of one file, with the open document's version.
pub type Batch = (Uri, Vec<Diagnostic>, Option<i32>);

/// Locks, recovering from a panic in an earlier holder.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One workspace folder.
#[derive(Debug)]
pub struct Root {
    /// The folder as the client named it.
    pub path: PathBuf,
    /// The same, with links resolved (containment checks use this).
    pub canon: PathBuf,
    /// Shared with the snapshots requests read.
    pub ws: Arc<Workspace>,
    /// Diagnostics last sent (or reported) per relative path.
    pub published: HashMap<String, Vec<Diagnostic>>,
    /// Changed since its diagnostics were last computed.
    pub dirty: bool,
}

impl Root {
    /// The workspace, to change: copied first when a request still reads it
    /// (the copy shares everything derived so far, see `model::cache`).
    pub fn ws_mut(&mut self) -> &mut Workspace {
        Arc::make_mut(&mut self.ws)
    }
}

/// What a request reads: the roots' workspaces and the open documents'
/// versions as they were when it started.
#[derive(Debug)]
pub struct Snapshot {
    pub enc: Encoding,
    pub roots: Vec<RootView>,
    /// Open documents' versions (for versioned edits).
    pub versions: HashMap<Uri, i32>,
}

/// One root of a [`Snapshot`].
#[derive(Clone, Debug)]
pub struct RootView {
    pub path: PathBuf,
    pub canon: PathBuf,
    pub ws: Arc<Workspace>,
}

impl Snapshot {
    /// The root containing `uri` (the deepest one) and the path relative to it.
    pub fn locate_uri(&self, uri: &Uri) -> Option<(usize, String)> {
        locate(self.roots.iter().map(|r| (r.path.as_path(), r.canon.as_path())), &convert::path_of(uri)?)
    }
}

/// The deepest of `roots` (path as named, path with links resolved)
/// containing `path`, and the `/`-separated path relative to it.
///
/// No file system call on the way of a keystroke: a document under a root's
/// path as named is found by comparing paths; only a path under no root as
/// named (a link into a root) is resolved, once ([`canonical`]).
fn locate<'a>(roots: impl Iterator<Item = (&'a Path, &'a Path)> + Clone, path: &Path) -> Option<(usize, String)> {
    let lexical = locate_by(roots.clone().map(|(root, _)| root), path);
    if lexical.is_some() {
        return lexical;
    }
    let canon = canonical(path)?;
    locate_by(roots.map(|(_, root_canon)| root_canon), &canon)
}

/// How many times a path was resolved on the file system (tests: none per keystroke).
pub static RESOLVED_PATHS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// `path` with links resolved, remembered: a document's path is resolved
/// when it is first seen, never again (at most 4,096 remembered; then
/// forgotten all at once and resolved again as met).
fn canonical(path: &Path) -> Option<PathBuf> {
    static SEEN: std::sync::OnceLock<Mutex<HashMap<PathBuf, Option<PathBuf>>>> = std::sync::OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(found) = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(path) {
        return found.clone();
    }
    RESOLVED_PATHS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let found = std::fs::canonicalize(path).ok();
    let mut map = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if map.len() >= 4096 {
        map.clear();
    }
    map.insert(path.to_path_buf(), found.clone());
    found
}

fn locate_by<'a>(roots: impl Iterator<Item = &'a Path>, path: &Path) -> Option<(usize, String)> {
    let mut best: Option<(usize, usize, String)> = None;
    for (i, root) in roots.enumerate() {
        let Ok(rel) = path.strip_prefix(root) else { continue };
        let rel = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        let depth = root.components().count();
        if best.as_ref().is_none_or(|b| depth > b.1) {
            best = Some((i, depth, rel));
        }
    }
    best.map(|(i, _, rel)| (i, rel))
}

/// Everything the server knows.
#[derive(Debug, Default)]
pub struct State {
    pub enc: Encoding,
    pub roots: Vec<Root>,
    pub docs: HashMap<Uri, Doc>,
    /// The client's settings (initializationOptions / workspace/configuration).
    pub client_config: Option<ConfigPatch>,
    /// Diagnostics computed but not sent yet: the cleared files of removed
    /// roots, and changes a pull request found (which the publisher still
    /// owes a client that pulls per document only).
    pub pending: Vec<(Uri, Vec<Diagnostic>)>,
    /// The client pulled workspace diagnostics: it gets every file by pulling,
    /// so nothing is pushed to it.
    pub workspace_pull: bool,
}

impl State {
    /// The root containing `path` (the deepest one) and the path relative to it.
    pub fn locate(&self, path: &Path) -> Option<(usize, String)> {
        locate(self.roots.iter().map(|r| (r.path.as_path(), r.canon.as_path())), path)
    }

    /// What a request reads (see [`Snapshot`]).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            enc: self.enc,
            roots: self
                .roots
                .iter()
                .map(|r| RootView { path: r.path.clone(), canon: r.canon.clone(), ws: r.ws.clone() })
                .collect(),
            versions: self.docs.iter().map(|(u, d)| (u.clone(), d.version)).collect(),
        }
    }

    pub fn locate_uri(&self, uri: &Uri) -> Option<(usize, String)> {
        self.locate(&convert::path_of(uri)?)
    }

    /// Adds (or reloads) a root folder from disk, then re-applies open documents.
    pub fn load_root(&mut self, path: PathBuf) -> Result<usize, String> {
        let mut ws = load::load_with_base(&path, None, self.client_config.as_ref()).map_err(|e| e.to_string())?;
        // Skills, CLAUDE.md and notes: their `/when` invocations count for references and rename.
        for (rel, text) in load::other_markdown(&path, &ws) {
            ws.set_file(&rel, text);
        }
        // What a decision's scope is checked against (`unmatched-scope`, hover).
        crate::project::files::list_for_scopes(&mut ws, &path);
        // Where each open document's text is now (a root's workspace, the
        // one replaced here perhaps, or its own): read once the new root's
        // documents are known, so no other document is copied.
        let holders: Vec<(Uri, Option<(usize, String)>)> =
            self.docs.keys().map(|u| (u.clone(), self.locate_uri(u))).collect();
        let canon = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        let (i, replaced) = match self.roots.iter().position(|r| r.path == path) {
            Some(i) => {
                self.roots[i].dirty = true;
                (i, Some(std::mem::replace(&mut self.roots[i].ws, Arc::new(ws))))
            }
            None => {
                self.roots.push(Root { path, canon, ws: Arc::new(ws), published: HashMap::new(), dirty: true });
                (self.roots.len() - 1, None)
            }
        };
        for (uri, holder) in holders {
            let Some((_, rel)) = self.locate_uri(&uri).filter(|(r, _)| *r == i) else { continue };
            let text = match (self.docs.get(&uri).and_then(|d| d.own.as_ref()), holder) {
                (Some(own), _) => Some(own.to_string()),
                (None, Some((h, held_as))) => {
                    let ws = if h == i { replaced.as_ref() } else { self.roots.get(h).map(|r| &r.ws) };
                    ws.and_then(|ws| Some(ws.file(ws.file_id(&held_as)?)?.text.clone()))
                }
                (None, None) => None,
            };
            let Some(text) = text else { continue };
            self.roots[i].ws_mut().set_file(&rel, FileText::from(text));
            if let Some(d) = self.docs.get_mut(&uri) {
                d.own = None;
            }
        }
        Ok(i)
    }

    /// The text of open document `uri`: its own, or the engine's copy.
    pub fn open_text(&self, uri: &Uri) -> Option<String> {
        if let Some(own) = &self.docs.get(uri)?.own {
            return Some(own.to_string());
        }
        let (i, rel) = self.locate_uri(uri)?;
        let ws = &self.roots[i].ws;
        Some(ws.file(ws.file_id(&rel)?)?.text.clone())
    }

    /// Applies an open document's content changes, in order: to the engine's
    /// copy in place (positions converted with its line index), or to the
    /// document's own text outside every root.
    pub fn apply_changes(&mut self, uri: &Uri, changes: Vec<TextDocumentContentChangeEvent>) {
        let enc = self.enc;
        let located = self.locate_uri(uri);
        let Some(doc) = self.docs.get_mut(uri) else { return };
        if let Some(own) = &mut doc.own {
            for change in changes {
                super::docs::apply_change(own, change, enc);
            }
            // Inside a root after all (its root came or went): the engine takes it over.
            if let Some((i, rel)) = located {
                let text = own.to_string();
                doc.own = None;
                self.roots[i].ws_mut().set_file(&rel, FileText::from(text));
            }
            return;
        }
        let Some((i, rel)) = located else { return };
        super::docs::apply_to_engine(self.roots[i].ws_mut(), &rel, changes, enc);
    }

    /// Removes a root; its diagnostics are cleared by the next [`State::take_changed`].
    /// Its open documents keep their texts as their own.
    pub fn remove_root(&mut self, path: &Path) {
        let Some(i) = self.roots.iter().position(|r| r.path == path) else { return };
        let held: Vec<(Uri, String)> = self
            .docs
            .iter()
            .filter(|(u, d)| d.own.is_none() && self.locate_uri(u).is_some_and(|(r, _)| r == i))
            .filter_map(|(u, _)| Some((u.clone(), self.open_text(u)?)))
            .collect();
        for (uri, text) in held {
            if let Some(d) = self.docs.get_mut(&uri) {
                d.own = Some(Rope::from_str(&text));
            }
        }
        let root = self.roots.remove(i);
        self.pending
            .extend(root.published.keys().filter_map(|rel| Some((convert::uri_of(&root.path, rel)?, Vec::new()))));
    }

    /// Re-reads changed files of the roots from disk and marks their roots dirty.
    pub fn disk_changes(&mut self, paths: &[PathBuf]) {
        let mut touched = Vec::new();
        for p in paths {
            let Some((i, rel)) = self.locate(p) else { continue };
            if rel == self.roots[i].ws.config_path() {
                let root = self.roots[i].path.clone();
                if let Err(e) = self.load_root(root) {
                    tracing::warn!("reloading root after a config change failed: {e}");
                }
            } else {
                self.refresh_from_disk(i, &rel);
            }
            if !touched.contains(&i) {
                touched.push(i);
            }
        }
        for i in touched {
            self.mark_dirty(i);
        }
    }

    /// Marks root `i` as changed: its diagnostics are recomputed by the publisher.
    pub fn mark_dirty(&mut self, i: usize) {
        if let Some(r) = self.roots.get_mut(i) {
            r.dirty = true;
        }
    }

    /// What to publish now: cleared roots, then the changed diagnostics of every
    /// dirty root, each with its open document's version.
    pub fn take_changed(&mut self) -> Vec<Batch> {
        let mut out: Vec<(Uri, Vec<Diagnostic>)> = std::mem::take(&mut self.pending);
        for i in 0..self.roots.len() {
            // A full check is left for the publisher to run off the lock ([`State::full_checks`]).
            if self.roots[i].dirty && rules::findings_cheap(&self.roots[i].ws) {
                self.roots[i].dirty = false;
                match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.changed_diagnostics(i))) {
                    Ok(batches) => out.extend(batches),
                    Err(_) => tracing::error!("internal error while checking {}", self.roots[i].path.display()),
                }
            }
        }
        out.into_iter()
            .map(|(uri, diags)| {
                let version = self.docs.get(&uri).map(|d| d.version);
                (uri, diags, version)
            })
            .collect()
    }

    /// The dirty roots' workspaces whose check is a full one (see
    /// [`rules::findings_cheap`]): shared, not copied, for the publisher to
    /// check off the lock. An edit meanwhile goes on with a copy and leaves
    /// its root dirty, so what was checked is only published if still current.
    pub fn full_checks(&self) -> Vec<Arc<Workspace>> {
        self.roots.iter().filter(|r| r.dirty && !rules::findings_cheap(&r.ws)).map(|r| r.ws.clone()).collect()
    }

    /// Re-reads `rel` of root `i` from disk (unless it is open): changed, created or deleted.
    pub fn refresh_from_disk(&mut self, i: usize, rel: &str) {
        let root = &mut self.roots[i];
        if let Some(uri) = convert::uri_of(&root.path, rel) {
            if self.docs.contains_key(&uri) {
                return;
            }
        }
        match load::read_inside(&root.canon, &root.path.join(rel), root.ws.config().max_file_bytes) {
            Some(text) => {
                root.ws_mut().set_file(rel, text);
            }
            None => {
                root.ws_mut().remove_file(rel);
            }
        }
    }

    /// Diagnostics of root `i` that differ from what was last published.
    pub fn changed_diagnostics(&mut self, i: usize) -> Vec<(Uri, Vec<Diagnostic>)> {
        let enc = self.enc;
        let root = &mut self.roots[i];
        let t0 = std::time::Instant::now();
        let findings = rules::findings(&root.ws);
        let t1 = std::time::Instant::now();
        let mut now: HashMap<String, Vec<Diagnostic>> = HashMap::new();
        for (_, f) in root.ws.files() {
            if f.index().is_some() || f.decision().is_some() || f.path == root.ws.config_path() {
                now.insert(f.path.clone(), Vec::new());
            }
        }
        // The first MAX_DIAGNOSTICS_PER_FILE of a file are sent, then one line
        // saying how many more there are: an index of 300,000 broken lines
        // costs the editor (and this server) a bounded set, not a copy per line.
        let mut shown: HashMap<crate::model::FileId, usize> = HashMap::new();
        for f in findings.iter() {
            let Some(file) = root.ws.file(f.file) else { continue };
            let n = shown.entry(f.file).or_default();
            *n += 1;
            if *n > MAX_DIAGNOSTICS_PER_FILE {
                continue;
            }
            if let Some(d) = convert::diagnostic(&root.ws, &root.path, f, enc) {
                now.entry(file.path.clone()).or_default().push(d);
            }
        }
        for (id, n) in shown.into_iter().filter(|(_, n)| *n > MAX_DIAGNOSTICS_PER_FILE) {
            let Some(file) = root.ws.file(id) else { continue };
            now.entry(file.path.clone()).or_default().push(Diagnostic {
                severity: Some(tower_lsp_server::ls_types::DiagnosticSeverity::INFORMATION),
                source: Some("memory-index".into()),
                message: format!(
                    "{} more findings in this file are not shown here (an editor gets the first {MAX_DIAGNOSTICS_PER_FILE}); \
                     run `memory-index-lsp check` to list them all",
                    n - MAX_DIAGNOSTICS_PER_FILE
                ),
                ..Default::default()
            });
        }
        let mut out = Vec::new();
        for (rel, diags) in &now {
            if root.published.get(rel) != Some(diags) {
                if let Some(uri) = convert::uri_of(&root.path, rel) {
                    out.push((uri, diags.clone()));
                }
            }
        }
        for rel in root.published.keys() {
            if !now.contains_key(rel) {
                if let Some(uri) = convert::uri_of(&root.path, rel) {
                    out.push((uri, Vec::new()));
                }
            }
        }
        root.published = now;
        tracing::debug!(
            "check {:.2} ms, convert {:.2} ms, {} findings, {} files to publish",
            (t1 - t0).as_secs_f64() * 1e3,
            t1.elapsed().as_secs_f64() * 1e3,
            findings.len(),
            out.len()
        );
        out
    }

    /// Current diagnostics of one file (for pull requests), recomputing its
    /// root; what changed in its other files stays pending for the publisher.
    pub fn diagnostics_for(&mut self, i: usize, rel: &str) -> Vec<Diagnostic> {
        let changed = self.changed_diagnostics(i);
        self.pending.extend(changed);
        self.roots[i].published.get(rel).cloned().unwrap_or_default()
    }

    /// Forgets what was last computed for `rel` of root `i`, so the next
    /// check sends it again (a document just closed: a per-document puller
    /// no longer asks for it, so it is pushed).
    pub fn forget_published(&mut self, i: usize, rel: &str) {
        if let Some(r) = self.roots.get_mut(i) {
            r.published.remove(rel);
            r.dirty = true;
        }
    }
}

#[cfg(test)]
mod tests;
