//! Tests of the MCP input filter.

use super::*;
use tokio::io::AsyncReadExt;

#[tokio::test]
async fn garbage_gets_a_parse_error_and_json_goes_on() {
    let input: &[u8] = b"{not json\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    let (out_w, mut out_r) = tokio::io::duplex(1 << 16);
    let mut pipes = start(input, out_w);
    let mut forwarded = String::new();
    pipes.read.read_to_string(&mut forwarded).await.unwrap();
    assert_eq!(forwarded, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
    drop(pipes.write);
    pipes.writer.await.unwrap();
    let mut replies = String::new();
    out_r.read_to_string(&mut replies).await.unwrap();
    assert!(replies.contains("\"code\":-32700") && replies.contains("\"id\":null"), "{replies}");
    assert_eq!(replies.lines().count(), 1);
}
