//! `memory-index-lsp remember (--when|--how) TITLE [--file NAME] [--extras "a, b"] [--body-file F|-] [--dry-run] [--force]`: writes a decision and its entry.
//!
//! The plan (and every check) is `recall::remember`'s, the writing (under the
//! memory's lock, decision file first, undone when the index cannot be
//! written) `project::remember`'s; this edge reads the body (at most 1 MiB,
//! refused past it, never cut) and prints what was chosen.
//! `--dry-run` prints the two diffs and writes nothing. Exit 0 when written
//! (or planned), 1 when refused (the reason on stderr), 2 for usage errors.

use super::args::RememberArgs;
use super::{input_error, usage_error};
use crate::project::remember::{Refusal, Remembered, MAX_BODY_BYTES};
use crate::project::{self, read};
use crate::recall::remember::{Request, Words};
use crate::syntax::index::Op;
use std::io::{Read, Write};

/// Runs `remember`; returns the exit code.
pub fn run(a: RememberArgs) -> i32 {
    let (op, title) = match (a.when, a.how) {
        (Some(t), _) => (Op::When, t),
        (None, Some(t)) => (Op::How, t),
        (None, None) => return usage_error("say --when TITLE (behaviour) or --how TITLE (procedure)"),
    };
    let mut req = Request {
        op: Some(op),
        title,
        file: a.file,
        trigger: a.trigger,
        extras: a.extras.map(|e| e.split(',').map(str::to_string).collect()).unwrap_or_default(),
        body: String::new(),
        force: a.force,
        words: Words::Flags,
    };
    let (root, body_file, dry_run) = (a.root, a.body_file, a.dry_run);
    req.body = match body_file.as_deref() {
        None => String::new(),
        Some("-") => match read_stdin() {
            Ok(b) => b,
            Err(e) => return input_error(&e),
        },
        Some(f) => match read::read_text(None, std::path::Path::new(f), MAX_BODY_BYTES as u64) {
            Ok(b) => b,
            Err(e) => return input_error(&format!("cannot read the body from {f}: {e}")),
        },
    };
    let root = super::project_root(root);
    let Remembered { plan, diff } = match project::remember::remember(&root, &req, dry_run) {
        Ok(r) => r,
        Err(Refusal::Project(why)) => return input_error(&why),
        Err(Refusal::Refused(why)) => {
            eprintln!("memory-index-lsp: not remembered: {why}");
            return 1;
        }
    };
    for n in &plan.notes {
        eprintln!("memory-index-lsp: {n}");
    }
    let mut out = std::io::stdout().lock();
    if dry_run {
        let _ = write!(out, "{diff}");
        return 0;
    }
    let _ = writeln!(
        out,
        "Remembered {} ({}:{})\nIndexed {} in {}",
        plan.heading.trim_start_matches('#').trim_start(),
        plan.decision_path,
        plan.line,
        plan.entry,
        plan.index_path
    );
    0
}

/// The body from stdin: at most [`MAX_BODY_BYTES`], refused (never cut) past it.
fn read_stdin() -> Result<String, String> {
    let mut buf = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("cannot read the body from stdin: {e}"))?;
    if buf.len() > MAX_BODY_BYTES {
        return Err(format!(
            "the body on stdin is over the limit of {MAX_BODY_BYTES} bytes (1 MiB); nothing was written"
        ));
    }
    String::from_utf8(buf).map_err(|_| "the body on stdin is not valid UTF-8".into())
}
