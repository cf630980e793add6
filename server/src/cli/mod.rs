//! The command line: the subcommands, each a client of the engine (the grammar is [`args`], on clap).
//!
//! Exit codes everywhere: 0 success, 1 findings at error severity (or a
//! failed query), 2 usage errors and unreadable roots, with a message on
//! stderr saying what to do.

pub mod args;
pub mod check;
pub mod compress_key;
pub mod embed;
pub mod eval;
pub mod fix;
pub mod import;
pub mod init;
pub mod output;
pub mod recall_stats;
pub mod remember;
pub mod resolve;
pub mod search;

use std::io::Write;

use args::Command;

/// Runs a command of the command line (`serve`, `mcp` and `hook` are other
/// front ends: `main.rs` runs them); returns the exit code.
pub fn run(cmd: Command) -> i32 {
    match cmd {
        Command::Check(a) => check::run(a),
        Command::Fix(a) => fix::run(a),
        Command::Resolve(a) => resolve::run(a),
        Command::CompressKey(a) => compress_key::run(a),
        Command::Remember(a) => remember::run(a),
        Command::Search(a) => search::run(a),
        Command::RecallStats(a) => recall_stats::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Embed(a) => embed::run(a),
        Command::Init(a) => init::run(a),
        Command::Import(a) => import::run(a),
        Command::Completions { shell } => args::completions(shell),
        Command::Serve | Command::Mcp(_) | Command::Hook(_) => usage_error("not a command of the command line"),
    }
}

/// The project root of a command: `--root`, else by `project::root`'s rule
/// (`$CLAUDE_PROJECT_DIR`, else the working directory, then upward).
pub(crate) fn project_root(flag: Option<std::path::PathBuf>) -> std::path::PathBuf {
    let root = crate::project::root(flag.as_deref(), None);
    // A memory the search would not cross into (a shared folder's): said, never adopted.
    if flag.is_none() {
        if let Some(why) = crate::project::root::passed_over(&root) {
            let _ = writeln!(std::io::stderr(), "memory-index-lsp: note: {why}");
        }
    }
    root
}

/// Loads the project of an agent command ([`project_root`] of `--root`);
/// Err is the exit code after a usage error saying why (unreadable root,
/// no project there).
pub(crate) fn load_project(
    flag: Option<std::path::PathBuf>,
) -> Result<(std::path::PathBuf, crate::model::Workspace), i32> {
    let root = project_root(flag);
    let ws = crate::project::load::load(&root).map_err(|e| input_error(&e.to_string()))?;
    require_workspace(&ws, &root)?;
    // A file the memory could not read: its decisions are missing from every answer; say so
    // (found by review: an unreadable decision file gave "No match" and nothing else).
    for note in crate::project::load::unread_notes(&ws) {
        eprintln!("memory-index-lsp: note: {note}");
    }
    Ok((root, ws))
}

/// Usage error (exit 2) when `ws` has no index and no decision file: the
/// message says where it looked, so an agent is not told "No match" for a
/// project it never found.
pub(crate) fn require_workspace(ws: &crate::model::Workspace, root: &std::path::Path) -> Result<(), i32> {
    match crate::project::load::missing_memory(ws, &root.display().to_string()) {
        Some(msg) => Err(usage_error(&format!("{msg}; run it inside a project, or pass --root DIR"))),
        None => Ok(()),
    }
}

/// The exit code after writing output failed: a reader that closed the pipe
/// early (`… | head -1`) got what it wanted, so None (carry on quietly);
/// any other failure is said on stderr, Some(2).
pub(crate) fn output_failed(e: &std::io::Error) -> Option<i32> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return None;
    }
    let _ = writeln!(std::io::stderr(), "memory-index-lsp: cannot write the output: {e}");
    Some(2)
}

/// Writes `text` to stdout; a reader that closed the pipe (`… | head`)
/// ends the output quietly. Some(exit code) when the write failed otherwise.
pub(crate) fn emit(text: &str) -> Option<i32> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => None,
        Err(e) => output_failed(&e),
    }
}

/// Prints `msg` and a pointer to `--help` on stderr; returns exit code 2.
pub fn usage_error(msg: &str) -> i32 {
    let _ = writeln!(std::io::stderr(), "memory-index-lsp: {msg}\nRun `memory-index-lsp --help` for usage.");
    2
}

/// Prints `msg` on stderr; returns exit code 2, as for a usage error: an
/// input the command cannot use (a body that is not UTF-8, a project it
/// cannot read or lock), which `--help` does not answer (found by review:
/// every such message ended with the pointer to it).
pub fn input_error(msg: &str) -> i32 {
    let _ = writeln!(std::io::stderr(), "memory-index-lsp: {msg}");
    2
}
