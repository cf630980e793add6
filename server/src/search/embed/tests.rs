//! The semantic model in pieces: the tokenizer on a small vocabulary, a small random encoder (shapes, unit vectors, bad bytes, weights read in place or copied).

use super::bert::Bert;
use super::wordpiece::{words, WordPiece};
use super::*;

fn w(bytes: &[u8]) -> bert::Weights {
    std::sync::Arc::new(bytes.to_vec())
}

fn vocab(words: &[&str]) -> WordPiece {
    let vocab: serde_json::Map<String, serde_json::Value> =
        words.iter().enumerate().map(|(i, w)| (w.to_string(), serde_json::json!(i))).collect();
    let json = serde_json::json!({"model": {"type": "WordPiece", "vocab": vocab}});
    WordPiece::from_json(&json.to_string()).unwrap()
}

#[test]
fn words_are_lowercased_stripped_of_accents_and_split_at_punctuation() {
    assert_eq!(words("Café naïve, x_y-z!"), ["cafe", "naive", ",", "x", "_", "y", "-", "z", "!"]);
    assert_eq!(words("a\tb\u{0}c\u{7}\r\nd"), ["a", "bc", "d"]);
    assert_eq!(words("東京 “q”"), ["東", "京", "“", "q", "”"]);
    // Invisible format characters go, as in the reference: a soft hyphen, a zero-width space, a BOM.
    assert_eq!(words("co\u{ad}operate\u{200b} \u{feff}now"), ["cooperate", "now"]);
    assert!(words("").is_empty());
}

#[test]
fn pieces_are_the_longest_from_the_left_and_unknown_words_are_unk() {
    let v = vocab(&["[PAD]", "[UNK]", "[CLS]", "[SEP]", "deploy", "##ing", "##s", "un", "##deploy", "."]);
    assert_eq!(v.encode("Deploying undeploys.", 64), [2, 4, 5, 7, 8, 6, 9, 3]);
    // No cut of the whole word: the word is [UNK], not some of its pieces.
    assert_eq!(v.encode("deployx", 64), [2, 1, 3]);
    assert_eq!(v.encode(&"a".repeat(101), 64), [2, 1, 3]);
    // At most `max` ids, [SEP] last.
    assert_eq!(v.encode("deploy deploy deploy deploy", 4), [2, 4, 4, 3]);
    assert_eq!(v.encode("", 4), [2, 3]);
    assert!(WordPiece::from_json("{}").unwrap_err().contains("no `model`"));
    assert!(WordPiece::from_json(r#"{"model": {"type": "BPE", "vocab": {}}}"#)
        .unwrap_err()
        .contains("not a WordPiece"));
    assert!(WordPiece::from_json("not json").is_err());
}

/// A small random encoder as `safetensors` bytes.
fn tiny(hidden: usize, inter: usize, vocab: usize, positions: usize) -> Vec<u8> {
    let mut seed = 7u64;
    let mut rand = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as f32 / (1u64 << 31) as f32 - 0.5) * 0.4
    };
    let mut shapes: Vec<(String, Vec<usize>)> = vec![
        ("embeddings.word_embeddings.weight".into(), vec![vocab, hidden]),
        ("embeddings.position_embeddings.weight".into(), vec![positions, hidden]),
        ("embeddings.token_type_embeddings.weight".into(), vec![2, hidden]),
        ("embeddings.LayerNorm.weight".into(), vec![hidden]),
        ("embeddings.LayerNorm.bias".into(), vec![hidden]),
    ];
    let p = "bert.encoder.layer.0.";
    for (n, o, i) in [
        ("attention.self.query", hidden, hidden),
        ("attention.self.key", hidden, hidden),
        ("attention.self.value", hidden, hidden),
        ("attention.output.dense", hidden, hidden),
        ("intermediate.dense", inter, hidden),
        ("output.dense", hidden, inter),
    ] {
        shapes.push((format!("{p}{n}.weight"), vec![o, i]));
        shapes.push((format!("{p}{n}.bias"), vec![o]));
    }
    for n in ["attention.output.LayerNorm", "output.LayerNorm"] {
        shapes.push((format!("{p}{n}.weight"), vec![hidden]));
        shapes.push((format!("{p}{n}.bias"), vec![hidden]));
    }
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), serde_json::json!({"format": "pt"}));
    let mut data = Vec::new();
    for (name, shape) in &shapes {
        let count: usize = shape.iter().product();
        let start = data.len();
        for _ in 0..count {
            data.extend_from_slice(&rand().to_le_bytes());
        }
        header.insert(
            name.clone(),
            serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
        );
    }
    // Padded with spaces to 8 bytes, as `safetensors` writes it: the data starts aligned.
    let mut h = serde_json::Value::Object(header).to_string();
    while !(8 + h.len()).is_multiple_of(8) {
        h.push(' ');
    }
    let mut out = (h.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(h.as_bytes());
    out.extend_from_slice(&data);
    out
}

