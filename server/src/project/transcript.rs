//! Claude Code transcripts and Codex rollouts (JSONL, one object a line) read into turns for `recall-stats`: which lines are prompts, what reached the agent after each.
//!
//! Claude Code:
//! - a **prompt** is a `"type": "user"` line (not `isMeta`, not a sidechain)
//!   whose `message.content` is text, or text blocks without a
//!   `tool_result`; a slash command (`<command-name>/when</command-name>
//!   <command-args>x</command-args>`) counts as the prompt `/when x`;
//! - what reached the agent in a turn is every string of the turn's `user`
//!   (tool results, skill output), `attachment` (hook output) and `system`
//!   lines; strings are taken wherever they sit in a line, so nothing
//!   depends on one client version's field names;
//! - what the agent did in a turn (its text and its tool calls' inputs: a
//!   file it read, a command it ran, a skill it called) is every string of
//!   the turn's `assistant` lines, kept apart, to judge whether an injected
//!   decision was used;
//! - lines that are not JSON objects (or that the reader skipped as too
//!   long) are counted as malformed and skipped.
//!
//! Codex (`$CODEX_HOME/sessions/…/rollout-*.jsonl`, lines `{"type", "payload"}`;
//! recorded from Codex 0.169 by the agents' end-to-end test):
//! - the session is `session_meta`'s `id`;
//! - a **prompt** is an `event_msg` whose `item_completed` item is a
//!   `UserMessage` (its text blocks), or an older `user_message`: what the
//!   person typed, never the instructions Codex sends as user messages;
//! - what reached the agent is every string of a `response_item` message
//!   from the `developer` or the `user` (hook output, instructions) and of
//!   a tool call's output (`function_call_output`, `custom_tool_call_output`);
//! - what the agent did is every string of its `assistant` messages and of
//!   its tool calls (`function_call` arguments, `custom_tool_call` input:
//!   a command it ran, a patch it applied).
//!
//! Fed a line at a time ([`Session::line`]): a caller reading a large file
//! through `read::lines` never holds more than one line of it.

use serde_json::Value;

use crate::model::Workspace;
use crate::recall::stats::{self as recall_stats, Stats, Turn};

/// Most text kept from what reached the agent in one turn (the hook's
/// output comes first in a turn; a turn that reads huge files keeps this much).
pub const MAX_TURN_CONTEXT: usize = 4 << 20;

/// Most of a transcript the Stop hook reads: its last this many bytes (a
/// long session's earlier turns are left out rather than read slowly).
pub const STOP_TAIL_BYTES: u64 = 8 << 20;

/// The prompts the person typed in the transcript at `path`, from its last
/// [`STOP_TAIL_BYTES`] (through the guarded reader: a FIFO, a device or a
/// link out of `~` is refused, each line bounded).
pub fn prompts_of(path: &std::path::Path) -> Result<Vec<String>, String> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = super::read::open_regular(None, path).map_err(|e| format!("{}: {e}", path.display()))?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    let skip_partial = len > STOP_TAIL_BYTES;
    if skip_partial {
        file.seek(SeekFrom::Start(len - STOP_TAIL_BYTES)).map_err(|e| e.to_string())?;
    }
    let mut session = Session::new("stop");
    let mut first = skip_partial;
    super::read::lines((&mut file).take(STOP_TAIL_BYTES), 1 << 20, STOP_TAIL_BYTES + 1, |l| {
        if std::mem::take(&mut first) {
            return; // the line the tail starts inside
        }
        match l {
            super::read::Line::Text(t) if t.contains("\"user\"") => session.line(t),
            _ => {}
        }
    })
    .map_err(|e| e.to_string())?;
    Ok(session.prompts().map(str::to_string).collect())
}

/// Counts for one transcript's text. `name` labels the session when the lines do not carry a `sessionId`.
pub fn session(ws: &Workspace, name: &str, text: &str, threshold: f64) -> Stats {
    let mut s = Session::new(name);
    text.lines().for_each(|l| s.line(l));
    s.finish(ws, threshold)
}

/// One transcript, fed a line at a time.
#[derive(Debug)]
pub struct Session {
    stats: Stats,
    name: String,
    turns: Vec<Turn>,
}

impl Session {
    /// A session labelled `name` until a line carries a `sessionId`.
    pub fn new(name: &str) -> Session {
        Session { stats: Stats { session: name.to_string(), ..Default::default() }, name: name.into(), turns: vec![] }
    }

    /// A line the reader skipped (too long to parse): counted as malformed.
    pub fn skipped_line(&mut self) {
        self.stats.malformed_lines += 1;
    }

