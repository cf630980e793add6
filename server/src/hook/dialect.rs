//! Each agent's hook dialect: which agent sent a payload, its events and fields mapped to Claude Code's (which `event::parse` reads), and our answer in the shape that agent's model receives.
//!
//! The four moments and what each agent calls them (payloads recorded from
//! the real CLIs are in `server/tests/data/agent-payloads/`):
//!
//! | moment | Claude Code | Codex | Copilot | Gemini |
//! | --- | --- | --- | --- | --- |
//! | session start | `SessionStart` | `SessionStart` | `sessionStart` | `SessionStart` |
//! | a prompt | `UserPromptSubmit` | `UserPromptSubmit` | `UserPromptSubmit` | `BeforeAgent` |
//! | a shell command about to run | `PreToolUse` (`Bash`) | `PreToolUse` (`Bash`) | `preToolUse` (`bash`) | `AfterTool` that did not fail: with its result (`BeforeTool` cannot add context) |
//! | a failed shell command | `PostToolUseFailure` | `PostToolUse`, failure read from the output | `postToolUse`, failure from `resultType` or the exit code | `AfterTool`, failure from `Exit Code:` |
//!
//! At the end of a turn, Claude Code's and Codex's `Stop` may ask once per
//! session to record what the person settled (Copilot's `agentStop` and
//! Gemini's `AfterAgent` stay silent: their block contract is unverified).
//! A post-tool event whose result does not read as a failure
//! ([`failed`]) stays silent, as every event not in the table does. Output:
//! Claude Code and Codex read `hookSpecificOutput.additionalContext`,
//! Copilot a top-level `additionalContext`, Gemini the same
//! `hookSpecificOutput` with its own event name (JSON only: plain text
//! would be shown to the person, not the model). Without `--agent`, the
//! payload says which agent sent it ([`detect`]); Claude Code when unsure.

use serde_json::{Map, Value};

use crate::project::agents::Agent;

/// Which agent sent `v` (payloads recorded from each CLI): Copilot's
/// camel-case fields (`sessionId`, `toolName`), its `initial_prompt`, its
/// `tool_result.result_type`, or a `timestamp` without a `transcript_path`
/// (its snake-case dialect); Gemini's event names or shell tool, or a
/// `timestamp` beside a `transcript_path`; Codex's `turn_id`; else Claude
/// Code (which sends no `timestamp`).
pub fn detect(v: &Value) -> Agent {
    let has = |k: &str| v.get(k).is_some();
    let event = v.get("hook_event_name").and_then(Value::as_str).unwrap_or("");
    let copilot = has("sessionId")
        || has("toolName")
        || has("initial_prompt")
        || v.pointer("/tool_result/result_type").is_some()
        || (has("timestamp") && !has("transcript_path"));
    if copilot {
        Agent::Copilot
    } else if matches!(event, "BeforeAgent" | "AfterAgent" | "BeforeTool" | "AfterTool" | "BeforeModel" | "AfterModel")
        || v.get("tool_name").and_then(Value::as_str) == Some("run_shell_command")
        || has("timestamp")
    {
        Agent::Gemini
    } else if has("turn_id") {
        Agent::Codex
    } else {
        Agent::Claude
    }
}

