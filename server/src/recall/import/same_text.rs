//! Decisions import would write twice: a record whose text is, word for word, a decision the memory (or this run) already has, from another source or a renamed section.
//!
//! Found by review: `CLAUDE.md` and an `AGENTS.md` copied from it, imported
//! together, made every rule two decisions of the same words; the ranking
//! then splits its confidence between them and the hook stays silent on
//! both (`git push --force` from 0.98 to 0.28). The text compared is the
//! body as import writes it (without its `Source:` and `Date:` lines),
//! whitespace collapsed; a near copy (one word changed) is two decisions,
//! as its words say two things.

use rustc_hash::FxHashMap as HashMap;

use crate::model::{HeadingId, Workspace};

/// Fewest words a body needs to be called a copy: two sections that both say
/// `TODO` or `See CONTRIBUTING.md.` are two rules with their own titles
/// (found by review).
const MIN_WORDS: usize = 8;

/// The comparable text of a body's lines (its `Source:`/`Date:` lines and
/// fingerprints left out, whitespace collapsed); None when fewer than
/// [`MIN_WORDS`] words are left.
pub(super) fn key<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let words: Vec<&str> = lines
        .into_iter()
        .filter(|l| !l.starts_with("Source: ") && !l.starts_with("Date: "))
        .flat_map(str::split_whitespace)
        .collect();
    (words.len() >= MIN_WORDS).then(|| words.join(" "))
}

/// Every decision of `ws` by the [`key`] of its section's body (the first of
/// two with the same text).
pub(super) fn in_memory(ws: &Workspace) -> HashMap<String, HeadingId> {
    let mut out = HashMap::default();
    for (fid, f, d) in ws.decisions() {
        for (i, h) in d.headings.iter().enumerate().filter(|(_, h)| h.is_semantic()) {
            let Some(text) = f.text.get(h.section.start..h.section.end) else { continue };
            // The body: the section without its heading line.
            let body = text.split_once('\n').map_or("", |x| x.1);
            if let Some(k) = key(body.lines()) {
                out.entry(k).or_insert(HeadingId { file: fid, idx: i as u32 });
            }
        }
    }
    out
}

/// When the decision `h` (the same text as `r`) was imported from `r`'s
/// source file under a title that file no longer has (none of `ids`, the
/// identities read now), or from a source that is gone (one of `gone`: an
/// ADR file renamed in its folder): its file and that identity line. The
/// section or the file was renamed, and the decision is `r`'s (found by
/// review: an ADR file renamed was removed by `--prune` as gone while its
/// record was skipped as a copy of it).
pub(super) fn renamed_from(
    ws: &Workspace,
    h: HeadingId,
    r: &super::source::Record,
    ids: &super::identity::Identities,
    gone: &[String],
) -> Option<(String, String)> {
    let old = super::identity::identity_of(ws, h)?;
    let prefix = format!("Source: {} § ", r.source);
    let moved = old.starts_with(&prefix) || gone.contains(&old);
    (moved && !ids.is_read_now(&old)).then(|| Some((ws.file(h.file)?.path.clone(), old))).flatten()
}

/// `section` with its identity line `old` (fingerprint kept) naming `id` instead.
pub(super) fn with_source_line(section: &str, old: &str, id: &str) -> String {
    use crate::syntax::source_mark::{split, CLOSE, OPEN};
    section
        .split_inclusive('\n')
        .map(|l| {
            let line = l.trim_end_matches(['\n', '\r']);
            let end = &l[line.len()..];
            match split(line) {
                (was, Some(hash)) if was == old => format!("{id}{OPEN}{hash}{CLOSE}{end}"),
                (was, None) if was == old => format!("{id}{end}"),
                _ => l.to_string(),
            }
        })
        .collect()
}
