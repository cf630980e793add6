//! `memory-index-lsp fix [ROOT] [--dry-run]`: applies every safe fix, then reports like `check`.
//!
//! Holds the memory's lock while it reads, fixes and writes. Writes only
//! files whose text changed, through [`crate::project::write::replace`]
//! (atomically, never through a planted link, owner and mode kept, and only
//! if the file is still what was read), and never a file that was not valid
//! UTF-8. When another program changed a file meanwhile, `fix` starts over
//! from the new content ([`ATTEMPTS`] times at most, then it says so and
//! leaves it). `--dry-run` prints a unified diff instead.

use std::io::Write;
use std::path::Path;

use super::{check::missing_workspace, output, parse_root_args, usage_error};
use crate::ide::fix_all;
use crate::project::load;
use crate::project::{diff, lock, write};
use crate::rules;

/// Runs `fix`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let opts = match parse_root_args(args, true) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let default = super::default_root();
    let root = Path::new(opts.root.as_deref().unwrap_or(&default));
    let mut stderr = std::io::stderr();
    let _lock = if opts.dry_run {
        None
    } else {
        match lock::acquire(root) {
            Ok(l) => Some(l),
            Err(e) => {
                let _ = writeln!(stderr, "memory-index-lsp: {e}");
                return 2;
            }
        }
    };
    for attempt in 1..=ATTEMPTS {
        let mut ws = match load::load_with(root, opts.config.as_deref().map(Path::new)) {
            Ok(ws) => ws,
            Err(e) => return usage_error(&e.to_string()),
        };
        if let Some(msg) = missing_workspace(&ws, &root.display().to_string()) {
            return usage_error(&msg);
        }
        let originals: Vec<(String, String)> = ws.files().map(|(_, f)| (f.path.clone(), f.text.clone())).collect();
        let result = fix_all::fix_all(&mut ws);
        let mut changed_meanwhile = None;
        for (path, new_text) in &result.changed {
            let old = originals.iter().find(|(p, _)| p == path).map_or("", |(_, t)| t.as_str());
            if opts.dry_run {
                print!("{}", diff::unified(path, old, new_text));
                continue;
            }
            match write::replace(&root.join(path), old, new_text) {
                Ok(()) => {}
                Err(write::WriteError::Changed) => {
                    changed_meanwhile = Some(path.clone());
                    break;
                }
                Err(e) => {
                    let _ = writeln!(stderr, "memory-index-lsp: cannot write {path}: {e}; the file was left unchanged");
                    return 2;
                }
            }
        }
        if let Some(path) = changed_meanwhile {
            if attempt == ATTEMPTS {
                let _ = writeln!(
                    stderr,
                    "memory-index-lsp: {path} kept changing while fix ran ({ATTEMPTS} attempts); it was left as the other \
                     program wrote it: run fix again when it is done"
                );
                return 2;
            }
            continue; // start over from what is on disk now
        }
        let verb = if opts.dry_run { "would apply" } else { "applied" };
        let _ = writeln!(stderr, "{verb} {} fix(es) in {} file(s)", result.applied.len(), result.changed.len());
        let findings = rules::check(&ws);
        return output::report(&ws, &findings, opts.format_json);
    }
    2
}

/// How many times `fix` starts over when a file changes under it.
pub const ATTEMPTS: usize = crate::project::remember::ATTEMPTS;
