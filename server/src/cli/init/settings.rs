//! Merges the hooks into `.claude/settings.json` as text edits: every byte outside the inserted entries stays as it was.
//!
//! The file is parsed with serde_json first (a malformed file is refused
//! with its line and column, and nothing is written); then a small scanner
//! finds the spans of the top-level object, its `hooks` object and each
//! event's array, and the missing entries are inserted there, indented
//! like the file and with its line endings. An event that already runs
//! `memory-index-lsp hook` is left alone, so a second run changes nothing.

use serde_json::{Map, Value};

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
    let blanked = without_comments(text);
    let b = blanked.as_str();
    let Ok(Value::Object(top)) = serde_json::from_str::<Value>(b) else { return Ok((text.to_string(), Vec::new())) };
    if !matches!(top.get("hooks"), Some(Value::Object(_))) {
        return Ok((text.to_string(), Vec::new()));
    }
    let Some(top_span) = object_at(b, skip_ws(b, 0)) else { return Ok((text.to_string(), Vec::new())) };
    let Some(hooks_span) = member(b, &top_span, "hooks").and_then(|at| object_at(b, at)) else {
        return Ok((text.to_string(), Vec::new()));
    };
    let mut edits: Vec<(std::ops::Range<usize>, String, String)> = Vec::new();
    for (event, groups) in wanted {
        let new = groups.pointer("/0/hooks/0/command").and_then(Value::as_str).unwrap_or("");
        let Some(plain) = new.split_once("then ").and_then(|(_, rest)| rest.split_once(';')).map(|(p, _)| p) else {
            continue;
        };
        let Some(span) = member(b, &hooks_span, event).and_then(|at| array_at(b, at)) else { continue };
        let end = span.last_end.unwrap_or(span.open);
        let (old_lit, new_lit) =
            (serde_json::to_string(plain).unwrap_or_default(), serde_json::to_string(new).unwrap_or_default());
        let mut from = span.open;
        while let Some(i) = b[from..end].find(&old_lit) {
            edits.push((from + i..from + i + old_lit.len(), new_lit.clone(), event.clone()));
            from += i + old_lit.len();
        }
    }
    let mut changed: Vec<String> = Vec::new();
    let mut out = text.to_string();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    for (range, new, event) in edits {
        out.replace_range(range, &new);
        if !changed.contains(&event) {
            changed.push(event);
        }
    }
    Ok((out, changed))
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
    // Read with its comments blanked (same offsets), written with them kept.
    let blanked = without_comments(original);
    let text = blanked.as_str();
    let v: Value = serde_json::from_str(text)
        .map_err(|e| format!("line {}, column {}: not valid JSON ({e})", e.line(), e.column()))?;
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
    let unit = indent_unit(&content_lines(text));
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let place = "cannot find where to insert the hooks; add them by hand (see editors/claude-code/hooks/hooks.json)";
    let top_span = object_at(text, skip_ws(text, 0)).ok_or(place)?;
    let mut edits: Vec<(usize, String)> = Vec::new();
    match member(text, &top_span, "hooks") {
        None => {
            let mut add = Map::new();
            for (event, groups) in &missing {
                add.insert((*event).clone(), groups.clone());
            }
            edits.push(insert_members(&top_span, &[("hooks", &Value::Object(add))], &unit, 1));
        }
        Some(hooks_at) => {
            let hooks_span = object_at(text, hooks_at).ok_or(place)?;
            let mut absent: Vec<(&str, &Value)> = Vec::new();
            for (event, groups) in &missing {
                match member(text, &hooks_span, event) {
                    None => absent.push((event.as_str(), groups)),
                    Some(at) => {
                        let span = array_at(text, at).ok_or(place)?;
                        let added: Vec<&Value> = groups.as_array().into_iter().flatten().collect();
                        edits.push(append_elements(&span, &added, &unit, 3));
                    }
                }
            }
            if !absent.is_empty() {
                edits.push(insert_members(&hooks_span, &absent, &unit, 2));
            }
        }
    }
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = original.to_string();
    for (at, s) in edits {
        out.insert_str(at, &s.replace('\n', nl));
    }
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
    let blanked = without_comments(original);
    let text = blanked.as_str();
    let v: Value = serde_json::from_str(text)
        .map_err(|e| format!("line {}, column {}: not valid JSON ({e})", e.line(), e.column()))?;
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
    let unit = indent_unit(&content_lines(text));
    let nl = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let place = "cannot find where to insert the server; add it by hand (see editors/claude-code/.mcp.json)";
    let top_span = object_at(text, skip_ws(text, 0)).ok_or(place)?;
    let (at, add) = match member(text, &top_span, "mcpServers") {
        None => {
            let mut m = Map::new();
            m.insert("memory-index".into(), server.clone());
            insert_members(&top_span, &[("mcpServers", &Value::Object(m))], &unit, 1)
        }
        Some(at) => insert_members(&object_at(text, at).ok_or(place)?, &[("memory-index", server)], &unit, 2),
    };
    let mut out = original.to_string();
    out.insert_str(at, &add.replace('\n', nl));
    Ok((out, true))
}

/// The lines of `text` (comments blanked) that hold something: what the indentation is read from.
pub(super) fn content_lines(text: &str) -> String {
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| format!("{l}\n")).collect()
}

