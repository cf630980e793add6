//! The fingerprint `import` leaves on an imported section's `Source:` line (`Source: docs/adr/1.md <!-- import 1f2e3d4c -->`): the format, read and taken away (`recall::import::mark` computes it and says what it is for).

/// The comment around a fingerprint.
pub const OPEN: &str = " <!-- import ";
pub const CLOSE: &str = " -->";

/// The identity part of a `Source:` line and its fingerprint, if it has one.
pub fn split(line: &str) -> (&str, Option<&str>) {
    let line = line.trim_end();
    match line.strip_suffix(CLOSE).and_then(|l| l.rsplit_once(OPEN)) {
        Some((id, hash)) if !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()) => (id, Some(hash)),
        _ => (line, None),
    }
}

/// `text` without the fingerprints on its `Source:` lines: what an agent is
/// shown of an imported decision (`/when`, the hook) says where it came
/// from, not the hash import keeps for itself.
pub fn without_marks(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(OPEN) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        if body.starts_with("Source: ") {
            out.push_str(split(body).0);
            out.push_str(&line[body.len()..]);
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out)
}
