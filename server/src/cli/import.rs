//! `memory-index-lsp import PATHS... [--file NAME] [--all] [--prune] [--dry-run] [--quiet] [--root DIR]`: existing decisions brought into the memory.
//!
//! Output: what was imported, updated, completed or removed, and the counts,
//! on stdout (with `--dry-run`, stdout is the diff and those lines go to
//! stderr); what needs the person (skipped, stale, not read, a conflict)
//! and notes (cut, left out, not imported) on stderr; `--quiet` drops the notes.
//!
//! This edge reads the sources (through the guarded reader: a FIFO, a
//! device, a file over `max-file-bytes` or not UTF-8 is reported by name and
//! the rest still imports), then, under the memory's lock, loads the
//! project, plans with `recall::import` and writes the change through
//! `project::change`. Exit 0 when the import was written (or had nothing to
//! change), 1 when it was refused (the reason on stderr) or a file given
//! could not be read: missing, not UTF-8, a FIFO, an empty folder (the rest
//! is still imported; each is named under "not read"), 2 for usage errors. Files
//! read but holding no decision (a template, a folder's README) are "not
//! imported"; files that could not be read are "not read".

use std::io::Write;
use std::path::Path;

/// A line to stderr, its control characters shown as escapes: the paths and
/// titles it names come from files a cloned repository chose (found by
/// review: escape sequences in a file name were printed raw).
macro_rules! say {
    ($($t:tt)*) => {
        // Line by line: a message's own line breaks stay breaks (found by review: shown as `\u{a}`).
        for line in format!($($t)*).split('\n') {
            let _ = writeln!(std::io::stderr(), "{}", crate::text::escape_controls(line));
        }
    };
}

/// A result line (what was imported, updated, removed, and the counts): to
/// stdout, escaped as [`say`] does; to stderr with `--dry-run`, whose result
/// is the diff on stdout.
macro_rules! result {
    ($dry:expr, $($t:tt)*) => {
        for line in format!($($t)*).split('\n') {
            let line = crate::text::escape_controls(line);
            let _ = if $dry { writeln!(std::io::stderr(), "{line}") } else { writeln!(std::io::stdout(), "{line}") };
        }
    };
}

use super::args::ImportArgs;
use super::{input_error, usage_error};
use crate::project::read::{self, ReadError};
use crate::project::write::WriteError;
use crate::project::{change, diff, load, lock};
use crate::recall::import::{self, source, Options};

