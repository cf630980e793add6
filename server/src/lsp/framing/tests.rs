//! The framing state machine on its own: each malformed frame the hostile-input report found, and random streams.

use super::*;
use proptest::prelude::*;

fn events(stream: &[u8], chunk: usize) -> Vec<Event> {
    let mut f = Framer::new();
    let mut out = Vec::new();
    for c in stream.chunks(chunk.max(1)) {
        f.push(c);
        while let Some(e) = f.next_event() {
            out.push(e);
        }
    }
    out
}

fn messages(stream: &[u8], chunk: usize) -> Vec<Vec<u8>> {
    events(stream, chunk)
        .into_iter()
        .filter_map(|e| match e {
            // As the message's bytes (serde_json writes keys sorted, as `request` does).
            Event::Message(m) => Some(m.to_string().into_bytes()),
            _ => None,
        })
        .collect()
}

fn replies(stream: &[u8]) -> Vec<Value> {
    events(stream, 7)
        .into_iter()
        .filter_map(|e| match e {
            Event::Reply(r) => {
                let at = r.windows(4).position(|w| w == b"\r\n\r\n").map_or(0, |p| p + 4);
                serde_json::from_slice(&r[at..]).ok()
            }
            _ => None,
        })
        .collect()
}

fn request(id: i64) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {}}).to_string().into_bytes()
}

fn raw(header_len: &str, body: &[u8]) -> Vec<u8> {
    let mut v = format!("Content-Length: {header_len}\r\n\r\n").into_bytes();
    v.extend_from_slice(body);
    v
}

#[test]
fn valid_frames_pass_in_order_whatever_the_chunking() {
    let mut s = Vec::new();
    for i in 0..5 {
        s.extend(frame(&request(i)));
    }
    for chunk in [1, 3, 64, 4096] {
        assert_eq!(messages(&s, chunk), (0..5).map(request).collect::<Vec<_>>());
    }
}

#[test]
fn json_that_is_not_json_rpc_is_refused_and_the_next_frame_passes() {
    let bad = [
        json!({"id": 1, "method": "x"}),
        json!({"jsonrpc": "1.0", "id": 2, "method": "x"}),
        json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}),
        json!({"jsonrpc": "2.0", "id": 1.5, "method": "x"}),
        json!({"jsonrpc": "2.0", "id": [1], "method": "x"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": 7}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "x", "params": 5}),
        json!([{"jsonrpc": "2.0", "id": 5, "method": "x"}]),
        json!("just a string"),
    ];
    for b in bad {
        let mut s = frame(b.to_string().as_bytes());
        s.extend(frame(&request(9)));
        assert_eq!(messages(&s, 5), vec![request(9)], "{b}");
        let r = replies(&s);
        assert_eq!(r.len(), 1, "{b}");
        assert_eq!(r[0]["error"]["code"], -32600, "{b}");
    }
    // The id is echoed when it is usable.
    let r = replies(&frame(json!({"jsonrpc": "1.0", "id": 2, "method": "x"}).to_string().as_bytes()));
    assert_eq!(r[0]["id"], 2);
}

#[test]
fn bad_lengths_and_header_bytes_never_poison_the_next_frame() {
    let body = request(1);
    let n = body.len();
    let cases: Vec<Vec<u8>> = vec![
        raw("-5", &body),
        raw("abc", &body),
        raw("99999999999999999999999999", &body),
        raw(&(n + 20).to_string(), &body),
        raw(&(n - 20).to_string(), &body),
        raw(&(n + 5).to_string(), &body),
        [b"Content-Length: 5\xff\xfe\r\n\r\n".to_vec(), body.clone()].concat(),
        [b"\xff\xfe garbage\r\n".to_vec(), frame(&body)].concat(),
        b"Content-Type: x\r\n\r\n{}".to_vec(),
        b"junk without a newline".to_vec(),
    ];
    for case in cases {
        let mut s = case.clone();
        s.extend(frame(&request(2)));
        s.extend(frame(&request(3)));
        let got = messages(&s, 11);
        assert!(
            got.ends_with(&[request(2), request(3)]) || got.ends_with(&[request(3)]) && case.ends_with(b"garbage"),
            "{:?}: {:?}",
            String::from_utf8_lossy(&case),
            got.iter().map(|m| String::from_utf8_lossy(m).into_owned()).collect::<Vec<_>>()
        );
    }
}

