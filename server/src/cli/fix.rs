//! `memory-index-lsp fix [ROOT] [--dry-run]`: applies every safe fix, then reports like `check`.
//!
//! Holds the memory's lock while it reads, fixes and writes. Fix-all's
//! change is written by [`crate::project::change::apply`]: only files whose
//! text changed, all or none, each through the safe writer
//! (atomically, never through a planted link, owner and mode kept, and only
//! if the file is still what was read), and never a file that was not valid
//! UTF-8. When another program changed a file meanwhile, `fix` starts over
//! from the new content ([`ATTEMPTS`] times at most, then it says so and
//! leaves it). `--dry-run` prints a unified diff instead.

use std::io::Write;

use super::args::{FixArgs, Format};
use super::{input_error, output, usage_error};
use crate::ide::fix_all;
use crate::project::load;
use crate::project::write::WriteError;
use crate::project::{change, diff, lock};
use crate::rules;

/// Runs `fix`; returns the exit code.
pub fn run(a: FixArgs) -> i32 {
    let root = &super::project_root(a.check.root);
    let mut stderr = std::io::stderr();
    let _lock = if a.dry_run {
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
        let mut ws = match load::load_with(root, a.check.config.as_deref()) {
            Ok(ws) => ws,
            Err(e) => return input_error(&e.to_string()),
        };
        if let Some(msg) = crate::project::load::missing_memory(&ws, &root.display().to_string()) {
            return usage_error(&msg);
        }
        let base = ws.clone();
        let result = fix_all::fix_all(&mut ws);
        if a.dry_run {
            if let Some(code) = super::emit(&diff::change(&base, &result.change)) {
                return code;
            }
        } else {
            match change::apply(root, &base, &result.change) {
                Ok(()) => {}
                Err(WriteError::Changed) if attempt < ATTEMPTS => continue, // start over from what is on disk now
                Err(WriteError::Changed) => {
                    let _ = writeln!(
                        stderr,
                        "memory-index-lsp: the files kept changing while fix ran ({ATTEMPTS} attempts); they were left as \
                         the other program wrote them: run fix again when it is done"
                    );
                    return 2;
                }
                Err(WriteError::Refused(why)) => {
                    let _ = writeln!(stderr, "memory-index-lsp: {why}");
                    return 2;
                }
            }
        }
        let verb = if a.dry_run { "would apply" } else { "applied" };
        // What was done, not only how much (found by review); a long list is cut.
        for (rule, title) in result.applied.iter().take(SHOWN) {
            let _ = writeln!(stderr, "{verb} [{}]: {title}", rule.code());
        }
        if result.applied.len() > SHOWN {
            let _ = writeln!(stderr, "… and {} more", result.applied.len() - SHOWN);
        }
        let _ = writeln!(stderr, "{verb} {} fix(es) in {} file(s)", result.applied.len(), result.change.edits.len());
        let findings = rules::check(&ws);
        return output::report(&ws, &findings, a.check.format == Format::Json || a.check.json);
    }
    2
}

/// How many applied fixes `fix` names one by one.
const SHOWN: usize = 20;

/// How many times `fix` starts over when a file changes under it.
pub const ATTEMPTS: usize = crate::project::remember::ATTEMPTS;
