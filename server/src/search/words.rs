//! Word-level helpers for ranking: English stemming (both sides) and one-edit typo tolerance.
//!
//! Stemming uses the Snowball English stemmer (`rust-stemmers`), so `gates`,
//! `gate` and `gating` meet. A query word of five letters or more that is one
//! edit (substitution, insertion, deletion or adjacent transposition) away
//! from a candidate word is read as that word: `wirting` finds `writing`.

use std::cell::RefCell;

use rust_stemmers::{Algorithm, Stemmer};

thread_local! {
    /// The stemmer and the stems it already gave (Snowball costs a few
    /// thousand instructions a word; a workspace repeats a few thousand words).
    static STEMMER: RefCell<(Stemmer, rustc_hash::FxHashMap<String, String>)> =
        RefCell::new((Stemmer::create(Algorithm::English), Default::default()));
}

/// Most stems remembered per thread before the memo starts over (a large
/// workspace's vocabulary fits; a server fed endless novel words stays bounded).
const MEMO_WORDS: usize = 1 << 16;

/// Shortest word a typo is tolerated in.
pub const MIN_TYPO_LEN: usize = 5;

/// Each whitespace-separated word stemmed (input should already be lowercase).
pub fn stem_phrase(s: &str) -> String {
    STEMMER.with(|st| {
        let (stemmer, memo) = &mut *st.borrow_mut();
        let mut out = String::with_capacity(s.len());
        for w in s.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            if let Some(stem) = memo.get(w) {
                out.push_str(stem);
                continue;
            }
            let stem = stemmer.stem(w).into_owned();
            out.push_str(&stem);
            if memo.len() >= MEMO_WORDS {
                memo.clear();
            }
            memo.insert(w.to_string(), stem);
        }
        out
    })
}

/// True when `a` and `b` differ by one substitution, insertion, deletion or adjacent transposition.
pub fn one_edit(a: &str, b: &str) -> bool {
    if a.len().abs_diff(b.len()) > 4 {
        return false; // more than one character apart in any encoding
    }
    if a.is_ascii() && b.is_ascii() {
        return one_edit_slices(a.as_bytes(), b.as_bytes());
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    one_edit_slices(&a, &b)
}

fn one_edit_slices<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    if a == b {
        return false;
    }
    // Skip the common prefix; what differs must be one substitution,
    // one adjacent transposition, or one insertion/deletion.
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match a.len().cmp(&b.len()) {
        std::cmp::Ordering::Equal => {
            a[i + 1..] == b[i + 1..]
                || (i + 1 < a.len() && a[i] == b[i + 1] && a[i + 1] == b[i] && a[i + 2..] == b[i + 2..])
        }
        std::cmp::Ordering::Greater => a.len() == b.len() + 1 && a[i + 1..] == b[i..],
        std::cmp::Ordering::Less => b.len() == a.len() + 1 && b[i + 1..] == a[i..],
    }
}

/// `query` with each word of 5+ letters that is one edit from a word of `candidate` replaced by that word.
pub fn correct_typos(query: &str, candidate: &str) -> Option<String> {
    let cand: Vec<&str> = candidate.split_whitespace().collect();
    let mut changed = false;
    let words: Vec<&str> = query
        .split_whitespace()
        .map(|w| {
            if w.chars().count() >= MIN_TYPO_LEN && !cand.contains(&w) {
                if let Some(c) = cand.iter().find(|c| one_edit(w, c)) {
                    changed = true;
                    return *c;
                }
            }
            w
        })
        .collect();
    changed.then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_and_edits() {
        assert_eq!(stem_phrase("choosing review gates"), stem_phrase("choosing review gate"));
        assert!(one_edit("wirting", "writing"));
        assert!(one_edit("writng", "writing"));
        assert!(one_edit("wrxting", "writing"));
        assert!(!one_edit("wrtign", "writing"));
        assert!(one_edit("writingx", "writing") && one_edit("xwriting", "writing") && one_edit("wirting", "writing"));
        assert!(!one_edit("wiritng", "writing") && !one_edit("writing", "writing") && !one_edit("ab", "ba c"));
        assert_eq!(correct_typos("wirting mock tests", "writing mock tests").as_deref(), Some("writing mock tests"));
        assert_eq!(correct_typos("mokc tests", "mock tests"), None, "short words are not corrected");
    }
}
