//! Refactoring over stdio on copies of the real corpus: drift quick fixes, fix-all, file renames.

use crate::lsp_support;

use std::collections::BTreeMap;

use lsp_support::*;
use serde_json::{json, Value};

/// Applies a WorkspaceEdit's `changes` to the files on disk.
fn apply_to_disk(edit: &Value) {
    let Some(changes) = edit["changes"].as_object() else { return };
    for (uri, edits) in changes {
        let path = uri.strip_prefix("file://").expect("file uri");
        let text = std::fs::read_to_string(path).expect("read");
        let idx = memory_index_lsp::text::LineIndex::new(&text);
        let mut es: Vec<memory_index_lsp::edit::TextEdit> = edits
            .as_array()
            .expect("edits")
            .iter()
            .map(|e| {
                let at = |p: &Value| {
                    idx.offset(
                        &text,
                        memory_index_lsp::text::LineCol {
                            line: p["line"].as_u64().unwrap_or(0) as u32,
                            col: p["character"].as_u64().unwrap_or(0) as u32,
                        },
                        memory_index_lsp::text::Encoding::Utf8,
                    )
                };
                memory_index_lsp::edit::TextEdit::replace(
                    memory_index_lsp::text::TextRange::new(at(&e["range"]["start"]), at(&e["range"]["end"])),
                    e["newText"].as_str().unwrap_or(""),
                )
            })
            .collect();
        es.sort_by_key(|e| e.range.start);
        std::fs::write(path, memory_index_lsp::edit::apply(&text, &es).0).expect("write");
    }
}

#[test]
fn drift_quick_fix_renames_the_vet_heading_and_both_findings_go() {
    let Some(tmp) = corpus_copy("655f089e") else { return };
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let line = text.lines().position(|l| l.starts_with("/when review flags unused code")).expect("entry") as u32;
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.diagnostics(&index, |d| d.iter().any(|x| x["code"] == "orphan-entry"));
    let actions = c.request("textDocument/codeAction", json!({"textDocument": {"uri": index}, "range": {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 8}}, "context": {"diagnostics": [], "only": ["quickfix"]}}));
    let rename = actions["result"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.contains("Rename heading `When Vet Flags Unused Code`")))
        .expect("the drift fix is offered")
        .clone();
    apply_to_disk(&rename["edit"]);
    let decision = root.join("agents/decisions/orchestration-execution.md");
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(&decision), "type": 2}]}));
    let d = c
        .diagnostics(&index, |d| !d.iter().any(|x| x["code"] == "orphan-entry" && x["range"]["start"]["line"] == line));
    assert!(!d.iter().any(|x| x["code"] == "orphan-entry" && x["range"]["start"]["line"] == line));
    let gone = |d: &[Value]| !d.iter().any(|x| x["code"] == "unindexed-heading" && x["range"]["start"]["line"] == 277);
    let dd = c.diagnostics(&uri(&decision), gone);
    assert!(gone(&dd));
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn fix_all_action_equals_the_fix_cli() {
    let Some(tmp) = corpus_copy("655f089e") else { return };
    let Some(cli_tmp) = corpus_copy("655f089e") else { return };
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let before = std::fs::read_to_string(&index_path).expect("index");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let index = uri(&index_path);
    c.diagnostics(&index, |d| !d.is_empty());
    let r = c.request("textDocument/codeAction", json!({"textDocument": {"uri": index}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "context": {"diagnostics": [], "only": ["source.fixAll"]}}));
    let action = r["result"][0].clone();
    assert_eq!(action["kind"], "source.fixAll.memory-index");
    apply_to_disk(&action["edit"]);
    let after = std::fs::read_to_string(&index_path).expect("index");
    std::process::Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("fix")
        .arg(cli_tmp.path())
        .output()
        .expect("fix");
    let cli = std::fs::read_to_string(cli_tmp.path().join("agents/memory-index.md")).expect("index");
    assert_eq!(after, cli, "the editor's fix-all and `fix` agree");
    let lines = |t: &str| {
        t.lines().filter(|l| !l.trim().is_empty()).fold(BTreeMap::<String, usize>::new(), |mut m, l| {
            *m.entry(l.to_string()).or_default() += 1;
            m
        })
    };
    assert_eq!(lines(&before), lines(&after), "every non-blank line survives");
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": index, "type": 2}]}));
    let d = c
        .diagnostics(&index, |d| !d.iter().any(|x| x["code"] == "unordered-section" || x["code"] == "misplaced-entry"));
    assert!(!d.is_empty(), "orphans remain for a person to decide");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn will_rename_files_updates_section_names_and_file_invocations() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    std::fs::write(root.join("CLAUDE.md"), "Load `/when ..data.md` first.\n").expect("write");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let old = uri(&root.join("agents/decisions/data.md"));
    let new = uri(&root.join("agents/decisions/storage.md"));
    let r = c.request("workspace/willRenameFiles", json!({"files": [{"oldUri": old, "newUri": new}]}));
    let changes = r["result"]["changes"].as_object().expect("changes");
    let idx = &changes[&uri(&root.join("agents/memory-index.md"))];
    assert_eq!(idx[0]["newText"], "agents/decisions/storage.md");
    assert_eq!(changes[&uri(&root.join("CLAUDE.md"))][0]["newText"], "storage.md");
    assert_eq!(c.shutdown(), Some(0));
}

