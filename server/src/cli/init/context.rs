//! Gemini CLI's `context.fileName` in `.gemini/settings.json`: naming `AGENTS.md` beside `GEMINI.md`, so that Gemini reads the instructions the other agents share (a text edit, as `settings` does for hooks).

use serde_json::Value;

use super::settings::{
    content_lines, indent_unit, insert_members, member, object_at, pretty, skip_ws, without_comments,
};

/// `text` (Gemini CLI's settings) with `context.fileName` naming `AGENTS.md`
/// and `GEMINI.md` (so that Gemini reads the instructions the other agents
/// share), when it names no file yet; `Some` with whether it changed, `None`
/// when the file names its own files (then the block goes to `GEMINI.md`).
pub fn merge_context(text: Option<&str>) -> Result<Option<(String, bool)>, String> {
    let original = text.unwrap_or("").strip_prefix('\u{feff}').unwrap_or(text.unwrap_or(""));
    let bom = if text.is_some_and(|t| t.starts_with('\u{feff}')) { "\u{feff}" } else { "" };
    let files = serde_json::json!(["AGENTS.md", "GEMINI.md"]);
    if original.trim().is_empty() {
        let v = serde_json::json!({ "context": { "fileName": files } });
        return Ok(Some((format!("{}\n", pretty(&v, "  ")), true)));
    }
    let blanked = without_comments(original);
    let t = blanked.as_str();
    let v: Value = serde_json::from_str(t)
        .map_err(|e| format!("line {}, column {}: not valid JSON ({e})", e.line(), e.column()))?;
    fn names(n: &Value) -> Vec<&str> {
        match n {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        }
    }
    let unit = indent_unit(&content_lines(t));
    let nl = if t.contains("\r\n") { "\r\n" } else { "\n" };
    let top = object_at(t, skip_ws(t, 0)).ok_or("the file is not a JSON object")?;
    let (at, add) = match v.get("context") {
        None => insert_members(&top, &[("context", &serde_json::json!({ "fileName": files }))], &unit, 1),
        Some(Value::Object(c)) => match c.get("fileName") {
            Some(n) if names(n).contains(&"AGENTS.md") => return Ok(Some((text.unwrap_or("").to_string(), false))),
            Some(_) => return Ok(None),
            None => {
                let span = member(t, &top, "context").and_then(|at| object_at(t, at)).ok_or("cannot read `context`")?;
                insert_members(&span, &[("fileName", &files)], &unit, 2)
            }
        },
        Some(_) => return Ok(None),
    };
    let mut out = original.to_string();
    out.insert_str(at, &add.replace('\n', nl));
    Ok(Some((format!("{bom}{out}"), true)))
}
