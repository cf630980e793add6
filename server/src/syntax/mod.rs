//! Lossless parsers for the two file kinds; both return a value plus its errors and never fail.

pub mod decision;
pub mod index;
pub mod invocation;
pub mod scope;
pub mod shell;
pub mod source_mark;

/// The level of the ATX heading marker at the start of `s` (indentation
/// already stripped): 1–6 `#`, then a space, a tab or the end.
pub(crate) fn atx_marker(s: &[u8]) -> Option<u8> {
    let n = s.iter().take_while(|&&c| c == b'#').count();
    ((1..=6).contains(&n) && s.get(n).is_none_or(|&c| c == b' ' || c == b'\t')).then_some(n as u8)
}

/// The fence opener at the start of `s` (indentation already stripped): its
/// character and length (3 or more; a backtick fence's info string has no backtick).
pub(crate) fn fence_marker(s: &[u8]) -> Option<(u8, usize)> {
    let ch = *s.first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = s.iter().take_while(|&&c| c == ch).count();
    (len >= 3 && (ch == b'~' || !s[len..].contains(&b'`'))).then_some((ch, len))
}

/// A user-facing normalisation of a trigger or title for comparison:
/// Unicode lowercase, whitespace runs collapsed to one space, trimmed.
pub fn normalize(s: &str) -> String {
    // Most titles and triggers are ASCII words with single spaces: then only
    // the case changes. Checked with folds that do not stop early, which the
    // compiler vectorises (a loop per word, or a substring search, is slower
    // on strings this short).
    let b = s.as_bytes();
    let n = b.len();
    let clean = n > 0
        && b[0] != b' '
        && b[n - 1] != b' '
        && b.iter().fold(true, |ok, &c| ok & ((c > b' ' && c < 0x80) | (c == b' ')))
        && b[..n - 1].iter().zip(&b[1..]).fold(true, |ok, (&x, &y)| ok & !(x == b' ' && y == b' '));
    if clean {
        return s.to_ascii_lowercase();
    }
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// What `normalize` means, written plainly.
    fn reference(s: &str) -> String {
        s.split_whitespace()
            .map(|w| w.chars().flat_map(char::to_lowercase).collect::<String>())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn normalizes_case_and_whitespace() {
        for (s, want) in [
            ("When Writing Mock Tests", "when writing mock tests"),
            ("  When\tA  B \r\n", "when a b"),
            ("", ""),
            ("   ", ""),
            ("ÉCOLE Straße", "école straße"),
            ("a\u{a0}b", "a b"),
        ] {
            assert_eq!(super::normalize(s), want, "{s:?}");
        }
    }

    proptest! {
        #[test]
        fn equals_the_plain_definition(s in "[ a-zA-Z\\t\\n\\r\u{a0}É0-9_-]{0,24}") {
            prop_assert_eq!(super::normalize(&s), reference(&s));
        }
    }
}
