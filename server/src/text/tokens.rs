//! Token counts as agents pay them: a real byte-pair encoding, and a bound that needs none.
//!
//! Agents count what they load in their model's tokens. Claude's tokenizer is
//! not published; OpenAI's are, and modern byte-pair encodings of 100,000 to
//! 200,000 pieces cut English Markdown into similar numbers of tokens (on the
//! real index of ../shared/corpus/head, cl100k_base gives 5,186 and o200k_base
//! 5,188). [`count`] uses cl100k_base through `bpe-openai`, GitHub's
//! linear-time encoder: the same counts as tiktoken, no quadratic worst case
//! on a hostile line (a megabyte without a space), and a table built once per
//! process on the first count (about 19 ms; then about 25 µs per KB).

/// The number of cl100k_base tokens of `text`.
pub fn count(text: &str) -> usize {
    bpe_openai::cl100k_base().count(text)
}

/// A lower bound of [`count`] that needs no tokenizer: the number of
/// whitespace-separated words. cl100k's pre-tokenizer never joins two words
/// into one piece and every piece is at least one token.
pub fn at_least(text: &str) -> usize {
    text.split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert!(at_least(s) <= count(s), "{s:?}: {} > {}", at_least(s), count(s));
            assert!(count(s) <= s.len(), "{s:?}: a token is at least a byte");
        }
        // A hostile line: linear, not quadratic.
        let long = "a".repeat(1 << 20);
        assert!(count(&long) > 0);
    }
}
