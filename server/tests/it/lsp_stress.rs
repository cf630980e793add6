//! Load test over stdio (issue 9): 10,000 rapid incremental `didChange`s interleaved with
//! completion and hover requests, some cancelled, all written without waiting for an answer.
//!
//! Afterwards every request has exactly one answer within a bounded time; the server's text
//! equals the client's: for every file, the diagnostics it last pushed and those it holds
//! (pulled) equal a cold `check --format json` of the client's text, and symbols, semantic
//! tokens, folding, inlay hints, hover, definition and completion equal a fresh server's on that
//! text; and the server is alive and exits cleanly. It runs with UTF-16 positions (10,000
//! edits) and with UTF-8 (3,000 edits), at the same time. The edits come from a seeded xorshift
//! generator: the seed is printed, `MI_STRESS_SEED=N` replays a run and `MI_STRESS_EDITS=N`
//! changes the number of edits. `cargo test --test it lsp_stress:: -- --nocapture` prints figures.

use crate::lsp_support;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use lsp_support::{demo_copy, uri, Client};
use serde_json::{json, Value};

/// The longest a request may wait for its answer, from its write to the answer's arrival.
///
/// Written as fast as the pipe takes them, edits queue up inside the server (its 1 MB of input
/// buffers hold about 3,300 of these `didChange`s). Each is applied and its file re-parsed in
/// order; the check runs once per burst (the publisher coalesces), so a request waits for the
/// queue ahead of it to drain: about 4 s at most in a debug build on a 2-core machine running
/// both encodings at once. The bound is generous for that. It catches a hang, or a server that
/// falls further and further behind, not a slow machine.
const MAX_LATENCY: Duration = Duration::from_secs(if cfg!(debug_assertions) { 15 } else { 5 });
/// Edits in the UTF-16 run (the LSP default, and the encoding with surrogate pairs) and in the
/// UTF-8 run; `MI_STRESS_EDITS` sets both.
const EDITS_UTF16: u64 = 10_000;
const EDITS_UTF8: u64 = 3_000;
const DEFAULT_SEED: u64 = 0x5EED_2026_1122;

// ---------------------------------------------------------------- random numbers

/// xorshift64*: small, deterministic, good enough to pick edits.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // splitmix64 once, so that small seeds do not start in a weak state (and never 0).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------- the client's copy of the text

/// LSP line breaks (`\n`, `\r\n`, lone `\r`) and positions in UTF-8 bytes or UTF-16 units,
/// clamped as the specification says: a column past the end of its line is the line's end, a
/// line past the last one is the end of the document, a column inside a character is its start.
struct Doc {
    text: String,
    utf8: bool,
}

impl Doc {
    fn line_starts(&self) -> Vec<usize> {
        let b = self.text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\n' {
                starts.push(i + 1);
            } else if b[i] == b'\r' {
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                starts.push(i + 1);
            }
            i += 1;
        }
        starts
    }

    /// Start and end (before its break) of a line's content.
    fn content(&self, starts: &[usize], line: usize) -> (usize, usize) {
        let start = starts[line];
        let mut end = starts.get(line + 1).copied().unwrap_or(self.text.len());
        let b = self.text.as_bytes();
        if end > start && b[end - 1] == b'\n' {
            end -= 1;
        }
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end)
    }

    fn offset(&self, (line, col): (u32, u32)) -> usize {
        let starts = self.line_starts();
        let (line, col) = (line as usize, col as usize);
        if line >= starts.len() {
            return self.text.len();
        }
        let (start, end) = self.content(&starts, line);
        let content = &self.text[start..end];
        if self.utf8 {
            let mut c = col.min(content.len());
            while !content.is_char_boundary(c) {
                c -= 1;
            }
            return start + c;
        }
        let mut units = 0;
        for (i, ch) in content.char_indices() {
            units += ch.len_utf16();
            if units > col {
                return start + i;
            }
        }
        end
    }

    fn units(&self, s: &str) -> usize {
        if self.utf8 {
            s.len()
        } else {
            s.encode_utf16().count()
        }
    }

    fn position(&self, offset: usize) -> (u32, u32) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let starts = self.line_starts();
        let line = starts.partition_point(|&s| s <= offset) - 1;
        (line as u32, self.units(&self.text[starts[line]..offset]) as u32)
    }

    /// Applies one change exactly as the server must: clamp both ends, then replace.
    fn apply(&mut self, change: &Change) {
        let (a, b) = (self.offset(change.start), self.offset(change.end));
        self.text.replace_range(a.min(b)..a.max(b), &change.text);
    }

    fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// A random character boundary.
    fn boundary(&self, rng: &mut Rng) -> usize {
        let mut o = rng.below(self.text.len() + 1);
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }
}

