//! Word-level resemblance between a trigger and heading titles, for "did you mean" and drift fixes.
//!
//! The fuzzy engine requires every query word to match; a drifted entry
//! (`review flags unused code` for the heading `When Vet Flags Unused Code`)
//! fails that on the renamed word. Here each trigger word is scored on its own
//! with the fuzzy engine, and a title resembles the trigger when a strict
//! majority of the trigger's words match it (all of them for one- or two-word
//! triggers); words that carry no topic ([`STOP`]) are left out of the
//! count unless the trigger has no other. The score is the sum of the matching words' scores; ties keep
//! the candidates' order.

use super::fuzzy;

/// The title without a leading `When ` / `How to ` (case-insensitive).
pub fn strip_prefix(title: &str) -> &str {
    crate::syntax::index::Op::split_title(title).map_or(title.trim_start(), |(_, rest)| rest)
}

/// Resemblance of `trigger` to one title (prefix stripped), or None.
pub fn resemblance(trigger: &str, title: &str) -> Option<u32> {
    Resembler::new(trigger).score(title)
}

/// A trigger's words prepared once, to score many titles ([`resemblance`]).
pub struct Resembler {
    words: Vec<fuzzy::Prepared>,
    needed: usize,
}

impl Resembler {
    pub fn new(trigger: &str) -> Self {
        // Words that carry no topic (`on`, `to`, `the`) do not make a majority:
        // `working on fixtures` does not resemble `Working On Test Structure`.
        // Short words that are not stop words (`s3`, `db`, `ci`) still count.
        let topical: Vec<&str> =
            trigger.split_whitespace().filter(|w| !STOP.iter().any(|s| s.eq_ignore_ascii_case(w))).collect();
        let words: Vec<&str> = if topical.is_empty() { trigger.split_whitespace().collect() } else { topical };
        let words: Vec<fuzzy::Prepared> = words.into_iter().map(fuzzy::Prepared::new).collect();
        let needed = if words.len() <= 2 { words.len() } else { words.len() / 2 + 1 };
        Self { words, needed }
    }

    /// [`resemblance`] of the prepared trigger to `title`.
    pub fn score(&self, title: &str) -> Option<u32> {
        if self.words.is_empty() {
            return None;
        }
        fuzzy::sum_matching(&self.words, strip_prefix(title), self.needed)
    }
}

/// Ranks `(id, title)` candidates by resemblance to `trigger`, best first.
pub fn rank<'a, T: Copy>(
    trigger: &str,
    candidates: impl IntoIterator<Item = (T, &'a str)>,
    limit: usize,
) -> Vec<(T, u32)> {
    let r = Resembler::new(trigger);
    rank_candidates(candidates, limit, |_, title| r.score(title))
}

/// Words that carry no topic: never used to find candidates.
const STOP: &[&str] =
    &["when", "how", "to", "the", "a", "an", "and", "or", "of", "in", "on", "for", "with", "is", "are"];

/// The lookup key of a word: its first three lowercased characters, packed
/// (21 bits each, so distinct prefixes never share a key).
fn key(word: &str) -> Option<u64> {
    let stop = if word.is_ascii() {
        word.len() < 3 || STOP.iter().any(|s| s.eq_ignore_ascii_case(word))
    } else {
        let w = word.to_lowercase();
        w.chars().count() < 3 || STOP.contains(&w.as_str())
    };
    if stop {
        return None;
    }
    let mut chars = word.chars().flat_map(char::to_lowercase);
    let mut k = 0u64;
    for _ in 0..3 {
        k = (k << 21) | chars.next().map_or(0, u64::from);
    }
    Some(k)
}

/// The word keys of a trigger or title (prefix stripped) that [`KeyIndex`] looks
/// candidates up by: two texts can resemble only if they share one.
pub fn word_keys(text: &str) -> impl Iterator<Item = u64> + '_ {
    strip_prefix(text).split_whitespace().filter_map(key)
}

/// Most candidates scored per query (those sharing the most word keys, see [`KeyIndex`]).
pub const MAX_SCORED: usize = 16;

/// Scores candidates (in their order), best first; ties keep that order.
pub fn rank_candidates<'a, T: Copy>(
    candidates: impl IntoIterator<Item = (T, &'a str)>,
    limit: usize,
    mut score: impl FnMut(T, &str) -> Option<u32>,
) -> Vec<(T, u32)> {
    let mut scored: Vec<(T, u32)> =
        candidates.into_iter().filter_map(|(id, title)| Some((id, score(id, title)?))).collect();
    scored.sort_by_key(|x| std::cmp::Reverse(x.1));
    scored.truncate(limit);
    scored
}

