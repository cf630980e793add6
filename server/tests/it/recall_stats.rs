//! `recall-stats` over transcripts built here in Claude Code's JSONL shape: it counts exactly what the test built.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::*;

fn line(v: serde_json::Value) -> String {
    format!("{v}\n")
}

fn user(session: &str, text: &str) -> String {
    line(serde_json::json!({
        "type": "user", "sessionId": session, "isSidechain": false, "uuid": "u",
        "message": {"role": "user", "content": text},
    }))
}

fn assistant_tool(session: &str, id: &str, name: &str, input: serde_json::Value) -> String {
    line(serde_json::json!({
        "type": "assistant", "sessionId": session,
        "message": {"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": name, "input": input}]},
    }))
}

fn tool_result(session: &str, id: &str, content: &str) -> String {
    line(serde_json::json!({
        "type": "user", "sessionId": session,
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": content}]},
    }))
}

fn hook_context(session: &str, text: &str) -> String {
    line(serde_json::json!({
        "type": "attachment", "sessionId": session,
        "attachment": {"type": "hook_additional_context", "hookEvent": "UserPromptSubmit", "content": [text]},
    }))
}

#[test]
fn recall_stats_counts_injected_and_fetched_turns() {
    let demo = repo().join("fixtures/demo");
    let dir = tempfile::tempdir().expect("tempdir");
    let s = "s-1";
    let mut t = String::new();
    // Turn 1: a decision applies and the hook injected it.
    t += &user(s, "when writing mock tests, where do I patch the payment client mock? mock patch test doubles");
    t += &hook_context(
        s,
        "[memory-index] /when writing mock tests → When Writing Mock Tests (agents/decisions/testing.md:9, confidence 0.97)\nPatch where the name is looked up.",
    );
    // Turn 2: a decision applies; the agent called the /when skill and got the section back.
    t += &user(s, "how should we store ticket prices, money in cents or decimal?");
    t += &assistant_tool(
        s,
        "t1",
        "Skill",
        serde_json::json!({"skill": "memory-index:when", "args": "store ticket prices"}),
    );
    t += &tool_result(s, "t1", "# How to Store Ticket Prices\n\nInteger cents.\n\nSource: agents/decisions/data.md");
    // Turn 3: a generic turn: no opportunity.
    t += &user(s, "sounds good, go on");
    // Turn 4: a decision applies but nothing reached the agent (the model only talked about it).
    t += &user(s, "how do we paginate list responses with a cursor and page token?");
    t += &line(serde_json::json!({"type": "assistant", "sessionId": s,
        "message": {"role": "assistant", "content": [{"type": "text", "text": "# How to Paginate List Responses"}]}}));
    t += "{ this line is not json\n";
    t += "[1, 2]\n";
    std::fs::write(dir.path().join("s-1.jsonl"), &t).expect("write");
    std::fs::write(dir.path().join("notes.txt"), "not a transcript").expect("write");

    let o = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["recall-stats", "--json", "--threshold", "0.5", "--root"])
        .arg(&demo)
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let total = &v["total"];
    assert_eq!(v["sessions"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["sessions"][0]["session"], "s-1");
    assert_eq!(total["prompts"], 4, "{v}");
    assert_eq!(total["opportunities"], 3, "{v}");
    assert_eq!(total["injected"], 1, "{v}");
    assert_eq!(total["fetched"], 1, "{v}");
    assert_eq!(total["reached"], 2, "{v}");
    assert_eq!(total["malformed_lines"], 2, "{v}");
    assert!((v["recall_rate"].as_f64().expect("rate") - 2.0 / 3.0).abs() < 1e-9);

    // The human table has the same numbers.
    let o = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["recall-stats", "--threshold", "0.5", "--root"])
        .arg(&demo)
        .arg(dir.path().join("s-1.jsonl"))
        .arg(dir.path().join("missing.jsonl"))
        .output()
        .expect("run");
    // The figures of what could be read, and exit 1: a transcript given is missing from them.
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("| total | 4 | 3 | 1 | 1 | 2 | 67% | 1 | 0 | 0% | 0 | 0 | 2 |"), "{text}");
    assert!(text.contains("- s-1: /when writing mock tests \u{2192} When Writing Mock Tests (not used)"), "{text}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.jsonl"), "a missing file is named");
}

