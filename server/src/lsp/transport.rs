//! Stdio around the protocol service: input through the framing state machine, each message parsed once, output one whole frame at a time.
//!
//! tower-lsp-server's own stdio loop stops reading (or answers every later
//! message with a parse error) after one malformed frame, and reads each
//! message into a buffer of its own before parsing it a second time. So this
//! module drives the `LspService` itself, as that loop does (requests and
//! notifications start in the order they arrived, at most
//! [`MAX_CONCURRENCY`] run at once): stdin goes through [`Framer`]
//! (`framing.rs`), which passes on only valid JSON-RPC, already parsed; the
//! parsed value becomes the service's request without another copy, so a
//! 20 MB `didOpen` is held as its bytes and its parsed text for a moment,
//! then as its text alone. Malformed input gets its error reply on a bounded
//! queue, and the stream resynchronises on the next header. Replies, the
//! server's own requests and notifications, and those errors go out through
//! one writer, a whole frame at a time.

use std::sync::atomic::Ordering::SeqCst;

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, LspService};
use tower_service::Service;

use super::backend::Backend;
use super::framing::{error_frame, Event, Framer};

/// Requests and notifications handled at once (as tower-lsp-server's loop):
/// a long request does not hold up the edits behind it.
const MAX_CONCURRENCY: usize = 4;
/// Handlers waiting to start; past it, reading stdin waits.
const QUEUED_TASKS: usize = 100;
/// Frames waiting for stdout; past it, the server's output waits.
const QUEUED_FRAMES: usize = 64;
/// Most error replies queued for the client; past it (a client that sends
/// bad frames and never reads), further ones are dropped and logged.
pub const MAX_QUEUED_ERRORS: usize = 256;

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
        i32::from(self.exit.load(SeqCst) && !self.shutdown.load(SeqCst))
    }
}

/// The output queues: the server's message bodies (never dropped) and whole
/// error frames for malformed input (bounded, dropped past
/// [`MAX_QUEUED_ERRORS`]).
pub struct Outgoing {
    bodies: mpsc::Sender<Vec<u8>>,
    errors: mpsc::Sender<Vec<u8>>,
    dropped: usize,
}

/// The receiving ends of [`Outgoing`], for [`write_output`].
pub struct Output {
    bodies: mpsc::Receiver<Vec<u8>>,
    errors: mpsc::Receiver<Vec<u8>>,
}

/// The two ends of the output queues.
pub fn output() -> (Outgoing, Output) {
    let (bodies, bodies_rx) = mpsc::channel(QUEUED_FRAMES);
    let (errors, errors_rx) = mpsc::channel(MAX_QUEUED_ERRORS);
    (Outgoing { bodies, errors, dropped: 0 }, Output { bodies: bodies_rx, errors: errors_rx })
}

impl Outgoing {
    /// A whole error frame for the client, unless too many wait already.
    fn error(&mut self, bytes: Vec<u8>) {
        tracing::warn!("malformed message from the client: {}", String::from_utf8_lossy(&bytes));
        if self.errors.try_send(bytes).is_err() {
            self.dropped += 1;
            if self.dropped.is_power_of_two() {
                tracing::warn!("{} error replies dropped: the client is not reading them", self.dropped);
            }
        }
    }
}

/// One message for the client, encoded.
fn body_of(message: &impl serde::Serialize) -> Option<Vec<u8>> {
    match serde_json::to_vec(message) {
        Ok(body) => Some(body),
        Err(e) => {
            tracing::error!("cannot encode a message for the client: {e}");
            None
        }
    }
}