/// `text` with its `//` and `/* */` comments (outside strings) turned into spaces, byte for
/// byte, line breaks kept: Gemini CLI reads its settings with comments (found by review: a
/// commented `.gemini/settings.json` was refused as "not valid JSON", and so was the whole
/// init); serde and the scanner read this copy, the file's own text is what is written.
pub(super) fn without_comments(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut in_string) = (0, false);
    while i < b.len() {
        match (in_string, b[i]) {
            (true, b'\\') => i += 1,
            (_, b'"') => in_string = !in_string,
            (false, b'/') if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
                continue;
            }
            (false, b'/') if b.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                for o in &mut out[i..end] {
                    if !matches!(*o, b'\n' | b'\r') {
                        *o = b' ';
                    }
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // Whole comments (every byte of their characters) became spaces: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
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

/// A JSON container: `open` at its `{`/`[`, and the end of its last element (None when empty).
pub(super) struct Span {
    open: usize,
    last_end: Option<usize>,
}

pub(super) fn skip_ws(text: &str, mut i: usize) -> usize {
    let b = text.as_bytes();
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

/// The end of the JSON value starting at `i` (already validated by serde_json).
fn value_end(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    match *b.get(i)? {
        b'"' => {
            let mut j = i + 1;
            while j < b.len() {
                match b[j] {
                    b'\\' => j += 2,
                    b'"' => return Some(j + 1),
                    _ => j += 1,
                }
            }
            None
        }
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = value_end(text, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let j = b[i..].iter().position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'));
            Some(j.map_or(b.len(), |j| i + j))
        }
    }
}

/// Walks a container at `open`; calls `each(key_or_none, value_start)` per element.
fn walk(text: &str, open: usize, mut each: impl FnMut(Option<&str>, usize)) -> Option<Span> {
    let b = text.as_bytes();
    let object = *b.get(open)? == b'{';
    let mut i = skip_ws(text, open + 1);
    let mut last_end = None;
    loop {
        match *b.get(i)? {
            b'}' | b']' => return Some(Span { open, last_end }),
            b',' => i = skip_ws(text, i + 1),
            _ => {
                let key = if object {
                    let end = value_end(text, i)?;
                    let key = text.get(i + 1..end - 1)?;
                    i = skip_ws(text, end);
                    if *b.get(i)? != b':' {
                        return None;
                    }
                    i = skip_ws(text, i + 1);
                    Some(key)
                } else {
                    None
                };
                each(key, i);
                let end = value_end(text, i)?;
                last_end = Some(end);
                i = skip_ws(text, end);
            }
        }
    }
}

pub(super) fn object_at(text: &str, at: usize) -> Option<Span> {
    (text.as_bytes().get(at) == Some(&b'{')).then(|| walk(text, at, |_, _| {}))?
}

fn array_at(text: &str, at: usize) -> Option<Span> {
    (text.as_bytes().get(at) == Some(&b'[')).then(|| walk(text, at, |_, _| {}))?
}

/// Where the value of `key` starts in the object at `span` (the last one, as serde_json reads duplicates).
pub(super) fn member(text: &str, span: &Span, key: &str) -> Option<usize> {
    let mut found = None;
    walk(text, span.open, |k, at| {
        if k.is_some_and(|k| serde_json::from_str::<String>(&format!("\"{k}\"")).is_ok_and(|k| k == key)) {
            found = Some(at);
        }
    })?;
    found
}

/// The edit adding `"key": value` members at the end of the object at `span`, `depth` levels deep.
pub(super) fn insert_members(span: &Span, members: &[(&str, &Value)], unit: &str, depth: usize) -> (usize, String) {
    let inner = unit.repeat(depth);
    let bodies: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}: {}", Value::from(*k), indent_rest(&pretty(v, unit), &inner)))
        .collect();
    add_after_last(span, &bodies, unit, depth)
}

/// The edit appending `values` to the array at `span`.
fn append_elements(span: &Span, values: &[&Value], unit: &str, depth: usize) -> (usize, String) {
    let inner = unit.repeat(depth);
    let bodies: Vec<String> = values.iter().map(|v| indent_rest(&pretty(v, unit), &inner)).collect();
    add_after_last(span, &bodies, unit, depth)
}

/// After the container's last element, or alone inside an empty one.
fn add_after_last(span: &Span, bodies: &[String], unit: &str, depth: usize) -> (usize, String) {
    let inner = unit.repeat(depth);
    let body = bodies.join(&format!(",\n{inner}"));
    match span.last_end {
        Some(end) => (end, format!(",\n{inner}{body}")),
        None => (span.open + 1, format!("\n{inner}{body}\n{}", unit.repeat(depth.saturating_sub(1)))),
    }
}

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

/// Indents every line but the first by `prefix`.
fn indent_rest(s: &str, prefix: &str) -> String {
    s.replace('\n', &format!("\n{prefix}"))
}

/// The file's indentation unit: the leading whitespace of its first indented line (two spaces by default).
pub(super) fn indent_unit(text: &str) -> String {
    text.lines().map(|l| &l[..l.len() - l.trim_start().len()]).find(|w| !w.is_empty()).unwrap_or("  ").to_string()
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
