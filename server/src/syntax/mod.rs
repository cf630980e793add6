//! Lossless parsers for the two file kinds; both return a value plus its errors and never fail.

pub mod decision;
pub mod index;
pub mod invocation;

/// A user-facing normalisation of a trigger or title for comparison:
/// Unicode lowercase, whitespace runs collapsed to one space, trimmed.
pub fn normalize(s: &str) -> String {
    if s.is_ascii() {
        let mut out = String::with_capacity(s.len());
        for word in s.split_ascii_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        out.make_ascii_lowercase();
        return out;
    }
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        for c in word.chars() {
            out.extend(c.to_lowercase());
        }
    }
    out
}
