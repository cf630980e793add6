//! Fuzz target: the index parser on arbitrary bytes (lossy UTF-8), ranges must stay in bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::model::FileText;
use memory_index_lsp::syntax::index;

fuzz_target!(|data: &[u8]| {
    let text = FileText::from_bytes(data.to_vec()).text;
    let f = index::parse(&text);
    for l in f.lines() {
        assert!(l.range.end <= text.len() && l.full.end <= text.len());
        assert!(text.is_char_boundary(l.range.start) && text.is_char_boundary(l.range.end));
    }
});
