//! The hook's input: Claude Code's hook JSON read into one [`Input`], refusing wrong types with a reason.

use serde_json::Value;

/// What the hook was called for, with the text each event is ranked by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A session starts (or resumes, clears, compacts).
    SessionStart,
    /// The person sent a prompt.
    UserPromptSubmit { prompt: String },
    /// A tool is about to run; `command` is a Bash call's command line.
    PreToolUse { tool_name: String, command: Option<String> },
    /// A tool call failed with `error`; `command` as for [`Event::PreToolUse`].
    PostToolUseFailure { tool_name: String, error: String, command: Option<String> },
    /// Any other event: the hook stays silent.
    Other(String),
}

impl Event {
    /// The event's name as Claude Code spells it (`hookEventName` in the output).
    pub fn name(&self) -> &str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::UserPromptSubmit { .. } => "UserPromptSubmit",
            Event::PreToolUse { .. } => "PreToolUse",
            Event::PostToolUseFailure { .. } => "PostToolUseFailure",
            Event::Other(name) => name,
        }
    }
}

/// One hook call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub event: Event,
    /// Claude Code's session id; None when absent or empty (then nothing is remembered).
    pub session_id: Option<String>,
    /// The session's working directory, when given.
    pub cwd: Option<String>,
}

/// Parses the hook's stdin. Errors name what was wrong, for one line on stderr.
pub fn parse(bytes: &[u8]) -> Result<Input, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err("empty input: expected Claude Code's hook JSON on stdin".into());
    }
    let v: Value = serde_json::from_slice(bytes).map_err(|e| format!("input is not JSON ({e})"))?;
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
        "SessionStart" => Event::SessionStart,
        "UserPromptSubmit" => Event::UserPromptSubmit { prompt: string(&v, "prompt")?.unwrap_or_default() },
        "PreToolUse" => Event::PreToolUse { tool_name: tool_name()?, command: command()? },
        "PostToolUseFailure" => Event::PostToolUseFailure {
            tool_name: tool_name()?,
            error: string(&v, "error")?.unwrap_or_default(),
            command: command()?,
        },
        _ => Event::Other(name),
    };
    Ok(Input { event, session_id, cwd })
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
mod tests {
    use super::*;

    #[test]
    fn reads_every_event() {
        let p = |s: &str| parse(s.as_bytes()).unwrap();
        let i = p(r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/p","prompt":"mock tests"}"#);
        assert_eq!(i.event, Event::UserPromptSubmit { prompt: "mock tests".into() });
        assert_eq!((i.session_id.as_deref(), i.cwd.as_deref()), (Some("s1"), Some("/p")));
        assert_eq!(p(r#"{"hook_event_name":"SessionStart","source":"startup"}"#).event, Event::SessionStart);
        let pre = p(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}"#);
        assert_eq!(pre.event, Event::PreToolUse { tool_name: "Bash".into(), command: Some("git push".into()) });
        let post = p(r#"{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"pytest"},
                        "error":"Exit code 1\nboom","is_interrupt":false}"#);
        assert_eq!(
            post.event,
            Event::PostToolUseFailure {
                tool_name: "Bash".into(),
                error: "Exit code 1\nboom".into(),
                command: Some("pytest".into())
            }
        );
        assert_eq!(p(r#"{"hook_event_name":"Stop","session_id":""}"#).event, Event::Other("Stop".into()));
        assert_eq!(p(r#"{"hook_event_name":"Stop","session_id":""}"#).session_id, None);
    }

    #[test]
    fn refuses_wrong_shapes_with_a_reason() {
        for (input, why) in [
            ("", "empty input"),
            ("  \n", "empty input"),
            ("{", "not JSON"),
            ("[1]", "not a JSON object"),
            ("{}", "no hook_event_name"),
            (r#"{"hook_event_name":3}"#, "hook_event_name is not a string"),
            (r#"{"hook_event_name":"UserPromptSubmit","prompt":["x"]}"#, "prompt is not a string"),
            (r#"{"hook_event_name":"PreToolUse","tool_input":"ls"}"#, "tool_input is not an object"),
            (r#"{"hook_event_name":"PreToolUse","tool_input":{"command":1}}"#, "command is not a string"),
            (r#"{"hook_event_name":"SessionStart","session_id":{}}"#, "session_id is not a string"),
        ] {
            let e = parse(input.as_bytes()).unwrap_err();
            assert!(e.contains(why), "{input:?}: {e}");
        }
        assert!(parse(b"{\"hook_event_name\":\"\xff\"}").is_err());
    }
}