/// `v` from `agent` rewritten with Claude Code's event and field names
/// (a shell tool named `Bash`; a failed post-tool event as
/// `PostToolUseFailure` with its output as `error`); `event` names the
/// event when the payload does not (Copilot's camel-case payloads). The
/// agent's own event name is kept as `agent_event`.
pub fn to_claude(agent: Agent, v: Value, event: Option<&str>) -> Value {
    let Value::Object(mut o) = v else { return v };
    if agent == Agent::Copilot && !o.contains_key("hook_event_name") {
        camel_to_snake(&mut o, event);
    }
    let name = o.get("hook_event_name").and_then(Value::as_str).unwrap_or("").to_string();
    o.insert("agent_event".into(), Value::String(name.clone()));
    // Gemini prefixes the session's hook context to the prompt its BeforeAgent
    // hook sees: rank what the person typed, not our own note.
    if let Some(Value::String(prompt)) = o.get_mut("prompt") {
        if prompt.contains(HOOK_CONTEXT.0) {
            *prompt = without_hook_context(prompt);
        }
    }
    if let Some(Value::String(tool)) = o.get("tool_name") {
        if matches!(tool.as_str(), "bash" | "run_shell_command" | "shell" | "exec_command") {
            o.insert("tool_name".into(), Value::String("Bash".into()));
        }
    }
    let ours = match (agent, name.as_str()) {
        (Agent::Claude, _) => None,
        (Agent::Gemini, "BeforeAgent") => Some("UserPromptSubmit"),
        // Gemini cannot add context before a tool runs: a decision sent there would be lost.
        (Agent::Gemini, "BeforeTool") => Some("BeforeTool"),
        (_, "PostToolUse" | "postToolUse" | "AfterTool") => {
            let output = tool_output(&o);
            if output.as_deref().is_some_and(|s| failed(agent, s, &o)) {
                o.insert("error".into(), Value::String(output.unwrap_or_default()));
                Some("PostToolUseFailure")
            } else if agent == Agent::Gemini && name == "AfterTool" {
                // The decision that governs the command, with its result: Gemini has no
                // earlier moment that reaches the model (found by review: a Gemini session
                // never got a command's decision), and Codex's and Copilot's pre-command
                // context also reaches the model with the result.
                Some("PreToolUse")
            } else {
                Some("PostToolUse")
            }
        }
        // A stop is blocked in Claude Code and Codex, whose block contract was verified
        // (`{"decision":"block","reason":…}` reaches the model as the next turn, and
        // `stop_hook_active` marks the stop after it); elsewhere it stays silent.
        (Agent::Codex, "Stop") => None,
        (_, "Stop" | "agentStop" | "AfterAgent") => Some("AgentStop"),
        (_, "sessionStart") => Some("SessionStart"),
        (_, "preToolUse") => Some("PreToolUse"),
        (_, "userPromptSubmitted") => Some("UserPromptSubmit"),
        _ => None,
    };
    if let Some(ours) = ours {
        o.insert("hook_event_name".into(), Value::String(ours.into()));
    }
    Value::Object(o)
}

/// How Gemini wraps a hook's context in the text it passes on.
const HOOK_CONTEXT: (&str, &str) = ("<hook_context>", "</hook_context>");

/// `text` without its `<hook_context>…</hook_context>` spans (an unclosed one runs to the end).
fn without_hook_context(text: &str) -> String {
    let (open, close) = HOOK_CONTEXT;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        rest = rest[start + open.len()..].split_once(close).map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// Copilot's camel-case payload (`sessionId`, `toolName`, `toolArgs`,
/// `toolResult`) in its snake-case form, with the event named by `event`
/// or read from the fields it carries.
fn camel_to_snake(o: &mut Map<String, Value>, event: Option<&str>) {
    let name = event.map(str::to_string).unwrap_or_else(|| {
        let has = |k: &str| o.contains_key(k);
        if has("toolResult") {
            "postToolUse"
        } else if has("toolName") {
            "preToolUse"
        } else if has("prompt") {
            "userPromptSubmitted"
        } else if has("stopReason") {
            "agentStop"
        } else if has("initialPrompt") || has("source") {
            "sessionStart"
        } else {
            "unknown"
        }
        .to_string()
    });
    o.insert("hook_event_name".into(), Value::String(name));
    for (camel, snake) in
        [("sessionId", "session_id"), ("toolName", "tool_name"), ("transcriptPath", "transcript_path")]
    {
        if let Some(v) = o.remove(camel) {
            o.insert(snake.into(), v);
        }
    }
    if let Some(args) = o.remove("toolArgs") {
        // Documented as a JSON string; the CLI sends an object.
        let args = match args {
            Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
            v => v,
        };
        o.insert("tool_input".into(), args);
    }
    if let Some(Value::Object(r)) = o.remove("toolResult") {
        let mut result = Map::new();
        for (k, v) in r {
            let k = match k.as_str() {
                "resultType" => "result_type".to_string(),
                "textResultForLlm" => "text_result_for_llm".to_string(),
                _ => k,
            };
            result.insert(k, v);
        }
        o.insert("tool_result".into(), Value::Object(result));
    }
}

/// A post-tool event's output: Codex's `tool_response` string, Gemini's
/// `tool_response.llmContent`, Copilot's `tool_result.text_result_for_llm`.
fn tool_output(o: &Map<String, Value>) -> Option<String> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    };
    if let Some(r) = o.get("tool_result") {
        return r.get("text_result_for_llm").and_then(text).or_else(|| r.get("error").and_then(text));
    }
    match o.get("tool_response")? {
        Value::Object(r) => r.get("llmContent").or_else(|| r.get("error")).or_else(|| r.get("output")).and_then(text),
        v => text(v),
    }
}

