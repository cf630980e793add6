//! The semantic tier's model in Rust against the reference (Hugging Face `tokenizers` and a NumPy forward pass of the same weights): the same token ids, the same vectors.
//!
//! Needs all-MiniLM-L6-v2's files in `MEMORY_INDEX_LSP_MODEL` or
//! `target/models/all-MiniLM-L6-v2` (`tests/tools/fetch-model.sh` puts them
//! there; `.ci/run` runs it); skipped with a message otherwise.

use memory_index_lsp::search::embed::{cosine, Embedder};

use crate::support::repo;

fn model() -> Option<Embedder> {
    let dir = std::env::var_os("MEMORY_INDEX_LSP_MODEL")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo().join("target/models/all-MiniLM-L6-v2"));
    let read = |n: &str| std::fs::read(dir.join(n)).ok();
    let (Some(t), Some(c), Some(w)) = (read("tokenizer.json"), read("config.json"), read("model.safetensors")) else {
        if std::env::var("MI_REQUIRE_MODEL").as_deref() == Ok("1") {
            panic!("MI_REQUIRE_MODEL=1 but {} has no model (run tests/tools/fetch-model.sh)", dir.display());
        }
        eprintln!("skipped: no model in {} (tests/tools/fetch-model.sh puts it there)", dir.display());
        return None;
    };
    Some(
        Embedder::new(&String::from_utf8(t).unwrap(), &String::from_utf8(c).unwrap(), std::sync::Arc::new(w))
            .expect("the model loads"),
    )
}

#[test]
fn the_tokenizer_gives_the_reference_ids() {
    let Some(m) = model() else { return };
    // Ids from Hugging Face `tokenizers` with the same tokenizer.json.
    assert_eq!(
        m.tokenizer.encode("How do I deploy to production?", 256),
        [101, 2129, 2079, 1045, 21296, 2000, 2537, 1029, 102]
    );
    assert_eq!(
        m.tokenizer.encode("Café naïve résumé — “quotes” 東京 x_y-z", 256),
        [101, 7668, 15743, 13746, 1517, 1523, 16614, 1524, 1879, 1755, 1060, 1035, 1061, 1011, 1062, 102]
    );
    assert_eq!(m.tokenizer.encode("the cat sat on the mat", 256), [101, 1996, 4937, 2938, 2006, 1996, 13523, 102]);
}

#[test]
fn vectors_agree_with_the_reference_and_meaning_decides_the_cosine() {
    let Some(m) = model() else { return };
    let a = m.embed("how do I deploy to production");
    let (b, c) = (m.embed("shipping a release to the live servers"), m.embed("the cat sat on the mat"));
    // The reference's values (NumPy, tanh GELU; this crate uses the exact one the model was trained with).
    let reference = [0.062_524, -0.042_615, -0.035_896, -0.054_065, 0.004_150];
    for (x, r) in a.iter().zip(reference) {
        assert!((x - r).abs() < 1e-3, "{:?} against {reference:?}", &a[..5]);
    }
    assert!((cosine(&a, &b) - 0.474).abs() < 0.005, "{}", cosine(&a, &b));
    assert!(cosine(&a, &c).abs() < 0.02, "{}", cosine(&a, &c));
    assert!((cosine(&a, &a) - 1.0).abs() < 1e-5);
}