/// One `contentChanges` element.
#[derive(Clone, Debug)]
struct Change {
    start: (u32, u32),
    end: (u32, u32),
    text: String,
}

impl Change {
    fn json(&self) -> Value {
        json!({"range": {"start": {"line": self.start.0, "character": self.start.1},
                         "end": {"line": self.end.0, "character": self.end.1}}, "text": self.text})
    }
}

// ---------------------------------------------------------------- the edits

const WORDS: &[&str] = &[
    "writing",
    "mock",
    "tests",
    "seed",
    "fixture",
    "sailings",
    "payment",
    "webhooks",
    "versioning",
    "public",
    "endpoints",
    "paginate",
    "list",
    "responses",
    "store",
    "ticket",
    "prices",
    "timestamps",
    "cross",
    "time",
    "zones",
    "purging",
    "expired",
    "holds",
    "split",
    "slow",
    "test",
    "suites",
    "café",
    "déjà",
    "vu",
    "😀",
    "naïve",
    "stress",
];
const TRIGGERS: &[&str] = &[
    "/when writing mock tests",
    "/how seed fixture sailings",
    "/when versioning public endpoints",
    "/how paginate list responses",
    "/how store ticket prices",
    "/when timestamps cross time zones",
    "/how split slow test suites",
];
const SECTIONS: &[&str] = &["api", "data", "testing", "operations", "missing"];
/// What typing inserts, one character at a time (letters weighted up).
const TYPED: &[&str] = &[
    "a", "e", "i", "o", "n", "s", "t", "r", "l", "m", "w", "h", "g", "k", "p", " ", " ", " ", "/", "|", ",", "-", "é",
    "😀", "\n", "#",
];

