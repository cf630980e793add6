//! The stdio framing state machine: bytes in, whole valid JSON-RPC messages or protocol errors out; no IO.
//!
//! [`Framer`] is fed whatever arrives on stdin and yields [`Event`]s. It is
//! what `transport.rs` drives, and what the property test and the `framing`
//! fuzz target drive directly. Its promises:
//! - Only a message tower-lsp-server accepts is forwarded: a JSON object with
//!   `"jsonrpc": "2.0"`, a string `method` when it has one, an `id` that is a
//!   string or an integer when it has one, `params` an object, an array or
//!   null, and a
//!   response (no method) with an id and a result or an error. Anything else
//!   is answered with -32600 (with its id when that id is usable) and dropped;
//!   a body that is not JSON gets -32700. Batches (arrays) are not part of
//!   LSP: -32600.
//! - A frame that cannot be read never poisons the next one. A header block
//!   without a readable `Content-Length` (a negative, non-numeric or
//!   overflowing value, bad bytes, an over-long line) is an error and the
//!   reader skips to the next `Content-Length:`. A length that was too short
//!   leaves the rest of the body to be skipped the same way; one that was too
//!   long swallows the start of the next frame, which is found inside the
//!   unreadable body and read again from its header.
//! - Memory is bounded: a header line is at most [`MAX_HEADER_LINE`] bytes,
//!   a body at most [`MAX_FRAME`] (bigger ones are skipped without being
//!   held), and the pending input is at most one body plus one header.

use serde_json::{json, Value};

/// Largest body accepted (bigger frames are answered with an error and skipped).
pub const MAX_FRAME: usize = 256 * 1024 * 1024;
/// Longest header line read before giving up on that header.
pub const MAX_HEADER_LINE: usize = 8 * 1024;

/// What the framer found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A valid JSON-RPC message, parsed, for the server (parsed once: the
    /// bytes of a 20 MB `didOpen` are gone as soon as it is).
    Message(Value),
    /// A whole error frame to send the client (header and body).
    Reply(Vec<u8>),
    /// Bytes dropped without a reply (no id could be known), and why.
    Skipped(String),
}

/// Where the framer is in the stream.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Reading header lines; `length` once a good `Content-Length` was seen.
    Header { length: Option<usize>, bad: Option<String> },
    /// Reading a body of this many bytes.
    Body(usize),
    /// Skipping this many bytes of an over-large body.
    Discard(usize),
    /// Skipping to the next `Content-Length:` after an unreadable frame.
    Resync,
}

/// The framing state machine.
#[derive(Debug)]
pub struct Framer {
    buf: Vec<u8>,
    state: State,
}

impl Default for Framer {
    fn default() -> Self {
        Self { buf: Vec::new(), state: State::Header { length: None, bad: None } }
    }
}

const MARKER: &[u8] = b"content-length:";

