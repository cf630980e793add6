//! Capability negotiation: what the client can do (ClientCaps) and what the server offers in return.

use tower_lsp_server::ls_types::*;

use crate::ide::tokens;

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

impl ClientCaps {
    /// Reads what the server relies on from the client's `initialize` capabilities.
    pub fn of(c: &ClientCapabilities) -> Self {
        ClientCaps {
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
        }
    }
}

/// Whether the client takes UTF-8 positions (else UTF-16, the protocol's default).
pub fn utf8(c: &ClientCapabilities) -> bool {
    c.general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|e| e.contains(&PositionEncodingKind::UTF8))
}

/// What the server offers a client with `caps`.
pub fn server(caps: &ClientCaps, utf8: bool) -> ServerCapabilities {
    let fix_kinds = vec![CodeActionKind::QUICKFIX, CodeActionKind::SOURCE_FIX_ALL, CodeActionKind::from(FIX_ALL_KIND)];
    ServerCapabilities {
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
    }
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
