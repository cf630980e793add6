//! `remember`: a decision written down in one step, its section appended to a decision file and its entry placed in the index, verified before anything is written.
//!
//! Pure: [`plan`] takes the loaded workspace and a [`Request`] and returns the
//! new texts of the two files (the caller writes them, decision file first)
//! or a refusal that says what to do. What it guarantees:
//! - the heading is `When Title` / `How to Title` at the level the file's
//!   semantic headings use (the most common one; `##` in a new or empty
//!   file), appended at the end of the file with the body, in the file's
//!   line endings, or, in a file that groups its decisions under `.Group`
//!   headings, at the end of the group whose decisions rank highest for it
//!   (`groups::group_for`); a new file `DIR/NAME.md` starts with a `# Name` title;
//! - the entry `/when title words | extras` goes into that file's index
//!   section in heading order, the section created at its sorted place when
//!   absent (the same placement as the `unindexed-heading` fix);
//! - the trigger is the title's words (the binding is exact, so no other
//!   trigger can bind the heading: other words go into extras); on the
//!   would-be workspace, the trigger and each extra must resolve to the new
//!   heading, else the refusal names the entry that wins and proposes the
//!   heading's compressed key as an extra;
//! - without a file, the file whose decisions rank highest for the title
//!   and body, added up over the file, is chosen (and said) when it is
//!   clearly ahead (`files::choose_file`); in a memory without a decision
//!   file, [`FIRST_FILE`]; otherwise the refusal asks for `--file` and names
//!   the closest files and a new one;
//! - the body must say something (an empty one is refused);
//! - an existing decision on the same subject (the title and the body's
//!   first 60 words, as one query, rank it at or above `[recall]
//!   duplicate`, 0.9) or the same title is reported,
//!   and nothing is planned unless `force` (the same title never: that would
//!   be a `duplicate-heading` error);
//! - `check` on the would-be workspace has no finding that the workspace did
//!   not have (a body too short for `no-direct-content`, a file past
//!   `max-lines`, …): otherwise the refusal lists them, and when they are
//!   all in the decision file it names where the same write fits (the next
//!   of the three files ranked for it that takes it, else a new file named
//!   from the title's first two words);
//! - data stays data: a title, an extra or a file name with a control,
//!   zero-width or bidirectional-formatting character is refused, naming
//!   the character; a body that would change the file's structure (a
//!   heading at or above the new section's level, an unclosed code fence
//!   or HTML comment that would swallow later sections) is refused
//!   ([`checks`]);
//! - a remember interrupted after its decision file was written (the
//!   heading is there, no entry binds it) is completed by the same request:
//!   the plan adds only the entry.

use crate::edit::{self, SourceChange};
use crate::ide::resolve;
use crate::model::{HeadingId, Workspace};
use crate::rules::compress;
use crate::rules::{self, placement};
use crate::search::recall::recall;
use crate::syntax::index::Op;
use crate::syntax::normalize;
pub use checks::invisible;
use checks::{keeps_structure, no_same_subject};
pub(crate) use checks::{plain_text, shown};
pub(crate) use files::file_name;
pub(crate) use files::file_title;
use files::{elsewhere, file_for, first_words};
pub use words::Words;

/// The decision file of a memory's first decision when none is named.
pub const FIRST_FILE: &str = "general.md";

/// Longest title accepted (characters, without the operator prefix).
pub const MAX_TITLE_CHARS: usize = 120;

/// What to remember.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub op: Option<Op>,
    /// The title without its `When ` / `How to ` prefix (a prefix matching the operator is dropped).
    pub title: String,
    /// The decision file's name inside the decisions directory (`cli.md`, or `cli`).
    pub file: Option<String>,
    /// The trigger; it must be the title's words.
    pub trigger: Option<String>,
    pub extras: Vec<String>,
    /// The section's text under the heading.
    pub body: String,
    /// Write even when a decision on the same subject exists.
    pub force: bool,
    /// How the caller names these arguments in what the plan says.
    pub words: Words,
}

