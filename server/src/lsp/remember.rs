//! The `memory-index.remember` command: `recall::remember`'s plan, applied by the client as one workspace edit.
//!
//! Arguments (one object): `operator` ("when" or "how"), `title`, and
//! optionally `file`, `extras` (list), `body`, `force`, and `uri` (any file of
//! the workspace folder to write in; needed only with several folders). The
//! server asks the client to apply the edit (`workspace/applyEdit`: the new
//! decision file created when needed, then one minimal edit per file, from
//! the plan's `SourceChange` by `convert::workspace_edit`) and
//! answers the new heading's location, so the editor can open it, and every
//! file the edit changed (`changed`), so the editor can save them: a
//! client applies a server's edit to its buffers, and without auto save
//! (desktop VS Code's default) a memory would otherwise not reach the disk
//! until the person saved both files. A refusal is a request error whose
//! message says what to do; nothing is edited.

use serde::Deserialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use super::convert;
use super::state::Snapshot;
use crate::recall::remember::{self, Request};
use crate::syntax::index::Op;

/// The command's name.
pub const REMEMBER_COMMAND: &str = "memory-index.remember";

#[derive(Debug, Deserialize)]
struct Args {
    operator: String,
    title: String,
    file: Option<String>,
    extras: Option<Vec<String>>,
    body: Option<String>,
    force: Option<bool>,
    uri: Option<String>,
}

/// The edit that remembers, where the new heading will be, and every file it changes.
pub fn plan(st: &Snapshot, arguments: &[Value]) -> Result<(WorkspaceEdit, Location, Vec<Uri>)> {
    let args: Args = arguments.first().cloned().and_then(|v| serde_json::from_value(v).ok()).ok_or_else(|| {
        Error::invalid_params("pass one object: {operator: \"when\"|\"how\", title, file?, extras?, body?}")
    })?;
    let other = args.operator.trim();
    let op = Op::from_word(other)
        .ok_or_else(|| Error::invalid_params(format!("operator must be \"when\" or \"how\", not \"{other}\"")))?;
    let root = args
        .uri
        .as_deref()
        .and_then(|u| u.parse::<Uri>().ok())
        .and_then(|u| st.locate_uri(&u))
        .map(|(i, _)| i)
        .or((st.roots.len() == 1).then_some(0))
        .ok_or_else(|| Error::invalid_params("pass `uri`: a file of the workspace folder to write in"))?;
    let r = &st.roots[root];
    let req = Request {
        op: Some(op),
        title: args.title,
        file: args.file,
        trigger: None,
        extras: args.extras.unwrap_or_default(),
        body: args.body.unwrap_or_default(),
        force: args.force.unwrap_or(false),
        words: remember::Words::Arguments,
    };
    let plan = remember::plan(&r.ws, &req).map_err(|why| Error::invalid_params(format!("not remembered: {why}")))?;
    let decision_uri = convert::uri_of(&r.path, &plan.decision_path)
        .ok_or_else(|| Error::invalid_params(format!("no URI for {}", plan.decision_path)))?;
    let line = plan.line.saturating_sub(1) as u32;
    let at = Location { uri: decision_uri, range: Range::new(Position::new(line, 0), Position::new(line, 0)) };
    // Always as document changes: the decision file's edit and the index's, in order.
    let mut edit = convert::workspace_edit(&r.ws, &r.path, &plan.change, st.enc);
    if let Some(changes) = edit.changes.take() {
        let ops = plan
            .change
            .edits
            .iter()
            .filter_map(|e| convert::uri_of(&r.path, &e.path))
            .filter_map(|uri| {
                let edits = changes.get(&uri)?.iter().cloned().map(OneOf::Left).collect();
                Some(DocumentChangeOperation::Edit(TextDocumentEdit {
                    text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
                    edits,
                }))
            })
            .collect();
        edit.document_changes = Some(DocumentChanges::Operations(ops));
    }
    let mut changed: Vec<Uri> = plan.change.paths().filter_map(|p| convert::uri_of(&r.path, p)).collect();
    changed.dedup();
    Ok((edit, at, changed))
}
