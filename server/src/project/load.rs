//! Reads a workspace root from disk into a [`Workspace`]: the engine's only file reader.
//!
//! Follows `memory-index.toml` (spec §8). Every file goes through
//! [`read::read_inside`]: opened once, judged by its handle, never followed
//! out of the root, never blocking on a pipe or reading a device, at most
//! `max-file-bytes`. Files that cannot be read or are not UTF-8 are kept with
//! a [`crate::model::FileProblem`] so rules report them (`unreadable-file` says what the
//! file is); nothing is silently skipped.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use crate::model::config::{Config, ConfigError, CONFIG_FILE};
use crate::model::{FileText, Workspace};
use crate::rules;

use super::read;

/// Why a root could not be loaded at all.
#[derive(Debug)]
pub enum LoadError {
    /// The root does not exist or is not a directory.
    NotADirectory(PathBuf),
    /// The root (or `--config FILE`) could not be read.
    Io(PathBuf, std::io::Error),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotADirectory(p) => write!(
                f,
                "{} is not a directory: pass the workspace root (the folder that contains agents/)",
                p.display()
            ),
            LoadError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// A message when ROOT has neither an index nor any decision file (nothing
/// to check or recall): every front end says so, none answers as if the
/// memory were empty (found by review: MCP's check said `[]`).
pub fn missing_memory(ws: &Workspace, root: &str) -> Option<String> {
    if ws.index().is_some() || ws.decisions().next().is_some() || ws.file_id(&ws.config().index).is_some() {
        return None;
    }
    Some(format!(
        "no memory index in {root}: expected {} and {}/*.md (start one with `memory-index-lsp init`, or set \
         `index` and `decisions` in memory-index.toml)",
        ws.config().index,
        ws.config().decisions
    ))
}

/// One line per file of the memory that could not be read (a pipe, a
/// device, no permission): its decisions are missing from every answer,
/// which a front end says rather than answering "No match" and nothing else;
/// and a missing index ([`missing_index`]).
pub fn unread_notes(ws: &crate::model::Workspace) -> Vec<String> {
    let mut notes: Vec<String> = ws
        .files()
        .filter_map(|(_, f)| match &f.problem {
            Some(crate::model::FileProblem::Unreadable(why)) => {
                Some(format!("cannot read {}: {why}; its decisions are left out", f.path))
            }
            _ => None,
        })
        .collect();
    notes.extend(missing_index(ws));
    notes
}

/// Decision files without their index: nothing can be recalled, and every
/// heading is reported unindexed (found by review: the index's absence
/// itself was never said).
pub fn missing_index(ws: &crate::model::Workspace) -> Option<String> {
    (ws.file_id(&ws.config().index).is_none() && ws.decisions().next().is_some()).then(|| {
        format!(
            "there is no index at {}: no decision can be recalled until it is back (restore it, e.g. from git; or \
             `memory-index-lsp init` starts an empty one, and each heading's `unindexed-heading` finding gives its entry)",
            ws.config().index
        )
    })
}

/// Loads `root` with its own `memory-index.toml`.
pub fn load(root: &Path) -> Result<Workspace, LoadError> {
    load_with(root, None)
}

/// Loads `root`, reading the configuration from `config_file` instead of the root's file when given.
pub fn load_with(root: &Path, config_file: Option<&Path>) -> Result<Workspace, LoadError> {
    load_with_base(root, config_file, None)
}

/// Like [`load_with`], starting from `base` (an editor's settings) instead of
/// the defaults; the configuration file's keys override the base, so the
/// editor and `check` in CI agree whenever the project sets a key.
pub fn load_with_base(
    root: &Path,
    config_file: Option<&Path>,
    base: Option<&crate::model::config::ConfigPatch>,
) -> Result<Workspace, LoadError> {
    let meta = fs::metadata(root).map_err(|e| LoadError::Io(root.to_path_buf(), e))?;
    if !meta.is_dir() {
        return Err(LoadError::NotADirectory(root.to_path_buf()));
    }
    let canon_root = fs::canonicalize(root).map_err(|e| LoadError::Io(root.to_path_buf(), e))?;
    let mut ws = Workspace::new(Config::default());
    let (config_rel, config_abs) = match config_file {
        Some(p) => {
            fs::metadata(p).map_err(|e| LoadError::Io(p.to_path_buf(), e))?;
            (display_rel(&canon_root, p), p.to_path_buf())
        }
        None => (CONFIG_FILE.to_string(), root.join(CONFIG_FILE)),
    };
    ws.set_config_path(&config_rel);
    let limit = crate::model::config::DEFAULT_MAX_FILE_BYTES;
    let config_text = match config_file {
        Some(_) => read::read_anywhere(&config_abs, limit),
        None => read::read_inside(&canon_root, &config_abs, limit),
    };
    let mut cfg = Config::default();
    let mut errors: Vec<ConfigError> = Vec::new();
    if let Some(patch) = base {
        let problems = cfg.apply(patch.clone(), rules::known());
        errors.extend(problems.into_iter().map(|message| ConfigError { range: Default::default(), message }));
    }
    if let Some(t) = &config_text {
        errors.extend(cfg.apply_toml(&t.text, rules::known()));
        ws.set_file(&config_rel, t.clone());
    }
    ws.set_config(cfg, errors);
    let cfg = ws.config().clone();
    if let Some(t) = read::read_inside(&canon_root, &root.join(&cfg.index), cfg.max_file_bytes) {
        ws.set_file(&cfg.index, t);
    }
    let dir = root.join(&cfg.decisions);
    // Each name, and whether the listing says it is a regular file (no `stat`).
    let mut names: Vec<(String, bool)> = match fs::read_dir(&dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let regular = e.file_type().is_ok_and(|t| t.is_file());
                Some((e.file_name().into_string().ok()?, regular))
            })
            .filter(|(n, _)| n.ends_with(".md"))
            .collect(),
        Err(_) => Vec::new(),
    };
    names.sort();
    // Regular files through the folder's handle; the rest (links, anything
    // odd) one by one, which says what is wrong with them.
    let folder = read::Folder::open(&canon_root, &dir);
    let mut decisions = Vec::with_capacity(names.len());
    for (name, regular) in names {
        let fast = folder.as_ref().filter(|_| regular).and_then(|f| f.read_regular(&name, cfg.max_file_bytes));
        if let Some(t) = fast.or_else(|| read::read_inside(&canon_root, &dir.join(&name), cfg.max_file_bytes)) {
            decisions.push((ws.decision_path(&name), t));
        }
    }
    ws.set_files(decisions);
    Ok(ws)
}

