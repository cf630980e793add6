//! The recall view's letters file: each entry's operator and names (its trigger, then its extras) with their stems, and the words they are made of, read in place as the letters-in-order tiers' [`Vocabulary`] for a short prompt.
//!
//! A file of its own beside the view, so a long prompt, a command or a
//! failure never maps or checks it (at 10,000 entries it is 1.6 MB: the
//! view's 3.5 MB grew the hook's cost by a seventh when it was part of it).
//! It names the view it was written with (the view's checksum), and is
//! written before it: a view never reads another view's letters.
//!
//! Layout (little-endian): `MINAMES1`, a checksum of the rest (u64); the
//! view's checksum (u64); counts (entries, names, words, word stems, string
//! bytes; u32 each) and a zero u32; per entry (its first name, its number of names, its operator:
//! u32 each); per name, in entry order (the name, its stem); the words of
//! every trigger and extra, sorted (an entry with an empty trigger has no
//! names, but its extras' words count, as in `search::names`); their stems,
//! sorted; the strings (UTF-8). A string is (offset
//! u32, length u32) into the strings. A name is written once; a stem only
//! when it differs from its name; a word as a part of the first name that
//! has it. Checked whole when first read ([`super::View::letters`]).

use super::{checksum, sealed, string_at, string_ok, Bytes};
use crate::model::Workspace;
use crate::search::le::{find, u32_at, u64_at};
use crate::search::triggers::Vocabulary;
use crate::syntax::index::Op;

const MAGIC: &[u8; 8] = b"MINAMES1";
const HEAD: usize = 48;
const ENTRY: usize = 12;
const NAME: usize = 16;
const WORD: usize = 8;

/// A letters section read in place.
pub struct Letters {
    bytes: Bytes,
    n: usize,
    names_at: usize,
    words_at: usize,
    words: usize,
    stems_at: usize,
    stems: usize,
    blob: usize,
}

impl Letters {
    /// The letters in `bytes`, for the view of `entries` entries whose
    /// checksum is `view`; None unless they were written with it, are whole
    /// and every number fits.
    pub(super) fn open(bytes: Bytes, entries: usize, view: u64) -> Option<Letters> {
        let b = (*bytes).as_ref();
        if b.len() < HEAD || &b[..8] != MAGIC || u64_at(b, 8) != checksum(&b[16..]) || u64_at(b, 16) != view {
            return None;
        }
        let [n, names, words, stems, blob_len] = [24, 28, 32, 36, 40].map(|o| u32_at(b, o) as usize);
        let names_at = HEAD.checked_add(n.checked_mul(ENTRY)?)?;
        let words_at = names_at.checked_add(names.checked_mul(NAME)?)?;
        let stems_at = words_at.checked_add(words.checked_mul(WORD)?)?;
        let blob = stems_at.checked_add(stems.checked_mul(WORD)?)?;
        if n != entries || blob.checked_add(blob_len)? != b.len() {
            return None;
        }
        let strings = std::str::from_utf8(&b[blob..]).ok()?;
        let string_ok = |at: usize| string_ok(b, at, strings);
        let entries_ok = (0..n).all(|e| {
            let at = HEAD + ENTRY * e;
            let end = (u32_at(b, at) as usize).checked_add(u32_at(b, at + 4) as usize);
            end.is_some_and(|end| end <= names) && u32_at(b, at + 8) <= 1
        });
        let names_ok = (0..names).all(|i| string_ok(names_at + NAME * i) && string_ok(names_at + NAME * i + 8));
        let l = Letters { bytes: bytes.clone(), n, names_at, words_at, words, stems_at, stems, blob };
        // Each word list strictly ascending (binary search).
        let sorted = |list: usize, len: usize| {
            (0..len).all(|i| string_ok(list + WORD * i))
                && (1..len).all(|i| l.string(list + WORD * (i - 1)) < l.string(list + WORD * i))
        };
        (entries_ok && names_ok && sorted(words_at, words) && sorted(stems_at, stems)).then_some(l)
    }

    fn b(&self) -> &[u8] {
        (*self.bytes).as_ref()
    }

    /// The string whose (offset, length) is at `at` ("" when out of range).
    fn string(&self, at: usize) -> &str {
        string_at(self.b(), self.blob, at)
    }

    /// Where name `k` of `entry` is (its string, then its stem's).
    fn name_at(&self, entry: usize, k: usize) -> Option<usize> {
        if k >= self.names(entry) {
            return None;
        }
        let start = u32_at(self.b(), HEAD + ENTRY * entry) as usize;
        Some(self.names_at + NAME * (start + k))
    }
}

