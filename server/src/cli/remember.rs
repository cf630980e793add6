//! `memory-index-lsp remember (--when|--how) TITLE [--file NAME] [--extras "a, b"] [--body-file F|-] [--dry-run] [--force]`: writes a decision and its entry.
//!
//! The plan (and every check) is `ide::remember`'s; this edge reads the
//! body, prints what was chosen, and writes: the decision file first, then
//! the index, each through `cli::write` (atomic, only if still as read);
//! when the index cannot be written the decision file is put back as it was
//! (or removed, when it was new). When another program changed either file
//! meanwhile, the plan is made again from the new content.
//! `--dry-run` prints the two diffs and writes nothing. Exit 0 when written
//! (or planned), 1 when refused (the reason on stderr), 2 for usage errors.

use std::io::{Read, Write};
use std::path::PathBuf;

use super::fix::unified_diff;
use super::usage_error;
use super::write::{self, WriteError};
use crate::ide::remember::{self, Plan, Request};
use crate::load;
use crate::syntax::index::Op;

const HELP: &str = "\
memory-index-lsp remember (--when|--how) TITLE [--file NAME] [--trigger T] [--extras \"a, b\"]
                          [--body-file F|-] [--root DIR] [--dry-run] [--force]

Writes a decision down: appends `## When TITLE` (or `How to TITLE`, at the
level the file's decisions use) with the body to agents/decisions/NAME
(a new file when it does not exist; without --file, the file whose
decisions are closest), and adds `/when title words | extras` to that
file's index section, in heading order. Refuses, writing nothing, when a
decision on the same subject exists (unless --force), when the trigger or an
extra would resolve elsewhere, or when `check` would find something new.
";

/// Largest body read (bytes).
const MAX_BODY: u64 = 1 << 20;

/// Runs `remember`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let mut req = Request::default();
    let (mut root, mut body_file, mut dry_run) = (None::<PathBuf>, None::<String>, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{a} needs {what}"));
        let parsed: Result<(), String> = match a.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                return 0;
            }
            "--when" | "--how" => value("a TITLE").map(|t| {
                req.op = Some(if a == "--when" { Op::When } else { Op::How });
                req.title = t;
            }),
            "--file" => value("a NAME").map(|f| req.file = Some(f)),
            "--trigger" => value("a trigger").map(|t| req.trigger = Some(t)),
            "--extras" => {
                value("a comma-separated list").map(|e| req.extras = e.split(',').map(str::to_string).collect())
            }
            "--body-file" => value("a FILE (or - for stdin)").map(|f| body_file = Some(f)),
            "--root" => value("a directory").map(|r| root = Some(PathBuf::from(r))),
            "--dry-run" => {
                dry_run = true;
                Ok(())
            }
            "--force" => {
                req.force = true;
                Ok(())
            }
            s => Err(format!("unexpected argument `{s}` (the title follows --when or --how)")),
        };
        if let Err(e) = parsed {
            return usage_error(&e);
        }
    }
    if req.op.is_none() {
        return usage_error("say --when TITLE (behaviour) or --how TITLE (procedure)");
    }
    req.body = match body_file.as_deref() {
        None => String::new(),
        Some("-") => match read_limited(std::io::stdin()) {
            Ok(b) => b,
            Err(e) => return usage_error(&format!("cannot read the body from stdin: {e}")),
        },
        Some(f) => match std::fs::File::open(f).and_then(read_limited) {
            Ok(b) => b,
            Err(e) => return usage_error(&format!("cannot read the body from {f}: {e}")),
        },
    };
    let root = super::project_root(root);
    for attempt in 1..=super::fix::ATTEMPTS {
        let ws = match load::load(&root) {
            Ok(ws) => ws,
            Err(e) => return usage_error(&e.to_string()),
        };
        let plan = match remember::plan(&ws, &req) {
            Ok(p) => p,
            Err(why) => {
                eprintln!("memory-index-lsp: not remembered: {why}");
                return 1;
            }
        };
        if dry_run {
            for n in &plan.notes {
                eprintln!("memory-index-lsp: {n}");
            }
            let mut out = std::io::stdout().lock();
            let old = plan.decision_old.as_deref().unwrap_or("");
            let _ = write!(out, "{}", unified_diff(&plan.decision_path, old, &plan.decision_new));
            let _ = write!(out, "{}", unified_diff(&plan.index_path, &plan.index_old, &plan.index_new));
            return 0;
        }
        match write_plan(&root, &plan) {
            Ok(()) => {}
            Err(WriteError::Changed) if attempt < super::fix::ATTEMPTS => continue,
            Err(WriteError::Changed) => {
                eprintln!("memory-index-lsp: not remembered: the index or decision file kept changing; run it again");
                return 1;
            }
            Err(WriteError::Refused(why)) => {
                eprintln!("memory-index-lsp: not remembered: {why}");
                return 1;
            }
        }
        for n in &plan.notes {
            eprintln!("memory-index-lsp: {n}");
        }
        let _ = writeln!(
            std::io::stdout().lock(),
            "Remembered {} ({}:{})\nIndexed {} in {}",
            plan.heading.trim_start_matches('#').trim_start(),
            plan.decision_path,
            plan.line,
            plan.entry,
            plan.index_path
        );
        return 0;
    }
    1
}

/// Writes a plan under `root`: the decision file first, then the index; when
/// the index cannot be written, the decision file is put back (or removed
/// when it was new). `Changed` when either file is no longer what the plan
/// read (nothing of the plan is left written then).
pub fn write_plan(root: &std::path::Path, plan: &Plan) -> Result<(), WriteError> {
    let decision = root.join(&plan.decision_path);
    if let Some(dir) = decision.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| WriteError::Refused(format!("cannot create {}: {e}", dir.display())))?;
    }
    let wrote = match &plan.decision_old {
        Some(old) => write::replace(&decision, old, &plan.decision_new),
        None => write::create(&decision, &plan.decision_new),
    };
    wrote.map_err(|e| match e {
        WriteError::Changed => WriteError::Changed,
        e => WriteError::Refused(format!("cannot write {}: {e}", plan.decision_path)),
    })?;
    if let Err(e) = write::replace(&root.join(&plan.index_path), &plan.index_old, &plan.index_new) {
        let restored = match &plan.decision_old {
            Some(old) => write::replace(&decision, &plan.decision_new, old).is_ok(),
            None => std::fs::remove_file(&decision).is_ok(),
        };
        if matches!(e, WriteError::Changed) && restored {
            return Err(WriteError::Changed);
        }
        let state = if restored { "put back as it was" } else { "left with the new section" };
        return Err(WriteError::Refused(format!(
            "cannot write {}: {e}; {} {state}",
            plan.index_path, plan.decision_path
        )));
    }
    Ok(())
}

fn read_limited(r: impl Read) -> std::io::Result<String> {
    let mut buf = Vec::new();
    r.take(MAX_BODY).read_to_end(&mut buf)?;
    String::from_utf8(buf).map_err(|_| std::io::Error::other("the body is not valid UTF-8"))
}
