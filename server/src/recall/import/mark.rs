//! The fingerprint `import` leaves on a section's `Source:` line, by which a later import tells a person's edit from a change in the source.
//!
//! `Source: docs/adr/0006-use-helm.md <!-- import 1f2e3d4c -->`: the
//! comment (invisible where Markdown is rendered) holds a hash of the
//! section as `import` wrote it, heading to the line before `Source:`,
//! without line endings and trailing blanks. On the next import:
//! - the section still has that hash: nobody edited it, and it is
//!   rewritten from its source when the source changed;
//! - the source would give the section the hash it holds: the source did
//!   not change, and the section is kept as the person edited it;
//! - neither: both changed, and the section is kept and the record listed,
//!   never overwritten;
//! - no fingerprint (a person took it away after merging a change by hand,
//!   or an older build wrote the section): the section is the person's, left
//!   alone unless its text is what the source gives (then the mark is added).

pub use crate::syntax::source_mark::split;
use crate::syntax::source_mark::{CLOSE, OPEN};

/// The fingerprint of a section: its text without its `Source:` line (the
/// identity, which a person may correct when a record is renamed), `\r` or
/// trailing blanks.
pub fn of(section: &str) -> String {
    let last = section.lines().enumerate().filter(|(_, l)| l.starts_with("Source: ")).map(|(i, _)| i).last();
    let mut canonical = String::with_capacity(section.len());
    for (i, line) in section.lines().enumerate() {
        let line = if Some(i) == last { "Source:" } else { line.trim_end() };
        canonical.push_str(line);
        canonical.push('\n');
    }
    format!("{:08x}", crate::text::fnv1a(canonical.trim_end().as_bytes()) as u32)
}

/// The fingerprint a section's `Source:` line holds (its last such line).
pub fn held(section: &str) -> Option<&str> {
    section.lines().rev().find(|l| l.starts_with("Source: ")).and_then(|l| split(l).1)
}

/// `section` with its fingerprint on its `Source:` line (the last one).
pub fn marked(section: &str) -> String {
    marked_with(section, &of(section))
}

/// `section` with `hash` on its `Source:` line (the last one), whatever mark it held.
pub fn marked_with(section: &str, hash: &str) -> String {
    let Some(at) = section.rfind("\nSource: ").map(|i| i + 1).or(section.starts_with("Source: ").then_some(0)) else {
        return section.to_string();
    };
    let end = section[at..].find(['\r', '\n']).map_or(section.len(), |n| at + n);
    let id = split(&section[at..end]).0.len();
    format!("{}{OPEN}{hash}{CLOSE}{}", &section[..at + id], &section[end..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::source_mark::without_marks;

    #[test]
    fn a_mark_is_read_back_and_does_not_count_in_the_fingerprint() {
        let s = "## When Using Helm\r\n\r\nUse Helm.  \r\n\r\nSource: docs/adr/1.md\r\n";
        let m = marked(s);
        assert!(m.ends_with(&format!("Source: docs/adr/1.md <!-- import {} -->\r\n", of(s))), "{m:?}");
        assert_eq!(held(&m), Some(of(s).as_str()));
        assert_eq!(of(&m), of(s));
        assert_eq!(of(&m), of(&s.replace("\r\n", "\n")), "line endings do not count");
        assert_eq!(marked(&m), m, "marking twice changes nothing");
        assert_ne!(of(&m.replace("Use Helm.", "Use Helm 3.")), of(s));
        assert_eq!(split("Source: a.md <!-- import zz -->"), ("Source: a.md <!-- import zz -->", None));
        assert_eq!(held("## x\n\nno source\n"), None);
        assert_eq!(without_marks(&m), s, "shown without the mark");
        assert!(matches!(without_marks("Source: a.md\n"), std::borrow::Cow::Borrowed(_)));
    }
}