#[test]
fn over_large_frames_are_skipped_without_being_held() {
    let mut f = Framer::new();
    f.push(format!("Content-Length: {}\r\n\r\n", MAX_FRAME + 1).as_bytes());
    assert!(matches!(f.next_event(), Some(Event::Reply(_))));
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..(MAX_FRAME / chunk.len()) {
        f.push(&chunk);
        assert!(f.next_event().is_none());
        assert!(f.buf.len() <= chunk.len());
    }
    f.push(&[b'x'; 1]);
    f.push(&frame(&request(4)));
    assert_eq!(f.next_event(), Some(Event::Message(serde_json::from_slice(&request(4)).unwrap())));
}

#[test]
fn garbage_is_dropped_with_bounded_memory() {
    let mut f = Framer::new();
    let junk = vec![b'z'; 1 << 16];
    for _ in 0..64 {
        f.push(&junk);
        while f.next_event().is_some() {}
        assert!(f.buf.len() <= MAX_HEADER_LINE + junk.len());
    }
}

/// Bytes that cannot contain a `Content-Length:` header.
fn garbage() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..200).prop_map(|mut v| {
        while let Some(at) = find_marker(&v) {
            v[at] = b'x';
        }
        v
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random bytes interleaved with valid requests: every valid request
    /// comes out, intact and in order, whatever the chunking.
    #[test]
    fn every_valid_request_after_garbage_comes_out(
        parts in proptest::collection::vec((garbage(), 0i64..1_000_000), 1..12),
        chunk in 1usize..300,
    ) {
        let mut s = Vec::new();
        let mut want = Vec::new();
        for (g, id) in &parts {
            s.extend_from_slice(g);
            s.extend(frame(&request(*id)));
            want.push(request(*id));
        }
        let got = messages(&s, chunk);
        prop_assert_eq!(got, want);
    }

    /// Any bytes at all: no panic, and whatever comes out is a JSON object.
    #[test]
    fn any_bytes_give_only_json_objects(bytes in proptest::collection::vec(any::<u8>(), 0..2000), chunk in 1usize..64) {
        for m in messages(&bytes, chunk) {
            let v: Value = serde_json::from_slice(&m).expect("json");
            prop_assert!(v.is_object());
        }
    }
}

/// A large document arrives in many reads: its buffer doubles but never
/// past the body's length, and the body leaves with the buffer's allocation
/// (no copy, no 32 MB buffer kept after a 20 MB message). A header claiming
/// far more than arrives reserves nothing its bytes do not fill.
#[test]
fn a_body_never_grows_its_buffer_past_its_length() {
    let body = format!(r#"{{"jsonrpc":"2.0","method":"x","params":{{"t":"{}"}}}}"#, "a".repeat(1 << 20));
    let mut f = Framer::new();
    f.push(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
    assert!(f.next_event().is_none());
    for chunk in body.as_bytes().chunks(4096) {
        f.push(chunk);
        assert!(f.buf.capacity() <= body.len() + 4096, "{} for a body of {}", f.buf.capacity(), body.len());
    }
    match f.next_event() {
        Some(Event::Message(m)) => assert_eq!(m.to_string(), body),
        other => panic!("the message, not {other:?}"),
    }
    assert!(f.buf.capacity() < 4096, "the buffer went with the body: {}", f.buf.capacity());
    f.push(b"Content-Length: 200000000\r\n\r\n");
    assert!(f.next_event().is_none());
    f.push(b"{\"jsonrpc\":");
    assert!(f.buf.capacity() < 1 << 16, "{}", f.buf.capacity());
}
