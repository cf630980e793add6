//! Request handlers: each converts the params, calls the engine on the state, converts the answer.

use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use crate::edit::Applicability;
use crate::ide::{completion, file_rename, hints, hover, navigate, rename, symbols, tokens};
use crate::lsp::backend::*;
use crate::lsp::capabilities::{FIX_ALL_COMMAND, FIX_ALL_KIND};
use crate::lsp::convert;
use crate::rules;

pub(in crate::lsp) async fn diagnostic(
    b: &Backend,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    // As the publisher checks (see publish.rs): a full check first, on a
    // snapshot off the lock; the rest (an index splice's re-check, the
    // bookkeeping) under it: a pull follows each edit, and a snapshot held
    // during a short re-check would make the next edit copy the index.
    let full = lock(&b.state).full_checks();
    let _ = check_off_lock(full).await;
    let items = {
        let mut st = lock(&b.state);
        match st.locate_uri(&params.text_document.uri) {
            Some((i, rel)) => guarded("diagnostic", || st.diagnostics_for(i, &rel))?,
            None => Vec::new(),
        }
    };
    // What the check found in files this pull does not cover goes out by push.
    b.wake.notify_one();
    Ok(DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
        related_documents: None,
        full_document_diagnostic_report: FullDocumentDiagnosticReport { result_id: None, items },
    })))
}

