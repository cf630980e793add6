//! Fuzz target: offset ↔ position conversion round-trips and clamps, in UTF-8 and UTF-16.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::text::{Encoding, LineCol, LineIndex};

fuzz_target!(|input: (String, u32, u32, u16)| {
    let (text, line, col, offset) = input;
    let idx = LineIndex::new(&text);
    for enc in [Encoding::Utf8, Encoding::Utf16] {
        let off = idx.offset(&text, LineCol { line: line % 64, col: col % 512 }, enc);
        assert!(text.is_char_boundary(off));
        let p = idx.position(&text, off, enc);
        assert_eq!(idx.offset(&text, p, enc), off);
        let _ = idx.position(&text, offset as usize, enc);
    }
});
