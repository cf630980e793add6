//! The hash of the token table, shared by `build.rs` (which lays the table out) and the lookup.

/// Where `bytes` first probes in a table of `1 << bits` slots: FNV-1a,
/// then a multiply so the top bits depend on every byte.
pub fn slot(bytes: &[u8], bits: u32) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize
}
