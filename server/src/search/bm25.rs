//! BM25 scoring of entries for free text (../shared/spec/retrieval.md): the word evidence of `search::recall`.
//!
//! A small module of ours rather than a dependency: the index is postings
//! lists built once per workspace state from the parsed workspace (no IO,
//! no tokenizer crates), with each distinct word stemmed once. One document per entry,
//! three fields weighted as in the design: heading title 5.0, trigger and
//! extras 3.0, section body 1.0 (its first 2,000 bytes). k1 = 1.2, b = 0.75,
//! IDF over the entries. Tokens: lowercase alphanumeric runs, stop words and
//! one-character tokens dropped, Snowball English stems.
//!
//! No thresholds here: `search::recall` turns scores and shared words into
//! a calibrated confidence, and its callers choose where to speak.

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

const STOP: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "for", "from", "has", "have", "how", "i", "in", "is", "it",
    "its", "of", "on", "or", "should", "that", "the", "this", "to", "was", "we", "what", "when", "where", "which",
    "while", "who", "why", "will", "with", "you", "your", "not", "no", "can", "into", "than", "then", "there", "use",
];

/// True for a word ranking ignores (lowercase input): a stop word or a single character.
pub fn is_stop(word: &str) -> bool {
    word.chars().nth(1).is_none() || STOP.contains(&word)
}

/// Tokens of `s`: lowercase, stop words and 1-character tokens dropped, stemmed.
pub fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token(s, &mut HashMap::default(), |t| out.push(t.to_string()));
    out
}

/// Calls `f` with each token of `s`; `stems` memoises what each word gives
/// (its stem, or None for a stop word or a single character), so a word seen
/// before costs one lookup (a workspace's bodies repeat a few thousand words
/// many times over).
fn for_each_token(s: &str, stems: &mut HashMap<String, Option<String>>, mut f: impl FnMut(&str)) {
    let lower = s.to_lowercase();
    for w in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        match stems.get(w) {
            Some(Some(stem)) => f(stem),
            Some(None) => {}
            None => {
                let stem = (!is_stop(w)).then(|| stem_phrase(w));
                if let Some(stem) = &stem {
                    f(stem);
                }
                stems.insert(w.to_string(), stem);
            }
        }
    }
}

/// The index: postings per term, so a query touches only the entries that contain its terms.
#[derive(Debug, Default)]
pub struct Bm25 {
    /// Term → its number.
    terms: HashMap<String, u32>,
    /// Term number → the term.
    names: Vec<String>,
    /// Per term number: (document, weighted term frequency).
    postings: Vec<Vec<(u32, f64)>>,
    /// Per document: its entry and weighted length.
    docs: Vec<(EntryId, f64)>,
    /// Per document: the distinct terms of its heading title, trigger and
    /// extras (what the decision is called, as opposed to what its body says).
    keys: Vec<Vec<u32>>,
    avg_len: f64,
}

impl Bm25 {
    /// Builds the index over every entry that binds a heading. A drifted
    /// (orphan) entry is left out: the heading it resembles is a guess, and
    /// ranking it costs a resemblance search per orphan; the exact and
    /// letters-in-order tiers still find it by its trigger. From
    /// [`crate::model::Work::Bm25`]'s threshold on, the two halves are tokenized on two
    /// threads and merged (the same index, document order kept).
    pub fn build(ws: &Workspace) -> Self {
        let n = ws.bindings().entries.len();
        let mut idx = if crate::model::Work::Bm25.split(ws, n) {
            let (mut a, b) = crate::model::join(|| Self::part(ws, 0..n / 2), || Self::part(ws, n / 2..n));
            a.append(b);
            a
        } else {
            Self::part(ws, 0..n)
        };
        idx.avg_len =
            if idx.docs.is_empty() { 1.0 } else { idx.docs.iter().map(|d| d.1).sum::<f64>() / idx.docs.len() as f64 };
        idx
    }

