//! The BM25 index as bytes and back, and the key that says which workspace state it belongs to (pure: the service layer keeps the bytes on disk).
//!
//! Layout (little-endian): `MIBM25` and a format byte, the state's key
//! (u64), the payload's length and its checksum (u64 each), then the
//! payload, laid out to be read in place ([`super::bm25::mapped`]: terms
//! sorted by name, per-term and per-document tables of ends). [`open`]
//! checks the magic, the key, the length and the checksum here, and the
//! payload checks every number against what it indexes, so a stale,
//! truncated, corrupt or foreign file is a miss (None), never a panic or a
//! wrong answer. Format 2 (read in place) replaced format 1 (decoded
//! whole): a format-1 file is a miss, rebuilt once.

use std::hash::Hasher;

use super::bm25::mapped::Bytes;
use super::bm25::Bm25;
use crate::model::Workspace;

const MAGIC: &[u8; 7] = b"MIBM25\x03";
const HEAD: usize = MAGIC.len() + 24;

/// What the BM25 index of `ws` is a function of: every file's path and text
/// (index and decisions), the configuration and this build, hashed. Equal
/// keys mean the same index.
pub fn key(ws: &Workspace) -> u64 {
    /// Hashed once per state (the snapshot's reader and writer and the recall view all ask).
    struct Key(u64);
    ws.cached(crate::model::Depends::AllFiles, |ws| Key(hash_state(ws))).0
}

fn hash_state(ws: &Workspace) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    h.write_u32(crate::search::bm25::synonyms::VERSION);
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
/// and weights are positive: [`open`] refuses any that are not.)
pub fn encode(bm: &Bm25, key: u64) -> Vec<u8> {
    seal(&super::bm25::mapped::payload(bm), key)
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

/// The index in `bytes` (a memory map, or any buffer) when they hold one
/// for the state with `key` over `entries` entries, read in place; None for
/// anything else.
pub fn open(bytes: Bytes, key: u64, entries: usize) -> Option<Bm25> {
    let b = (*bytes).as_ref();
    let mut r = Reader { b, at: 0 };
    if r.take(MAGIC.len())? != MAGIC || r.u64()? != key {
        return None;
    }
    let len = usize::try_from(r.u64()?).ok()?;
    let sum = r.u64()?;
    if b.len() != HEAD.checked_add(len)? || checksum(&b[HEAD..]) != sum {
        return None;
    }
    Bm25::mapped(bytes.clone(), HEAD, entries)
}

/// [`open`] over a copy of `bytes` (for tests and the fuzz target).
pub fn decode(bytes: &[u8], key: u64, entries: usize) -> Option<Bm25> {
    open(std::sync::Arc::new(bytes.to_vec()), key, entries)
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
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileText;

    fn ws() -> Workspace {
        Workspace::of_files(&[
            ("agents/memory-index.md", "# Index\n\n## agents/decisions/t.md\n\n/when writing mock tests | test doubles\n/how encode paths\n"),
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
        let t = super::super::bm25::tokens("mock tests patch encode paths");
        // Term numbers differ (the snapshot numbers them in name order); names and scores do not.
        let scores = |bm: &Bm25| {
            let ids: Vec<u32> = t.iter().filter_map(|x| bm.term(x)).collect();
            let mut s: Vec<(u32, f64, Vec<String>)> = bm
                .score_terms(&ids)
                .iter()
                .map(|s| (s.0, s.1, bm.has(s.0, &ids).iter().map(|&t| bm.name(t).to_string()).collect()))
                .collect();
            s.sort_by_key(|a| a.0);
            s
        };
        assert_eq!(scores(&bm).len(), 2, "both decisions match");
        assert_eq!(scores(&bm), scores(&back));
        for doc in 0..bm.len() as u32 {
            let names = |bm: &Bm25| bm.keys(doc).iter().map(|&t| bm.name(t).to_string()).collect::<Vec<_>>();
            assert_eq!((bm.entry(doc), names(&bm)), (back.entry(doc), names(&back)));
            assert_eq!(bm.doc_of(bm.entry(doc)), back.doc_of(back.entry(doc)));
        }
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
                for (doc, score) in bm.score_terms(&terms) {
                    assert!((bm.entry(doc).0 as usize) < n && score.is_finite());
                }
            }
        }
    }
}
