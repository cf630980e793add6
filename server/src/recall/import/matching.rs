//! Which decision a record read now is when its identity finds none: one moved (a section or file renamed in its source, an ADR file renamed and edited), or a copy of another (imported once).

use super::identity::{find_record, identity_of, At, Identities};
use super::mark;
use super::prune::Gone;
use super::same_text;
use super::section::{heading_title, source_line};
use super::source::Record;
use crate::model::{HeadingId, Workspace};
use crate::syntax::normalize;
use rustc_hash::FxHashMap as HashMap;

/// What the matching reads: the memory's decisions by their text, the
/// identities read now, those of decisions whose source is gone, and the
/// decisions the records read now were imported as.
pub(super) struct Context<'a> {
    ws: &'a Workspace,
    ids: &'a Identities,
    memory: HashMap<String, HeadingId>,
    gone_ids: Vec<String>,
    /// With the text each will have now: one whose text changes is no copy's twin (found by
    /// review: a section was skipped as a copy of the decision the same run rewrote).
    claimed: Vec<(HeadingId, Option<String>)>,
    /// The fingerprint import gives a record's section under a heading, at a level.
    fingerprint: &'a dyn Fn(&Record, &str, usize) -> Option<String>,
}

impl<'a> Context<'a> {
    pub(super) fn new(
        ws: &'a Workspace,
        records: &[Record],
        ids: &'a Identities,
        gones: &[Gone],
        key_of: &dyn Fn(&Record) -> Option<String>,
        fingerprint: &'a dyn Fn(&Record, &str, usize) -> Option<String>,
    ) -> Self {
        let mut seen = std::collections::HashSet::new();
        Context {
            ws,
            ids,
            memory: same_text::in_memory(ws),
            gone_ids: gones.iter().filter_map(|g| g.id.clone()).collect(),
            // The first record of an identity is the one import reads (a second is skipped).
            claimed: records
                .iter()
                .filter(|r| seen.insert(source_line(r)))
                .filter_map(|r| Some((find_record(ids, r)?.1, key_of(r))))
                .collect(),
            fingerprint,
        }
    }
}

/// The decision a record is, if any, and the identity line it had when it moved.
pub(super) type Moved = (Option<At>, Option<String>);

/// The decision `r` is (`found`, by its identity, or moved: then also the
/// identity line it had), Err with why when it is a copy of another decision
/// (`here`: the heading and source of a record of this run with text `same`).
/// A moved decision leaves `gones`: it is not stale.
pub(super) fn moved(
    cx: &Context,
    r: &Record,
    found: Option<At>,
    same: Option<&String>,
    here: &dyn Fn(&String) -> Option<(String, String)>,
    gones: &mut Vec<Gone>,
) -> Result<Moved, String> {
    if found.is_some() {
        return Ok((found, None));
    }
    let ws = cx.ws;
    // A section renamed in its source, or a file in its folder: its words are a decision
    // imported under an identity no record has now. That decision is this record: its `Source:`
    // line follows (found by review: it was listed stale, to delete, and the next edit imported
    // a second copy beside it).
    if let Some(k) = same {
        let first = here(k).is_none();
        if let Some(&h) = cx.memory.get(k).filter(|_| first) {
            if let Some((path, old)) = same_text::renamed_from(ws, h, r, cx.ids, &cx.gone_ids) {
                gones.retain(|g| g.id.as_deref() != Some(old.as_str()));
                return Ok((Some((path, h)), Some(old)));
            }
        }
        let there = cx
            .memory
            .get(k)
            .filter(|h| !cx.claimed.iter().any(|(c, now)| c == *h && now.as_ref() != Some(k)))
            .and_then(|&h| Some((ws.file(h.file)?.path.clone(), ws.heading(h)?.name())));
        let twin = match (here(k), there) {
            (Some((heading, source)), _) => Some(format!("`{heading}`, which this run imports from {source}")),
            (None, Some((path, title))) => Some(format!("`{title}` in {path}")),
            _ => None,
        };
        if let Some(twin) = twin {
            let what = source_line(r);
            let what = what.trim_start_matches("Source: ");
            return Err(format!(
                "{what} has the same text as {twin}: imported once (two copies would split recall between them)"
            ));
        }
    }
    // A section renamed in its source whose decision a person edited here: the fingerprint the
    // decision holds is that of this record's text under its old title (found by review: a
    // second decision was imported beside the edited one, which was listed stale).
    if let Some((at, old)) = edited_before_rename(cx, r, gones) {
        gones.retain(|g| g.id.as_deref() != Some(old.as_str()));
        return Ok((Some(at), Some(old)));
    }
    // Its heading is that of a decision whose source is gone (an ADR file renamed and edited):
    // that decision is this record's, its `Source:` line follows (found by review: it was removed
    // as gone and the record skipped for its heading, then imported by the next run).
    let gone_h = |h: &HeadingId| gones.iter().any(|g| !g.superseded && g.at.as_ref().is_some_and(|a| a.1 == *h));
    let titled = ws.bindings().headings_titled(&normalize(&heading_title(r.kind, &r.title)));
    if let Some(&h) = titled.iter().find(|h| gone_h(h) && identity_of(ws, **h).is_some()) {
        gones.retain(|g| g.at.as_ref().is_none_or(|a| a.1 != h));
        return Ok((ws.file(h.file).map(|f| (f.path.clone(), h)), None));
    }
    Ok((None, None))
}

/// The stale decision imported from `r`'s file under another title whose
/// fingerprint is that of `r`'s text under that title, and its identity.
fn edited_before_rename(cx: &Context, r: &Record, gones: &[Gone]) -> Option<(At, String)> {
    let prefix = format!("Source: {} § ", r.source);
    gones.iter().filter(|g| !g.superseded).find_map(|g| {
        let (id, (path, h)) = (g.id.as_ref()?, g.at.clone()?);
        let old = id.strip_prefix(&prefix)?;
        let (parent, title) = match old.split_once(" › ") {
            Some((p, t)) => (Some(p.to_string()), t),
            None => (None, old),
        };
        let was = Record { title: title.to_string(), parent, ..r.clone() };
        let (f, hd) = (cx.ws.file(h.file)?, cx.ws.heading(h)?);
        let held = mark::held(f.text.get(hd.section.start..hd.section.end)?)?;
        let mut headings = vec![heading_title(r.kind, title)];
        if let Some(ctx) = &r.context {
            headings.push(heading_title(r.kind, &format!("{title} in {ctx}")));
        }
        let level = usize::from(hd.level);
        headings
            .iter()
            .any(|heading| (cx.fingerprint)(&was, heading, level).as_deref() == Some(held))
            .then(|| ((path, h), id.clone()))
    })
}