fn words(rng: &mut Rng, n: usize) -> String {
    (0..n).map(|_| *rng.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

fn entry_line(rng: &mut Rng) -> String {
    let mut line = if rng.chance(40) {
        rng.pick(TRIGGERS).to_string()
    } else {
        let op = if rng.chance(60) { "/when" } else { "/how" };
        let n = 1 + rng.below(4);
        format!("{op} {}", words(rng, n))
    };
    if rng.chance(30) {
        let n = 1 + rng.below(2);
        line.push_str(&format!(" | {}", words(rng, n)));
    }
    line.push('\n');
    line
}

fn some_lines(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..1 + rng.below(3) {
        match rng.below(10) {
            0 => out.push_str(&format!("## agents/decisions/{}.md\n", rng.pick(SECTIONS))),
            1 => out.push('\n'),
            2 => {
                let n = 2 + rng.below(5);
                out.push_str(&format!("{}\n", words(rng, n)));
            }
            3 if rng.chance(20) => out.push_str("/when crlf line é\r\n"),
            _ => out.push_str(&entry_line(rng)),
        }
    }
    out
}

/// The generator: an editor cursor that types and deletes, plus structural and out-of-range edits.
struct Editor {
    rng: Rng,
    doc: Doc,
    cursor: usize,
}

impl Editor {
    fn pos(&self, offset: usize) -> (u32, u32) {
        self.doc.position(offset)
    }

    fn change(&self, a: usize, b: usize, text: &str) -> Change {
        Change { start: self.pos(a), end: self.pos(b), text: text.into() }
    }

    /// The next change, computed on the current text (the caller applies it).
    fn next_change(&mut self) -> Change {
        let len = self.doc.text.len();
        if !self.doc.text.is_char_boundary(self.cursor.min(len)) || self.cursor > len || self.rng.chance(4) {
            self.cursor = self.doc.boundary(&mut self.rng);
        }
        let c = self.cursor;
        // Keep the document between roughly 0.3 and 1 kB, a little under the demo index's 1.2 kB
        // (every edit costs the server a full check, more for a longer index, and the test must
        // stay well under a minute in a debug build). Codes from 100 up force a kind of edit.
        let roll = if len > 1000 {
            [100, 101, 102, 103][self.rng.below(4)]
        } else if len < 300 {
            104
        } else {
            self.rng.below(100)
        };
        match roll {
            // Typing at the cursor.
            0..=39 => {
                let s = *self.rng.pick(TYPED);
                self.cursor = c + s.len();
                self.change(c, c, s)
            }
            // Backspace.
            40..=54 | 100 => {
                let prev = self.doc.text[..c].chars().next_back().map_or(0, char::len_utf8);
                self.cursor = c - prev;
                self.change(c - prev, c, "")
            }
            // A new entry (or a few lines) at a line start.
            55..=62 | 104 => {
                let line = self.rng.below(self.doc.line_count());
                let at = self.doc.line_starts()[line];
                let text = if self.rng.chance(70) { entry_line(&mut self.rng) } else { some_lines(&mut self.rng) };
                self.cursor = at + text.len();
                Change { start: (line as u32, 0), end: (line as u32, 0), text }
            }
            // Delete a whole line.
            63..=69 | 101 => {
                let n = self.doc.line_count();
                let line = self.rng.below(n) as u32;
                self.cursor = self.doc.line_starts()[line as usize];
                Change { start: (line, 0), end: (line + 1, 0), text: String::new() }
            }
            // Multi-line replacement.
            70..=77 => {
                let n = self.doc.line_count();
                let a = self.rng.below(n);
                let b = (a + self.rng.below(4)).min(n - 1);
                let starts = self.doc.line_starts();
                let (sa, ea) = self.doc.content(&starts, a);
                let (sb, eb) = self.doc.content(&starts, b);
                let x = if self.rng.chance(50) { sa } else { ea };
                let y = if self.rng.chance(50) { sb } else { eb };
                let text = some_lines(&mut self.rng);
                self.cursor = x.min(y) + text.len();
                self.change(x.min(y), x.max(y), &text)
            }
            // A new section.
            78..=80 => {
                let line = self.rng.below(self.doc.line_count()) as u32;
                let text =
                    format!("## agents/decisions/{}.md\n\n{}", self.rng.pick(SECTIONS), entry_line(&mut self.rng));
                Change { start: (line, 0), end: (line, 0), text }
            }
            // Remove a section: from its heading to the next one, or past the end.
            81..=82 | 103 => {
                let starts = self.doc.line_starts();
                let heads: Vec<usize> =
                    (0..starts.len()).filter(|&l| self.doc.text[starts[l]..].starts_with("## ")).collect();
                if heads.is_empty() {
                    let a = self.doc.boundary(&mut self.rng);
                    let mut b = (a + 40).min(len);
                    while !self.doc.text.is_char_boundary(b) {
                        b -= 1;
                    }
                    return self.change(a, b, "");
                }
                let k = self.rng.below(heads.len());
                let end = heads.get(k + 1).map_or((starts.len() as u32 + 3, 7), |&l| (l as u32, 0));
                self.cursor = starts[heads[k]];
                Change { start: (heads[k] as u32, 0), end, text: String::new() }
            }
            // Ranges past the end: the server must clamp them.
            83..=89 => {
                let n = self.doc.line_count() as u32;
                match self.rng.below(4) {
                    0 => {
                        let at = (n + self.rng.below(50) as u32, self.rng.below(200) as u32);
                        Change { start: at, end: at, text: format!("\n{}", entry_line(&mut self.rng)) }
                    }
                    1 => {
                        let line = self.rng.below(n as usize) as u32;
                        let col = 1000 + self.rng.below(1000) as u32;
                        Change { start: (line, col), end: (line, col + 5), text: " é".into() }
                    }
                    2 => {
                        // Up to a column past the end of a later line, or past the last line.
                        let line = self.rng.below(n as usize) as u32;
                        let end = (line + 1 + self.rng.below(3) as u32, 9999);
                        Change { start: (line, 3), end, text: "\n".into() }
                    }
                    _ => {
                        let line = self.rng.below(n as usize) as u32;
                        Change { start: (line, 500), end: (line + 1, 9999), text: " 😀".into() }
                    }
                }
            }
            // A position inside a character: rounds down to its start.
            90..=91 => {
                let utf8 = self.doc.utf8;
                let found = self
                    .doc
                    .text
                    .char_indices()
                    .filter(|(_, ch)| if utf8 { !ch.is_ascii() } else { ch.len_utf16() > 1 });
                let candidates: Vec<(usize, char)> = found.collect();
                if candidates.is_empty() {
                    return self.change(c, c, "😀");
                }
                let (at, ch) = *self.rng.pick(&candidates);
                let (line, col) = self.pos(at);
                let inside = if utf8 { 1 + self.rng.below(ch.len_utf8() - 1) } else { 1 } as u32;
                self.cursor = at + 1;
                Change { start: (line, col + inside), end: (line, col + inside), text: "x".into() }
            }
            // A short random deletion (or replacement).
            _ => {
                let a = self.doc.boundary(&mut self.rng);
                let mut b = (a + 1 + self.rng.below(40)).min(len);
                while !self.doc.text.is_char_boundary(b) {
                    b -= 1;
                }
                let text = if self.rng.chance(30) { words(&mut self.rng, 1) } else { String::new() };
                self.cursor = a + text.len();
                self.change(a, b, &text)
            }
        }
    }
}

// ---------------------------------------------------------------- a client that never waits

#[derive(Default)]
struct Inbox {
    /// Every response per request id, with its arrival time.
    responses: HashMap<i64, Vec<(Instant, Value)>>,
    /// The newest publishDiagnostics per uri (its raw body, parsed only when looked at).
    diagnostics: HashMap<String, Vec<u8>>,
    publishes: usize,
    /// The last few publishes per uri: (sequence number, arrival, raw body).
    history: HashMap<String, VecDeque<(usize, Instant, Vec<u8>)>>,
    /// Anything else the server sent (its own requests and notifications).
    other: Vec<Value>,
    closed: bool,
}

impl Inbox {
    /// The newest diagnostics published for `uri`, sorted.
    fn newest(&self, uri: &str) -> Option<Vec<Diag>> {
        self.diagnostics.get(uri).map(|b| published(b))
    }
}

/// The sorted diagnostics of a raw publishDiagnostics body.
fn published(body: &[u8]) -> Vec<Diag> {
    let m: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    sorted(&m["params"]["diagnostics"])
}

/// Just enough of a message to file it; the rest is skipped, not built.
#[derive(serde::Deserialize)]
struct Peek {
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    params: Option<PeekParams>,
}

#[derive(serde::Deserialize)]
struct PeekParams {
    #[serde(default)]
    uri: Option<String>,
}

struct Shared {
    inbox: Mutex<Inbox>,
    arrived: Condvar,
}

/// Writes as fast as it can; a reader thread stamps and files every message on arrival.
struct Blaster {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    shared: Arc<Shared>,
    next_id: i64,
    sent_at: BTreeMap<i64, Instant>,
    bytes_sent: usize,
}

fn frame(v: &Value) -> Vec<u8> {
    let body = v.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Blaster {
    fn spawn() -> Blaster {
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

    fn send(&mut self, v: &Value) {
        let bytes = frame(v);
        self.bytes_sent += bytes.len();
        lock(&self.stdin).write_all(&bytes).expect("write to the server");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request without waiting; returns its id.
    fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.sent_at.insert(id, Instant::now());
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits until `done` holds for the inbox, or panics after `limit` with `what`.
    fn wait_for(&self, limit: Duration, what: &str, done: impl Fn(&Inbox) -> bool) {
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
    fn shutdown(mut self) -> Option<i32> {
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
    fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        self.wait_for(Duration::from_secs(30), method, |i| i.responses.contains_key(&id));
        lock(&self.shared.inbox).responses[&id][0].1.clone()
    }
}

fn read_frame(r: &mut impl BufRead) -> Option<Vec<u8>> {
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

type Diag = (u32, u32, u32, u32, String, i64, String);

/// One server diagnostic as a comparable tuple.
fn diag_key(d: &Value) -> Diag {
    let n = |v: &Value| v.as_u64().unwrap_or(u64::MAX) as u32;
    let r = &d["range"];
    (
        n(&r["start"]["line"]),
        n(&r["start"]["character"]),
        n(&r["end"]["line"]),
        n(&r["end"]["character"]),
        d["code"].as_str().unwrap_or("").to_string(),
        d["severity"].as_i64().unwrap_or(0),
        d["message"].as_str().unwrap_or("").to_string(),
    )
}

fn sorted(diags: &Value) -> Vec<Diag> {
    let mut v: Vec<Diag> = diags.as_array().map(|a| a.iter().map(diag_key).collect()).unwrap_or_default();
    v.sort();
    v
}

/// `check --format json` of `root`, per file uri, with the CLI's 1-based UTF-8 byte columns
/// converted to the negotiated LSP encoding. Every checked file has an entry (empty when clean).
fn cold_check(root: &Path, utf8: bool) -> BTreeMap<String, Vec<Diag>> {
    let out = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .expect("run check");
    assert!(matches!(out.status.code(), Some(0 | 1)), "check failed: {}", String::from_utf8_lossy(&out.stderr));
    let findings: Value = serde_json::from_slice(&out.stdout).expect("check --format json prints JSON");
    let mut files = vec!["agents/memory-index.md".to_string()];
    for e in std::fs::read_dir(root.join("agents/decisions")).expect("decisions").flatten() {
        files.push(format!("agents/decisions/{}", e.file_name().to_string_lossy()));
    }
    let mut map: BTreeMap<String, Vec<Diag>> = files.iter().map(|f| (uri(&root.join(f)), Vec::new())).collect();
    for f in findings.as_array().expect("an array") {
        let rel = f["file"].as_str().expect("file");
        let doc = Doc { text: std::fs::read_to_string(root.join(rel)).expect("read"), utf8 };
        let starts = doc.line_starts();
        let conv = |line: &Value, col: &Value| -> (u32, u32) {
            let (line, col) = (line.as_u64().expect("line") as usize - 1, col.as_u64().expect("column") as usize - 1);
            let start = starts[line];
            (line as u32, doc.units(&doc.text[start..start + col]) as u32)
        };
        let (sl, sc) = conv(&f["line"], &f["column"]);
        let (el, ec) = conv(&f["end_line"], &f["end_column"]);
        let severity = match f["severity"].as_str() {
            Some("error") => 1,
            Some("warning") => 2,
            _ => 3,
        };
        let code = f["code"].as_str().unwrap_or("").to_string();
        let message = f["message"].as_str().unwrap_or("").to_string();
        map.entry(uri(&root.join(rel))).or_default().push((sl, sc, el, ec, code, severity, message));
    }
    for v in map.values_mut() {
        v.sort();
    }
    map
}

/// A response's result with the workspace root's uri replaced, for comparing two servers.
fn normalized(response: &Value, root: &Path) -> String {
    assert!(response.get("error").is_none(), "{response}");
    response["result"].to_string().replace(&uri(root), "ROOT")
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

// ---------------------------------------------------------------- the test

struct Figures {
    edits: usize,
    requests: usize,
    cancelled: usize,
    cancelled_answered_with_result: usize,
    max: Duration,
    p99: Duration,
    p50: Duration,
    burst: Duration,
    drained: Duration,
}

fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

fn stress(utf8: bool) -> Figures {
    let base = env_number("MI_STRESS_SEED").unwrap_or(DEFAULT_SEED);
    let seed = base ^ u64::from(utf8);
    let edits = env_number("MI_STRESS_EDITS").unwrap_or(if utf8 { EDITS_UTF8 } else { EDITS_UTF16 }) as usize;
    let enc = if utf8 { "utf-8" } else { "utf-16" };
    println!("[{enc}] seed {seed:#x} (replay: MI_STRESS_SEED={base:#x}), {edits} edits");
    let t0 = Instant::now();

    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");

    let mut s = Blaster::spawn();
    let caps =
        json!({"general": {"positionEncodings": if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) }}});
    let init = s.call(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": caps,
               "workspaceFolders": [{"uri": uri(&root), "name": "root"}]}),
    );
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], enc);
    s.notify("initialized", json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );

    // The burst: edits, requests and cancellations, never waiting.
    let mut ed = Editor { rng: Rng::new(seed), doc: Doc { text, utf8 }, cursor: 0 };
    let mut version = 1;
    let mut requests: Vec<i64> = Vec::new();
    let mut cancelled: Vec<i64> = Vec::new();
    let mut to_cancel: Vec<(usize, i64)> = Vec::new();
    let burst_start = Instant::now();
    let mut send_edit = |s: &mut Blaster, changes: Vec<Change>| {
        version += 1;
        let json_changes: Vec<Value> = changes.iter().map(Change::json).collect();
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": version}, "contentChanges": json_changes}),
        );
    };
    for n in 0..edits {
        // Usually one change per notification, sometimes a batch (applied in order).
        let k = if ed.rng.chance(3) { 2 + ed.rng.below(2) } else { 1 };
        let mut changes = Vec::new();
        for _ in 0..k {
            let c = ed.next_change();
            ed.doc.apply(&c);
            changes.push(c);
        }
        send_edit(&mut s, changes);
        if ed.rng.chance(10) {
            let at = if ed.rng.chance(50) {
                ed.pos(ed.cursor.min(ed.doc.text.len()))
            } else {
                (ed.rng.below(ed.doc.line_count() + 2) as u32, ed.rng.below(60) as u32)
            };
            let method = if ed.rng.chance(50) { "textDocument/completion" } else { "textDocument/hover" };
            let id = s.request(
                method,
                json!({"textDocument": {"uri": index}, "position": {"line": at.0, "character": at.1}}),
            );
            requests.push(id);
            if ed.rng.chance(30) {
                to_cancel.push((n + ed.rng.below(4), id));
            }
        }
        for (_, id) in to_cancel.iter().filter(|(when, _)| *when <= n) {
            s.notify("$/cancelRequest", json!({"id": id}));
            cancelled.push(*id);
        }
        to_cancel.retain(|(when, _)| *when > n);
    }
    for (_, id) in std::mem::take(&mut to_cancel) {
        s.notify("$/cancelRequest", json!({"id": id}));
        cancelled.push(id);
    }

    // The finale. First a section at the top, so that every entry typed above is checked
    // (entries before the first section are the index's preamble). Then a block appended through
    // a range past the end, with known findings (orphan entries with non-ASCII text, after CRLF
    // and lone CR line breaks; a section that may repeat) and a known entry to hover.
    let top = Change { start: (0, 0), end: (0, 0), text: "## agents/decisions/api.md\n".into() };
    ed.doc.apply(&top);
    send_edit(&mut s, vec![top]);
    let n = ed.doc.line_count() as u32;
    let block = "\n\n/when crlf orphan é\r\n/how lone cr orphan\r## agents/decisions/testing.md\n\n\
                 /when writing mock tests | stress é\n/when stress orphan café 😀\n/how nothing like this\n";
    let append = Change { start: (n + 7, 3), end: (n + 9, 0), text: block.into() };
    ed.doc.apply(&append);
    send_edit(&mut s, vec![append]);
    // Type and erase a character inside the orphan's trigger, after the emoji.
    // The text ends in a line break, so its last line is empty.
    let orphan_line = ed.doc.line_count() as u32 - 3;
    let after_emoji = ed.doc.units("/when stress orphan café 😀") as u32;
    for c in [
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji), text: "!".into() },
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji + 1), text: String::new() },
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji), text: "s".into() },
    ] {
        ed.doc.apply(&c);
        send_edit(&mut s, vec![c]);
    }
    let burst = burst_start.elapsed();
    let final_text = ed.doc.text.clone();
    assert!(final_text.ends_with("/when stress orphan café 😀s\n/how nothing like this\n"), "{final_text}");

    // One more request, behind every edit: when it is answered, every edit has been processed.
    let sync = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
    );
    requests.push(sync);
    let all = requests.clone();
    s.wait_for(Duration::from_secs(120), "an answer to every request", |i| {
        all.iter().all(|id| i.responses.contains_key(id))
    });
    let drained = lock(&s.shared.inbox).responses[&sync][0].0.duration_since(burst_start);
    let server_cpu = cpu_seconds(s.child.id());

    // Every request got exactly one answer: a result, or RequestCancelled if it was cancelled.
    let mut latencies = Vec::new();
    let mut cancelled_answered_with_result = 0;
    {
        let inbox = lock(&s.shared.inbox);
        for id in &requests {
            let answers = &inbox.responses[id];
            assert_eq!(answers.len(), 1, "request {id} got {} answers: {answers:?}", answers.len());
            let (at, m) = &answers[0];
            latencies.push(at.duration_since(s.sent_at[id]));
            if cancelled.contains(id) {
                match m.get("error") {
                    Some(e) => assert_eq!(e["code"], -32800, "cancelled request {id}: {m}"),
                    None => cancelled_answered_with_result += 1,
                }
            } else {
                assert!(m.get("error").is_none(), "request {id} failed: {m}");
            }
        }
        let unknown: Vec<&i64> = inbox.responses.keys().filter(|id| !s.sent_at.contains_key(id)).collect();
        assert!(unknown.is_empty(), "answers to requests never sent: {unknown:?}");
        assert!(inbox.other.iter().all(|m| m["method"] != "window/showMessage"), "{:?}", inbox.other);
    }
    latencies.sort();
    let f = Figures {
        edits: version as usize - 1,
        requests: requests.len(),
        cancelled: cancelled.len(),
        cancelled_answered_with_result,
        max: latencies[latencies.len() - 1],
        p99: percentile(&latencies, 0.99),
        p50: percentile(&latencies, 0.5),
        burst,
        drained,
    };
    println!(
        "[{enc}] {} didChange ({:.1} MB) written in {:.1} s, all processed after {:.1} s (server CPU {}); \
         {} requests ({} cancelled, {} of those answered with a result): latency p50 {:.0} ms, p99 {:.0} ms, \
         max {:.0} ms",
        f.edits,
        s.bytes_sent as f64 / 1e6,
        f.burst.as_secs_f64(),
        f.drained.as_secs_f64(),
        server_cpu.map_or("unknown".to_string(), |c| format!("{c:.1} s")),
        f.requests,
        f.cancelled,
        f.cancelled_answered_with_result,
        f.p50.as_secs_f64() * 1e3,
        f.p99.as_secs_f64() * 1e3,
        f.max.as_secs_f64() * 1e3,
    );
    assert!(s.child.try_wait().expect("try_wait").is_none(), "the server is still running");

    // The server's text equals ours: a cold check of our final text, on a second copy of the
    // workspace, finds exactly what the server holds (pulled) and what it last pushed.
    let cold = demo_copy();
    let cold_root = cold.path().canonicalize().expect("canon");
    std::fs::write(cold_root.join("agents/memory-index.md"), &final_text).expect("write");
    let expected: BTreeMap<String, Vec<Diag>> =
        cold_check(&cold_root, utf8).into_iter().map(|(u, d)| (u.replace(&uri(&cold_root), &uri(&root)), d)).collect();
    let codes: Vec<&str> = expected[&index].iter().map(|d| d.4.as_str()).collect();
    assert!(codes.contains(&"orphan-entry"), "the final text has findings to compare: {codes:?}");
    let crlf = final_text.matches("\r\n").count();
    println!(
        "[{enc}] final text: {} bytes, {} lines ({crlf} CRLF, {} lone CR, {} non-ASCII chars), \
         {} findings in the index",
        final_text.len(),
        Doc { text: final_text.clone(), utf8 }.line_count(),
        final_text.matches('\r').count() - crlf,
        final_text.chars().filter(|c| !c.is_ascii()).count(),
        codes.len(),
    );
    let pushed_ok = |i: &Inbox| expected.iter().all(|(u, want)| i.newest(u).as_ref() == Some(want));
    let converged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.wait_for(Duration::from_secs(20), "pushed diagnostics equal to the cold check", pushed_ok)
    }))
    .is_ok();
    // ... and they stay equal: nothing older arrives after a round trip.
    let _ =
        s.call("textDocument/hover", json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}));
    std::thread::sleep(Duration::from_millis(300));
    let stable = pushed_ok(&lock(&s.shared.inbox));
    if !(converged && stable) {
        let mut report = String::new();
        let inbox = lock(&s.shared.inbox);
        for (u, want) in &expected {
            let got = inbox.newest(u).unwrap_or_default();
            if &got != want {
                report.push_str(&format!("{u}\n  cold check: {want:?}\n  newest push: {got:?}\n  last pushes:\n"));
                for (n, at, body) in inbox.history.get(u).into_iter().flatten() {
                    let at = at.duration_since(t0).as_secs_f64();
                    report.push_str(&format!("    #{n} at {at:.3} s: {:?}\n", published(body)));
                }
            }
        }
        let publishes = inbox.publishes;
        drop(inbox);
        let held = pulled_differences(&mut s, &expected);
        panic!(
            "the newest pushed diagnostics are not those of the final text ({}; {publishes} publishes); \
             what the server holds (pulled) {}\n{report}",
            if converged { "they were, then an older set arrived" } else { "not within 20 s" },
            if held.is_empty() { "equals the cold check".to_string() } else { format!("differs for {held:?}") },
        );
    }
    let held = pulled_differences(&mut s, &expected);
    assert!(held.is_empty(), "pulled diagnostics differ from the cold check for {held:?}");

    // Hover and definition at the appended entry reflect the final text.
    let entry_line = orphan_line - 1;
    let at = json!({"textDocument": {"uri": index}, "position": {"line": entry_line, "character": 10}});
    let hover = s.call("textDocument/hover", at.clone());
    let preview = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(preview.contains("Patch where the name is used"), "{hover}");
    assert_eq!(hover["result"]["range"]["start"]["line"], entry_line, "{hover}");
    let definition = s.call("textDocument/definition", at.clone());
    assert_eq!(definition["result"]["uri"], uri(&root.join("agents/decisions/testing.md")), "{definition}");

    // A fresh server on the same text (not opened: read from disk) answers exactly the same.
    let mut fresh = Client::spawn();
    fresh.initialize(&cold_root, utf8, json!({}));
    let cold_index = uri(&cold_root.join("agents/memory-index.md"));
    let want = expected[&index].clone();
    fresh.diagnostics(&cold_index, |d| {
        let mut v: Vec<Diag> = d.iter().map(diag_key).collect();
        v.sort();
        v == want
    });
    let doc = json!({"textDocument": {"uri": index}});
    let cold_doc = json!({"textDocument": {"uri": cold_index}});
    let cold_at = json!({"textDocument": {"uri": cold_index}, "position": {"line": entry_line, "character": 10}});
    let everything = json!({"start": {"line": 0, "character": 0}, "end": {"line": 99999, "character": 0}});
    let doc_range = json!({"textDocument": {"uri": index}, "range": everything});
    let cold_doc_range = json!({"textDocument": {"uri": cold_index}, "range": everything});
    for (method, ours, theirs) in [
        ("textDocument/documentSymbol", &doc, &cold_doc),
        ("textDocument/semanticTokens/full", &doc, &cold_doc),
        ("textDocument/foldingRange", &doc, &cold_doc),
        ("textDocument/inlayHint", &doc_range, &cold_doc_range),
        ("textDocument/semanticTokens/range", &doc_range, &cold_doc_range),
        ("textDocument/hover", &at, &cold_at),
        ("textDocument/definition", &at, &cold_at),
        ("textDocument/completion", &at, &cold_at),
    ] {
        let a = normalized(&s.call(method, ours.clone()), &root);
        let b = normalized(&fresh.request(method, theirs.clone()), &cold_root);
        assert_eq!(a, b, "{method} differs from a fresh server on the same text");
    }
    assert_eq!(fresh.shutdown(), Some(0));

    // Still alive, no late duplicate answers, and a clean exit.
    assert!(s.child.try_wait().expect("try_wait").is_none(), "the server is still running");
    {
        let inbox = lock(&s.shared.inbox);
        let twice: Vec<&i64> = requests.iter().filter(|id| inbox.responses[id].len() != 1).collect();
        assert!(twice.is_empty(), "requests answered more than once: {twice:?}");
    }
    let status = s.shutdown();
    assert_eq!(status, Some(0), "clean exit after shutdown and exit");
    println!("[{enc}] total {:.1} s", t0.elapsed().as_secs_f64());
    f
}

