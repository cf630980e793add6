//! Tests of the agents' hook dialects on payloads recorded from the real CLIs (`server/tests/data/agent-payloads/`).

use super::*;
use crate::hook::event::{parse, Event};

fn parsed(agent: Option<Agent>, json: &str) -> crate::hook::event::Input {
    parse(json.as_bytes(), agent, None).unwrap_or_else(|e| panic!("{json}: {e}"))
}

#[test]
fn detects_the_agent_from_its_payload() {
    let cases = [
        (
            r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","prompt":"x","permission_mode":"default"}"#,
            Agent::Claude,
        ),
        (r#"{"hook_event_name":"UserPromptSubmit","session_id":"s","turn_id":"t","prompt":"x"}"#, Agent::Codex),
        (r#"{"sessionId":"s","timestamp":1,"cwd":"/p","prompt":"x"}"#, Agent::Copilot),
        (
            r#"{"hook_event_name":"PostToolUse","tool_result":{"result_type":"success","text_result_for_llm":"ok"}}"#,
            Agent::Copilot,
        ),
        (r#"{"hook_event_name":"BeforeAgent","session_id":"s","prompt":"x"}"#, Agent::Gemini),
    ];
    for (json, want) in cases {
        assert_eq!(parsed(None, json).ask.agent, want, "{json}");
    }
}

#[test]
fn maps_every_agents_prompt_and_shell_events_to_ours() {
    let prompt = Event::UserPromptSubmit { prompt: "x".into() };
    let gemini = parsed(None, r#"{"hook_event_name":"BeforeAgent","session_id":"s","prompt":"x"}"#);
    assert_eq!((gemini.ask.event, gemini.agent_event.as_str()), (prompt.clone(), "BeforeAgent"));
    let copilot = parsed(Some(Agent::Copilot), r#"{"sessionId":"s","cwd":"/p","prompt":"x"}"#);
    assert_eq!((copilot.ask.event, copilot.ask.session_id.as_deref()), (prompt, Some("s")));
    let pre = parsed(
        Some(Agent::Copilot),
        r#"{"sessionId":"s","toolName":"bash","toolArgs":{"command":"git push","description":"d"}}"#,
    );
    assert_eq!(
        pre.ask.event,
        Event::PreToolUse { tool_name: "Bash".into(), command: Some("git push".into()), files: vec![] }
    );
    let as_string =
        parsed(Some(Agent::Copilot), r#"{"sessionId":"s","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#);
    assert_eq!(
        as_string.ask.event,
        Event::PreToolUse { tool_name: "Bash".into(), command: Some("ls".into()), files: vec![] }
    );
    assert_eq!(
        parsed(Some(Agent::Copilot), r#"{"sessionId":"s","source":"new"}"#).ask.event,
        Event::SessionStart { source: Some("new".into()) }
    );
    // Gemini's BeforeTool cannot carry context: silent, so no decision is spent on it.
    let before = parsed(
        None,
        r#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
    );
    assert_eq!(before.ask.event, Event::Other("BeforeTool".into()));
}

#[test]
fn a_post_tool_event_is_a_failure_only_when_its_result_says_so() {
    let failure = |agent, json: &str| match parsed(Some(agent), json).ask.event {
        Event::PostToolUseFailure { error, command, .. } => Some((error, command)),
        _ => None,
    };
    let copilot_fail = r#"{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls /x"},
        "toolResult":{"resultType":"success","textResultForLlm":"ls: cannot access '/x': No such file or directory\n<shellId: 1 completed with exit code 2>"}}"#;
    let (error, command) = failure(Agent::Copilot, copilot_fail).expect("exit code 2 is a failure");
    assert!(error.contains("No such file") && command.as_deref() == Some("ls /x"), "{error}");
    let copilot_ok = r#"{"sessionId":"s","toolName":"bash","toolArgs":{"command":"echo hi"},
        "toolResult":{"resultType":"success","textResultForLlm":"hi\n<shellId: 0 completed with exit code 0>"}}"#;
    assert_eq!(failure(Agent::Copilot, copilot_ok), None);
    let gemini = |content: &str| {
        format!(
            r#"{{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{{"command":"make"}},
                "tool_response":{{"llmContent":{},"returnDisplay":"x"}}}}"#,
            serde_json::Value::String(content.into())
        )
    };
    assert!(failure(Agent::Gemini, &gemini("Output: boom\nExit Code: 2\nProcess Group PGID: 1")).is_some());
    assert_eq!(failure(Agent::Gemini, &gemini("Output: ok\nProcess Group PGID: 1")), None);
    // A Gemini command that did not fail: its decision comes with its result (Gemini has no
    // earlier moment that reaches the model; found by review).
    assert_eq!(
        parsed(Some(Agent::Gemini), &gemini("Output: ok\nProcess Group PGID: 1")).ask.event,
        Event::PreToolUse { tool_name: "Bash".into(), command: Some("make".into()), files: vec![] }
    );
    let codex = |out: &str| {
        format!(
            r#"{{"hook_event_name":"PostToolUse","turn_id":"t","tool_name":"Bash","tool_input":{{"command":"git push"}},"tool_response":{}}}"#,
            serde_json::Value::String(out.into())
        )
    };
    assert!(failure(Agent::Codex, &codex("fatal: Unable to create '.git/index.lock': File exists.\n")).is_some());
    assert_eq!(failure(Agent::Codex, &codex("test result: ok. 5 passed; 0 failed\n")), None);
    // The failures of common tools that print no `error:` (found by review: read as successes).
    for out in [
        "--- FAIL: TestCreate (0.00s)\n    users_test.go:12: got 500\nFAIL\nFAIL\tgithub.com/x/api\t0.01s\n",
        "go test ./...\nok  \tgithub.com/x/db\nFAIL\tgithub.com/x/api [build failed]\n",
        "cc -o app main.c\nmake: *** [Makefile:12: test] Error 1\n",
        "To github.com:x/api.git\n ! [rejected]        main -> main (fetch first)\n",
        "FAILED tests/test_users.py::test_create_user - assert 500 == 201\n=== 1 failed, 20 passed in 0.31s ===\n",
        "npm ERR! code ELIFECYCLE\n",
        "test result: FAILED. 4 passed; 1 failed; 0 ignored\n",
    ] {
        assert!(failure(Agent::Codex, &codex(out)).is_some(), "{out}");
    }
    for out in [
        "=== 20 passed in 0.31s ===\n",
        "ok  \tgithub.com/x/api\t0.01s\n",
        "PASS\nok\n",
        "0 failed, 3 passed\n",
        "a1b2c3 fix flaky CI: 2 failed tests\n",
        "Fail over to the replica when the primary is down.\n",
        "the retry script prints exit code 1 when it gives up\nok\nall done\nbye\n",
    ] {
        assert_eq!(failure(Agent::Codex, &codex(out)), None, "{out}");
    }
    // Claude Code's PostToolUse (success) stays silent; its failures have their own event.
    assert_eq!(
        parsed(Some(Agent::Claude), r#"{"hook_event_name":"PostToolUse","tool_response":"error: x"}"#).ask.event,
        Event::Other("PostToolUse".into())
    );
}

#[test]
fn answers_in_each_agents_shape() {
    let v = |s: String| serde_json::from_str::<serde_json::Value>(&s).unwrap();
    let claude = v(render(Agent::Claude, "UserPromptSubmit", "ctx"));
    assert_eq!(claude["hookSpecificOutput"]["additionalContext"], "ctx");
    let copilot = v(render(Agent::Copilot, "userPromptSubmitted", "ctx"));
    assert_eq!(copilot, serde_json::json!({ "additionalContext": "ctx" }));
    let gemini = v(render(Agent::Gemini, "BeforeAgent", "ctx"));
    assert_eq!(gemini["hookSpecificOutput"]["hookEventName"], "BeforeAgent");
    let codex = v(render(Agent::Codex, "PostToolUse", "ctx"));
    assert_eq!(codex["hookSpecificOutput"]["hookEventName"], "PostToolUse", "the agent's own event, not ours");
}

#[test]
fn geminis_prompt_is_read_without_the_session_context_it_carries() {
    let json = r#"{"hook_event_name":"BeforeAgent","session_id":"s","prompt":"<hook_context>memory-index: this project records\n/when writing mock tests</hook_context>\n\nwhat does this regex do"}"#;
    assert_eq!(parsed(None, json).ask.event, Event::UserPromptSubmit { prompt: "what does this regex do".into() });
    assert_eq!(without_hook_context("a <hook_context>x</hook_context> b <hook_context>open"), "a  b");
}
