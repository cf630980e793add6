//! Stdio framing in front of the protocol server: malformed frames get a JSON-RPC error, never a dead server.
//!
//! tower-lsp-server stops reading after a frame whose body is not JSON. This
//! layer reads each `Content-Length` frame itself: a body that is not JSON is
//! answered with a parse error (-32700, id null) and one that is JSON but not
//! a JSON-RPC object with an invalid-request error (-32600); only good frames
//! reach the server. A header without a readable length is skipped up to the
//! next `Content-Length:` line. Output from the server and these errors go
//! through one writer, a whole frame at a time.

use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Largest body accepted (bigger frames are answered with an error and skipped).
pub const MAX_FRAME: usize = 256 * 1024 * 1024;

/// One complete frame: header and body.
fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(code: i64, message: &str, id: Value) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    frame(body.to_string().as_bytes())
}

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

/// Copies good frames from `input` to `to_server`, answering bad ones on `errors`.
pub async fn filter_input<R, W>(input: R, mut to_server: W, errors: mpsc::UnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut r = BufReader::with_capacity(1 << 16, input);
    loop {
        match read_frame(&mut r).await {
            Ok(None) => break,
            Err(e) => {
                tracing::error!("reading stdin failed: {e}");
                break;
            }
            Ok(Some(Err(why))) => {
                tracing::warn!("malformed frame: {why}");
                let _ = errors.send(error_frame(-32700, &format!("Parse error: {why}"), Value::Null));
            }
            Ok(Some(Ok(body))) => match serde_json::from_slice::<Value>(&body) {
                Err(e) => {
                    tracing::warn!("message is not JSON: {e}");
                    let _ = errors.send(error_frame(-32700, &format!("Parse error: {e}"), Value::Null));
                }
                Ok(v) if !(v.is_object() && v.get("method").is_some_and(Value::is_string) || v.get("id").is_some()) => {
                    let id = v.get("id").cloned().unwrap_or(Value::Null);
                    let _ = errors.send(error_frame(-32600, "Invalid Request: not a JSON-RPC message", id));
                }
                Ok(_) => {
                    if to_server.write_all(&frame(&body)).await.is_err() {
                        break;
                    }
                }
            },
        }
    }
    let _ = to_server.shutdown().await;
}

/// Writes the server's frames and the error frames to `out`, one whole frame at a time.
pub async fn merge_output<R, W>(from_server: R, mut errors: mpsc::UnboundedReceiver<Vec<u8>>, mut out: W)
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