/// The files whose diagnostics, pulled from the server now, differ from `expected`.
fn pulled_differences(s: &mut Blaster, expected: &BTreeMap<String, Vec<Diag>>) -> Vec<String> {
    let mut out = Vec::new();
    for (u, want) in expected {
        let pulled = s.call("textDocument/diagnostic", json!({"textDocument": {"uri": u}}));
        if &sorted(&pulled["result"]["items"]) != want {
            out.push(u.clone());
        }
    }
    out
}

/// CPU time (user + system) a process has used so far, from /proc (Linux; 100 ticks a second).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[test]
fn ten_thousand_rapid_edits_with_requests_and_cancellations_utf16() {
    let f = stress(false);
    assert!(f.max < MAX_LATENCY, "slowest answer took {:?} (p99 {:?})", f.max, f.p99);
}

#[test]
fn three_thousand_rapid_edits_with_requests_and_cancellations_utf8() {
    let f = stress(true);
    assert!(f.max < MAX_LATENCY, "slowest answer took {:?} (p99 {:?})", f.max, f.p99);
}

/// The newest diagnostics a client holds must be those of the newest text. An edit that changes
/// the diagnostics of several files (emptying the index un-indexes every heading), followed at
/// once by an edit that changes only the index's: however the server schedules the two, the
/// index's last publish must be the second edit's. Ten trials, each checked after a round trip.
#[test]
fn diagnostics_of_a_later_edit_are_never_overtaken_by_an_earlier_one() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let original = std::fs::read_to_string(&index_path).expect("index");
    let mut s = Blaster::spawn();
    let init = s.call(
        "initialize",
        json!({"processId": null, "capabilities": {}, "workspaceFolders": [{"uri": uri(&root), "name": "root"}]}),
    );
    assert!(init.get("error").is_none(), "{init}");
    s.notify("initialized", json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": original}}),
    );
    let everything = |text: &str| {
        json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}},
               "text": text})
    };
    let mut version = 1;
    let mut change = |s: &mut Blaster, c: Value| {
        version += 1;
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": version}, "contentChanges": [c]}),
        );
    };
    for trial in 0..10 {
        // Back to the original text (every file's diagnostics change back), and settle.
        change(&mut s, everything(&original));
        let _ = s.call(
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
        );
        // A: empty the index (the index's and every decision file's diagnostics change);
        // B, at once: one orphan entry (the index's change again).
        change(&mut s, everything(""));
        let entry = format!("## agents/decisions/api.md\n\n/when trial {trial}\n");
        change(&mut s, everything(&entry));
        let _ = s.call(
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
        );
        std::thread::sleep(Duration::from_millis(300));
        let newest = lock(&s.shared.inbox).newest(&index).unwrap_or_default();
        let messages: Vec<&str> = newest.iter().map(|d| d.6.as_str()).collect();
        if !messages.iter().any(|m| m.contains(&format!("When trial {trial}"))) {
            // What the server holds now (a pull reads its current state).
            let pulled = s.call("textDocument/diagnostic", json!({"textDocument": {"uri": index}}));
            let publishes = lock(&s.shared.inbox).publishes;
            panic!(
                "trial {trial}: the index's newest pushed diagnostics are those of an older text: \
                 {messages:?}; {publishes} publishes; the server's current ones: {}",
                pulled["result"]["items"]
            );
        }
    }
    assert_eq!(s.shutdown(), Some(0));
}
