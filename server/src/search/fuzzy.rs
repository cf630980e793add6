//! The one fuzzy scorer (spec §6 "Fuzzy engine"): nucleo-matcher per word, plus whole-word bonuses.
//!
//! `score(query, candidate)`: the query is split into words; each word is
//! matched as a fuzzy atom (fzf-v2 style scoring from nucleo-matcher) against
//! the whole candidate, case-insensitively with Unicode normalisation. Every
//! word must match. The score is the sum of the word scores plus
//! [`WHOLE_WORD_BONUS`] for each query word that is also a whole word of the
//! candidate. Word order therefore matters less than the characters.
//!
//! Among equal matches the shorter candidate wins: one point is taken off per
//! four characters the candidate has beyond the query (at most
//! [`LENGTH_PENALTY_CAP`]).
//!
//! Each word must also score at least [`MIN_WORD_SCORE_PER_CHAR`] per
//! character, so a word whose letters are scattered over the candidate does
//! not match.
//!
//! Threshold: a match whose score is below [`MIN_SCORE_PER_CHAR`] × the
//! query's non-space character count is no match. Tie-breaks are the
//! caller's (the resolver keeps index order).

use std::cell::RefCell;

use nucleo_matcher::pattern::{Atom, AtomKind, CaseMatching, Normalization};
use nucleo_matcher::{Config, Matcher, Utf32Str};

/// Added per query word that equals a whole candidate word.
pub const WHOLE_WORD_BONUS: u32 = 24;
/// Minimum score per character of each query word: scattered letters
/// (`turn` across "…triaging… code…") do not count as the word.
pub const MIN_WORD_SCORE_PER_CHAR: u32 = 6;
/// Most points taken off a long candidate (see [`Prepared::raw`]).
pub const LENGTH_PENALTY_CAP: u32 = 12;
/// Minimum average score per query character for a match to count.
pub const MIN_SCORE_PER_CHAR: u32 = 10;

thread_local! {
    static MATCHER: RefCell<(Matcher, Vec<char>)> = RefCell::new((Matcher::new(Config::DEFAULT), Vec::new()));
}

/// Scores `candidate` for `query`; None when some word does not match or the
/// total is under the threshold.
pub fn score(query: &str, candidate: &str) -> Option<u32> {
    Prepared::new(query).score(candidate)
}

/// The ASCII letters and digits of `s`, lowercased, as a bit set; any other
/// character sets every bit. A candidate can match a query (every query
/// character, in order, ignoring case) only if its set contains the query's:
/// a cheap test before the fuzzy engine. Non-ASCII characters may normalise
/// to others (`é` matches `e`), hence all bits.
pub fn letters(s: &str) -> u128 {
    let mut set = 0u128;
    for c in s.chars() {
        if c.is_ascii() {
            if !c.is_ascii_whitespace() {
                set |= 1 << (c.to_ascii_lowercase() as u32);
            }
        } else {
            return u128::MAX;
        }
    }
    set
}

/// The letters a candidate must contain to match `query` ([`letters`]); none
/// when the query has a non-ASCII character (normalisation could match it otherwise).
pub fn required_letters(query: &str) -> u128 {
    match letters(query) {
        u128::MAX if !query.is_ascii() => 0,
        set => set,
    }
}

/// A query parsed once (one fuzzy atom per word) and scored against many candidates.
pub struct Prepared {
    words: Vec<(String, Atom, u32)>,
    chars: u32,
    /// [`required_letters`] of the query: a candidate lacking one cannot match.
    required: u128,
    /// The query's text, hashed two ways (the key of [`sum_matching`]'s memo).
    key: TextKey,
}

impl Prepared {
    pub fn new(query: &str) -> Self {
        let words: Vec<(String, Atom, u32)> = query
            .split_whitespace()
            .map(|w| {
                let atom = Atom::new(w, CaseMatching::Ignore, Normalization::Smart, AtomKind::Fuzzy, false);
                (w.to_string(), atom, w.chars().count() as u32)
            })
            .collect();
        let chars = words.iter().map(|w| w.2).sum();
        Self { words, chars, required: required_letters(query), key: text_key(query) }
    }

    /// False when a candidate with these [`letters`] cannot match (it lacks a
    /// letter of the query): a test far cheaper than scoring.
    pub fn could_match(&self, candidate_letters: u128) -> bool {
        candidate_letters & self.required == self.required
    }

    /// [`score`] of this query against `candidate`.
    pub fn score(&self, candidate: &str) -> Option<u32> {
        if self.words.is_empty() {
            return None;
        }
        self.raw(candidate).and_then(|raw| self.threshold(raw))
    }

