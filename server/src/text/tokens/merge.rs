//! cl100k_base's byte-pair merges: how many tokens one piece becomes.
//!
//! The vocabulary is a hash table `build.rs` lays out inside the binary, so
//! nothing is built at start-up and only the pages a lookup touches are ever
//! read. A piece that is one token (most words) costs one lookup; any other
//! is merged as tiktoken merges it (the adjacent pair whose bytes are the
//! lowest-ranked token first, the leftmost on a tie), with a heap, so a
//! hostile megabyte-long word costs n log n, not n².

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::hash;

static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k.bin"));

/// A piece longer than this is counted slice by slice (at character
/// boundaries), bounding the merge's memory; no token is near this long, so
/// only a hostile word may come out a few tokens different from tiktoken.
const SLICE: usize = 64 * 1024;

fn word(i: usize) -> usize {
    let at = 4 * i;
    u32::from_le_bytes([TABLE[at], TABLE[at + 1], TABLE[at + 2], TABLE[at + 3]]) as usize
}

/// The rank (id) of the token whose bytes are `bytes`, if there is one.
pub fn rank(bytes: &[u8]) -> Option<u32> {
    let (bits, max_len) = (word(1) as u32, word(2));
    if bytes.len() > max_len {
        return None;
    }
    let text = 4 * (3 + 2 * (1 << bits));
    let mut at = hash::slot(bytes, bits);
    loop {
        let rank = word(3 + 2 * at).checked_sub(1)?;
        let place = word(3 + 2 * at + 1);
        if place & 0xff == bytes.len() && &TABLE[text + (place >> 8)..][..bytes.len()] == bytes {
            return Some(rank as u32);
        }
        at = (at + 1) & ((1 << bits) - 1);
    }
}

/// The number of tokens `piece` (one pre-tokenizer piece) becomes.
pub fn count(piece: &str) -> usize {
    if piece.len() > SLICE {
        let mut cut = SLICE;
        while !piece.is_char_boundary(cut) {
            cut -= 1;
        }
        return count(&piece[..cut]) + count(&piece[cut..]);
    }
    let bytes = piece.as_bytes();
    if bytes.len() <= 1 || rank(bytes).is_some() {
        return bytes.len().min(1);
    }
    if bytes.len() <= SMALL {
        merged_small(bytes)
    } else {
        merged(bytes)
    }
}

/// Pieces up to this long are merged on the stack, scanning for the lowest
/// rank (tiktoken's own loop): no allocation, and quadratic only in a word.
const SMALL: usize = 64;

/// [`merged`] for a piece of at most [`SMALL`] bytes.
fn merged_small(bytes: &[u8]) -> usize {
    let n = bytes.len();
    // Part `i` is `bytes[starts[i]..starts[i + 1]]`; `ranks[i]` is the rank of parts `i` and `i + 1` joined.
    let mut starts = [0u8; SMALL + 1];
    let mut ranks = [u32::MAX; SMALL];
    for (i, s) in starts.iter_mut().enumerate().take(n + 1) {
        *s = i as u8;
    }
    let pair = |starts: &[u8], i: usize| rank(&bytes[starts[i] as usize..starts[i + 2] as usize]).unwrap_or(u32::MAX);
    for (i, r) in ranks.iter_mut().enumerate().take(n - 1) {
        *r = pair(&starts, i);
    }
    let mut parts = n;
    loop {
        let Some((i, _)) =
            ranks[..parts - 1].iter().enumerate().filter(|(_, &r)| r != u32::MAX).min_by_key(|(_, &r)| r)
        else {
            return parts;
        };
        starts.copy_within(i + 2..=parts, i + 1);
        ranks.copy_within(i + 1..parts - 1, i);
        parts -= 1;
        if i + 1 < parts {
            ranks[i] = pair(&starts, i);
        }
        if i > 0 {
            ranks[i - 1] = pair(&starts, i - 1);
        }
    }
}

/// Merge `bytes` (at least two, every single byte being a token) to the end.
fn merged(bytes: &[u8]) -> usize {
    let n = bytes.len();
    // Each part starts at a byte: `end[i]` is where part `i` ends (and its
    // right neighbour starts), `prev[i]` its left neighbour.
    let mut end: Vec<usize> = (1..=n).collect();
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut gone = vec![false; n];
    let mut heap = BinaryHeap::new();
    let offer = |heap: &mut BinaryHeap<_>, start: usize, stop: usize| {
        if let Some(r) = rank(&bytes[start..stop]) {
            heap.push(Reverse((r, start, stop)));
        }
    };
    for i in 0..n - 1 {
        offer(&mut heap, i, i + 2);
    }
    let mut parts = n;
    while let Some(Reverse((_, start, stop))) = heap.pop() {
        // Stale unless `start` still ends where its neighbour, ending at `stop`, starts.
        let mid = end[start];
        if gone[start] || mid >= n || end[mid] != stop {
            continue;
        }
        gone[mid] = true;
        end[start] = stop;
        parts -= 1;
        if stop < n {
            prev[stop] = start;
            offer(&mut heap, start, end[stop]);
        }
        if prev[start] != usize::MAX {
            offer(&mut heap, prev[start], stop);
        }
    }
    parts
}
