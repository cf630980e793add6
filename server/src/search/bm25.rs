//! BM25 scoring of entries for free text (../shared/spec/retrieval.md): the word evidence of `search::recall`.
//!
//! A small module of ours rather than a dependency: the index is postings
//! lists built from the parsed workspace (no IO, no tokenizer crates), one
//! segment per decision file ([`segment`]) shared by every state where that
//! file and its entries are unchanged, with each distinct word stemmed once
//! ([`terms`]), or read in place from a snapshot ([`mapped`]). One document per entry,
//! three fields weighted as in the design: heading title 5.0, trigger and
//! extras 3.0, section body 1.0 (its first 2,000 bytes). k1 = 1.2, b = 0.75,
//! IDF over the entries. Tokens: lowercase alphanumeric runs, read with
//! one spelling for what software writing says several ways
//! ([`synonyms`]), stop words and one-character tokens dropped, Snowball
//! English stems.
//!
//! No thresholds here: `search::recall` turns scores and shared words into
//! a calibrated confidence, and its callers choose where to speak.

use std::sync::{Arc, Mutex};

use rustc_hash::FxHashMap as HashMap;

use super::words::stem_phrase;
use crate::model::{EntryId, FileId, Workspace};

pub mod mapped;
mod segment;
pub mod synonyms;
mod terms;
use mapped::Mapped;
use segment::{Job, Segment};
use terms::{Table, Terms};

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
    synonyms::each_word(&lower, synonyms::Side::Query, |w| match stems.get(w) {
        Some(Some(stem)) => f(stem),
        Some(None) => {}
        None => {
            let stem = (!is_stop(w)).then(|| stem_phrase(w));
            if let Some(stem) = &stem {
                f(stem);
            }
            stems.insert(w.to_string(), stem);
        }
    });
}

/// The index of one workspace state: one [`Segment`] per decision file,
/// shared with every other state where that file and the entries bound to
/// its headings are unchanged. Documents are numbered segment after segment
/// (a segment's in its entries' order), so a term's postings over the
/// segments come out in document order.
#[derive(Debug, Default)]
pub struct Bm25 {
    terms: Arc<Terms>,
    segments: Vec<Arc<Segment>>,
    /// Per segment: the number of its first document.
    base: Vec<u32>,
    /// Per document: its entry and its segment.
    docs: Vec<(EntryId, u32)>,
    /// Per entry: its document (u32::MAX: none).
    doc_of: Vec<u32>,
    avg_len: f64,
    /// Document frequencies computed so far (a term's is summed over the segments).
    df: Mutex<HashMap<u32, u32>>,
    /// Read in place from a snapshot instead (no segments then).
    mapped: Option<Mapped>,
}

/// What a state's index leaves for the next state's (see [`Workspace::carried`]).
#[derive(Debug, Default)]
struct Carried {
    terms: Arc<Terms>,
    /// Per decision file, its segment.
    segments: HashMap<FileId, Arc<Segment>>,
    /// How many terms the table held after its first (cold) build.
    cold_terms: usize,
}

/// Terms a table may always grow by before it is started afresh.
const MIN_TERMS: usize = 50_000;

