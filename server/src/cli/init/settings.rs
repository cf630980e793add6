//! Merges the hooks into an agent's JSON settings (`.claude/settings.json`, `.codex/hooks.json`, `.gemini/settings.json`) and the MCP server into `.mcp.json`, through the file's JSONC syntax tree: every byte outside the inserted entries stays as it was, but for the two the tree makes ([`jsonc`]).
//!
//! The file is parsed as JSON with comments ([`jsonc`]: a malformed file is
//! refused with its line and column, and nothing is written); the missing
//! entries are added to the top-level object, its `hooks` object or an
//! event's array, indented like the file and with its line endings. An
//! event that already runs `memory-index-lsp hook` is left alone, so a
//! second run changes nothing.

use serde_json::{Map, Value};

use super::jsonc;

/// `text` (the settings file, None when absent) with every event of
/// `wanted` (event → matcher groups, as in the plugin's hooks.json) that
/// does not run `memory-index-lsp hook` yet ([`is_our_command`]); the events added. Err names the problem.
pub fn merge(text: Option<&str>, wanted: &Map<String, Value>) -> Result<(String, Vec<String>), String> {
    bom_kept(text, |t| {
        let (upgraded, mut changed) = match t {
            Some(t) => upgrade(t, wanted)?,
            None => (String::new(), Vec::new()),
        };
        let (out, added) = merge_text(t.map(|_| upgraded.as_str()), wanted)?;
        for e in added {
            if !changed.contains(&e) {
                changed.push(e);
            }
        }
        Ok((out, changed))
    })
}

/// `text` with each event's plain hook command (`memory-index-lsp hook --agent
/// codex`, as an older `init` wrote it) replaced by the command `wanted` runs
/// for that event when that one guards it (`Agent::hook_command`: a teammate
/// without the program gets no error on every event); the events changed.
/// Only that exact string, as a whole JSON string, inside that event's array.
fn upgrade(text: &str, wanted: &Map<String, Value>) -> Result<(String, Vec<String>), String> {
    let unchanged = || Ok((text.to_string(), Vec::new()));
    let Ok(root) = jsonc::parse(text) else { return unchanged() };
    let Some(hooks) = jsonc::top(&root).ok().and_then(|top| jsonc::object(&top, "hooks", "hooks").ok().flatten())
    else {
        return unchanged();
    };
    let mut changed: Vec<String> = Vec::new();
    for (event, groups) in wanted {
        let new = groups.pointer("/0/hooks/0/command").and_then(Value::as_str).unwrap_or("");
        let Some(plain) = new.split_once("then ").and_then(|(_, rest)| rest.split_once(';')).map(|(p, _)| p) else {
            continue;
        };
        let Some(have) = jsonc::array(&hooks, event, event).ok().flatten() else { continue };
        if jsonc::replace_strings(&have, plain, new) > 0 {
            changed.push(event.clone());
        }
    }
    if changed.is_empty() {
        return unchanged();
    }
    Ok((root.to_string(), changed))
}

/// `f` of `text` without its byte-order mark, the mark put back on what it
/// returns: a file an editor saved with one is read as JSON (found by
/// review: it was refused as "expected value at line 1 column 1").
fn bom_kept<T>(
    text: Option<&str>,
    f: impl FnOnce(Option<&str>) -> Result<(String, T), String>,
) -> Result<(String, T), String> {
    match text.and_then(|t| t.strip_prefix('\u{feff}')) {
        Some(rest) => f(Some(rest)).map(|(out, x)| (format!("\u{feff}{out}"), x)),
        None => f(text),
    }
}

fn merge_text(text: Option<&str>, wanted: &Map<String, Value>) -> Result<(String, Vec<String>), String> {
    let original = text.unwrap_or("");
    if original.trim().is_empty() {
        let events: Vec<String> = wanted.keys().cloned().collect();
        let v = serde_json::json!({ "hooks": wanted });
        return Ok((format!("{}\n", pretty(&v, "  ")), events));
    }
    // Read through its syntax tree (comments allowed), written with every byte it does not change kept.
    let root = jsonc::parse(original)?;
    let v = root.value().map_or(Value::Null, |n| jsonc::value(&n));
    let Value::Object(top) = &v else { return Err("the file is not a JSON object".into()) };
    let hooks = match top.get("hooks") {
        None => None,
        Some(Value::Object(h)) => Some(h),
        Some(_) => return Err("`hooks` is not an object".into()),
    };
    // Per matcher group: a memory set up when the pre-tool hook matched `Bash` only gets the
    // file tools' group added, and nothing else changes.
    let mut missing: Vec<(&String, Value)> = Vec::new();
    for (event, groups) in wanted {
        match hooks.and_then(|h| h.get(event)) {
            None => missing.push((event, groups.clone())),
            Some(Value::Array(have)) => {
                let lacking: Vec<Value> =
                    groups.as_array().into_iter().flatten().filter(|g| !has_group(have, g)).cloned().collect();
                if !lacking.is_empty() {
                    missing.push((event, Value::Array(lacking)));
                }
            }
            Some(_) => return Err(format!("`hooks.{event}` is not an array")),
        }
    }
    if missing.is_empty() {
        return Ok((original.to_string(), Vec::new()));
    }
    let top = jsonc::top(&root)?;
    match jsonc::object(&top, "hooks", "hooks")? {
        None => {
            let add: Map<String, Value> = missing.iter().map(|(e, g)| ((*e).clone(), g.clone())).collect();
            top.append("hooks", jsonc::input(&Value::Object(add)));
        }
        Some(hooks) => {
            for (event, groups) in &missing {
                match jsonc::array(&hooks, event, &format!("hooks.{event}"))? {
                    None => {
                        hooks.append(event, jsonc::input(groups));
                    }
                    Some(have) => {
                        for g in groups.as_array().into_iter().flatten() {
                            have.append(jsonc::input(g));
                        }
                    }
                }
            }
        }
    }
    let out = root.to_string();
    Ok((out, missing.iter().map(|(e, _)| (*e).clone()).collect()))
}

