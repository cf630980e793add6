//! Workspace behaviour over stdio: folders, configuration sources, pull diagnostics, watching, close.

use crate::lsp_support;

use std::fs;
use std::time::Duration;

use lsp_support::*;
use serde_json::{json, Value};

fn has(diags: &[Value], code: &str) -> bool {
    diags.iter().any(|d| d["code"] == code)
}

#[test]
fn folders_are_added_and_removed_at_run_time() {
    let (a, b) = (demo_copy(), demo_copy());
    let (ra, rb) = (a.path().canonicalize().expect("a"), b.path().canonicalize().expect("b"));
    let mut c = Client::spawn();
    c.initialize(&ra, true, json!({}));
    let ops_b = uri(&rb.join("agents/decisions/operations.md"));
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [{"uri": uri(&rb), "name": "b"}], "removed": []}}),
    );
    c.diagnostics(&ops_b, |d| has(d, "unindexed-heading"));
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [], "removed": [{"uri": uri(&rb), "name": "b"}]}}),
    );
    c.diagnostics(&ops_b, |d| d.is_empty());
    assert_eq!(c.shutdown(), Some(0));
}

/// Found by review: a workspace folder that holds the memory deeper (a monorepo's package), or
/// lies inside the project (Emacs takes `agents/` for it), gave "No match" hovers, no definitions
/// and no diagnostics for the decision files, unsaid. The memory is found below or above.
#[test]
fn a_workspace_folder_finds_its_memory_below_or_above_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let mono = tmp.path().canonicalize().expect("canon");
    copy(&crate::support::repo().join("fixtures/demo"), &mono.join("pkg/billing"));
    let index = uri(&mono.join("pkg/billing/agents/memory-index.md"));
    let ops = uri(&mono.join("pkg/billing/agents/decisions/operations.md"));
    for folder in [mono.clone(), mono.join("pkg/billing/agents")] {
        let mut c = Client::spawn();
        c.initialize(&folder, true, json!({}));
        c.diagnostics(&ops, |d| has(d, "unindexed-heading"));
        let text = fs::read_to_string(mono.join("pkg/billing/agents/memory-index.md")).expect("index");
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
        );
        let line = text.lines().position(|l| l.starts_with("/when writing mock tests")).expect("entry");
        let def = c.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": index}, "position": {"line": line, "character": 8}}),
        );
        assert!(def["result"].to_string().contains("agents/decisions/testing.md"), "{folder:?}: {def}");
        assert_eq!(c.shutdown(), Some(0));
    }
}

/// Found by review: two folders of one project (its `agents/` and its `src/`), one removed: the
/// project stays for the other.
#[test]
fn removing_one_of_two_folders_of_a_project_keeps_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    let proj = tmp.path().canonicalize().expect("canon");
    copy(&crate::support::repo().join("fixtures/demo"), &proj);
    fs::create_dir_all(proj.join("src")).expect("src");
    let index = uri(&proj.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    c.initialize(&proj.join("agents"), true, json!({}));
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [{"uri": uri(&proj.join("src")), "name": "src"}], "removed": []}}),
    );
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [], "removed": [{"uri": uri(&proj.join("src")), "name": "src"}]}}),
    );
    let text = fs::read_to_string(proj.join("agents/memory-index.md")).expect("index");
    let line = text.lines().position(|l| l.starts_with("/when writing mock tests")).expect("entry");
    let def = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": index}, "position": {"line": line, "character": 8}}),
    );
    assert!(def["result"].to_string().contains("agents/decisions/testing.md"), "{def}");
    assert_eq!(c.shutdown(), Some(0));
}

