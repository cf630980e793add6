//! Conversions between engine data (byte offsets, paths, findings, fixes) and protocol types.
//!
//! Every position in and out goes through here with the negotiated encoding
//! (UTF-8 or UTF-16); positions past a line's end or past the last line are
//! clamped by [`LineIndex`], never rejected.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tower_lsp_server::ls_types::{
    CodeDescription, CompletionItem, CompletionItemKind, CompletionTextEdit, CreateFile, CreateFileOptions, Diagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, DocumentChangeOperation, DocumentChanges, Documentation,
    InsertTextFormat, Location, MarkupContent, MarkupKind, NumberOrString, OneOf,
    OptionalVersionedTextDocumentIdentifier, Position, Range, ResourceOp, TextDocumentEdit, TextEdit as LspEdit, Uri,
    WorkspaceEdit,
};

use crate::edit::{FileEdit, SourceChange};
use crate::ide::completion::{Item, ItemKind};
use crate::ide::symbols;
use crate::model::{SourceFile, Workspace};
use crate::rules::{Finding, Severity};
use crate::text::{Encoding, LineCol, TextRange};
use tower_lsp_server::ls_types::{DocumentSymbol, SymbolKind};

/// Where each rule's documentation lives (one anchor per code).
pub const RULES_DOC: &str = "https://github.com/memory-index-lsp/memory-index-lsp/blob/main/docs/rules.md";

pub fn position(file: &SourceFile, offset: usize, enc: Encoding) -> Position {
    let p = file.line_index.position(&file.text, offset, enc);
    Position { line: p.line, character: p.col }
}

pub fn range(file: &SourceFile, r: TextRange, enc: Encoding) -> Range {
    Range { start: position(file, r.start, enc), end: position(file, r.end, enc) }
}

/// Byte offset of a client position (clamped).
pub fn offset(file: &SourceFile, p: Position, enc: Encoding) -> usize {
    file.line_index.offset(&file.text, LineCol { line: p.line, col: p.character }, enc)
}

pub fn text_range(file: &SourceFile, r: Range, enc: Encoding) -> TextRange {
    let (a, b) = (offset(file, r.start, enc), offset(file, r.end, enc));
    TextRange::new(a.min(b), a.max(b))
}

pub fn uri_of(root: &Path, rel: &str) -> Option<Uri> {
    Uri::from_file_path(root.join(rel))
}

pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

/// A finding as an LSP diagnostic (related locations point into other files of the root).
pub fn diagnostic(ws: &Workspace, root: &Path, f: &Finding, enc: Encoding) -> Option<Diagnostic> {
    let file = ws.file(f.file)?;
    let related: Vec<DiagnosticRelatedInformation> = f
        .related
        .iter()
        .filter_map(|r| {
            let rf = ws.file(r.file)?;
            Some(DiagnosticRelatedInformation {
                location: Location { uri: uri_of(root, &rf.path)?, range: range(rf, r.range, enc) },
                message: r.message.to_string(),
            })
        })
        .collect();
    let href = format!("{RULES_DOC}#{}", f.rule.code()).parse().ok();
    Some(Diagnostic {
        range: range(file, f.range, enc),
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Info => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(f.rule.code().to_string())),
        code_description: href.map(|href| CodeDescription { href }),
        source: Some("memory-index".into()),
        message: f.message(ws).into_owned(),
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    })
}

/// A workspace location as an LSP location.
pub fn location(ws: &Workspace, root: &Path, r: crate::model::FileRange, enc: Encoding) -> Option<Location> {
    let f = ws.file(r.file)?;
    Some(Location { uri: uri_of(root, &f.path)?, range: range(f, r.range, enc) })
}

/// A [`SourceChange`] as a workspace edit: plain `changes` when it only
/// edits, else `documentChanges` (each new file created, without
/// overwriting, then filled; then the edits).
pub fn workspace_edit(ws: &Workspace, root: &Path, change: &SourceChange, enc: Encoding) -> WorkspaceEdit {
    if change.creates.is_empty() {
        return plain_edit(ws, root, &change.edits, enc);
    }
    let mut ops: Vec<DocumentChangeOperation> = Vec::new();
    let edit = |uri: Uri, edits: Vec<LspEdit>| {
        DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        })
    };
    for c in &change.creates {
        let Some(uri) = uri_of(root, &c.path) else { continue };
        ops.push(DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
            uri: uri.clone(),
            options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
            annotation_id: None,
        })));
        ops.push(edit(uri, vec![LspEdit { range: Range::default(), new_text: c.text.clone() }]));
    }
    let plain = plain_edit(ws, root, &change.edits, enc);
    for (uri, edits) in plain.changes.unwrap_or_default() {
        ops.push(edit(uri, edits));
    }
    WorkspaceEdit { changes: None, document_changes: Some(DocumentChanges::Operations(ops)), change_annotations: None }
}

/// Per-file engine edits as a plain `changes` workspace edit.
fn plain_edit(ws: &Workspace, root: &Path, changes: &[FileEdit], enc: Encoding) -> WorkspaceEdit {
    let mut map: HashMap<Uri, Vec<LspEdit>> = HashMap::new();
    for c in changes {
        let Some(file) = ws.file_id(&c.path).and_then(|id| ws.file(id)) else { continue };
        let Some(uri) = uri_of(root, &c.path) else { continue };
        let edits = map.entry(uri).or_default();
        for e in &c.edits {
            edits.push(LspEdit { range: range(file, e.range, enc), new_text: e.insert.clone() });
        }
    }
    WorkspaceEdit { changes: Some(map), document_changes: None, change_annotations: None }
}

/// A completion item: its kind, its rank as `sortText`, and a text edit over
/// what was typed. A multi-word insert is an escaped snippet when the client
/// takes snippets (Neovim inserts only the first word of a plain text edit);
/// no `filterText` unless the engine gives one, so clients that filter by it
/// (Neovim: by prefix) keep the server's fuzzy matches.
pub fn completion_item(file: &SourceFile, it: Item, rank: usize, enc: Encoding, snippets: bool) -> CompletionItem {
    let snippet = snippets && it.insert.contains(char::is_whitespace);
    let new_text = if snippet { escape_snippet(&it.insert) } else { it.insert };
    CompletionItem {
        label: it.label,
        kind: Some(match it.kind {
            ItemKind::Operator => CompletionItemKind::KEYWORD,
            ItemKind::Trigger | ItemKind::Title => CompletionItemKind::REFERENCE,
            ItemKind::File => CompletionItemKind::FILE,
        }),
        detail: it.detail,
        documentation: it
            .documentation
            .map(|d| Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: d })),
        sort_text: Some(format!("{rank:04}")),
        filter_text: it.filter,
        insert_text_format: Some(if snippet { InsertTextFormat::SNIPPET } else { InsertTextFormat::PLAIN_TEXT }),
        text_edit: Some(CompletionTextEdit::Edit(LspEdit { range: range(file, it.range, enc), new_text })),
        ..Default::default()
    }
}

/// Text as a snippet that inserts exactly that text (`$`, `}` and `\` escaped).
pub fn escape_snippet(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '$' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[allow(deprecated)]
/// An outline symbol with its children, in the negotiated encoding.
pub fn document_symbol(f: &SourceFile, s: &symbols::Symbol, enc: Encoding) -> DocumentSymbol {
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
        range: range(f, s.range, enc),
        selection_range: range(f, s.selection, enc),
        children: Some(s.children.iter().map(|c| document_symbol(f, c, enc)).collect()),
    }
}
