//! Which project a command works on: one rule for the CLI, the language server, the MCP server and the hook.
//!
//! 1. An explicit root (`--root DIR`, `check ROOT`) is the root, as given:
//!    nothing is searched. An editor's workspace folder is where the language
//!    server looks ([`memory_roots`]): the folder, the project above it, or
//!    the projects below it (found by review: a monorepo's memory, or Emacs
//!    taking `agents/` for the project, gave hovers of "No match" and no
//!    definitions, unsaid).
//! 2. Otherwise the search starts at `$CLAUDE_PROJECT_DIR` when it is set
//!    (the agent's project: Claude Code sets it for hooks, skills and MCP
//!    servers, and an agent that `cd`s into another checkout is still
//!    working on this one), else at the front end's own start (the hook
//!    event's `cwd`), else at the working directory.
//! 3. From there, the nearest folder at or above that holds
//!    `memory-index.toml` or `agents/memory-index.md` (as git, cargo and ruff
//!    find theirs), never past a folder others can write to or another user
//!    owns ([`search`]); when none does, the start itself, so the error names
//!    the folder the command looked in (and a memory passed over, why).

use std::path::{Path, PathBuf};

use crate::model::config::{CONFIG_FILE, DEFAULT_INDEX};

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
/// ancestor has either, or when the search stopped at a folder above the
/// start that others can write to or another user owns ([`search`]).
pub fn find_root(start: &Path) -> Option<PathBuf> {
    search(start).ok()
}

/// [`find_root`], or where the search stopped and why (None: it reached the
/// top). It never looks in a folder above the start that every user can
/// write to (`/tmp`, a shared folder), nor in one another user owns (root
/// aside): a memory planted there would be adopted by every project below
/// that has none, its decisions injected into their agents and `remember`
/// writing into it (found by review).
pub fn search(start: &Path) -> Result<PathBuf, Option<(PathBuf, &'static str)>> {
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let owner = user();
    for (i, dir) in start.ancestors().enumerate() {
        if i > 0 {
            if let Some(why) = foreign(dir, owner) {
                return Err(Some((dir.to_path_buf(), why)));
            }
        }
        if is_project(dir) {
            return Ok(dir.to_path_buf());
        }
    }
    Err(None)
}

/// When the search from `start` found nothing because it stopped ([`search`])
/// below a memory: which, and why it is not used.
pub fn passed_over(start: &Path) -> Option<String> {
    let Err(Some((stop, why))) = search(start) else { return None };
    let memory = stop.ancestors().find(|d| is_project(d))?;
    Some(format!(
        "the memory at {} is not used: the search for this project's stopped at {}, which {why} (a memory \
         there may be anyone's); pass --root {} to use it anyway",
        memory.display(),
        stop.display(),
        memory.display()
    ))
}

fn is_project(dir: &Path) -> bool {
    dir.join(CONFIG_FILE).is_file() || dir.join(DEFAULT_INDEX).is_file()
}

/// The user running the program (its effective uid), as git judges a
/// repository's ownership (found by review: taken from the start folder, a
/// root-owned `build/` made the user's own project "another user's").
#[cfg(unix)]
fn user() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

#[cfg(not(unix))]
fn user() -> u32 {
    0
}

/// Why the folder `dir` above the start is not searched: every user can
/// write to it; a user other than `user` (and root) owns it; or its group
/// can write to it and it is not `user`'s (found by review: a root-owned
/// `2775` team folder let any member plant a memory).
#[cfg(unix)]
fn foreign(dir: &Path, user: u32) -> Option<&'static str> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(dir).ok()?;
    if m.mode() & 0o002 != 0 {
        Some("every user can write to")
    } else if m.uid() != user && m.uid() != 0 {
        Some("another user owns")
    } else if m.mode() & 0o020 != 0 && m.uid() != user {
        Some("its group can write to (and you do not own)")
    } else {
        None
    }
}

#[cfg(not(unix))]
fn foreign(_: &Path, _: u32) -> Option<&'static str> {
    None
}

/// The memories an editor's workspace folder holds: the folder itself when
/// it is a project; else the nearest project above it (a folder opened inside
/// one); else every project below it (a monorepo's packages: at most
/// [`BELOW_DEPTH`] folders down, hidden folders and dependency or build
/// trees skipped, at most [`BELOW_LOOKED`] folders looked at); else the
/// folder itself, which then shows no memory.
pub fn memory_roots(folder: &Path) -> Vec<PathBuf> {
    if is_project(folder) {
        return vec![folder.to_path_buf()];
    }
    if let Some(up) = find_root(folder) {
        return vec![up];
    }
    let mut found = Vec::new();
    let mut todo: std::collections::VecDeque<(PathBuf, usize)> = [(folder.to_path_buf(), 0)].into();
    let mut looked = 0;
    while let Some((dir, depth)) = todo.pop_front() {
        looked += 1;
        if looked > BELOW_LOOKED {
            break;
        }
        if depth > 0 && is_project(&dir) {
            found.push(dir);
            continue;
        }
        if depth == BELOW_DEPTH {
            continue;
        }
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let mut subs: Vec<PathBuf> = rd
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| e.file_name().to_str().is_some_and(|n| !n.starts_with('.') && !SKIPPED.contains(&n)))
            .map(|e| e.path())
            .collect();
        subs.sort();
        todo.extend(subs.into_iter().map(|d| (d, depth + 1)));
    }
    if found.is_empty() {
        found.push(folder.to_path_buf());
    }
    found
}

/// How deep below a workspace folder [`memory_roots`] looks.
pub const BELOW_DEPTH: usize = 4;
/// How many folders below a workspace folder [`memory_roots`] looks at, at most.
pub const BELOW_LOOKED: usize = 2000;
/// Whether `path` (a project's, relative to the project above it) lies in a dependency's folder
/// (`node_modules`, `vendor`, a virtual environment): the language server does not adopt a
/// project found there (a package's own memory), as [`memory_roots`] does not look there.
pub fn in_skipped(path: &Path) -> bool {
    const DEPENDENCIES: &[&str] = &["node_modules", "vendor", "site-packages", "venv", ".venv"];
    path.components().any(|c| c.as_os_str().to_str().is_some_and(|n| DEPENDENCIES.contains(&n)))
}

/// Folders [`memory_roots`] never looks into: dependencies and build output.
pub(crate) const SKIPPED: &[&str] =
    &["node_modules", "target", "vendor", "dist", "build", "out", "venv", "__pycache__"];

#[cfg(test)]
mod tests;
