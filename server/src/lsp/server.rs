//! The protocol's lifecycle (initialize, shutdown) and one line per method to its handler.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::LanguageServer;

use std::path::PathBuf;

use serde_json::Value;

use super::backend::{client_patch, Backend};
use super::capabilities::ClientCaps;
use super::convert;
use super::state::lock;
use crate::text::Encoding;

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        self.publisher.call_once(|| {
            let (client, state, caps, wake, pushing) =
                (self.client.clone(), self.state.clone(), self.caps.clone(), self.wake.clone(), self.pushing.clone());
            tokio::spawn(super::publish::run(client, state, caps, wake, pushing));
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
                    Ok((p, warning)) => {
                        st.client_config = Some(p);
                        if let Some(w) = warning {
                            tracing::warn!("{w}");
                            lock(&self.pending_warnings).push(w);
                        }
                    }
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
        let warnings = std::mem::take(&mut *lock(&self.pending_warnings));
        for w in warnings {
            self.client.show_message(MessageType::WARNING, w).await;
        }
        let folders = std::mem::take(&mut *lock(&self.pending_roots));
        self.reload_all(self.add_folders(&folders)).await;
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
