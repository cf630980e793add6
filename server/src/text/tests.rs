//! Tests of the line index: LF, CRLF, lone CR, clamping and UTF-16 round trips.

use super::*;
use proptest::prelude::*;

fn pos(text: &str, offset: usize, enc: Encoding) -> (u32, u32) {
    let p = LineIndex::new(text).position(text, offset, enc);
    (p.line, p.col)
}

#[test]
fn lines_split_on_lf_crlf_and_lone_cr() {
    let text = "a\nb\r\nc\rd";
    let got: Vec<&str> = lines(text).map(|l| l.content.slice(text)).collect();
    assert_eq!(got, ["a", "b", "c", "d"]);
    let idx = LineIndex::new(text);
    assert_eq!(idx.line_count(), 4);
    assert_eq!(pos(text, 5, Encoding::Utf8), (2, 0));
    assert_eq!(pos(text, 7, Encoding::Utf8), (3, 0));
}

#[test]
fn trailing_terminator_starts_an_empty_line() {
    let text = "a\r\n";
    assert_eq!(LineIndex::new(text).line_count(), 2);
    assert_eq!(lines(text).count(), 1);
    assert_eq!(pos(text, 3, Encoding::Utf16), (1, 0));
}

#[test]
fn utf16_counts_surrogate_pairs() {
    let text = "x😀y\né";
    assert_eq!(pos(text, 5, Encoding::Utf16), (0, 3));
    assert_eq!(pos(text, 5, Encoding::Utf8), (0, 5));
    assert_eq!(pos(text, 9, Encoding::Utf16), (1, 1));
    let idx = LineIndex::new(text);
    assert_eq!(idx.offset(text, LineCol { line: 0, col: 3 }, Encoding::Utf16), 5);
    // Inside the surrogate pair: rounds down to the emoji's start.
    assert_eq!(idx.offset(text, LineCol { line: 0, col: 2 }, Encoding::Utf16), 1);
    // Inside the UTF-8 sequence: rounds down too.
    assert_eq!(idx.offset(text, LineCol { line: 0, col: 3 }, Encoding::Utf8), 1);
}

#[test]
fn out_of_range_positions_are_clamped() {
    let text = "ab\r\ncd";
    let idx = LineIndex::new(text);
    assert_eq!(idx.offset(text, LineCol { line: 0, col: 99 }, Encoding::Utf16), 2);
    assert_eq!(idx.offset(text, LineCol { line: 99, col: 0 }, Encoding::Utf8), 6);
    assert_eq!(pos(text, 999, Encoding::Utf16), (1, 2));
    // An offset inside CRLF maps to the end of the line's content.
    assert_eq!(pos(text, 3, Encoding::Utf8), (0, 3));
    assert_eq!(idx.offset(text, LineCol { line: 0, col: 3 }, Encoding::Utf8), 2);
}

#[test]
fn empty_text_has_one_empty_line() {
    let idx = LineIndex::new("");
    assert_eq!(idx.line_count(), 1);
    assert_eq!(idx.offset("", LineCol { line: 3, col: 3 }, Encoding::Utf16), 0);
    assert_eq!(pos("", 10, Encoding::Utf8), (0, 0));
}

fn text_strategy() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\r".to_string()),
            Just("é".to_string()),
            Just("😀".to_string()),
            Just("𝄞".to_string()),
            Just("中".to_string()),
            any::<char>().prop_map(|c| c.to_string()),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn position_round_trips_at_every_char_boundary(text in text_strategy()) {
        let idx = LineIndex::new(&text);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            for (offset, ch) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
                // Offsets inside a CRLF pair are not positions of their own.
                if ch == '\n' && offset > 0 && text.as_bytes()[offset - 1] == b'\r' {
                    continue;
                }
                let p = idx.position(&text, offset, enc);
                prop_assert_eq!(idx.offset(&text, p, enc), offset, "enc {:?} pos {:?}", enc, p);
            }
        }
    }

    #[test]
    fn arbitrary_positions_never_panic_and_land_on_boundaries(text in text_strategy(), line in 0u32..50, col in 0u32..200) {
        let idx = LineIndex::new(&text);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let off = idx.offset(&text, LineCol { line, col }, enc);
            prop_assert!(text.is_char_boundary(off));
        }
    }
}

proptest! {
    #[test]
    fn an_edited_line_index_equals_a_fresh_one(
        text in text_strategy(),
        a in 0usize..200,
        b in 0usize..200,
        insert in "[a\r\n😀]{0,6}",
    ) {
        let (mut from, mut to) = (a.min(b).min(text.len()), a.max(b).min(text.len()));
        while !text.is_char_boundary(from) { from -= 1; }
        while !text.is_char_boundary(to) { to -= 1; }
        let to = to.max(from);
        let new = format!("{}{}{}", &text[..from], insert, &text[to..]);
        prop_assert_eq!(LineIndex::new(&text).edited(&new, from, to), LineIndex::new(&new));
    }
}

#[test]
fn thousands_are_separated() {
    let got: Vec<String> = [0, 999, 1000, 5186, 1234567].into_iter().map(thousands).collect();
    assert_eq!(got, ["0", "999", "1,000", "5,186", "1,234,567"]);
}

#[test]
fn control_characters_are_shown_not_sent() {
    assert_eq!(escape_controls("docs/adr/1.md"), "docs/adr/1.md");
    assert_eq!(escape_controls("a\x1b[31mb\tc\u{9b}d\n"), "a\\u{1b}[31mb\tc\\u{9b}d\\u{a}");
}

#[test]
fn lone_carriage_returns_end_lines_as_elsewhere() {
    assert_eq!(lone_cr_as_lf("a\rb\r\nc\r"), "a\nb\r\nc\n");
    assert!(matches!(lone_cr_as_lf("a\r\nb\n"), std::borrow::Cow::Borrowed(_)));
}