/// What [`plan`] decided: the change and what to say about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The decision file created or appended to (created first), then the
    /// index's new entry; relative to the texts the workspace holds.
    pub change: SourceChange,
    /// The decision file and the index, relative to the root.
    pub decision_path: String,
    pub index_path: String,
    /// The heading as written, and its 1-based line in the new decision file.
    pub heading: String,
    pub line: usize,
    /// The entry line added to the index.
    pub entry: String,
    /// Notes for the person: the file chosen, the file created.
    pub notes: Vec<String>,
}

/// Plans `req` on `ws`; Err says why nothing can be written and what to do.
pub fn plan(ws: &Workspace, req: &Request) -> Result<Plan, String> {
    plan_in(ws, req, true)
}

/// [`plan`]; with `suggest`, a refusal for findings in the decision file
/// alone (past `max-lines`, say) names a file where the same write fits.
fn plan_in(ws: &Workspace, req: &Request, suggest: bool) -> Result<Plan, String> {
    let w = req.words;
    let op = req.op.ok_or_else(|| format!("say what kind of decision it is: {}", w.operator()))?;
    let title = clean_title(op, &req.title, w)?;
    let prefix = match op {
        Op::When => "When",
        Op::How => "How to",
    };
    let heading_title = format!("{prefix} {title}");
    let (_, trigger) = placement::trigger_from_title(&heading_title).ok_or("the title needs at least one word")?;
    if let Some(t) = &req.trigger {
        if normalize(t) != normalize(&trigger) {
            return Err(format!(
                "the trigger must be the title's words: `{} {trigger}` binds `{heading_title}` and no other \
                 trigger can (the binding is exact); put other words in {} \"{}\"",
                op.token(),
                w.extras(),
                t.trim()
            ));
        }
    }
    let extras = checked_extras(&req.extras)?;
    let (index_path, index_old) = match ws.index() {
        Some((_, f, _)) if f.problem.is_none() => (f.path.clone(), f.text.to_string()),
        Some((_, f, _)) => return Err(format!("{} cannot be read as UTF-8 text; fix it first", f.path)),
        None => {
            return Err(format!("no index at {}: create it (or run `memory-index-lsp init`) first", ws.config().index))
        }
    };
    let key = normalize(&heading_title);
    if let Some(&h) = ws.bindings().headings_titled(&key).first() {
        let unindexed = ws.bindings().entries_of(h).is_empty();
        let same_file = req.file.as_deref().is_none_or(|f| {
            file_name(f).is_ok_and(|n| ws.file(h.file).is_some_and(|x| x.path == ws.decision_path(&n)))
        });
        if unindexed && same_file {
            return complete(ws, req, op, h, &trigger, &extras, &key, (index_path, index_old));
        }
        return Err(format!("`{heading_title}` exists already at {}", location(ws, h)));
    }
    if req.body.trim().is_empty() {
        return Err(format!("the body is empty: write what was decided and why ({})", w.body()));
    }
    // The title and the body's first words, asked as a query, ranked once: for the same subject
    // (unless `force`) and for the group of a grouped file.
    let query = format!("{} {title} {}", op.word(), first_words(&req.body, 60));
    let ranked = std::cell::OnceCell::new();
    let ranked = || ranked.get_or_init(|| recall(ws, &query, groups::RANKED)).as_slice();
    if !req.force {
        no_same_subject(ws, ranked(), &title, req)?;
    }
    let mut notes = Vec::new();
    let name = file_for(ws, req, &title, &mut notes)?;
    notes.extend(checks::closest(ws, ranked()));
    let decision_path = ws.decision_path(&name);
    let (decision_old, level) = files::decision_file(ws, &decision_path, &mut notes)?;
    let old = decision_old.clone().unwrap_or_else(|| format!("# {}\n", file_title(&name)));
    // In a grouped file, at the end of its group; else at the end of the file.
    let group = groups::group_for(ws, &decision_path, ranked).filter(|(at, _)| !old[*at..].trim().is_empty());
    let at = group.as_ref().map_or(old.len(), |(at, _)| *at);
    if let Some((_, name)) = &group {
        notes.push(format!("group: .{name} (its decisions rank highest for this title and body)"));
    }
    let heading = format!("{} {heading_title}", "#".repeat(level));
    let (decision_new, line, end) = with_section(&old, at, &heading, &req.body);
    // The would-be workspace: the new decision file, then the entry placed in it.
    let mut next = ws.clone();
    next.set_file(&decision_path, decision_new.clone().into());
    let hid = next
        .bindings()
        .headings_titled(&key)
        .iter()
        .copied()
        .find(|h| next.file(h.file).is_some_and(|f| f.path == decision_path))
        .ok_or_else(|| format!("`{heading}` would not be read as a heading in {decision_path}"))?;
    keeps_structure(&next, hid, &decision_new, line, end)?;
    let entry = if extras.is_empty() {
        format!("{} {trigger}", op.token())
    } else {
        format!("{} {trigger} | {}", op.token(), extras.join(", "))
    };
    let insert = placement::insert_entry(&next, hid, &entry).ok_or("the index cannot be read")?;
    let (index_new, _) = edit::apply(&index_old, &[insert]);
    next.set_file(&index_path, index_new.clone().into());
    verify(&next, op, &trigger, &extras, &key)?;
    if let Err(refusal) = new_findings(ws, &next) {
        let only_here = refusal.lines().skip(1).all(|l| l.trim_start().starts_with(&format!("{decision_path}: ")));
        return Err(match suggest.then(|| only_here.then(|| elsewhere(ws, req, &name, &title))).flatten().flatten() {
            Some(hint) => format!("{refusal}\n{hint}"),
            None => refusal,
        });
    }
    let mut change = SourceChange::default();
    match &decision_old {
        Some(old) => change.replace_text(&decision_path, old, &decision_new),
        None => change.create(&decision_path, decision_new),
    }
    change.replace_text(&index_path, &index_old, &index_new);
    Ok(Plan { change, decision_path, index_path, heading, line, entry, notes })
}

