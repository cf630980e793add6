//! Navigation over stdio: definition, references, hover, symbols, folding (real corpus and demo).

mod lsp_support;

use lsp_support::*;
use serde_json::{json, Value};

fn pos(line: u32, character: u32) -> Value {
    json!({"line": line, "character": character})
}

#[test]
fn corpus_definition_references_and_hover() {
    let Some(tmp) = corpus_copy("head") else { return };
    let root = tmp.path().canonicalize().expect("canon");
    let index = uri(&root.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    // `/how encode file paths` is on line 53 (1-based) of the index.
    let d = c.request("textDocument/definition", json!({"textDocument": {"uri": index}, "position": pos(52, 10)}));
    assert_eq!(d["result"]["uri"], json!(uri(&root.join("agents/decisions/data-processing.md"))));
    assert_eq!(d["result"]["range"]["start"]["line"], 42);
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": index}, "position": pos(52, 3)}));
    let text = h["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(text.starts_with("# How to Encode File Paths"), "{text}");
    assert!(text.contains("Source: agents/decisions/data-processing.md:43"), "{text}");
    // References from the heading "### When Choosing Name".
    let tooling = uri(&root.join("agents/decisions/operational-tooling.md"));
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": tooling}, "position": pos(293, 10), "context": {"includeDeclaration": true}}),
    );
    let refs: Vec<(String, u64)> = r["result"]
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| {
            (
                l["uri"].as_str().unwrap_or("").rsplit('/').next().unwrap_or("").to_string(),
                l["range"]["start"]["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert!(refs.contains(&("memory-index.md".into(), 218)), "{refs:?}");
    assert!(refs.contains(&("workflow-advanced.md".into(), 76)), "{refs:?}");
    assert!(refs.contains(&("operational-tooling.md".into(), 293)), "{refs:?}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn demo_symbols_and_folding() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index = uri(&root.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    c.initialize(&root, false, json!({}));
    let s = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": index}}));
    let names: Vec<&str> = s["result"].as_array().expect("symbols").iter().filter_map(|x| x["name"].as_str()).collect();
    assert_eq!(names, ["agents/decisions/api.md", "agents/decisions/data.md", "agents/decisions/testing.md"]);
    let f = c.request("textDocument/foldingRange", json!({"textDocument": {"uri": index}}));
    assert_eq!(f["result"].as_array().map(Vec::len), Some(3));
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn corpus_completion_after_when_merg() {
    let Some(tmp) = corpus_copy("head") else { return };
    let root = tmp.path().canonicalize().expect("canon");
    let skill = root.join("SKILL.md");
    std::fs::write(&skill, "Before merging, recall:\n/when merg\n").expect("write");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let doc = uri(&skill);
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": "Before merging, recall:\n/when merg\n"}}));
    let r = c.request("textDocument/completion", json!({"textDocument": {"uri": doc}, "position": pos(1, 10)}));
    let labels: Vec<&str> = r["result"].as_array().expect("items").iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"merging worktree with consolidated learnings"), "{labels:?}");
    let last_merge = labels.iter().rposition(|l| l.contains("merg")).unwrap_or(0);
    assert!(labels[..=last_merge].iter().all(|l| l.contains("merg")), "merge triggers rank first: {labels:?}");
    let hints = c.request("textDocument/inlayHint", json!({"textDocument": {"uri": uri(&root.join("agents/memory-index.md"))}, "range": {"start": pos(0, 0), "end": pos(500, 0)}}));
    assert!(hints["result"].as_array().is_some_and(|h| h.len() > 300));
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn demo_semantic_tokens_and_workspace_symbols() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index = uri(&root.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    let init = c.initialize(&root, false, json!({}));
    assert!(init["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"]
        .as_array()
        .is_some_and(|l| l.len() == 5));
    let t = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": index}}));
    let data = t["result"]["data"].as_array().expect("data");
    assert_eq!(data.len() % 5, 0);
    // The first token is the first section path, `agents/decisions/api.md` on line 10, column 3.
    assert_eq!(&data[..5], &[json!(9), json!(3), json!(23), json!(4), json!(0)]);
    let r = c.request(
        "textDocument/semanticTokens/range",
        json!({"textDocument": {"uri": index}, "range": {"start": pos(11, 0), "end": pos(11, 80)}}),
    );
    assert_eq!(
        r["result"]["data"][3],
        json!(0),
        "the first token in range is an operator: /when versioning public endpoints"
    );
    let w = c.request("workspace/symbol", json!({"query": "paginate"}));
    assert_eq!(w["result"][0]["name"], "/how paginate list responses");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn references_include_invocations_in_unopened_markdown_files() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    std::fs::create_dir_all(root.join("skills/booking")).expect("mkdir");
    std::fs::write(
        root.join("skills/booking/SKILL.md"),
        "# Booking\n\nBefore changing prices, run `/how store ticket prices`.\n",
    )
    .expect("write");
    std::fs::create_dir_all(root.join("node_modules/x")).expect("mkdir");
    std::fs::write(root.join("node_modules/x/README.md"), "/how store ticket prices\n").expect("write");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let data = uri(&root.join("agents/decisions/data.md"));
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": data}, "position": pos(4, 5), "context": {"includeDeclaration": true}}),
    );
    let uris: Vec<&str> = r["result"].as_array().expect("refs").iter().filter_map(|l| l["uri"].as_str()).collect();
    assert!(uris.iter().any(|u| u.ends_with("skills/booking/SKILL.md")), "{uris:?}");
    assert!(!uris.iter().any(|u| u.contains("node_modules")), "{uris:?}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn rename_over_stdio_with_versioned_document_changes_and_refusal() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({"workspace": {"workspaceEdit": {"documentChanges": true}}}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 7, "text": text}}),
    );
    let line = text.lines().position(|l| l.starts_with("/how store ticket prices")).expect("line") as u32;
    let prep =
        c.request("textDocument/prepareRename", json!({"textDocument": {"uri": index}, "position": pos(line, 8)}));
    assert_eq!(prep["result"]["placeholder"], "store ticket prices");
    let r = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": index}, "position": pos(line, 8), "newName": "store fare prices"}),
    );
    let docs = r["result"]["documentChanges"].as_array().expect("documentChanges");
    let idx = docs.iter().find(|d| d["textDocument"]["uri"] == index).expect("index edit");
    assert_eq!(idx["textDocument"]["version"], 7, "versioned for the open document");
    assert_eq!(idx["edits"][0]["newText"], "store fare prices");
    let data = docs
        .iter()
        .find(|d| d["textDocument"]["uri"].as_str().is_some_and(|u| u.ends_with("data.md")))
        .expect("heading edit");
    assert_eq!(data["edits"][0]["newText"], "How to Store Fare Prices");
    let refused = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": index}, "position": pos(line, 8), "newName": "migrate the booking schema"}),
    );
    assert!(refused["error"]["message"].as_str().is_some_and(|m| m.contains("already exists")), "{refused}");
    assert_eq!(c.shutdown(), Some(0));
}
