//! The server object: its state, the lifecycle (initialize, shutdown), and one line per method to its handler.
//!
//! Capabilities are negotiated in `capabilities.rs`; each request and
//! notification is handled in `handlers/` (convert → engine → convert).
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
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::capabilities::ClientCaps;
use super::convert;
pub(super) use super::state::{RootView, Snapshot, State};
use crate::edit::FileEdit;
use crate::ide::{fix_all, tokens};
use crate::model::config::ConfigPatch;
use crate::rules;
use crate::text::{Encoding, TextRange};

/// The command the editor extensions call for "Fix All".
pub const FIX_ALL_COMMAND: &str = "memory-index.fixAll";
/// Our fix-all code action kind.
pub const FIX_ALL_KIND: &str = "source.fixAll.memory-index";

/// The server: the client handle and the shared state.
#[derive(Debug)]
pub struct Backend {
    pub client: Client,
    pub state: Arc<Mutex<State>>,
    pub caps: Arc<Mutex<ClientCaps>>,
    pending_roots: Mutex<Vec<PathBuf>>,
    /// Wakes the publisher (started on `initialize`).
    pub(super) wake: Arc<Notify>,
    publisher: std::sync::Once,
}

impl Backend {
    pub fn new(client: Client) -> Self {
        Self {
            client,
            state: Arc::default(),
            caps: Arc::default(),
            pending_roots: Mutex::default(),
            wake: Arc::default(),
            publisher: std::sync::Once::new(),
        }
    }
}

/// Locks, recovering from a panic in an earlier holder.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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

