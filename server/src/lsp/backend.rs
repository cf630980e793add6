//! The server object the handlers share: the client, the state behind its lock, and the helpers every handler uses.
//!
//! `server.rs` wires the protocol's methods to `handlers/` (convert →
//! engine → convert); capabilities are negotiated in `capabilities.rs`.
//! Ordering: tower-lsp-server runs up to four messages concurrently, so every
//! notification that changes state does its whole mutation synchronously,
//! before its first `.await` (verified to keep order in
//! ../shared/design/toolchain-notes.md §1), then marks its root dirty and
//! wakes the publisher (`publish.rs`), the one place that checks and sends
//! diagnostics. Stale `didChange` versions are ignored. Engine calls run under `catch_unwind`: a
//! panic becomes an error response (or a log line for a notification), and a
//! poisoned lock is recovered, so the server never dies from one bad request.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::Client;

use super::capabilities::ClientCaps;
use super::convert;
pub(super) use super::state::{lock, RootView, Snapshot, State};
use crate::ide::fix_all;
use crate::model::config::ConfigPatch;

/// The server: the client handle and the shared state.
#[derive(Debug)]
pub struct Backend {
    pub client: Client,
    pub state: Arc<Mutex<State>>,
    pub caps: Arc<Mutex<ClientCaps>>,
    pub(super) pending_roots: Mutex<Vec<PathBuf>>,
    /// Warnings found before the client could be shown them (`initialize`'s settings), shown on `initialized`.
    pub(super) pending_warnings: Mutex<Vec<String>>,
    /// Each workspace folder and the roots it gave ([`Backend::add_folders`]).
    pub(super) folder_roots: Mutex<Vec<(PathBuf, Vec<PathBuf>)>>,
    /// Wakes the publisher (started on `initialize`).
    pub(super) wake: Arc<Notify>,
    /// Held by the publisher while it pushes to a pulling client: a
    /// `workspace/diagnostic` answer waits for it, so no push it did not
    /// want leaves after it (see `publish.rs`).
    pub(super) pushing: Arc<tokio::sync::Mutex<()>>,
    pub(super) publisher: std::sync::Once,
}

impl Backend {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            state: Arc::default(),
            caps: Arc::default(),
            pending_roots: Mutex::default(),
            pending_warnings: Mutex::default(),
            folder_roots: Mutex::default(),
            wake: Arc::default(),
            pushing: Arc::default(),
            publisher: std::sync::Once::new(),
        }
    }
}

/// Runs engine work; a panic becomes an internal error.
pub(super) fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        tracing::error!("internal error in {what}");
        Error {
            code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
            message: format!("internal error in {what}").into(),
            data: None,
        }
    })
}

/// Runs a long request's engine work on the blocking pool, on a snapshot
/// of the state (edits go on meanwhile). The handler waits without holding a runtime thread, so a
/// `$/cancelRequest` for it is answered `RequestCancelled` at once:
/// tower-lsp-server drops the waiting handler. The work itself runs to its end
/// and its result is discarded (the engine has no preemption points; what it
/// computed stays cached for the next request). Used by fix-all, workspace
/// diagnostics and workspace symbols, the requests that can take long on a
/// large workspace.
pub(super) async fn off_thread<T: Send + 'static>(
    snapshot: Snapshot,
    what: &'static str,
    f: impl FnOnce(&Snapshot) -> Result<T> + Send + 'static,
) -> Result<T> {
    match tokio::task::spawn_blocking(move || guarded(what, || f(&snapshot))).await {
        Ok(result) => result?,
        // Panics are caught inside; this is the runtime shutting down.
        Err(_) => Err(Error::internal_error()),
    }
}

/// Runs the full checks `full` (see `State::full_checks`) on the blocking
/// pool, off the state's lock, so edits and requests go on meanwhile; what
/// they find stays cached in each workspace. A panic is logged (its root
/// stays dirty). False when the runtime is shutting down.
pub(super) async fn check_off_lock(full: Vec<std::sync::Arc<crate::model::Workspace>>) -> bool {
    if full.is_empty() {
        return true;
    }
    let checked = tokio::task::spawn_blocking(move || {
        for ws in &full {
            let _ = guarded("check", || crate::rules::findings(ws));
        }
    });
    checked.await.is_ok()
}

