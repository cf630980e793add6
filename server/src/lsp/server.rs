//! The `LanguageServer` handlers: each converts, calls the engine under the state lock, converts back.
//!
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

use ropey::Rope;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use super::convert;
use super::state::{apply_change, State};
use crate::edit::{Applicability, FileEdit};
use crate::ide::{completion, file_rename, fix_all, hints, hover, navigate, rename, symbols, tokens};
use crate::model::config::ConfigPatch;
use crate::model::FileText;
use crate::rules;
use crate::text::{Encoding, TextRange};

/// The command the editor extensions call for "Fix All".
pub const FIX_ALL_COMMAND: &str = "memory-index.fixAll";
/// Our fix-all code action kind.
pub const FIX_ALL_KIND: &str = "source.fixAll.memory-index";

/// What the client said it can do.
#[derive(Clone, Debug, Default)]
pub struct ClientCaps {
    pub pull_diagnostics: bool,
    pub diagnostic_refresh: bool,
    pub dynamic_watch: bool,
    pub configuration: bool,
    pub progress: bool,
    pub document_changes: bool,
    pub code_action_resolve: bool,
    /// Completion items may be snippets: multi-word inserts are sent as
    /// (escaped) snippets, which clients such as Neovim insert whole, where
    /// a plain text edit keeps only its first word.
    pub snippets: bool,
}

/// The server: the client handle and the shared state.
#[derive(Debug)]
pub struct Backend {
    pub client: Client,
    pub state: Arc<Mutex<State>>,
    pub caps: Arc<Mutex<ClientCaps>>,
    pending_roots: Mutex<Vec<PathBuf>>,
    /// Wakes the publisher (started on `initialize`).
    wake: Arc<Notify>,
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
fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        tracing::error!("internal error in {what}");
        Error {
            code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
            message: format!("internal error in {what}").into(),
            data: None,
        }
    })
}

