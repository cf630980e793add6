//! How many lines each imported record keeps and which decision file it goes to: the caps on a body, and the spread of new records over files with room under `max-lines`.

use super::section::body;
use super::source::Kind;
use super::Planned;
use crate::model::Workspace;

/// Lines an ADR's body gets at most, even in a file with room: the
/// decision leads, context and consequences follow as far as this goes, and
/// the source keeps the rest (a whole ADR of 80 lines is mostly its
/// context, which `/when` would print in full).
pub(super) const MAX_BODY: usize = 24;

/// Lines a rules section's body gets at most: every line of one is a rule
/// (`Never amend commits.` 30 lines down), and the cut loses it for recall
/// too; the hook injects at most a short section whole or its first lines
/// of any, so a longer body does not crowd the others out. Measured on three
/// projects' agent instruction files (docs/resolver.md, "Rules files"): at
/// 24 lines, 2 of 32 sections lost 43 lines of rules; at 60, none.
const MAX_RULES_BODY: usize = 60;

/// The most lines `p`'s body keeps, however much room its file has.
pub(super) fn cap(p: &Planned) -> usize {
    cap_of(p.record.kind)
}

/// The most lines a body of a record of `kind` keeps.
pub(super) fn cap_of(kind: Kind) -> usize {
    if kind == Kind::Sections {
        MAX_RULES_BODY
    } else {
        MAX_BODY
    }
}

/// The lines `p`'s section takes with a body cut to `budget` (at most its
/// [`cap`]): its heading, a blank line, the body and what ends it, and the
/// blank line after it.
pub(super) fn section_lines(p: &Planned, budget: usize) -> usize {
    2 + body(&p.record, budget.min(cap(p)), p.status.as_deref(), false, "").lines.len() + 1
}
/// The fewest lines a body is cut to, however full its file.
pub(super) const MIN_CUT: usize = 4;

/// Where each record goes: a record imported before stays in the file
/// that has it; a new one goes to its file (`file_for`) while that file has
/// room for its whole body (at most its [`cap`]) under `max-lines`,
/// then to `NAME-2.md`, `NAME-3.md`, … (so fifty ADRs are not cut to four
/// lines each, and a record added later does not cut the others shorter).
pub(super) fn spread(ws: &Workspace, planned: &mut [Planned], max_lines: usize) {
    let dir = format!("{}/", ws.config().decisions);
    let lines_of = |name: &str| {
        ws.file_id(&ws.decision_path(name)).and_then(|id| ws.file(id)).map_or(2, |f| f.text.lines().count())
    };
    // Per file name: the lines it will have, and whether it holds any section yet.
    let mut load: rustc_hash::FxHashMap<String, (usize, bool)> = rustc_hash::FxHashMap::default();
    for p in planned.iter_mut() {
        if let Some((path, _)) = &p.found {
            p.file = path.strip_prefix(&dir).unwrap_or(path).to_string();
            continue;
        }
        let stem = p.file.trim_end_matches(".md").to_string();
        // The lines it takes whole (its body up to its cap, and what is around it).
        let needs = section_lines(p, cap(p));
        for n in 1usize.. {
            let name = if n == 1 { format!("{stem}.md") } else { format!("{stem}-{n}.md") };
            let exists = ws.file_id(&ws.decision_path(&name)).is_some();
            let slot = load.entry(name.clone()).or_insert_with(|| (lines_of(&name), exists));
            // A file that holds nothing yet takes it even when it is longer than `max-lines`
            // allows (its budget then cuts it): no number of files is ever given up on.
            if slot.0 + needs <= max_lines || !slot.1 {
                slot.0 += needs;
                slot.1 = true;
                p.file = name;
                break;
            }
        }
    }
}
