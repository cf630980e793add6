//! The BM25 index as bytes and back, and the key that says which workspace state it belongs to (pure: the service layer keeps the bytes on disk).
//!
//! Layout (little-endian): `MIBM25` and a format byte, the state's key
//! (u64), the payload's length and its checksum (u64 each), then the
//! payload: `avg_len` (f64); the terms (count, then each as a length and
//! UTF-8 bytes); per term its postings (count, then document u32 and
//! weight f64); the documents (count, then entry u32 and length f64); per
//! document its name terms (count, then term u32). [`decode`] checks the
//! magic, the key, the length, the checksum and every number against what it
//! indexes, so a stale, truncated, corrupt or foreign file is a miss (None),
//! never a panic or a wrong answer.

use std::hash::Hasher;

use super::bm25::Bm25;
use crate::model::{EntryId, Workspace};

const MAGIC: &[u8; 7] = b"MIBM25\x01";
const HEAD: usize = MAGIC.len() + 24;

/// What the BM25 index of `ws` is a function of: every file's path and text
/// (index and decisions), the configuration and this build, hashed. Equal
/// keys mean the same index.
pub fn key(ws: &Workspace) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    h.write(format!("{:?}", ws.config()).as_bytes());
    for (_, f) in ws.files() {
        h.write(f.path.as_bytes());
        h.write_u8(0xff);
        h.write_usize(f.text.len());
        h.write(f.text.as_bytes());
    }
    h.finish()
}

fn checksum(bytes: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(bytes);
    h.write_usize(bytes.len());
    h.finish()
}

/// `bm` as bytes, for the state with `key`. (A built index's average length
/// and weights are positive: [`decode`] refuses any that are not.)
pub fn encode(bm: &Bm25, key: u64) -> Vec<u8> {
    let (names, postings, docs, keys, avg_len) = bm.parts();
    let mut p: Vec<u8> = Vec::with_capacity(64 + names.len() * 24 + docs.len() * 64);
    p.extend_from_slice(&avg_len.to_le_bytes());
    let n = |p: &mut Vec<u8>, v: usize| p.extend_from_slice(&(v as u32).to_le_bytes());
    n(&mut p, names.len());
    for t in &names {
        n(&mut p, t.len());
        p.extend_from_slice(t.as_bytes());
    }
    for list in &postings {
        n(&mut p, list.len());
        for &(doc, w) in list {
            p.extend_from_slice(&doc.to_le_bytes());
            p.extend_from_slice(&w.to_le_bytes());
        }
    }
    n(&mut p, docs.len());
    for &(entry, len) in &docs {
        p.extend_from_slice(&entry.0.to_le_bytes());
        p.extend_from_slice(&len.to_le_bytes());
    }
    for k in &keys {
        n(&mut p, k.len());
        for &t in k {
            p.extend_from_slice(&t.to_le_bytes());
        }
    }
    seal(&p, key)
}

