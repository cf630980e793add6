//! Tests of each event through [`respond`], on workspaces written to a temporary folder.

use std::fs;
use std::path::Path;

use super::*;
use crate::project::recall::is_slash_command;
use event::Event;

const INDEX: &str = "# Memory Index

## agents/decisions/ops.md

/when force pushing to a shared branch | git push --force
/when pytest fails with fixture not found | fixture lookup error
/when writing mock tests | mock patch
";

const OPS: &str = "# Operations

## When Force Pushing to a Shared Branch

Never force-push main; use `--force-with-lease` on your own branches only.

## When Pytest Fails With Fixture Not Found

The fixture lives in a conftest.py the test's folder does not see; move it up.

## When Writing Mock Tests

Patch where the name is used.
";

const CONFIG: &str = "[recall]\nprompt = 0.3\ncommand = 0.3\nerror = 0.3\n";

fn workspace(config: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    fs::create_dir_all(root.join("agents/decisions")).unwrap();
    fs::create_dir_all(root.join("src/deep")).unwrap();
    fs::write(root.join("agents/memory-index.md"), INDEX).unwrap();
    fs::write(root.join("agents/decisions/ops.md"), OPS).unwrap();
    fs::write(root.join("memory-index.toml"), config).unwrap();
    tmp
}

fn input(json: serde_json::Value) -> Input {
    event::parse(json.to_string().as_bytes(), None, None).unwrap()
}

fn context(out: Option<String>, event: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(&out.expect("some output")).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event);
    assert!(v["hookSpecificOutput"].get("permissionDecision").is_none());
    v["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
}

fn prompt(root: &Path, session: &str, text: &str) -> serde_json::Value {
    serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session,
        "cwd": root.join("src/deep"), "prompt": text})
}

#[test]
fn user_prompt_submit_injects_once_per_session() {
    let ws = workspace(CONFIG);
    let state = tempfile::tempdir().unwrap();
    let p = prompt(ws.path(), "s1", "I am writing mock tests for the client; how should I patch?");
    let ctx = context(respond(&input(p.clone()), None, Some(state.path())).unwrap(), "UserPromptSubmit");
    assert!(ctx.starts_with("[memory-index] /when writing mock tests \u{2192} When Writing Mock Tests (agents/decisions/ops.md:11, confidence "), "{ctx}");
    assert!(ctx.contains("Patch where the name is used."));
    assert_eq!(respond(&input(p), None, Some(state.path())).unwrap(), None, "the same decision twice");
    let other = prompt(ws.path(), "s2", "writing mock tests");
    assert!(respond(&input(other), None, Some(state.path())).unwrap().is_some(), "another session");
}

/// Found by review: once a session was compacted, the decisions injected before it never came
/// again, though the agent's context no longer had them.
#[test]
fn a_compaction_or_a_clear_lets_the_sessions_decisions_come_again() {
    let ws = workspace(CONFIG);
    let state = tempfile::tempdir().unwrap();
    let ask = || respond(&input(prompt(ws.path(), "s1", "writing mock tests")), None, Some(state.path())).unwrap();
    let start = |source: &str| {
        let i = input(serde_json::json!({"hook_event_name": "SessionStart", "session_id": "s1",
            "source": source, "cwd": ws.path()}));
        respond(&i, None, Some(state.path())).unwrap()
    };
    assert!(start("startup").is_some());
    assert!(ask().is_some());
    assert_eq!(ask(), None, "given once");
    assert_eq!(start("resume"), None);
    assert_eq!(ask(), None, "a resumed session still holds it");
    for source in ["compact", "clear"] {
        assert!(start(source).is_some());
        assert!(ask().is_some(), "after a {source}");
        assert_eq!(ask(), None, "once again after a {source}");
    }
    assert_eq!(start("startup"), None, "the note, the hook's own, stays given");
}

#[test]
fn generic_off_topic_and_slash_prompts_are_silent() {
    let ws = workspace(CONFIG);
    for text in
        ["sounds good, go on", "build a landing page in React", "/when writing mock tests", "/how x", "/compact"]
    {
        assert_eq!(respond(&input(prompt(ws.path(), "s", text)), None, None).unwrap(), None, "{text}");
    }
    assert!(is_slash_command("  /when writing mock tests"));
    assert!(!is_slash_command("/usr/bin/mock is missing"));
    assert!(!is_slash_command("writing mock tests"));
}

#[test]
fn session_start_says_how_to_recall() {
    let ws = workspace(CONFIG);
    let i = input(serde_json::json!({"hook_event_name": "SessionStart", "source": "startup", "cwd": ws.path()}));
    let ctx = context(respond(&i, None, None).unwrap(), "SessionStart");
    assert!(ctx.contains("(3 entries, 1 decision file)") && ctx.contains("/when"), "{ctx}");
    // The skills by the names the model is offered, with `init` and with the plugin.
    assert!(ctx.contains("`when` and `how`") && ctx.contains("`memory-index:when`"), "{ctx}");
}

#[test]
fn session_start_gives_its_note_once_a_session_and_again_after_a_compaction() {
    let ws = workspace(CONFIG);
    let state = tempfile::tempdir().unwrap();
    let start = |session: &str, source: &str| {
        let i = input(serde_json::json!({"hook_event_name": "SessionStart", "session_id": session,
            "source": source, "cwd": ws.path()}));
        respond(&i, None, Some(state.path())).unwrap()
    };
    assert!(context(start("s1", "startup"), "SessionStart").contains("/when"));
    // Copilot runs the hooks of .github/hooks/ and of .claude/settings.json: the second is silent.
    assert_eq!(start("s1", "startup"), None, "the note twice in one session");
    assert_eq!(start("s1", "resume"), None, "a resumed session has the note already");
    // The context lost it: given again, each time.
    assert!(context(start("s1", "compact"), "SessionStart").contains("/when"));
    assert!(context(start("s1", "clear"), "SessionStart").contains("/when"));
    assert!(context(start("s2", "startup"), "SessionStart").contains("/when"), "another session");
    // Without a session to remember it by (no id, or no state), the note is given.
    let no_id = input(serde_json::json!({"hook_event_name": "SessionStart", "cwd": ws.path()}));
    for _ in 0..2 {
        assert!(respond(&no_id, None, Some(state.path())).unwrap().is_some());
    }
}