/// Fix-all over a large workspace is a long request: cancelling it mid-way is
/// answered `RequestCancelled` (-32800), not with the edit, and the server
/// goes on answering.
#[test]
fn a_cancelled_fix_all_is_answered_as_cancelled() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (p, t) in crate::support::gen::generate(5000, 250, 3) {
        let path = tmp.path().join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, t).expect("write");
    }
    let root = tmp.path().canonicalize().expect("canon");
    let index = uri(&root.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.diagnostics(&index, |d| !d.is_empty());
    let id = 9_000;
    c.send(&json!({"jsonrpc": "2.0", "id": id, "method": "codeAction/resolve",
                   "params": {"title": "Fix all memory-index problems", "data": {"fixAll": index}}}));
    // Under way, but far from done: fix-all over 5,000 entries takes tens of
    // milliseconds even in a release build.
    std::thread::sleep(std::time::Duration::from_millis(2));
    c.notify("$/cancelRequest", json!({"id": id}));
    let answer = c.wait(|m| m["id"] == id);
    let shown: String = answer.to_string().chars().take(300).collect();
    assert_eq!(answer["error"]["code"], -32800, "cancelled, not answered with the edit: {shown}");
    let symbols = c.request("workspace/symbol", json!({"query": "when"}));
    assert!(symbols["result"].as_array().is_some_and(|s| !s.is_empty()), "{symbols}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Requests read a snapshot: while fix-all runs over a large workspace, an
/// edit applies and a hover after it sees the edited text; fix-all still
/// answers, with the edit for the state it started from. (That the edit does
/// not wait for fix-all is `lsp::state`'s snapshot test; the timing is in
/// docs/performance.md.)
#[test]
fn an_edit_during_a_long_request_applies_and_both_answer() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (p, t) in crate::support::gen::generate(10_000, 500, 3) {
        let path = tmp.path().join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, t).expect("write");
    }
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    c.diagnostics(&index, |d| !d.is_empty());
    let (fix_all, hover) = (9_100, 9_101);
    c.send(&json!({"jsonrpc": "2.0", "id": fix_all, "method": "codeAction/resolve",
                   "params": {"title": "Fix all memory-index problems", "data": {"fixAll": index}}}));
    // Retyping a trigger (a splice) while fix-all is under way.
    let first_section = text.lines().position(|l| l.starts_with("## ")).expect("a section");
    let line =
        first_section + text.lines().skip(first_section).position(|l| l.starts_with("/when ")).expect("an entry");
    let typed = text.lines().nth(line).expect("line").to_string();
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": index, "version": 2},
        "contentChanges": [{"range": {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 6}}, "text": "zz"}]}));
    c.send(&json!({"jsonrpc": "2.0", "id": hover, "method": "textDocument/hover",
                   "params": {"textDocument": {"uri": index}, "position": {"line": line, "character": 7}}}));
    let hovered = c.wait(|m| m["id"] == hover);
    let shown = hovered["result"]["contents"]["value"].as_str().unwrap_or("").to_string();
    assert!(shown.contains("A guess"), "the edited trigger (now an orphan) is hovered, not {typed:?}: {shown}");
    let answer = c.wait(|m| m["id"] == fix_all);
    // One minimal edit of the text fix-all started from: applied to it, the typed trigger is still as it was.
    let edit = &answer["result"]["edit"]["changes"][index.as_str()][0];
    let offset = |p: &serde_json::Value| {
        let line = p["line"].as_u64().expect("line") as usize;
        text.split_inclusive('\n').take(line).map(str::len).sum::<usize>()
            + p["character"].as_u64().expect("col") as usize
    };
    let (start, end) = (offset(&edit["range"]["start"]), offset(&edit["range"]["end"]));
    let fixed = format!("{}{}{}", &text[..start], edit["newText"].as_str().expect("newText"), &text[end..]);
    assert!(fixed.lines().any(|l| l == typed), "fix-all's edit is for the text it started from");
    assert_ne!(fixed, text, "it changes something");
    assert_eq!(c.shutdown(), Some(0));
}