    /// A raw score as [`score`](Self::score) counts it: None under the threshold.
    fn threshold(&self, raw: u32) -> Option<u32> {
        (raw >= MIN_SCORE_PER_CHAR * self.chars).then_some(raw)
    }

    /// [`score`] of this query against `candidate` without the threshold (for ranking suggestions).
    pub fn raw(&self, candidate: &str) -> Option<u32> {
        MATCHER.with(|m| {
            let (matcher, buf) = &mut *m.borrow_mut();
            let hay = Utf32Str::new(candidate, buf);
            self.raw_in(matcher, hay, candidate, &mut None)
        })
    }

    /// [`raw`](Self::raw) with the candidate already converted (`hay`); `chars`
    /// caches its character count, counted only once a match needs it.
    fn raw_in(&self, matcher: &mut Matcher, hay: Utf32Str, candidate: &str, chars: &mut Option<usize>) -> Option<u32> {
        // Letters in order is what the engine matches: a word whose letters the candidate lacks
        // in order is none, found without setting the engine up (most candidates, on a large memory).
        if candidate.is_ascii() && self.words.iter().any(|(w, _, _)| !in_order(w, candidate)) {
            return None;
        }
        let mut total = 0u32;
        for (_, atom, len) in &self.words {
            let score = u32::from(atom.score(hay, matcher)?);
            // A word whose letters are scattered across the candidate is no match.
            if score < MIN_WORD_SCORE_PER_CHAR * len {
                return None;
            }
            total += score;
        }
        for (w, _, _) in &self.words {
            if candidate.split_whitespace().any(|c| same_word(c, w)) {
                total += WHOLE_WORD_BONUS;
            }
        }
        // Prefer the tighter candidate among equals: one point per 4 unmatched
        // characters, at most LENGTH_PENALTY_CAP.
        let q_len = self.chars as usize + self.words.len();
        let extra = chars.get_or_insert_with(|| candidate.chars().count()).saturating_sub(q_len) as u32;
        Some(total.saturating_sub((extra / 4).min(LENGTH_PENALTY_CAP)))
    }
}

/// Scores each of `queries` against one `candidate` as [`Prepared::score`]
/// would, converting the candidate once, and returns the sum of the scores
/// of those that match when at least `needed` do (else None). A query whose
/// letters the candidate lacks is not scored ([`letters`]), and scoring stops
/// as soon as `needed` is out of reach: the same answer, for less work.
pub fn sum_matching(queries: &[Prepared], candidate: &str, needed: usize) -> Option<u32> {
    if needed > queries.len() {
        return None;
    }
    let have = letters(candidate);
    let cand_key = text_key(candidate);
    MATCHER.with(|m| {
        let (matcher, buf) = &mut *m.borrow_mut();
        let hay = Utf32Str::new(candidate, buf);
        let mut chars = None;
        let (mut total, mut matched) = (0, 0);
        for (i, q) in queries.iter().enumerate() {
            if matched + (queries.len() - i) < needed {
                return None;
            }
            if q.words.is_empty() || q.required & !have != 0 {
                continue;
            }
            let key = (q.key, cand_key);
            let known = WORD_SCORES.with(|w| w.borrow().get(&key).copied());
            let s = match known {
                Some(s) => s,
                None => {
                    let s = q.raw_in(matcher, hay, candidate, &mut chars).and_then(|raw| q.threshold(raw));
                    WORD_SCORES.with(|w| {
                        let mut w = w.borrow_mut();
                        if w.len() >= WORD_SCORES_MAX {
                            w.clear();
                        }
                        w.insert(key, s);
                    });
                    s
                }
            };
            if let Some(s) = s {
                total += s;
                matched += 1;
            }
        }
        (matched >= needed).then_some(total)
    })
}

thread_local! {
    /// Scores of one query word against one candidate, by both texts'
    /// [`text_key`]s: a word that many triggers share ("writing", "mock") is
    /// scored against a title once, not once per trigger. Cleared when full,
    /// so words seen once cost a little memory for a while and no more.
    static WORD_SCORES: RefCell<rustc_hash::FxHashMap<(TextKey, TextKey), Option<u32>>> =
        RefCell::new(rustc_hash::FxHashMap::default());
}

/// A text's two hashes ([`text_key`]).
type TextKey = (u64, u64);

/// Entries [`WORD_SCORES`] holds before it starts over.
const WORD_SCORES_MAX: usize = 1 << 18;

/// A text hashed two independent ways (128 bits: distinct texts never share a key in practice).
fn text_key(text: &str) -> TextKey {
    use std::hash::{Hash, Hasher};
    let mut a = rustc_hash::FxHasher::default();
    text.hash(&mut a);
    let mut b = rustc_hash::FxHasher::default();
    0x9e37_79b9_7f4a_7c15u64.hash(&mut b);
    text.len().hash(&mut b);
    text.hash(&mut b);
    (a.finish(), b.finish())
}

