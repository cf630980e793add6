//! Findings as JSON (spec: one object per finding), for `check --format json` and the MCP `check` tool.

use serde_json::json;

use crate::model::Workspace;
use crate::rules::Finding;

/// The JSON array of findings (spec: one object per finding).
pub fn json(ws: &Workspace, findings: &[Finding]) -> serde_json::Value {
    serde_json::Value::Array(findings.iter().filter_map(|f| json_item(ws, f)).collect())
}

/// One finding as its JSON object.
pub fn json_item(ws: &Workspace, f: &Finding) -> Option<serde_json::Value> {
    let file = ws.file(f.file)?;
    let (line, column) = file.line_col_1(f.range.start);
    let (end_line, end_column) = file.line_col_1(f.range.end);
    let related: Vec<serde_json::Value> = f
        .related
        .iter()
        .filter_map(|r| {
            let rf = ws.file(r.file)?;
            let (l, c) = rf.line_col_1(r.range.start);
            Some(json!({"file": rf.path, "line": l, "column": c, "message": r.message}))
        })
        .collect();
    Some(json!({
        "file": file.path,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "code": f.rule.code(),
        "severity": f.severity.as_str(),
        "message": f.message(ws),
        "related": related,
        "fixable": f.safe_fix().is_some(),
    }))
}
