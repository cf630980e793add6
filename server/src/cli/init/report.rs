//! What `init` says after writing: where the agents must start, the trust they ask for, a program missing from PATH, the semantic model, and how to import the decisions the project wrote down elsewhere.

use std::io::Write;
use std::path::Path;

use super::{agents, git_top_above, on_path, Change, NEW_INDEX};
use crate::project::agents::Agent;
use crate::project::load;

/// The notes after `init` wrote `changes` (and created the decisions folder
/// when `new_folder`) in `root` for `agents`, to `notes` (a sink with `--quiet`);
/// the import command to stderr.
pub(super) fn after(
    root: &Path,
    agents: &[Agent],
    changes: &[Change],
    new_folder: bool,
    dry_run: bool,
    notes: &mut dyn Write,
) {
    if let Some(top) = git_top_above(root) {
        let _ = writeln!(
            notes,
            "note: {} is inside the git repository at {}: agents read their hooks and MCP servers from the \
             folder they are started in, so start them in {}, or run init at {} for the whole repository",
            root.display(),
            top.display(),
            root.display(),
            top.display()
        );
    }
    agents::say_trust(agents, root);
    // What init wrote runs the program by name: say so when that name finds nothing (found by
    // review: every hook and skill would fail with "command not found", and init said nothing).
    if !dry_run {
        not_on_path(notes, "just written");
    }
    // Ranking by meaning is on by itself once the model is there: say how to get it, once, here
    // (never a wait in a hook).
    if let Ok(ws) = load::load(root) {
        if ws.config().recall.semantic.is_none() && !crate::project::semantic::enabled(&ws, root) {
            let _ = writeln!(
                notes,
                "note: recall ranks decisions by their words; `memory-index-lsp embed` fetches a sentence model \
                 (87 MB) that ranks by meaning too, and the hook uses it once it is there (`[recall] semantic = false` \
                 turns that off)"
            );
        }
    }
    import_hint(root, changes, new_folder, notes);
}

/// A new memory in a project that wrote decisions down elsewhere: the command that brings them in.
fn import_hint(root: &Path, changes: &[Change], new_folder: bool, notes: &mut dyn Write) {
    // A new memory in a project that wrote decisions down elsewhere: say how to bring them in.
    let new_memory = new_folder || changes.iter().any(|c| c.old.is_none() && c.what == NEW_INDEX);
    // Never the memory's own folder (`decisions = "decisions"` in memory-index.toml).
    let decisions = load::load(root).map(|ws| ws.config().decisions.clone()).unwrap_or_default();
    let found: Vec<String> = crate::project::sources::existing(root)
        .into_iter()
        .filter(|f| *f != decisions && !f.starts_with(&format!("{decisions}/")))
        .collect();
    if new_memory && !found.is_empty() {
        // Runnable from here: paths as seen from the working directory, and the root named when it is elsewhere.
        let here = std::env::current_dir().ok().and_then(|d| std::fs::canonicalize(d).ok());
        let elsewhere = here.as_deref() != std::fs::canonicalize(root).ok().as_deref();
        // Each path one shell word (a folder named `$(…)` is a name, not code, when pasted); a
        // name with a control character is left out and said, escaped (found by review).
        let (odd, found): (Vec<String>, Vec<String>) = found.into_iter().partition(|f| f.chars().any(char::is_control));
        let paths: Vec<String> = found
            .iter()
            .map(|f| if elsewhere { root.join(f).display().to_string() } else { f.clone() })
            .map(|p| crate::cli::output::path_word(&p))
            .collect();
        let flag = if elsewhere {
            format!("--root {} ", crate::cli::output::path_word(&root.display().to_string()))
        } else {
            String::new()
        };
        if !paths.is_empty() {
            let _ = writeln!(
                std::io::stderr(),
                "this project already wrote decisions down; bring them in (--dry-run first to see them):\n  memory-index-lsp import {flag}{}",
                paths.join(" ")
            );
        }
        for f in &odd {
            let _ = writeln!(
                notes,
                "note: {} holds decisions too, but its name has a control character (shown escaped): rename it, then import it",
                crate::text::escape_controls(f)
            );
        }
    }
}

/// What init wrote runs the program by name: says so when that name finds
/// nothing (found by review: every hook and skill would fail with "command
/// not found", and init said nothing); `what` names what was set up.
pub(super) fn not_on_path(notes: &mut dyn Write, what: &str) {
    if on_path("memory-index-lsp") {
        return;
    }
    let me = std::env::current_exe().map(|p| p.display().to_string()).unwrap_or_else(|_| "it".into());
    let _ = writeln!(
        notes,
        "note: `memory-index-lsp` is not on PATH, and the hooks, skills and MCP server {what} run it by that name: \
         put it there (the release installer, see the README's Install; or copy {me} to a folder on PATH)"
    );
}
