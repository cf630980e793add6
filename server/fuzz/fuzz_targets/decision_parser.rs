//! Fuzz target: the decision-file parser on arbitrary bytes; headings and sections stay in bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::model::FileText;
use memory_index_lsp::syntax::decision;

fuzz_target!(|data: &[u8]| {
    let text = FileText::from_bytes(data.to_vec()).text;
    let f = decision::parse(&text);
    for h in &f.headings {
        assert!(h.section.start <= h.section.end && h.section.end <= text.len());
        assert!(h.title_range.end <= text.len());
    }
});