/// Re-reads changed files of the roots from disk and marks their roots dirty.
pub fn disk_changes(state: &mut State, paths: &[PathBuf]) {
    let mut touched = Vec::new();
    for p in paths {
        let Some((i, rel)) = state.locate(p) else { continue };
        if rel == state.roots[i].ws.config_path() {
            let root = state.roots[i].path.clone();
            if let Err(e) = state.load_root(root) {
                tracing::warn!("reloading root after a config change failed: {e}");
            }
        } else {
            state.refresh_from_disk(i, &rel);
        }
        if !touched.contains(&i) {
            touched.push(i);
        }
    }
    for i in touched {
        state.mark_dirty(i);
    }
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

/// Semantic tokens of a document (optionally only those in `range`), delta-encoded.
pub(super) fn semantic_tokens(st: &Snapshot, uri: &Uri, range: Option<Range>) -> Result<Option<SemanticTokens>> {
    let Some((root, file)) = doc_in_root(st, uri) else { return Ok(None) };
    guarded("semanticTokens", || {
        let f = root.ws.file(file)?;
        let findings = rules::findings(&root.ws);
        let want = range.map(|r| convert::text_range(f, r, st.enc));
        let mut data = Vec::new();
        let (mut prev_line, mut prev_col) = (0u32, 0u32);
        for (r, kind, mods) in tokens::tokens(&root.ws, file, &findings) {
            if want.is_some_and(|w| r.end < w.start || r.start > w.end) {
                continue;
            }
            let (a, b) = (convert::position(f, r.start, st.enc), convert::position(f, r.end, st.enc));
            if a.line != b.line || b.character <= a.character {
                continue;
            }
            let delta_start = if a.line == prev_line { a.character - prev_col } else { a.character };
            data.push(SemanticToken {
                delta_line: a.line - prev_line,
                delta_start,
                length: b.character - a.character,
                token_type: kind.index(),
                token_modifiers_bitset: mods,
            });
            (prev_line, prev_col) = (a.line, a.character);
        }
        Some(SemanticTokens { result_id: None, data })
    })
}

pub(super) fn client_patch(v: &Value) -> std::result::Result<ConfigPatch, String> {
    let v = v.get("memoryIndex").unwrap_or(v);
    serde_json::from_value::<ConfigPatch>(v.clone()).map_err(|e| format!("memory-index settings ignored: {e}"))
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
                    Ok(p) => lock(&self.state).client_config = Some(p),
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
            let _ = guarded("fileOperations", || disk_changes(&mut st, &paths));
        }
        self.wake.notify_one();
    }

    /// The root and path of `uri`, finding a root for a lone file when there is none.
    pub(super) fn locate_or_adopt(st: &mut State, uri: &Uri) -> Option<(usize, String)> {
        if let Some(found) = st.locate_uri(uri) {
            return Some(found);
        }
        if !st.roots.is_empty() {
            return None;
        }
        let root = crate::load::find_root(convert::path_of(uri)?.parent()?)?;
        st.load_root(root).ok()?;
        st.locate_uri(uri)
    }

    pub(super) fn fix_all_edit(st: &Snapshot, i: usize) -> Option<WorkspaceEdit> {
        let root = &st.roots[i];
        let mut ws = (*root.ws).clone();
        let result = fix_all::fix_all(&mut ws);
        if result.changed.is_empty() {
            return None;
        }
        // Whole-file replacements of the original texts: identical to `fix`.
        let changes: Vec<FileEdit> = result
            .changed
            .iter()
            .filter_map(|(path, text)| {
                let old = root.ws.file(root.ws.file_id(path)?)?;
                Some(FileEdit {
                    path: path.clone(),
                    edits: vec![crate::edit::TextEdit::replace(TextRange::new(0, old.text.len()), text.clone())],
                })
            })
            .collect();
        Some(convert::workspace_edit(&root.ws, &root.path, &changes, st.enc))
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        self.publisher.call_once(|| {
            let (client, state, caps, wake) =
                (self.client.clone(), self.state.clone(), self.caps.clone(), self.wake.clone());
            tokio::spawn(super::publish::run(client, state, caps, wake));
        });
        let c = &params.capabilities;
        let utf8 = super::capabilities::utf8(c);
        let caps = ClientCaps::of(c);
        *lock(&self.caps) = caps.clone();
        {
            let mut st = lock(&self.state);
            st.enc = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            if let Some(opts) = params.initialization_options.as_ref().filter(|v| !v.is_null()) {
                match client_patch(opts) {
                    Ok(p) => st.client_config = Some(p),
                    Err(e) => tracing::warn!("{e}"),
                }
            }
        }
        let mut roots: Vec<PathBuf> =
            params.workspace_folders.unwrap_or_default().iter().filter_map(|f| convert::path_of(&f.uri)).collect();
        #[allow(deprecated)]
        if roots.is_empty() {
            roots.extend(params.root_uri.as_ref().and_then(convert::path_of));
        }
        *lock(&self.pending_roots) = roots;
        Ok(InitializeResult {
            capabilities: super::capabilities::server(&caps, utf8),
            server_info: Some(ServerInfo {
                name: "memory-index-lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        self.pull_config().await;
        let roots = std::mem::take(&mut *lock(&self.pending_roots));
        self.reload_all(roots).await;
        let caps = self.caps();
        if caps.dynamic_watch {
            let watchers = ["**/*.md", "**/memory-index.toml"]
                .into_iter()
                .map(|g| FileSystemWatcher { glob_pattern: GlobPattern::String(g.into()), kind: None })
                .collect();
            let opts = DidChangeWatchedFilesRegistrationOptions { watchers };
            let reg = Registration {
                id: "memory-index-watch".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(opts).ok(),
            };
            if let Err(e) = self.client.register_capability(vec![reg]).await {
                tracing::warn!("client refused file watching ({e}); watching from the server");
                super::watch::start(self.state.clone(), self.wake.clone());
            }
        } else {
            super::watch::start(self.state.clone(), self.wake.clone());
        }
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        super::handlers::notification::did_open(self, params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        super::handlers::notification::did_change(self, params).await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        super::handlers::notification::did_close(self, params).await
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        super::handlers::notification::did_change_watched_files(self, params).await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        super::handlers::notification::did_change_workspace_folders(self, params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        super::handlers::notification::did_change_configuration(self, params).await
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        super::handlers::request::diagnostic(self, params).await
    }

    async fn workspace_diagnostic(&self, params: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        super::handlers::request::workspace_diagnostic(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        super::handlers::request::code_action(self, params).await
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        super::handlers::request::goto_definition(self, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        super::handlers::request::references(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        super::handlers::request::hover(self, params).await
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        super::handlers::request::document_symbol(self, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        super::handlers::request::folding_range(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        super::handlers::request::completion(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        super::handlers::request::inlay_hint(self, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        super::handlers::request::document_link(self, params).await
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        super::handlers::request::symbol(self, params).await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        super::handlers::request::semantic_tokens_full(self, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        super::handlers::request::semantic_tokens_range(self, params).await
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        super::handlers::request::prepare_rename(self, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        super::handlers::request::rename(self, params).await
    }

    async fn will_rename_files(&self, params: RenameFilesParams) -> Result<Option<WorkspaceEdit>> {
        super::handlers::request::will_rename_files(self, params).await
    }

    async fn did_rename_files(&self, params: RenameFilesParams) {
        super::handlers::notification::did_rename_files(self, params).await
    }

    async fn did_create_files(&self, params: CreateFilesParams) {
        super::handlers::notification::did_create_files(self, params).await
    }

    async fn did_delete_files(&self, params: DeleteFilesParams) {
        super::handlers::notification::did_delete_files(self, params).await
    }

    async fn code_action_resolve(&self, action: CodeAction) -> Result<CodeAction> {
        super::handlers::request::code_action_resolve(self, action).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        super::handlers::request::execute_command(self, params).await
    }
}