/// Runs `import`; returns the exit code.
pub fn run(a: ImportArgs) -> i32 {
    let root = super::project_root(a.root);
    let canon = std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone());
    let (files, mut problems) = read::expand(&a.paths, &["md", "mdc"]);
    for dir in a.paths.iter().filter(|p| p.is_dir()) {
        if !files.iter().any(|f| f.starts_with(dir)) {
            problems.push(format!(
                "{}: no .md or .mdc file in this folder (import does not look inside sub-folders, but for the AGENTS.md and CLAUDE.md files there: name them)",
                dir.display()
            ));
        }
    }
    // A `--file` that is no file name of the decisions directory is a usage error, said before anything is read.
    if let Some(why) = a.file.as_deref().and_then(|f| crate::recall::remember::file_name(f).err()) {
        return usage_error(&why);
    }
    let mut refused: Vec<String> = Vec::new();
    let _lock = if a.dry_run {
        None
    } else {
        match lock::acquire(&root) {
            Ok(l) => Some(l),
            Err(e) => return input_error(&e),
        }
    };
    let ws = match load::load(&root) {
        Ok(ws) => ws,
        Err(e) => return input_error(&e.to_string()),
    };
    let max = ws.config().max_file_bytes;
    // The memory's own files are not sources (found by review: importing the decisions folder
    // imported every decision again, one more copy a run).
    let own = |rel: &str| {
        let dir = format!("{}/", ws.config().decisions);
        rel == ws.config().index || rel.starts_with(&dir)
    };
    let (files, theirs): (Vec<_>, Vec<_>) = files.into_iter().partition(|f| !own(&relative(&canon, f)));
    for f in &theirs {
        refused.push(format!(
            "{}: one of this memory's own files (import reads decisions written elsewhere)",
            relative(&canon, f)
        ));
    }
    // The sections split before, of every source (one pass over the memory).
    let split = import::split_parents(&ws);
    // Sources given that hold no decision now: their decisions imported before are stale.
    let emptied: Vec<(String, &'static str)> = a
        .paths
        .iter()
        .filter(|p| p.symlink_metadata().is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound))
        .map(|p| (relative(&canon, p), "is missing"))
        .collect();
    let given: Vec<String> = files.iter().map(|f| relative(&canon, f)).collect();
    let mut read = Sources { left_out: Vec::new(), refused, problems, emptied };
    let records = read_sources(&canon, &files, &given, &split, max, &mut read);
    let (folders, unread) = folders_of(&a.paths, &files, &canon, &records);
    let emptied = std::mem::take(&mut read.emptied);
    let opts = Options { file: a.file, all: a.all, folders, prune: a.prune, emptied, unread };
    let out = match import::plan(&ws, records, &opts) {
        Ok(o) => o,
        Err(why) => {
            say!("memory-index-lsp: not imported: {why}");
            return 1;
        }
    };
    if a.dry_run {
        if let Some(code) = super::emit(&diff::change(&ws, &out.change)) {
            return code;
        }
    } else if !out.change.is_empty() {
        match change::apply(&root, &ws, &out.change) {
            Ok(()) => {}
            Err(WriteError::Changed) => {
                say!("memory-index-lsp: not imported: the memory changed while import ran; run it again");
                return 1;
            }
            Err(WriteError::Refused(why)) => {
                say!("memory-index-lsp: not imported: {why}");
                return 1;
            }
        }
    }
    report(&out, &read, a.dry_run, a.quiet, a.prune)
}

/// The folders given (as the root sees them), each with every file found
/// in it, read or not; and those that read empty now (no record from them,
/// unreadable or missing), from which `--prune` removes nothing.
fn folders_of(
    paths: &[std::path::PathBuf],
    files: &[std::path::PathBuf],
    canon: &Path,
    records: &[source::Record],
) -> (Vec<(String, Vec<String>)>, Vec<String>) {
    // The folders imported whole, with every file found in each (read or not).
    let folders = paths
        .iter()
        .filter(|p| p.is_dir())
        .map(|d| {
            // Compared as the root sees them: `./docs/adr/1.md` is in `docs/adr`.
            let dir = relative(canon, d);
            let inside = files
                .iter()
                .map(|f| relative(canon, f))
                .filter(|f| f.rsplit_once('/').is_some_and(|(parent, _)| parent == dir));
            (dir.clone(), inside.collect())
        })
        .collect();
    // Folders given that read empty now (no record from them, or not readable, or missing):
    // `--prune` removes nothing imported from them.
    let unread: Vec<String> = paths
        .iter()
        .filter(|p| p.is_dir() || p.symlink_metadata().is_err())
        .map(|d| relative(canon, d))
        .filter(|dir| {
            // A record of the folder itself, not of a sub-folder named beside it (found by review).
            let dir = dir.trim_end_matches('/');
            !records.iter().any(|r| r.source.rsplit_once('/').is_some_and(|(parent, _)| parent == dir))
        })
        .collect();
    (folders, unread)
}

