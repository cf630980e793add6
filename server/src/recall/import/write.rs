//! Writing planned records into their decision file: the file's line budget shared by its records, new sections appended, a section imported before updated in place or kept (the person's edits, said with what the source would change), its missing entry completed.

use super::edits::{add_edit, Edits};
use super::room::{cap, section_lines, MAX_BODY, MIN_CUT};
use super::section::{self, heading_title, section_text, source_line, written, Body};
use super::update::{self, Verdict};
use super::{mark, same_text, Kind, Outcome, Planned};
use crate::edit;
use crate::model::{HeadingId, Workspace};
use crate::recall::remember::{decision_level, file_title};
use crate::rules::placement;
use crate::syntax::source_mark::without_marks;
use crate::text::TextRange;

/// What the writes change, gathered over the files.
#[derive(Default)]
pub(super) struct Writes {
    pub edits: Edits,
    /// (path, heading title, source) of each new decision: its entry is added.
    pub new_headings: Vec<(String, String, String)>,
    /// (path, identity line, source) of each decision imported before whose entry is missing.
    pub unbound: Vec<(String, String, String)>,
}

/// How a file's sections are written: the body budget, the heading level,
/// the way up to the root (for links) and the file's line ending.
struct Room<'a> {
    budget: usize,
    level: usize,
    up: &'a str,
    nl: &'a str,
}

/// Writes the records of `planned` that go to the decision file `name`
/// (`removed`: the ranges this run removes, per file), within `max_lines`.
pub(super) fn file(
    ws: &Workspace,
    name: &str,
    planned: &[Planned],
    removed: &[(String, TextRange)],
    max_lines: usize,
    out: &mut Outcome,
    w: &mut Writes,
) -> Result<(), String> {
    let path = ws.decision_path(name);
    let existing = ws.file_id(&path).and_then(|id| ws.file(id));
    let old = match existing {
        Some(f) if f.problem.is_some() => {
            return Err(format!("{path} cannot be read as UTF-8 text; it is never rewritten"))
        }
        Some(f) => Some(f.text.to_string()),
        None => None,
    };
    let level = decision_level(existing.and_then(|f| f.decision()));
    let base = old.clone().unwrap_or_else(|| format!("# {}\n", file_title(name)));
    let nl = placement::eol(&base);
    let mine: Vec<&Planned> = planned.iter().filter(|p| p.file == name).collect();
    let up = "../".repeat(path.matches('/').count());
    let found: Vec<Option<(String, HeadingId)>> = mine.iter().map(|p| p.found.clone()).collect();
    // The budget: the room the file leaves besides this run's records (every other section,
    // imported or not, as it is), filled so that the most any of them loses is the least it can
    // be; any later run of the same sources finds the same room and cuts as the first did, and a
    // record added later goes where it fits (`spread`) instead of cutting the others shorter.
    // Lines as `max-lines` counts them; a section is counted with the blank line after it.
    let rewritten: usize = found
        .iter()
        .flatten()
        .filter(|(p, _)| *p == path)
        .filter_map(|(_, h)| section_text(ws, &path, *h))
        .map(|t| t.lines().count())
        .sum();
    let gone_here = removed.iter().filter(|(p, _)| *p == path).map(|(_, r)| *r);
    let freed: usize = gone_here.clone().filter_map(|r| base.get(r.start..r.end)).map(|t| t.lines().count()).sum();
    let used = base.lines().count().saturating_sub(rewritten + freed);
    let fits = |b: usize| used + mine.iter().map(|p| section_lines(p, b)).sum::<usize>() <= max_lines;
    let most = mine.iter().map(|p| cap(p)).max().unwrap_or(MAX_BODY);
    let budget = (MIN_CUT..=most).rev().find(|&b| fits(b)).unwrap_or(MIN_CUT);
    // Why a body is cut, as the user can check it: the cap on every body of its kind, or the file's room.
    let why = |p: &Planned| {
        if budget >= cap(p) {
            let what = if p.record.kind == Kind::Sections { "a rules section" } else { "an ADR" };
            format!("an imported body of {what} keeps at most {} lines, the decision first", cap(p))
        } else {
            format!("to keep {path} under `max-lines` ({max_lines})")
        }
    };
    let room = Room { budget, level, up: &up, nl };
    let mut appended = String::new();
    for (p, found) in mine.iter().zip(found) {
        let id = source_line(&p.record);
        let written = written(&p.record, budget.min(cap(p)), p.status.as_deref(), &up, level, &p.heading, nl);
        let Some((section, Body { cut, .. })) = written else {
            let what = id.trim_start_matches("Source: ").to_string(); // the section, named
            out.skipped.push((what, "its text would change the decision file's structure".into()));
            continue;
        };
        if cut > 0 {
            out.cut.push(format!(
                "{}: {cut} line{} left out ({}); the section says so and its source has {}",
                p.heading,
                if cut == 1 { "" } else { "s" },
                why(p),
                if cut == 1 { "it" } else { "them" }
            ));
        }
        let section = mark::marked(&section);
        match found {
            Some(at) => update(ws, p, at, section, &room, out, w),
            None => {
                if !appended.is_empty() {
                    appended.push_str(nl);
                }
                appended.push_str(&section);
                w.new_headings.push((path.clone(), p.heading.clone(), p.record.source.clone()));
                out.imported.push(format!("{} ← {}", p.heading, p.record.source));
            }
        }
    }
    if !appended.is_empty() {
        // After the last section when this run removes it (its blank line before it kept).
        let at = base.len();
        let end = gone_here.clone().find(|r| r.end >= at).map_or(at, |r| r.start);
        let base = &base[..end];
        let sep = if base.ends_with(&format!("{nl}{nl}")) {
            ""
        } else if base.ends_with('\n') {
            nl
        } else {
            "\n\n"
        };
        let e = edit::TextEdit::insert(at, format!("{sep}{appended}"));
        add_edit(&mut w.edits, &path, || old.clone(), e);
    }
    Ok(())
}

