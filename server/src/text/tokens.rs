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

/// A lower bound of [`count`] that needs no tokenizer: the pieces cl100k's
/// pre-tokenizer must cut at least, each at least one token. It never joins
/// two whitespace-separated words, nor letters with digits; within a word it
/// cuts every run of letters, every run of other signs, and digits in
/// threes; one sign just before letters may join them (`(foo` is one piece).
pub fn at_least(text: &str) -> usize {
    #[derive(PartialEq, Clone, Copy)]
    enum Class {
        Letter,
        Digit,
        Sign,
    }
    let class = |c: char| {
        if c.is_alphabetic() {
            Class::Letter
        } else if c.is_numeric() {
            Class::Digit
        } else {
            Class::Sign
        }
    };
    let mut pieces = 0;
    for word in text.split_whitespace() {
        let mut prev: Option<(Class, usize)> = None; // the current run and its length in chars
        let close = |run: Option<(Class, usize)>, next: Option<Class>| match run {
            None => 0,
            Some((Class::Digit, n)) => n.div_ceil(3),
            // A single sign may be the lead of the letters after it.
            Some((Class::Sign, 1)) if next == Some(Class::Letter) => 0,
            Some(_) => 1,
        };
        for c in word.chars() {
            let k = class(c);
            prev = match prev {
                Some((p, n)) if p == k => Some((p, n + 1)),
                run => {
                    pieces += close(run, Some(k));
                    Some((k, 1))
                }
            };
        }
        pieces += close(prev, None);
    }
    pieces
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
        // Tight enough to rule out most sections without the tokenizer.
        let section = "### When Writing Mock Tests\n\n**Decision:** patch where used, so that imports stay fake.\n";
        assert!(at_least(section) * 10 >= count(section) * 7, "{} of {}", at_least(section), count(section));
        // A hostile line: linear, not quadratic.
        let long = "a".repeat(1 << 20);
        assert!(count(&long) > 0);
    }
}
