//! Gemini CLI's `context.fileName` in `.gemini/settings.json`: naming `AGENTS.md` beside `GEMINI.md`, so that Gemini reads the instructions the other agents share (through the JSONC syntax tree, as `settings` does for hooks).

use serde_json::Value;

use super::jsonc;
use super::settings::pretty;

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
    let root = jsonc::parse(original)?;
    let top = jsonc::top(&root)?;
    fn names(n: &Value) -> Vec<&str> {
        match n {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        }
    }
    match jsonc::member(&top, "context").and_then(|p| p.value()) {
        None => {
            top.append("context", jsonc::input(&serde_json::json!({ "fileName": files })));
        }
        Some(c) => {
            let Some(c) = c.as_object() else { return Ok(None) };
            match jsonc::member(&c, "fileName").and_then(|p| p.value()).map(|v| jsonc::value(&v)) {
                Some(n) if names(&n).contains(&"AGENTS.md") => {
                    return Ok(Some((text.unwrap_or("").to_string(), false)))
                }
                Some(_) => return Ok(None),
                None => {
                    c.append("fileName", jsonc::input(&files));
                }
            }
        }
    }
    let out = root.to_string();
    Ok(Some((format!("{bom}{out}"), true)))
}
