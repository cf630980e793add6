//! Token counts as agents pay them: cl100k_base's byte-pair encoding, and a bound that needs none.
//!
//! Agents count what they load in their model's tokens. Claude's tokenizer is
//! not published; OpenAI's are, and modern byte-pair encodings of 100,000 to
//! 200,000 pieces cut English Markdown into similar numbers of tokens (on the
//! real index of ../shared/corpus/head, cl100k_base gives 5,186 and o200k_base
//! 5,188). [`count`] counts cl100k_base: its vocabulary comes from the
//! `bpe-openai` crate (GitHub's encoder of OpenAI's tables) when this crate is
//! built, laid out by `build.rs` as a table the binary carries; the
//! pre-tokenizer ([`pieces`]) and the merges ([`merge`]) are ours, held by the
//! tests to `bpe-openai`'s counts piece for piece. The crate itself costs
//! every process about 17 ms and 30 MB to load its tables on the first
//! count, more than a whole `check` of a small project; this costs nothing
//! at start-up, and counting an index line by line with a [`Counter`] costs
//! about 10 ns a byte on the real index (0.3 ms; 0.7 ms in a fresh process,
//! whose caches do not yet hold the table) and 4.5 ns a byte on the 650 KB
//! index of 10,000 generated entries.

mod hash;
mod merge;
mod pieces;

/// The number of cl100k_base tokens of `text`. Many texts (an index's
/// lines) are cheaper through one [`Counter`].
pub fn count(text: &str) -> usize {
    pieces::pieces(text).map(merge::count).sum()
}

/// Counts many texts (an index's lines): remembers the pieces it has seen.
///
/// Text that agents index repeats its words: the 10,000 entries of the
/// scale bench are 157,000 pieces of 1,200 kinds. A piece of up to
/// [`MEMO_BYTES`] bytes is looked up in a small direct-mapped table (exact:
/// the piece itself is the key) before the vocabulary, whose 2 MB a lookup
/// otherwise reaches at random.
pub struct Counter {
    memo: Box<[Memo]>,
}

const MEMO_SLOTS_BITS: u32 = 12;
const MEMO_BYTES: usize = 24;

#[derive(Clone, Copy, Default)]
struct Memo {
    /// The piece's length; 0 for an empty slot.
    len: u8,
    piece: [u8; MEMO_BYTES],
    count: u32,
}

impl Default for Counter {
    fn default() -> Self {
        Self { memo: vec![Memo::default(); 1 << MEMO_SLOTS_BITS].into_boxed_slice() }
    }
}

impl Counter {
    /// The number of cl100k_base tokens of `text`.
    pub fn count(&mut self, text: &str) -> usize {
        pieces::pieces(text).map(|piece| self.piece(piece)).sum()
    }

    fn piece(&mut self, piece: &str) -> usize {
        let bytes = piece.as_bytes();
        if bytes.len() > MEMO_BYTES {
            return merge::count(piece);
        }
        let mut key = [0; MEMO_BYTES];
        key[..bytes.len()].copy_from_slice(bytes);
        let words = key.chunks_exact(8).map(|w| u64::from_le_bytes(w.try_into().unwrap_or_default()));
        let h = words.fold(bytes.len() as u64, |h, w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let slot = &mut self.memo[(h >> (64 - MEMO_SLOTS_BITS)) as usize];
        if usize::from(slot.len) == bytes.len() && slot.piece == key {
            return slot.count as usize;
        }
        let count = merge::count(piece);
        *slot = Memo { len: bytes.len() as u8, piece: key, count: count as u32 };
        count
    }
}

/// A lower bound of [`count`] that needs no vocabulary: the pieces the
/// pre-tokenizer cuts `text` into, each at least one token, counted up to
/// `cap + 1` (a result over `cap` says only that). A section far longer
/// than an entry is ruled out after its first few words.
pub fn at_least(text: &str, cap: usize) -> usize {
    pieces::pieces(text).take(cap.saturating_add(1)).count()
}

#[cfg(test)]
mod tests;
