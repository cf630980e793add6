//! Which project a command works on: one rule for the CLI, the language server, the MCP server and the hook.
//!
//! 1. An explicit root (`--root DIR`, `check ROOT`, an editor's workspace
//!    folder) is the root, as given: nothing is searched.
//! 2. Otherwise the search starts at `$CLAUDE_PROJECT_DIR` when it is set
//!    (the agent's project: Claude Code sets it for hooks, skills and MCP
//!    servers, and an agent that `cd`s into another checkout is still
//!    working on this one), else at the front end's own start (the hook
//!    event's `cwd`), else at the working directory.
//! 3. From there, the nearest folder at or above that holds
//!    `memory-index.toml` or `agents/memory-index.md` (as git, cargo and ruff
//!    find theirs); when none does, the start itself, so the error names the
//!    folder the command looked in.

use std::path::{Path, PathBuf};

use crate::model::config::{Config, CONFIG_FILE};

/// The environment variable agents set to the project they work on.
pub const PROJECT_DIR_ENV: &str = "CLAUDE_PROJECT_DIR";

/// The project root by the rule above, reading `$CLAUDE_PROJECT_DIR`.
pub fn root(explicit: Option<&Path>, start: Option<&Path>) -> PathBuf {
    let env = std::env::var_os(PROJECT_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    root_from(explicit, env.as_deref(), start)
}

/// [`root`] with the environment variable's value given.
pub fn root_from(explicit: Option<&Path>, project_dir: Option<&Path>, start: Option<&Path>) -> PathBuf {
    locate(explicit, project_dir, start).unwrap_or_else(|looked| looked)
}

/// The rule itself: Ok(root), or Err(the folder the search started from)
/// when no folder at or above it is a project.
pub fn locate(explicit: Option<&Path>, project_dir: Option<&Path>, start: Option<&Path>) -> Result<PathBuf, PathBuf> {
    if let Some(r) = explicit {
        return Ok(r.to_path_buf());
    }
    let start = project_dir.or(start).unwrap_or(Path::new("."));
    find_root(start).ok_or_else(|| start.to_path_buf())
}

/// The nearest folder at or above `start` that holds `memory-index.toml` or
/// an index at the default path (`agents/memory-index.md`); None when no
/// ancestor has either.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let index = Config::default().index;
    start.ancestors().find(|dir| dir.join(CONFIG_FILE).is_file() || dir.join(&index).is_file()).map(Path::to_path_buf)
}

#[cfg(test)]
mod tests;
