//! Which decision a record was imported as before (by the identity on its `Source:` line, or one an older build wrote), and which imported decisions no longer have a record.

use super::mark;
use super::prune::Gone;
use super::section::source_line;
use super::source::{self, Record};
use crate::model::{HeadingId, Workspace};
use rustc_hash::{FxHashMap, FxHashSet};

/// A decision's file and heading.
pub(super) type At = (String, HeadingId);

/// The memory's imported decisions by their identity line, and the
/// identities the records read now have: built once per import, so that
/// finding a record's decision is a lookup, not a scan of every decision
/// file (3,000 sections took 14 s to re-import, all of it in these scans).
pub(super) struct Identities {
    /// Each identity line to the first decision that holds it as its own.
    held: FxHashMap<String, At>,
    /// The identity lines of the records read now.
    now: FxHashSet<String>,
    /// Those and the ones older builds wrote for them ([`legacy_ids`]).
    known: FxHashSet<String>,
}

impl Identities {
    pub(super) fn new(ws: &Workspace, records: &[Record]) -> Self {
        let now: FxHashSet<String> = records.iter().map(source_line).collect();
        let mut known = now.clone();
        known.extend(records.iter().flat_map(|r| legacy_ids(r, &now)));
        Identities { held: held(ws), now, known }
    }

    /// Whether a record read now has the identity line `id`.
    pub(super) fn is_read_now(&self, id: &str) -> bool {
        self.now.contains(id)
    }

    /// The decision whose identity is the line `id`.
    fn find(&self, id: &str) -> Option<At> {
        self.held.get(id).cloned()
    }
}

/// Decisions imported before from a section of a source read now that no
/// longer has it (renamed or removed there), or from a source given that
/// holds no decision any more (`emptied`: emptied of its sections, or
/// missing; a folder's path stands for every file in it): listed, removed
/// only by `--prune` ([`super::prune`]).
pub(super) fn stale(ws: &Workspace, ids: &Identities, records: &[Record], emptied: &[(String, &str)]) -> Vec<Gone> {
    let mut sources: Vec<&str> =
        records.iter().filter(|r| r.kind == source::Kind::Sections).map(|r| r.source.as_str()).collect();
    sources.sort();
    sources.dedup();
    let mut out = Vec::new();
    for (_, f, _) in ws.decisions() {
        for line in f.text.lines().map(|l| mark::split(l).0) {
            let Some((src, section)) = identity(line) else { continue };
            let why = if let Some((e, what)) = emptied.iter().find(|(e, _)| src == e.as_str() || is_under(src, e)) {
                format!("{} has `{line}`, but {e} {what}: delete that decision and its entry", f.path)
            } else if let (Some(section), true) = (section, sources.contains(&src)) {
                if ids.known.contains(line) {
                    continue;
                }
                format!(
                    "{} has `{line}`, but {src} no longer has a section `{section}`: delete or rename that decision",
                    f.path
                )
            } else {
                continue;
            };
            if let Some(at) = ids.find(line) {
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
pub(super) fn gone(ws: &Workspace, ids: &Identities, folders: &[(String, Vec<String>)]) -> Vec<Gone> {
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
                if let Some(at) = ids.find(line) {
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
fn legacy_ids(r: &Record, now: &FxHashSet<String>) -> Vec<String> {
    if r.kind != source::Kind::Sections {
        return Vec::new();
    }
    let mut old = vec![format!("Source: {} § {}:", r.source, r.title)];
    if r.parent.is_some() {
        old.push(format!("Source: {} § {}", r.source, r.title));
    }
    old.retain(|id| !now.contains(id));
    old
}

/// The decision `r` was imported as before: by its identity, else by one an older build wrote.
pub(super) fn find_record(ids: &Identities, r: &Record) -> Option<At> {
    ids.find(&source_line(r)).or_else(|| legacy_ids(r, &ids.now).iter().find_map(|id| ids.find(id)))
}

/// Each identity line of the memory to the decision that holds it: the
/// innermost section that has it as its own last `Source:` line, the first
/// such in file order. A `Source:` line quoted in another section's body
/// names nothing (found by review: a rules section that quoted its
/// neighbour's identity took its updates).
fn held(ws: &Workspace) -> FxHashMap<String, At> {
    let mut out: FxHashMap<String, At> = FxHashMap::default();
    for (file, src, d) in ws.decisions() {
        let mut at = 0;
        for line in src.text.split_inclusive('\n') {
            let start = at;
            at += line.len();
            let line = line.trim_end_matches('\n').trim_end_matches('\r');
            if !line.starts_with("Source: ") {
                continue;
            }
            let id = mark::split(line).0;
            // Sections nest, so the innermost one holding the line is the last to start before it.
            let before = d.headings.partition_point(|h| h.section.start <= start);
            let innermost = d.headings[..before]
                .iter()
                .rposition(|h| h.is_semantic() && start < h.section.end.max(h.section.start + 1));
            let Some(idx) = innermost else { continue };
            let h = HeadingId { file, idx: idx as u32 };
            if !out.contains_key(id) && identity_of(ws, h).as_deref() == Some(id) {
                out.insert(id.to_string(), (src.path.clone(), h));
            }
        }
    }
    out
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