#[test]
fn an_encoder_gives_unit_vectors_that_tell_texts_apart() {
    let bytes = tiny(8, 16, 20, 6);
    let bert = Bert::from_safetensors(w(&bytes), 2).unwrap();
    assert_eq!((bert.dims.hidden, bert.dims.layers, bert.dims.intermediate, bert.dims.positions), (8, 1, 16, 6));
    let a = bert.embed(&[2, 5, 6, 3], 1);
    let norm: f32 = a.iter().map(|x| x * x).sum();
    assert!((norm - 1.0).abs() < 1e-5, "{norm}");
    assert_eq!(a, bert.embed(&[2, 5, 6, 3], 1), "the same ids give the same vector");
    let b = bert.embed(&[2, 9, 11, 12, 3], 1);
    assert!(cosine(&a, &b) < 0.9999);
    // Ids past the vocabulary read as unk; more tokens than positions are dropped; none is fine.
    assert_eq!(bert.embed(&[2, 500, 3], 1), bert.embed(&[2, 1, 3], 1));
    assert_eq!(bert.embed(&[2, 5, 6, 7, 8, 9, 10, 11], 1).len(), 8);
    assert_eq!(bert.embed(&[], 1).len(), 8);
    // Heads must divide the width.
    assert!(Bert::from_safetensors(w(&bytes), 3).is_err());
}

#[test]
fn bad_weights_are_an_error_never_a_panic() {
    let bytes = tiny(8, 16, 20, 6);
    for cut in [0, 4, 8, 20, 200, bytes.len() / 2, bytes.len() - 1] {
        assert!(Bert::from_safetensors(w(&bytes[..cut]), 2).is_err(), "cut at {cut}");
    }
    let mut huge = bytes.clone();
    huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(Bert::from_safetensors(w(&huge), 2).is_err());
    let mut junk = bytes.clone();
    junk[8] = b'!';
    assert!(Bert::from_safetensors(w(&junk), 2).unwrap_err().contains("not JSON"));
    assert!(Embedder::new("{}", "{\"num_attention_heads\": 2}", w(&bytes)).is_err());
    // Sizes of zero would divide by nothing or index nothing: refused.
    for (h, i, v, p) in [(0, 16, 20, 6), (8, 0, 20, 6), (8, 16, 0, 6), (8, 16, 20, 0)] {
        let e = Bert::from_safetensors(w(&tiny(h, i, v, p)), 2).unwrap_err();
        assert!(e.contains("every size above zero"), "{e}");
    }
    assert_eq!(cosine(&[1.0], &[1.0, 0.0]), 0.0);
}

#[test]
fn unaligned_weights_are_decoded_and_give_the_same_vector() {
    let bytes = tiny(8, 16, 20, 6);
    // A scalar where a table belongs is an error, not a panic (found by review).
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let t = &mut header["embeddings.position_embeddings.weight"];
    let start = t["data_offsets"][0].as_u64().unwrap();
    *t = serde_json::json!({"dtype": "F32", "shape": [], "data_offsets": [start, start + 4]});
    let text = header.to_string();
    let mut scalar = (text.len() as u64).to_le_bytes().to_vec();
    scalar.extend_from_slice(text.as_bytes());
    scalar.extend_from_slice(&bytes[8 + n..]);
    assert!(Bert::from_safetensors(w(&scalar), 2).unwrap_err().contains("above zero"));
    let in_place = Bert::from_safetensors(w(&bytes), 2).unwrap();
    assert!(in_place.reads_in_place());
    let aligned = in_place.embed(&[2, 5, 6, 3], 1);
    // One byte in front, the data shifted: read through a copy, not in place.
    struct Shifted(Vec<u8>);
    impl AsRef<[u8]> for Shifted {
        fn as_ref(&self) -> &[u8] {
            &self.0[1..]
        }
    }
    let mut shifted = vec![0u8];
    shifted.extend_from_slice(&bytes);
    let copied = Bert::from_safetensors(std::sync::Arc::new(Shifted(shifted)), 2).unwrap();
    assert!(!copied.reads_in_place());
    let odd = copied.embed(&[2, 5, 6, 3], 1);
    assert_eq!(aligned, odd);
}

/// Headers that lie (shapes, offsets, sizes) give an error or an encoder that embeds without a panic.
#[test]
fn lying_headers_never_panic() {
    let bytes = tiny(8, 16, 20, 6);
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + n]).unwrap();
    let data = &bytes[8 + n..];
    let mut seed = 11u64;
    let mut next = move |m: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % m
    };
    for _ in 0..400 {
        let mut h = header.clone();
        let names: Vec<String> = h.as_object().unwrap().keys().filter(|k| *k != "__metadata__").cloned().collect();
        for _ in 0..1 + next(3) {
            let name = &names[next(names.len() as u64) as usize];
            let t = &mut h[name.as_str()];
            match next(4) {
                0 => t["shape"] = serde_json::json!([next(30), next(30)]),
                1 => t["shape"] = serde_json::json!([next(30)]),
                2 if next(2) == 0 => t["shape"] = serde_json::json!([]),
                2 if next(2) == 0 => t["shape"] = serde_json::json!([next(30), next(30), next(4)]),
                _ => {
                    let a = next(data.len() as u64 + 8);
                    t["data_offsets"] = serde_json::json!([a, a + next(400)]);
                }
            }
        }
        let text = h.to_string();
        let mut out = (text.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(data);
        if let Ok(b) = Bert::from_safetensors(w(&out), 1 + next(4) as usize) {
            assert_eq!(b.embed(&[2, 5, 6, 7, 3], 1).len(), b.dims.hidden);
        }
    }
}