/// An open document's unsaved text survives every change of the roots: it
/// is kept as the document's own outside the roots, handed to the engine
/// when a root containing it is added, kept when that root is reloaded (a
/// configuration change) and taken back when the root is removed. Each step
/// is checked through an edit whose range only fits the unsaved text.
#[test]
fn open_documents_keep_their_edits_across_folder_and_config_changes() {
    let (a, b) = (demo_copy(), demo_copy());
    let (ra, rb) = (a.path().canonicalize().expect("a"), b.path().canonicalize().expect("b"));
    let mut c = Client::spawn();
    c.initialize(&ra, true, json!({}));
    let ops = uri(&rb.join("agents/decisions/operations.md"));
    let folder = json!([{"uri": uri(&rb), "name": "b"}]);
    let unindexed = |d: &[Value], title: &str| {
        d.len() == 1
            && d[0]["code"] == "unindexed-heading"
            && d[0]["message"].as_str().is_some_and(|m| m.contains(title))
    };
    // Line 4 of the open text is the unsaved heading; the disk has no such line.
    let rename = |c: &mut Client, version: i64, col: (u32, u32), to: &str| {
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": ops, "version": version}, "contentChanges": [
                {"range": {"start": {"line": 4, "character": col.0}, "end": {"line": 4, "character": col.1}}, "text": to}]}),
        );
    };
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": ops, "languageId": "markdown", "version": 1,
        "text": "# Ops\n\n## When Deploying During Sailings\nx\n## When Zeta Unindexed\nz\n"}}),
    );
    rename(&mut c, 2, (8, 12), "Eta");
    c.notify("workspace/didChangeWorkspaceFolders", json!({"event": {"added": folder, "removed": []}}));
    c.diagnostics(&ops, |d| unindexed(d, "When Eta Unindexed"));
    rename(&mut c, 3, (8, 11), "Theta");
    c.diagnostics(&ops, |d| unindexed(d, "When Theta Unindexed"));
    fs::write(rb.join("memory-index.toml"), "[rules]\nmissing-operator = \"off\"\n").expect("write");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&rb.join("memory-index.toml")), "type": 1}]}),
    );
    rename(&mut c, 4, (8, 13), "Iota");
    c.diagnostics(&ops, |d| unindexed(d, "When Iota Unindexed"));
    c.notify("workspace/didChangeWorkspaceFolders", json!({"event": {"added": [], "removed": folder}}));
    c.diagnostics(&ops, |d| d.is_empty());
    rename(&mut c, 5, (8, 12), "Kappa");
    c.notify("workspace/didChangeWorkspaceFolders", json!({"event": {"added": folder, "removed": []}}));
    c.diagnostics(&ops, |d| unindexed(d, "When Kappa Unindexed"));
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn configuration_from_init_options_and_did_change_configuration() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index = uri(&root.join("agents/memory-index.md"));
    let mut c = Client::spawn();
    let caps = json!({});
    c.request(
        "initialize",
        json!({"processId": null, "capabilities": {"general": {"positionEncodings": ["utf-8"]}},
               "workspaceFolders": [{"uri": uri(&root), "name": "r"}],
               "initializationOptions": {"rules": {"missing-operator": "off"}}}),
    );
    let _ = caps;
    c.notify("initialized", json!({}));
    let d = c.diagnostics(&index, |d| !d.is_empty());
    assert!(!has(&d, "missing-operator"), "initializationOptions turned it off");
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"memoryIndex": {"rules": {"missing-operator": "warning", "empty-extra": "off"}}}}),
    );
    let d = c.diagnostics(&index, |d| has(d, "missing-operator") && !has(d, "empty-extra"));
    let mo = d.iter().find(|x| x["code"] == "missing-operator").expect("finding");
    assert_eq!(mo["severity"], 2, "warning");
    // memory-index.toml wins over editor settings for the keys it sets.
    fs::write(root.join("memory-index.toml"), "[rules]\nmissing-operator = \"off\"\n").expect("write");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("memory-index.toml")), "type": 1}]}),
    );
    c.diagnostics(&index, |d| !has(d, "missing-operator") && !has(d, "empty-extra"));
    assert_eq!(c.shutdown(), Some(0));
}

