//! Fuzz target: any payload that passes a snapshot's frame decodes to nothing or to a BM25 index whose every number is in bounds (scoring it never panics).
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::search::snapshot::{decode, seal};

fuzz_target!(|data: &[u8]| {
    let entries = data.first().map_or(0, |b| *b as usize);
    if let Some(bm) = decode(&seal(data, 1), 1, entries) {
        let terms: Vec<u32> = (0..bm.parts().0.len() as u32).collect();
        for (doc, score) in bm.score_terms(&terms) {
            assert!(bm.has(doc, &terms).len() <= terms.len());
            assert!((bm.entry(doc).0 as usize) < entries && score.is_finite());
        }
    }
});
