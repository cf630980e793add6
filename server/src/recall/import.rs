//! `import`: decisions a project already wrote (ADRs, headed rules files) brought into the memory as sections and entries, verified before anything is written (pure; the edge reads the sources and writes the change).
//!
//! Each record ([`source::Record`]) becomes one section of a decision file:
//! - **The heading** is made from the source's title by one rule
//!   ([`heading_title`]): a title that starts with `When ` or `How to ` is
//!   kept; one that starts with a verb becomes `When <verb>ing …` (`Use Helm
//!   for packages` → `When Using Helm for packages`); any other becomes
//!   `When Deciding <title>` for an ADR and `When Working On <title>` for a
//!   rules section.
//! - **The body** leads with the decision itself (an ADR's Decision section,
//!   a rule section's text), then `Context:` and `Consequences:`, cut to the
//!   file's line budget (the room `max-lines` leaves besides the file's
//!   other sections, filled so that the most any record loses is least; a
//!   new record goes where its whole body fits, spilling into `NAME-2.md`,
//!   …, rather than cut the others shorter: see `room::spread`) and to at
//!   most 24 lines for an ADR, 60 for a rules section; a section whose text a
//!   decision already has is imported once (`same_text`); relative links rewritten to point
//!   where they pointed from the source, sub-headings turned into bold lines
//!   (they would end the section), and ends with `Source: PATH` (`Source:
//!   PATH § Title` for a section of a rules file): the record's identity.
//! - **The entry** is `/when <the title's words>` (binding is exact), with
//!   the heading's shortest unique key (`compress-key`) as an extra when it
//!   is shorter; every entry must resolve to its own heading.
//! - **Status**: superseded, reverted, rejected, deprecated, proposed and
//!   pending records are skipped and listed, or with `all` imported with a
//!   `Status:` line saying so.
//! - **Same title twice**: a record whose heading another decision has gets
//!   ` in <its parent section or file title>` added; if that is taken too it
//!   is skipped and listed.
//! - **Cut, said**: a body over its budget ends with `(N more lines in the
//!   source)`, cut at a paragraph break outside code, and [`Outcome::cut`]
//!   lists it.
//! - **Stale**: a decision imported from a section its source no longer
//!   has, from a file no longer in a folder imported whole, or from a record
//!   that is no longer in force (superseded, …) is listed in
//!   [`Outcome::stale`]; with [`Options::prune`] it is removed, section and
//!   entries, when nobody edited it since it was imported (`prune`).
//! - **Edits are kept**: the `Source:` line carries a fingerprint of the
//!   section as written ([`mark`]); a section a person edited is never
//!   overwritten (see `mark` for how an edit is told from a source change).
//! - **Idempotent**: a record whose `Source:` line is already in a decision
//!   file updates that section in place when its text changed and is left
//!   alone otherwise; it never adds a second copy (nor for a section an
//!   older build imported under the identity it wrote then: `legacy_ids`). A record whose title
//!   changed is listed, not imported twice (rename the heading and its entry,
//!   then import again).
//! - Nothing is planned when the result would have an error-severity
//!   finding the workspace did not have.

mod edits;
mod entry;
mod heading;
mod identity;
mod links;
mod mark;
mod matching;
mod outline;
mod prune;
mod room;
mod same_text;
mod section;
pub mod source;
mod update;
mod write;

use super::remember::file_title;
use edits::{add_edit, new_errors, Edits};
pub use identity::split_parents;
use identity::{earlier_heading_of, find_record, gone, stale, Identities};
use room::{cap_of, spread};
pub use section::heading_title;
use section::{file_for, section_text, source_line, unfit, written};

use source::{inactive, Kind, Record};

use crate::edit::{self, SourceChange};
use crate::model::{HeadingId, Workspace};
use crate::rules::compress;
use crate::syntax::normalize;
use rustc_hash::{FxHashMap, FxHashSet};

