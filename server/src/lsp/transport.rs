//! Stdio in front of the protocol server: input through the framing state machine, output one whole frame at a time.
//!
//! tower-lsp-server stops reading (or answers every later message with a
//! parse error) after one malformed frame. So stdin goes through
//! [`Framer`] (`framing.rs`): only valid JSON-RPC messages reach the server,
//! malformed ones get their error reply on a bounded queue, and the stream
//! resynchronises on the next header. Output from the server and these
//! errors go through one writer, a whole frame at a time.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::framing::{frame, Event, Framer, MAX_FRAME};

/// Reads one frame's body; Ok(None) at the end of input. Err(msg) for a frame
/// that was consumed but is unusable (the message says why).
async fn read_frame<R: AsyncBufRead + Unpin>(r: &mut R) -> std::io::Result<Option<Result<Vec<u8>, String>>> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = String::new();
        let n = r.read_line(&mut line).await?;
        if n == 0 {
            return Ok(None);
        }
        let t = line.trim_end_matches(['\r', '\n']);
        if t.is_empty() {
            if saw_header {
                break;
            }
            continue;
        }
        saw_header = true;
        if let Some((k, v)) = t.split_once(':') {
            if k.trim().eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().ok();
            }
        }
    }
    let Some(len) = length else { return Ok(Some(Err("missing or unreadable Content-Length header".into()))) };
    if len > MAX_FRAME {
        // Skip the body in chunks without holding it.
        let mut left = len;
        let mut buf = vec![0u8; 64 * 1024];
        while left > 0 {
            let want = left.min(buf.len());
            let n = r.read(&mut buf[..want]).await?;
            if n == 0 {
                return Ok(None);
            }
            left -= n;
        }
        return Ok(Some(Err(format!("message of {len} bytes is over the {MAX_FRAME}-byte limit"))));
    }
    let mut body = vec![0u8; len];
    match r.read_exact(&mut body).await {
        Ok(_) => Ok(Some(Ok(body))),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// How the client ended the session, as the framing layer saw it.
#[derive(Debug, Default)]
pub struct Ending {
    /// A `shutdown` request went to the server.
    pub shutdown: std::sync::atomic::AtomicBool,
    /// An `exit` notification went to the server.
    pub exit: std::sync::atomic::AtomicBool,
}

impl Ending {
    /// The process exit code the protocol asks for: 0 after `shutdown` then
    /// `exit`, 1 for `exit` without `shutdown`; 0 when input simply ended.
    pub fn code(&self) -> i32 {
        use std::sync::atomic::Ordering::SeqCst;
        i32::from(self.exit.load(SeqCst) && !self.shutdown.load(SeqCst))
    }
}

/// Most error replies queued for the client; past it (a client that sends
/// bad frames and never reads), further ones are dropped and logged.
pub const MAX_QUEUED_ERRORS: usize = 256;

/// Copies good frames from `input` to `to_server`, answering bad ones on
/// `errors` (see `framing.rs`); notes `shutdown` and `exit` in `ending`.
pub async fn filter_input<R, W>(input: R, mut to_server: W, errors: mpsc::Sender<Vec<u8>>, ending: &Ending)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    use std::sync::atomic::Ordering::SeqCst;
    let mut input = input;
    let mut framer = Framer::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut dropped = 0usize;
    loop {
        let n = match input.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                tracing::error!("reading stdin failed: {e}");
                break;
            }
        };
        framer.push(&buf[..n]);
        while let Some(event) = framer.next_event() {
            match event {
                Event::Message(body) => {
                    match method_of(&body).as_deref() {
                        Some("shutdown") => ending.shutdown.store(true, SeqCst),
                        Some("exit") => ending.exit.store(true, SeqCst),
                        _ => {}
                    }
                    if to_server.write_all(&frame(&body)).await.is_err() {
                        return;
                    }
                }
                Event::Reply(bytes) => {
                    tracing::warn!("malformed message from the client: {}", String::from_utf8_lossy(&bytes));
                    if errors.try_send(bytes).is_err() {
                        dropped += 1;
                        if dropped.is_power_of_two() {
                            tracing::warn!("{dropped} error replies dropped: the client is not reading them");
                        }
                    }
                }
                Event::Skipped(why) => tracing::warn!("skipped input from the client: {why}"),
            }
        }
    }
    let _ = to_server.shutdown().await;
}

/// The `method` of a message body, when it is `shutdown` or `exit` (the
/// only ones the exit code depends on). Other bodies, however large (a
/// 20 MB `didOpen`), are not parsed a second time: only one that holds one of
/// the two names is.
fn method_of(body: &[u8]) -> Option<String> {
    if memchr::memmem::find(body, b"\"shutdown\"").is_none() && memchr::memmem::find(body, b"\"exit\"").is_none() {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Method {
        method: Option<String>,
    }
    serde_json::from_slice::<Method>(body).ok()?.method
}

/// Writes the server's frames and the error frames to `out`, one whole frame at a time.
pub async fn merge_output<R, W>(from_server: R, mut errors: mpsc::Receiver<Vec<u8>>, mut out: W)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut r = BufReader::new(from_server);
    let (mut server_open, mut errors_open) = (true, true);
    loop {
        tokio::select! {
            f = read_frame(&mut r), if server_open => match f {
                Ok(Some(Ok(body))) => {
                    if out.write_all(&frame(&body)).await.is_err() { break; }
                    let _ = out.flush().await;
                }
                Ok(Some(Err(_))) => {}
                _ => server_open = false,
            },
            e = errors.recv(), if errors_open => match e {
                Some(bytes) => {
                    if out.write_all(&bytes).await.is_err() { break; }
                    let _ = out.flush().await;
                }
                None => errors_open = false,
            },
            else => break,
        }
    }
}