/// `memory-index.remember` over stdio: the client is asked to create the file
/// and apply one minimal edit per file; a refusal changes nothing.
#[test]
fn remember_command_asks_the_client_to_apply_one_edit() {
    let tmp = demo_copy();
    let mut c = Client::spawn();
    c.initialize(tmp.path(), true, json!({"workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create"]}}}));
    let caps = c
        .seen
        .iter()
        .find_map(|m| m["result"]["capabilities"]["executeCommandProvider"]["commands"].as_array().cloned());
    assert!(caps.is_some_and(|cs| cs.iter().any(|x| x == "memory-index.remember")));
    let args = json!([{"operator": "how", "title": "Refund Cancelled Tickets", "file": "refunds.md",
        "body": "Refund to the original payment method.\nRelease the held seats at once.\n", "extras": ["refund policy"]}]);
    let r = c.request("workspace/executeCommand", json!({"command": "memory-index.remember", "arguments": args}));
    assert!(r.get("error").is_none(), "{r}");
    let refunds = uri(&tmp.path().join("agents/decisions/refunds.md"));
    assert_eq!(r["result"]["location"]["uri"], refunds.as_str());
    assert_eq!(r["result"]["location"]["range"]["start"]["line"], 2);
    // Every file the edit changes, so the editor can save them (without auto save nothing would reach the disk).
    let index = uri(&tmp.path().join("agents/memory-index.md"));
    assert_eq!(r["result"]["changed"], json!([refunds.as_str(), index.as_str()]));
    let apply = c.wait(|m| m["method"] == "workspace/applyEdit");
    let ops = apply["params"]["edit"]["documentChanges"].as_array().expect("documentChanges").clone();
    assert_eq!(ops[0]["kind"], "create");
    assert_eq!(ops[0]["uri"], refunds.as_str());
    assert_eq!(
        ops[1]["edits"][0]["newText"],
        "# Refunds\n\n## How to Refund Cancelled Tickets\n\nRefund to the original payment method.\nRelease the held seats at once.\n"
    );
    let index_edit = &ops[2]["edits"][0];
    assert!(
        index_edit["newText"].as_str().is_some_and(
            |t| t.contains("## agents/decisions/refunds.md\n\n/how refund cancelled tickets | refund policy\n")
        ),
        "{index_edit}"
    );
    assert_eq!(index_edit["range"]["start"], index_edit["range"]["end"], "an insertion, not a rewrite");

    let dup = json!([{"operator": "when", "title": "Writing Mock Tests", "body": "Again.\n"}]);
    let r = c.request("workspace/executeCommand", json!({"command": "memory-index.remember", "arguments": dup}));
    let msg = r["error"]["message"].as_str().unwrap_or("");
    assert!(msg.contains("not remembered") && msg.contains("exists already"), "{r}");
    let _ = c.shutdown();
}