impl Vocabulary for Letters {
    fn entries(&self) -> usize {
        self.n
    }
    fn op(&self, entry: usize) -> Op {
        if u32_at(self.b(), HEAD + ENTRY * entry + 8) == 0 {
            Op::When
        } else {
            Op::How
        }
    }
    fn names(&self, entry: usize) -> usize {
        if entry >= self.n {
            return 0;
        }
        u32_at(self.b(), HEAD + ENTRY * entry + 4) as usize
    }
    fn name(&self, entry: usize, k: usize) -> &str {
        self.name_at(entry, k).map_or("", |at| self.string(at))
    }
    fn stemmed(&self, entry: usize, k: usize) -> &str {
        self.name_at(entry, k).map_or("", |at| self.string(at + 8))
    }
    fn has_word(&self, word: &str) -> bool {
        find(0, self.words, &word, |i| self.string(self.words_at + WORD * i)).is_some()
    }
    fn has_stem(&self, stem: &str) -> bool {
        find(0, self.stems, &stem, |i| self.string(self.stems_at + WORD * i)).is_some()
    }
    fn near_words(&self, word: &str) -> Vec<&str> {
        (0..self.words)
            .map(|i| self.string(self.words_at + WORD * i))
            .filter(|v| crate::search::words::one_edit(word, v))
            .collect()
    }
}

/// Each word of `text` (written at `at` in the strings) that `refs` does not
/// have yet, as a part of it.
fn words_of<'a>(text: &'a str, at: (u32, u32), refs: &mut rustc_hash::FxHashMap<&'a str, (u32, u32)>) {
    for word in text.split_whitespace() {
        let pos = (word.as_ptr() as usize - text.as_ptr() as usize) as u32;
        refs.entry(word).or_insert((at.0 + pos, word.len() as u32));
    }
}

/// The letters file of `ws`, for its `view` (the bytes [`super::encode`] gave).
pub fn encode(ws: &Workspace, view: &[u8]) -> Option<Vec<u8>> {
    let b = ws.bindings();
    let names = crate::search::names::of(ws);
    let stems = names.stems(b);
    let mut blob = String::new();
    let mut string = |s: &str| -> (u32, u32) {
        let at = (blob.len() as u32, s.len() as u32);
        blob.push_str(s);
        at
    };
    let put = |p: &mut Vec<u8>, v: u32| p.extend_from_slice(&v.to_le_bytes());
    let (mut entries, mut name_bytes) = (Vec::with_capacity(b.entries.len() * ENTRY), Vec::new());
    let mut word_refs: rustc_hash::FxHashMap<&str, (u32, u32)> = Default::default();
    let mut total = 0u32;
    for (i, e) in b.entries.iter().enumerate() {
        let keys: Vec<&str> = crate::model::bind::exact_keys(e).collect();
        if keys.is_empty() {
            // No names, but its trigger's and extras' words are words of the vocabulary.
            for t in std::iter::once(&e.trigger).chain(&e.extras) {
                let at = string(t);
                words_of(t, at, &mut word_refs);
            }
        }
        for v in [total, keys.len() as u32, u32::from(e.op == Op::How)] {
            put(&mut entries, v);
        }
        for (k, key) in keys.iter().enumerate() {
            let at = string(key);
            words_of(key, at, &mut word_refs);
            let stem = stems.get(i).and_then(|s| s.get(k)).map_or(*key, String::as_str);
            let stem_at = if stem == *key { at } else { string(stem) };
            for v in [at.0, at.1, stem_at.0, stem_at.1] {
                put(&mut name_bytes, v);
            }
        }
        total += u32::try_from(keys.len()).ok()?;
    }
    let mut words: Vec<(&str, (u32, u32))> = word_refs.iter().map(|(w, at)| (*w, *at)).collect();
    words.sort_unstable();
    let mut word_stems: Vec<&str> = names.vocabulary_stems(b).iter().map(String::as_str).collect();
    word_stems.sort_unstable();
    let mut word_bytes = Vec::with_capacity((words.len() + word_stems.len()) * WORD);
    for (_, (off, len)) in &words {
        put(&mut word_bytes, *off);
        put(&mut word_bytes, *len);
    }
    for stem in &word_stems {
        let (off, len) = word_refs.get(stem).copied().unwrap_or_else(|| string(stem));
        put(&mut word_bytes, off);
        put(&mut word_bytes, len);
    }
    let mut p = Vec::new();
    p.extend_from_slice(view.get(8..16)?);
    for v in [b.entries.len(), total as usize, words.len(), word_stems.len(), blob.len(), 0] {
        put(&mut p, u32::try_from(v).ok()?);
    }
    p.extend_from_slice(&entries);
    p.extend_from_slice(&name_bytes);
    p.extend_from_slice(&word_bytes);
    p.extend_from_slice(blob.as_bytes());
    Some(sealed(MAGIC, &p))
}
