//! A BM25 index read in place from a snapshot's payload: nothing decoded up front, a term found by binary search over sorted names, its postings read when a query asks for them.
//!
//! Layout (little-endian; `n` terms sorted by name, `d` documents), written
//! by [`payload`]:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 + 4 + 4 | average length (f64), `n`, `d` |
//! | 4 × n | per term, where its name ends in the names |
//! | … | the names (UTF-8, strictly ascending) |
//! | 4 × n | per term, where its postings end (a running count) |
//! | 12 × postings | (document u32, weight f64), grouped by term, by document within one |
//! | 12 × d | per document its entry (u32) and length (f64) |
//! | 4 × d | per document, where its name terms end (a running count) |
//! | 4 × name terms | term numbers |
//!
//! [`Mapped::open`] checks every number once against what it indexes (ends
//! that never go back, names strictly ascending and UTF-8, a term's
//! documents ascending, documents, terms and entries in range, an entry with
//! one document at most, weights positive and at most [`MAX_WEIGHT`],
//! lengths finite), allocating only the entry → document table: a
//! 10,000-entry memory's 3 MB are read once by the checks (0.7 ms), and
//! nothing is copied or rebuilt (the hash map of terms and the postings
//! vectors a decoded index needs cost the process some 5 ms and 3,000 page
//! faults more).

use std::sync::Arc;

use super::Bm25;
use crate::model::EntryId;
use crate::search::le::{f64_at, find, u32_at};

/// The largest weight a posting may have: a term's weighted frequency in
/// one document (the body's first 2,000 bytes and the names) is far under
/// it, and with it every score stays finite.
pub const MAX_WEIGHT: f64 = 1e9;

/// The bytes a [`Mapped`] reads: a memory map or a buffer, shared.
pub type Bytes = Arc<dyn AsRef<[u8]> + Send + Sync>;

/// The index's tables, as offsets into `bytes` (all checked by [`Mapped::open`]).
pub struct Mapped {
    bytes: Bytes,
    n: usize,
    d: usize,
    avg_len: f64,
    name_ends: usize,
    names: usize,
    post_ends: usize,
    postings: usize,
    docs: usize,
    key_ends: usize,
    keys: usize,
    /// Per entry: its document (u32::MAX: none).
    doc_of: Vec<u32>,
}

impl std::fmt::Debug for Mapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mapped").field("terms", &self.n).field("docs", &self.d).finish_non_exhaustive()
    }
}

impl Mapped {
    /// The index in `bytes` from `at` to their end; None unless every table
    /// fits the layout (see the module docs) for a workspace of `entries` entries.
    pub fn open(bytes: Bytes, at: usize, entries: usize) -> Option<Mapped> {
        let all = (*bytes).as_ref();
        let b = all.get(at..)?;
        if b.len() < 16 {
            return None;
        }
        let avg_len = f64_at(b, 0);
        let (n, d) = (u32_at(b, 8) as usize, u32_at(b, 12) as usize);
        if !(avg_len.is_finite() && avg_len > 0.0) {
            return None;
        }
        // A table of `count` ends from `pos`: where it ends, and its last end (0 when empty).
        let ends = |pos: usize, count: usize| -> Option<(usize, usize)> {
            let end = pos.checked_add(count.checked_mul(4)?)?;
            if end > b.len() {
                return None;
            }
            let mut last = 0u32;
            for i in 0..count {
                let e = u32_at(b, pos + 4 * i);
                if e < last {
                    return None;
                }
                last = e;
            }
            Some((end, last as usize))
        };
        let name_ends = 16;
        let (names, names_len) = ends(name_ends, n)?;
        let post_ends = names.checked_add(names_len)?;
        let (postings, total) = ends(post_ends, n)?;
        let docs = postings.checked_add(total.checked_mul(12)?)?;
        let key_ends = docs.checked_add(d.checked_mul(12)?)?;
        let (keys, key_total) = ends(key_ends, d)?;
        if keys.checked_add(key_total.checked_mul(4)?)? != b.len() {
            return None;
        }
        let mut m = Mapped {
            bytes: bytes.clone(),
            n,
            d,
            avg_len,
            name_ends: at + name_ends,
            names: at + names,
            post_ends: at + post_ends,
            postings: at + postings,
            docs: at + docs,
            key_ends: at + key_ends,
            keys: at + keys,
            doc_of: Vec::new(),
        };
        // Names: UTF-8, strictly ascending (so a binary search finds the one).
        let mut prev: Option<&str> = None;
        for t in 0..n {
            let (s, e) = m.range(m.name_ends, t);
            let name = std::str::from_utf8(all.get(m.names + s..m.names + e)?).ok()?;
            if prev.is_some_and(|p| p >= name) {
                return None;
            }
            prev = Some(name);
        }
        for t in 0..n {
            let (s, e) = m.range(m.post_ends, t);
            let mut prev: Option<u32> = None;
            for i in s..e {
                let at = m.postings + 12 * i;
                let (doc, w) = (u32_at(all, at), f64_at(all, at + 4));
                if doc as usize >= d || prev.is_some_and(|p| p >= doc) || !(w > 0.0 && w <= MAX_WEIGHT) {
                    return None;
                }
                prev = Some(doc);
            }
        }
        m.doc_of = vec![u32::MAX; entries];
        for doc in 0..d {
            let (e, len) = (u32_at(all, m.docs + 12 * doc) as usize, f64_at(all, m.docs + 12 * doc + 4));
            if e >= entries || m.doc_of[e] != u32::MAX || !(len.is_finite() && len >= 0.0) {
                return None;
            }
            m.doc_of[e] = doc as u32;
        }
        if (0..key_total).any(|i| u32_at(all, m.keys + 4 * i) as usize >= n) {
            return None;
        }
        Some(m)
    }