impl Bm25 {
    /// Builds the index over every entry that binds a heading. A drifted
    /// (orphan) entry is left out: the heading it resembles is a guess, and
    /// ranking it costs a resemblance search per orphan; the exact and
    /// letters-in-order tiers still find it by its trigger.
    ///
    /// A decision file whose segment the last state of this workspace built
    /// (the same version of the file, the same entries bound to the same
    /// headings) reuses it: after an edit only the edited file's segment is
    /// built. A cold build of [`crate::model::Work::Bm25`]'s threshold or
    /// more tokenizes half the files on a second thread (the same index).
    pub fn build(ws: &Workspace) -> Self {
        let b = ws.bindings();
        // A table grown to more than twice what the last cold build numbered
        // (words typed and gone) starts afresh: one cold build, then bounded again.
        let carried = ws.carried::<Carried>().filter(|c| c.terms.len() <= 2 * c.cold_terms + MIN_TERMS);
        let terms = carried.as_ref().map(|c| c.terms.clone()).unwrap_or_default();
        // Each entry's file slot and index in it; the files' jobs.
        let mut jobs: Vec<Job<'_>> = Vec::new();
        let mut slot_of: HashMap<FileId, u32> = HashMap::default();
        let mut placed: Vec<(EntryId, u32, u32)> = Vec::with_capacity(b.entries.len());
        for (i, e) in b.entries.iter().enumerate() {
            let Some(hid) = e.heading else { continue };
            if ws.heading(hid).is_none() {
                continue;
            }
            let slot = *slot_of.entry(hid.file).or_insert_with(|| {
                jobs.push(Job { file: hid.file, docs: Vec::new() });
                jobs.len() as u32 - 1
            });
            let job = &mut jobs[slot as usize];
            placed.push((EntryId(i as u32), slot, job.docs.len() as u32));
            job.docs.push((hid, e));
        }
        let files: Vec<FileId> = jobs.iter().map(|j| j.file).collect();
        // Reuse what still matches; build the rest.
        let mut segments: Vec<Option<Arc<Segment>>> = vec![None; jobs.len()];
        let mut todo: Vec<(usize, Job<'_>)> = Vec::new();
        for (slot, job) in jobs.into_iter().enumerate() {
            match carried.as_ref().and_then(|c| c.segments.get(&files[slot])).filter(|s| s.built_from(ws, &job)) {
                Some(s) => segments[slot] = Some(s.clone()),
                None => todo.push((slot, job)),
            }
        }
        let entries: usize = todo.iter().map(|(_, j)| j.docs.len()).sum();
        for (slot, seg) in build_segments(ws, &terms, todo, entries) {
            segments[slot] = Some(Arc::new(seg));
        }
        let segments: Vec<Arc<Segment>> = segments.into_iter().map(Option::unwrap_or_default).collect();
        let idx = Self::assemble(terms, segments, placed);
        let segments = files.iter().zip(&idx.segments).map(|(&f, s)| (f, s.clone())).collect();
        let cold_terms = carried.map_or_else(|| idx.terms.len(), |c| c.cold_terms);
        ws.carry(Arc::new(Carried { terms: idx.terms.clone(), segments, cold_terms }));
        idx
    }

    /// The index of `segments`, its documents `placed` (entry, segment, index there) in entry order.
    fn assemble(terms: Arc<Terms>, segments: Vec<Arc<Segment>>, placed: Vec<(EntryId, u32, u32)>) -> Self {
        let mut base = Vec::with_capacity(segments.len());
        let mut n = 0u32;
        for seg in &segments {
            base.push(n);
            n += seg.lens.len() as u32;
        }
        let mut docs = vec![(EntryId(0), 0u32); n as usize];
        let mut doc_of = vec![u32::MAX; placed.last().map_or(0, |p| p.0 .0 as usize + 1)];
        // Summed in entry order, as every build of the same state sums them.
        let mut total = 0.0;
        for &(e, s, l) in &placed {
            let doc = base[s as usize] + l;
            docs[doc as usize] = (e, s);
            doc_of[e.0 as usize] = doc;
            total += segments[s as usize].lens[l as usize];
        }
        let avg_len = if placed.is_empty() { 1.0 } else { total / placed.len() as f64 };
        Bm25 { terms, segments, base, docs, doc_of, avg_len, df: Mutex::default(), mapped: None }
    }

    /// A document's segment and its index there.
    fn locate(&self, doc: u32) -> (&Segment, usize) {
        let s = self.docs[doc as usize].1 as usize;
        (&self.segments[s], (doc - self.base[s]) as usize)
    }

    /// The index's parts, for [`super::snapshot::encode`]: terms, postings
    /// (per term: document, weight, in document order), documents (entry,
    /// length), name terms per document, average length.
    #[allow(clippy::type_complexity)]
    pub fn parts(&self) -> (Vec<Arc<str>>, Vec<Vec<(u32, f64)>>, Vec<(EntryId, f64)>, Vec<Vec<u32>>, f64) {
        if let Some(m) = &self.mapped {
            let terms = 0..m.terms() as u32;
            let docs = 0..m.documents() as u32;
            return (
                terms.clone().map(|t| Arc::from(m.name(t))).collect(),
                terms.map(|t| m.postings(t).collect()).collect(),
                docs.clone().map(|d| (m.entry(d), m.doc_len(d))).collect(),
                docs.map(|d| m.keys(d)).collect(),
                m.avg_len(),
            );
        }
        let names: Vec<Arc<str>> = self.terms.read().names().to_vec();
        let mut postings: Vec<Vec<(u32, f64)>> = vec![Vec::new(); names.len()];
        for (seg, &base) in self.segments.iter().zip(&self.base) {
            for (&term, &(start, len)) in &seg.slots {
                let list = &mut postings[term as usize];
                list.extend(seg.postings[start as usize..(start + len) as usize].iter().map(|&(l, f)| (base + l, f)));
            }
        }
        let docs = (0..self.docs.len() as u32)
            .map(|d| {
                let (seg, l) = self.locate(d);
                (self.docs[d as usize].0, seg.lens[l])
            })
            .collect();
        let keys = (0..self.docs.len() as u32).map(|d| self.keys(d).to_vec()).collect();
        (names, postings, docs, keys, self.avg_len)
    }

    /// The index a snapshot's payload holds (`bytes` from `at` on, laid out
    /// as [`mapped`] says), read in place, for a workspace of `entries`
    /// entries; None when the payload does not fit the layout.
    pub fn mapped(bytes: mapped::Bytes, at: usize, entries: usize) -> Option<Self> {
        Some(Bm25 { mapped: Some(Mapped::open(bytes, at, entries)?), ..Bm25::default() })
    }

    /// The number of documents (entries that resolve to a heading).
    pub fn len(&self) -> usize {
        self.mapped.as_ref().map_or(self.docs.len(), Mapped::documents)
    }

    /// True when no entry resolves to a heading.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many segments (decision files with documents) it has.
    #[cfg(test)]
    pub(crate) fn segments(&self) -> usize {
        self.segments.len()
    }

    /// How many segments (decision files with documents) this index shares
    /// with `other`: what a rebuild after an edit reused.
    #[cfg(test)]
    pub(crate) fn shared_segments(&self, other: &Bm25) -> usize {
        self.segments.iter().filter(|s| other.segments.iter().any(|o| Arc::ptr_eq(s, o))).count()
    }

    /// The term number of a token (as [`tokens`] gives it), if any document has it.
    pub fn term(&self, token: &str) -> Option<u32> {
        if let Some(m) = &self.mapped {
            return m.term(token).filter(|&t| m.df(t) > 0);
        }
        self.terms.read().get(token).filter(|&t| self.df(t) > 0)
    }

    /// Inverse document frequency of a term (BM25's, always positive).
    pub fn idf(&self, term: u32) -> f64 {
        self.idf_of(self.df(term) as f64)
    }

    /// How many documents have `term` (summed over the segments once per state).
    fn df(&self, term: u32) -> u32 {
        if let Some(m) = &self.mapped {
            return m.df(term);
        }
        let lock = || self.df.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&n) = lock().get(&term) {
            return n;
        }
        let n = self.segments.iter().map(|s| s.postings(term).len() as u32).sum();
        lock().insert(term, n);
        n
    }

