//! End to end over stdio against the built binary, on a temporary copy of fixtures/demo.

use crate::lsp_support;

use std::fs;

use lsp_support::*;
use serde_json::{json, Value};

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

#[test]
fn diagnostics_for_unopened_files_typo_and_fix_and_disk_changes() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    let init = c.initialize(&root, true, json!({}));
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-8");
    // Never-opened decision files get diagnostics.
    let ops = uri(&root.join("agents/decisions/operations.md"));
    let d = c.diagnostics(&ops, |d| !d.is_empty());
    assert_eq!(codes(&d), ["unindexed-heading"]);
    let d0 = &d[0];
    assert_eq!(d0["range"]["start"], json!({"line": 7, "character": 3}));
    assert!(d0["codeDescription"]["href"].as_str().unwrap_or("").ends_with("docs/rules.md#unindexed-heading"));
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = fs::read_to_string(&index_path).expect("index");
    let d = c.diagnostics(&index, |d| !d.is_empty());
    assert!(codes(&d).contains(&"orphan-entry".to_string()));
    let related = d.iter().find(|x| x["code"] == "orphan-entry").expect("orphan")["relatedInformation"][0]["location"]
        ["uri"]
        .clone();
    assert_eq!(related, json!(uri(&root.join("agents/decisions/testing.md"))));
    // Open the index and type a typo into a trigger: `/when writing mock tests` -> `tsets`.
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let line = text.lines().position(|l| l.starts_with("/when writing mock tests")).expect("line") as u32;
    let typo = json!({"range": {"start": {"line": line, "character": 19}, "end": {"line": line, "character": 24}}, "text": "tsets"});
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": index, "version": 2}, "contentChanges": [typo]}));
    let d =
        c.diagnostics(&index, |d| d.iter().any(|x| x["code"] == "orphan-entry" && x["range"]["start"]["line"] == line));
    let orphan = d.iter().find(|x| x["code"] == "orphan-entry" && x["range"]["start"]["line"] == line).expect("orphan");
    assert_eq!(
        orphan["range"],
        json!({"start": {"line": line, "character": 6}, "end": {"line": line, "character": 24}})
    );
    // Fix it: the finding goes away.
    let fix = json!({"range": {"start": {"line": line, "character": 19}, "end": {"line": line, "character": 24}}, "text": "tests"});
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": index, "version": 3}, "contentChanges": [fix]}));
    c.diagnostics(&index, |d| !d.iter().any(|x| x["code"] == "orphan-entry" && x["range"]["start"]["line"] == line));
    // Rewriting a decision file on disk (not open) updates its diagnostics.
    let ops_path = root.join("agents/decisions/operations.md");
    fs::write(&ops_path, "# Operations Decisions\n\n## When Deploying During Sailings\n\nOnly at night.\n")
        .expect("write");
    c.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": ops, "type": 2}]}));
    c.diagnostics(&ops, |d| d.is_empty());
    // Quick fixes and fix-all come from the rules' own fix data.
    let actions = c.request("textDocument/codeAction", json!({"textDocument": {"uri": index}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 40, "character": 0}}, "context": {"diagnostics": []}}));
    let titles: Vec<String> = actions["result"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["title"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(titles.iter().any(|t| t.starts_with("Move to section")), "{titles:?}");
    assert!(titles.iter().any(|t| t == "Fix all memory-index problems"), "{titles:?}");
    assert_eq!(c.shutdown(), Some(0), "clean exit");
}

#[test]
fn positions_follow_the_negotiated_encoding() {
    for utf8 in [true, false] {
        let tmp = demo_copy();
        let root = tmp.path().canonicalize().expect("canon");
        let index_path = root.join("agents/memory-index.md");
        let text = fs::read_to_string(&index_path)
            .expect("index")
            .replace("/when verifying payment webhooks", "/when 😀 verifying payment webhooks");
        fs::write(&index_path, &text).expect("write");
        let mut c = Client::spawn();
        let init = c.initialize(&root, utf8, json!({}));
        assert_eq!(init["result"]["capabilities"]["positionEncoding"], if utf8 { "utf-8" } else { "utf-16" });
        let d = c.diagnostics(&uri(&index_path), |d| d.iter().any(|x| x["code"] == "orphan-entry"));
        let orphan = d.iter().find(|x| x["code"] == "orphan-entry").expect("orphan");
        // `/when 😀 verifying payment webhooks`: the trigger starts at column 6 and
        // ends after the emoji (4 UTF-8 bytes, 2 UTF-16 units) and 27 more characters.
        let end = if utf8 { 6 + 4 + 27 } else { 6 + 2 + 27 };
        assert_eq!(orphan["range"]["start"]["character"], 6);
        assert_eq!(orphan["range"]["end"]["character"], end, "utf8={utf8}");
        assert_eq!(c.shutdown(), Some(0));
    }
}

#[test]
fn malformed_messages_do_not_kill_the_server() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.send_raw(b"Content-Length: 5\r\n\r\n{bad}");
    let e = c.wait(|m| m["error"]["code"] == -32700);
    assert_eq!(e["id"], Value::Null);
    c.send_raw(b"Content-Length: 2\r\n\r\n[]");
    c.wait(|m| m["error"]["code"] == -32600);
    c.send_raw(b"Garbage-Header: x\r\n\r\n");
    let unknown = c.request("custom/unknownMethod", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "MethodNotFound");
    // A position far past the end is clamped, not an error.
    let far = c.request("textDocument/codeAction", json!({"textDocument": {"uri": uri(&root.join("agents/memory-index.md"))}, "range": {"start": {"line": 9999, "character": 9999}, "end": {"line": 99999, "character": 0}}, "context": {"diagnostics": []}}));
    assert!(far.get("error").is_none(), "{far}");
    // didChange with a range outside the document, for a document that is open.
    let index = uri(&root.join("agents/memory-index.md"));
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": "## agents/decisions/api.md\n"}}));
    c.notify("textDocument/didChange", json!({"textDocument": {"uri": index, "version": 2}, "contentChanges": [{"range": {"start": {"line": 500, "character": 3}, "end": {"line": 900, "character": 1}}, "text": "/when nope\n"}]}));
    c.diagnostics(&index, |d| d.iter().any(|x| x["code"] == "orphan-entry"));
    assert_eq!(c.shutdown(), Some(0), "still alive and exits cleanly");
}

