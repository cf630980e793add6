//! The hook's input: an agent's hook JSON read into one [`Input`], the recall service's [`Ask`] (through [`dialect`](super::dialect) for agents other than Claude Code), refusing wrong types with a reason.

use serde_json::Value;

use super::dialect;
use crate::project::agents::Agent;
pub use crate::project::recall::{Ask, Event};

/// One hook call: what it asks the recall service, and the event as the agent named it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub ask: Ask,
    /// The event as the agent named it (`BeforeAgent`, `postToolUse`, …), which its output repeats.
    pub agent_event: String,
}

/// Parses the hook's stdin as sent by `agent` (None: [`dialect::detect`]
/// says), naming the event `event` when the payload does not. Errors name
/// what was wrong, for one line on stderr.
pub fn parse(bytes: &[u8], agent: Option<Agent>, event: Option<&str>) -> Result<Input, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("empty input: expected the agent's hook JSON on stdin".into());
    }
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("input is not JSON ({e})"))?;
    if !v.is_object() {
        return Err("input is not a JSON object".into());
    }
    let agent = agent.unwrap_or_else(|| dialect::detect(&v));
    let v = dialect::to_claude(agent, v, event);
    let Value::Object(o) = &v else { return Err("input is not a JSON object".into()) };
    let name = string(&v, "hook_event_name")?.ok_or("input has no hook_event_name")?;
    let session_id = string(&v, "session_id")?.filter(|s| !s.is_empty());
    let cwd = string(&v, "cwd")?.filter(|s| !s.is_empty());
    let tool_name = || string(&v, "tool_name").map(Option::unwrap_or_default);
    let command = || -> Result<Option<String>, String> {
        match o.get("tool_input") {
            None | Some(Value::Null) => Ok(None),
            Some(input @ Value::Object(_)) => string(input, "command").map_err(|e| format!("tool_input: {e}")),
            Some(_) => Err("tool_input is not an object".into()),
        }
    };
    let event = match name.as_str() {
        "SessionStart" => Event::SessionStart { source: string(&v, "source")? },
        "UserPromptSubmit" => Event::UserPromptSubmit { prompt: string(&v, "prompt")?.unwrap_or_default() },
        "PreToolUse" => {
            let tool_name = tool_name()?;
            // Claude Code's Skill tool running `/when` or `/how`: a read on purpose.
            if let Some(query) = skill_read(o.get("tool_input")).filter(|_| tool_name == "Skill") {
                Event::Read { query }
            } else {
                let command = command()?;
                let files = match (&command, o.get("tool_input")) {
                    (Some(c), _) if tool_name == "Bash" => super::files::of_command(c),
                    (_, Some(input)) => super::files::of_tool(&tool_name, input),
                    _ => Vec::new(),
                };
                Event::PreToolUse { tool_name, command, files }
            }
        }
        "PostToolUseFailure" => Event::PostToolUseFailure {
            tool_name: tool_name()?,
            error: string(&v, "error")?.unwrap_or_default(),
            command: command()?,
            interrupted: match o.get("is_interrupt") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("is_interrupt is not a boolean".into()),
            },
        },
        "Stop" => Event::Stop {
            transcript_path: string(&v, "transcript_path")?.filter(|s| !s.is_empty()),
            active: match o.get("stop_hook_active") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err("stop_hook_active is not a boolean".into()),
            },
        },
        _ => Event::Other(name.clone()),
    };
    let agent_event = string(&v, "agent_event")?.unwrap_or(name);
    Ok(Input { ask: Ask { event, session_id, cwd, agent }, agent_event })
}

/// What a Skill tool call reads when it runs `/when` or `/how` (`{"skill":
/// "memory-index:when", "args": "writing mock tests"}` → `when writing mock
/// tests`; the plugin's skills are namespaced, `init`'s are not); None for
/// any other skill or without a query.
fn skill_read(input: Option<&Value>) -> Option<String> {
    let skill = input?.get("skill")?.as_str()?;
    let args = input?.get("args")?.as_str()?.trim();
    let op = skill.rsplit(':').next()?;
    (matches!(op, "when" | "how") && !args.is_empty()).then(|| format!("{op} {args}"))
}

/// `v[key]` as a string: None when absent or null, an error for another type.
fn string(v: &Value, key: &str) -> Result<Option<String>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{key} is not a string")),
    }
}

#[cfg(test)]
mod tests;