/// Says what `out` did (results on stdout, or stderr with `dry`; notes on
/// stderr, fewer with `quiet`) and what reading the sources left (`s`);
/// the exit code: 1 when a file given could not be read.
fn report(out: &import::Outcome, s: &Sources, dry: bool, quiet: bool, prune: bool) -> i32 {
    let verb = if dry { "would import" } else { "imported" };
    for line in &out.imported {
        result!(dry, "{verb}: {line}");
    }
    for line in &out.updated {
        result!(dry, "{}: {line}", if dry { "would update" } else { "updated" });
    }
    for (source, why) in &out.skipped {
        say!("skipped {source}: {why}");
    }
    // What the source would change in each section kept for being edited (found by review: "bring
    // the change in by hand" showed no change), at most CONFLICT_LINES lines each.
    for (path, title, mine, theirs) in &out.conflicts {
        let d = diff::between(
            &format!("{path} as it is (`-`: your edits to `{title}` too)"),
            &format!("{path} with `{title}` as its source gives it now"),
            mine,
            theirs,
        );
        let lines: Vec<&str> = d.lines().collect();
        for l in lines.iter().take(CONFLICT_LINES) {
            say!("  {l}");
        }
        if lines.len() > CONFLICT_LINES {
            say!("  … {} more lines", lines.len() - CONFLICT_LINES);
        }
    }
    for line in &out.completed {
        let verb = if dry { "would add" } else { "added" };
        result!(dry, "completed: {line} had no index entry (an import stopped before writing the index?): {verb} it");
    }
    for line in out.cut.iter().filter(|_| !quiet) {
        say!("cut: {line}");
    }
    for line in &out.removed {
        result!(dry, "{}: {line}", if dry { "would remove" } else { "removed" });
    }
    for path in out.bare_files.iter().filter(|_| !quiet) {
        let left = if dry { "would be left" } else { "is left" };
        say!("note: {path} {left} with only its title: delete the file if nothing else needs it");
    }
    for line in &out.stale {
        say!("stale: {line}");
    }
    for p in s.left_out.iter().filter(|_| !quiet) {
        say!("left out: {p}");
    }
    for p in s.refused.iter().filter(|_| !quiet) {
        say!("not imported: {p}");
    }
    for p in &s.problems {
        say!("not read: {p}");
    }
    // Sections a person owns (no import mark) are not called unchanged: their source may have moved on.
    let yours = match out.yours {
        0 => String::new(),
        n => format!(", {n} kept as yours (no import mark: not updated from the source)"),
    };
    let removed = if prune { format!(", {} removed", out.removed.len()) } else { String::new() };
    result!(
        dry,
        "{} new, {} updated{removed}, {} unchanged{yours}, {} skipped, {} not imported, {} not read",
        out.imported.len(),
        out.updated.len(),
        out.unchanged,
        out.skipped.len(),
        s.refused.len(),
        s.problems.len()
    );
    // A file given that could not be read (missing, not UTF-8, …) is reported, and the exit code
    // says so, whatever the reason (found by review: a missing file exited 1, a Latin-1 one 0).
    i32::from(!s.problems.is_empty())
}