/// What to import, and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The decision file (inside the decisions directory) to write every record into.
    pub file: Option<String>,
    /// Import inactive records too, marked with their status.
    pub all: bool,
    /// Each folder imported whole, with every file found in it (read or
    /// not): a decision imported from a file of the folder that is no
    /// longer there is listed as stale.
    pub folders: Vec<(String, Vec<String>)>,
    /// Remove each stale decision that is as import wrote it (`prune`).
    pub prune: bool,
    /// Sources given that hold no decision now, and why (`holds no decision now`, `is
    /// missing`; a folder's path stands for every file in it): each decision imported from
    /// them is stale.
    pub emptied: Vec<(String, &'static str)>,
    /// Folders given that yield no record now: their decisions are never removed ([`prune::settle`]).
    pub unread: Vec<String>,
}

/// What [`plan`] found and decided.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub change: SourceChange,
    /// `heading ← source` of each new decision.
    pub imported: Vec<String>,
    /// `heading ← source` of each decision updated in place.
    pub updated: Vec<String>,
    pub unchanged: usize,
    /// Sections without an import mark whose text is not what the source gives: the person's
    /// (they took the mark away), never updated; counted apart from `unchanged`, which they may not be.
    pub yours: usize,
    /// (source, why) of each record not imported.
    pub skipped: Vec<(String, String)>,
    /// Each decision whose body was cut to its file's line budget, and by how much.
    pub cut: Vec<String>,
    /// Each decision imported before from a source section that is no longer there.
    pub stale: Vec<String>,
    /// `heading in path` of each stale decision removed (`--prune`).
    pub removed: Vec<String>,
    /// Each decision file the removals leave with only its title (import deletes no file).
    pub bare_files: Vec<String>,
    /// `heading in path` of each decision imported before whose entry was missing (an import
    /// killed between the decision file and the index), its entry added now.
    pub completed: Vec<String>,
    /// (decision file, heading, the file as it is, the file with that section as import would
    /// write it now; import marks left out) of each decision kept because it was edited and its
    /// source changed too: what to bring in by hand.
    pub conflicts: Vec<(String, String, String, String)>,
}

/// One record's place: the file, its heading and the section text to write.
struct Planned {
    record: Record,
    file: String,
    heading: String,
    /// The status written when an inactive record is imported (`all`).
    status: Option<String>,
    /// The decision it was imported as before (its file and heading), if any.
    found: Option<(String, HeadingId)>,
    /// The identity line of the decision it is, imported under the title its source had before.
    renamed: Option<String>,
}