fn header(entry: &str, title: &str, path: &str) -> String {
    format!("[memory-index] {entry} \u{2192} {title} ({path}:3, confidence 0.91)\nThe section's text.")
}

fn said(session: &str, text: &str) -> String {
    line(serde_json::json!({"type": "assistant", "sessionId": session,
        "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}))
}

/// Each injected decision is judged used or not from what the agent did in
/// that turn and the next: read its file, ran its trigger, named it, used
/// its words; the share used is in the table and in `--json`.
#[test]
fn recall_stats_says_which_injected_decisions_the_agent_used() {
    let demo = repo().join("fixtures/demo");
    let dir = tempfile::tempdir().expect("tempdir");
    let s = "s-used";
    let mut t = String::new();
    // Turn 1: two decisions injected; the agent reads the first one's file.
    t += &user(s, "we need to write tests for the booking client");
    t +=
        &hook_context(s, &header("/when writing mock tests", "When Writing Mock Tests", "agents/decisions/testing.md"));
    t +=
        &hook_context(s, &header("/how store ticket prices", "How to Store Ticket Prices", "agents/decisions/data.md"));
    t += &assistant_tool(s, "r1", "Read", serde_json::json!({"file_path": "/repo/agents/decisions/testing.md"}));
    // Turn 2: the second one is used in the next turn, in the agent's own words (stems match).
    t += &user(s, "ok, and the fares?");
    t += &said(s, "I will store the ticket price as integer cents.");
    // Turn 3: injected, the agent runs its trigger.
    t += &user(s, "and the list endpoint?");
    t += &hook_context(
        s,
        &header("/how paginate list responses", "How to Paginate List Responses", "agents/decisions/api.md"),
    );
    t += &assistant_tool(
        s,
        "b1",
        "Bash",
        serde_json::json!({"command": "memory-index-lsp resolve \"how paginate list responses\""}),
    );
    // Turn 4: injected and ignored, and turn 5 (the next) does not use it either.
    t += &user(s, "rename the module");
    t += &hook_context(
        s,
        &header("/when versioning public endpoints", "When Versioning Public Endpoints", "agents/decisions/api.md#x"),
    );
    t += &said(s, "Renamed.");
    t += &user(s, "thanks");
    t += &said(s, "You are welcome.");
    // Turn 6: versioning named two turns later: too late to count.
    t += &user(s, "one more thing");
    t += &said(s, "About versioning public endpoints: nothing to add.");
    std::fs::write(dir.path().join("s.jsonl"), &t).expect("write");
    let run = |json: bool| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
        c.args(["recall-stats", "--root"]).arg(&demo).arg(dir.path());
        if json {
            c.arg("--json");
        }
        c.output().expect("run")
    };
    let o = run(true);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!((v["total"]["injections"].as_u64(), v["total"]["used"].as_u64()), (Some(4), Some(3)), "{v}");
    assert!((v["used_rate"].as_f64().expect("used_rate") - 0.75).abs() < 1e-9);
    let how: Vec<(String, serde_json::Value)> = v["sessions"][0]["decisions"]
        .as_array()
        .expect("decisions")
        .iter()
        .map(|d| (d["title"].as_str().expect("title").to_string(), d["used"].clone()))
        .collect();
    assert_eq!(
        how,
        [
            ("When Writing Mock Tests".to_string(), serde_json::json!("read its file")),
            ("How to Store Ticket Prices".to_string(), serde_json::json!("used its words")),
            ("How to Paginate List Responses".to_string(), serde_json::json!("ran its trigger")),
            ("When Versioning Public Endpoints".to_string(), serde_json::Value::Null),
        ]
    );
    let text = String::from_utf8_lossy(&run(false).stdout).into_owned();
    assert!(text.contains("| 4 | 3 | 75% |"), "{text}");
    assert!(
        text.contains("/how store ticket prices \u{2192} How to Store Ticket Prices (used: used its words)"),
        "{text}"
    );
    assert!(text.contains("When Versioning Public Endpoints (not used)"), "{text}");
}

/// Found by review: when two decisions of one file were injected together and the agent read that
/// file for one of them, both were counted used.
#[test]
fn reading_a_file_is_no_use_of_every_decision_it_gave() {
    let demo = repo().join("fixtures/demo");
    let dir = tempfile::tempdir().expect("tempdir");
    let s = "s-shared";
    let mut t = String::new();
    t += &user(s, "we need to write tests for the payment webhooks and the booking client");
    t +=
        &hook_context(s, &header("/when writing mock tests", "When Writing Mock Tests", "agents/decisions/testing.md"));
    t += &hook_context(
        s,
        &header("/when testing payment webhooks", "When Testing Payment Webhooks", "agents/decisions/testing.md"),
    );
    t += &assistant_tool(s, "r1", "Read", serde_json::json!({"file_path": "/repo/agents/decisions/testing.md"}));
    t += &said(s, "Following When Testing Payment Webhooks, I replay the recorded events.");
    std::fs::write(dir.path().join("s.jsonl"), &t).expect("write");
    let mut c = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
    c.args(["recall-stats", "--json", "--root"]).arg(&demo).arg(dir.path());
    let o = c.output().expect("run");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let used: Vec<serde_json::Value> =
        v["sessions"][0]["decisions"].as_array().expect("decisions").iter().map(|d| d["used"].clone()).collect();
    assert!(used[0].is_null() && !used[1].is_null(), "{v}");
}

/// Issue 50: a pointer (`[memory-index?]`, a decision named, not shown) is
/// counted, and followed when the agent read that decision in that turn or
/// the next (its section printed, its trigger run); pointer lines are never
/// counted as decisions injected.
#[test]
fn recall_stats_counts_pointers_and_whether_they_were_followed() {
    let demo = repo().join("fixtures/demo");
    let dir = tempfile::tempdir().expect("tempdir");
    let s = "s-ptr";
    let pointer = |entry: &str, title: &str, path: &str| {
        format!(
            "[memory-index?] {entry} \u{2192} {title} ({path}:12, confidence 0.41)\n[memory-index?] A recorded \
             decision that may apply, not shown: read it with `{entry}` (the skill) only if it applies to this task; \
             otherwise ignore it."
        )
    };
    let mut t = String::new();
    // Turn 1: pointed at; the agent runs the skill, and the section comes back.
    t += &user(s, "we patch things in tests");
    t += &hook_context(
        s,
        &pointer("/when writing mock tests", "When Writing Mock Tests", "agents/decisions/testing.md"),
    );
    t += &assistant_tool(s, "k1", "Skill", serde_json::json!({"skill": "when", "args": "writing mock tests"}));
    t += &tool_result(s, "k1", "# When Writing Mock Tests\n\nPatch where the name is used.");
    // Turn 2: pointed at; the agent runs resolve in the next turn.
    t += &user(s, "what about money in the fares table");
    t += &hook_context(
        s,
        &pointer("/how store ticket prices", "How to Store Ticket Prices", "agents/decisions/data.md"),
    );
    t += &user(s, "go on");
    t += &assistant_tool(
        s,
        "b1",
        "Bash",
        serde_json::json!({"command": "memory-index-lsp resolve \"how store ticket prices\""}),
    );
    // Turn 4: pointed at and passed over.
    t += &user(s, "and the list endpoint");
    t += &hook_context(
        s,
        &pointer("/how paginate list responses", "How to Paginate List Responses", "agents/decisions/api.md"),
    );
    t += &said(s, "Done.");
    std::fs::write(dir.path().join("s-ptr.jsonl"), &t).expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["recall-stats", "--json", "--root"])
        .arg(&demo)
        .arg(dir.path())
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let total = &v["total"];
    assert_eq!((total["pointers"].as_u64(), total["followed"].as_u64()), (Some(3), Some(2)), "{v}");
    assert_eq!(total["injections"], 0, "a pointer is no decision injected: {v}");
    assert!((v["followed_rate"].as_f64().expect("rate") - 2.0 / 3.0).abs() < 1e-9, "{v}");
}

/// A Codex rollout line (`{"type", "payload"}`, as Codex 0.169 writes them: recorded by the agents' e2e test).
fn codex(kind: &str, payload: serde_json::Value) -> String {
    line(serde_json::json!({"timestamp": "2026-12-04T17:26:11.229Z", "type": kind, "payload": payload}))
}

fn codex_prompt(text: &str) -> String {
    codex(
        "event_msg",
        serde_json::json!({"type": "item_completed", "thread_id": "t", "turn_id": "u",
        "item": {"type": "UserMessage", "id": "m", "content": [{"type": "text", "text": text}]}}),
    )
}

fn codex_message(role: &str, text: &str) -> String {
    let kind = if role == "assistant" { "output_text" } else { "input_text" };
    codex(
        "response_item",
        serde_json::json!({"type": "message", "role": role, "content": [{"type": kind, "text": text}]}),
    )
}

/// Codex's rollouts count as Claude Code's transcripts do: the person's
/// prompts (not the instructions Codex sends as user messages), the hook's
/// blocks and pointers (developer messages), what the agent ran; and with no
/// PATHS, the rollouts under `$CODEX_HOME/sessions` of sessions started in
/// the project are read, and no other project's.
#[test]
fn recall_stats_reads_codex_rollouts() {
    let demo = repo().join("fixtures/demo");
    let home = tempfile::tempdir().expect("home");
    let day = home.path().join("codex/sessions/2026/12/04");
    std::fs::create_dir_all(&day).expect("dir");
    let rollout = |id: &str, cwd: &Path, body: &str| {
        let meta = codex("session_meta", serde_json::json!({"id": id, "cwd": cwd, "originator": "codex_exec"}));
        std::fs::write(day.join(format!("rollout-2026-12-04T17-26-11-{id}.jsonl")), format!("{meta}{body}"))
            .expect("write");
    };
    let mut t = String::new();
    t += &codex_message("user", "# AGENTS.md instructions for the project\n\nwhen writing mock tests, read the memory");
    // Turn 1: a decision applies, the hook injected it, the agent named it.
    t += &codex_prompt("when writing mock tests, where do I patch the payment client mock? mock patch test doubles");
    t += &codex_message(
        "developer",
        &header("/when writing mock tests", "When Writing Mock Tests", "agents/decisions/testing.md"),
    );
    t += &codex_message("assistant", "Following When Writing Mock Tests: patch where the name is used.");
    // Turn 2: pointed at; the agent runs the resolve it names.
    t += &codex_prompt("what about money in the fares table");
    t += &codex_message(
        "developer",
        "[memory-index?] /how store ticket prices \u{2192} How to Store Ticket Prices (agents/decisions/data.md:3, confidence 0.41)",
    );
    t += &codex(
        "response_item",
        serde_json::json!({"type": "function_call", "name": "exec_command",
        "arguments": "{\"cmd\": \"memory-index-lsp resolve \\\"how store ticket prices\\\"\"}", "call_id": "c1"}),
    );
    t += &codex(
        "response_item",
        serde_json::json!({"type": "function_call_output", "call_id": "c1",
        "output": "# How to Store Ticket Prices\n\nStore money as integer cents."}),
    );
    // An older rollout's events: the environment is no prompt, and a prompt recorded twice is one.
    t += &codex(
        "event_msg",
        serde_json::json!({"type": "user_message", "kind": "environment_context", "message": "<environment_context>cwd</environment_context>"}),
    );
    t += &codex(
        "event_msg",
        serde_json::json!({"type": "user_message", "kind": "plain", "message": "and the list endpoint"}),
    );
    t += &codex_message("user", "and the list endpoint");
    t += &codex_prompt("and the list endpoint");
    t += "not json\n";
    rollout("codex-here", &demo, &t);
    let elsewhere = tempfile::tempdir().expect("elsewhere");
    rollout("codex-elsewhere", elsewhere.path(), &codex_prompt("when writing mock tests, where do I patch?"));
    let o = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["recall-stats", "--json", "--root"])
        .arg(&demo)
        .env("HOME", home.path())
        .env("CODEX_HOME", home.path().join("codex"))
        .output()
        .expect("run");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let sessions: Vec<&str> =
        v["sessions"].as_array().expect("sessions").iter().filter_map(|s| s["session"].as_str()).collect();
    assert_eq!(sessions, ["codex-here"], "only the project's sessions: {v}");
    let total = &v["total"];
    assert_eq!(total["prompts"], 3, "the instructions and the environment are no prompt, a prompt twice is one: {v}");
    assert_eq!((total["injections"].as_u64(), total["used"].as_u64()), (Some(1), Some(1)), "{v}");
    assert_eq!((total["pointers"].as_u64(), total["followed"].as_u64()), (Some(1), Some(1)), "{v}");
    assert_eq!(total["malformed_lines"], 1, "{v}");
}
