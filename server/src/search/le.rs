//! Reading tables in place (a snapshot, a recall view): little-endian numbers at an offset (zero past the end, never a panic), and the binary search over a sorted table of them.

/// The u32 at `at` (0 past the end).
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    b.get(at..at.saturating_add(4)).map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// The u64 at `at` (0 past the end).
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at.saturating_add(8)).and_then(|s| s.try_into().ok()).map_or(0, u64::from_le_bytes)
}

/// The f64 at `at` (0.0 past the end).
pub fn f64_at(b: &[u8], at: usize) -> f64 {
    f64::from_bits(u64_at(b, at))
}

/// The first index in `lo..hi` whose item is not less than the one sought
/// (`less(i)`: item `i` is less), the items being sorted: `hi` when none.
pub fn lower_bound(mut lo: usize, mut hi: usize, less: impl Fn(usize) -> bool) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if less(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The index in `lo..hi` whose key is `key`, the keys (`key_at(i)`) strictly ascending.
pub fn find<K: Ord>(lo: usize, hi: usize, key: &K, key_at: impl Fn(usize) -> K) -> Option<usize> {
    let i = lower_bound(lo, hi, |i| key_at(i) < *key);
    (i < hi && key_at(i) == *key).then_some(i)
}