/// Word-key lists of numbered titles, switched on and off one by one: what
/// ranking looks candidates up in, and what a caller keeps and patches when
/// the set of candidates changes a little (the unindexed headings after an
/// index edit).
#[derive(Clone, Debug, Default)]
pub struct KeyIndex {
    /// Word key → the numbers of the titles with a word of that key, ascending.
    by_key: rustc_hash::FxHashMap<u64, Vec<u32>>,
}

impl KeyIndex {
    /// Adds title number `n`.
    pub fn insert(&mut self, n: u32, title: &str) {
        self.list_under(n, word_keys(title));
    }

    /// Removes title number `n` (which had `title`).
    pub fn remove(&mut self, n: u32, title: &str) {
        self.unlist_under(n, word_keys(title));
    }

    /// Adds trigger number `n` (keyed by its words as [`ranked`](Self::ranked) keys a query).
    pub fn insert_trigger(&mut self, n: u32, trigger: &str) {
        self.list_under(n, trigger.split_whitespace().filter_map(key));
    }

    /// Removes trigger number `n` (which had `trigger`).
    pub fn remove_trigger(&mut self, n: u32, trigger: &str) {
        self.unlist_under(n, trigger.split_whitespace().filter_map(key));
    }

    fn list_under(&mut self, n: u32, keys: impl Iterator<Item = u64>) {
        for k in keys {
            let list = self.by_key.entry(k).or_default();
            if let Err(at) = list.binary_search(&n) {
                list.insert(at, n);
            }
        }
    }

    fn unlist_under(&mut self, n: u32, keys: impl Iterator<Item = u64>) {
        for k in keys {
            if let Some(list) = self.by_key.get_mut(&k) {
                if let Ok(at) = list.binary_search(&n) {
                    list.remove(at);
                }
            }
        }
    }