#[test]
fn hundreds_of_rapid_incremental_edits_keep_their_order() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, false, json!({}));
    let index = uri(&root.join("agents/memory-index.md"));
    let mut text = String::from("## agents/decisions/api.md\n/when ");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let word = "versioning public endpoints and then some more words typed quickly ".repeat(6);
    for (i, ch) in word.chars().enumerate() {
        let col = text.lines().nth(1).map_or(0, |l| l.chars().count()) as u32;
        let change = json!({"range": {"start": {"line": 1, "character": col}, "end": {"line": 1, "character": col}}, "text": ch.to_string()});
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": i + 2}, "contentChanges": [change]}),
        );
        text.push(ch);
    }
    // The server's text equals ours: the orphan finding spans the whole
    // trigger (its message quotes it elided), which ends where ours does.
    let end = ("/when ".len() + word.trim_end().len()) as u64;
    let d = c.diagnostics(&index, |d| {
        d.iter().any(|x| x["code"] == "orphan-entry" && x["range"]["end"]["character"].as_u64() == Some(end))
    });
    let m = d.iter().find(|x| x["code"] == "orphan-entry").and_then(|x| x["message"].as_str()).unwrap_or("");
    assert!(m.starts_with("no heading `When versioning public endpoints and then") && m.contains('…'), "{m}");
    assert_eq!(c.shutdown(), Some(0));
}

#[test]
fn the_server_exits_when_its_client_disappears_mid_request() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    // A client that supports workspace/configuration, then vanishes without answering it.
    for msg in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {"workspace": {"configuration": true}}, "workspaceFolders": [{"uri": uri(&root), "name": "r"}]}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
    ] {
        let body = msg.to_string();
        stdin.write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes()).expect("write");
    }
    drop(stdin);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while std::time::Instant::now() < deadline {
        if child.try_wait().expect("wait").is_some() {
            let _ = child.wait();
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the server outlived its client");
}

/// Each frame the hostile-input report found ending or wedging the server,
/// followed by a valid request: the request is answered, and the server
/// still exits cleanly at the end. (JSON that is not JSON-RPC used to end
/// the server; a bad byte in a header ended it silently; one wrong
/// Content-Length made it answer -32700 to everything after.)
#[test]
fn no_frame_ends_or_wedges_the_server() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    let ping = |c: &mut Client| {
        let r = c.request("workspace/symbol", json!({"query": "paginate"}));
        assert_eq!(r["result"][0]["name"], "/how paginate list responses", "{r}");
    };
    let body = json!({"jsonrpc": "2.0", "id": 777, "method": "workspace/symbol", "params": {"query": "x"}}).to_string();
    let n = body.len();
    let frames: Vec<Vec<u8>> = vec![
        json!({"id": 1, "method": "x"}).to_string().into_bytes(),
        json!({"jsonrpc": "1.0", "id": 1, "method": "x"}).to_string().into_bytes(),
        json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}).to_string().into_bytes(),
        json!({"jsonrpc": "2.0", "id": 1.5, "method": "x"}).to_string().into_bytes(),
        json!({"jsonrpc": "2.0", "id": [1], "method": "x"}).to_string().into_bytes(),
        json!({"jsonrpc": "2.0", "id": 1, "method": 5}).to_string().into_bytes(),
    ];
    for f in frames {
        c.send_raw(format!("Content-Length: {}\r\n\r\n", f.len()).as_bytes());
        c.send_raw(&f);
        ping(&mut c);
    }
    let raw: Vec<Vec<u8>> = vec![
        [b"Content-Length: 12\xff\r\n\r\n".to_vec(), body.clone().into_bytes()].concat(),
        format!("Content-Length: -5\r\n\r\n{body}").into_bytes(),
        format!("Content-Length: abc\r\n\r\n{body}").into_bytes(),
        format!("Content-Length: 99999999999999999999999\r\n\r\n{body}").into_bytes(),
        format!("Content-Length: {}\r\n\r\n{body}", n + 20).into_bytes(),
        format!("Content-Length: {}\r\n\r\n{body}", n - 20).into_bytes(),
    ];
    for r in raw {
        c.send_raw(&r);
        ping(&mut c);
    }
    assert_eq!(c.shutdown(), Some(0), "alive, and exits 0 after shutdown");
}

