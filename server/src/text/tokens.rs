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
//! about 8.4 ns a byte on the real index (0.23 ms; 0.7 ms in a fresh
//! process, whose caches do not yet hold the table) and 3.5 ns a byte on the
//! 27 KB and 650 KB indexes of 400 and 10,000 generated entries.

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

/// 2,048 slots of 32 bytes (64 KB): as fast as 4,096 on the corpus and the
/// generated indexes, and half the pages a fresh process must fault in.
const MEMO_SLOTS_BITS: u32 = 11;
const MEMO_BYTES: usize = 24;

#[derive(Clone, Copy, Default)]
struct Memo {
    /// The piece's bytes, little-endian, zero past its end.
    key: [u64; 3],
    /// The piece's length; 0 for an empty slot.
    len: u32,
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
        let (a, rest) = bytes.split_at(bytes.len().min(8));
        let (b, c) = rest.split_at(rest.len().min(8));
        let key = [word(a), word(b), word(c)];
        let h = key.iter().fold(bytes.len() as u64, |h, &w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let slot = &mut self.memo[(h >> (64 - MEMO_SLOTS_BITS)) as usize];
        if slot.len as usize == bytes.len() && slot.key == key {
            return slot.count as usize;
        }
        let count = merge::count(piece);
        *slot = Memo { key, len: bytes.len() as u32, count: count as u32 };
        count
    }
}

/// Up to 8 bytes as a little-endian word, zero past them, read in at most
/// two loads (overlapping ones write the same bytes to the same places):
/// a copy to a buffer and a load of the whole would stall the load.
#[inline(always)]
fn word(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let lo = u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let hi = u64::from(u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]));
        lo | hi << (8 * (n - 4))
    } else if n > 0 {
        u64::from(b[0]) | u64::from(b[n / 2]) << (8 * (n / 2)) | u64::from(b[n - 1]) << (8 * (n - 1))
    } else {
        0
    }
}

/// A lower bound of [`count`] that needs no vocabulary: the pieces the
/// pre-tokenizer cuts `text` into, each at least one token, counted up to
/// `cap + 1` (a result over `cap` says only that). A section far longer
/// than an entry is ruled out after its first few words, most by
/// [`piece_starts_at_least`] before any piece is cut.
pub fn at_least(text: &str, cap: usize) -> usize {
    let cap = cap.saturating_add(1);
    if piece_starts_at_least(text.as_bytes(), cap) >= cap {
        return cap;
    }
    pieces::pieces(text).take(cap).count()
}

/// A lower bound of the pieces of `text`, counted at least up to `cap`
/// (past it by less than a block): the ASCII bytes that must start a piece
/// (see [`starts_piece`]), counted without branches a block of bytes at a
/// time (vectorised: well under a nanosecond a byte).
fn piece_starts_at_least(text: &[u8], cap: usize) -> usize {
    const BLOCK: usize = 64;
    let len = text.len();
    // Before the text and after it: a space, as the pattern sees nothing.
    let at = |i: usize| if i < len { text[i] } else { b' ' };
    let mut n = match len {
        0 => 0,
        _ => usize::from(starts_piece(b' ', text[0], at(1))),
    };
    let mut i = 1;
    while i + 1 < len && n < cap {
        let end = (i + BLOCK).min(len - 1);
        let block = text[i - 1..end - 1].iter().zip(&text[i..end]).zip(&text[i + 1..end + 1]);
        let starts: u8 = block.map(|((&p, &c), &n)| u8::from(starts_piece(p, c, n))).sum();
        n += usize::from(starts);
        i = end;
    }
    if len > 1 && n < cap {
        n += usize::from(starts_piece(text[len - 2], text[len - 1], b' '));
    }
    n
}

/// Whether byte `c`, between `p` and `n`, starts a piece, each piece having
/// at most one such byte:
/// - an ASCII letter after an ASCII byte that is no letter: inside a letter
///   piece or a contraction (`'s`), the only byte that is no letter is the
///   lead or the apostrophe, which comes first;
/// - an ASCII digit after an ASCII byte that is no digit: numbers have no lead;
/// - an ASCII sign after a letter or digit, unless a letter follows (then
///   it may lead that letter's piece): it starts a piece of signs;
/// - a line break after a letter or digit: pieces of letters or digits end there.
#[inline(always)]
fn starts_piece(p: u8, c: u8, n: u8) -> bool {
    let letter = |b: u8| (b | 0x20).wrapping_sub(b'a') < 26;
    let digit = |b: u8| b.wrapping_sub(b'0') < 10;
    let alnum = |b: u8| letter(b) | digit(b);
    let ascii = |b: u8| b < 0x80;
    let sign = |b: u8| (b.wrapping_sub(0x21) < 0x5e) & !alnum(b);
    let line_break = |b: u8| (b == b'\n') | (b == b'\r');
    (letter(c) & ascii(p) & !letter(p))
        | (digit(c) & ascii(p) & !digit(p))
        | (sign(c) & alnum(p) & !letter(n))
        | (line_break(c) & alnum(p))
}

#[cfg(test)]
mod tests;
