//! The hook as Codex, Copilot and Gemini run it: their payloads, recorded from the real CLIs (`server/tests/data/agent-payloads/`), with the prompt or output swapped for one about a demo decision, get the same decisions as Claude Code's, in each agent's shape; everyday output stays silent; hostile payloads get the same fault contract.

use crate::support::*;

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

/// Runs `hook ARGS` with `stdin` from `cwd`, session state in `state`, no agent variables.
fn hook(args: &[&str], stdin: &[u8], state: &Path, cwd: &Path) -> Output {
    let mut c = bin_in(cwd);
    c.arg("hook").args(args).env("MEMORY_INDEX_LSP_CACHE_DIR", state);
    for var in ["COPILOT_CLI", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"] {
        c.env_remove(var);
    }
    run_with_stdin(c, stdin)
}

fn demo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo().join("fixtures/demo"), tmp.path());
    fs::write(tmp.path().join("memory-index.toml"), "[recall]\nprompt = 0.3\ncommand = 0.3\nerror = 0.3\n")
        .expect("cfg");
    tmp
}

/// A recorded payload with `cwd` (and `session`) set for this test and `edit` applied.
fn payload(file: &str, cwd: &Path, session: &str, edit: impl Fn(&mut Value)) -> Vec<u8> {
    let path = repo().join("server/tests/data/agent-payloads").join(file);
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&path).expect("recorded payload")).expect("JSON");
    v["cwd"] = Value::String(cwd.display().to_string());
    for key in ["session_id", "sessionId"] {
        if v.get(key).is_some() {
            v[key] = Value::String(session.into());
        }
    }
    edit(&mut v);
    v.to_string().into_bytes()
}

/// The context an answer carries, read the way `agent`'s model receives it (and its event name where it has one).
fn context(agent: &str, o: &Output) -> (String, Option<String>) {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{agent}: stdout is one JSON object ({e}): {}", String::from_utf8_lossy(&o.stdout)));
    let obj = v.as_object().expect("object");
    if agent == "copilot" {
        assert_eq!(obj.keys().collect::<Vec<_>>(), ["additionalContext"], "Copilot reads the top-level field only");
        return (v["additionalContext"].as_str().expect("text").to_string(), None);
    }
    // Codex fails a hook whose output has any other top-level key.
    assert_eq!(obj.keys().collect::<Vec<_>>(), ["hookSpecificOutput"], "{agent}: {v}");
    let h = &v["hookSpecificOutput"];
    (h["additionalContext"].as_str().expect("text").to_string(), h["hookEventName"].as_str().map(str::to_string))
}

/// A change to a recorded payload.
type Edit = Box<dyn Fn(&mut Value)>;

/// A failing command's output that a demo decision is about.
const ERROR: &str = "pytest tests/test_prices.py FAILED: float ticket prices lose cents, store money as decimal";

const PROMPT: &str = "We are writing mock tests for the booking client; where should the mock patch go?";

/// Each agent's prompt event: (agent, recorded file, its event name as the agent expects it back).
const PROMPTS: [(&str, &str, Option<&str>); 4] = [
    ("codex", "codex/UserPromptSubmit.json", Some("UserPromptSubmit")),
    ("copilot", "copilot/pascal/UserPromptSubmit.json", None),
    ("copilot", "copilot/userPromptSubmitted.json", None),
    ("gemini", "gemini/BeforeAgent.json", Some("BeforeAgent")),
];

#[test]
fn every_agents_prompt_gets_the_decisions_claude_code_gets() {
    let ws = demo();
    let state = tempfile::tempdir().expect("state");
    let claude = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "claude", "cwd": ws.path(),
        "permission_mode": "default", "transcript_path": "/dev/null", "prompt": PROMPT});
    let (want, _) = context("claude", &hook(&[], claude.to_string().as_bytes(), state.path(), ws.path()));
    assert!(want.contains("When Writing Mock Tests"), "{want}");
    for (i, (agent, file, event)) in PROMPTS.iter().enumerate() {
        // Told the agent, and detected from the payload alone: the same answer.
        for (j, args) in [vec!["--agent", agent], vec![]].iter().enumerate() {
            let stdin = payload(file, ws.path(), &format!("{agent}-{i}-{j}"), |v| v["prompt"] = PROMPT.into());
            let (got, name) = context(agent, &hook(args, &stdin, state.path(), ws.path()));
            assert_eq!(got, want, "{agent} {file} {args:?}");
            assert_eq!(name.as_deref(), *event, "{agent} {file}: hookEventName repeats the agent's event");
        }
    }
}

