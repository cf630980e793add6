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
    let (n, bits, max_len) = (word(0), word(1) as u32, word(2));
    if bytes.len() > max_len {
        return None;
    }
    let (starts, slots) = (3, 3 + n + 1);
    let text = 4 * (slots + (1 << bits));
    let mut at = hash::slot(bytes, bits);
    loop {
        let rank = word(slots + at).checked_sub(1)?;
        let token = &TABLE[text + word(starts + rank)..text + word(starts + rank + 1)];
        if token == bytes {
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
    merged(bytes)
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