/// Serves `service` on `input` until `exit` or the end of input, sending
/// everything for the client to `out`. `eof` fires when input ends.
pub async fn serve<R: AsyncRead + Unpin>(
    service: LspService<Backend>,
    socket: ClientSocket,
    input: R,
    out: Outgoing,
    ending: &Ending,
    eof: tokio::sync::oneshot::Sender<()>,
) {
    let (client_requests, mut client_responses) = socket.split();
    let (client_requests, client_abort) = futures::stream::abortable(client_requests);
    let (tasks, task_queue) = futures::channel::mpsc::channel(QUEUED_TASKS);
    let bodies = out.bodies.clone();

    // Handlers, started in arrival order, at most MAX_CONCURRENCY at once;
    // their replies and the server's own requests and notifications leave
    // through one stream that takes the server's messages first. A
    // notification the server queued before a handler finished (a push of
    // diagnostics that `workspace/diagnostic` waited for) is then always
    // written before that handler's reply.
    let replies = task_queue
        .buffer_unordered(MAX_CONCURRENCY)
        .filter_map(|reply: Option<Response>| async move { reply.as_ref().and_then(body_of) });
    let requests = client_requests.filter_map(|req: Request| async move { body_of(&req) });
    let server_first = |_: &mut ()| futures::stream::PollNext::Left;
    let to_client = futures::stream::select_with_strategy(requests, replies, server_first).for_each(|body| {
        let bodies = bodies.clone();
        async move {
            let _ = bodies.send(body).await;
        }
    });
    let read_input = async move {
        let (mut service, mut tasks, mut out, mut input) = (service, tasks, out, input);
        let mut framer = Framer::new();
        let mut buf = vec![0u8; 1 << 16];
        'read: loop {
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
                    Event::Message(v) if v.get("method").is_some() => {
                        let Some(req) = request(v, &mut out) else { continue };
                        let exit = req.method() == "exit";
                        match req.method() {
                            "shutdown" => ending.shutdown.store(true, SeqCst),
                            "exit" => ending.exit.store(true, SeqCst),
                            _ => {}
                        }
                        if futures::future::poll_fn(|cx| service.poll_ready(cx)).await.is_err() {
                            break 'read;
                        }
                        let task = service.call(req);
                        let task = async move { task.await.unwrap_or(None) };
                        if tasks.send(task).await.is_err() {
                            break 'read;
                        }
                        // The protocol: exit at once (some clients never close stdin).
                        if exit {
                            break 'read;
                        }
                    }
                    Event::Message(v) => match serde_json::from_value::<Response>(v) {
                        Ok(res) => {
                            if client_responses.send(res).await.is_err() {
                                break 'read;
                            }
                        }
                        Err(e) => tracing::warn!("skipped a response the server cannot read: {e}"),
                    },
                    Event::Reply(bytes) => out.error(bytes),
                    Event::Skipped(why) => tracing::warn!("skipped input from the client: {why}"),
                }
            }
        }
        let _ = eof.send(());
        tasks.close_channel();
        client_abort.abort();
    };
    futures::join!(to_client, read_input);
}

/// The service's request for a message the framer passed on, or the error
/// reply when it is not one (an id past what the protocol library reads).
fn request(v: Value, out: &mut Outgoing) -> Option<Request> {
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    match serde_json::from_value::<Request>(v) {
        Ok(req) => Some(req),
        Err(e) => {
            let id = if id.is_string() || id.is_i64() { id } else { Value::Null };
            out.error(error_frame(-32600, &format!("Invalid Request: {e}"), id));
            None
        }
    }
}

/// Writes the server's messages and the error frames to `out`, one whole
/// frame at a time, until both queues are closed and empty. Output is
/// buffered and flushed whenever nothing more is queued: a burst (the
/// diagnostics of every file after a load) leaves in a few writes, and no
/// message waits behind an empty queue.
pub async fn write_output<W: AsyncWrite + Unpin>(queues: Output, out: W) {
    let Output { mut bodies, mut errors } = queues;
    let mut out = tokio::io::BufWriter::with_capacity(64 * 1024, out);
    let (mut bodies_open, mut errors_open) = (true, true);
    loop {
        let written = tokio::select! {
            b = bodies.recv(), if bodies_open => match b {
                Some(body) => {
                    let header = format!("Content-Length: {}\r\n\r\n", body.len());
                    match out.write_all(header.as_bytes()).await {
                        Ok(()) => out.write_all(&body).await,
                        e => e,
                    }
                }
                None => { bodies_open = false; continue }
            },
            e = errors.recv(), if errors_open => match e {
                Some(frame) => out.write_all(&frame).await,
                None => { errors_open = false; continue }
            },
            else => break,
        };
        if written.is_err() {
            break;
        }
        if bodies.is_empty() && errors.is_empty() && out.flush().await.is_err() {
            break;
        }
    }
    let _ = out.flush().await;
}
