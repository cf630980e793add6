//! Where in a grouped decision file a new decision goes: at the end of the `.Group` whose decisions rank highest for it.

use crate::model::Workspace;
use crate::search::recall::Recalled;

/// How many ranked decisions are read for the group.
pub(super) const RANKED: usize = 10;

/// The group a new decision belongs to in the decision file at
/// `path`, when that file sorts its decisions under structural headings
/// (`## .Unit Tests` over `### When Writing Mock Tests`): the group of its
/// decision that ranks highest for it (`ranked`: the ranking of its title
/// and body, computed only when the file has groups; at the least confidence
/// `search` lists). Its section's end (a byte offset into the file) and its
/// name; None when the file has no groups or nothing of it ranks, and the
/// decision goes at the end of the file (found by review: a decision about
/// unit tests went under the file's last group, `.End To End`, and
/// `resolve` named that group as broader).
pub(super) fn group_for<'a>(
    ws: &Workspace,
    path: &str,
    ranked: impl FnOnce() -> &'a [Recalled],
) -> Option<(usize, String)> {
    let file = ws.file_id(path)?;
    let d = ws.file(file)?.decision()?;
    if !d.headings.iter().any(|h| h.structural) {
        return None;
    }
    let best = ranked().iter().find(|r| r.heading.file == file && r.confidence >= crate::ide::search::FLOOR)?;
    let mut at = d.headings.get(best.heading.idx as usize)?.parent;
    while let Some(i) = at {
        let h = d.headings.get(i)?;
        if h.structural {
            return Some((h.section.end, h.name().to_string()));
        }
        at = h.parent;
    }
    None
}