/// The extras asked for, trimmed, empty ones left out; Err for one that cannot be an extra.
fn checked_extras(asked: &[String]) -> Result<Vec<String>, String> {
    let extras: Vec<String> = asked.iter().map(|e| e.trim().to_string()).filter(|e| !e.is_empty()).collect();
    if let Some(bad) = extras.iter().find(|e| e.contains(['|', ',', '\n', '\r'])) {
        return Err(format!("an extra cannot contain `|`, `,` or a line break: `{}`", shown(bad)));
    }
    for e in &extras {
        plain_text("an extra", e)?;
        if e.chars().count() > MAX_TITLE_CHARS {
            return Err(format!("an extra is longer than {MAX_TITLE_CHARS} characters: `{}`", shown(e)));
        }
    }
    Ok(extras)
}

/// `old` with the section `heading` + `body` inserted at byte `at` (blank
/// lines around it, `old`'s line endings): the new text, the heading's
/// line (1-based) and where the section ends.
fn with_section(old: &str, at: usize, heading: &str, body: &str) -> (String, usize, usize) {
    let nl = placement::eol(old);
    let mut new = old[..at].to_string();
    if !new.is_empty() && !new.ends_with('\n') {
        new.push_str(nl);
    }
    if !new.trim().is_empty() && !new.ends_with(&format!("{nl}{nl}")) {
        new.push_str(nl);
    }
    let line = new.matches('\n').count() + 1;
    new.push_str(heading);
    new.push_str(nl);
    let body = body.trim_matches(['\n', '\r']).trim_end();
    if !body.is_empty() {
        new.push_str(nl);
        for l in body.lines() {
            new.push_str(l.trim_end_matches('\r'));
            new.push_str(nl);
        }
    }
    let end = new.len();
    if at < old.len() {
        new.push_str(nl);
        new.push_str(&old[at..]);
    }
    (new, line, end)
}

