//! Little-endian numbers read at an offset of bytes read in place (a snapshot, a recall view): zero past the end, never a panic.

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