/// `text` (a `.mcp.json`, None when absent) with `server` added as
/// `mcpServers.memory-index`, unless a server there already runs
/// `memory-index-lsp mcp`; whether it was added. Every other byte is kept.
pub fn merge_mcp(text: Option<&str>, server: &Value) -> Result<(String, bool), String> {
    bom_kept(text, |t| merge_mcp_text(t, server))
}

fn merge_mcp_text(text: Option<&str>, server: &Value) -> Result<(String, bool), String> {
    let original = text.unwrap_or("");
    if original.trim().is_empty() {
        let v = serde_json::json!({ "mcpServers": { "memory-index": server } });
        return Ok((format!("{}\n", pretty(&v, "  ")), true));
    }
    let root = jsonc::parse(original)?;
    let v = root.value().map_or(Value::Null, |n| jsonc::value(&n));
    let Value::Object(top) = &v else { return Err("the file is not a JSON object".into()) };
    let servers = match top.get("mcpServers") {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return Err("`mcpServers` is not an object".into()),
    };
    let ours = |s: &Value| {
        let program = s.get("command").and_then(Value::as_str).unwrap_or("");
        let args: Vec<&str> =
            s.get("args").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        (program == "memory-index-lsp" || program.ends_with("/memory-index-lsp")) && args.first() == Some(&"mcp")
    };
    if servers.is_some_and(|m| m.values().any(ours)) {
        return Ok((original.to_string(), false));
    }
    if servers.is_some_and(|m| m.contains_key("memory-index")) {
        return Err("`mcpServers.memory-index` runs another command; rename it, then run init again".into());
    }
    let top = jsonc::top(&root)?;
    match jsonc::object(&top, "mcpServers", "mcpServers")? {
        None => {
            top.append("mcpServers", jsonc::input(&serde_json::json!({ "memory-index": server })));
        }
        Some(servers) => {
            servers.append("memory-index", jsonc::input(server));
        }
    }
    Ok((root.to_string(), true))
}

/// `memory-index-lsp hook` as a whole word (with arguments or not, by path or not), not `memory-index-lsp hooky`.
fn is_our_command(c: &str) -> bool {
    c.split_whitespace().collect::<Vec<_>>().windows(2).any(|w| {
        let program = w[0].trim_matches(['"', '\'']);
        // `then memory-index-lsp hook; fi`: the word ends at the `;` (`Agent::hook_command`).
        (program == "memory-index-lsp" || program.ends_with("/memory-index-lsp"))
            && w[1].trim_end_matches(';') == "hook"
    })
}

/// Whether an event's groups already run our command.
/// Whether `have` (an event's groups) runs `memory-index-lsp hook` for what
/// the group `want` matches: a group of ours with the same matcher, or one
/// that matches every tool (no matcher, `*` or empty).
fn has_group(have: &[Value], want: &Value) -> bool {
    // A matcher as the tools it names (`Bash|Read`), or every tool (none, `*`, `.*`, empty).
    let tools = |g: &Value| -> Option<Vec<String>> {
        let m = g.get("matcher").and_then(Value::as_str).unwrap_or("").trim();
        (!matches!(m, "" | "*" | ".*")).then(|| m.split('|').map(|t| t.trim().to_string()).collect())
    };
    let wanted = tools(want);
    have.iter().any(|g| {
        runs_ours(std::slice::from_ref(g))
            && match (tools(g), &wanted) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(t), Some(w)) => w.iter().all(|x| t.contains(x)),
            }
    })
}

fn runs_ours(groups: &[Value]) -> bool {
    groups
        .iter()
        .filter_map(|g| g.get("hooks")?.as_array())
        .flatten()
        .any(|h| h.get("command").and_then(Value::as_str).is_some_and(is_our_command))
}

/// `v` pretty-printed with `unit` for each level (a new file's text).
pub(super) fn pretty(v: &Value, unit: &str) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes()),
    );
    if v.serialize(&mut ser).is_err() {
        return v.to_string();
    }
    String::from_utf8(buf).unwrap_or_else(|_| v.to_string())
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