#[test]
fn pre_tool_use_bash_injects_the_decision_governing_the_command() {
    let ws = workspace(CONFIG);
    let i = input(serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s",
        "tool_input": {"command": "git push --force origin main"}, "tool_use_id": "t1", "cwd": ws.path()}));
    let ctx = context(respond(&i, None, None).unwrap(), "PreToolUse");
    assert!(ctx.contains("\u{2192} When Force Pushing to a Shared Branch"), "{ctx}");
    // Another tool's input is not a command: a file's path brings what is scoped to it (nothing here).
    let read = input(serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": "README.md"}, "cwd": ws.path()}));
    assert_eq!(respond(&read, None, None).unwrap(), None);
}

#[test]
fn post_tool_use_failure_ranks_the_error_and_the_command() {
    let ws = workspace(CONFIG);
    let i = input(serde_json::json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
        "tool_input": {"command": "pytest -k booking"}, "cwd": ws.path(), "is_interrupt": false,
        "error": "Exit code 1\nE       fixture 'sailing' not found"}));
    let ctx = context(respond(&i, None, None).unwrap(), "PostToolUseFailure");
    assert!(ctx.contains("\u{2192} When Pytest Fails With Fixture Not Found"), "{ctx}");
    let mut stopped = i.clone();
    if let Event::PostToolUseFailure { interrupted, .. } = &mut stopped.ask.event {
        *interrupted = true;
    }
    assert_eq!(respond(&stopped, None, None), Ok(None), "an interrupt is not a failure to explain");
}

#[test]
fn a_failure_with_megabytes_of_output_is_answered() {
    let ws = workspace(CONFIG);
    let log = format!("Exit code 1\nE       fixture 'sailing' not found\n{}", "collected 1 item\n".repeat(200_000));
    let json = serde_json::json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
        "tool_input": {"command": "pytest -k booking"}, "cwd": ws.path(), "error": log})
    .to_string();
    assert!(json.len() > 3 << 20, "{}", json.len());
    let bytes = read_input(&mut json.as_bytes()).unwrap();
    let i = event::parse(&bytes, None, None).unwrap();
    let ctx = context(respond(&i, None, None).unwrap(), "PostToolUseFailure");
    assert!(ctx.contains("\u{2192} When Pytest Fails With Fixture Not Found"), "{ctx}");
}

#[test]
fn strict_thresholds_and_hook_off_are_silent() {
    let strict = workspace("[recall]\nprompt = 0.3\ncommand = 1.0\nerror = 1.0\n");
    let i = input(serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git push --force origin main"}, "cwd": strict.path()}));
    assert_eq!(respond(&i, None, None).unwrap(), None);
    let off = workspace("[recall]\nhook = false\nprompt = 0.0\n");
    for json in [
        prompt(off.path(), "s", "writing mock tests"),
        serde_json::json!({"hook_event_name": "SessionStart", "cwd": off.path()}),
    ] {
        assert_eq!(respond(&input(json), None, None).unwrap(), None);
    }
}

#[test]
fn the_workspace_comes_from_the_project_dir_else_cwd() {
    let ws = workspace(CONFIG);
    let other = workspace("[recall]\nhook = false\n");
    let none = tempfile::tempdir().unwrap();
    let no_cwd = input(serde_json::json!({"hook_event_name": "SessionStart"}));
    assert!(respond(&no_cwd, Some(ws.path()), None).unwrap().is_some());
    // The agent `cd`ed into a folder without a memory, or into another checkout: still this project's memory.
    let elsewhere = input(serde_json::json!({"hook_event_name": "SessionStart", "cwd": none.path()}));
    assert!(respond(&elsewhere, Some(ws.path()), None).unwrap().is_some());
    let other_checkout = input(serde_json::json!({"hook_event_name": "SessionStart", "cwd": other.path()}));
    assert!(
        respond(&other_checkout, Some(ws.path()), None).unwrap().is_some(),
        "not the other checkout's (silent) memory"
    );
    // Inside the project's sub-folder as CLAUDE_PROJECT_DIR: found upward.
    assert!(respond(&no_cwd, Some(&ws.path().join("src/deep")), None).unwrap().is_some());
    // Without CLAUDE_PROJECT_DIR the event's cwd is the start.
    assert_eq!(respond(&other_checkout, None, None), Ok(None));
    let err = respond(&elsewhere, None, None).unwrap_err();
    assert!(err.contains("no memory index"), "{err}");
    let other_event = input(serde_json::json!({"hook_event_name": "Stop", "cwd": none.path()}));
    assert_eq!(respond(&other_event, None, None), Ok(None));
}

#[test]
fn input_over_the_limit_is_refused_whole() {
    let big = vec![b' '; MAX_INPUT + 10];
    assert!(read_input(&mut big.as_slice()).unwrap_err().contains("larger than"));
    let ok = vec![b' '; MAX_INPUT];
    assert_eq!(read_input(&mut ok.as_slice()).unwrap().len(), MAX_INPUT);
}
