//! The project's files, listed for what checks a decision's scope against them (`unmatched-scope`, hover): git's list in a repository, else a bounded walk.
//!
//! Listed only when some decision has a scope line: most memories have none,
//! and then nothing is spawned or walked. In a git work tree the list is
//! `git ls-files --cached --others --exclude-standard` (what the project
//! tracks or would track: no build output, no `node_modules`); elsewhere a
//! walk that skips hidden folders, `node_modules` and `target`. Either stops
//! at [`MAX_FILES`]: past it the list is not given and whatever needs it says
//! nothing (a wrong "matches no file" is worse than none).

use std::path::Path;
use std::process::{Command, Stdio};

use crate::model::Workspace;

/// Most files listed.
pub const MAX_FILES: usize = 200_000;

/// Gives `ws` the files of the project at `root` when one of its decisions has a scope.
pub fn list_for_scopes(ws: &mut Workspace, root: &Path) {
    if crate::ide::scope::all(ws).is_empty() {
        return;
    }
    if let Some(files) = list(root) {
        ws.set_project_files(files);
    }
}

/// The project's files, root-relative with `/`, sorted; None past [`MAX_FILES`] or when unreadable.
pub fn list(root: &Path) -> Option<Vec<String>> {
    let mut files = from_git(root).or_else(|| walk(root))?;
    files.sort();
    files.dedup();
    Some(files)
}

fn from_git(root: &Path) -> Option<Vec<String>> {
    if !root.join(".git").exists() && !inside_work_tree(root) {
        return None;
    }
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "--cached", "--others", "--exclude-standard", "-z"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let files: Vec<String> = out
        .stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    (files.len() <= MAX_FILES).then_some(files)
}

/// Whether `root` is inside a git work tree whose top is above it.
fn inside_work_tree(root: &Path) -> bool {
    root.ancestors().skip(1).any(|a| a.join(".git").exists())
}

fn walk(root: &Path) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if !name.starts_with('.') && name != "node_modules" && name != "target" {
                    stack.push(e.path());
                }
            } else if kind.is_file() {
                let rel = e.path().strip_prefix(root).ok()?.to_string_lossy().replace('\\', "/");
                out.push(rel);
                if out.len() > MAX_FILES {
                    return None;
                }
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_lists_files_and_skips_hidden_and_build_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for f in ["src/a.ts", "docs/b.md", ".hidden/c", "node_modules/x/d.js", "target/e"] {
            std::fs::create_dir_all(root.join(f).parent().unwrap()).unwrap();
            std::fs::write(root.join(f), "x").unwrap();
        }
        assert_eq!(
            walk(root)
                .map(|mut v| {
                    v.sort();
                    v
                })
                .unwrap(),
            ["docs/b.md", "src/a.ts"]
        );
    }
}
