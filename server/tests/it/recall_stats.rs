//! `recall-stats` over transcripts built here in Claude Code's JSONL shape: it counts exactly what the test built.

use crate::support;

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
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("| total | 4 | 3 | 1 | 1 | 2 | 67% | 2 |"), "{text}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.jsonl"), "a missing file is named");
}
