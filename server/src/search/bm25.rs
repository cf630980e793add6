//! BM25 ranking of entries for reworded queries (../shared/spec/retrieval.md): the resolver's fallback.
//!
//! A small module of ours rather than a dependency: the index is a few
//! hash maps built from the parsed workspace (no IO, no tokenizer crates),
//! and only built when fuzzy matching found nothing. One document per entry,
//! three fields weighted as in the design: heading title 5.0, trigger and
//! extras 3.0, section body 1.0 (its first 2,000 bytes). k1 = 1.2, b = 0.75,
//! IDF over the entries. Tokens: lowercase alphanumeric runs, stop words and
//! one-character tokens dropped, Snowball English stems; a query keeps at
//! most 15 tokens.
//!
//! Thresholds (calibrated on server/tests/data/resolve-devset.tsv, see
//! docs/resolver.md): a best score under [`MIN_SCORE`] is "No match"; a hit
//! that matches fewer than [`MIN_MATCHED`] of the query's distinct tokens
//! (at most all of them) is "No match"; suggestions must reach
//! [`RELATIVE`] × the best score.

use rustc_hash::FxHashMap as HashMap;

use super::words::stem_phrase;
use crate::model::{EntryId, Workspace};

pub const K1: f64 = 1.2;
pub const B: f64 = 0.75;
pub const W_TITLE: f64 = 5.0;
pub const W_TRIGGER: f64 = 3.0;
pub const W_BODY: f64 = 1.0;
/// Bytes of a section body indexed.
pub const BODY_BYTES: usize = 2000;
/// Most query tokens used.
pub const MAX_QUERY_TOKENS: usize = 15;
/// Absolute threshold on the best score.
pub const MIN_SCORE: f64 = 6.0;
/// Distinct query tokens the best document must contain (capped at the query's own count).
pub const MIN_MATCHED: usize = 2;
/// Relative threshold for listing further results.
pub const RELATIVE: f64 = 0.6;

const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "has", "have", "how", "i", "in", "is", "it",
    "its", "of", "on", "or", "should", "that", "the", "this", "to", "was", "we", "what", "when", "where", "which",
    "while", "who", "why", "will", "with", "you", "your", "not", "no", "can", "into", "than", "then", "there", "use",
];

/// Tokens of `s`: lowercase, stop words and 1-character tokens dropped, stemmed.
pub fn tokens(s: &str) -> Vec<String> {
    let lower = s.to_lowercase();
    let words: Vec<&str> =
        lower.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() > 1 && !STOP.contains(w)).collect();
    stem_phrase(&words.join(" ")).split_whitespace().map(str::to_string).collect()
}

/// The index: per entry, weighted term frequencies and length.
#[derive(Debug, Default)]
pub struct Bm25 {
    docs: Vec<(EntryId, HashMap<String, f64>, f64)>,
    df: HashMap<String, usize>,
    avg_len: f64,
}

impl Bm25 {
    /// Builds the index over every entry that resolves to a heading.
    pub fn build(ws: &Workspace) -> Self {
        let b = ws.bindings();
        let mut idx = Bm25::default();
        for (i, e) in b.entries.iter().enumerate() {
            let Some(hid) = super::triggers::entry_target(ws, e) else { continue };
            let Some(h) = ws.heading(hid) else { continue };
            let body = ws.file(hid.file).map_or("", |f| f.text.get(h.range.end..h.section.end).unwrap_or(""));
            let mut cut = body.len().min(BODY_BYTES);
            while !body.is_char_boundary(cut) {
                cut -= 1;
            }
            let mut tf: HashMap<String, f64> = HashMap::default();
            let mut len = 0.0;
            let fields: [(f64, String); 3] = [
                (W_TITLE, h.title.clone()),
                (W_TRIGGER, format!("{} {}", e.trigger, e.extras.join(" "))),
                (W_BODY, body[..cut].to_string()),
            ];
            for (w, text) in fields {
                for t in tokens(&text) {
                    *tf.entry(t).or_default() += w;
                    len += w;
                }
            }
            for t in tf.keys() {
                *idx.df.entry(t.clone()).or_default() += 1;
            }
            idx.docs.push((EntryId(i as u32), tf, len));
        }
        idx.avg_len =
            if idx.docs.is_empty() { 1.0 } else { idx.docs.iter().map(|d| d.2).sum::<f64>() / idx.docs.len() as f64 };
        idx
    }

    /// Entries ranked for `query`, best first, with the absolute, coverage and relative thresholds applied.
    pub fn rank(&self, query: &str, limit: usize) -> Vec<(EntryId, f64)> {
        let mut q = tokens(query);
        q.sort();
        q.dedup();
        q.truncate(MAX_QUERY_TOKENS);
        if q.is_empty() {
            return Vec::new();
        }
        let n = self.docs.len() as f64;
        let mut scored: Vec<(EntryId, f64, usize)> = self
            .docs
            .iter()
            .filter_map(|(id, tf, len)| {
                let mut score = 0.0;
                let mut matched = 0;
                for t in &q {
                    let Some(&f) = tf.get(t) else { continue };
                    matched += 1;
                    let df = self.df.get(t).copied().unwrap_or(0) as f64;
                    let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                    score += idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * len / self.avg_len));
                }
                (matched > 0).then_some((*id, score, matched))
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let Some(&(_, best, matched)) = scored.first() else { return Vec::new() };
        if best < MIN_SCORE || matched < MIN_MATCHED.min(q.len()) {
            return Vec::new();
        }
        scored.into_iter().filter(|s| s.1 >= RELATIVE * best).take(limit).map(|(id, s, _)| (id, s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_drop_stop_words_and_stem() {
        assert_eq!(tokens("When Patching the Mocks, correctly!"), ["patch", "mock", "correct"]);
    }
}
