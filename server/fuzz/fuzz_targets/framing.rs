//! The stdio framing state machine on arbitrary bytes, fed in arbitrary chunks: never panics, emits only JSON
//! objects, and holds at most one frame's worth of input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::lsp::framing::{Event, Framer, MAX_HEADER_LINE};

fuzz_target!(|data: &[u8]| {
    let Some((&split, bytes)) = data.split_first() else { return };
    let chunk = usize::from(split).max(1);
    let mut f = Framer::new();
    for c in bytes.chunks(chunk) {
        f.push(c);
        while let Some(e) = f.next_event() {
            if let Event::Message(m) = e {
                assert!(m.is_object(), "only JSON objects are forwarded");
            }
        }
        // Pending input never exceeds a header line plus what one chunk added
        // (bodies are bounded by their length, and these inputs are short).
        assert!(f.pending() <= MAX_HEADER_LINE + bytes.len());
    }
});