/// Whether the ASCII word `w`'s characters occur in `candidate` (ASCII) in
/// order, ignoring case: what a fuzzy match needs. True for a word with
/// another character (normalisation may match it otherwise).
fn in_order(w: &str, candidate: &str) -> bool {
    if !w.is_ascii() {
        return true;
    }
    let mut hay = candidate.bytes().map(|b| b.to_ascii_lowercase());
    w.bytes().all(|c| {
        let c = c.to_ascii_lowercase();
        hay.any(|h| h == c)
    })
}

/// Case-insensitive word equality without allocating (ASCII fast path).
fn same_word(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    a.chars().flat_map(char::to_lowercase).eq(b.chars().flat_map(char::to_lowercase))
}

/// Ranks `candidates` for `query`, best first; ties keep input order.
pub fn rank<'a, T: Copy>(
    query: &str,
    candidates: impl IntoIterator<Item = (T, &'a str)>,
    limit: usize,
) -> Vec<(T, u32)> {
    let mut scored: Vec<(T, u32)> = candidates.into_iter().filter_map(|(t, c)| Some((t, score(query, c)?))).collect();
    scored.sort_by_key(|x| std::cmp::Reverse(x.1));
    scored.truncate(limit);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_letter_test_never_drops_a_match() {
        let cands = ["mock patching", "Merge Conflicts", "café au lait", "deploy", "x9 build", "ÉCOLE"];
        for q in ["merg", "cafe", "mp", "X9", "ecole", "éc", "zz", "dep loy", ""] {
            let need = required_letters(q);
            for c in cands {
                if score(q, c).is_some() {
                    assert_eq!(letters(c) & need, need, "{q:?} matches {c:?} but the letter test would skip it");
                }
            }
        }
        assert_ne!(letters("deploy") & required_letters("merg"), required_letters("merg"), "a useful filter");
    }

    #[test]
    fn the_order_test_never_drops_a_match() {
        let cands = ["mock patching", "Merge Conflicts", "x9-build", "deploy", "tests/unit mocks", "a_b c"];
        for q in ["merg", "mp", "X9", "dep loy", "gem", "t/u", "b c", "ab", "ts"] {
            let p = Prepared::new(q);
            for c in cands {
                let engine = MATCHER.with(|m| {
                    let (matcher, buf) = &mut *m.borrow_mut();
                    p.words.iter().all(|(_, atom, _)| atom.score(Utf32Str::new(c, buf), matcher).is_some())
                });
                let ordered = p.words.iter().all(|(w, _, _)| in_order(w, c));
                assert!(!engine || ordered, "{q:?} matches {c:?} but the order test would skip it");
            }
        }
        assert!(!in_order("gem", "Merge Conflicts"), "a useful test");
    }

    #[test]
    fn sum_matching_equals_scoring_each_word() {
        let queries: Vec<Prepared> =
            ["mock", "tests", "café", "zz", "writing"].into_iter().map(Prepared::new).collect();
        let cands = ["writing mock tests", "Mocking Tests", "café au lait", "", "ÉCOLE mock", "most tricks"];
        for c in cands {
            for needed in 0..=queries.len() + 1 {
                let scores: Vec<u32> = queries.iter().filter_map(|q| q.score(c)).collect();
                let naive = (scores.len() >= needed && needed <= queries.len()).then(|| scores.iter().sum());
                assert_eq!(sum_matching(&queries, c, needed), naive, "{c:?} needing {needed}");
            }
        }
    }

    #[test]
    fn table_of_scores_and_orders() {
        // (query, better candidate, worse candidate)
        let cases = [
            ("mock tests", "writing mock tests", "making locks test"),
            ("review gates", "review gates", "choosing review gates"),
            ("encode paths", "encode file paths", "end of paths"),
            ("tests mock", "writing mock tests", "most tricks"),
        ];
        for (q, good, bad) in cases {
            let g = score(q, good).unwrap_or(0);
            let b = score(q, bad).unwrap_or(0);
            assert!(g > b, "{q:?}: {good:?}={g} should beat {bad:?}={b}");
        }
    }

    #[test]
    fn every_word_must_match() {
        assert_eq!(score("mock zebra", "writing mock tests"), None);
        assert_eq!(score("", "x"), None);
        assert!(score("MOCK", "writing mock tests").is_some());
    }

    #[test]
    fn rank_keeps_input_order_on_ties() {
        let r = rank("x", [(1, "x a"), (2, "x b")], 5);
        assert_eq!(r.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2]);
    }
}
