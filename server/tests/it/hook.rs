//! The `hook` command as Claude Code runs it: JSON on stdin, exit 0, stdout empty or one JSON object, one line on stderr on faults.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use support::*;

/// Runs `hook` with `stdin`, the session state in `state`, from `cwd`.
fn hook(stdin: &[u8], state: &Path, cwd: &Path) -> Output {
    let mut c = bin_in(cwd);
    c.arg("hook").env("MEMORY_INDEX_LSP_CACHE_DIR", state);
    run_with_stdin(c, stdin)
}

/// A copy of fixtures/demo (which has deliberate findings) with explicit thresholds.
fn demo(config: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo().join("fixtures/demo"), tmp.path());
    fs::write(tmp.path().join("memory-index.toml"), config).expect("config");
    tmp
}

const CONFIG: &str = "[recall]\nprompt = 0.3\ncommand = 0.3\nerror = 0.3\n";

/// The additionalContext of a successful, speaking call.
fn context(o: &Output, event: &str) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("stdout is one JSON object");
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event);
    v["hookSpecificOutput"]["additionalContext"].as_str().expect("additionalContext").to_string()
}

fn prompt(session: &str, cwd: &Path, text: &str) -> Vec<u8> {
    serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session,
        "transcript_path": "/dev/null", "cwd": cwd, "permission_mode": "default", "prompt": text})
    .to_string()
    .into_bytes()
}

#[test]
fn a_prompt_that_needs_a_demo_decision_gets_it_once_per_session() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    let p = prompt(
        "session-1",
        &ws.path().join("agents"),
        "We are writing mock tests for the booking client; mock patch where?",
    );
    let ctx = context(&hook(&p, state.path(), ws.path()), "UserPromptSubmit");
    assert!(
        ctx.starts_with("[memory-index] /when writing mock tests \u{2192} When Writing Mock Tests (agents/decisions/testing.md:12, confidence "),
        "{ctx}"
    );
    assert!(ctx.contains("Patch where the name is used"), "{ctx}");
    // A second process of the same session says nothing; another session hears it again.
    hook_silent(&hook(&p, state.path(), ws.path()));
    let other = prompt("session-2", ws.path(), "writing mock tests");
    assert!(context(&hook(&other, state.path(), ws.path()), "UserPromptSubmit").contains("When Writing Mock Tests"));
}

/// Issue 50: below the body threshold (0.5) and above the pointer floor
/// (0.2), a likely decision is named in one line, not shown; a pointer is
/// given once a session and does not count as the decision shown, so a
/// later prompt that is sure of it gets its body. The recall view answers
/// as the loaded memory does.
#[test]
fn a_likely_decision_below_the_threshold_is_pointed_at_once_and_its_body_still_comes() {
    let ws = demo("");
    let state = tempfile::tempdir().expect("state");
    // Files written just now are not trusted by a recall view (its racy window): let them age.
    std::thread::sleep(memory_index_lsp::project::recall_cache::RACY + std::time::Duration::from_millis(300));
    let unsure = "we patch things in tests";
    let ctx = context(&hook(&prompt("s1", ws.path(), unsure), state.path(), ws.path()), "UserPromptSubmit");
    let views = || {
        fs::read_dir(state.path().join("search"))
            .map(|rd| rd.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "view")).count())
            .unwrap_or(0)
    };
    assert_eq!(views(), 1, "the first call keeps a recall view, which the next answers from");
    let lines: Vec<&str> = ctx.lines().collect();
    assert!(
        lines[0].starts_with("[memory-index?] /when writing mock tests \u{2192} When Writing Mock Tests (agents/decisions/testing.md:12, confidence 0.4"),
        "{ctx}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.contains("read it with `/when writing mock tests` (the skill) only if it applies")),
        "{ctx}"
    );
    assert!(!ctx.contains("Patch where the name is used"), "a pointer shows no body: {ctx}");
    // Once a session; another session (answered from the recall view now) gets the same line.
    hook_silent(&hook(&prompt("s1", ws.path(), unsure), state.path(), ws.path()));
    let again = context(&hook(&prompt("s2", ws.path(), unsure), state.path(), ws.path()), "UserPromptSubmit");
    assert_eq!(again, ctx);
    // Sure now: the body comes, though the session was pointed at it.
    let sure = prompt("s1", ws.path(), "We are writing mock tests for the booking client; mock patch where?");
    let body = context(&hook(&sure, state.path(), ws.path()), "UserPromptSubmit");
    assert!(
        body.starts_with("[memory-index] /when writing mock tests") && body.contains("Patch where the name is used"),
        "{body}"
    );
    // Read on purpose (the pointer followed with `resolve` in a shell, or a typed `/when`): the
    // command gets nothing beside resolve's own answer, and the decision counts as shown.
    for (session, read) in [
        (
            "s4",
            serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "session_id": "s4",
            "cwd": ws.path(), "tool_input": {"command": "memory-index-lsp resolve \"when writing mock tests\""}}),
        ),
        (
            "s5",
            serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s5", "cwd": ws.path(),
            "prompt": "/when writing mock tests"}),
        ),
    ] {
        hook_silent(&hook(read.to_string().as_bytes(), state.path(), ws.path()));
        let sure = prompt(session, ws.path(), "We are writing mock tests for the booking client; mock patch where?");
        hook_silent(&hook(&sure, state.path(), ws.path()));
    }
    // Pointers off: silence.
    let off = demo("[recall]\nmax-pointers = 0\n");
    hook_silent(&hook(&prompt("s3", off.path(), unsure), state.path(), off.path()));
}

