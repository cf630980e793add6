//! One decision file's BM25 documents (the entries bound to its headings): built from that file alone, shared by every state where it is unchanged.

use std::hash::Hasher;
use std::sync::{Arc, Weak};

use rustc_hash::FxHashMap as HashMap;

use super::terms::Table;
use super::{BODY_BYTES, W_BODY, W_TITLE, W_TRIGGER};
use crate::model::bind::EntryInfo;
use crate::model::{FileId, HeadingId, SourceFile, Workspace};

/// The documents of one decision file, in the order of their entries.
#[derive(Debug, Default)]
pub struct Segment {
    /// The version of the file the documents were built from (None: read
    /// from a snapshot), held weakly (see `Workspace::is_version`).
    pub(super) file: Option<(FileId, Weak<SourceFile>)>,
    /// What else they were built from: per document, its heading's index
    /// in the file and a hash of its entry's trigger and extras.
    pub(super) sig: Vec<(u32, u64)>,
    /// Per document: its weighted length.
    pub(super) lens: Vec<f64>,
    /// Per document: the distinct terms of its heading title, trigger and
    /// extras (what the decision is called, as opposed to what its body says).
    pub(super) keys: Vec<Box<[u32]>>,
    /// Term → its postings' range in `postings`.
    pub(super) slots: HashMap<u32, (u32, u32)>,
    /// (document, weighted term frequency), grouped by term.
    pub(super) postings: Vec<(u32, f64)>,
}

/// The documents one segment is built from: per entry, its heading.
pub(super) struct Job<'a> {
    pub file: FileId,
    pub docs: Vec<(HeadingId, &'a EntryInfo)>,
}

/// What a segment's document was built from, besides its file's text.
pub(super) fn sig(h: HeadingId, e: &EntryInfo) -> (u32, u64) {
    let mut hash = rustc_hash::FxHasher::default();
    hash.write(e.trigger.as_bytes());
    for x in &e.extras {
        hash.write_u8(0xff);
        hash.write(x.as_bytes());
    }
    (h.idx, hash.finish())
}

impl Segment {
    /// The postings of `term`.
    pub(super) fn postings(&self, term: u32) -> &[(u32, f64)] {
        self.slots.get(&term).map_or(&[], |&(start, len)| &self.postings[start as usize..(start + len) as usize])
    }

    /// Whether this segment was built from `job` in `ws` (same file version, same headings and entries).
    pub(super) fn built_from(&self, ws: &Workspace, job: &Job<'_>) -> bool {
        let same_file = self.file.as_ref().is_some_and(|(id, v)| *id == job.file && ws.is_version(*id, v));
        same_file
            && self.sig.len() == job.docs.len()
            && job.docs.iter().zip(&self.sig).all(|(&(h, e), s)| sig(h, e) == *s)
    }

    /// Builds the documents of `job`, numbering terms in `table`.
    pub(super) fn build(ws: &Workspace, job: Job<'_>, table: &mut Table) -> Segment {
        let version = ws.file_arc(job.file).map(|a| (job.file, Arc::downgrade(a)));
        let mut seg = Segment { file: version, ..Segment::default() };
        let mut triples: Vec<(u32, u32, f64)> = Vec::new();
        let mut tf: HashMap<u32, f64> = HashMap::default();
        for (doc, &(hid, e)) in job.docs.iter().enumerate() {
            // (A heading that is gone would be an empty document: `build` never asks for one.)
            let (title, body) = ws.heading(hid).map_or(("", ""), |h| (h.title.as_str(), ws.section_body(hid)));
            let body = crate::text::cut(body, BODY_BYTES);
            tf.clear();
            let mut len = 0.0;
            let mut keys: Vec<u32> = Vec::new();
            let extras = e.extras.join(" ");
            let fields: [(f64, &str); 4] =
                [(W_TITLE, title), (W_TRIGGER, &e.trigger), (W_TRIGGER, &extras), (W_BODY, body)];
            for (w, text) in fields {
                let lower = text.to_lowercase();
                super::synonyms::each_word(&lower, super::synonyms::Side::Document, |word| {
                    let Some(id) = table.word(word) else { return };
                    *tf.entry(id).or_default() += w;
                    len += w;
                    if w > W_BODY && !keys.contains(&id) {
                        keys.push(id);
                    }
                });
            }
            seg.sig.push(sig(hid, e));
            seg.lens.push(len);
            seg.keys.push(keys.into_boxed_slice());
            triples.extend(tf.iter().map(|(&t, &f)| (t, doc as u32, f)));
        }
        seg.set_postings(triples);
        seg
    }

    /// Fills the postings from (term, document, weight) triples.
    pub(super) fn set_postings(&mut self, mut triples: Vec<(u32, u32, f64)>) {
        triples.sort_unstable_by_key(|t| (t.0, t.1));
        self.postings = Vec::with_capacity(triples.len());
        self.slots = HashMap::default();
        for (i, &(term, doc, f)) in triples.iter().enumerate() {
            if i == 0 || triples[i - 1].0 != term {
                self.slots.insert(term, (i as u32, 0));
            }
            if let Some(s) = self.slots.get_mut(&term) {
                s.1 += 1;
            }
            self.postings.push((doc, f));
        }
    }

    /// Renumbers the terms (after the table they were numbered in was absorbed into another).
    pub(super) fn remap(&mut self, remap: &[u32]) {
        for k in &mut self.keys {
            for t in k.iter_mut() {
                *t = remap[*t as usize];
            }
        }
        self.slots = self.slots.drain().map(|(t, s)| (remap[t as usize], s)).collect();
    }
}
