//! Key compression (spec §6): the shortest trigger that resolves to a heading and to no other.
//!
//! Candidates are order-preserving subsets of the title's words (after its
//! `When `/`How to ` prefix), tried by fewest words, then shortest text. A
//! candidate wins when, by the resolver's own matching, it would return this
//! heading's entry: no other entry's trigger or extra equals it, it matches
//! the heading's own trigger, and it scores strictly higher against that
//! trigger than against any other entry; for an indexed heading, the one
//! ranking (`search::recall`) must also put the heading first at the
//! resolver's threshold, so the key resolves. A key made only of stop words
//! (`to`, `a`, `from`) or words naming no subject (`out`, `over`, `all`) is
//! never proposed: nobody remembers or guesses it; nor is a word's edge
//! punctuation (`prod!` gives `prod`).
//! Unlike the reference tool, the winner must be the heading itself. Work is bounded: at most
//! [`MAX_CANDIDATES`] candidates per title, so a 20-word title returns in
//! milliseconds; when none wins, the full trigger is returned.

use crate::model::{HeadingId, Workspace};
use crate::rules::placement::trigger_from_title;
use crate::search::{fuzzy, recall, triggers, words, TriggerQuery};
use crate::syntax::index::Op;
use crate::syntax::normalize;

/// Words that name no subject, beside the ranking's stop words: a key of them alone is never
/// proposed (found by review: `/when out` for *Rolling Out A Canary Release*).
const WEAK: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "always", "any", "before", "below", "between", "but",
    "down", "during", "each", "every", "if", "just", "me", "more", "most", "my", "never", "off", "once", "one", "only",
    "other", "our", "out", "over", "own", "per", "same", "so", "some", "their", "them", "they", "through", "too",
    "under", "up", "us", "very", "via", "vs", "within", "without",
];

/// Most candidates evaluated for one title.
pub const MAX_CANDIDATES: usize = 1500;

/// The compressed trigger (with its operator) for `title`, or None when the
/// title has no `When `/`How to ` prefix.
pub fn compress_title(ws: &Workspace, title: &str) -> Option<(Op, String)> {
    compress_among(ws, title, &[])
}

/// [`compress_title`], also unique among `others`: titles being keyed at the
/// same time that the index does not list yet (`compress-key A B`), so two
/// new headings never get the same key. A candidate loses when its letters
/// match another such title's trigger as well as they match this one's.
pub fn compress_among(ws: &Workspace, title: &str, others: &[String]) -> Option<(Op, String)> {
    let (op, _) = trigger_from_title(title)?;
    let b = ws.bindings();
    // Indexed headings are told apart by the index itself; only the others compete.
    let indexed = |t: &str| b.headings_titled(&normalize(t)).iter().any(|&h| !b.entries_of(h).is_empty());
    let rivals: Vec<String> = others
        .iter()
        .filter(|o| normalize(o) != normalize(title) && !indexed(o))
        .filter_map(|o| trigger_from_title(o).filter(|(o_op, _)| *o_op == op).map(|(_, t)| normalize(&t)))
        .collect();
    compress_with(ws, title, &rivals)
}

fn compress_with(ws: &Workspace, title: &str, rivals: &[String]) -> Option<(Op, String)> {
    let (op, full) = trigger_from_title(title)?;
    let own = ws.bindings().headings_titled(&normalize(title)).first().copied();
    // A word's edge punctuation is no part of a key (`prod!`, `(feat/*,` gave keys nobody types),
    // but a name's is (`C++`, `C#`, `.NET`).
    let words_: Vec<&str> = full.split_whitespace().map(key_word).filter(|w| !w.is_empty()).collect();
    let mut tried = 0;
    for k in 1..words_.len() {
        // Every k-word candidate counts against the bound, as when each was tried in turn.
        let mut combos: Vec<String> = Vec::new();
        let mut combo: Vec<usize> = (0..k).collect();
        loop {
            tried += 1;
            if tried > MAX_CANDIDATES {
                return Some((op, full));
            }
            combos.push(combo.iter().map(|&i| words_[i]).collect::<Vec<_>>().join(" "));
            if !next_combination(&mut combo, words_.len()) {
                break;
            }
        }
        // Shortest first (ties in the title's order): the first that wins is the key, and the
        // longer ones are never scored (each scores against every entry of the index).
        combos.sort_by_key(String::len);
        if let Some(key) =
            combos.into_iter().find(|c| wins(ws, op, c, &full, own) && beats_rivals(op, c, &full, rivals))
        {
            return Some((op, key));
        }
    }
    Some((op, full))
}

/// `word` without the punctuation at its edges that is no part of a name: `prod!` is `prod`,
/// `(feat/*,` is `feat`, while `C++`, `C#` and `.NET` stay.
fn key_word(word: &str) -> &str {
    let end = word.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '+' && c != '#');
    if !end.chars().any(char::is_alphanumeric) {
        return "";
    }
    let start = end.trim_start_matches(|c: char| !c.is_alphanumeric());
    let cut = end.len() - start.len(); // a character boundary: `start` is a suffix of `end`
                                       // One `.` right before the letters is a name's (`.NET`, `.env`); `...and` is `and`.
    if end[..cut].ends_with('.') && !end[..cut - 1].ends_with('.') {
        &end[cut - 1..]
    } else {
        start
    }
}

