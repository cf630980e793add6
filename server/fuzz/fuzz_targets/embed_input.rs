//! Fuzz target: any `safetensors` bytes give an encoder or an error, any text gives token ids within the vocabulary, and an encoder that loads embeds any ids into a vector of its width (never a panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::search::embed::bert::Bert;
use memory_index_lsp::search::embed::wordpiece::{words, WordPiece};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = words(&text);
    let vocab = r###"{"model": {"type": "WordPiece", "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "a": 4, "##b": 5, "ab": 6, "!": 7}}}"###;
    let w = WordPiece::from_json(vocab).expect("the vocabulary loads");
    let ids = w.encode(&text, 1 + data.len() % 40);
    assert!(ids.iter().all(|&i| i < 8) && ids.first() == Some(&2) && ids.last() == Some(&3));
    let _ = WordPiece::from_json(&text);
    if let Ok(bert) = Bert::from_safetensors(std::sync::Arc::new(data.to_vec()), 1 + data.len() % 4) {
        let ids: Vec<u32> = data.iter().take(16).map(|b| u32::from(*b)).collect();
        // Weights of random bytes may hold NaN: the vector then does too (its cosine is never used).
        assert_eq!(bert.embed(&ids, 0).len(), bert.dims.hidden);
    }
});