/// A bare copy of an entry typed above it is the one flagged (the entry with
/// its extras is kept), and the quick fix deletes the copy; a copy carrying
/// extras of its own has them merged into the kept entry.
#[test]
fn duplicate_entry_typed_above_flags_the_copy_and_merges_its_extras() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let original = text.lines().position(|l| l.starts_with("/when writing mock tests |")).expect("entry") as u32;
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    // Typed above the original, as an incremental change.
    let at = json!({"line": original, "character": 0});
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": index, "version": 2},
               "contentChanges": [{"range": {"start": at, "end": at}, "text": "/when Writing  mock tests | mocks\n"}]}),
    );
    let d = c.diagnostics(&index, |d| d.iter().any(|x| x["code"] == "duplicate-entry"));
    let dup: Vec<&Value> = d.iter().filter(|x| x["code"] == "duplicate-entry").collect();
    assert_eq!(dup.len(), 1, "{dup:?}");
    assert_eq!(dup[0]["range"]["start"]["line"], original, "the copy (the new line) is flagged");
    assert!(dup[0]["message"].as_str().is_some_and(|m| m.contains(&format!("line {}", original + 2))), "{}", dup[0]);
    let here = json!({"start": at, "end": at});
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": index}, "range": here, "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    let fix = actions["result"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with("Delete the duplicate entry")))
        .expect("the fix")
        .clone();
    assert!(fix["title"].as_str().is_some_and(|t| t.contains("mocks")), "{fix}");
    std::fs::write(&index_path, {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(original as usize, "/when Writing  mock tests | mocks");
        lines.join("\n") + "\n"
    })
    .expect("write");
    apply_to_disk(&fix["edit"]);
    let after = std::fs::read_to_string(&index_path).expect("index");
    assert!(!after.contains("/when Writing  mock tests"), "{after}");
    assert!(after.contains("/when writing mock tests | mock patch, test doubles, mocks\n"), "{after}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Rename refuses, from either side, every name that could not be a trigger
/// or a title (it would split the entry, start extras, or read as an
/// operator, a structural heading, a section or a file query), and a file
/// rename refuses paths that are not a decision file's; nothing changes.
#[test]
fn renames_refuse_names_that_break_the_index() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let testing_path = root.join("agents/decisions/testing.md");
    let testing = uri(&testing_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let entry = text.lines().position(|l| l.starts_with("/when writing mock tests")).expect("entry") as u32;
    let decision = std::fs::read_to_string(&testing_path).expect("testing");
    let heading = decision.lines().position(|l| l.ends_with("When Writing Mock Tests")).expect("heading") as u32;
    let heading_col = decision.lines().nth(heading as usize).map_or(0, |l| l.find("When").unwrap_or(0)) as u32 + 2;
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let long = "word ".repeat(60);
    let bad: Vec<(String, &str)> = vec![
        ("a\nb".into(), "line break"),
        ("a\r\nb".into(), "line break"),
        ("x | y".into(), "`|`"),
        ("/when x".into(), "starts with `/`"),
        (".testing.md".into(), "starts with `.`"),
        ("..testing.md".into(), "starts with `.`"),
        ("# x".into(), "starts with `#`"),
        ("a\u{7}b".into(), "control character"),
        ("a\u{2028}b".into(), "line break"),
        ("ok\n## agents/decisions/evil.md\n/when evil".into(), "line break"),
        (long.trim().to_string(), "at most 200"),
    ];
    for (name, why) in &bad {
        for (doc, line, col, prefix) in [(&index, entry, 8, ""), (&testing, heading, heading_col, "When ")] {
            let new_name = format!("{prefix}{name}");
            let r = c.request(
                "textDocument/rename",
                json!({"textDocument": {"uri": doc}, "position": {"line": line, "character": col}, "newName": new_name}),
            );
            let msg = r["error"]["message"].as_str().unwrap_or("");
            assert!(r.get("result").is_none_or(Value::is_null), "{new_name:?} accepted: {r}");
            assert!(msg.contains(why), "{new_name:?}: {msg}");
        }
    }
    // A title whose trigger would not be the entry's (the prefix is gone).
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": testing}, "position": {"line": heading, "character": heading_col}, "newName": "Writing Mocks"}),
    );
    assert!(r["error"]["message"].as_str().is_some_and(|m| m.contains("neither `When ` nor `How to `")), "{r}");
    // File renames to paths that are no decision file's leave the index alone.
    let old = uri(&root.join("agents/decisions/api.md"));
    for new in [
        format!("{}/agents/decisions/../../outside.md", uri(&root)),
        format!("{}/agents/decisions/%2e%2e/x.md", uri(&root)),
        format!("{}/agents/decisions/a%0A%23%23%20agents/decisions/evil.md", uri(&root)),
        format!("{}/agents/decisions/a%0Ab.md", uri(&root)),
        format!("{}/agents/decisions/sub/x.md", uri(&root)),
    ] {
        let r = c.request("workspace/willRenameFiles", json!({"files": [{"oldUri": old, "newUri": new}]}));
        assert!(r["result"].is_null(), "{new}: {r}");
    }
    let ok = c.request(
        "workspace/willRenameFiles",
        json!({"files": [{"oldUri": old, "newUri": uri(&root.join("agents/decisions/http-api.md"))}]}),
    );
    assert!(ok["result"]["changes"].as_object().is_some_and(|m| !m.is_empty()), "a valid rename still works: {ok}");
    assert_eq!(std::fs::read_to_string(&index_path).expect("index"), text, "nothing written");
    assert_eq!(c.shutdown(), Some(0));
}
