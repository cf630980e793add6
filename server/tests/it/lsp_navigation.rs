//! Navigation over stdio: definition, references, hover, symbols, folding (real corpus and demo).

use crate::lsp_support;

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
    assert!(text.starts_with("**How to Encode File Paths**"), "{text}");
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

/// Completion items carry a kind; a multi-word insert is an escaped snippet
/// for clients that take snippets (Neovim inserts only the first word of a
/// plain text edit) and plain text for the others; the typed text itself is
/// never an item; quick fixes answer for a diagnostic the client names even
/// with the cursor outside its range (Neovim, column 1).
#[test]
fn completion_items_insert_whole_triggers_and_fixes_follow_named_diagnostics() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let notes = root.join("NOTES.md");
    let text = "Recall first:\n/when writ\n";
    std::fs::write(&notes, text).expect("write");
    for snippets in [true, false] {
        let mut c = Client::spawn();
        let caps = json!({"textDocument": {"completion": {"completionItem": {"snippetSupport": snippets}}}});
        c.initialize(&root, true, caps);
        let doc = uri(&notes);
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let r = c.request("textDocument/completion", json!({"textDocument": {"uri": doc}, "position": pos(1, 10)}));
        let items = r["result"].as_array().expect("items").clone();
        let first = &items[0];
        assert_eq!(first["label"], "writing mock tests", "{items:?}");
        assert_eq!(first["kind"], 18, "Reference");
        assert_eq!(first["textEdit"]["newText"], "writing mock tests");
        assert_eq!(first["insertTextFormat"], if snippets { 2 } else { 1 }, "{first}");
        assert!(first.get("filterText").is_none(), "the server filters: {first}");
        assert!(!items.iter().any(|i| i["label"] == "writ"), "never the typed text: {items:?}");
        // The operators are keywords.
        let index_path = root.join("agents/memory-index.md");
        let index = uri(&index_path);
        let index_text = std::fs::read_to_string(&index_path).expect("index");
        let line = index_text.lines().position(|l| l == "/how split slow test suites").expect("line") as u32;
        let edited = index_text.replacen("/how split slow test suites\n", "/how split slow test suites\n/wh\n", 1);
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": edited}}),
        );
        let r =
            c.request("textDocument/completion", json!({"textDocument": {"uri": index}, "position": pos(line + 1, 3)}));
        assert_eq!(r["result"][0]["label"], "/when");
        assert_eq!(r["result"][0]["kind"], 14, "Keyword");
        assert_eq!(c.shutdown(), Some(0));
    }
    // Quick fixes at column 1 of an unindexed heading, the diagnostic named in the context.
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let ops = uri(&root.join("agents/decisions/operations.md"));
    let d = c.diagnostics(&ops, |d| !d.is_empty());
    let diag = d.iter().find(|x| x["code"] == "unindexed-heading").expect("unindexed-heading").clone();
    assert!(diag["range"]["start"]["character"].as_u64() > Some(0));
    let line = diag["range"]["start"]["line"].clone();
    let at = json!({"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}});
    let titles = |r: &Value| -> Vec<String> {
        r["result"]
            .as_array()
            .map_or(Vec::new(), |a| a.iter().filter_map(|x| x["title"].as_str().map(String::from)).collect())
    };
    let without = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": ops}, "range": at, "context": {"diagnostics": [], "only": ["quickfix"]}}),
    );
    assert!(titles(&without).is_empty(), "nothing under the cursor: {without}");
    let named = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": ops}, "range": at, "context": {"diagnostics": [diag], "only": ["quickfix"]}}),
    );
    let t = titles(&named);
    assert!(t.iter().any(|t| t.contains("to the index")) && t.iter().any(|t| t.contains("structural")), "{t:?}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Hovers show the title in bold, not as a Markdown heading (VS Code renders
/// an H1 large enough to push the body out of view), and an orphan entry's
/// hover says its section is a guess.
#[test]
fn hover_titles_are_bold_and_orphan_hovers_say_they_guess() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let line_of = |prefix: &str| text.lines().position(|l| l.starts_with(prefix)).expect("line") as u32;
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let hover = |c: &mut Client, line: u32| {
        let h = c.request("textDocument/hover", json!({"textDocument": {"uri": index}, "position": pos(line, 8)}));
        h["result"]["contents"]["value"].as_str().unwrap_or("").to_string()
    };
    let bound = hover(&mut c, line_of("/when writing mock tests"));
    assert!(bound.starts_with("**When Writing Mock Tests**\n\n"), "{bound}");
    assert!(!bound.lines().any(|l| l.starts_with("# ")), "no H1: {bound}");
    let orphan = hover(&mut c, line_of("/when verifying payment webhooks"));
    assert!(orphan.starts_with("*A guess:* no heading matches `When verifying payment webhooks`"), "{orphan}");
    assert!(orphan.contains("**When Testing Payment Webhooks**"), "{orphan}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Completion offers nothing that creates an error: in the index only the
/// section file's unindexed headings (an existing trigger would be a
/// duplicate, a `/how` one under `/when` an orphan); elsewhere only the typed
/// operator's triggers and extras.
#[test]
fn completion_never_offers_what_creates_an_error() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let line = text.lines().position(|l| l == "/how split slow test suites").expect("line") as u32;
    let edited = text.replacen("/how split slow test suites\n", "/how split slow test suites\n/when \n", 1);
    let notes = root.join("NOTES.md");
    std::fs::write(&notes, "/how \n").expect("write");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": edited}}),
    );
    let r = c.request("textDocument/completion", json!({"textDocument": {"uri": index}, "position": pos(line + 1, 6)}));
    let labels: Vec<&str> = r["result"].as_array().expect("items").iter().filter_map(|i| i["label"].as_str()).collect();
    assert_eq!(labels, ["testing payment webhooks"], "only the unindexed heading of testing.md");
    let doc = uri(&notes);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": "/how \n"}}),
    );
    let r = c.request("textDocument/completion", json!({"textDocument": {"uri": doc}, "position": pos(0, 5)}));
    let labels: Vec<&str> = r["result"].as_array().expect("items").iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"paginate list responses") && labels.contains(&"cursor"), "{labels:?}");
    assert!(!labels.contains(&"writing mock tests"), "no /when trigger under /how: {labels:?}");
    assert_eq!(c.shutdown(), Some(0));
}

