//! Which decision a record was imported as before (by the identity on its `Source:` line, or one an older build wrote), and which imported decisions no longer have a record.

use super::mark;
use super::prune::Gone;
use super::section::source_line;
use super::source::{self, Record};
use crate::model::{HeadingId, Workspace};

/// Decisions imported before from a section of a source read now that no
/// longer has it (renamed or removed there), or from a source given that
/// holds no decision any more (`emptied`: emptied of its sections, or
/// missing; a folder's path stands for every file in it): listed, removed
/// only by `--prune` ([`super::prune`]).
pub(super) fn stale(ws: &Workspace, records: &[Record], emptied: &[(String, &str)]) -> Vec<Gone> {
    let mut sources: Vec<&str> =
        records.iter().filter(|r| r.kind == source::Kind::Sections).map(|r| r.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    let ids: Vec<String> = records.iter().map(source_line).collect();
    let mut out = Vec::new();
    for (_, f, _) in ws.decisions() {
        for line in f.text.lines().map(|l| mark::split(l).0) {
            let Some((src, section)) = identity(line) else { continue };
            let why = if let Some((e, what)) = emptied.iter().find(|(e, _)| src == e.as_str() || is_under(src, e)) {
                format!("{} has `{line}`, but {e} {what}: delete that decision and its entry", f.path)
            } else if let (Some(section), true) = (section, sources.contains(&src)) {
                if records.iter().any(|r| source_line(r) == line || legacy_ids(r, &ids).iter().any(|l| l == line)) {
                    continue;
                }
                format!(
                    "{} has `{line}`, but {src} no longer has a section `{section}`: delete or rename that decision",
                    f.path
                )
            } else {
                continue;
            };
            if let Some(at) = find_source(ws, line) {
                out.push(Gone { at: Some(at), id: Some(line.to_string()), why, superseded: false });
            }
        }
    }
    out
}

/// The identity line of a decision: its section's last `Source:` line, without the fingerprint.
pub(super) fn identity_of(ws: &Workspace, h: HeadingId) -> Option<String> {
    let (f, hd) = (ws.file(h.file)?, ws.heading(h)?);
    let section = f.text.get(hd.section.start..hd.section.end)?;
    section.lines().rev().find(|l| l.starts_with("Source: ")).map(|l| mark::split(l).0.to_string())
}

/// Every (source, section) pair the memory holds sub-section decisions of
/// (`Source: CLAUDE.md § Security › Secrets` → (`CLAUDE.md`, `Security`)),
/// read in one pass: split before, those sections stay split
/// ([`source::parse_with`]).
pub fn split_parents(ws: &Workspace) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (_, f, _) in ws.decisions() {
        for line in f.text.lines().map(|l| mark::split(l).0) {
            let Some((src, Some(section))) = identity(line) else { continue };
            let Some((parent, _)) = section.split_once(" › ") else { continue };
            if !out.iter().any(|(s, p)| s == src && p == parent) {
                out.push((src.to_string(), parent.to_string()));
            }
        }
    }
    out
}

/// A `Source:` line's file and section (`Source: CLAUDE.md § Testing`): None for any other line.
fn identity(line: &str) -> Option<(&str, Option<&str>)> {
    let src = line.strip_prefix("Source: ")?;
    Some(match src.split_once(" § ") {
        Some((file, section)) => (file, Some(section)),
        None => (src, None),
    })
}

/// Whether the file `src` is inside the folder `dir` (at any depth).
fn is_under(src: &str, dir: &str) -> bool {
    src.strip_prefix(dir.trim_end_matches('/')).is_some_and(|rest| rest.starts_with('/'))
}

/// Decisions imported from a file of a folder imported whole now (an ADR,
/// a rules file), whose file is no longer in it (deleted or renamed there):
/// listed, removed only by `--prune`.
pub(super) fn gone(ws: &Workspace, folders: &[(String, Vec<String>)]) -> Vec<Gone> {
    let mut out = Vec::new();
    for (_, f, _) in ws.decisions() {
        for line in f.text.lines().map(|l| mark::split(l).0) {
            let Some((src, _)) = identity(line) else { continue };
            let Some((dir, _)) = src.rsplit_once('/') else { continue };
            if folders.iter().any(|(d, files)| d.trim_end_matches('/') == dir && !files.iter().any(|x| x == src)) {
                let why = format!(
                    "{} has `{line}`, but {src} is no longer in {dir}: delete that decision and its entry, or \
                     rename it to the record it became",
                    f.path
                );
                if let Some(at) = find_source(ws, line) {
                    out.push(Gone { at: Some(at), id: Some(line.to_string()), why, superseded: false });
                }
            }
        }
    }
    out
}

/// The identities older builds wrote for `r`, when no record read now has
/// them: a rules section's title with its trailing `:` (dropped since), and
/// a sub-section's title without its parent (named since). A decision an
/// older build imported is then updated in place, never imported twice.
fn legacy_ids(r: &Record, ids: &[String]) -> Vec<String> {
    if r.kind != source::Kind::Sections {
        return Vec::new();
    }
    let mut old = vec![format!("Source: {} § {}:", r.source, r.title)];
    if r.parent.is_some() {
        old.push(format!("Source: {} § {}", r.source, r.title));
    }
    old.retain(|id| !ids.contains(id));
    old
}

/// The decision `r` was imported as before: by its identity, else by one an older build wrote.
pub(super) fn find_record(ws: &Workspace, r: &Record, ids: &[String]) -> Option<(String, HeadingId)> {
    find_source(ws, &source_line(r)).or_else(|| legacy_ids(r, ids).iter().find_map(|id| find_source(ws, id)))
}

/// The decision whose identity is the line `id` (a record imported before):
/// the innermost section that holds it as its own last `Source:` line. A
/// `Source:` line quoted in another section's body names nothing (found by
/// review: a rules section that quoted its neighbour's identity took its
/// updates).
fn find_source(ws: &Workspace, id: &str) -> Option<(String, HeadingId)> {
    for (file, src, d) in ws.decisions() {
        let text = src.text.as_str();
        let starts = text.match_indices(id).map(|(i, _)| i).filter(|&i| {
            let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            (i == 0 || text.as_bytes()[i - 1] == b'\n') && mark::split(text[i..end].trim_end_matches('\r')).0 == id
        });
        for at in starts {
            let innermost = d
                .headings
                .iter()
                .enumerate()
                .filter(|(_, h)| {
                    h.is_semantic() && h.section.start <= at && at < h.section.end.max(h.section.start + 1)
                })
                .max_by_key(|(_, h)| h.level);
            let Some((idx, _)) = innermost else { continue };
            let h = HeadingId { file, idx: idx as u32 };
            if identity_of(ws, h).as_deref() == Some(id) {
                return Some((src.path.clone(), h));
            }
        }
    }
    None
}

/// Whether `heading`, found by `r`'s identity, was made from `r`'s title as
/// it is now: always for a rules section (its identity is its title); for
/// an ADR, when the heading ends with the title's words after the first
/// (`When Deciding Using X` and `When Using X` for `Using X`; a verb made a
/// gerund, `Build X` as `When Building X`). An ADR retitled beyond its first
/// word is reported, and its heading left for the person to rename.
pub(super) fn earlier_heading_of(heading: &str, r: &Record) -> bool {
    if r.kind == source::Kind::Sections {
        return true;
    }
    let title = crate::syntax::normalize(&r.title);
    let rest = title.split_once(' ').map_or(title.as_str(), |(_, rest)| rest);
    crate::syntax::normalize(heading).ends_with(rest)
}
