//! `memory-index-lsp resolve [--no-nav] [--root DIR] [QUERY]...`: the agent's `/when`.
//!
//! Contract (compatible with the reference tool so agents' skills can switch):
//! queries come from the arguments, then from stdin lines when stdin is not a
//! terminal (blank lines skipped). When the first argument is a bare
//! operator word (`when`, `how`), or every argument is one word (typed
//! unquoted: `resolve writing mock tests`), all the arguments form one
//! query; otherwise (quoted queries) each argument is one query, and so is
//! each stdin line. A leading `when`/`how` word is the
//! operator; the query `null` (any case, with or without operator) is
//! ignored; results are de-duplicated and joined by `\n---\n`, errors follow
//! on stdout. Exit 0 if every query resolved, 1 if any failed, 2 for usage
//! errors (no queries, bad options, unreadable root). The root is `--root`,
//! else `$CLAUDE_PROJECT_DIR`, else the current directory.

use std::io::{IsTerminal, Write};

use super::args::ResolveArgs;
use crate::project::read::{self, Line};

/// Longest query line read from stdin (bytes).
const MAX_QUERY_LINE: usize = 4096;
/// Most of stdin read (bytes).
const MAX_STDIN: u64 = 1 << 20;
use super::usage_error;

/// Runs `resolve`; returns the exit code.
pub fn run(a: ResolveArgs) -> i32 {
    let (nav, root) = (!a.no_nav, a.root);
    let args = a.queries.clone();
    let mut queries = crate::ide::resolve::queries_of(a.queries);
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        // Bounded: a query is a line of at most 4 KiB, stdin at most 1 MiB (`< /dev/zero` ends, it does not eat memory).
        let mut too_long = 0usize;
        let read = read::lines(stdin.lock(), MAX_QUERY_LINE, MAX_STDIN, |l| match l {
            Line::Text(t) if !t.trim().is_empty() => queries.push(t.trim().to_string()),
            Line::Text(_) => {}
            Line::TooLong(_) => too_long += 1,
        });
        if too_long > 0 {
            return usage_error(&format!(
                "{too_long} line(s) of stdin over {MAX_QUERY_LINE} bytes: a query is a trigger, a few words a line"
            ));
        }
        if !matches!(read, Ok(true)) {
            return usage_error(&format!("stdin is over {MAX_STDIN} bytes (or unreadable): pass fewer queries"));
        }
    }
    let queries: Vec<String> = queries.into_iter().filter(|q| !is_null(q)).collect();
    if queries.is_empty() {
        if args.iter().any(|a| is_null(a)) {
            return 0;
        }
        return usage_error("No queries provided: pass one or more queries, e.g. `resolve when writing mock tests`");
    }
    let (root, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let memory = crate::project::recall::Loaded::new(root, ws);
    let mut results: Vec<String> = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    for q in &queries {
        match memory.resolve(q, nav) {
            Ok(r) if !results.contains(&r.text) => results.push(r.text),
            Ok(_) => {}
            Err(e) => errors.push(e),
        }
    }
    let mut out = results.join("\n---\n");
    for e in &errors {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(e);
    }
    let stdout = std::io::stdout();
    let mut lock = stdout.lock();
    let written = writeln!(lock, "{out}").and_then(|()| lock.flush());
    drop(lock);
    // The ranking's index is kept for the next process after the answer is out.
    memory.keep();
    if let Err(e) = written {
        if let Some(code) = super::output_failed(&e) {
            return code;
        }
    }
    i32::from(!errors.is_empty())
}

/// `null`, `when null`, `how null` (any case): a reserved no-op query.
fn is_null(q: &str) -> bool {
    let q = q.trim().to_lowercase();
    let q = q.strip_prefix("when ").or_else(|| q.strip_prefix("how ")).unwrap_or(&q).trim().to_string();
    q == "null"
}