#[test]
fn generic_off_topic_and_slash_prompts_inject_nothing() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    for text in [
        "sounds good, go on",
        "build a landing page in React",
        "/when writing mock tests",
        "/how split slow test suites",
    ] {
        let err = hook_silent(&hook(&prompt("s", ws.path(), text), state.path(), ws.path()));
        assert!(err.is_empty(), "{text}: {err}");
    }
}

#[test]
fn session_ids_never_become_paths() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    for id in ["../../escape", "/tmp/abs", "..", "a/../../b"] {
        let o = hook(&prompt(id, ws.path(), "writing mock tests"), state.path(), ws.path());
        context(&o, "UserPromptSubmit");
    }
    let mut top: Vec<String> = fs::read_dir(state.path())
        .expect("state")
        .map(|e| e.expect("e").file_name().to_string_lossy().into_owned())
        .collect();
    top.sort();
    assert_eq!(top, ["search", "sessions"], "the sessions and the search index's snapshot, nothing else");
    let files: Vec<String> = fs::read_dir(state.path().join("sessions"))
        .expect("sessions")
        .map(|e| e.expect("e").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.len(), 4);
    assert!(files.iter().all(|f| f.len() == 21 && f.ends_with(".seen") && !f.contains("..")), "{files:?}");
    assert!(!state.path().parent().expect("parent").join("escape").exists());
}

#[test]
fn session_start_pre_tool_use_and_failure() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    let start = serde_json::json!({"hook_event_name": "SessionStart", "source": "startup", "session_id": "s", "cwd": ws.path()});
    let ctx = context(&hook(start.to_string().as_bytes(), state.path(), ws.path()), "SessionStart");
    assert!(ctx.contains("agents/memory-index.md (") && ctx.contains("4 decision files"), "{ctx}");

    let pre = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": ws.path(), "tool_name": "Bash",
        "tool_use_id": "toolu_1", "tool_input": {"command": "alembic revision -m 'migrate the booking schema'"}});
    let o = hook(pre.to_string().as_bytes(), state.path(), ws.path());
    let ctx = context(&o, "PreToolUse");
    assert!(ctx.contains("\u{2192} How to Migrate the Booking Schema"), "{ctx}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v["hookSpecificOutput"].get("permissionDecision").is_none() && v.get("decision").is_none());

    let fail = serde_json::json!({"hook_event_name": "PostToolUseFailure", "session_id": "s2", "cwd": ws.path(),
        "tool_name": "Bash", "tool_input": {"command": "pytest tests/test_prices.py"}, "is_interrupt": false,
        "error": "Exit code 1\nFAILED test_ticket_prices - float ticket prices lose cents, store money as decimal"});
    let ctx = context(&hook(fail.to_string().as_bytes(), state.path(), ws.path()), "PostToolUseFailure");
    assert!(ctx.contains("\u{2192} How to Store Ticket Prices"), "{ctx}");
}

#[test]
fn hook_false_prints_nothing() {
    let ws = demo("[recall]\nhook = false\nprompt = 0.0\n");
    let state = tempfile::tempdir().expect("state");
    hook_silent(&hook(&prompt("s", ws.path(), "writing mock tests"), state.path(), ws.path()));
    let start = serde_json::json!({"hook_event_name": "SessionStart", "cwd": ws.path()});
    hook_silent(&hook(start.to_string().as_bytes(), state.path(), ws.path()));
}

/// A typo beside `hook = false` (found by review: the whole file used to be
/// thrown away, and the hook spoke again) leaves the hook off and says where.
#[test]
fn a_wrong_key_beside_hook_false_keeps_the_hook_off_and_says_so() {
    let ws = demo("[recall]\nhook = false\nprompt = 0.0\nmax-decision = 1\n");
    let state = tempfile::tempdir().expect("state");
    let err = hook_silent(&hook(&prompt("s", ws.path(), "writing mock tests"), state.path(), ws.path()));
    assert!(err.contains("unknown key `max-decision` in `[recall]`") && err.contains("check"), "{err}");
    let check = bin_in(ws.path()).args(["check", "--format", "json"]).output().expect("check");
    let out = String::from_utf8_lossy(&check.stdout);
    assert!(out.contains("invalid-config") && out.contains("max-decision"), "{out}");
}