    /// One line of the transcript.
    pub fn line(&mut self, line: &str) {
        if line.trim().is_empty() {
            return;
        }
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            self.stats.malformed_lines += 1;
            return;
        };
        if !v.is_object() {
            self.stats.malformed_lines += 1;
            return;
        }
        if let Some(id) = v.get("sessionId").and_then(Value::as_str) {
            if self.stats.session == self.name && !id.is_empty() {
                self.stats.session = id.to_string();
            }
        }
        if v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            return;
        }
        if let (Some(kind), Some(payload)) = (v.get("type").and_then(Value::as_str), v.get("payload")) {
            self.codex_line(kind, payload);
            return;
        }
        if let Some(prompt) = prompt_of(&v) {
            self.turns.push(Turn { prompt, ..Default::default() });
            return;
        }
        if v.get("type").and_then(Value::as_str) == Some("assistant") {
            if let (Some(turn), Some(message)) = (self.turns.last_mut(), v.get("message")) {
                collect_strings(message, &mut turn.actions);
            }
            return;
        }
        // Not the model's own words, and not the client's copies of earlier
        // requests (`api-request-*` lines repeat the whole conversation).
        if !matches!(v.get("type").and_then(Value::as_str), Some("user" | "attachment" | "system")) {
            return;
        }
        if let Some(turn) = self.turns.last_mut() {
            collect_strings(&v, &mut turn.context);
        }
    }

    /// A Codex prompt, once: a rollout may record it both as a `user_message`
    /// and as a completed `UserMessage` item, one after the other.
    fn codex_prompt(&mut self, prompt: String) {
        if self.turns.last().is_some_and(|t| t.prompt == prompt && t.actions.is_empty()) {
            return;
        }
        self.turns.push(Turn { prompt, ..Default::default() });
    }

    /// One line of a Codex rollout: its `type` and `payload`.
    fn codex_line(&mut self, kind: &str, p: &Value) {
        let field = |k: &str| p.get(k).and_then(Value::as_str);
        match (kind, field("type")) {
            ("session_meta", _) => {
                if let Some(id) = field("id").filter(|id| !id.is_empty()) {
                    if self.stats.session == self.name {
                        self.stats.session = id.to_string();
                    }
                }
            }
            ("event_msg", Some("item_completed")) => {
                let item = p.get("item");
                if item.and_then(|i| i.get("type")).and_then(Value::as_str) != Some("UserMessage") {
                    return;
                }
                let texts: Vec<&str> = item
                    .and_then(|i| i.get("content"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|b| b.get("text").and_then(Value::as_str))
                    .collect();
                if !texts.is_empty() {
                    self.codex_prompt(texts.join("\n"));
                }
            }
            // Older rollouts: a `user_message` of kind `plain` is typed; instructions and the
            // environment are other kinds.
            ("event_msg", Some("user_message")) if field("kind").is_none_or(|k| k == "plain") => {
                if let Some(text) = field("message").filter(|t| !t.trim().is_empty()) {
                    self.codex_prompt(text.to_string());
                }
            }
            ("response_item", Some(t)) => {
                let Some(turn) = self.turns.last_mut() else { return };
                let role = field("role");
                match t {
                    "message" if role == Some("assistant") => collect_strings(p, &mut turn.actions),
                    "message" => collect_strings(p, &mut turn.context),
                    "function_call" | "custom_tool_call" | "local_shell_call" => {
                        collect_strings(p, &mut turn.actions);
                        // The call's arguments are JSON in a string: their own strings too, unescaped
                        // (`resolve "when …"` as the shell saw it).
                        if let Some(args) = field("arguments").and_then(|a| serde_json::from_str::<Value>(a).ok()) {
                            collect_strings(&args, &mut turn.actions);
                        }
                    }
                    "function_call_output" | "custom_tool_call_output" => collect_strings(p, &mut turn.context),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// The prompts the person typed, in order.
    pub fn prompts(&self) -> impl Iterator<Item = &str> {
        self.turns.iter().map(|t| t.prompt.as_str())
    }

    /// The counts, each turn's prompt ranked on `ws` at `threshold`.
    pub fn finish(self, ws: &Workspace, threshold: f64) -> Stats {
        recall_stats::count(ws, self.stats, &self.turns, threshold)
    }
}

/// The prompt a line carries, if it is one a person typed. Claude Code
/// writes other `user` lines too, none of them the person's words: a
/// compaction's summary (`isCompactSummary`, which quotes what tools
/// fetched: found by review, the Stop capture asked to record a "from now
/// on" of a fetched page as the person's rule), lines shown in the
/// transcript only, expansions (`isMeta`), tool results, a local command's
/// output, a shell's (`<bash-…>`), task notifications and interruptions.
fn prompt_of(v: &Value) -> Option<String> {
    let flag = |k: &str| v.get(k).and_then(Value::as_bool) == Some(true);
    if v.get("type").and_then(Value::as_str) != Some("user")
        || flag("isMeta")
        || flag("isCompactSummary")
        || flag("isVisibleInTranscriptOnly")
    {
        return None;
    }
    let content = v.get("message")?.get("content")?;
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => {
            if blocks.iter().any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")) {
                return None;
            }
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect();
            if texts.is_empty() {
                return None;
            }
            texts.join("\n")
        }
        _ => return None,
    };
    if let Some(cmd) = between(&text, "<command-name>", "</command-name>") {
        let args = between(&text, "<command-args>", "</command-args>").unwrap_or("");
        return Some(format!("{} {}", cmd.trim(), args.trim()).trim().to_string());
    }
    // Output of a local command or a shell, a caveat or notice the client adds: not a prompt.
    let t = text.trim_start();
    // (A summary is also known by its opening, for a client that does not flag it.)
    const NOT_TYPED: &[&str] = &[
        "<local-command",
        "Caveat:",
        "<bash-",
        "<task-notification",
        "[Request interrupted",
        "This session is being continued from a previous conversation",
    ];
    if NOT_TYPED.iter().any(|p| t.starts_with(p)) || t.is_empty() {
        return None;
    }
    Some(text)
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = s.find(open)? + open.len();
    let len = s[start..].find(close)?;
    Some(&s[start..start + len])
}

/// Appends every string value of `v` (at any depth), one per line.
fn collect_strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) if out.len() + s.len() < MAX_TURN_CONTEXT => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| collect_strings(x, out)),
        Value::Object(m) => m.values().for_each(|x| collect_strings(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests;