    /// The index of the entries in `range` (without `avg_len`).
    fn part(ws: &Workspace, range: std::ops::Range<usize>) -> Self {
        let b = ws.bindings();
        let mut idx = Bm25::default();
        // Word (lowercase) → its term number, or None for a stop word.
        let mut words: HashMap<String, Option<u32>> = HashMap::default();
        let mut tf: HashMap<u32, f64> = HashMap::default();
        for i in range {
            let e = &b.entries[i];
            let Some(hid) = e.heading else { continue };
            let Some(h) = ws.heading(hid) else { continue };
            let body = crate::text::cut(ws.section_body(hid), BODY_BYTES);
            tf.clear();
            let mut len = 0.0;
            let doc = idx.docs.len() as u32;
            let mut keys: Vec<u32> = Vec::new();
            let fields: [(f64, &str); 4] =
                [(W_TITLE, &h.title), (W_TRIGGER, &e.trigger), (W_TRIGGER, &e.extras.join(" ")), (W_BODY, body)];
            for (w, text) in fields {
                let lower = text.to_lowercase();
                for word in lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
                    // Each distinct word is stemmed and numbered once; later it costs one lookup.
                    let id = match words.get(word) {
                        Some(&id) => id,
                        None => {
                            let id = (!is_stop(word)).then(|| idx.term_id(&stem_phrase(word)));
                            words.insert(word.to_string(), id);
                            id
                        }
                    };
                    let Some(id) = id else { continue };
                    *tf.entry(id).or_default() += w;
                    len += w;
                    if w > W_BODY && !keys.contains(&id) {
                        keys.push(id);
                    }
                }
            }
            idx.keys.push(keys);
            idx.postings.resize_with(idx.terms.len(), Vec::new);
            for (&term, &f) in &tf {
                idx.postings[term as usize].push((doc, f));
            }
            idx.docs.push((EntryId(i as u32), len));
        }
        idx
    }

    /// The number of a term, given one when first seen (a term is copied once, not per occurrence).
    fn term_id(&mut self, t: &str) -> u32 {
        match self.terms.get(t) {
            Some(&id) => id,
            None => {
                let id = self.terms.len() as u32;
                self.terms.insert(t.to_string(), id);
                self.names.push(t.to_string());
                id
            }
        }
    }

    /// Appends the documents of `other` (built over later entries) after this index's.
    fn append(&mut self, other: Bm25) {
        let offset = self.docs.len() as u32;
        let mut remap = vec![0u32; other.terms.len()];
        for (t, id) in other.terms {
            remap[id as usize] = self.term_id(&t);
        }
        self.postings.resize_with(self.terms.len(), Vec::new);
        for (id, postings) in other.postings.into_iter().enumerate() {
            let target = &mut self.postings[remap[id] as usize];
            target.extend(postings.into_iter().map(|(doc, f)| (doc + offset, f)));
        }
        self.docs.extend(other.docs);
        self.keys.extend(other.keys.into_iter().map(|k| k.into_iter().map(|t| remap[t as usize]).collect()));
    }

    /// The index's parts, for [`super::snapshot::encode`]: terms, postings, documents, name terms, average length.
    #[allow(clippy::type_complexity)]
    pub fn parts(&self) -> (&[String], &[Vec<(u32, f64)>], &[(EntryId, f64)], &[Vec<u32>], f64) {
        (&self.names, &self.postings, &self.docs, &self.keys, self.avg_len)
    }

    /// An index from [`Bm25::parts`] (as [`super::snapshot::decode`] reads
    /// them); None when they do not fit together.
    pub fn from_parts(
        names: Vec<String>,
        postings: Vec<Vec<(u32, f64)>>,
        docs: Vec<(EntryId, f64)>,
        keys: Vec<Vec<u32>>,
        avg_len: f64,
    ) -> Option<Self> {
        let terms: HashMap<String, u32> = names.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        (terms.len() == names.len() && postings.len() == names.len() && keys.len() == docs.len()).then_some(Bm25 {
            terms,
            names,
            postings,
            docs,
            keys,
            avg_len,
        })
    }

    /// The number of documents (entries that resolve to a heading).
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// True when no entry resolves to a heading.
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The term number of a token (as [`tokens`] gives it), if any document has it.
    pub fn term(&self, token: &str) -> Option<u32> {
        self.terms.get(token).copied()
    }

    /// Inverse document frequency of a term (BM25's, always positive).
    pub fn idf(&self, term: u32) -> f64 {
        let df = self.postings.get(term as usize).map_or(0, Vec::len) as f64;
        self.idf_of(df)
    }

    /// The idf a term no document has: the most informative a word can be here.
    pub fn idf_unseen(&self) -> f64 {
        self.idf_of(0.0)
    }

    fn idf_of(&self, df: f64) -> f64 {
        let n = self.docs.len() as f64;
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// A document's entry.
    pub fn entry(&self, doc: u32) -> EntryId {
        self.docs[doc as usize].0
    }

    /// The document of an entry (documents are in entry order), if it has one.
    pub fn doc_of(&self, entry: EntryId) -> Option<u32> {
        self.docs.binary_search_by(|d| d.0.cmp(&entry)).ok().map(|i| i as u32)
    }

    /// A term by its number ("" for an unknown number).
    pub fn name(&self, term: u32) -> &str {
        self.names.get(term as usize).map_or("", String::as_str)
    }

    /// A document's key terms: those of its heading title, trigger and extras.
    pub fn keys(&self, doc: u32) -> &[u32] {
        &self.keys[doc as usize]
    }

    /// BM25 scores of every document that has one of `terms` (distinct term
    /// numbers), with the terms each has, unsorted: the raw material of
    /// [`super::recall`], which applies its own thresholds.
    pub fn score_terms(&self, terms: &[u32]) -> Vec<(u32, f64, smallvec::SmallVec<[u32; 8]>)> {
        let mut acc: HashMap<u32, (f64, smallvec::SmallVec<[u32; 8]>)> = HashMap::default();
        for &term in terms {
            let Some(postings) = self.postings.get(term as usize) else { continue };
            let idf = self.idf_of(postings.len() as f64);
            for &(doc, f) in postings {
                let len = self.docs[doc as usize].1;
                let a = acc.entry(doc).or_default();
                a.0 += idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * len / self.avg_len));
                a.1.push(term);
            }
        }
        acc.into_iter().map(|(doc, (score, has))| (doc, score, has)).collect()
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