    /// The idf a term no document has: the most informative a word can be here.
    pub fn idf_unseen(&self) -> f64 {
        self.idf_of(0.0)
    }

    fn idf_of(&self, df: f64) -> f64 {
        let n = self.len() as f64;
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// A document's entry.
    pub fn entry(&self, doc: u32) -> EntryId {
        if let Some(m) = &self.mapped {
            return m.entry(doc);
        }
        self.docs[doc as usize].0
    }

    /// The document of an entry, if it has one.
    pub fn doc_of(&self, entry: EntryId) -> Option<u32> {
        if let Some(m) = &self.mapped {
            return m.doc_of(entry);
        }
        self.doc_of.get(entry.0 as usize).copied().filter(|&d| d != u32::MAX)
    }

    /// A term by its number ("" for an unknown number).
    pub fn name(&self, term: u32) -> Arc<str> {
        if let Some(m) = &self.mapped {
            return Arc::from(m.name(term));
        }
        self.terms.read().name(term).cloned().unwrap_or_else(|| Arc::from(""))
    }

    /// A document's key terms: those of its heading title, trigger and extras.
    pub fn keys(&self, doc: u32) -> std::borrow::Cow<'_, [u32]> {
        if let Some(m) = &self.mapped {
            return m.keys(doc).into();
        }
        let (seg, l) = self.locate(doc);
        (&*seg.keys[l]).into()
    }