/// Reads a file that must stay inside `canon_root` after resolving links
/// (see [`read::read_inside`]), at most `max_bytes`.
pub fn read_inside(canon_root: &Path, path: &Path, max_bytes: u64) -> Option<FileText> {
    read::read_inside(canon_root, path, max_bytes)
}

/// `path` relative to `canon_root` with `/` separators when inside it, else as given.
pub fn display_rel(canon_root: &Path, path: &Path) -> String {
    let abs = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(canon_root) {
        Ok(rel) => rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"),
        Err(_) => path.display().to_string(),
    }
}

/// Most Markdown files [`other_markdown`] reads, and the deepest folder level it enters.
pub const MAX_MARKDOWN_FILES: usize = 2000;
pub const MAX_MARKDOWN_DEPTH: usize = 8;
/// Larger Markdown files are not scanned for invocations.
pub const MAX_MARKDOWN_BYTES: u64 = 2 * 1024 * 1024;

/// The root's other Markdown files (skills, CLAUDE.md, notes), for invocations:
/// relative paths and texts, skipping hidden folders, `node_modules`,
/// `target` and `vendor`, never following links, bounded in count, depth and
/// size. Files already in `ws` are left out.
pub fn other_markdown(root: &Path, ws: &Workspace) -> Vec<(String, FileText)> {
    let mut out = Vec::new();
    let canon = fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut stack = vec![(root.to_path_buf(), 0usize)];
    while let Some((dir, depth)) = stack.pop() {
        let Ok(rd) = fs::read_dir(&dir) else { continue };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(meta) = fs::symlink_metadata(e.path()) else { continue };
            if meta.is_dir() {
                let skip = name.starts_with('.') || ["node_modules", "target", "vendor"].contains(&name.as_str());
                if !skip && depth < MAX_MARKDOWN_DEPTH {
                    stack.push((e.path(), depth + 1));
                }
            } else if meta.is_file() && name.ends_with(".md") && meta.len() <= MAX_MARKDOWN_BYTES {
                let Ok(rel) = e
                    .path()
                    .strip_prefix(root)
                    .map(|r| r.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"))
                else {
                    continue;
                };
                if ws.file_id(&rel).is_some() {
                    continue;
                }
                // Opened once and judged by its handle, like the decision files.
                if let Some(t) =
                    read::read_inside(&canon, &e.path(), MAX_MARKDOWN_BYTES).filter(|t| t.problem.is_none())
                {
                    out.push((rel, t));
                }
                if out.len() >= MAX_MARKDOWN_FILES {
                    return out;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