/// References on an index section line (as on a `/when ..file.md`
/// invocation) list the section, its entries and the invocations that load
/// the file.
#[test]
fn references_from_a_section_line_list_its_entries_and_file_invocations() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    std::fs::write(root.join("NOTES.md"), "Before testing, load /when ..testing.md\n").expect("write");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let section = text.lines().position(|l| l == "## agents/decisions/testing.md").expect("section") as u32;
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let lines = |r: &Value| -> Vec<(String, u64)> {
        let mut v: Vec<(String, u64)> = r["result"]
            .as_array()
            .expect("locations")
            .iter()
            .map(|l| {
                let u = l["uri"].as_str().unwrap_or("");
                (u.rsplit('/').next().unwrap_or("").to_string(), l["range"]["start"]["line"].as_u64().unwrap_or(0))
            })
            .collect();
        v.sort();
        v
    };
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": index}, "position": pos(section, 5), "context": {"includeDeclaration": true}}),
    );
    let got = lines(&r);
    let s = u64::from(section);
    let want: Vec<(String, u64)> = [("NOTES.md", 0)]
        .into_iter()
        .map(|(f, l)| (f.to_string(), l))
        .chain(
            (s..s + 7)
                .filter(|&l| text.lines().nth(l as usize).is_some_and(|t| t.starts_with("## ") || t.starts_with('/')))
                .map(|l| ("memory-index.md".to_string(), l)),
        )
        .collect();
    assert_eq!(got, want);
    // The same from the invocation.
    let notes = uri(&root.join("NOTES.md"));
    let r = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": notes}, "position": pos(0, 30), "context": {"includeDeclaration": true}}),
    );
    assert_eq!(lines(&r), want);
    assert_eq!(c.shutdown(), Some(0));
}