/// Runs a long request's engine work on the blocking pool, with the state
/// locked there. The handler waits without holding a runtime thread, so a
/// `$/cancelRequest` for it is answered `RequestCancelled` at once:
/// tower-lsp-server drops the waiting handler. The work itself runs to its end
/// and its result is discarded (the engine has no preemption points; what it
/// computed stays cached for the next request). Used by fix-all, workspace
/// diagnostics and workspace symbols, the requests that can take long on a
/// large workspace.
async fn off_thread<T: Send + 'static>(
    state: &Arc<Mutex<State>>,
    what: &'static str,
    f: impl FnOnce(&mut State) -> Result<T> + Send + 'static,
) -> Result<T> {
    let state = state.clone();
    match tokio::task::spawn_blocking(move || guarded(what, || f(&mut lock(&state)))).await {
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
fn doc_in_root<'a>(st: &'a State, uri: &Uri) -> Option<(&'a super::state::Root, crate::model::FileId)> {
    let (i, rel) = st.locate_uri(uri)?;
    let root = &st.roots[i];
    Some((root, root.ws.file_id(&rel)?))
}

/// The root, file and byte offset of a client position.
fn at_position(st: &State, uri: &Uri, pos: Position) -> Option<(usize, crate::model::FileId, usize)> {
    let (i, rel) = st.locate_uri(uri)?;
    let ws = &st.roots[i].ws;
    let file = ws.file_id(&rel)?;
    Some((i, file, convert::offset(ws.file(file)?, pos, st.enc)))
}

#[allow(deprecated)]
fn document_symbol(f: &crate::model::SourceFile, s: &symbols::Symbol, enc: Encoding) -> DocumentSymbol {
    DocumentSymbol {
        name: if s.name.is_empty() { "(untitled)".into() } else { s.name.clone() },
        detail: s.detail.clone(),
        kind: match s.kind {
            symbols::SymbolKind::File => SymbolKind::FILE,
            symbols::SymbolKind::Entry => SymbolKind::KEY,
            symbols::SymbolKind::Heading => SymbolKind::STRING,
            symbols::SymbolKind::Namespace => SymbolKind::NAMESPACE,
        },
        tags: None,
        deprecated: None,
        range: convert::range(f, s.range, enc),
        selection_range: convert::range(f, s.selection, enc),
        children: Some(s.children.iter().map(|c| document_symbol(f, c, enc)).collect()),
    }
}

/// Semantic tokens of a document (optionally only those in `range`), delta-encoded.
fn semantic_tokens(st: &State, uri: &Uri, range: Option<Range>) -> Result<Option<SemanticTokens>> {
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

/// "Add entry with its short key": the full trigger (binding is exact) with the
/// `compress-key` suggestion as an extra.
fn compressed_entry_fix(ws: &crate::model::Workspace, f: &rules::Finding) -> Option<crate::edit::Fix> {
    let d = ws.file(f.file)?.decision()?;
    let idx = d.headings.iter().position(|h| h.title_range == f.range)?;
    let hid = crate::model::HeadingId { file: f.file, idx: idx as u32 };
    let (op, key) = crate::ide::compress::compress_heading(ws, hid)?;
    let full = crate::rules::placement::trigger_from_title(&d.headings[idx].title)?.1;
    if key == full {
        return None;
    }
    // Binding is exact, so the full trigger stays; the short key becomes an extra.
    let line = format!("{} {full} | {key}", op.token());
    let edit = crate::rules::placement::insert_entry(ws, hid, &line)?;
    Some(crate::edit::Fix::new(
        format!("Add `{line}` to the index (with its shortest unique key)"),
        Applicability::Suggestion,
        &ws.config().index,
        vec![edit],
    ))
}

/// File-operation filters: Markdown files.
fn md_files() -> FileOperationRegistrationOptions {
    FileOperationRegistrationOptions {
        filters: vec![FileOperationFilter {
            scheme: Some("file".into()),
            pattern: FileOperationPattern { glob: "**/*.md".into(), matches: None, options: None },
        }],
    }
}

fn client_patch(v: &Value) -> std::result::Result<ConfigPatch, String> {
    let v = v.get("memoryIndex").unwrap_or(v);
    serde_json::from_value::<ConfigPatch>(v.clone()).map_err(|e| format!("memory-index settings ignored: {e}"))
}

impl Backend {
    fn caps(&self) -> ClientCaps {
        lock(&self.caps).clone()
    }

    /// Asks the client for `memoryIndex` settings (when it supports it).
    async fn pull_config(&self) {
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
    async fn reload_all(&self, extra: Vec<PathBuf>) {
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
    async fn files_changed(&self, paths: Vec<PathBuf>) {
        {
            let mut st = lock(&self.state);
            let _ = guarded("fileOperations", || disk_changes(&mut st, &paths));
        }
        self.wake.notify_one();
    }

    /// The root and path of `uri`, finding a root for a lone file when there is none.
    fn locate_or_adopt(st: &mut State, uri: &Uri) -> Option<(usize, String)> {
        if let Some(found) = st.locate_uri(uri) {
            return Some(found);
        }
        if !st.roots.is_empty() {
            return None;
        }
        let path = convert::path_of(uri)?;
        let root = path
            .ancestors()
            .skip(1)
            .find(|d| d.join("agents/memory-index.md").is_file() || d.join("memory-index.toml").is_file())?;
        st.load_root(root.to_path_buf()).ok()?;
        st.locate_uri(uri)
    }

    fn fix_all_edit(st: &State, i: usize) -> Option<WorkspaceEdit> {
        let root = &st.roots[i];
        let mut ws = root.ws.clone();
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
        let utf8 = c
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8));
        let caps = ClientCaps {
            pull_diagnostics: c.text_document.as_ref().and_then(|t| t.diagnostic.as_ref()).is_some(),
            diagnostic_refresh: c
                .workspace
                .as_ref()
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                .unwrap_or(false),
            dynamic_watch: c
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files.as_ref())
                .and_then(|d| d.dynamic_registration)
                .unwrap_or(false),
            configuration: c.workspace.as_ref().and_then(|w| w.configuration).unwrap_or(false),
            progress: c.window.as_ref().and_then(|w| w.work_done_progress).unwrap_or(false),
            document_changes: c
                .workspace
                .as_ref()
                .and_then(|w| w.workspace_edit.as_ref())
                .and_then(|e| e.document_changes)
                .unwrap_or(false),
            code_action_resolve: c
                .text_document
                .as_ref()
                .and_then(|t| t.code_action.as_ref())
                .and_then(|a| a.resolve_support.as_ref())
                .is_some_and(|r| r.properties.iter().any(|p| p == "edit")),
            snippets: c
                .text_document
                .as_ref()
                .and_then(|t| t.completion.as_ref())
                .and_then(|c| c.completion_item.as_ref())
                .and_then(|i| i.snippet_support)
                .unwrap_or(false),
        };
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
        let fix_kinds =
            vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE_FIX_ALL, CodeActionKind::from(FIX_ALL_KIND)];
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(if utf8 { PositionEncodingKind::UTF8 } else { PositionEncodingKind::UTF16 }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..Default::default()
                })),
                code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                    code_action_kinds: Some(fix_kinds),
                    resolve_provider: Some(caps.code_action_resolve),
                    ..Default::default()
                })),
                definition_provider: Some(OneOf::Left(true)),
                references_provider: Some(OneOf::Left(true)),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(["/", " ", ".", "#"].iter().map(|c| c.to_string()).collect()),
                    ..Default::default()
                }),
                inlay_hint_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: Default::default(),
                })),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend: SemanticTokensLegend {
                            token_types: tokens::LEGEND.iter().map(|t| SemanticTokenType::new(t)).collect(),
                            token_modifiers: tokens::MODIFIERS.iter().map(|m| SemanticTokenModifier::new(m)).collect(),
                        },
                        range: Some(true),
                        full: Some(SemanticTokensFullOptions::Bool(true)),
                        work_done_progress_options: Default::default(),
                    },
                )),
                document_link_provider: Some(DocumentLinkOptions {
                    resolve_provider: Some(false),
                    work_done_progress_options: Default::default(),
                }),
                execute_command_provider: Some(ExecuteCommandOptions {
                    commands: vec![FIX_ALL_COMMAND.into(), super::REMEMBER_COMMAND.into()],
                    ..Default::default()
                }),
                diagnostic_provider: caps.pull_diagnostics.then(|| {
                    DiagnosticServerCapabilities::Options(DiagnosticOptions {
                        identifier: Some("memory-index".into()),
                        inter_file_dependencies: true,
                        workspace_diagnostics: true,
                        ..Default::default()
                    })
                }),
                workspace: Some(WorkspaceServerCapabilities {
                    workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(OneOf::Left(true)),
                    }),
                    file_operations: Some(WorkspaceFileOperationsServerCapabilities {
                        will_rename: Some(md_files()),
                        did_rename: Some(md_files()),
                        did_create: Some(md_files()),
                        did_delete: Some(md_files()),
                        ..Default::default()
                    }),
                }),
                ..Default::default()
            },
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
        let doc = params.text_document;
        {
            let mut st = lock(&self.state);
            st.docs
                .insert(doc.uri.clone(), super::state::Doc { rope: Rope::from_str(&doc.text), version: doc.version });
            if let Some((i, rel)) = Self::locate_or_adopt(&mut st, &doc.uri) {
                st.roots[i].ws.set_file(&rel, FileText::from(doc.text));
                st.mark_dirty(i);
            }
        }
        self.wake.notify_one();
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let version = params.text_document.version;
        let t = std::time::Instant::now();
        {
            let mut st = lock(&self.state);
            let enc = st.enc;
            let Some(doc) = st.docs.get_mut(&uri) else {
                tracing::warn!("didChange for a document that is not open: {}", uri.as_str());
                return;
            };
            if version <= doc.version {
                tracing::warn!("ignoring stale didChange (version {version} <= {})", doc.version);
                return;
            }
            let before = doc.rope.len_bytes();
            // The same edits for the engine's copy, unless one replaced everything.
            let mut edits: Option<Vec<(TextRange, String)>> = Some(Vec::new());
            for change in params.content_changes {
                let edit = apply_change(&mut doc.rope, change, enc);
                edits = edits.zip(edit).map(|(mut all, e)| {
                    all.push(e);
                    all
                });
            }
            doc.version = version;
            let rope = doc.rope.clone();
            if let Some((i, rel)) = st.locate_uri(&uri) {
                let ws = &mut st.roots[i].ws;
                // Edited in place when the engine holds the text the edits apply to
                // (no copy of the document, no comparison to find what changed).
                let in_sync = ws.file_id(&rel).and_then(|id| ws.file(id)).is_some_and(|f| f.text.len() == before);
                let edited = match edits.filter(|_| in_sync) {
                    Some(edits) => {
                        let edits: Vec<(TextRange, &str)> = edits.iter().map(|(r, t)| (*r, t.as_str())).collect();
                        ws.edit_file(&rel, &edits).is_some()
                    }
                    None => false,
                };
                if !edited {
                    ws.set_file(&rel, FileText::from(rope.to_string()));
                }
                st.mark_dirty(i);
            }
        }
        tracing::debug!("didChange v{version} applied in {:.2} ms", t.elapsed().as_secs_f64() * 1e3);
        self.wake.notify_one();
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        {
            let mut st = lock(&self.state);
            st.docs.remove(&uri);
            if let Some((i, rel)) = st.locate_uri(&uri) {
                st.refresh_from_disk(i, &rel);
                st.forget_published(i, &rel);
            }
        }
        self.wake.notify_one();
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        {
            let mut st = lock(&self.state);
            let paths: Vec<PathBuf> = params.changes.iter().filter_map(|c| convert::path_of(&c.uri)).collect();
            let _ = guarded("watch", || disk_changes(&mut st, &paths));
        }
        self.wake.notify_one();
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        {
            let mut st = lock(&self.state);
            for p in params.event.removed.iter().filter_map(|f| convert::path_of(&f.uri)) {
                st.remove_root(&p);
            }
        }
        self.wake.notify_one();
        let added: Vec<PathBuf> = params.event.added.iter().filter_map(|f| convert::path_of(&f.uri)).collect();
        if !added.is_empty() {
            self.reload_all(added).await;
        }
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        if params.settings.is_object() && params.settings.get("memoryIndex").is_some() {
            match client_patch(&params.settings) {
                Ok(p) => lock(&self.state).client_config = Some(p),
                Err(e) => self.client.show_message(MessageType::WARNING, e).await,
            }
        } else {
            self.pull_config().await;
        }
        self.reload_all(Vec::new()).await;
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        let items = {
            let mut st = lock(&self.state);
            match st.locate_uri(&params.text_document.uri) {
                Some((i, rel)) => guarded("diagnostic", || st.diagnostics_for(i, &rel))?,
                None => Vec::new(),
            }
        };
        // What the check found in files this pull does not cover goes out by push.
        self.wake.notify_one();
        Ok(DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id: None, items },
            },
        )))
    }

    async fn workspace_diagnostic(&self, _: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        let report = off_thread(&self.state, "workspace/diagnostic", |st| {
            st.workspace_pull = true;
            let mut items = Vec::new();
            for i in 0..st.roots.len() {
                guarded("diagnostic", || {
                    let _ = st.changed_diagnostics(i);
                })?;
                let root = &st.roots[i];
                for (rel, diags) in &root.published {
                    let Some(uri) = convert::uri_of(&root.path, rel) else { continue };
                    let version = st.docs.get(&uri).map(|d| d.version as i64);
                    items.push(WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                        uri,
                        version,
                        full_document_diagnostic_report: FullDocumentDiagnosticReport {
                            result_id: None,
                            items: diags.clone(),
                        },
                    }));
                }
            }
            Ok(WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items }))
        })
        .await;
        // Sets pushed before the client pulled the workspace are cleared now.
        self.wake.notify_one();
        report
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let lazy = self.caps().code_action_resolve;
        let st = lock(&self.state);
        let Some((i, rel)) = st.locate_uri(&params.text_document.uri) else { return Ok(None) };
        let root = &st.roots[i];
        let only = params.context.only.clone();
        let wants =
            |k: &CodeActionKind| only.as_ref().is_none_or(|o| o.iter().any(|w| k.as_str().starts_with(w.as_str())));
        guarded("codeAction", || {
            let mut out: Vec<CodeActionOrCommand> = Vec::new();
            let Some(file_id) = root.ws.file_id(&rel) else { return out };
            let Some(file) = root.ws.file(file_id) else { return out };
            let want = convert::text_range(file, params.range, st.enc);
            if wants(&CodeActionKind::QUICKFIX) {
                // A finding's fixes are offered anywhere in its range, and for
                // every diagnostic the client names (Neovim names those of the
                // cursor's line, so column 1 of a flagged heading works too).
                let named = &params.context.diagnostics;
                for f in rules::findings(&root.ws).iter().filter(|f| f.file == file_id) {
                    let diag = convert::diagnostic(&root.ws, &root.path, f, st.enc);
                    let touches = f.range.end >= want.start && f.range.start <= want.end;
                    let is_named =
                        diag.as_ref().is_some_and(|d| named.iter().any(|n| n.code == d.code && n.range == d.range));
                    if !touches && !is_named {
                        continue;
                    }
                    let mut fixes = f.fixes.clone();
                    if f.rule == rules::Rule::UnindexedHeading {
                        fixes.extend(compressed_entry_fix(&root.ws, f));
                    }
                    for fix in &fixes {
                        out.push(CodeActionOrCommand::CodeAction(CodeAction {
                            title: fix.title.clone(),
                            kind: Some(CodeActionKind::QUICKFIX),
                            diagnostics: diag.clone().map(|d| vec![d]),
                            edit: Some(convert::workspace_edit(&root.ws, &root.path, &fix.changes, st.enc)),
                            is_preferred: Some(fix.applicability == Applicability::Safe),
                            ..Default::default()
                        }));
                    }
                }
            }
            let kind = CodeActionKind::from(FIX_ALL_KIND);
            if wants(&kind) || wants(&CodeActionKind::SOURCE_FIX_ALL) {
                // Fix-all is the expensive one: computed on resolve when the client can.
                let title = "Fix all memory-index problems".to_string();
                if lazy {
                    out.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title,
                        kind: Some(kind),
                        data: Some(serde_json::json!({ "fixAll": params.text_document.uri.as_str() })),
                        ..Default::default()
                    }));
                } else if let Some(edit) = Self::fix_all_edit(&st, i) {
                    out.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title,
                        kind: Some(kind),
                        edit: Some(edit),
                        ..Default::default()
                    }));
                }
            }
            out
        })
        .map(|v| (!v.is_empty()).then_some(v))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let p = params.text_document_position_params;
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
        let root = &st.roots[i];
        guarded("definition", || {
            navigate::definition(&root.ws, file, offset)
                .and_then(|r| convert::location(&root.ws, &root.path, r, st.enc))
                .map(GotoDefinitionResponse::Scalar)
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        let p = params.text_document_position;
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
        let root = &st.roots[i];
        guarded("references", || {
            let refs: Vec<Location> = navigate::references(&root.ws, file, offset)
                .into_iter()
                .filter_map(|r| convert::location(&root.ws, &root.path, r, st.enc))
                .collect();
            (!refs.is_empty()).then_some(refs)
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let p = params.text_document_position_params;
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
        let root = &st.roots[i];
        guarded("hover", || {
            let (range, text) = hover::hover(&root.ws, file, offset)?;
            let f = root.ws.file(file)?;
            Some(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: text }),
                range: Some(convert::range(f, range, st.enc)),
            })
        })
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let st = lock(&self.state);
        let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
        guarded("documentSymbol", || {
            let f = root.ws.file(file)?;
            let syms = symbols::document_symbols(&root.ws, file);
            Some(DocumentSymbolResponse::Nested(syms.iter().map(|s| document_symbol(f, s, st.enc)).collect()))
        })
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let st = lock(&self.state);
        let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
        guarded("foldingRange", || {
            Some(
                symbols::folding_ranges(&root.ws, file)
                    .into_iter()
                    .map(|(a, b)| FoldingRange {
                        start_line: a,
                        end_line: b,
                        kind: Some(FoldingRangeKind::Region),
                        ..Default::default()
                    })
                    .collect(),
            )
        })
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let p = params.text_document_position;
        let snippets = self.caps().snippets;
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
        let root = &st.roots[i];
        guarded("completion", || {
            let f = root.ws.file(file)?;
            let items: Vec<CompletionItem> = completion::complete(&root.ws, file, offset)
                .into_iter()
                .enumerate()
                .map(|(n, it)| convert::completion_item(f, it, n, st.enc, snippets))
                .collect();
            (!items.is_empty()).then_some(CompletionResponse::Array(items))
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let st = lock(&self.state);
        let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
        guarded("inlayHint", || {
            let f = root.ws.file(file)?;
            Some(
                hints::inlay_hints(&root.ws, file)
                    .into_iter()
                    .map(|(at, label)| InlayHint {
                        position: convert::position(f, at, st.enc),
                        label: InlayHintLabel::String(label),
                        kind: None,
                        text_edits: None,
                        tooltip: None,
                        padding_left: Some(true),
                        padding_right: None,
                        data: None,
                    })
                    .collect(),
            )
        })
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        let st = lock(&self.state);
        let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
        guarded("documentLink", || {
            let f = root.ws.file(file)?;
            Some(
                hints::document_links(&root.ws, file)
                    .into_iter()
                    .map(|(r, path)| DocumentLink {
                        range: convert::range(f, r, st.enc),
                        target: convert::uri_of(&root.path, &path),
                        tooltip: Some(path),
                        data: None,
                    })
                    .collect(),
            )
        })
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        off_thread(&self.state, "workspace/symbol", move |st| {
            let mut out = Vec::new();
            for root in &st.roots {
                for s in symbols::workspace_symbols(&root.ws, &params.query, 100) {
                    let Some(location) = convert::location(&root.ws, &root.path, s.location, st.enc) else { continue };
                    #[allow(deprecated)]
                    out.push(SymbolInformation {
                        name: s.name,
                        kind: if s.kind == symbols::SymbolKind::Entry { SymbolKind::KEY } else { SymbolKind::STRING },
                        tags: None,
                        deprecated: None,
                        location,
                        container_name: None,
                    });
                }
            }
            Ok(Some(WorkspaceSymbolResponse::Flat(out)))
        })
        .await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        let st = lock(&self.state);
        Ok(semantic_tokens(&st, &params.text_document.uri, None)?.map(SemanticTokensResult::Tokens))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let st = lock(&self.state);
        Ok(semantic_tokens(&st, &params.text_document.uri, Some(params.range))?.map(SemanticTokensRangeResult::Tokens))
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &params.text_document.uri, params.position) else {
            return Ok(None);
        };
        let root = &st.roots[i];
        match guarded("prepareRename", || rename::prepare(&root.ws, file, offset))? {
            Ok((range, text)) => {
                let f = root.ws.file(file).ok_or_else(|| Error::invalid_params("unknown file"))?;
                Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
                    range: convert::range(f, range, st.enc),
                    placeholder: text,
                }))
            }
            Err(why) => Err(Error::invalid_params(why)),
        }
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        let p = params.text_document_position;
        let caps = self.caps();
        let st = lock(&self.state);
        let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
        let root = &st.roots[i];
        let edits = guarded("rename", || rename::rename(&root.ws, file, offset, &params.new_name))?
            .map_err(Error::invalid_params)?;
        let plain = convert::workspace_edit(&root.ws, &root.path, &edits, st.enc);
        if !caps.document_changes {
            return Ok(Some(plain));
        }
        // Versioned edits: the client rejects them if a document changed meanwhile.
        let changes = plain.changes.unwrap_or_default();
        let docs = changes
            .into_iter()
            .map(|(uri, edits)| {
                let version = st.docs.get(&uri).map(|d| d.version);
                TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                    edits: edits.into_iter().map(OneOf::Left).collect(),
                }
            })
            .collect();
        Ok(Some(WorkspaceEdit {
            changes: None,
            document_changes: Some(DocumentChanges::Edits(docs)),
            change_annotations: None,
        }))
    }

    async fn will_rename_files(&self, params: RenameFilesParams) -> Result<Option<WorkspaceEdit>> {
        let mut refused: Vec<String> = Vec::new();
        let mut all: std::collections::HashMap<Uri, Vec<TextEdit>> = std::collections::HashMap::new();
        {
            let st = lock(&self.state);
            for f in &params.files {
                let (Ok(old), Ok(new)) = (f.old_uri.parse::<Uri>(), f.new_uri.parse::<Uri>()) else { continue };
                let (Some((i, old_rel)), Some((j, new_rel))) = (st.locate_uri(&old), st.locate_uri(&new)) else {
                    continue;
                };
                if i != j {
                    continue;
                }
                let root = &st.roots[i];
                let planned =
                    guarded("willRenameFiles", || file_rename::rename_decision_file(&root.ws, &old_rel, &new_rel))?;
                let edits = match planned {
                    Ok(edits) => edits,
                    Err(why) => {
                        // The rename itself is the client's; only the index is left as it is.
                        refused.push(format!("memory-index: the index was not updated for this rename: {why}"));
                        continue;
                    }
                };
                for (uri, e) in
                    convert::workspace_edit(&root.ws, &root.path, &edits, st.enc).changes.unwrap_or_default()
                {
                    all.entry(uri).or_default().extend(e);
                }
            }
        }
        for message in refused {
            tracing::warn!("{message}");
            self.client.show_message(MessageType::WARNING, message).await;
        }
        Ok((!all.is_empty()).then_some(WorkspaceEdit {
            changes: Some(all),
            document_changes: None,
            change_annotations: None,
        }))
    }

    async fn did_rename_files(&self, params: RenameFilesParams) {
        let paths: Vec<PathBuf> = params
            .files
            .iter()
            .flat_map(|f| [f.old_uri.parse::<Uri>().ok(), f.new_uri.parse::<Uri>().ok()])
            .flatten()
            .filter_map(|u| convert::path_of(&u))
            .collect();
        self.files_changed(paths).await;
    }

    async fn did_create_files(&self, params: CreateFilesParams) {
        let paths = params.files.iter().filter_map(|f| convert::path_of(&f.uri.parse::<Uri>().ok()?)).collect();
        self.files_changed(paths).await;
    }

    async fn did_delete_files(&self, params: DeleteFilesParams) {
        let paths = params.files.iter().filter_map(|f| convert::path_of(&f.uri.parse::<Uri>().ok()?)).collect();
        self.files_changed(paths).await;
    }

    async fn code_action_resolve(&self, mut action: CodeAction) -> Result<CodeAction> {
        let uri = action
            .data
            .as_ref()
            .and_then(|d| d.get("fixAll"))
            .and_then(Value::as_str)
            .and_then(|u| u.parse::<Uri>().ok());
        if let Some(uri) = uri {
            action.edit = off_thread(&self.state, "codeAction/resolve", move |st| {
                Ok(st.locate_uri(&uri).and_then(|(i, _)| Self::fix_all_edit(st, i)))
            })
            .await?;
        }
        Ok(action)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<Value>> {
        if params.command == super::REMEMBER_COMMAND {
            let args = params.arguments;
            let (edit, at) = off_thread(&self.state, "remember", move |st| super::remember::plan(st, &args)).await?;
            let applied = self.client.apply_edit(edit).await.map(|r| r.applied).unwrap_or(false);
            return Ok(Some(serde_json::json!({ "applied": applied, "location": at })));
        }
        if params.command != FIX_ALL_COMMAND {
            return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
        }
        let edit = off_thread(&self.state, "fixAll", move |st| {
            let root = params
                .arguments
                .first()
                .and_then(Value::as_str)
                .and_then(|u| u.parse::<Uri>().ok())
                .and_then(|u| st.locate_uri(&u))
                .map(|(i, _)| i)
                .or((st.roots.len() == 1).then_some(0));
            let Some(i) = root else {
                return Err(Error::invalid_params("pass the URI of a file in a workspace folder"));
            };
            Ok(Self::fix_all_edit(st, i))
        })
        .await?;
        if let Some(edit) = edit {
            let _ = self.client.apply_edit(edit).await;
        }
        Ok(None)
    }
}
