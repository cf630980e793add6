//! A record's title as import reads it: without a record number, a label or markup; from its text when it has no word; from a file's name.

/// A title as plain words: without a record number (`2.`, `ADR-0002:`), Markdown marks, links or a `|`.
pub fn clean_title(raw: &str) -> String {
    let mut t = raw.trim();
    // The label some teams put before every title (`Architecture Decision Record: Configuration`).
    const LABELS: &[&str] = &[
        "architecture decision record",
        "architectural decision record",
        "architecture decision",
        "architectural decision",
        "decision record",
        "adr",
    ];
    let lower = t.to_ascii_lowercase();
    if let Some(label) = LABELS.iter().find(|l| lower.starts_with(*l)) {
        let rest = t[label.len()..].trim_start_matches(['-', ' ', '_', ':']);
        if rest.chars().any(char::is_alphabetic) && !t[label.len()..].starts_with(char::is_alphabetic) {
            t = rest;
        }
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        let after = &t[digits..];
        if let Some(rest) = after.strip_prefix(['.', ':', ')', '-']).or(after.strip_prefix(' ').filter(|_| true)) {
            t = rest;
        }
    }
    // [text](url) → text; drop `*`, `_` emphasis marks at word edges and backticks.
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' | '*' => {}
            // An inline HTML tag (`<img src="db.svg">`) is no word of the title (found by review:
            // the heading made of it was not read back as written, and the whole run stopped).
            '<' if chars.peek().is_some_and(|n| n.is_ascii_alphabetic() || *n == '/') => {
                for x in chars.by_ref() {
                    if x == '>' {
                        break;
                    }
                }
            }
            '[' => {}
            ']' if chars.peek() == Some(&'(') => {
                for x in chars.by_ref() {
                    if x == ')' {
                        break;
                    }
                }
            }
            ']' => {}
            '|' => out.push('-'),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    words.join(" ").trim_start_matches(['/', '.', '#', '-', ':']).trim_end_matches(':').trim().to_string()
}

/// The words a heading is made of: `title`, or when it has no word (`## 🚀`:
/// found by review, it made `/when working on 🚀`, which no prompt finds)
/// the first words of its text's first line. The record's identity stays
/// its title, so an edit of that line changes no identity.
pub fn worded(title: &str, text: &str) -> String {
    if title.chars().any(char::is_alphanumeric) {
        return title.to_string();
    }
    let first = text.lines().map(|l| clean_title(l.trim_start_matches(['-', '*', '>', ' ']))).find(|l| !l.is_empty());
    let words: Vec<String> = first.unwrap_or_default().split_whitespace().take(6).map(str::to_string).collect();
    words.join(" ").trim_end_matches(['.', ',', ';', ':']).to_string()
}

/// A file name as words: `003-development-guidelines.mdc` → `development guidelines`.
pub(super) fn humane_stem(name: &str) -> String {
    let name = name.trim_start_matches('.');
    let stem = name.split('.').next().unwrap_or(name);
    let stem = stem.trim_start_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '_');
    stem.replace(['-', '_'], " ").trim().to_string()
}

/// A table of contents: links to the file's own sections, not a rule.
pub(super) fn is_contents(title: &str) -> bool {
    let t = title.trim().trim_end_matches(':').to_lowercase();
    matches!(t.as_str(), "table of contents" | "contents" | "toc" | "index")
}
