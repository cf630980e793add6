//! Which decision a record was imported as before (by the identity on its `Source:` line, or one an older build wrote), and which imported decisions no longer have a record.

use super::mark;
use super::prune::Gone;
use super::section::source_line;
use super::source::{self, Record};
use crate::model::{HeadingId, Workspace};

/// Decisions imported before from a section of a source read now that no longer has it
/// (renamed or removed there): listed, removed only by `--prune` ([`super::prune`]).
pub(super) fn stale(ws: &Workspace, records: &[Record]) -> Vec<Gone> {
    let mut sources: Vec<&str> =
        records.iter().filter(|r| r.kind == source::Kind::Sections).map(|r| r.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    let mut out = Vec::new();
    for src in sources {
        let prefix = format!("Source: {src} § ");
        for (_, f, _) in ws.decisions() {
            for line in f.text.lines().map(|l| mark::split(l).0).filter(|l| l.starts_with(&prefix)) {
                let ids: Vec<String> = records.iter().map(source_line).collect();
                if !records.iter().any(|r| source_line(r) == line || legacy_ids(r, &ids).iter().any(|l| l == line)) {
                    let why = format!(
                        "{} has `{line}`, but {src} no longer has a section `{}`: delete or rename that decision",
                        f.path,
                        &line[prefix.len()..]
                    );
                    out.push(Gone { at: find_source(ws, line), why });
                }
            }
        }
    }
    out
}

/// Decisions imported from a file of a folder imported whole now, whose
/// file is no longer in it (deleted or renamed there): listed, removed only by `--prune`.
pub(super) fn gone(ws: &Workspace, folders: &[(String, Vec<String>)]) -> Vec<Gone> {
    let mut out = Vec::new();
    for (_, f, _) in ws.decisions() {
        for line in f.text.lines().map(|l| mark::split(l).0) {
            let Some(src) = line.strip_prefix("Source: ").filter(|s| !s.contains(" § ")) else { continue };
            let Some((dir, _)) = src.rsplit_once('/') else { continue };
            if folders.iter().any(|(d, files)| d.trim_end_matches('/') == dir && !files.iter().any(|x| x == src)) {
                let why = format!(
                    "{} has `{line}`, but {src} is no longer in {dir}: delete that decision and its entry, or \
                     rename it to the record it became",
                    f.path
                );
                out.push(Gone { at: find_source(ws, line), why });
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

/// The heading whose section holds the line `id` (a record imported before).
fn find_source(ws: &Workspace, id: &str) -> Option<(String, HeadingId)> {
    for (file, src, d) in ws.decisions() {
        let Some(at) = src.text.match_indices(id).map(|(i, _)| i).find(|&i| {
            let end = src.text[i..].find('\n').map_or(src.text.len(), |n| i + n);
            (i == 0 || src.text.as_bytes()[i - 1] == b'\n') && mark::split(&src.text[i..end]).0 == id
        }) else {
            continue;
        };
        let best = d
            .headings
            .iter()
            .enumerate()
            .filter(|(_, h)| h.is_semantic() && h.section.start <= at && at < h.section.end.max(h.section.start + 1))
            .max_by_key(|(_, h)| h.level)?;
        return Some((src.path.clone(), HeadingId { file, idx: best.0 as u32 }));
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