    fn b(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// Item `i`'s range in the table whose running ends start at `ends`.
    fn range(&self, ends: usize, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { u32_at(self.b(), ends + 4 * (i - 1)) as usize };
        (start, u32_at(self.b(), ends + 4 * i) as usize)
    }

    /// How many documents.
    pub fn documents(&self) -> usize {
        self.d
    }

    pub fn avg_len(&self) -> f64 {
        self.avg_len
    }

    /// How many terms.
    pub fn terms(&self) -> usize {
        self.n
    }

    /// A term's name ("" past the last).
    pub fn name(&self, term: u32) -> &str {
        if term as usize >= self.n {
            return "";
        }
        let (s, e) = self.range(self.name_ends, term as usize);
        self.b().get(self.names + s..self.names + e).and_then(|s| std::str::from_utf8(s).ok()).unwrap_or("")
    }

    /// The number of a term by its name.
    pub fn term(&self, name: &str) -> Option<u32> {
        find(0, self.n, &name, |i| self.name(i as u32)).map(|i| i as u32)
    }

    /// How many documents have `term`.
    pub fn df(&self, term: u32) -> u32 {
        if term as usize >= self.n {
            return 0;
        }
        let (s, e) = self.range(self.post_ends, term as usize);
        (e - s) as u32
    }

    /// A term's postings: (document, weighted frequency).
    pub fn postings(&self, term: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let (s, e) = if (term as usize) < self.n { self.range(self.post_ends, term as usize) } else { (0, 0) };
        let b = self.b();
        (s..e).map(move |i| {
            let at = self.postings + 12 * i;
            (u32_at(b, at), f64_at(b, at + 4))
        })
    }

    /// Whether document `doc` has `term` (a term's postings ascend by document).
    pub fn contains(&self, term: u32, doc: u32) -> bool {
        if term as usize >= self.n {
            return false;
        }
        let (lo, hi) = self.range(self.post_ends, term as usize);
        find(lo, hi, &doc, |i| u32_at(self.b(), self.postings + 12 * i)).is_some()
    }

    /// A document's entry.
    pub fn entry(&self, doc: u32) -> EntryId {
        EntryId(u32_at(self.b(), self.docs + 12 * doc as usize))
    }

    /// A document's weighted length.
    pub fn doc_len(&self, doc: u32) -> f64 {
        f64_at(self.b(), self.docs + 12 * doc as usize + 4)
    }

    /// The document of an entry, if it has one.
    pub fn doc_of(&self, entry: EntryId) -> Option<u32> {
        self.doc_of.get(entry.0 as usize).copied().filter(|&d| d != u32::MAX)
    }

    /// A document's name terms.
    pub fn keys(&self, doc: u32) -> Vec<u32> {
        if doc as usize >= self.d {
            return Vec::new();
        }
        let (s, e) = self.range(self.key_ends, doc as usize);
        (s..e).map(|i| u32_at(self.b(), self.keys + 4 * i)).collect()
    }
}

/// `bm`'s payload in the layout above: its terms renumbered in name order
/// (so a payload read back and written again is the same bytes).
pub fn payload(bm: &Bm25) -> Vec<u8> {
    let (names, postings, docs, keys, avg_len) = bm.parts();
    let mut order: Vec<u32> = (0..names.len() as u32).collect();
    order.sort_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let mut new_id = vec![0u32; names.len()];
    for (rank, &old) in order.iter().enumerate() {
        new_id[old as usize] = rank as u32;
    }
    let total: usize = postings.iter().map(Vec::len).sum();
    let mut p: Vec<u8> = Vec::with_capacity(16 + names.len() * 16 + total * 12 + docs.len() * 24);
    let put = |p: &mut Vec<u8>, v: usize| p.extend_from_slice(&(v as u32).to_le_bytes());
    p.extend_from_slice(&avg_len.to_le_bytes());
    put(&mut p, names.len());
    put(&mut p, docs.len());
    let mut end = 0;
    for &t in &order {
        end += names[t as usize].len();
        put(&mut p, end);
    }
    for &t in &order {
        p.extend_from_slice(names[t as usize].as_bytes());
    }
    let mut end = 0;
    for &t in &order {
        end += postings[t as usize].len();
        put(&mut p, end);
    }
    for &t in &order {
        for &(doc, w) in &postings[t as usize] {
            p.extend_from_slice(&doc.to_le_bytes());
            p.extend_from_slice(&w.to_le_bytes());
        }
    }
    for &(entry, len) in &docs {
        p.extend_from_slice(&entry.0.to_le_bytes());
        p.extend_from_slice(&len.to_le_bytes());
    }
    let mut end = 0;
    for k in &keys {
        end += k.len();
        put(&mut p, end);
    }
    for k in &keys {
        for &t in k {
            p.extend_from_slice(&new_id[t as usize].to_le_bytes());
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Workspace;

    fn payload_of() -> (Vec<u8>, usize) {
        let ws = Workspace::of_files(&[
            (
                "agents/memory-index.md",
                "# I\n\n## agents/decisions/t.md\n\n/when writing mock tests | doubles\n/how encode paths\n",
            ),
            (
                "agents/decisions/t.md",
                "# T\n\n## When Writing Mock Tests\n\nPatch it.\n\n## How to Encode Paths\n\nPercent-encode paths.\n",
            ),
        ]);
        (payload(&Bm25::build(&ws)), ws.bindings().entries.len())
    }

    /// Where each table starts: (n, d, names, post_ends, postings, docs, key_ends, keys).
    fn tables(p: &[u8]) -> [usize; 8] {
        let (n, d) = (u32_at(p, 8) as usize, u32_at(p, 12) as usize);
        let names = 16 + 4 * n;
        let post_ends = names + u32_at(p, 16 + 4 * (n - 1)) as usize;
        let postings = post_ends + 4 * n;
        let docs = postings + 12 * u32_at(p, post_ends + 4 * (n - 1)) as usize;
        let key_ends = docs + 12 * d;
        [n, d, names, post_ends, postings, docs, key_ends, key_ends + 4 * d]
    }

    fn open(p: &[u8], entries: usize) -> Option<Mapped> {
        Mapped::open(Arc::new(p.to_vec()), 0, entries)
    }

    #[test]
    fn a_payload_reads_back_in_place() {
        let (p, entries) = payload_of();
        let m = open(&p, entries).expect("opens");
        assert_eq!(m.documents(), 2);
        let t = m.term("encod").expect("a term of the second decision");
        let docs: Vec<u32> = m.postings(t).map(|x| x.0).collect();
        assert_eq!(docs.len(), 1);
        assert!(m.contains(t, docs[0]) && !m.contains(t, 1 - docs[0]));
        assert_eq!(m.doc_of(m.entry(docs[0])), Some(docs[0]));
        assert!(m.keys(docs[0]).contains(&t), "a title word is a name term");
        assert_eq!((m.term("zzz"), m.name(u32::MAX), m.keys(9)), (None, "", Vec::new()));
        assert_eq!(
            payload(&Bm25::mapped(Arc::new(p.clone()), 0, entries).expect("opens")),
            p,
            "read and written back: the same bytes"
        );
    }

    #[test]
    fn a_payload_that_breaks_the_layout_is_refused() {
        let (p, entries) = payload_of();
        let [n, d, names, _, postings, docs, key_ends, keys] = tables(&p);
        let set = |p: &mut Vec<u8>, at: usize, v: u32| p[at..at + 4].copy_from_slice(&v.to_le_bytes());
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("a name end that goes back", {
                let mut b = p.clone();
                set(&mut b, 16, u32_at(&p, 20) + 1);
                b
            }),
            ("names out of order", {
                let mut b = p.clone();
                b[names] = b'z';
                b
            }),
            ("a posting past the documents", {
                let mut b = p.clone();
                set(&mut b, postings, d as u32);
                b
            }),
            ("a weight that is not positive", {
                let mut b = p.clone();
                b[postings + 4..postings + 12].copy_from_slice(&(-1.0f64).to_le_bytes());
                b
            }),
            ("a weight past the largest", {
                let mut b = p.clone();
                b[postings + 4..postings + 12].copy_from_slice(&(MAX_WEIGHT * 2.0).to_le_bytes());
                b
            }),
            ("an entry with two documents", {
                let mut b = p.clone();
                let first = u32_at(&p, docs);
                set(&mut b, docs + 12, first);
                b
            }),
            ("a name term past the terms", {
                let mut b = p.clone();
                set(&mut b, keys, n as u32);
                b
            }),
            ("a table longer than the payload", {
                let mut b = p.clone();
                set(&mut b, key_ends + 4 * (d - 1), u32::MAX);
                b
            }),
            ("a byte too many", [p.as_slice(), &[0]].concat()),
            ("cut short", p[..p.len() - 1].to_vec()),
        ];
        assert!(open(&p, entries).is_some());
        for (why, bad) in cases {
            assert!(open(&bad, entries).is_none(), "{why}");
        }
        assert!(open(&p, 1).is_none(), "an entry the workspace does not have");
    }
}