#[test]
fn every_agents_session_start_says_how_to_recall_without_skills() {
    let ws = demo();
    let state = tempfile::tempdir().expect("state");
    for (agent, file) in [
        ("codex", "codex/SessionStart.json"),
        ("copilot", "copilot/sessionStart.json"),
        ("copilot", "copilot/pascal/SessionStart.json"),
        ("gemini", "gemini/SessionStart.json"),
    ] {
        // Each its own session: a session gives its note once.
        let (note, _) = context(
            agent,
            &hook(&["--agent", agent], &payload(file, ws.path(), file, |_| ()), state.path(), ws.path()),
        );
        assert!(note.contains("memory-index-lsp resolve") && note.contains("MCP"), "{agent}: {note}");
        assert!(!note.contains("skills"), "{agent} has no /when skill: {note}");
    }
}

#[test]
fn a_failed_command_gets_the_decision_about_its_error_and_everyday_output_none() {
    let ws = demo();
    let state = tempfile::tempdir().expect("state");
    let cases: [(&str, &str, Edit); 4] = [
        (
            "codex",
            "codex/PostToolUse-failed.json",
            Box::new(|v| v["tool_response"] = format!("error: {ERROR}\n").into()),
        ),
        (
            "copilot",
            "copilot/postToolUse-failed.json",
            Box::new(|v| {
                v["toolResult"]["textResultForLlm"] = format!("{ERROR}\n<shellId: 1 completed with exit code 1>").into()
            }),
        ),
        (
            "copilot",
            "copilot/pascal/PostToolUse-failed.json",
            Box::new(|v| {
                v["tool_result"]["text_result_for_llm"] =
                    format!("{ERROR}\n<shellId: 1 completed with exit code 1>").into()
            }),
        ),
        (
            "gemini",
            "gemini/AfterTool-failed.json",
            Box::new(|v| {
                v["tool_response"]["llmContent"] =
                    format!("Output: {ERROR}\nExit Code: 1\nProcess Group PGID: 7").into()
            }),
        ),
    ];
    for (i, (agent, file, edit)) in cases.iter().enumerate() {
        let stdin = payload(file, ws.path(), &format!("fail-{i}"), edit);
        let (got, _) = context(agent, &hook(&["--agent", agent], &stdin, state.path(), ws.path()));
        assert!(got.contains("\u{2192} How to Store Ticket Prices"), "{agent} {file}: {got}");
    }
    // The same words in a command that succeeded: nothing (the agents fire post-tool events for every command).
    for (agent, file) in [
        ("codex", "codex/PostToolUse-ok.json"),
        ("copilot", "copilot/postToolUse-ok.json"),
        ("copilot", "copilot/pascal/PostToolUse-ok.json"),
        ("gemini", "gemini/AfterTool-ok.json"),
    ] {
        hook_silent(&hook(&["--agent", agent], &payload(file, ws.path(), "ok", |_| ()), state.path(), ws.path()));
    }
}

