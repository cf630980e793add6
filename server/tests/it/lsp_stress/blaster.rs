//! The stress test's client: writes as fast as the pipe takes it, and a reader thread stamps and files every message.

#[allow(unused_imports)]
use super::*;

#[derive(Default)]
pub(super) struct Inbox {
    /// Every response per request id, with its arrival time.
    pub(super) responses: HashMap<i64, Vec<(Instant, Value)>>,
    /// The newest publishDiagnostics per uri (its raw body, parsed only when looked at).
    pub(super) diagnostics: HashMap<String, Vec<u8>>,
    pub(super) publishes: usize,
    /// The last few publishes per uri: (sequence number, arrival, raw body).
    pub(super) history: HashMap<String, VecDeque<(usize, Instant, Vec<u8>)>>,
    /// Anything else the server sent (its own requests and notifications).
    pub(super) other: Vec<Value>,
    pub(super) closed: bool,
}

impl Inbox {
    /// The newest diagnostics published for `uri`, sorted.
    pub(super) fn newest(&self, uri: &str) -> Option<Vec<Diag>> {
        self.diagnostics.get(uri).map(|b| published(b))
    }
}

/// The sorted diagnostics of a raw publishDiagnostics body.
pub(super) fn published(body: &[u8]) -> Vec<Diag> {
    let m: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    sorted(&m["params"]["diagnostics"])
}

/// Just enough of a message to file it; the rest is skipped, not built.
#[derive(serde::Deserialize)]
pub(super) struct Peek {
    #[serde(default)]
    pub(super) method: Option<String>,
    #[serde(default)]
    pub(super) id: Option<Value>,
    #[serde(default)]
    pub(super) params: Option<PeekParams>,
}

#[derive(serde::Deserialize)]
pub(super) struct PeekParams {
    #[serde(default)]
    pub(super) uri: Option<String>,
}

pub(super) struct Shared {
    pub(super) inbox: Mutex<Inbox>,
    pub(super) arrived: Condvar,
}

/// Writes as fast as it can; a reader thread stamps and files every message on arrival.
pub(super) struct Blaster {
    pub(super) child: Child,
    pub(super) stdin: Arc<Mutex<ChildStdin>>,
    pub(super) shared: Arc<Shared>,
    pub(super) next_id: i64,
    pub(super) sent_at: BTreeMap<i64, Instant>,
    pub(super) bytes_sent: usize,
}

pub(super) fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Blaster {
    pub(super) fn spawn() -> Blaster {
        let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if std::env::var_os("MI_TEST_SERVER_STDERR").is_some() { Stdio::inherit() } else { Stdio::null() })
            .spawn()
            .expect("spawn server");
        let stdin = Arc::new(Mutex::new(child.stdin.take().expect("stdin")));
        let stdout = child.stdout.take().expect("stdout");
        let shared = Arc::new(Shared { inbox: Mutex::default(), arrived: Condvar::new() });
        let (sh, answer) = (shared.clone(), stdin.clone());
        std::thread::spawn(move || {
            let mut r = BufReader::with_capacity(1 << 16, stdout);
            while let Some(body) = read_frame(&mut r) {
                let now = Instant::now();
                let peek = serde_json::from_slice::<Peek>(&body).ok();
                let mut inbox = lock(&sh.inbox);
                match peek {
                    Some(Peek { method: Some(method), params: Some(PeekParams { uri: Some(uri) }), .. })
                        if method == "textDocument/publishDiagnostics" =>
                    {
                        inbox.publishes += 1;
                        let n = inbox.publishes;
                        let h = inbox.history.entry(uri.clone()).or_default();
                        h.push_back((n, now, body.clone()));
                        if h.len() > 8 {
                            h.pop_front();
                        }
                        inbox.diagnostics.insert(uri, body);
                    }
                    Some(Peek { method: None, id: Some(id), .. }) => {
                        let m = serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null);
                        inbox.responses.entry(id.as_i64().unwrap_or(-1)).or_default().push((now, m));
                    }
                    _ => {
                        let m = serde_json::from_slice::<Value>(&body)
                            .unwrap_or_else(|_| json!({"unparsable": String::from_utf8_lossy(&body)}));
                        if m.get("method").is_some() && m.get("id").is_some() {
                            // The server's own request: answer it (null) so it never waits on us.
                            let reply = frame(&json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
                            let _ = lock(&answer).write_all(&reply);
                        }
                        inbox.other.push(m);
                    }
                }
                drop(inbox);
                sh.arrived.notify_all();
            }
            lock(&sh.inbox).closed = true;
            sh.arrived.notify_all();
        });
        Blaster { child, stdin, shared, next_id: 1, sent_at: BTreeMap::new(), bytes_sent: 0 }
    }

    pub(super) fn send(&mut self, v: &Value) {
        let bytes = frame(v);
        self.bytes_sent += bytes.len();
        lock(&self.stdin).write_all(&bytes).expect("write to the server");
    }

    pub(super) fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request without waiting; returns its id.
    pub(super) fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.sent_at.insert(id, Instant::now());
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits until `done` holds for the inbox, or panics after `limit` with `what`.
    pub(super) fn wait_for(&self, limit: Duration, what: &str, done: impl Fn(&Inbox) -> bool) {
        let deadline = Instant::now() + limit;
        let mut inbox = lock(&self.shared.inbox);
        while !done(&inbox) {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(!left.is_zero(), "timed out after {limit:?} waiting for {what}");
            assert!(!inbox.closed, "the server closed its output while we waited for {what}");
            inbox = self.shared.arrived.wait_timeout(inbox, left).map(|(g, _)| g).unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// `shutdown`, then `exit`; the exit code (None if it did not exit within 10 s).
    pub(super) fn shutdown(mut self) -> Option<i32> {
        let r = self.call("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        None
    }

    /// Sends a request and waits for its answer.
    pub(super) fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.wait_for(Duration::from_secs(30), method, |i| i.responses.contains_key(&id));
        lock(&self.shared.inbox).responses[&id][0].1.clone()
    }
}

pub(super) fn read_frame(r: &mut impl BufRead) -> Option<Vec<u8>> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let t = line.trim();
        if t.is_empty() {
            break;
        }
        if let Some(v) = t.strip_prefix("Content-Length:") {
            len = v.trim().parse().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    Some(body)
}

// ---------------------------------------------------------------- the cold check

pub(super) type Diag = (u32, u32, u32, u32, String, i64, String);
