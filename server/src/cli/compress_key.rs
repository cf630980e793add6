//! `memory-index-lsp compress-key [--root DIR] [TITLE]...`: suggests the shortest unique trigger per heading.
//!
//! Prints `TITLE<TAB>TRIGGER` per title (the trigger with its operator); with
//! no title, for every semantic heading of the workspace. Keys are unique
//! among the titles given as well as in the index, so two headings the index
//! does not list yet never get the same key. A title no decision file has
//! (a heading about to be written) gets its key with a note on stderr that
//! nothing resolves to it yet. Exit 0, or 2 for
//! usage errors (a title without `When `/`How to ` is reported on stderr and
//! makes the exit code 1).

use std::io::Write;

use super::args::CompressKeyArgs;
use crate::ide::compress;

/// Runs `compress-key`; returns the exit code.
pub fn run(a: CompressKeyArgs) -> i32 {
    let (root, mut titles) = (a.root, a.titles);
    let (_, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if titles.is_empty() {
        titles = ws
            .decisions()
            .flat_map(|(_, _, d)| d.headings.iter().filter(|h| h.is_semantic()).map(|h| h.title.clone()))
            .collect();
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = 0;
    for t in &titles {
        match compress::compress_among(&ws, t, &titles) {
            Some((op, trigger)) => {
                // A title no decision file has yet gets the key it would get once written;
                // say so, since nothing resolves to it now.
                if ws.bindings().headings_titled(&crate::syntax::normalize(t)).is_empty() {
                    eprintln!(
                        "memory-index-lsp: note: no heading `{t}` in the decision files: `{} {trigger}` is its key \
                         once it is written",
                        op.token()
                    );
                }
                // One line per title, one tab: a title's own tabs and runs of spaces are one space.
                let shown = t.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Err(e) = writeln!(out, "{shown}\t{} {trigger}", op.token()) {
                    return super::output_failed(&e).unwrap_or(code);
                }
            }
            None => {
                eprintln!("memory-index-lsp: `{t}` starts with neither `When ` nor `How to `: no trigger can bind it");
                code = 1;
            }
        }
    }
    code
}