    /// BM25 scores of every document that has one of `terms` (distinct term
    /// numbers), unsorted: the raw material of [`super::recall`], which
    /// applies its own thresholds ([`Bm25::has`] says which terms a document has).
    pub fn score_terms(&self, terms: &[u32]) -> Vec<(u32, f64)> {
        // Dense per document (a common word can reach most documents: no
        // hash per posting), and only the documents reached listed.
        let (mut score, mut reached, mut out): (Vec<f64>, Vec<bool>, Vec<u32>) = Default::default();
        let mut add = |doc: u32, w: f64| {
            if score.is_empty() {
                (score, reached) = (vec![0.0; self.len()], vec![false; self.len()]);
            }
            if !std::mem::replace(&mut reached[doc as usize], true) {
                out.push(doc);
            }
            score[doc as usize] += w;
        };
        let weight =
            |idf: f64, f: f64, len: f64| idf * f * (K1 + 1.0) / (f + K1 * (1.0 - B + B * len / self.avg_len()));
        for &term in terms {
            let idf = self.idf(term);
            if let Some(m) = &self.mapped {
                for (doc, f) in m.postings(term) {
                    add(doc, weight(idf, f, m.doc_len(doc)));
                }
                continue;
            }
            for (seg, &base) in self.segments.iter().zip(&self.base) {
                for &(l, f) in seg.postings(term) {
                    add(base + l, weight(idf, f, seg.lens[l as usize]));
                }
            }
        }
        out.into_iter().map(|doc| (doc, score[doc as usize])).collect()
    }

    /// Which of `terms` document `doc` has, in their order.
    pub fn has(&self, doc: u32, terms: &[u32]) -> smallvec::SmallVec<[u32; 8]> {
        if doc as usize >= self.len() {
            return smallvec::SmallVec::new();
        }
        let contains = |term: u32| match &self.mapped {
            Some(m) => m.contains(term, doc),
            None => {
                let (seg, l) = self.locate(doc);
                seg.postings(term).binary_search_by_key(&(l as u32), |p| p.0).is_ok()
            }
        };
        terms.iter().copied().filter(|&t| contains(t)).collect()
    }

    fn avg_len(&self) -> f64 {
        self.mapped.as_ref().map_or(self.avg_len, Mapped::avg_len)
    }
}

/// Builds the segments of `todo` (slot, job) with the shared `terms`: on
/// two threads, each with a table of its own merged after, when it is a cold
/// build (nothing numbered yet) of `entries` enough; else with the shared
/// table's lock held.
fn build_segments(ws: &Workspace, terms: &Terms, todo: Vec<(usize, Job<'_>)>, entries: usize) -> Vec<(usize, Segment)> {
    let one = |todo: Vec<(usize, Job<'_>)>, table: &mut Table| -> Vec<(usize, Segment)> {
        todo.into_iter().map(|(slot, job)| (slot, Segment::build(ws, job, table))).collect()
    };
    if !(crate::model::Work::Bm25.split(ws, entries) && terms.is_empty()) {
        return one(todo, &mut terms.write());
    }
    // Halves by entries, files in order (so the numbering follows the files).
    let mut first = Vec::new();
    let mut second = Vec::new();
    let mut seen = 0;
    for item in todo {
        seen += item.1.docs.len();
        if seen <= entries / 2 || first.is_empty() {
            first.push(item)
        } else {
            second.push(item)
        }
    }
    let ((mut a, ta), (mut b, tb)) = crate::model::join(
        || {
            let mut t = Table::default();
            (one(first, &mut t), t)
        },
        || {
            let mut t = Table::default();
            (one(second, &mut t), t)
        },
    );
    // Merged into the shared table under its lock (another build may have
    // numbered terms meanwhile), each half renumbered unless it kept its numbers.
    let mut shared = terms.write();
    for (half, table) in [(&mut a, ta), (&mut b, tb)] {
        let remap = shared.absorb(table);
        if remap.iter().enumerate().any(|(i, &t)| t != i as u32) {
            for (_, seg) in half.iter_mut() {
                seg.remap(&remap);
            }
        }
    }
    drop(shared);
    a.append(&mut b);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_drop_stop_words_and_stem() {
        assert_eq!(tokens("When Patching the Mocks, correctly!"), ["patch", "mock", "correct"]);
    }
}
