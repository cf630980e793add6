//! A minimal stdio LSP client for end-to-end tests: spawns the server binary, frames JSON-RPC.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub struct Client {
    pub child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Every message received so far (notifications and responses).
    pub seen: Vec<Value>,
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    pub fn spawn() -> Client {
        Client::spawn_in(None, &[])
    }

    /// The server started in `cwd` with environment variables `env` set.
    pub fn spawn_in(cwd: Option<&Path>, env: &[(&str, &Path)]) -> Client {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
        if let Some(d) = cwd {
            cmd.current_dir(d);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if std::env::var_os("MI_TEST_SERVER_STDERR").is_some() { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .expect("spawn server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let t = line.trim();
                    if t.is_empty() {
                        break;
                    }
                    if let Some(v) = t.strip_prefix("Content-Length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if let Ok(v) = serde_json::from_slice::<Value>(&body) {
                    if tx.send(v).is_err() {
                        return;
                    }
                }
            }
        });
        Client { child, stdin, rx, next_id: 1, seen: Vec::new() }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write");
        self.stdin.flush().expect("flush");
    }

    pub fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(|m| m["id"] == id && (m.get("result").is_some() || m.get("error").is_some()))
    }

    /// Waits (up to 10 s) for a message matching `pred`, answering the server's own requests.
    pub fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(m) = self.seen.iter().find(|m| pred(m)) {
            return m.clone();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(m) => {
                    self.answer_server_request(&m);
                    self.seen.push(m.clone());
                    if pred(&m) {
                        return m;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("timed out; seen: {:#?}", self.seen.iter().rev().take(5).collect::<Vec<_>>())
                }
                Err(RecvTimeoutError::Disconnected) => panic!("server closed its output"),
            }
        }
    }

    /// Answers a request from the server (configuration, registration, progress).
    fn answer_server_request(&mut self, m: &Value) {
        if m.get("method").is_some() && m.get("id").is_some() {
            let result = if m["method"] == "workspace/configuration" { json!([null]) } else { Value::Null };
            self.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": result}));
        }
    }

    /// Receives at least one more message (up to 10 s).
    pub fn wait_more(&mut self) {
        let n = self.seen.len();
        let _ = self.wait_new(n);
    }

    fn wait_new(&mut self, n: usize) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.seen.len() <= n {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(m) => {
                    self.answer_server_request(&m);
                    self.seen.push(m);
                }
                Err(_) => panic!("timed out waiting for a message"),
            }
        }
        self.seen[n].clone()
    }

    /// The latest diagnostics published for `uri`, waiting for a publish that satisfies `pred`.
    pub fn diagnostics(&mut self, uri: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let matches = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && pred(m["params"]["diagnostics"].as_array().map_or(&[][..], Vec::as_slice))
        };
        // Only the newest publish for the uri counts.
        let newest = self
            .seen
            .iter()
            .rev()
            .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri);
        if let Some(m) = newest.filter(|m| matches(m)) {
            return m["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
        }
        let m = self.wait(|m| matches(m));
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    pub fn initialize(&mut self, root: &Path, utf8: bool, extra_caps: Value) -> Value {
        let encodings = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
        let mut caps = json!({"general": {"positionEncodings": encodings}});
        if let (Some(c), Some(e)) = (caps.as_object_mut(), extra_caps.as_object()) {
            for (k, v) in e {
                c.insert(k.clone(), v.clone());
            }
        }
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": caps,
                   "workspaceFolders": [{"uri": uri(root), "name": "root"}]}),
        );
        self.notify("initialized", json!({}));
        r
    }

    pub fn shutdown(mut self) -> Option<i32> {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }
}

/// A temporary copy of `../shared/corpus/NAME`'s `agents/`, or None (with a
/// message) when the corpus is absent.
pub fn corpus_copy(name: &str) -> Option<tempfile::TempDir> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus").join(name);
    if !src.join("agents/memory-index.md").is_file() {
        eprintln!("skipped: ../shared/corpus/{name} is absent");
        return None;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    copy(&src.join("agents"), &tmp.path().join("agents"));
    Some(tmp)
}

/// A temporary copy of `fixtures/demo`.
pub fn demo_copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tmp");
    copy(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/demo"), tmp.path());
    tmp
}

pub fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            copy(&e.path(), &t);
        } else {
            // Written, not copied: a working copy is writable even when the source (the corpus) is not.
            std::fs::write(&t, std::fs::read(e.path()).expect("read")).expect("write");
        }
    }
}