/// The root holding a document and its file id.
pub(super) fn doc_in_root<'a>(st: &'a Snapshot, uri: &Uri) -> Option<(&'a RootView, crate::model::FileId)> {
    let (i, rel) = st.locate_uri(uri)?;
    let root = &st.roots[i];
    Some((root, root.ws.file_id(&rel)?))
}

/// The root, file and byte offset of a client position.
pub(super) fn at_position(st: &Snapshot, uri: &Uri, pos: Position) -> Option<(usize, crate::model::FileId, usize)> {
    let (i, rel) = st.locate_uri(uri)?;
    let ws = &st.roots[i].ws;
    let file = ws.file_id(&rel)?;
    Some((i, file, convert::offset(ws.file(file)?, pos, st.enc)))
}

/// The client's `memoryIndex` settings, or why they are ignored: a wrong
/// type, or a key that is neither fixed nor an option a rule declares (as
/// `memory-index.toml` is checked, so a typo is said, not silently dropped).
/// An unknown key is left out and named, the others apply (found by review: a typo in one key
/// dropped every setting, as the README's "every other key applies" says it does not); a value
/// of the wrong type still sets nothing, since serde cannot tell which key it spoiled.
pub(super) fn client_patch(v: &Value) -> std::result::Result<(ConfigPatch, Option<String>), String> {
    let v = v.get("memoryIndex").unwrap_or(v);
    let mut patch =
        serde_json::from_value::<ConfigPatch>(v.clone()).map_err(|e| format!("memory-index settings ignored: {e}"))?;
    let known = crate::rules::known();
    let unknown: Vec<String> =
        patch.options.keys().filter(|k| !known.options.iter().any(|o| o.0 == k.as_str())).cloned().collect();
    for k in &unknown {
        patch.options.remove(k);
    }
    let warning = (!unknown.is_empty()).then(|| {
        let keys: Vec<String> = unknown.iter().map(|k| format!("`{k}`")).collect();
        format!("memory-index settings: unknown key {} ignored; the others apply", keys.join(", "))
    });
    Ok((patch, warning))
}

impl Backend {
    /// What a request reads: the state as it is now, read without the lock.
    pub(super) fn snapshot(&self) -> Snapshot {
        lock(&self.state).snapshot()
    }

    pub(super) fn caps(&self) -> ClientCaps {
        lock(&self.caps).clone()
    }

    /// Asks the client for `memoryIndex` settings (when it supports it).
    pub(super) async fn pull_config(&self) {
        if !self.caps().configuration {
            return;
        }
        let item = ConfigurationItem { scope_uri: None, section: Some("memoryIndex".into()) };
        if let Ok(values) = self.client.configuration(vec![item]).await {
            if let Some(v) = values.into_iter().next().filter(|v| !v.is_null()) {
                match client_patch(&v) {
                    Ok((p, warning)) => {
                        lock(&self.state).client_config = Some(p);
                        if let Some(w) = warning {
                            self.client.show_message(MessageType::WARNING, w).await;
                        }
                    }
                    Err(e) => self.client.show_message(MessageType::WARNING, e).await,
                }
            }
        }
    }

    /// (Re)loads every root and publishes everything that changed.
    pub(super) async fn reload_all(&self, extra: Vec<PathBuf>) {
        let caps = self.caps();
        let token = NumberOrString::String("memory-index/load".into());
        let progress = if caps.progress && self.client.create_work_done_progress(token.clone()).await.is_ok() {
            Some(self.client.progress(token, "Memory index").with_message("Loading workspace").begin().await)
        } else {
            None
        };
        let errors = {
            let mut st = lock(&self.state);
            let mut roots: Vec<PathBuf> = st.roots.iter().map(|r| r.path.clone()).collect();
            for p in extra {
                if !roots.contains(&p) {
                    roots.push(p);
                }
            }
            let mut errors = Vec::new();
            for r in roots {
                match guarded("load", || st.load_root(r.clone())) {
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => errors.push(e),
                    Err(e) => errors.push(e.message.to_string()),
                }
            }
            errors
        };
        self.wake.notify_one();
        for e in errors {
            self.client.show_message(MessageType::ERROR, format!("memory-index: {e}")).await;
        }
        if let Some(p) = progress {
            p.finish().await;
        }
    }

    /// Re-reads files the client says were created, renamed or deleted.
    pub(super) async fn files_changed(&self, paths: Vec<PathBuf>) {
        {
            let mut st = lock(&self.state);
            let _ = guarded("fileOperations", || st.disk_changes(&paths));
        }
        self.wake.notify_one();
    }