/// Plans the import of `records` into `ws` (see the module docs); Err says why nothing can be written.
pub fn plan(ws: &Workspace, records: Vec<Record>, opts: &Options) -> Result<Outcome, String> {
    let (index_path, index_old) = match ws.index() {
        Some((_, f, _)) if f.problem.is_none() => (f.path.clone(), f.text.to_string()),
        Some((_, f, _)) => return Err(format!("{} cannot be read as UTF-8 text; fix it first", f.path)),
        None => return Err(format!("no index at {}: run `memory-index-lsp init` first", ws.config().index)),
    };
    // `--file` names a file of the decisions directory, as `remember --file` does (found by review:
    // `--file ../../evil.md` was refused with a message about headings).
    if let Some(f) = &opts.file {
        super::remember::file_name(f)?;
    }
    let mut out = Outcome::default();
    let ids = Identities::new(ws, &records);
    let mut gones = stale(ws, &ids, &records, &opts.emptied);
    gones.extend(gone(ws, &ids, &opts.folders));
    // How a decision file links back to the root.
    let up = "../".repeat(ws.decision_path("x.md").matches('/').count());
    // A record's text as `same_text` compares it: the body as it will be written, without its code
    // when the code would change the file's structure (what the memory then holds).
    let key_of = |r: &Record| {
        let (_, b) = written(r, cap_of(r.kind), status_of(r, opts.all), &up, 2, "Probe", "\n")?;
        same_text::key(b.lines.iter().map(String::as_str))
    };
    // The fingerprint import gives a record's section under a heading, at a level (`mark`).
    let fingerprint = |r: &Record, heading: &str, level: usize| {
        Some(mark::of(&written(r, cap_of(r.kind), status_of(r, opts.all), &up, level, heading, "\n")?.0))
    };
    let cx = matching::Context::new(ws, &records, &ids, &gones, &key_of, &fingerprint);
    let mut planned: Vec<Planned> = Vec::new();
    // The planned records' headings (normalized) and texts, looked up per record (3,000 scans cost 0.4 s).
    let (mut headings, mut texts) = (FxHashSet::default(), FxHashMap::default());
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for r in records {
        let status = r.status.as_deref().and_then(|s| inactive(s).map(|why| (s.to_string(), why)));
        if let (Some((status, why)), false) = (&status, opts.all) {
            not_in_force(ws, &ids, &r, (status, why), &mut out, &mut gones);
            continue;
        }
        // Every identity once, whether its first record is written or skipped for its text (a
        // second one would be written under the first's identity, and the next run would read
        // the first into it: found by the import properties).
        let id = source_line(&r);
        if !seen.insert(id.clone()) {
            out.skipped.push((r.source.clone(), format!("a second section with its `{id}`: rename one of them")));
            continue;
        }
        // The decision it was imported as, by its identity, or moved (`matching`); or a copy.
        let found = find_record(&ids, &r);
        let same = found.is_none().then(|| key_of(&r)).flatten();
        let here =
            |k: &String| texts.get(k).map(|&i: &usize| (planned[i].heading.clone(), planned[i].record.source.clone()));
        let (found, renamed) = match matching::moved(&cx, &r, found, same.as_ref(), &here, &mut gones) {
            Ok(m) => m,
            Err(why) => {
                out.skipped.push((r.source.clone(), why));
                continue;
            }
        };
        // A title another record has (now or in the memory) is told apart by where it sits.
        // (the decision this record was imported as before, if any, is not in its way)
        let mine = found.as_ref().map(|x| x.1);
        let taken = |h: &str| {
            headings.contains(&normalize(h))
                || ws.bindings().headings_titled(&normalize(h)).iter().any(|&id| Some(id) != mine)
        };
        let heading = heading_for(ws, &r, found.as_ref(), &taken);
        if let Some(why) = unfit(&heading, taken(&heading)) {
            out.skipped.push((r.source.clone(), why));
            continue;
        }
        let file = file_for(&r, opts);
        headings.insert(normalize(&heading));
        texts.extend(same.map(|k| (k, planned.len()))); // one record a text: a second is a copy, skipped
        planned.push(Planned { record: r, file, heading, status: status.map(|s| s.0), found, renamed });
    }
    // Stale decisions: listed, or removed (`--prune`) with their entries; the room they leave is
    // the records' (found by review: the next run grew the cut bodies into it).
    let settled = prune::settle(ws, gones, opts.prune, &opts.unread);
    (out.stale, out.removed) = (settled.stale, settled.removed);
    let removed: Vec<(String, crate::text::TextRange)> =
        settled.files.iter().map(|(p, e)| (p.clone(), e.range)).collect();
    let mut edits: Edits = Vec::new();
    for (path, e) in settled.files {
        add_edit(&mut edits, &path, || ws.file_id(&path).and_then(|i| ws.file(i)).map(|f| f.text.to_string()), e);
    }
    // Line budgets: each file's room shared by the records it receives.
    let max_lines = ws.config().option("max-lines", 400) as usize;
    if opts.file.is_none() {
        spread(ws, &mut planned, max_lines);
    }
    let files: std::collections::BTreeSet<String> = planned.iter().map(|p| p.file.clone()).collect();
    let mut w = write::Writes { edits, ..Default::default() };
    for name in &files {
        write::file(ws, name, &planned, &removed, max_lines, &mut out, &mut w)?;
    }
    finish(ws, w, &removed, (&index_path, &index_old), &settled.index, out)
}

/// The status line a record is written with (an inactive one imported with --all).
fn status_of(r: &Record, all: bool) -> Option<&str> {
    r.status.as_deref().filter(|s| all && inactive(s).is_some())
}