/// The section `section` (as import writes it now) for the record `p`,
/// imported before as the heading `h` of `h_path`: written in place, or
/// kept (unchanged, the person's, edited since: with what the source would change).
fn update(
    ws: &Workspace,
    p: &Planned,
    (h_path, h): (String, HeadingId),
    section: String,
    room: &Room<'_>,
    out: &mut Outcome,
    w: &mut Writes,
) {
    let id = source_line(&p.record);
    let nl = room.nl;
    let (Some(f), Some(hd)) = (ws.file_id(&h_path).and_then(|i| ws.file(i)), ws.heading(h)) else {
        return;
    };
    // Written as import wrote it, its entry not (an import killed between the two):
    // the entry is added (an edited one is the person's: `check` says what to do).
    let current = f.text.get(hd.section.start..hd.section.end).unwrap_or("");
    if ws.bindings().entries_of(h).is_empty() && mark::held(current) == Some(&mark::of(current)) {
        w.unbound.push((h_path.clone(), id.clone(), p.record.source.clone()));
    }
    // A section ending in a blank line keeps it.
    let ends = |s: String| if current.ends_with(&format!("{nl}{nl}")) { format!("{s}{nl}") } else { s };
    // Renamed in its source: the section as it is (a person's edits kept), its
    // `Source:` line naming the new title (its fingerprint leaves that line out).
    if let Some(old) = &p.renamed {
        // As import writes it now (under a heading a person may have renamed): written
        // anew, its fingerprint too (found by review: the next run re-marked it);
        // else, the person's edit kept, only its identity follows.
        let text = if mark::of(current) == mark::of(&section) {
            ends(section.clone())
        } else {
            same_text::with_source_line(current, old, &source_line(&p.record))
        };
        let e = edit::TextEdit::replace(hd.section, text);
        add_edit(&mut w.edits, &h_path, || Some(f.text.to_string()), e);
        out.updated.push(format!("{} ← {} (renamed from `{}`)", p.heading, p.record.source, old));
        return;
    }
    let wanted = ends(section);
    // The headings import may have written it under first (a person may have renamed it since).
    let mut originals = vec![p.heading.clone(), heading_title(p.record.kind, &p.record.title)];
    if let Some(ctx) = &p.record.context {
        originals.push(heading_title(p.record.kind, &format!("{} in {ctx}", p.record.title)));
    }
    let render = |title: &str| {
        let (s, _) = section::written(
            &p.record,
            room.budget.min(cap(p)),
            p.status.as_deref(),
            room.up,
            room.level,
            title,
            room.nl,
        )?;
        Some(ends(mark::marked(&s)))
    };
    let verdict = update::verdict(current, wanted.clone(), &hd.title, &p.heading, &originals, &render);
    let text = match verdict {
        Verdict::Write(text) => text,
        Verdict::Unchanged => {
            out.unchanged += 1;
            return;
        }
        Verdict::Yours => {
            out.yours += 1;
            return;
        }
        kept => {
            if kept == Verdict::Edited {
                let theirs = render(&hd.title).unwrap_or(wanted);
                let mut after = f.text.to_string();
                after.replace_range(hd.section.start..hd.section.end, &theirs);
                let (before, after) = (without_marks(&f.text).into(), without_marks(&after).into());
                out.conflicts.push((h_path.clone(), hd.title.clone(), before, after));
            }
            out.skipped.push((p.record.source.clone(), update::why_kept(&kept, &hd.title, &h_path, &id, &p.heading)));
            return;
        }
    };
    add_edit(&mut w.edits, &h_path, || Some(f.text.to_string()), edit::TextEdit::replace(hd.section, text));
    out.updated.push(format!("{} ← {}", hd.title, p.record.source));
}