pub(in crate::lsp) async fn workspace_diagnostic(
    b: &Backend,
    _: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    let state = b.state.clone();
    let report = off_thread(b.snapshot(), "workspace/diagnostic", move |snap| {
        // The check runs on the snapshot, the bookkeeping under the lock (as `diagnostic`).
        for r in &snap.roots {
            let _ = rules::findings(&r.ws);
        }
        let mut st = lock(&state);
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
    // A push that read the flag before it was set finishes before this answer.
    drop(b.pushing.lock().await);
    // Sets pushed before the client pulled the workspace are cleared now.
    b.wake.notify_one();
    report
}

pub(in crate::lsp) async fn code_action(b: &Backend, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let lazy = b.caps().code_action_resolve;
    let st = b.snapshot();
    let Some((i, rel)) = st.locate_uri(&params.text_document.uri) else { return Ok(None) };
    let root = &st.roots[i];
    let only = params.context.only.clone();
    let wants = |k: &CodeActionKind| only.as_ref().is_none_or(|o| o.iter().any(|w| k.as_str().starts_with(w.as_str())));
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
                let fixes = crate::rules::fixes(&root.ws, f);
                for fix in fixes.iter() {
                    out.push(CodeActionOrCommand::CodeAction(CodeAction {
                        title: fix.title.clone(),
                        kind: Some(CodeActionKind::QUICKFIX),
                        diagnostics: diag.clone().map(|d| vec![d]),
                        edit: Some(convert::workspace_edit(&root.ws, &root.path, &fix.change, st.enc)),
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
            } else if let Some(edit) = Backend::fix_all_edit(&st, i) {
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

pub(in crate::lsp) async fn goto_definition(
    b: &Backend,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let p = params.text_document_position_params;
    let st = b.snapshot();
    let Some((i, file, offset)) = at_position(&st, &p.text_document.uri, p.position) else { return Ok(None) };
    let root = &st.roots[i];
    guarded("definition", || {
        navigate::definition(&root.ws, file, offset)
            .and_then(|r| convert::location(&root.ws, &root.path, r, st.enc))
            .map(GotoDefinitionResponse::Scalar)
    })
}

pub(in crate::lsp) async fn references(b: &Backend, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
    let p = params.text_document_position;
    let st = b.snapshot();
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

pub(in crate::lsp) async fn hover(b: &Backend, params: HoverParams) -> Result<Option<Hover>> {
    let p = params.text_document_position_params;
    let st = b.snapshot();
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

pub(in crate::lsp) async fn document_symbol(
    b: &Backend,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let st = b.snapshot();
    let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
    guarded("documentSymbol", || {
        let f = root.ws.file(file)?;
        let syms = symbols::document_symbols(&root.ws, file);
        Some(DocumentSymbolResponse::Nested(syms.iter().map(|s| convert::document_symbol(f, s, st.enc)).collect()))
    })
}

pub(in crate::lsp) async fn folding_range(
    b: &Backend,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let st = b.snapshot();
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

pub(in crate::lsp) async fn completion(b: &Backend, params: CompletionParams) -> Result<Option<CompletionResponse>> {
    let p = params.text_document_position;
    let snippets = b.caps().snippets;
    let st = b.snapshot();
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

pub(in crate::lsp) async fn inlay_hint(b: &Backend, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    let st = b.snapshot();
    let Some((root, file)) = doc_in_root(&st, &params.text_document.uri) else { return Ok(None) };
    guarded("inlayHint", || {
        let f = root.ws.file(file)?;
        Some(
            hints::inlay_hints(&root.ws, file, convert::text_range(f, params.range, st.enc))
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

pub(in crate::lsp) async fn document_link(
    b: &Backend,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let st = b.snapshot();
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

pub(in crate::lsp) async fn symbol(
    b: &Backend,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    off_thread(b.snapshot(), "workspace/symbol", move |st| {
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

pub(in crate::lsp) async fn semantic_tokens_full(
    b: &Backend,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let st = b.snapshot();
    Ok(semantic_tokens(&st, &params.text_document.uri, None)?.map(SemanticTokensResult::Tokens))
}

pub(in crate::lsp) async fn semantic_tokens_range(
    b: &Backend,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let st = b.snapshot();
    Ok(semantic_tokens(&st, &params.text_document.uri, Some(params.range))?.map(SemanticTokensRangeResult::Tokens))
}

pub(in crate::lsp) async fn prepare_rename(
    b: &Backend,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let st = b.snapshot();
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

pub(in crate::lsp) async fn rename(b: &Backend, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let p = params.text_document_position;
    let caps = b.caps();
    let st = b.snapshot();
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
            let version = st.versions.get(&uri).copied();
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

pub(in crate::lsp) async fn will_rename_files(b: &Backend, params: RenameFilesParams) -> Result<Option<WorkspaceEdit>> {
    let mut refused: Vec<String> = Vec::new();
    let mut all: std::collections::HashMap<Uri, Vec<TextEdit>> = std::collections::HashMap::new();
    {
        let st = b.snapshot();
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
            for (uri, e) in convert::workspace_edit(&root.ws, &root.path, &edits, st.enc).changes.unwrap_or_default() {
                all.entry(uri).or_default().extend(e);
            }
        }
    }
    for message in refused {
        tracing::warn!("{message}");
        b.client.show_message(MessageType::WARNING, message).await;
    }
    Ok((!all.is_empty()).then_some(WorkspaceEdit {
        changes: Some(all),
        document_changes: None,
        change_annotations: None,
    }))
}

pub(in crate::lsp) async fn code_action_resolve(b: &Backend, mut action: CodeAction) -> Result<CodeAction> {
    let uri =
        action.data.as_ref().and_then(|d| d.get("fixAll")).and_then(Value::as_str).and_then(|u| u.parse::<Uri>().ok());
    if let Some(uri) = uri {
        action.edit = off_thread(b.snapshot(), "codeAction/resolve", move |st| {
            Ok(st.locate_uri(&uri).and_then(|(i, _)| Backend::fix_all_edit(st, i)))
        })
        .await?;
    }
    Ok(action)
}

pub(in crate::lsp) async fn execute_command(b: &Backend, params: ExecuteCommandParams) -> Result<Option<Value>> {
    if params.command == crate::lsp::REMEMBER_COMMAND {
        let args = params.arguments;
        let (edit, at, changed) =
            off_thread(b.snapshot(), "remember", move |st| crate::lsp::remember::plan(st, &args)).await?;
        let applied = b.client.apply_edit(edit).await.map(|r| r.applied).unwrap_or(false);
        return Ok(Some(serde_json::json!({ "applied": applied, "location": at, "changed": changed })));
    }
    if params.command != FIX_ALL_COMMAND {
        return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
    }
    let edit = off_thread(b.snapshot(), "fixAll", move |st| {
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
        Ok(Backend::fix_all_edit(st, i))
    })
    .await?;
    if let Some(edit) = edit {
        let _ = b.client.apply_edit(edit).await;
    }
    Ok(None)
}

/// Semantic tokens of a document (optionally only those in `range`), delta-encoded.
fn semantic_tokens(st: &Snapshot, uri: &Uri, range: Option<Range>) -> Result<Option<SemanticTokens>> {
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
