//! cl100k_base's pre-tokenizer: the pieces tiktoken's pattern cuts text into before any merge.
//!
//! The pattern, whose alternatives are tried in this order at each position:
//! `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//! ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`. It is written out by
//! hand rather than compiled: a regex with these Unicode classes takes about
//! a millisecond to build in every process, this costs nothing, and the tests
//! hold it piece for piece to `bpe-openai`'s compiled pattern. The classes
//! are regex-syntax's own (`build.rs`), so `\p{L}` means what it means there.

use std::cmp::Ordering;

include!(concat!(env!("OUT_DIR"), "/cl100k_classes.rs"));

#[inline(never)]
fn in_class(class: &[(char, char)], c: char) -> bool {
    class
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                Ordering::Less
            } else if lo > c {
                Ordering::Greater
            } else {
                Ordering::Equal
            }
        })
        .is_ok()
}

#[inline(always)]
fn letter(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        in_class(LETTER, c)
    }
}

#[inline(always)]
fn number(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_class(NUMBER, c)
    }
}

#[inline(always)]
fn space(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '\t'..='\r' | ' ')
    } else {
        in_class(SPACE, c)
    }
}

/// Neither space, letter nor number: `[^\s\p{L}\p{N}]`.
#[inline(always)]
fn sign(c: char) -> bool {
    !space(c) && !letter(c) && !number(c)
}

fn newline(c: char) -> bool {
    matches!(c, '\r' | '\n')
}

/// The pieces of `text`, in order; together they are all of it.
pub fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let c = rest.chars().next()?;
        let (piece, tail) = rest.split_at(piece_len(rest, c));
        rest = tail;
        Some(piece)
    })
}

/// The byte length of a run of `class` at the start of `s`, at most `max` characters.
fn run(s: &str, class: impl Fn(char) -> bool, max: usize) -> usize {
    let bytes = s.as_bytes();
    let (mut at, mut n) = (0, 0);
    while n < max {
        let Some(&b) = bytes.get(at) else { break };
        let (c, len) = if b < 0x80 {
            (char::from(b), 1)
        } else {
            let c = s[at..].chars().next().unwrap_or_default();
            (c, c.len_utf8())
        };
        if !class(c) {
            break;
        }
        at += len;
        n += 1;
    }
    at
}

/// The length of the piece that starts `s`, whose first character is `c`.
fn piece_len(s: &str, c: char) -> usize {
    ascii_piece(s.as_bytes()).unwrap_or_else(|| any_piece(s, c))
}

/// The common pieces when they and the byte after them are ASCII, by byte
/// loops: a word with or without a lead (` word`, `/when`), up to three
/// digits, one line feed before a non-space, and signs with or without a
/// space before them (` |`, `,`). `None` for anything else (an apostrophe,
/// a run of spaces, any non-ASCII byte in reach): [`any_piece`] decides.
#[inline(always)]
fn ascii_piece(s: &[u8]) -> Option<usize> {
    // A byte whose class this loop knows for sure: not a control character
    // (some are `\s`, some signs), not part of a longer character.
    let plain = |b: &u8| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let run = |from: usize, class: fn(&u8) -> bool, max: usize| -> Option<usize> {
        let n = s[from..].iter().take(max).position(|b| !class(b)).unwrap_or(max.min(s.len() - from));
        match s.get(from + n) {
            Some(b) if !plain(b) => None,
            _ => Some(from + n),
        }
    };
    let letter: fn(&u8) -> bool = u8::is_ascii_alphabetic;
    let sign: fn(&u8) -> bool = u8::is_ascii_punctuation;
    let signs =
        |from: usize| run(from, sign, usize::MAX).and_then(|end| run(end, |b| matches!(b, b'\n' | b'\r'), usize::MAX));
    // An apostrophe may start a contraction (`'s`): never a lead here.
    let lead = |b: &u8| matches!(b, b' ' | b'\t') || (sign(b) && *b != b'\'');
    match s {
        [b, ..] if letter(b) => run(1, letter, usize::MAX),
        [b, l, ..] if letter(l) && lead(b) => run(2, letter, usize::MAX),
        [b, ..] if b.is_ascii_digit() => run(1, u8::is_ascii_digit, 2),
        [b'\n', b, ..] if b.is_ascii_graphic() => Some(1),
        [b, ..] if lead(b) && *b != b' ' && *b != b'\t' => signs(1),
        [b' ', b, ..] if sign(b) && *b != b'\'' => signs(2),
        _ => None,
    }
}

/// Any piece: the pattern's alternatives in order.
fn any_piece(s: &str, c: char) -> usize {
    let first = c.len_utf8();
    let rest = &s[first..];
    let next = rest.chars().next();
    if c == '\'' {
        if let Some(n) = contraction(rest) {
            return first + n;
        }
    }
    if letter(c) || (!newline(c) && !number(c) && next.is_some_and(letter)) {
        return first + run(rest, letter, usize::MAX);
    }
    if number(c) {
        return first + run(rest, number, 2);
    }
    if sign(c) || (c == ' ' && next.is_some_and(sign)) {
        let signs = if sign(c) { first } else { first + next.map_or(0, char::len_utf8) };
        let signs = signs + run(&s[signs..], sign, usize::MAX);
        return signs + run(&s[signs..], newline, usize::MAX);
    }
    // Whitespace: through its last line break, else all of it at the end of
    // the text or when it is one character, else all but its last character
    // (which then leads the next piece).
    let spaces = run(s, space, usize::MAX);
    if let Some(at) = s[..spaces].rfind(['\r', '\n']) {
        return at + 1;
    }
    match s[..spaces].char_indices().next_back() {
        Some((last, _)) if spaces < s.len() && last > 0 => last,
        _ => spaces,
    }
}

/// The length after the apostrophe of `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`
/// or `'d`, in any case (Unicode's: `ſ` is an `s`).
fn contraction(rest: &str) -> Option<usize> {
    let mut chars = rest.chars();
    let one = chars.next()?;
    let two = chars.next().map(|c| c.to_ascii_lowercase());
    match one {
        's' | 'S' | 't' | 'T' | 'm' | 'M' | 'd' | 'D' => Some(1),
        'ſ' => Some('ſ'.len_utf8()),
        'r' | 'R' | 'v' | 'V' if two == Some('e') => Some(2),
        'l' | 'L' if two == Some('l') => Some(2),
        _ => None,
    }
}