/// A record no longer in force (`status`, and `why` it is not), imported
/// without `--all`: skipped; imported before, when it was, the decision it
/// became is stale (the memory still says it is in force), unless it is
/// marked with that status already.
fn not_in_force(
    ws: &Workspace,
    ids: &Identities,
    r: &Record,
    (status, why): (&str, &str),
    out: &mut Outcome,
    gones: &mut Vec<prune::Gone>,
) {
    let Some((path, h)) = find_record(ids, r) else {
        out.skipped
            .push((r.source.clone(), format!("{why} (status: {status}); pass --all to import it marked as such")));
        return;
    };
    // Marked so already (imported with --all): nothing to say.
    let section = section_text(ws, &path, h).unwrap_or("");
    if section.contains(&format!("**Status: {status}**")) {
        out.unchanged += 1;
        return;
    }
    let title = ws.heading(h).map_or("", |h| h.name());
    let why = format!(
        "{path}: `{title}` was imported from {}, which is {why} now (status: {status}): delete that \
         decision and its entry, or import with --all to mark it so",
        r.source
    );
    gones.push(prune::Gone { at: Some((path, h)), id: None, why, superseded: true });
}

/// The heading record `r` is written under: from its title, or the heading
/// an earlier build made of the same title (`found`, the decision it was
/// imported as: it keeps that heading, rather than be reported as retitled
/// on every run; found by review); a title `taken` by another record gets
/// its context (`… in Context`).
fn heading_for(
    ws: &Workspace,
    r: &Record,
    found: Option<&(String, HeadingId)>,
    taken: &dyn Fn(&str) -> bool,
) -> String {
    let mut heading = heading_title(r.kind, &source::worded(&r.title, &r.decision));
    if let Some(old) = found.and_then(|(_, h)| ws.heading(*h)).map(|h| h.title.clone()) {
        if earlier_heading_of(&old, r) {
            heading = old;
        }
    }
    if taken(&heading) {
        if let Some(ctx) = r.context.as_deref().filter(|c| normalize(c) != normalize(&r.title)) {
            heading = heading_title(r.kind, &format!("{} in {ctx}", r.title));
        }
    }
    heading
}

/// The change: each decision file with its edits applied (a pruned one
/// trimmed), the index with the removed decisions' entries out and the new
/// and missing ones in, checked to add no error to the memory.
fn finish(
    ws: &Workspace,
    w: write::Writes,
    removed: &[(String, crate::text::TextRange)],
    (index_path, index_old): (&str, &str),
    index_edits: &[edit::TextEdit],
    mut out: Outcome,
) -> Result<Outcome, String> {
    let mut next = ws.clone();
    let write::Writes { edits, new_headings, unbound } = w;
    let mut texts: Vec<(String, Option<String>, String)> = Vec::new(); // (path, old, new)
    for (path, old, e) in edits {
        let base =
            old.clone().unwrap_or_else(|| format!("# {}\n", file_title(path.rsplit('/').next().unwrap_or(&path))));
        let (new, skipped) = edit::apply(&base, &e);
        let pruned = removed.iter().any(|(p, _)| *p == path);
        let new = if pruned { prune::trimmed_end(new) } else { new };
        if !skipped.is_empty() {
            return Err(format!("two records would change the same lines of {path}; import them one at a time"));
        }
        if pruned && prune::only_title(&new) {
            out.bare_files.push(path.clone());
        }
        texts.push((path, old, new));
    }
    for (path, _, new) in &texts {
        next.set_file(path, new.clone().into());
    }
    // The removed decisions' entries out, then the new ones at their place, then those of
    // decisions imported before without one.
    let index = edit::apply(index_old, index_edits).0;
    next.set_file(index_path, index.clone().into());
    let index = entry::add(&mut next, index_path, index, &new_headings)?;
    let index = entry::complete(&mut next, index_path, index, &unbound, &mut out.completed)?;
    new_errors(ws, &next)?;
    for (path, old, new) in texts {
        match old {
            Some(old) => out.change.replace_text(&path, &old, &new),
            None => out.change.create(&path, new),
        }
    }
    out.change.replace_text(index_path, index_old, &index);
    Ok(out)
}

#[cfg(test)]
mod tests;
