//! `memory-index-lsp search [--root DIR] [--limit N] [--json] TEXT...`: the ranked decisions for free text.
//!
//! What an agent calls when `/when` found nothing: every argument is one
//! text (joined by spaces; stdin when there is none). Per result: the
//! `/when` line to type for the whole section, the heading, `file:line`,
//! the confidence (see `search::recall`) and the section's first line.
//! Exit 0 with results, 1 with none, 2 for usage errors.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

use super::usage_error;
use crate::ide::search;

const HELP: &str = "\
memory-index-lsp search [--root DIR] [--limit N] [--json] TEXT...

Lists the decisions that best match TEXT (a question, a task, an error),
best first, with a confidence between 0 and 1. Type the /when line shown to
read a whole section. TEXT comes from the arguments, else from stdin.
";

/// Runs `search`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let (mut root, mut limit, mut json, mut words) = (None::<PathBuf>, 10usize, false, Vec::<String>::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                return 0;
            }
            "--root" => match super::root_value(it.next()) {
                Ok(r) => root = Some(r),
                Err(e) => return usage_error(&e),
            },
            "--limit" => match it.next().and_then(|n| n.parse::<usize>().ok()).filter(|&n| n > 0) {
                Some(n) => limit = n.min(100),
                None => return usage_error("--limit needs a positive number"),
            },
            "--json" => json = true,
            "--" => words.extend(it.by_ref().cloned()),
            s if s.starts_with("--") => return usage_error(&format!("unknown option `{s}`")),
            s => words.push(s.to_string()),
        }
    }
    let mut text = words.join(" ");
    if text.trim().is_empty() && !std::io::stdin().is_terminal() {
        let mut buf = Vec::new();
        let _ = std::io::stdin().take(1 << 20).read_to_end(&mut buf);
        text = String::from_utf8_lossy(&buf).into_owned();
    }
    if text.trim().is_empty() {
        return usage_error("search needs a TEXT, e.g. `search how do we mock the database`");
    }
    let (_, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let found = search::search(&ws, &text, limit);
    let out = if json {
        serde_json::to_string(&found).unwrap_or_else(|_| "[]".into())
    } else if found.is_empty() {
        format!("No decision matches '{}'", text.trim())
    } else {
        found
            .iter()
            .enumerate()
            .map(|(i, f)| {
                format!(
                    "{}. {}  ({:.2})\n   {} ({}:{})\n   {}",
                    i + 1,
                    f.entry,
                    f.confidence,
                    f.heading,
                    f.file,
                    f.line,
                    f.excerpt
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    if writeln!(std::io::stdout().lock(), "{out}").is_err() {
        return 2;
    }
    i32::from(found.is_empty())
}
