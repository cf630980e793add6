//! One rule finds the project for every front end: the CLI, the MCP server, the hook and the language server agree (`project::root`).
//!
//! The agent's project is `P` (`$CLAUDE_PROJECT_DIR` names a folder inside it);
//! the working directory is another checkout, `Q`, with a memory of its own.
//! Every front end without an explicit root works on `P`; the language
//! server, whose client names its folder (an explicit root), works on that.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::lsp_support::{uri, Client};
use crate::support::{bin_in, run_with_stdin};

const BIN: &str = env!("CARGO_BIN_EXE_memory-index-lsp");

struct Projects {
    _tmp: tempfile::TempDir,
    p: std::path::PathBuf,
    q: std::path::PathBuf,
}

/// P: a clean memory with one decision; Q: another checkout whose index has an orphan.
fn projects() -> Projects {
    let tmp = tempfile::tempdir().expect("tmp");
    let p = tmp.path().canonicalize().expect("canon").join("p");
    let q = tmp.path().canonicalize().expect("canon").join("q");
    for (root, index, title, body) in [
        (
            &p,
            "/when rotating deploy keys | key rotation\n",
            "When Rotating Deploy Keys",
            "Rotate deploy keys every 90 days.",
        ),
        (&q, "/when painting sheds\n/when nothing at all\n", "When Painting Sheds", "Paint sheds green."),
    ] {
        std::fs::create_dir_all(root.join("agents/decisions")).expect("dirs");
        std::fs::create_dir_all(root.join("src/deep")).expect("deep");
        std::fs::write(root.join("agents/memory-index.md"), format!("# Index\n\n## agents/decisions/a.md\n\n{index}"))
            .expect("index");
        std::fs::write(root.join("agents/decisions/a.md"), format!("# A\n\n## {title}\n\n{body}\n")).expect("a");
    }
    Projects { _tmp: tmp, p, q }
}

fn cli(x: &Projects, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .current_dir(&x.q)
        .env("CLAUDE_PROJECT_DIR", x.p.join("src/deep"))
        .output()
        .expect("run")
}

#[test]
fn the_cli_works_on_the_agents_project() {
    let x = projects();
    let o = cli(&x, &["resolve", "when", "rotating", "deploy", "keys"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("# When Rotating Deploy Keys"));
    assert_eq!(cli(&x, &["check"]).status.code(), Some(0), "P is clean (Q has an orphan)");
    assert_eq!(cli(&x, &["check", x.q.to_str().expect("utf8")]).status.code(), Some(1), "an explicit ROOT wins");
}

#[test]
fn the_mcp_server_works_on_the_agents_project() {
    let x = projects();
    let mut child = Command::new(BIN)
        .arg("mcp")
        .current_dir(&x.q)
        .env("CLAUDE_PROJECT_DIR", x.p.join("src/deep"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut send = |v: serde_json::Value| writeln!(stdin, "{v}").expect("write");
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}),
    );
    send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "resolve", "arguments": {"query": "rotating deploy keys", "operator": "when"}}}));
    let mut answer = serde_json::Value::Null;
    for line in (&mut out).lines() {
        let v: serde_json::Value = serde_json::from_str(&line.expect("line")).expect("json");
        if v["id"] == 2 {
            answer = v;
            break;
        }
    }
    let text = answer["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.starts_with("# When Rotating Deploy Keys"), "{answer}");
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn the_hook_works_on_the_agents_project() {
    let x = projects();
    std::fs::write(x.p.join("memory-index.toml"), "[recall]\nprompt = 0.2\n").expect("config");
    let state = tempfile::tempdir().expect("state");
    let mut child = Command::new(BIN)
        .arg("hook")
        .current_dir(&x.q)
        .env("CLAUDE_PROJECT_DIR", x.p.join("src/deep"))
        .env("MEMORY_INDEX_LSP_CACHE_DIR", state.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s", "cwd": x.q,
        "prompt": "when do we rotate deploy keys?"});
    child.stdin.take().expect("stdin").write_all(event.to_string().as_bytes()).expect("write");
    let o = child.wait_with_output().expect("wait");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("When Rotating Deploy Keys"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_language_server_works_on_its_clients_folder() {
    let x = projects();
    let mut c = Client::spawn_in(Some(&x.q), &[("CLAUDE_PROJECT_DIR", x.p.as_path())]);
    c.initialize(&x.q, true, serde_json::json!({}));
    let q_index = uri(&x.q.join("agents/memory-index.md"));
    let found = c.diagnostics(&q_index, |d| !d.is_empty());
    assert!(
        found.iter().any(|d| d["code"] == "orphan-entry"),
        "the client's folder Q, not $CLAUDE_PROJECT_DIR: {found:?}"
    );
    assert_eq!(c.shutdown(), Some(0));
    // A lone file without a folder: the project found upward from the file.
    let mut c = Client::spawn_in(Some(&x.q), &[]);
    c.request("initialize", serde_json::json!({"processId": null, "rootUri": null, "capabilities": {}}));
    c.notify("initialized", serde_json::json!({}));
    let p_index = x.p.join("agents/memory-index.md");
    let text = std::fs::read_to_string(&p_index).expect("index");
    c.notify(
        "textDocument/didOpen",
        serde_json::json!({"textDocument": {"uri": uri(&p_index), "languageId": "markdown",
        "version": 1, "text": text}}),
    );
    let hover = c.request(
        "textDocument/hover",
        serde_json::json!({"textDocument": {"uri": uri(&p_index)},
        "position": {"line": 4, "character": 8}}),
    );
    assert!(hover.to_string().contains("Rotate deploy keys every 90 days"), "{hover}");
    assert_eq!(c.shutdown(), Some(0));
}

/// Issue 52: a memory in a world-writable folder above the project is not
/// adopted by `check`, `remember` or the hook, and the note says why.
#[cfg(unix)]
#[test]
fn a_memory_in_a_shared_folder_above_is_named_not_adopted() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("tmp");
    let shared = tmp.path().join("shared");
    let proj = shared.join("me/proj");
    std::fs::create_dir_all(shared.join("agents/decisions")).expect("dir");
    std::fs::create_dir_all(&proj).expect("dir");
    std::fs::write(shared.join("agents/memory-index.md"), "# Memory Index\n").expect("index");
    std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    let mut c = bin_in(&proj);
    c.arg("remember").args(["--when", "Planting Decisions", "--body-file", "-"]);
    let o = run_with_stdin(c, b"Anyone may write here.\n");
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("is not used") && err.contains("every user can write to"), "{err}");
    let index = std::fs::read_to_string(shared.join("agents/memory-index.md")).expect("index");
    assert_eq!(index, "# Memory Index\n", "nothing written into the shared memory");
    let mut c = bin_in(&proj);
    c.arg("hook").env_remove("CLAUDE_PROJECT_DIR").env("MEMORY_INDEX_LSP_CACHE_DIR", tmp.path().join("state"));
    let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "cwd": proj, "prompt": "planting decisions"});
    let o = run_with_stdin(c, event.to_string().as_bytes());
    assert!(o.stdout.is_empty() && String::from_utf8_lossy(&o.stderr).contains("is not used"), "{o:?}");
}