/// A client that pulls per document (Neovim 0.11, eglot) pulls its open
/// documents and is pushed every other file; opening a file hands it over to
/// the pull (its pushed set is cleared), closing it pushes it again.
#[test]
fn per_document_pullers_get_unopened_files_pushed_and_never_both() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    let init = c.initialize(&root, false, json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}}));
    assert_eq!(init["result"]["capabilities"]["diagnosticProvider"]["workspaceDiagnostics"], true);
    let ops_path = root.join("agents/decisions/operations.md");
    let ops = uri(&ops_path);
    // Never opened: pushed.
    c.diagnostics(&ops, |d| has(d, "unindexed-heading"));
    // Opened: the pushed set is cleared and the pull answers.
    let text = fs::read_to_string(&ops_path).expect("read");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": ops, "languageId": "markdown", "version": 1, "text": text}}),
    );
    c.diagnostics(&ops, |d| d.is_empty());
    let r = c.request("textDocument/diagnostic", json!({"textDocument": {"uri": ops}}));
    assert_eq!(r["result"]["kind"], "full");
    assert_eq!(r["result"]["items"][0]["code"], "unindexed-heading");
    // While open, an edit that changes its diagnostics is not pushed.
    let pushes = |c: &Client| {
        c.seen.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == ops).count()
    };
    let before = pushes(&c);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": ops, "version": 2}, "contentChanges": [{"text": "# Operations\n\n## When Brand New\n"}]}),
    );
    let r = c.request("textDocument/diagnostic", json!({"textDocument": {"uri": ops}}));
    assert!(r["result"]["items"].as_array().is_some_and(|a| !a.is_empty()), "{r}");
    c.request("textDocument/hover", json!({"textDocument": {"uri": ops}, "position": {"line": 0, "character": 0}}));
    assert_eq!(pushes(&c), before, "an open document's diagnostics are pulled, not pushed");
    // Closed: it falls back to the disk and is pushed again.
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": ops}}));
    c.diagnostics(&ops, |d| has(d, "unindexed-heading"));
    // A file that changes because an open one changed is pushed too: the pull
    // of the index does not swallow the decision file's new finding.
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let index_text = fs::read_to_string(&index_path).expect("read");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": index_text}}),
    );
    let fixed = format!("{index_text}\n## agents/decisions/operations.md\n\n/how page the on-call engineer\n");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": index, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    c.request("textDocument/diagnostic", json!({"textDocument": {"uri": index}}));
    c.diagnostics(&ops, |d| !has(d, "unindexed-heading"));
    assert_eq!(c.shutdown(), Some(0));
}

/// A client that pulls workspace diagnostics gets every file by pulling:
/// what was pushed before is cleared, and nothing is pushed after.
#[test]
fn workspace_pullers_get_nothing_pushed() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, false, json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}}));
    let ops_path = root.join("agents/decisions/operations.md");
    let ops = uri(&ops_path);
    c.diagnostics(&ops, |d| has(d, "unindexed-heading"));
    let w = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let items = w["result"]["items"].as_array().expect("items");
    assert!(items.len() >= 5, "every index and decision file: {}", items.len());
    let before = c.seen.len();
    c.diagnostics(&ops, |d| d.is_empty());
    fs::write(&ops_path, "# Operations\n\n## When Brand New\n").expect("write");
    std::thread::sleep(Duration::from_millis(1500));
    let w = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    assert!(w["result"]["items"].as_array().is_some_and(|a| !a.is_empty()));
    let pushed: Vec<&Value> = c.seen[before..]
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .filter(|m| m["params"]["diagnostics"].as_array().is_none_or(|d| !d.is_empty()))
        .collect();
    assert!(pushed.is_empty(), "only clears once the client pulls the workspace: {pushed:?}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn server_watches_files_when_the_client_cannot() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let ops_path = root.join("agents/decisions/operations.md");
    let ops = uri(&ops_path);
    c.diagnostics(&ops, |d| has(d, "unindexed-heading"));
    std::thread::sleep(Duration::from_millis(200));
    // Written on disk by "git" or an agent: no notification from the client.
    fs::write(&ops_path, "# Operations\n\n## When Deploying During Sailings\n\nOnly at night.\n").expect("write");
    c.diagnostics(&ops, |d| d.is_empty());
    // A new decision file appears, and a deleted one has its diagnostics cleared.
    let new_path = root.join("agents/decisions/new.md");
    fs::write(&new_path, "## When Brand New\nbody\n").expect("write");
    c.diagnostics(&uri(&new_path), |d| has(d, "unindexed-heading"));
    fs::remove_file(&new_path).expect("rm");
    c.diagnostics(&uri(&new_path), |d| d.is_empty());
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn closing_a_document_falls_back_to_disk() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let path = root.join("agents/decisions/operations.md");
    let doc = uri(&path);
    c.diagnostics(&doc, |d| has(d, "unindexed-heading"));
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": doc, "languageId": "markdown", "version": 1, "text": "# Ops\n\n## When Deploying During Sailings\nx\n"}}));
    c.diagnostics(&doc, |d| d.is_empty());
    c.notify("textDocument/didClose", json!({"textDocument": {"uri": doc}}));
    c.diagnostics(&doc, |d| has(d, "unindexed-heading"));
    assert_eq!(c.shutdown(), Some(0));
}

