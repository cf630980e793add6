//! Token counts as agents pay them: cl100k_base's byte-pair encoding, and a bound that needs none.
//!
//! Agents count what they load in their model's tokens. Claude's tokenizer is
//! not published; OpenAI's are, and modern byte-pair encodings of 100,000 to
//! 200,000 pieces cut English Markdown into similar numbers of tokens (on the
//! real index of ../shared/corpus/head, cl100k_base gives 5,186 and o200k_base
//! 5,188). [`count`] counts cl100k_base: its vocabulary comes from the
//! `bpe-openai` crate (GitHub's encoder of OpenAI's tables) when this crate is
//! built, laid out by `build.rs` as a table the binary carries; the
//! pre-tokenizer ([`pieces`]) and the merges ([`merge`]) are ours, held by the
//! tests to `bpe-openai`'s counts piece for piece. The crate itself costs
//! every process about 17 ms and 30 MB to load its tables on the first
//! count, more than a whole `check` of a small project; this costs nothing
//! at start-up and about 15 ns per byte.

mod hash;
mod merge;
mod pieces;

/// The number of cl100k_base tokens of `text`.
pub fn count(text: &str) -> usize {
    pieces::pieces(text).map(merge::count).sum()
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
mod tests;