/// The title without a prefix matching `op`, checked to be one line of plain words.
fn clean_title(op: Op, raw: &str, w: Words) -> Result<String, String> {
    let t = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = match Op::split_title(&t) {
        Some((o, rest)) if o == op => rest.to_string(),
        _ => t,
    };
    // `--how "to deploy"`: the `to` is the heading's own (`How to Deploy`).
    let t = match t.split_once(' ') {
        Some((to, rest)) if op == Op::How && to.eq_ignore_ascii_case("to") && !rest.trim().is_empty() => {
            rest.trim().to_string()
        }
        _ => t,
    };
    if t.is_empty() {
        return Err(format!("the title is empty: say what the decision is about, e.g. {}", w.title_example()));
    }
    if t.chars().count() > MAX_TITLE_CHARS {
        return Err(format!(
            "the title is longer than {MAX_TITLE_CHARS} characters: name the decision, put the detail in the body"
        ));
    }
    if raw.contains(['\n', '\r']) || t.contains('|') || t.starts_with(['/', '.', '#']) {
        return Err(format!(
            "`{}` cannot be a heading title: one line, no `|`, not starting with `/`, `.` or `#`",
            shown(&t)
        ));
    }
    plain_text("the title", &t)?;
    // `Tagging Issues #`: Markdown reads a trailing `#` word as the heading's closing marks.
    if t.split(' ').next_back().is_some_and(|w| w.chars().all(|c| c == '#')) {
        return Err(format!(
            "`{}` ends with `#`, which Markdown reads as the heading's closing marks, not its title: drop it, or \
             write it as a word (`number`)",
            shown(&t)
        ));
    }
    if t.contains('`') {
        return Err(format!(
            "the title contains a backtick: an index trigger is plain words and cannot hold code; write the \
             title in words and put the command or name in the body or in {}",
            w.extras()
        ));
    }
    Ok(t)
}

/// Completes a remember that was interrupted after its decision file was
/// written: the heading `h` is there, without its entry; the plan adds only
/// the entry (the section is kept as it is).
#[allow(clippy::too_many_arguments)]
fn complete(
    ws: &Workspace,
    req: &Request,
    op: Op,
    h: HeadingId,
    trigger: &str,
    extras: &[String],
    key: &str,
    (index_path, index_old): (String, String),
) -> Result<Plan, String> {
    let f = ws.file(h.file).ok_or("the heading's file is gone")?;
    let heading = ws.heading(h).ok_or("the heading is gone")?;
    let entry = if extras.is_empty() {
        format!("{} {trigger}", op.token())
    } else {
        format!("{} {trigger} | {}", op.token(), extras.join(", "))
    };
    let insert = placement::insert_entry(ws, h, &entry).ok_or("the index cannot be read")?;
    let (index_new, _) = edit::apply(&index_old, &[insert]);
    let mut next = ws.clone();
    next.set_file(&index_path, index_new.clone().into());
    verify(&next, op, trigger, extras, key)?;
    new_findings(ws, &next)?;
    let body = resolve::body_of(ws, h);
    let mut notes = vec![format!(
        "completed: `{}` was in {} without its index entry (an interrupted remember); added the entry",
        heading.title, f.path
    )];
    if normalize(body) != normalize(&req.body) {
        notes.push(format!("the section's text in {} was kept as it is; edit it there if it should change", f.path));
    }
    let mut change = SourceChange::default();
    change.replace_text(&index_path, &index_old, &index_new);
    Ok(Plan {
        change,
        decision_path: f.path.clone(),
        index_path,
        heading: f.text.get(heading.range.start..heading.range.end).unwrap_or("").trim_end().into(),
        line: heading.line as usize + 1,
        entry,
        notes,
    })
}

/// Whether `plan`'s entry resolves to its heading in `ws` (read back after writing).
pub fn landed(ws: &Workspace, plan: &Plan) -> bool {
    entry_resolves_to(ws, &plan.entry, &normalize(plan.heading.trim_start_matches('#').trim()))
}