/// Whether a tool's result reads as a failure: a failure result type, a
/// non-zero exit code where the agent reports one (Copilot's `exit code N`,
/// Gemini's `Exit Code: N`); for Codex, whose payload carries the output
/// only, an error line (`error:`, `fatal:`, `No such file or directory`, a
/// panic, a traceback, `command not found`, `Permission denied`, …).
pub fn failed(agent: Agent, output: &str, o: &Map<String, Value>) -> bool {
    let result_type = o.get("tool_result").and_then(|r| r.get("result_type")).and_then(Value::as_str);
    if matches!(result_type, Some("failure" | "error" | "rejected" | "denied")) {
        return true;
    }
    if let Some(code) = exit_code(output) {
        return code != 0;
    }
    agent == Agent::Codex && error_line(output)
}

/// The exit code an agent appended to a shell result (`completed with exit code 2`, `Exit Code: 2`),
/// read from its last lines only: the command's own output may say "exit code 1" (found by review).
fn exit_code(output: &str) -> Option<i64> {
    let tail: Vec<&str> = output.trim_end().lines().rev().take(3).collect();
    let lower = tail.join("\n").to_ascii_lowercase();
    let at = lower.rfind("exit code")?;
    let rest = lower[at + "exit code".len()..].trim_start_matches([':', ' ']);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
    digits.parse().ok()
}

fn error_line(output: &str) -> bool {
    const MARKS: [&str; 9] = [
        "error:",
        "error[",
        "fatal:",
        "no such file or directory",
        "command not found",
        "permission denied",
        "traceback (most recent call last)",
        "panicked at",
        "exception:",
    ];
    output.lines().take(200).any(|l| {
        let l = l.trim_start().to_ascii_lowercase();
        MARKS.iter().any(|m| l.contains(m)) || tool_failure(&l)
    })
}

/// The failure lines of common tools that carry no `error:` (found by review: Codex's failed
/// `go test`, `make`, `git push` and pytest runs were read as successes): `--- FAIL:` and
/// `FAIL <package>` (go test), `make: *** …` (make), `! [rejected]` (git push), `npm ERR!`,
/// `test result: FAILED` (cargo), and a count of failures over zero (`1 failed, 20 passed`;
/// `0 failed` is a success). `line` is lowercase.
fn tool_failure(line: &str) -> bool {
    const STARTS: [&str; 4] = ["--- fail:", "fail\t", "npm err!", "! [rejected]"];
    const HOLDS: [&str; 4] = ["make: ***", "*** [", "! [remote rejected]", "test result: failed"];
    if line == "fail" || STARTS.iter().any(|s| line.starts_with(s)) || HOLDS.iter().any(|h| line.contains(h)) {
        return true;
    }
    // `FAIL github.com/x/api 0.01s`: a package path after it, not prose ("Fail over to …").
    if line.strip_prefix("fail ").and_then(|r| r.split_whitespace().next()).is_some_and(|p| p.contains('/')) {
        return true;
    }
    // A test run's summary only (found by review: a commit subject "2 failed tests" in `git log`):
    // the count beside `passed`, or in pytest's `===` banner.
    if !(line.contains("passed") || line.starts_with("===") || line.starts_with("tests:")) {
        return false;
    }
    let words: Vec<&str> = line.split(|c: char| c.is_whitespace() || c == '=').filter(|w| !w.is_empty()).collect();
    words.windows(2).any(|w| w[1].starts_with("failed") && w[0].parse::<u64>().is_ok_and(|n| n > 0))
}

/// Our answer for `agent`'s event `agent_event` (its own name, which
/// `hookEventName` must repeat), in the shape its model receives.
pub fn render(agent: Agent, agent_event: &str, context: &str) -> String {
    match agent {
        Agent::Copilot => serde_json::json!({ "additionalContext": context }).to_string(),
        Agent::Claude | Agent::Codex | Agent::Gemini => serde_json::json!({
            "hookSpecificOutput": { "hookEventName": agent_event, "additionalContext": context }
        })
        .to_string(),
    }
}

#[cfg(test)]
#[path = "dialect_tests.rs"]
mod tests;
