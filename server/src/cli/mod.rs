//! The command line: argument parsing and the subcommands, each a client of the engine.
//!
//! Exit codes everywhere: 0 success, 1 findings at error severity (or a
//! failed query), 2 usage errors and unreadable roots, with a message on
//! stderr saying what to do.

pub mod check;
pub mod compress_key;
pub mod eval;
pub mod fix;
pub mod init;
pub mod output;
pub mod recall_stats;
pub mod remember;
pub mod resolve;
pub mod search;

use std::io::Write;

/// Usage text printed by `--help`.
pub const USAGE: &str = "\
memory-index-lsp: language server and checker for agent memory indexes

Usage:
  memory-index-lsp [serve] [--log-level LEVEL]  run the language server on stdin/stdout
  memory-index-lsp check [ROOT] [--format human|json] [--config FILE]
  memory-index-lsp fix [ROOT] [--dry-run] [--config FILE]
  memory-index-lsp resolve [--no-nav] [--root DIR] [QUERY]...
  memory-index-lsp compress-key [--root DIR] [TITLE]...
  memory-index-lsp remember (--when|--how) TITLE [--file NAME] [--extras \"a, b\"] [--body-file F|-] [--dry-run] [--force]
  memory-index-lsp search [--root DIR] [--limit N] [--json] TEXT...
  memory-index-lsp recall-stats [--root DIR] [--threshold C] [--json] [PATHS]...
  memory-index-lsp eval FILE [--root DIR] [--threshold C] [--json] [--misses]
  memory-index-lsp init [ROOT] [--dry-run]      set up Claude Code skills, hooks and a recall note
  memory-index-lsp mcp [--root DIR]              MCP server on stdin/stdout (resolve, search, remember, check)
  memory-index-lsp hook                          Claude Code hook: hook JSON on stdin, context on stdout
  memory-index-lsp --help | --version

ROOT (and --root) default to the nearest folder at or above the current
directory that holds memory-index.toml or agents/memory-index.md.
Exit codes: 0 ok, 1 errors found (or a query failed), 2 usage error.
";

/// Dispatches `args` (without the program name). Returns the exit code, or
/// None for a front end main.rs runs instead (`serve`/`lsp`, `mcp`, `hook`).
pub fn run(args: &[String]) -> Option<i32> {
    let (cmd, rest) = match args.split_first() {
        None => return None,
        Some((c, _)) if c == "--log-level" => return None,
        Some((c, r)) => (c.as_str(), r),
    };
    // `COMMAND --help`: the command's lines of the usage (the agent commands print their own, longer help).
    let own_help = ["eval", "search", "recall-stats", "remember", "mcp"];
    if rest.first().is_some_and(|a| a == "--help" || a == "-h") && !own_help.contains(&cmd) {
        let word = if cmd == "when" { "resolve" } else { cmd };
        let lines: Vec<&str> =
            USAGE.lines().filter(|l| l.trim_start().starts_with(&format!("memory-index-lsp {word} "))).collect();
        if !lines.is_empty() {
            println!("Usage:\n{}\n\nSee README.md (Command line) for what it does.", lines.join("\n"));
            return Some(0);
        }
    }
    Some(match cmd {
        // The other front ends: main.rs runs them (they use this module's helpers).
        "serve" | "lsp" | "mcp" | "hook" => return None,
        "check" => check::run(rest),
        "fix" => fix::run(rest),
        "resolve" | "when" => resolve::run(rest),
        "compress-key" => compress_key::run(rest),
        "eval" => eval::run(rest),
        "search" => search::run(rest),
        "recall-stats" => recall_stats::run(rest),
        "remember" => remember::run(rest),
        "init" => init::run(rest),
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            0
        }
        "-V" | "--version" => {
            println!("memory-index-lsp {}", env!("CARGO_PKG_VERSION"));
            0
        }
        other => usage_error(&format!("unknown command `{other}`")),
    })
}

/// The project root of a command: `--root`, else by `project::root`'s rule
/// (`$CLAUDE_PROJECT_DIR`, else the working directory, then upward).
pub(crate) fn project_root(flag: Option<std::path::PathBuf>) -> std::path::PathBuf {
    crate::project::root(flag.as_deref(), None)
}

/// `check`'s and `fix`'s ROOT when none is given: [`project_root`] without a flag.
pub(crate) fn default_root() -> String {
    project_root(None).display().to_string()
}

/// Loads the project of an agent command ([`project_root`] of `--root`);
/// Err is the exit code after a usage error saying why (unreadable root,
/// no project there).
pub(crate) fn load_project(
    flag: Option<std::path::PathBuf>,
) -> Result<(std::path::PathBuf, crate::model::Workspace), i32> {
    let root = project_root(flag);
    let ws = crate::project::load::load(&root).map_err(|e| usage_error(&e.to_string()))?;
    require_workspace(&ws, &root)?;
    Ok((root, ws))
}

/// Usage error (exit 2) when `ws` has no index and no decision file: the
/// message says where it looked, so an agent is not told "No match" for a
/// project it never found.
pub(crate) fn require_workspace(ws: &crate::model::Workspace, root: &std::path::Path) -> Result<(), i32> {
    match check::missing_workspace(ws, &root.display().to_string()) {
        Some(msg) => Err(usage_error(&format!("{msg}; run it inside a project, or pass --root DIR"))),
        None => Ok(()),
    }
}

/// The value of `--root DIR`.
pub(crate) fn root_value(v: Option<&String>) -> Result<std::path::PathBuf, String> {
    v.map(std::path::PathBuf::from).ok_or_else(|| "--root needs a directory".into())
}

/// The value of `--threshold C`: a confidence in [0, 1].
pub(crate) fn threshold_value(v: Option<&String>) -> Result<f64, String> {
    v.and_then(|t| t.parse::<f64>().ok())
        .filter(|t| (0.0..=1.0).contains(t))
        .ok_or_else(|| "--threshold needs a confidence between 0 and 1".into())
}

/// Prints `msg` and a pointer to `--help` on stderr; returns exit code 2.
pub fn usage_error(msg: &str) -> i32 {
    let _ = writeln!(std::io::stderr(), "memory-index-lsp: {msg}\nRun `memory-index-lsp --help` for usage.");
    2
}

/// Options shared by `check` and `fix`.
#[derive(Debug, Default)]
pub(crate) struct RootArgs {
    pub root: Option<String>,
    pub format_json: bool,
    pub config: Option<String>,
    pub dry_run: bool,
}

/// Parses `[ROOT] [--format human|json] [--config FILE] [--dry-run]`; `allow_dry_run` for `fix`.
pub(crate) fn parse_root_args(args: &[String], allow_dry_run: bool) -> Result<RootArgs, String> {
    let mut out = RootArgs::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--format" => match it.next().map(String::as_str) {
                Some("human") => out.format_json = false,
                Some("json") => out.format_json = true,
                Some(x) => return Err(format!("--format takes `human` or `json`, not `{x}`")),
                None => return Err("--format needs a value: human or json".into()),
            },
            s if s.starts_with("--format=") => match &s[9..] {
                "human" => out.format_json = false,
                "json" => out.format_json = true,
                x => return Err(format!("--format takes `human` or `json`, not `{x}`")),
            },
            "--config" => out.config = Some(it.next().ok_or("--config needs a file")?.clone()),
            "--dry-run" if allow_dry_run => out.dry_run = true,
            s if s.starts_with('-') && s.len() > 1 => return Err(format!("unknown option `{s}`")),
            s if out.root.is_none() => out.root = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}` (only one ROOT)")),
        }
    }
    Ok(out)
}
