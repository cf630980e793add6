//! `memory-index-lsp search [--root DIR] [--limit N] [--json] TEXT...`: the ranked decisions for free text.
//!
//! What an agent calls when `/when` found nothing: every argument is one
//! text (joined by spaces; stdin when there is none). Per result: the
//! `/when` line to type for the whole section, the heading, `file:line`,
//! the confidence (see `search::recall`) and the section's first line.
//! When no result reaches `ide::search::FLOOR`, the closest are listed under
//! a line that says so (`"weak": true` in JSON). Exit 0 with results, 1 with
//! none that reaches the floor, 2 for usage errors.

use super::args::SearchArgs;
use super::usage_error;
use crate::ide::search;
use std::io::{IsTerminal, Read, Write};

/// Runs `search`; returns the exit code.
pub fn run(a: SearchArgs) -> i32 {
    let (root, limit, json, words) = (a.root, a.limit.min(100) as usize, a.json, a.words);
    let mut text = words.join(" ");
    if text.trim().is_empty() && !std::io::stdin().is_terminal() {
        let mut buf = Vec::new();
        let _ = std::io::stdin().take(1 << 20).read_to_end(&mut buf);
        text = String::from_utf8_lossy(&buf).into_owned();
    }
    if text.trim().is_empty() {
        return usage_error("search needs a TEXT, e.g. `search how do we mock the database`");
    }
    let (root, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let memory = crate::project::recall::Loaded::new(root, ws);
    let notes = crate::project::recall::Notes::default();
    // `[recall] semantic`: ranked by meaning too, when the model is there (the hook fetches it when asked to).
    let found = memory.search(&text, limit, &notes);
    for line in notes.into_lines() {
        eprintln!("memory-index-lsp search: {line}");
    }
    let ws = memory.workspace();
    let out = if json {
        serde_json::to_string(&found).unwrap_or_else(|_| "[]".into())
    } else if found.is_empty() && ws.decisions().all(|(_, _, d)| d.headings.iter().all(|h| !h.is_semantic())) {
        format!(
            "No decision matches '{}': the memory has no decisions yet (`memory-index-lsp remember` writes one, \
             `memory-index-lsp import` brings in ADRs and rules files)",
            text.trim()
        )
    } else if found.is_empty() {
        format!("No decision matches '{}'", text.trim())
    } else {
        let head = if found[0].weak {
            format!(
                "No decision matches '{}' with confidence {:.2} or more; the closest, for you to judge:\n",
                text.trim(),
                search::FLOOR
            )
        } else {
            String::new()
        };
        head + &found
            .iter()
            .enumerate()
            .map(|(i, f)| {
                // Rounded down: a weak 0.048 shown as 0.05 would contradict the header's "0.05 or more".
                format!(
                    "{}. {}  ({:.2})\n   {} ({}:{})\n   {}",
                    i + 1,
                    f.entry,
                    ((f.confidence * 100.0) + 1e-9).floor() / 100.0,
                    f.heading,
                    f.file,
                    f.line,
                    f.excerpt
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let written = writeln!(std::io::stdout().lock(), "{out}").and_then(|()| std::io::stdout().flush());
    // The ranking's index is kept for the next process after the answer is out.
    memory.keep();
    if let Err(e) = written {
        if let Some(code) = super::output_failed(&e) {
            return code;
        }
    }
    i32::from(found.first().is_none_or(|f| f.weak))
}
