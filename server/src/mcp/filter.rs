//! The MCP server's input filter: a line that is not JSON gets a JSON-RPC parse error (-32700, id null) as JSON-RPC asks, instead of silence; rmcp sees only JSON lines.
//!
//! Between stdin and rmcp: each line is read whole up to [`MAX_LINE`] (a
//! longer one is skipped without being held, and answered -32600); a line
//! that parses as JSON goes on to rmcp unchanged, anything else is answered
//! here. rmcp's replies and these errors leave through one writer, a whole
//! line at a time, so they never interleave inside a line.

use serde::de::IgnoredAny;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Longest line read (bytes), rmcp's own limit.
pub const MAX_LINE: usize = 16 << 20;

/// rmcp's ends of the pipes, and the writer to wait for before exiting.
pub struct Pipes {
    pub read: DuplexStream,
    pub write: DuplexStream,
    pub writer: JoinHandle<()>,
}

/// Starts the filter between `input`/`output` (stdin/stdout) and rmcp.
pub fn start<R, W>(input: R, output: W) -> Pipes
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (mut to_server, server_reads) = tokio::io::duplex(1 << 16);
    let (server_writes, from_server) = tokio::io::duplex(1 << 16);
    let (tx, mut rx) = mpsc::channel::<Vec<u8>>(64);
    let writer = tokio::spawn(async move {
        let mut out = output;
        while let Some(line) = rx.recv().await {
            if out.write_all(&line).await.is_err() {
                break;
            }
            if rx.is_empty() && out.flush().await.is_err() {
                break;
            }
        }
        let _ = out.flush().await;
    });
    let replies = tx.clone();
    tokio::spawn(async move {
        let mut r = BufReader::new(from_server);
        loop {
            let mut line = Vec::new();
            match r.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if replies.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    tokio::spawn(async move {
        let mut r = BufReader::with_capacity(64 * 1024, input);
        let mut line = Vec::new();
        loop {
            line.clear();
            let too_long = match read_line(&mut r, &mut line).await {
                Ok(None) | Err(_) => break,
                Ok(Some(too_long)) => too_long,
            };
            let text = line.trim_ascii();
            if too_long {
                let _ = tx.send(error(-32600, &format!("Invalid Request: a message over {MAX_LINE} bytes"))).await;
            } else if text.is_empty() {
            } else if serde_json::from_slice::<IgnoredAny>(text).is_err() {
                let _ = tx.send(error(-32700, "Parse error: the line is not JSON")).await;
            } else {
                line.push(b'\n');
                if to_server.write_all(&line).await.is_err() {
                    break;
                }
            }
        }
        let _ = to_server.shutdown().await;
    });
    Pipes { read: server_reads, write: server_writes, writer }
}

/// Reads one line into `line` (without its line feed); Some(true) when it
/// was longer than [`MAX_LINE`] (skipped to its end, `line` left empty),
/// None at the end of input.
async fn read_line<R: AsyncRead + Unpin>(r: &mut BufReader<R>, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = r.fill_buf().await?;
        if buf.is_empty() {
            return Ok(any.then_some(too_long));
        }
        any = true;
        let (chunk, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long && line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            return Ok(Some(too_long));
        }
    }
}

fn error(code: i32, message: &str) -> Vec<u8> {
    let mut v = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}})
        .to_string()
        .into_bytes();
    v.push(b'\n');
    v
}

#[cfg(test)]
mod tests;