    /// The numbers listed under any of `keys`, ascending, each once.
    pub fn with_any_key(&self, keys: &[u64]) -> Vec<u32> {
        let mut out: Vec<u32> = keys.iter().filter_map(|k| self.by_key.get(k)).flatten().copied().collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The [`MAX_SCORED`] titles sharing the most word keys with `trigger`
    /// (ties: lower numbers), in ascending number.
    pub fn candidates(&self, trigger: &str) -> Vec<u32> {
        let mut out: Vec<u32> = self.ranked(trigger).into_iter().map(|c| c.0).collect();
        out.sort_unstable();
        out
    }

    /// [`candidates`](Self::candidates) with how many word keys each shares,
    /// strongest first (most shared, then lower number).
    ///
    /// Short key lists (at most [`SHORT_LIST`] titles) are counted in full,
    /// in a dense per-thread array. Long ones (a word in most titles) are
    /// walked together in ascending number, and the walk stops as soon as no
    /// title after it can enter the answer: it can share at most the long
    /// lists' keys, and loses ties to every lower number. So a word every
    /// title has costs [`MAX_SCORED`] steps, not one per title, and ranking
    /// a million triggers against thousands of look-alike titles stays
    /// linear in the triggers. The answer is exactly the full count's.
    pub fn ranked(&self, trigger: &str) -> Vec<(u32, u32)> {
        thread_local! {
            static COUNTS: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        // Each key's list once, with how often the trigger has the key.
        let mut keyed: Vec<(u64, &[u32], u32)> = Vec::new();
        for k in trigger.split_whitespace().filter_map(key) {
            match keyed.iter_mut().find(|x| x.0 == k) {
                Some(x) => x.2 += 1,
                None => keyed.push((k, self.list(k), 1)),
            }
        }
        let lists = keyed.into_iter().filter(|x| !x.1.is_empty()).map(|x| (x.1, x.2));
        let (long, short): (Vec<(&[u32], u32)>, Vec<_>) = lists.partition(|l| l.0.len() > SHORT_LIST);
        let strongest = |a: &(u32, u32), b: &(u32, u32)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
        let mut cands: Vec<(u32, u32)> = COUNTS.with(|counts| {
            let mut counts = counts.borrow_mut();
            let mut cands: Vec<(u32, u32)> = Vec::new();
            for &(list, w) in &short {
                for &i in list {
                    let slot = i as usize;
                    if slot >= counts.len() {
                        counts.resize(slot + 1, 0);
                    }
                    if counts[slot] == 0 {
                        cands.push((i, 0));
                    }
                    counts[slot] += w;
                }
            }
            for c in &mut cands {
                c.1 = std::mem::take(&mut counts[c.0 as usize]);
                // What it shares through the long lists too.
                c.1 += long.iter().filter(|(l, _)| l.binary_search(&c.0).is_ok()).map(|l| l.1).sum::<u32>();
            }
            cands
        });
        if !long.is_empty() {
            cands.sort_unstable_by_key(|c| c.0);
            let from_short = cands.len();
            let ceiling: u32 = long.iter().map(|l| l.1).sum();
            let mut heads = vec![0usize; long.len()];
            // The weakest of the best MAX_SCORED so far (None: fewer than that).
            let mut best: Vec<(u32, u32)> = cands.clone();
            let weakest = |best: &mut Vec<(u32, u32)>| -> Option<(u32, u32)> {
                if best.len() < MAX_SCORED {
                    return None;
                }
                best.select_nth_unstable_by(MAX_SCORED - 1, strongest);
                best.truncate(MAX_SCORED);
                best.iter().copied().max_by(|a, b| strongest(a, b))
            };
            let mut bound = weakest(&mut best);
            // The lowest number at any list's head, in turn.
            while let Some(n) = long.iter().zip(&heads).filter_map(|((l, _), &h)| l.get(h).copied()).min() {
                if let Some((wn, wc)) = bound {
                    // Every title from here on shares at most `ceiling` keys and has a higher number.
                    if wc > ceiling || (wc == ceiling && wn < n) {
                        break;
                    }
                }
                let mut count = 0;
                for ((l, w), h) in long.iter().zip(heads.iter_mut()) {
                    if l.get(*h) == Some(&n) {
                        count += w;
                        *h += 1;
                    }
                }
                if cands[..from_short].binary_search_by_key(&n, |c| c.0).is_ok() {
                    continue; // counted with the short lists
                }
                cands.push((n, count));
                best.push((n, count));
                // Refreshed at MAX_SCORED, then every MAX_SCORED more (a stale bound only stops later).
                if best.len() == MAX_SCORED || best.len() >= 2 * MAX_SCORED {
                    bound = weakest(&mut best);
                }
            }
        }
        if cands.len() > MAX_SCORED {
            cands.select_nth_unstable_by(MAX_SCORED - 1, strongest);
            cands.truncate(MAX_SCORED);
        }
        cands.sort_unstable_by(strongest);
        cands
    }

    fn list(&self, k: u64) -> &[u32] {
        self.by_key.get(&k).map_or(&[][..], Vec::as_slice)
    }
}

/// Key lists up to this many titles are counted in full by [`KeyIndex::ranked`].
pub const SHORT_LIST: usize = 64;

/// How many word keys a title with keys `title_keys` ([`word_keys`]) shares
/// with `trigger`, counted as [`KeyIndex::ranked`] counts them.
pub fn shared_keys(trigger: &str, title_keys: &[u64]) -> u32 {
    trigger.split_whitespace().filter_map(key).filter(|k| title_keys.contains(k)).count() as u32
}

/// An orphan trigger's candidate list as [`KeyIndex::ranked`] gave it: enough
/// to tell, when one title is switched on or off, whether the list changes.
#[derive(Clone, Debug)]
pub struct Ranked(Vec<(u32, u32)>);

impl Ranked {
    pub fn new(ranked: Vec<(u32, u32)>) -> Self {
        Self(ranked)
    }

    /// Whether switching title `n` (sharing `shared` keys with the trigger)
    /// on (`on`) or off changes the list.
    pub fn changed_by(&self, n: u32, shared: u32, on: bool) -> bool {
        if shared == 0 {
            return false;
        }
        let listed = self.0.iter().any(|&(m, _)| m == n);
        if listed || !on {
            return listed;
        }
        // Switched on: it enters when the list has room or it outranks the weakest.
        match self.0.last() {
            Some(&(m, s)) if self.0.len() >= MAX_SCORED => shared > s || (shared == s && n < m),
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drifted_word_still_resembles() {
        assert!(resemblance("review flags unused code", "When Vet Flags Unused Code").is_some());
        assert!(resemblance("review flags unused code", "When Writing Flags").is_none());
        assert!(resemblance("mock test", "When Mock Testing").is_some());
        assert!(resemblance("mock test", "When Mocking Frameworks").is_none());
        // Stop words make no majority (found by review: `working on fixtures` took `Working On
        // Test Structure`); a short word that is not one still counts (`s3 uploads`).
        assert!(resemblance("working on fixtures", "When Working On Test Structure").is_none());
        assert!(resemblance("working on fixtures", "When Working On Fixtures Setup").is_some());
        assert!(resemblance("s3 uploads", "When Handling Uploads to GCS").is_none());
    }

    #[test]
    fn index_finds_the_same_best_candidate() {
        let titles = [(1, "When Vet Flags Unused Code"), (2, "When Writing Flags"), (3, "How to Encode Paths")];
        let mut keys = KeyIndex::default();
        for (i, (_, t)) in titles.iter().enumerate() {
            keys.insert(i as u32, t);
        }
        let ranked = |q: &str| rank(q, keys.candidates(q).into_iter().map(|i| titles[i as usize]), 3);
        assert_eq!(ranked("review flags unused code"), rank("review flags unused code", titles, 3));
        assert!(ranked("zebra").is_empty());
    }

    #[test]
    fn a_candidate_list_knows_which_switches_change_it() {
        let mut keys = KeyIndex::default();
        let titles: Vec<String> = (0..40).map(|i| format!("When Merge Worktree {i}")).collect();
        for (i, t) in titles.iter().enumerate().skip(1) {
            keys.insert(i as u32, t);
        }
        let trigger = "merge worktree";
        let list = Ranked::new(keys.ranked(trigger));
        let shared = shared_keys(trigger, &word_keys(&titles[0]).collect::<Vec<_>>());
        assert_eq!(shared, 2);
        // Title 0 ties with all listed ones and has the lowest number: switching it on enters the list.
        assert!(list.changed_by(0, shared, true));
        keys.insert(0, &titles[0]);
        assert!(keys.candidates(trigger).contains(&0));
        // Title 39 is not among the 16 listed: switching it off changes nothing.
        let list = Ranked::new(keys.ranked(trigger));
        assert!(!list.changed_by(39, shared, false));
        assert!(list.changed_by(0, shared, false), "a listed title leaves");
        assert!(!list.changed_by(0, 0, true), "a title sharing no key never matters");
    }

    /// The walk over long key lists stops early but answers exactly what a
    /// full count answers, on titles where most words are in most titles.
    #[test]
    fn early_stopping_ranking_equals_the_full_count() {
        let naive = |keys: &KeyIndex, trigger: &str| -> Vec<(u32, u32)> {
            let mut counts: rustc_hash::FxHashMap<u32, u32> = Default::default();
            for k in trigger.split_whitespace().filter_map(key) {
                for &i in keys.list(k) {
                    *counts.entry(i).or_default() += 1;
                }
            }
            let mut v: Vec<(u32, u32)> = counts.into_iter().collect();
            v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            v.truncate(MAX_SCORED);
            v
        };
        let words = ["mock", "tests", "writing", "merge", "paths", "encode", "review", "flags", "alpha", "beta"];
        let mut seed = 7u64;
        let mut next = move |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        let mut keys = KeyIndex::default();
        for i in 0..3000u32 {
            // Most titles hold the first three words; the rest vary.
            let mut t = String::from("When");
            for (j, w) in words.iter().enumerate() {
                if (j < 3 && next(10) > 0) || next(4) == 0 {
                    t.push(' ');
                    t.push_str(w);
                }
            }
            t.push_str(&format!(" item{}", next(50)));
            keys.insert(i, &t);
        }
        for _ in 0..300 {
            let mut q = String::new();
            for _ in 0..1 + next(5) {
                q.push_str(words[next(words.len())]);
                q.push(' ');
            }
            if next(2) == 0 {
                q.push_str(&format!("item{}", next(50)));
            }
            assert_eq!(keys.ranked(&q), naive(&keys, &q), "{q:?}");
        }
    }

    #[test]
    fn ranking_prefers_more_matching_words() {
        let r =
            rank("vet flags unused code", [(1, "When Vet Flags Unused Code"), (2, "When Flags Unused Code Paths")], 2);
        assert_eq!(r[0].0, 1);
    }
}