    /// The root and path of `uri`: the root that holds it when that root has a memory;
    /// else the project at or above the file, loaded as a root of its own (a lone
    /// file, a memory deeper than the workspace folders were searched, or one
    /// outside them); else the root that holds it, memory or not.
    pub(super) fn locate_or_adopt(st: &mut State, uri: &Uri) -> Option<(usize, String)> {
        let found = st.locate_uri(uri);
        if found.as_ref().is_some_and(|(i, _)| st.roots[*i].ws.index().is_some()) {
            return found;
        }
        let Some(root) = convert::path_of(uri).and_then(|p| crate::project::find_root(p.parent()?)) else {
            return found;
        };
        // Not a dependency's own memory (`node_modules/dep/agents/…` of the project above it), as
        // the folders' search skips them; only the path below that project counts (found by
        // review: a project checked out under a `vendor` folder was never adopted).
        let above = root.parent().and_then(crate::project::find_root);
        if above.is_some_and(|a| root.strip_prefix(&a).is_ok_and(crate::project::root::in_skipped)) {
            return found;
        }
        if st.roots.iter().any(|r| r.path == root || r.canon == root) {
            return found;
        }
        match st.load_root(root) {
            Ok(_) => st.locate_uri(uri),
            Err(_) => found,
        }
    }

    pub(super) fn fix_all_edit(st: &Snapshot, i: usize) -> Option<WorkspaceEdit> {
        let root = &st.roots[i];
        let mut ws = (*root.ws).clone();
        let result = fix_all::fix_all(&mut ws);
        if result.change.is_empty() {
            return None;
        }
        // The same change `fix` writes, made from the root's texts.
        Some(convert::workspace_edit(&root.ws, &root.path, &result.change, st.enc))
    }
}

impl Backend {
    /// The roots of workspace folders added: the memories each holds (see
    /// [`crate::project::root::memory_roots`]), each once, remembered per folder.
    pub(super) fn add_folders(&self, folders: &[PathBuf]) -> Vec<PathBuf> {
        let mut map = lock(&self.folder_roots);
        let mut out: Vec<PathBuf> = Vec::new();
        for f in folders {
            let roots = crate::project::root::memory_roots(f);
            out.extend(roots.iter().filter(|r| !out.contains(r)).cloned().collect::<Vec<_>>());
            map.retain(|(g, _)| g != f);
            map.push((f.clone(), roots));
        }
        out
    }

    /// The roots to drop when workspace folders are removed: those they gave that no
    /// remaining folder gave too (found by review: removing one of two folders of one
    /// project dropped it); a folder never added (named otherwise, say) stands for itself and
    /// the memories it holds now.
    pub(super) fn remove_folders(&self, folders: &[PathBuf]) -> Vec<PathBuf> {
        let mut map = lock(&self.folder_roots);
        let mut gone: Vec<PathBuf> = Vec::new();
        for f in folders {
            match map.iter().find(|(g, _)| g == f) {
                Some((_, roots)) => gone.extend(roots.iter().cloned()),
                None => {
                    gone.extend(crate::project::root::memory_roots(f));
                    gone.push(f.clone());
                }
            }
        }
        map.retain(|(g, _)| !folders.contains(g));
        gone.retain(|r| !map.iter().any(|(_, roots)| roots.contains(r)));
        gone
    }
}

#[cfg(test)]
mod tests {
    use super::client_patch;

    #[test]
    fn client_settings_are_checked_like_the_file() {
        let ok = client_patch(&serde_json::json!({"memoryIndex": {"maxLines": 10, "tokenBudget": 6000}}));
        let (patch, warning) = ok.expect("known keys");
        assert_eq!(patch.options.get("max-lines"), Some(&Some(10)));
        assert_eq!(patch.options.get("token-budget"), Some(&Some(6000)));
        assert_eq!(warning, None);
        // A typo is named and left out; the other keys apply.
        let (patch, warning) = client_patch(&serde_json::json!({"tokenBudgit": 6000, "maxLines": 5})).expect("applies");
        assert_eq!(
            warning.as_deref(),
            Some("memory-index settings: unknown key `token-budgit` ignored; the others apply")
        );
        assert_eq!((patch.options.get("max-lines"), patch.options.get("token-budgit")), (Some(&Some(5)), None));
        assert!(client_patch(&serde_json::json!({"index": 3})).is_err(), "a wrong type");
    }
}