/// `exit` without `shutdown` ends the server with exit code 1, as the protocol asks.
#[test]
fn exit_without_shutdown_exits_1() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, true, json!({}));
    c.notify("exit", Value::Null);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let code = loop {
        if let Ok(Some(status)) = c.child.try_wait() {
            break status.code();
        }
        assert!(std::time::Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(code, Some(1));
}

/// A client that writes and never reads cannot grow the server: replies to
/// malformed frames past a bounded queue are dropped, and once answers to
/// valid requests back up, the server stops reading until they are taken.
/// (The hostile-input report saw about 80 MB/s of growth.) The replies to
/// 30 MB of malformed frames would be about 90 MB if they were held.
#[test]
#[cfg(target_os = "linux")]
fn a_client_that_never_reads_cannot_grow_the_server() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn server");
    let mut stdin = child.stdin.take().expect("stdin");
    // Held, never read: the server's output backs up in the pipe.
    let _stdout = child.stdout.take().expect("stdout");
    // 30 MB of malformed frames (each answered with an error), then 10 MB
    // of valid requests (each answered).
    let writer = std::thread::spawn(move || {
        let frames = |body: &[u8]| -> Vec<u8> {
            let one = [format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes(), body].concat();
            one.repeat(1_000)
        };
        let bad = frames(br#"{"id":1,"method":"x"}"#);
        let good = frames(br#"{"jsonrpc":"2.0","id":2,"method":"workspace/symbol","params":{"query":"x"}}"#);
        let mut sent = 0usize;
        while sent < 40 << 20 {
            let chunk = if sent < 30 << 20 { &bad } else { &good };
            if stdin.write_all(chunk).is_err() {
                break; // the server stopped reading and was ended
            }
            sent += chunk.len();
        }
    });
    let status = |field: &str| {
        fs::read_to_string(format!("/proc/{}/status", child.id()))
            .ok()
            .and_then(|s| s.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(4);
    while std::time::Instant::now() < deadline && !writer.is_finished() {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let peak_kb = status("VmHWM:");
    assert!(child.try_wait().expect("status").is_none(), "the server is still running");
    let _ = child.kill();
    let _ = child.wait();
    let _ = writer.join();
    assert!(peak_kb > 0 && peak_kb < 64 * 1024, "the server grew to {peak_kb} KB");
}

/// Typing into a decision file of a workspace large enough that each full
/// re-check outlasts a keystroke (the checks run off the state's lock, so
/// edits land during them): a references request in the middle of the burst
/// is answered, and the diagnostics end up those of the last text, not of a
/// state an edit overtook.
#[test]
fn a_burst_of_decision_edits_during_checks_publishes_the_last_state() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (p, t) in crate::support::gen::generate(4000, 200, 3) {
        let path = tmp.path().join(p);
        fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        fs::write(path, t).expect("write");
    }
    let root = tmp.path().canonicalize().expect("canon");
    let mut c = Client::spawn();
    c.initialize(&root, false, json!({}));
    let decision = root.join("agents/decisions/topic-0000.md");
    let text = fs::read_to_string(&decision).expect("read");
    let duri = uri(&decision);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": duri, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let line = text.lines().count() as u32;
    let heading =
        text.lines().position(|l| l.starts_with("### When") || l.starts_with("## When")).expect("a heading") as u32;
    let edit = |c: &mut Client, version: u32, insert: &str| {
        let at = json!({"line": line, "character": 0});
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": duri, "version": version}, "contentChanges": [{"range": {"start": at, "end": at}, "text": insert}]}),
        );
    };
    for v in 2..40 {
        edit(&mut c, v, if v % 2 == 0 { "x" } else { "" });
        if v == 20 {
            let refs = c.request(
                "textDocument/references",
                json!({"textDocument": {"uri": duri}, "position": {"line": heading, "character": 6}, "context": {"includeDeclaration": true}}),
            );
            assert!(refs["result"].as_array().is_some_and(|r| !r.is_empty()), "{refs}");
        }
    }
    edit(&mut c, 40, "\n## When Nothing Indexes This Brand New Decision\n\nBody.\n");
    let d = c.diagnostics(&duri, |d| {
        d.iter()
            .any(|x| x["code"] == "unindexed-heading" && x["message"].as_str().is_some_and(|m| m.contains("Brand New")))
    });
    assert!(!d.is_empty());
    assert_eq!(c.shutdown(), Some(0));
}