/// Whether the entry `line` (its trigger and each extra) resolves to the heading keyed `key`.
pub(crate) fn entry_resolves_to(ws: &Workspace, line: &str, key: &str) -> bool {
    let (head, extras) = line.split_once('|').unwrap_or((line, ""));
    let Some((op, trigger)) = head.trim().split_once(' ') else { return false };
    let word = if op == "/how" { "how" } else { "when" };
    std::iter::once(trigger).chain(extras.split(',')).map(str::trim).filter(|w| !w.is_empty()).all(|w| {
        matches!(resolve::locate(ws, &format!("{word} {w}")),
            Some(resolve::Located::Heading(h)) if ws.heading(h).is_some_and(|x| x.key == key))
    })
}

/// The level a decision file's decisions use (the most common one among its
/// semantic headings, the higher on a tie; `##` in a new or empty file).
pub(crate) fn decision_level(d: Option<&crate::syntax::decision::DecisionFile>) -> usize {
    d.map_or(2, |d| {
        let mut counts = [0usize; 7];
        for h in d.headings.iter().filter(|h| h.is_semantic()) {
            counts[usize::from(h.level.min(6))] += 1;
        }
        (2..=6).max_by_key(|&l| (counts[l], std::cmp::Reverse(l))).filter(|&l| counts[l] > 0).unwrap_or(2)
    })
}

fn location(ws: &Workspace, h: HeadingId) -> String {
    let path = ws.file(h.file).map_or("?", |f| f.path.as_str());
    let line = ws.heading(h).map_or(0, |x| x.line + 1);
    format!("{path}:{line}")
}

/// The trigger and every extra resolve to the new heading on the would-be workspace.
fn verify(next: &Workspace, op: Op, trigger: &str, extras: &[String], key: &str) -> Result<(), String> {
    for word in std::iter::once(trigger).chain(extras.iter().map(String::as_str)) {
        let query = format!("{} {word}", op.word());
        let lands = match resolve::locate(next, &query) {
            Some(resolve::Located::Heading(h)) => next.heading(h).is_some_and(|x| x.key == key),
            _ => false,
        };
        if !lands {
            let winner = resolve::resolve(next, &query, false)
                .ok()
                .and_then(|r| r.text.lines().next().map(|l| l.trim_start_matches("# ").to_string()))
                .unwrap_or_else(|| "nothing".into());
            let hint = next
                .bindings()
                .headings_titled(key)
                .first()
                .and_then(|&h| compress::compress_heading(next, h))
                .map(|(_, k)| format!("; a key that does resolve to it: `{k}`"))
                .unwrap_or_default();
            return Err(format!("`{} {word}` would resolve to {winner}, not to the new decision{hint}", op.token()));
        }
    }
    Ok(())
}

/// Refuses when `next` has more warnings or errors of a rule in a file
/// than `ws` had (advice, `info`, is never a reason to refuse).
fn new_findings(ws: &Workspace, next: &Workspace) -> Result<(), String> {
    let added = added_findings(ws, next, rules::Severity::Warning);
    if added.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "writing this would add {} finding(s); nothing was written:\n  {}",
            added.len(),
            added.join("\n  ")
        ))
    }
}

/// The findings of `next` at `worst` severity or worse that `ws` did not
/// have, counted per rule and file (messages name lines, which a new entry
/// moves), each as `path: severity[code]: message`.
pub(crate) fn added_findings(ws: &Workspace, next: &Workspace, worst: rules::Severity) -> Vec<String> {
    let key =
        |w: &Workspace, f: &rules::Finding| (f.rule.code(), w.file(f.file).map_or(String::new(), |x| x.path.clone()));
    let counts = |f: &rules::Finding| f.severity <= worst;
    let mut before: Vec<(&str, String)> = rules::check(ws).iter().filter(|f| counts(f)).map(|f| key(ws, f)).collect();
    let mut added = Vec::new();
    for f in rules::check(next).into_iter().filter(counts) {
        match before.iter().position(|b| *b == key(next, &f)) {
            Some(i) => {
                before.swap_remove(i);
            }
            None => {
                let path = next.file(f.file).map_or("?", |x| x.path.as_str());
                added.push(format!("{path}: {}[{}]: {}", f.severity.as_str(), f.rule.code(), f.message(next)));
            }
        }
    }
    added
}

mod checks;
mod files;
mod groups;
mod words;

#[cfg(test)]
mod tests;