/// The compressed trigger of a heading.
pub fn compress_heading(ws: &Workspace, id: HeadingId) -> Option<(Op, String)> {
    compress_title(ws, &ws.heading(id)?.title)
}

fn wins(ws: &Workspace, op: Op, cand: &str, full: &str, own: Option<HeadingId>) -> bool {
    let b = ws.bindings();
    let q = normalize(cand);
    if q.split(' ').all(|w| crate::search::bm25::is_stop(w) || WEAK.contains(&w)) {
        return false;
    }
    // Another entry that owns these exact words would win.
    if let Some((e, _)) = b.exact_match(Some(op), &q) {
        return own.is_some_and(|h| b.entry(e).heading == Some(h));
    }
    let text = format!("{} {q}", op.word());
    let score = |target: &str| {
        let t = format!("{} {target}", op.word());
        fuzzy::score(&text, &t).or_else(|| fuzzy::score(&words::stem_phrase(&text), &words::stem_phrase(&t)))
    };
    let Some(mine) = score(&normalize(full)) else { return false };
    let others = triggers::rank(ws, &TriggerQuery { op: Some(op), text: q.clone() }, 3);
    let letters_win = others.iter().all(|h| {
        let e = b.entry(h.entry);
        own.is_some_and(|o| e.heading == Some(o)) || h.score < mine
    });
    // An indexed heading's key must also come first in the one ranking, at the resolver's threshold.
    letters_win
        && own.is_none_or(|o| {
            b.entries_of(o).is_empty()
                || recall::recall_query(ws, &TriggerQuery { op: Some(op), text: q.clone() }, 1)
                    .first()
                    .is_some_and(|r| r.heading == o && r.confidence >= ws.config().recall.resolve)
        })
}

/// True when `cand` scores strictly higher against `full` than against every rival trigger.
fn beats_rivals(op: Op, cand: &str, full: &str, rivals: &[String]) -> bool {
    if rivals.is_empty() {
        return true;
    }
    let text = format!("{} {}", op.word(), normalize(cand));
    let score = |target: &str| fuzzy::score(&text, &format!("{} {target}", op.word()));
    let Some(mine) = score(&normalize(full)) else { return false };
    rivals.iter().all(|r| score(r).is_none_or(|s| s < mine))
}

/// Advances `c` to the next k-combination of 0..n in lexicographic order.
fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < n - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

#[cfg(test)]
mod key_word_tests {
    #[test]
    fn edge_punctuation_goes_a_names_stays() {
        for (w, want) in [
            ("prod!", "prod"),
            ("(feat/*,", "feat"),
            ("C++", "C++"),
            ("C#", "C#"),
            (".NET", ".NET"),
            ("...and", "and"),
            ("(.env)", ".env"),
            ("!!", ""),
            ("x.", "x"),
        ] {
            assert_eq!(super::key_word(w), want, "{w}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> Workspace {
        Workspace::of_files(&[
            (
                "agents/memory-index.md",
                "## agents/decisions/a.md\n/how encode file paths\n/how encode urls\n/when writing cli output\n",
            ),
            (
                "agents/decisions/a.md",
                "## How to Encode File Paths\nx\n## How to Encode URLs\ny\n## When Writing CLI Output\nz\n",
            ),
        ])
    }

    #[test]
    fn shortest_unique_trigger_that_resolves_to_the_heading() {
        let w = ws();
        assert_eq!(compress_title(&w, "How to Encode File Paths"), Some((Op::How, "file".into())));
        assert_eq!(compress_title(&w, "When Writing CLI Output"), Some((Op::When, "CLI".into())));
        let (_, urls) = compress_title(&w, "How to Encode URLs").expect("key");
        assert_ne!(urls, "encode", "`encode` is shared, so it cannot be the key");
        assert_eq!(compress_title(&w, "Inline Criteria"), None);
    }

    #[test]
    fn keys_are_unique_among_the_titles_keyed_together() {
        let w = ws();
        let titles = ["How to Encode Parameters".to_string(), "How to Encode Strings".to_string()];
        let a = compress_among(&w, &titles[0], &titles).expect("key");
        let b = compress_among(&w, &titles[1], &titles).expect("key");
        assert_ne!(a, b);
        assert_ne!(a.1, "encode");
        assert_ne!(b.1, "encode");
    }

    #[test]
    fn long_titles_are_bounded() {
        let w = ws();
        let title = format!("When {}", (0..20).map(|i| format!("word{i}")).collect::<Vec<_>>().join(" "));
        let t = std::time::Instant::now();
        let got = compress_title(&w, &title);
        assert!(got.is_some());
        assert!(t.elapsed() < std::time::Duration::from_secs(5), "bounded work");
    }
}
