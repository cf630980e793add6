//! The `memory-index.remember` command: `ide::remember`'s plan, applied by the client as one workspace edit.
//!
//! Arguments (one object): `operator` ("when" or "how"), `title`, and
//! optionally `file`, `extras` (list), `body`, `force`, and `uri` (any file of
//! the workspace folder to write in; needed only with several folders). The
//! server asks the client to apply the edit (`workspace/applyEdit`: the new
//! decision file created when needed, then one minimal edit per file) and
//! answers the new heading's location, so the editor can open it. A refusal
//! is a request error whose message says what to do; nothing is edited.

use serde::Deserialize;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;

use super::convert;
use super::state::Snapshot;
use crate::ide::remember::{self, Request};
use crate::syntax::index::Op;
use crate::text::TextRange;

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

/// The edit that remembers, and where the new heading will be.
pub fn plan(st: &Snapshot, arguments: &[Value]) -> Result<(WorkspaceEdit, Location)> {
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
    };
    let plan = remember::plan(&r.ws, &req).map_err(|why| Error::invalid_params(format!("not remembered: {why}")))?;
    let uri_of =
        |rel: &str| convert::uri_of(&r.path, rel).ok_or_else(|| Error::invalid_params(format!("no URI for {rel}")));
    let decision_uri = uri_of(&plan.decision_path)?;
    let mut ops: Vec<DocumentChangeOperation> = Vec::new();
    let old = match &plan.decision_old {
        Some(old) => old.as_str(),
        None => {
            ops.push(DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                uri: decision_uri.clone(),
                options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
                annotation_id: None,
            })));
            ""
        }
    };
    for (uri, path, old, new) in [
        (decision_uri.clone(), plan.decision_path.as_str(), old, plan.decision_new.as_str()),
        (uri_of(&plan.index_path)?, plan.index_path.as_str(), plan.index_old.as_str(), plan.index_new.as_str()),
    ] {
        let (range, insert) = minimal(old, new);
        let lsp_range = match r.ws.file_id(path).and_then(|id| r.ws.file(id)) {
            Some(f) if !old.is_empty() => convert::range(f, range, st.enc),
            _ => Range::default(),
        };
        ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier { uri, version: None },
            edits: vec![OneOf::Left(TextEdit { range: lsp_range, new_text: insert.to_string() })],
        }));
    }
    let line = plan.line.saturating_sub(1) as u32;
    let at = Location { uri: decision_uri, range: Range::new(Position::new(line, 0), Position::new(line, 0)) };
    Ok((
        WorkspaceEdit {
            changes: None,
            document_changes: Some(DocumentChanges::Operations(ops)),
            change_annotations: None,
        },
        at,
    ))
}

/// The one replacement that turns `old` into `new`: the whole lines between
/// their common prefix and common suffix (an editor then shows whole lines
/// added, not a change starting mid-line).
fn minimal<'a>(old: &str, new: &'a str) -> (TextRange, &'a str) {
    let pre = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    // Back to the start of the line the difference is in.
    let pre = old[..floor(old, pre)].rfind('\n').map_or(0, |i| i + 1);
    let max_suf = old.len().min(new.len()) - pre;
    let suf = old.bytes().rev().zip(new.bytes().rev()).take(max_suf).take_while(|(a, b)| a == b).count();
    // Forward to the start of a line (the common suffix is the same text on both sides).
    let mut end = old.len() - suf;
    if end > 0 && !old[..end].ends_with('\n') {
        end = old[end..].find('\n').map_or(old.len(), |i| end + i + 1);
    }
    let suf = old.len() - end;
    (TextRange::new(pre, end), &new[pre..new.len() - suf])
}

/// `i`, or the nearest character boundary of `s` before it.
fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_edit_is_the_changed_middle() {
        assert_eq!(minimal("a\nb\n", "a\nx\nb\n"), (TextRange::new(2, 2), "x\n"));
        assert_eq!(minimal("abc\n", "abc\n"), (TextRange::new(4, 4), ""));
        assert_eq!(minimal("", "new"), (TextRange::new(0, 0), "new"));
        assert_eq!(minimal("é\n", "è\n"), (TextRange::new(0, 3), "è\n"), "whole lines, never inside a character");
        assert_eq!(
            minimal("## a.md\n/x\n## c.md\n", "## a.md\n/x\n## b.md\n/y\n## c.md\n"),
            (TextRange::new(11, 11), "## b.md\n/y\n")
        );
    }
}