/// CPU time (user + system) the process has used so far, from /proc.
#[cfg(target_os = "linux")]
fn cpu_time(pid: u32) -> Duration {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th.
    let rest = &stat[stat.rfind(')').expect("comm") + 2..];
    let ticks: u64 = rest.split(' ').skip(11).take(2).map(|t| t.parse::<u64>().expect("ticks")).sum();
    Duration::from_millis(ticks * 10) // USER_HZ is 100 on Linux
}

#[cfg(target_os = "linux")]
#[test]
fn an_idle_server_does_no_work_after_a_change_on_disk() {
    // Regression: the server's own watcher took its reads of a changed file for
    // changes and re-read and re-checked the workspace forever.
    let tmp = tempfile::tempdir().expect("tmp");
    for (p, t) in crate::support::gen::generate(2_000, 100, 7) {
        let path = tmp.path().join(p);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, t).expect("write");
    }
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let changed = root.join("agents/decisions/brand-new.md");
    c.diagnostics(&uri(&root.join("agents/memory-index.md")), |d| !d.is_empty());
    std::thread::sleep(Duration::from_millis(300)); // the watcher starts once the workspace is loaded
    fs::write(&changed, "## When Brand New\nbody\n").expect("write");
    c.diagnostics(&uri(&changed), |d| has(d, "unindexed-heading"));
    std::thread::sleep(Duration::from_millis(300));
    let (before, idle) = (cpu_time(c.child.id()), Duration::from_secs(2));
    std::thread::sleep(idle);
    let used = cpu_time(c.child.id()) - before;
    assert!(used < idle / 5, "an idle server used {used:?} of CPU in {idle:?}");
    assert_eq!(c.shutdown(), Some(0));
}

/// An index with thousands of broken lines: the editor gets the first 1,000
/// diagnostics of the file and one more saying how many are not shown.
#[test]
fn diagnostics_per_file_are_capped_with_a_count_of_the_rest() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let mut text = std::fs::read_to_string(&index_path).expect("index");
    for i in 0..2_500 {
        text.push_str(&format!("not an entry {i}\n"));
    }
    fs::write(&index_path, &text).expect("write");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let d = c.diagnostics(&uri(&index_path), |d| d.len() > 1);
    assert_eq!(d.len(), 1_001, "1,000 and the count");
    let last = d.last().expect("summary");
    let msg = last["message"].as_str().unwrap_or("");
    assert!(msg.starts_with("150") && msg.contains("not shown") && msg.contains("memory-index-lsp check"), "{msg}");
    assert_eq!(c.shutdown(), Some(0));
}

/// The server loads a workspace holding a named pipe without blocking, and
/// reports it like `check`.
#[cfg(unix)]
#[test]
fn a_named_pipe_in_the_decisions_does_not_block_the_server() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let fifo = root.join("agents/decisions/pipe.md");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let d = c.diagnostics(&uri(&fifo), |d| has(d, "unreadable-file"));
    assert!(d[0]["message"].as_str().is_some_and(|m| m.contains("named pipe")), "{d:?}");
    assert_eq!(c.shutdown(), Some(0));
}