/// A payload framed as a snapshot for `key` (magic, key, length, checksum).
/// Public for the fuzz target, which feeds [`decode`] payloads that pass
/// the frame's checks.
pub fn seal(payload: &[u8], key: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEAD + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// The index in `bytes` when they hold one for the state with `key` over
/// `entries` entries; None for anything else.
pub fn decode(bytes: &[u8], key: u64, entries: usize) -> Option<Bm25> {
    let mut r = Reader { b: bytes, at: 0 };
    if r.take(MAGIC.len())? != MAGIC || r.u64()? != key {
        return None;
    }
    let len = usize::try_from(r.u64()?).ok()?;
    let sum = r.u64()?;
    if bytes.len() != HEAD.checked_add(len)? || checksum(&bytes[HEAD..]) != sum {
        return None;
    }
    let avg_len = r.f64().filter(|v| *v > 0.0)?;
    let terms = r.count(4)?;
    let mut names = Vec::with_capacity(terms);
    for _ in 0..terms {
        let l = r.count(1)?;
        names.push(std::str::from_utf8(r.take(l)?).ok()?.to_string());
    }
    // Every term's postings in one vector, with each term's count.
    let mut counts = Vec::with_capacity(terms);
    let mut postings = Vec::new();
    for _ in 0..terms {
        let c = r.count(12)?;
        counts.push(c as u32);
        postings.reserve(c);
        for _ in 0..c {
            postings.push((r.u32()?, r.f64().filter(|w| *w > 0.0)?));
        }
    }
    let ndocs = r.count(12)?;
    let mut docs = Vec::with_capacity(ndocs);
    for _ in 0..ndocs {
        let e = r.u32()?;
        if e as usize >= entries {
            return None;
        }
        docs.push((EntryId(e), r.f64().filter(|l| *l >= 0.0)?));
    }
    let mut keys: Vec<Box<[u32]>> = Vec::with_capacity(ndocs);
    for _ in 0..ndocs {
        let c = r.count(4)?;
        let mut k = Vec::with_capacity(c);
        for _ in 0..c {
            let t = r.u32()?;
            if t as usize >= terms {
                return None;
            }
            k.push(t);
        }
        keys.push(k.into_boxed_slice());
    }
    if r.at != bytes.len() || postings.iter().any(|&(d, _)| d as usize >= ndocs) {
        return None;
    }
    Bm25::from_parts(names, counts, postings, docs, keys, avg_len)
}

/// A cursor over bytes that answers None past their end.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn f64(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.take(8)?.try_into().ok()?)).filter(|v| v.is_finite())
    }
    /// A count of items of at least `min` bytes each that the rest can hold.
    fn count(&mut self, min: usize) -> Option<usize> {
        let c = self.u32()? as usize;
        (c.checked_mul(min)? <= self.b.len() - self.at).then_some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileText;

    fn ws() -> Workspace {
        Workspace::of_files(&[
            ("agents/memory-index.md", "# Index\n\n## agents/decisions/t.md\n\n/when writing mock tests | test doubles\n/how to encode paths\n"),
            ("agents/decisions/t.md", "# T\n\n## When Writing Mock Tests\n\nPatch where it is used.\n\n## How to Encode Paths\n\nPercent-encode.\n"),
        ])
    }

    #[test]
    fn an_index_comes_back_the_same_and_answers_the_same() {
        let w = ws();
        let bm = Bm25::build(&w);
        let k = key(&w);
        let bytes = encode(&bm, k);
        let back = decode(&bytes, k, w.bindings().entries.len()).expect("decodes");
        assert_eq!(encode(&back, k), bytes);
        let t = super::super::bm25::tokens("mock tests patch");
        let ids: Vec<u32> = t.iter().filter_map(|x| back.term(x)).collect();
        let a: Vec<(u32, f64)> = bm.score_terms(&ids).iter().map(|s| (s.0, s.1)).collect();
        let b: Vec<(u32, f64)> = back.score_terms(&ids).iter().map(|s| (s.0, s.1)).collect();
        assert!(!a.is_empty());
        assert_eq!(a, b);
    }

    #[test]
    fn a_stale_truncated_or_corrupt_snapshot_is_a_miss() {
        let w = ws();
        let k = key(&w);
        let bytes = encode(&Bm25::build(&w), k);
        let n = w.bindings().entries.len();
        assert!(decode(&bytes, k ^ 1, n).is_none(), "another state's");
        let mut changed = w.clone();
        changed.set_file("agents/decisions/t.md", FileText::from("# T\n\n## When Writing Mock Tests\n\nChanged.\n"));
        assert_ne!(key(&changed), k, "a changed file changes the key");
        for cut in [0, 5, HEAD, bytes.len() - 1] {
            assert!(decode(&bytes[..cut], k, n).is_none(), "cut at {cut}");
        }
        for at in [HEAD, HEAD + 9, bytes.len() - 2] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x55;
            assert!(decode(&bad, k, n).is_none(), "a flipped byte at {at}");
        }
        assert!(decode(&bytes, k, 0).is_none(), "entries it does not have");
        assert!(decode(b"", k, n).is_none() && decode(&[0xff; 64], k, n).is_none());
    }

    #[test]
    fn any_sealed_payload_decodes_to_nothing_or_to_an_index_in_bounds() {
        let w = ws();
        let n = w.bindings().entries.len();
        let good = encode(&Bm25::build(&w), 7);
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..3000 {
            // The real payload with a few bytes changed, or cut, or random bytes.
            let mut p = good[HEAD..].to_vec();
            match round % 3 {
                0 => {
                    for _ in 0..1 + next() % 4 {
                        let at = (next() as usize) % p.len();
                        p[at] = next() as u8;
                    }
                }
                1 => p.truncate((next() as usize) % p.len()),
                _ => p = (0..(next() % 200)).map(|_| next() as u8).collect(),
            }
            if let Some(bm) = decode(&seal(&p, 7), 7, n) {
                let terms: Vec<u32> = (0..bm.parts().0.len() as u32).collect();
                for (doc, score, _) in bm.score_terms(&terms) {
                    assert!((bm.entry(doc).0 as usize) < n && score.is_finite());
                }
            }
        }
    }
}