#[test]
fn faults_exit_0_with_empty_stdout_and_one_line_on_stderr() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    let nowhere = tempfile::tempdir().expect("nowhere");
    let mut big = br#"{"hook_event_name":"UserPromptSubmit","prompt":""#.to_vec();
    big.resize(17 * 1024 * 1024, b'a');
    big.extend_from_slice(br#""}"#);
    let cases: Vec<(&str, Vec<u8>, &Path)> = vec![
        ("empty", Vec::new(), ws.path()),
        ("not JSON", b"{\"hook_event_name\": ".to_vec(), ws.path()),
        ("invalid UTF-8", b"{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"\xff\xfe\"}".to_vec(), ws.path()),
        ("wrong types", br#"{"hook_event_name":"UserPromptSubmit","prompt":{"a":1}}"#.to_vec(), ws.path()),
        ("wrong cwd type", br#"{"hook_event_name":"SessionStart","cwd":7}"#.to_vec(), ws.path()),
        ("an array", b"[]".to_vec(), ws.path()),
        ("17 MB", big, ws.path()),
        ("no workspace", prompt("s", nowhere.path(), "writing mock tests"), nowhere.path()),
    ];
    for (name, input, cwd) in cases {
        let err = hook_silent(&hook(&input, state.path(), cwd));
        assert!(err.starts_with("memory-index-lsp hook: "), "{name}: {err:?}");
    }
}

#[test]
#[cfg(unix)]
fn unreadable_decision_files_do_not_break_the_hook() {
    use std::os::unix::fs::PermissionsExt;
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    let f = ws.path().join("agents/decisions/testing.md");
    fs::set_permissions(&f, fs::Permissions::from_mode(0o000)).expect("chmod");
    let o = hook(&prompt("s", ws.path(), "how store ticket prices in cents"), state.path(), ws.path());
    assert_eq!(o.status.code(), Some(0));
    if !o.stdout.is_empty() {
        context(&o, "UserPromptSubmit");
    }
    fs::set_permissions(&f, fs::Permissions::from_mode(0o644)).expect("chmod back");
}

#[test]
fn concurrent_sessions_each_keep_their_own_state() {
    let ws = demo(CONFIG);
    let state = tempfile::tempdir().expect("state");
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let (root, state) = (ws.path().to_path_buf(), state.path().to_path_buf());
            std::thread::spawn(move || {
                hook(&prompt(&format!("parallel-{i}"), &root, "writing mock tests"), &state, &root)
            })
        })
        .collect();
    for h in handles {
        assert!(context(&h.join().expect("thread"), "UserPromptSubmit").contains("When Writing Mock Tests"));
    }
    let dir = state.path().join("sessions");
    let files: Vec<_> = fs::read_dir(&dir).expect("sessions").map(|e| e.expect("e").path()).collect();
    assert_eq!(files.len(), 8);
    for f in files {
        assert_eq!(fs::read_to_string(&f).expect("read"), "agents/decisions/testing.md\twhen writing mock tests\n");
    }
}

/// A named pipe among the decision files never blocks the hook: the prompt
/// still gets its decision at once.
#[cfg(unix)]
#[test]
fn a_named_pipe_never_blocks_the_hook() {
    let tmp = demo(CONFIG);
    let fifo = tmp.path().join("agents/decisions/pipe.md");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let state = tempfile::tempdir().expect("state");
    let input = serde_json::json!({
        "hook_event_name": "UserPromptSubmit",
        "session_id": "fifo",
        "cwd": tmp.path(),
        "prompt": "how should I store ticket prices, as money in cents?"
    });
    let start = std::time::Instant::now();
    let o = hook(input.to_string().as_bytes(), state.path(), tmp.path());
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
    assert!(context(&o, "UserPromptSubmit").contains("How to Store Ticket Prices"));
}

/// Issue 50, session continuity: a session's start names the decisions
/// added or changed since the project's last session started (at most
/// five, new first); the first session and one after no change name none.
#[test]
fn a_session_start_names_what_changed_since_the_last_session() {
    let ws = demo("");
    let state = tempfile::tempdir().expect("state");
    let start = |id: &str| {
        let event = serde_json::json!({"hook_event_name": "SessionStart", "session_id": id, "cwd": ws.path(),
            "source": "startup"});
        context(&hook(event.to_string().as_bytes(), state.path(), ws.path()), "SessionStart")
    };
    const LINE: &str = "Decisions added or changed since this project's last session";
    assert!(!start("a").contains(LINE), "the first session names nothing");
    // A teammate's pull: one decision rewritten, one added with its entry.
    let testing = ws.path().join("agents/decisions/testing.md");
    let text = fs::read_to_string(&testing).expect("testing");
    fs::write(&testing, text.replace("Patch where the name is used", "Patch where the name is looked up"))
        .expect("edit");
    let mut c = bin_in(ws.path());
    c.args(["remember", "--when", "Naming Feature Flags", "--file", "testing.md", "--body-file", "-"]);
    let o = run_with_stdin(c, b"Prefix every feature flag with its team's name.\n");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let note = start("b");
    assert!(
        note.contains(&format!("{LINE} (recall one before work it touches): When Naming Feature Flags (new), When Writing Mock Tests (changed).")),
        "{note}"
    );
    assert!(!start("c").contains(LINE), "named once: the next session starts from here");
}
