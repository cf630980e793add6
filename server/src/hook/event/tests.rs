//! Tests of the hook input parser: every event, and refusals with a reason.

use super::*;

#[test]
fn reads_every_event() {
    let p = |s: &str| parse(s.as_bytes(), None, None).unwrap();
    let i = p(r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/p","prompt":"mock tests"}"#);
    assert_eq!(i.ask.event, Event::UserPromptSubmit { prompt: "mock tests".into() });
    assert_eq!((i.ask.session_id.as_deref(), i.ask.cwd.as_deref()), (Some("s1"), Some("/p")));
    assert_eq!(
        p(r#"{"hook_event_name":"SessionStart","source":"startup"}"#).ask.event,
        Event::SessionStart { source: Some("startup".into()) }
    );
    let pre = p(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}"#);
    assert_eq!(
        pre.ask.event,
        Event::PreToolUse { tool_name: "Bash".into(), command: Some("git push".into()), files: vec![] }
    );
    let post = p(r#"{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"pytest"},
                    "error":"Exit code 1\nboom","is_interrupt":false}"#);
    assert_eq!(
        post.ask.event,
        Event::PostToolUseFailure {
            tool_name: "Bash".into(),
            error: "Exit code 1\nboom".into(),
            command: Some("pytest".into()),
            interrupted: false,
        }
    );
    assert_eq!(
        p(r#"{"hook_event_name":"Stop","session_id":""}"#).ask.event,
        Event::Stop { transcript_path: None, active: false }
    );
    assert_eq!(
        p(r#"{"hook_event_name":"Stop","transcript_path":"/t.jsonl","stop_hook_active":true}"#).ask.event,
        Event::Stop { transcript_path: Some("/t.jsonl".into()), active: true }
    );
    assert_eq!(p(r#"{"hook_event_name":"SubagentStop"}"#).ask.event, Event::Other("SubagentStop".into()));
    assert_eq!(p(r#"{"hook_event_name":"Stop","session_id":""}"#).ask.session_id, None);
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
        let e = parse(input.as_bytes(), None, None).unwrap_err();
        assert!(e.contains(why), "{input:?}: {e}");
    }
    assert!(parse(b"{\"hook_event_name\":\"\xff\"}", None, None).is_err());
}

/// Claude Code's Skill tool running `/when` (payload recorded from the real CLI) is a read on purpose.
#[test]
fn a_when_skill_call_is_a_read() {
    let text = include_str!("../../../tests/data/agent-payloads/claude/PreToolUse-Skill.json");
    let i = parse(text.as_bytes(), None, None).unwrap();
    assert_eq!(i.ask.event, Event::Read { query: "when writing mock tests".into() });
    let other = text.replace("memory-index:when", "review");
    assert!(matches!(parse(other.as_bytes(), None, None).unwrap().ask.event, Event::PreToolUse { .. }));
}