#[test]
fn hostile_payloads_from_every_agent_keep_the_fault_contract() {
    let ws = demo();
    let state = tempfile::tempdir().expect("state");
    let cases: [(&str, &[u8]); 8] = [
        ("copilot", br#"{"sessionId":7,"prompt":"x"}"#),
        ("copilot", br#"{"sessionId":"s","toolName":"bash","toolArgs":"{not json"}"#),
        ("copilot", br#"{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":"text"}"#),
        ("gemini", br#"{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_response":{"llmContent":[1,2]}}"#),
        ("gemini", br#"{"hook_event_name":"BeforeAgent","prompt":{"text":"x"}}"#),
        ("codex", br#"{"hook_event_name":"PostToolUse","turn_id":"t","tool_name":"Bash","tool_input":"ls","tool_response":"error: x"}"#),
        ("codex", b"{\"hook_event_name\":\"UserPromptSubmit\",\"turn_id\":\"t\",\"prompt\":\"\xff\"}"),
        ("gemini", b"[]"),
    ];
    for (agent, input) in cases {
        let o = hook(&["--agent", agent], input, state.path(), ws.path());
        let err = hook_silent(&o);
        assert!(
            err.is_empty() || err.starts_with("memory-index-lsp hook: "),
            "{agent} {:?}: {err}",
            String::from_utf8_lossy(input)
        );
    }
    // An unknown agent name or argument is noted and the payload still answered.
    let stdin = payload("codex/UserPromptSubmit.json", ws.path(), "unknown", |v| v["prompt"] = PROMPT.into());
    let o = hook(&["--agent", "cursor"], &stdin, state.path(), ws.path());
    let (got, _) = context("codex", &o);
    assert!(got.contains("When Writing Mock Tests"));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown agent `cursor`"));
    // `--agent=NAME` reads as `--agent NAME`; a flag without its value, or a
    // word the hook does not know, is named and the prompt still answered.
    for (i, (args, said)) in [
        (&["--agent=cursor"][..], "unknown agent `cursor`"),
        (&["--event", "UserPromptSubmit", "--agent"][..], "--agent needs a value"),
        (&["--bogus", "x"][..], "unknown argument `--bogus`"),
    ]
    .into_iter()
    .enumerate()
    {
        let session = format!("words-{i}");
        let stdin = payload("codex/UserPromptSubmit.json", ws.path(), &session, |v| v["prompt"] = PROMPT.into());
        let o = hook(args, &stdin, state.path(), ws.path());
        assert!(o.status.success(), "{args:?}");
        let (got, _) = context("codex", &o);
        assert!(got.contains("When Writing Mock Tests"), "{args:?}: {got}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(said), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

/// `hook --help` lists the hook's two options with the others.
#[test]
fn hook_help_lists_its_options() {
    let o =
        std::process::Command::new(env!("CARGO_BIN_EXE_memory-index-lsp")).args(["hook", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let options = text.split("Options:").nth(1).unwrap_or_default();
    assert!(options.contains("--agent <NAME>") && options.contains("--event <NAME>"), "{text}");
}

/// Codex's `Stop` asks once to record what the person settled (its block
/// contract is Claude Code's; verified with the real CLI), never when
/// `stop_hook_active`, never twice; Copilot's and Gemini's stops stay silent.
#[test]
fn codex_asks_once_at_stop_to_record_what_was_settled() {
    // The default thresholds: the statement is not held by any demo decision at `[recall] prompt`.
    let ws = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo().join("fixtures/demo"), ws.path());
    let state = tempfile::tempdir().expect("state");
    let settled = "from now on, always run the integration tests with --test-threads=1 in CI";
    let prompt = payload("codex/UserPromptSubmit.json", ws.path(), "cx-stop", |v| v["prompt"] = settled.into());
    let _ = hook(&["--agent", "codex"], &prompt, state.path(), ws.path());
    let stop = |active: bool| {
        payload("codex/Stop.json", ws.path(), "cx-stop", |v| {
            v["stop_hook_active"] = active.into();
            v["transcript_path"] = "/nonexistent/rollout.jsonl".into();
        })
    };
    let o = hook(&["--agent", "codex"], &stop(false), state.path(), ws.path());
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&o.stdout).expect("a block");
    assert_eq!(v["decision"], "block", "{v}");
    assert!(v["reason"].as_str().is_some_and(|r| r.contains("--test-threads=1")), "{v}");
    hook_silent(&hook(&["--agent", "codex"], &stop(true), state.path(), ws.path()));
    hook_silent(&hook(&["--agent", "codex"], &stop(false), state.path(), ws.path()));
    for (agent, file) in [("copilot", "copilot/agentStop.json"), ("gemini", "gemini/AfterAgent.json")] {
        let p = payload(file, ws.path(), "other-stop", |_| ());
        assert!(hook(&["--agent", agent], &p, state.path(), ws.path()).stdout.is_empty(), "{agent}");
    }
}
