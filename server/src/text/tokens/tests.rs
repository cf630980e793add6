//! Token counts held to `bpe-openai`'s, piece for piece and token for token.

use super::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

fn reference() -> &'static bpe_openai::Tokenizer {
    bpe_openai::cl100k_base()
}

fn same_as_reference(text: &str) {
    let ours: Vec<&str> = pieces::pieces(text).collect();
    let theirs: Vec<&str> = reference().split(text).collect();
    assert_eq!(ours, theirs, "pieces of {text:?}");
    for piece in ours {
        assert_eq!(merge::count(piece), reference().bpe.count(piece.as_bytes()), "tokens of {piece:?}");
    }
    assert_eq!(count(text), reference().count(text), "{text:?}");
}

#[test]
fn every_token_is_found_at_its_rank() {
    let bpe = &reference().bpe;
    for rank in 0..bpe.num_tokens() as u32 {
        assert_eq!(merge::rank(bpe.token_bytes(rank)), Some(rank));
    }
    assert_eq!(merge::rank(b"no token is this long, surely not this one"), None);
}

#[test]
fn pieces_and_counts_match_the_reference_on_every_branch_of_the_pattern() {
    for text in [
        "",
        "hello world",
        "it's they'RE we'Ve I'M you'll he'D 'ſ 'x ''s",
        "(foo) [bar] {baz}: a.b,c;d!e?f",
        "  two spaces\tand a\ttab  \n\n  lines\r\n\rCR  ",
        "trailing space at the end   ",
        "12345678 1,000,000 3.14159 ²³ ٣٤٥٦",
        " ...\n\n--- *** ```rust\n",
        "naïve café — 東京 한국어 😀😀",
        "\u{a0}nbsp\u{85}nel\u{2028}ls \u{3000}ideographic",
        "e\u{301}\u{301} combining a\u{308}",
        "/when writing mock tests | mock patch, test doubles\n",
        "### When Writing Mock Tests\n\n**Decision:** patch where used.\n",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "\u{0}\u{1}\u{7f} \t\u{b}\u{c}",
    ] {
        same_as_reference(text);
    }
}

#[test]
fn counts_match_the_reference_on_the_real_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let Ok(snapshots) = std::fs::read_dir(&root) else {
        eprintln!("skipped: no corpus at {}", root.display());
        return;
    };
    let mut files = 0;
    let mut stack: Vec<_> = snapshots.flatten().map(|e| e.path()).collect();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).into_iter().flatten().flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|e| e == "md") {
            if let Ok(text) = std::fs::read_to_string(&path) {
                assert_eq!(count(&text), reference().count(text.as_str()), "{}", path.display());
                let pieces = pieces::pieces(&text).count();
                assert!(piece_starts_at_least(text.as_bytes(), usize::MAX) <= pieces, "{}", path.display());
                files += 1;
            }
        }
    }
    assert!(files > 0, "the corpus at {} has Markdown files", root.display());
}

fn texts() -> impl Strategy<Value = String> {
    // Every class the pattern tells apart, and the characters at its edges.
    let alphabet = prop::sample::select(vec![
        'a', 'e', 's', 't', 'r', 'v', 'l', 'd', 'm', 'S', 'T', 'L', 'x', 'Q', 'ſ', '\'', '0', '7', '²', '٣', ' ', ' ',
        '\t', '\n', '\r', '\u{b}', '\u{a0}', '\u{85}', '\u{3000}', '.', ',', '#', '/', '|', '*', '-', '(', 'é', '東',
        '\u{301}', '😀', '—', '\u{1}', '\u{c}', '`', '"',
    ]);
    prop::collection::vec(alphabet, 0..80).prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_counts_as_the_reference_counts(text in texts()) {
        same_as_reference(&text);
    }

    #[test]
    fn the_bounds_never_pass_the_pieces(text in texts(), cap in 0usize..20) {
        let pieces = pieces::pieces(&text).count();
        prop_assert!(piece_starts_at_least(text.as_bytes(), usize::MAX) <= pieces, "{text:?}");
        prop_assert_eq!(at_least(&text, cap), pieces.min(cap + 1), "{:?}", text);
    }

    #[test]
    fn long_words_merge_as_the_reference_merges(word in "[a-z]{20,300}") {
        same_as_reference(&word);
    }
}

#[test]
fn counts_and_bounds() {
    assert_eq!(count(""), 0);
    assert_eq!(count("hello world"), 2);
    let samples = [
        "/when writing mock tests | mock patch, test doubles\n",
        "## When Alpha\n\nbody, body; body.\n",
        "a  b\t\tc\n\n\nd",
        "naïve café — 東京",
    ];
    for s in samples {
        assert!(at_least(s, usize::MAX) <= count(s), "{s:?}: {} > {}", at_least(s, usize::MAX), count(s));
        assert_eq!(at_least(s, 3), at_least(s, usize::MAX).min(4), "{s:?}: counted up to one past the cap");
        assert!(count(s) <= s.len(), "{s:?}: a token is at least a byte");
    }
    // Tight enough to rule out most sections without the tokenizer.
    let section = "### When Writing Mock Tests\n\n**Decision:** patch where used, so that imports stay fake.\n";
    let bound = at_least(section, usize::MAX);
    assert!(bound * 10 >= count(section) * 7, "{bound} of {}", count(section));
    // A hostile line: linear, not quadratic.
    let long = "a".repeat(1 << 20);
    assert!(count(&long) > 0);
}

#[test]
fn words_are_the_bytes_zero_padded() {
    let bytes = b"abcdefgh";
    for n in 0..=8 {
        let mut padded = [0u8; 8];
        padded[..n].copy_from_slice(&bytes[..n]);
        assert_eq!(word(&bytes[..n]), u64::from_le_bytes(padded), "{n} bytes");
    }
}

/// One counter through many texts remembers pieces of every length up to
/// its key's and past it, and never mistakes one piece for another.
#[test]
fn a_counter_counts_as_count_does() {
    let mut counter = Counter::default();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let words = prop::collection::vec(prop::sample::select(vec!["a", "b", "é", " ", "x1", "'s", "ab", "東"]), 1..40);
    for _ in 0..5_000 {
        let text: String = words.new_tree(&mut runner).expect("a text").current().concat();
        assert_eq!(counter.count(&text), count(&text), "{text:?}");
    }
}
