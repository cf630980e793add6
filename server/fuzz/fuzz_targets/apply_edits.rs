//! Fuzz target: applying arbitrary edits never panics and keeps the text valid UTF-8.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::edit::{apply, TextEdit};
use memory_index_lsp::text::TextRange;

fuzz_target!(|input: (String, Vec<(u16, u16, String)>)| {
    let (text, raw) = input;
    let edits: Vec<TextEdit> =
        raw.into_iter().map(|(a, b, s)| TextEdit::replace(TextRange::new(a as usize, b as usize), s)).collect();
    let (out, skipped) = apply(&text, &edits);
    assert!(skipped.len() <= edits.len());
    assert!(out.len() <= text.len() + edits.iter().map(|e| e.insert.len()).sum::<usize>());
});