/// What reading the sources gave besides their records: what was left out
/// of them, refused, not read, and the sources that hold no decision now.
struct Sources {
    left_out: Vec<String>,
    refused: Vec<String>,
    problems: Vec<String>,
    emptied: Vec<(String, &'static str)>,
}

/// The records of `files` (`given`: their paths from the root), each read
/// at most `max` bytes; a section split before (`split`) stays split; what
/// could not be imported goes to `s`.
fn read_sources(
    canon: &Path,
    files: &[std::path::PathBuf],
    given: &[String],
    split: &[(String, String)],
    max: u64,
    s: &mut Sources,
) -> Vec<source::Record> {
    let mut records = Vec::new();
    for f in files {
        let rel = relative(canon, f);
        if f.to_str().is_none() {
            s.refused.push(format!(
                "{rel}: its name is not UTF-8 (shown with \u{fffd} for what is not), so no `Source:` line could name \
                 it: rename the file to import it"
            ));
            continue;
        }
        if rel.chars().any(char::is_control) {
            s.refused.push(format!(
                "{rel}: its name holds a control character (shown escaped), which would go into the memory's \
                 `Source:` line and every answer that prints it: rename the file to import it"
            ));
            continue;
        }
        // Lone CR line ends read as `check` and the server read them (found by review: such a
        // source was one line, skipped with a misleading reason).
        let text = read::read_text(None, f, max).map(|t| match crate::text::lone_cr_as_lf(&t) {
            std::borrow::Cow::Borrowed(_) => t,
            std::borrow::Cow::Owned(lf) => lf,
        });
        if let Ok(text) = &text {
            s.left_out.extend(pulled_in(canon, &rel, text, given));
        }
        match text {
            Ok(text) => match source::parse_with(&rel, &text, &|p| split.iter().any(|(s, x)| *s == rel && x == p)) {
                Ok(r) => {
                    let n = source::unheaded(&rel, &text);
                    if n > 0 {
                        s.left_out.push(format!(
                            "{rel}: {n} line{} before its first section, under no rule's heading (give {} a \
                             heading at the level of the file's sections to import {})",
                            if n == 1 { "" } else { "s" },
                            if n == 1 { "it" } else { "them" },
                            if n == 1 { "it" } else { "them" },
                        ));
                    }
                    let sections: Vec<String> = source::left_out_sections(&rel, &text)
                        .into_iter()
                        .map(|(title, n)| format!("`{title}` ({n} line{})", if n == 1 { "" } else { "s" }))
                        .collect();
                    if !sections.is_empty() {
                        s.left_out.push(format!(
                            "{rel}: its section{} {}, which import does not carry (a record's status, decision, \
                             options, context and consequences are); add what matters of {} to the decision by hand",
                            if sections.len() == 1 { "" } else { "s" },
                            sections.join(", "),
                            if sections.len() == 1 { "it" } else { "them" }
                        ));
                    }
                    records.extend(r)
                }
                Err(why) => {
                    if why.empty {
                        s.emptied.push((rel.clone(), "holds no decision now"));
                    }
                    s.refused.push(format!("{rel}: {why}"))
                }
            },
            Err(ReadError::TooLarge { len, max }) => {
                s.problems.push(format!("{rel}: {len} bytes or more, over `max-file-bytes` ({max}); not imported"))
            }
            Err(e) => s.problems.push(format!("{rel}: {e}")),
        }
    }
    records
}

/// `path` relative to the project root, with `/` (`docs/adr/1.md`, or
/// `../team-adrs/1.md` for a source beside the project: the `Source:` line
/// is the same on every machine that has the same layout); as given when it
/// shares no folder with the root (another drive).
fn relative(canon_root: &Path, path: &Path) -> String {
    // A path that is not there (a source deleted since): its folder's, and its name.
    let missing = || {
        let name = path.file_name()?;
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Some(std::fs::canonicalize(parent).ok()?.join(name))
    };
    let abs = std::fs::canonicalize(path).ok().or_else(missing).unwrap_or_else(|| path.to_path_buf());
    let (a, r): (Vec<_>, Vec<_>) = (abs.components().collect(), canon_root.components().collect());
    let common = a.iter().zip(&r).take_while(|(x, y)| x == y).count();
    if common == 0 || !abs.is_absolute() {
        return path.display().to_string();
    }
    let up = std::iter::repeat_n("..".to_string(), r.len() - common);
    up.chain(a[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned())).collect::<Vec<_>>().join("/")
}

/// What `import` says of the files the source `rel` pulls in with `@path`
/// (Claude Code's imports) and that are not among the files `given`: their
/// rules are read only when named (found by review: left out without a word).
fn pulled_in(canon: &std::path::Path, rel: &str, text: &str, given: &[String]) -> Option<String> {
    let pulled: Vec<String> =
        crate::project::sources::imported_by(canon, rel, text).into_iter().filter(|p| !given.contains(p)).collect();
    let (one, it) = if pulled.len() == 1 { ("", "it") } else { ("s", "them") };
    (!pulled.is_empty()).then(|| {
        format!(
            "{rel}: the file{one} it pulls in with `@` ({}), read only when named: import {it} too",
            pulled.iter().map(|p| super::output::path_word(p)).collect::<Vec<_>>().join(", ")
        )
    })
}

/// Most lines of the diff shown for one section kept for being edited.
const CONFLICT_LINES: usize = 40;