impl Framer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes held, waiting for the rest of a header or body.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }

    /// Adds bytes read from the client.
    pub fn push(&mut self, bytes: &[u8]) {
        if let State::Discard(left) = &mut self.state {
            let n = (*left).min(bytes.len());
            *left -= n;
            let rest = &bytes[n..];
            if *left == 0 {
                self.state = State::Header { length: None, bad: None };
            }
            self.buf.extend_from_slice(rest);
            return;
        }
        // A body's buffer grows by doubling, but never past the body's
        // length (known once its header is read): a 20 MB document does not
        // leave a 32 MB buffer, and a header claiming 256 MB reserves
        // nothing its bytes do not fill.
        if let State::Body(n) = self.state {
            let left = n.saturating_sub(self.buf.len());
            self.buf.reserve_exact(bytes.len().max(left.min(self.buf.len())));
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next event, or None until more bytes arrive.
    pub fn next_event(&mut self) -> Option<Event> {
        loop {
            match std::mem::replace(&mut self.state, State::Resync) {
                State::Resync => match find_marker(&self.buf) {
                    Some(at) => {
                        self.buf.drain(..at);
                        self.state = State::Header { length: None, bad: None };
                    }
                    None => {
                        // Keep only what could be the start of a marker.
                        let keep = self.buf.len().min(MARKER.len() - 1);
                        self.buf.drain(..self.buf.len() - keep);
                        self.state = State::Resync;
                        return None;
                    }
                },
                State::Discard(left) => {
                    let n = left.min(self.buf.len());
                    self.buf.drain(..n);
                    if n < left {
                        self.state = State::Discard(left - n);
                        return None;
                    }
                    self.state = State::Header { length: None, bad: None };
                }
                State::Header { mut length, mut bad } => {
                    let Some(end) = self.buf.iter().position(|&b| b == b'\n') else {
                        if self.buf.len() > MAX_HEADER_LINE {
                            self.state = State::Resync;
                            self.buf.drain(..1);
                            return Some(Event::Skipped(format!("a header line over {MAX_HEADER_LINE} bytes")));
                        }
                        self.state = State::Header { length, bad };
                        return None;
                    };
                    let line: Vec<u8> = self.buf.drain(..=end).collect();
                    let line = trim_line(&line);
                    // Garbage before a header on the same line: the header starts at its name.
                    let line = match find_marker(line) {
                        Some(at) if at > 0 => &line[at..],
                        _ => line,
                    };
                    if line.is_empty() {
                        if length.is_none() && bad.is_none() {
                            self.state = State::Header { length, bad }; // blank lines between frames
                            continue;
                        }
                        let (state, event) = end_of_headers(length, bad);
                        self.state = state;
                        if event.is_some() {
                            return event;
                        }
                        continue;
                    }
                    if let Some(rest) = strip_marker(line) {
                        match parse_length(rest) {
                            Ok(n) => length = Some(n),
                            Err(why) => bad = Some(why),
                        }
                    } else if !line.contains(&b':') {
                        // Not a header at all: garbage between frames.
                        self.state = State::Resync;
                        return Some(Event::Skipped("bytes that are not a header".into()));
                    }
                    self.state = State::Header { length, bad };
                }
                State::Body(n) => return self.body(n),
            }
        }
    }

    /// The body of `n` bytes, once it is whole (None until then).
    fn body(&mut self, n: usize) -> Option<Event> {
        if self.buf.len() < n {
            self.state = State::Body(n);
            return None;
        }
        // The body keeps the buffer's allocation; what follows it moves.
        let rest = self.buf.split_off(n);
        let body = std::mem::replace(&mut self.buf, rest);
        self.state = State::Header { length: None, bad: None };
        match serde_json::from_slice::<Value>(&body) {
            Ok(v) => Some(judge(v)),
            Err(e) => {
                // A length that was too long swallowed the next
                // frame's header: read again from there.
                // Else skip to the next header, keeping the body's
                // last bytes: they may start its `Content-Length:`.
                let at = find_marker(&body);
                let from = at.unwrap_or(body.len().saturating_sub(MARKER.len() - 1));
                let mut again = body[from..].to_vec();
                again.extend_from_slice(&self.buf);
                self.buf = again;
                if at.is_none() {
                    self.state = State::Resync;
                }
                Some(Event::Reply(error_frame(-32700, &format!("Parse error: {e}"), Value::Null)))
            }
        }
    }
}

/// The blank line after a frame's headers: its body next (`length`), or an
/// error reply for a length over the limit (its body discarded) or a header
/// that was missing or wrong (`bad`), then a resync.
fn end_of_headers(length: Option<usize>, bad: Option<String>) -> (State, Option<Event>) {
    match (length, bad) {
        (Some(n), None) if n > MAX_FRAME => (
            State::Discard(n),
            Some(Event::Reply(error_frame(
                -32700,
                &format!("Parse error: a message of {n} bytes is over the {MAX_FRAME}-byte limit"),
                Value::Null,
            ))),
        ),
        (Some(n), None) => (State::Body(n), None),
        (_, why) => {
            let why = why.unwrap_or_else(|| "missing Content-Length header".into());
            (State::Resync, Some(Event::Reply(error_frame(-32700, &format!("Parse error: {why}"), Value::Null))))
        }
    }
}

/// A parsed body: forwarded when it is a message the server accepts, else an error reply.
fn judge(v: Value) -> Event {
    let invalid = |why: &str, id: Value| Event::Reply(error_frame(-32600, &format!("Invalid Request: {why}"), id));
    let Some(obj) = v.as_object() else {
        return invalid(if v.is_array() { "batches are not supported" } else { "not a JSON object" }, Value::Null);
    };
    let id = obj.get("id");
    let usable_id = id.filter(|i| i.is_string() || i.is_i64() || i.is_u64()).cloned();
    let reply_id = usable_id.clone().unwrap_or(Value::Null);
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("`jsonrpc` must be \"2.0\"", reply_id);
    }
    if id.is_some_and(|i| usable_id.is_none() && !i.is_null()) {
        return invalid("`id` must be a string or an integer", Value::Null);
    }
    match obj.get("method") {
        Some(Value::String(_)) => {
            // `null` params are common (and accepted by the server) though JSON-RPC omits them instead.
            if obj.get("params").is_some_and(|p| !(p.is_object() || p.is_array() || p.is_null())) {
                return invalid("`params` must be an object or an array", reply_id);
            }
            Event::Message(v)
        }
        Some(_) => invalid("`method` must be a string", reply_id),
        None => {
            // A response to one of the server's requests.
            let answers = obj.contains_key("result") != obj.contains_key("error");
            if usable_id.is_some() && answers {
                Event::Message(v)
            } else {
                Event::Skipped("a response without an id or without exactly one of result and error".into())
            }
        }
    }
}

/// One complete frame: header and body.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

/// A whole JSON-RPC error frame.
pub fn error_frame(code: i64, message: &str, id: Value) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    frame(body.to_string().as_bytes())
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let Some((&last, rest)) = l.split_last() {
        if last == b'\n' || last == b'\r' {
            l = rest;
        } else {
            break;
        }
    }
    l
}

/// The value after a `Content-Length:` name (any case), if the line is that header.
fn strip_marker(line: &[u8]) -> Option<&[u8]> {
    let start = line.iter().position(|b| !b.is_ascii_whitespace())?;
    let l = &line[start..];
    (l.len() >= MARKER.len() && l[..MARKER.len()].eq_ignore_ascii_case(MARKER)).then(|| &l[MARKER.len()..])
}

/// A decimal length of ASCII digits (spaces around it allowed), or why not.
fn parse_length(v: &[u8]) -> Result<usize, String> {
    let shown = String::from_utf8_lossy(v).chars().take(40).collect::<String>();
    let t = v.trim_ascii();
    if t.is_empty() || !t.iter().all(u8::is_ascii_digit) {
        return Err(format!("Content-Length `{}` is not a number of bytes", shown.trim()));
    }
    std::str::from_utf8(t)
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .ok_or_else(|| format!("Content-Length `{}` is too large", shown.trim()))
}

/// Where the next `Content-Length:` (any case) starts in `bytes`.
fn find_marker(bytes: &[u8]) -> Option<usize> {
    bytes.windows(MARKER.len()).position(|w| w.eq_ignore_ascii_case(MARKER))
}

#[cfg(test)]
mod tests;
