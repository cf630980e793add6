//! The rule codes a failure reports and a decision cites (`D205`, `E0502`, `TS2345`): exact names, like paths.

use rustc_hash::FxHashSet as HashSet;

/// Adds a `rule:` term for every rule or error code `text` names: a word of
/// one to four capitals and two to five digits (`D205`, `EM101`, `E0502`,
/// `TS2345`, `SC2086`, `PLR0913`), as linters and compilers print them and
/// as decisions cite them in prose (`ruff D205`). A code names one rule, as
/// a path names one file: a decision that cites it is about it. Not codes:
/// the names of algorithms, encodings and architectures ([`NOT_RULES`]:
/// `SHA256`, `UTF16`, `AMD64`, `X86`), a part of a hyphenated identifier (a
/// UUID's `A716`, `CVE-2024-…`) and a line anchor (`#L120`).
pub fn rule_terms(text: &str, out: &mut HashSet<String>) {
    let mut start = 0;
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        let at = start;
        start += word.len() + text[at + word.len()..].chars().next().map_or(0, char::len_utf8);
        let letters = word.bytes().take_while(u8::is_ascii_uppercase).count();
        let digits = word.len() - letters;
        let code = (1..=4).contains(&letters)
            && (2..=5).contains(&digits)
            && word.bytes().skip(letters).all(|b| b.is_ascii_digit());
        let joined = text[..at].ends_with(['-', '#']) || text[at + word.len()..].starts_with('-');
        if code && !joined && !NOT_RULES.contains(&&word[..letters]) {
            out.insert(format!("rule:{word}"));
        }
    }
}

/// Capitals that, with digits after them, name an algorithm, an encoding, a
/// standard or an architecture rather than a rule (`SHA256`, `UTF16`,
/// `ISO8601`, `INT64`, `AMD64`, `X86`, `WIN32`, `CP1252`).
const NOT_RULES: [&str; 17] =
    ["SHA", "UTF", "UCS", "ISO", "RFC", "AES", "RSA", "INT", "UINT", "AMD", "ARM", "X", "WIN", "CP", "H", "P", "I"];

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &str) -> Vec<String> {
        let mut set = HashSet::default();
        rule_terms(s, &mut set);
        let mut v: Vec<String> = set.into_iter().collect();
        v.sort();
        v
    }

    #[test]
    fn rule_codes_are_capitals_then_digits() {
        assert_eq!(rules("src/x.py:214:5: D205 1 blank line required"), ["rule:D205"]);
        assert_eq!(rules("é D205 — ü E501."), ["rule:D205", "rule:E501"]);
        assert_eq!(
            rules("error[E0502]: cannot borrow; TS2345 and PLR0913, EM101."),
            ["rule:E0502", "rule:EM101", "rule:PLR0913", "rule:TS2345"]
        );
        for none in [
            "exit status 128",
            "UTF8 d205 D2 ABCDE12 D123456 [Errno 2] HTTP",
            "",
            "日本語 D205x",
            "SHA256 UTF16 ISO8601 AMD64 X86 WIN32 INT64 P256",
            "550E8400-E29B-41D4-A716-446655440000 CVE-2024-3094 blob/main/x.py#L120",
        ] {
            assert!(rules(none).is_empty(), "{none}");
        }
    }
}
