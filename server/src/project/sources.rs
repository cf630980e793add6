//! Where a project already keeps its decisions (ADR folders, agents' rules files), so `init` can point `import` at them.

use std::path::Path;

/// Folders that usually hold architecture decision records or rules, relative to the root.
const FOLDERS: &[&str] = &[
    "docs/adr",
    "docs/adrs",
    "docs/decisions",
    "docs/architecture/decisions",
    "docs/architecture-decisions",
    "doc/adr",
    "doc/architecture/decisions",
    "adr",
    "adrs",
    "decisions",
    "architecture-decision-record",
    "architecture-decision-records",
    ".cursor/rules",
    ".windsurf/rules",
    ".clinerules",
    ".github/instructions",
];

/// Files agents read their project rules from.
const FILES: &[&str] = &[
    "CLAUDE.md",
    "AGENTS.md",
    "GEMINI.md",
    ".github/copilot-instructions.md",
    ".cursorrules",
    ".windsurfrules",
    ".clinerules",
];

/// The folders (with at least one `.md` or `.mdc` file) and files of
/// [`FOLDERS`] and [`FILES`] that exist under `root`, as `import` takes
/// them: a file holding nothing but the block `init` writes in it (an
/// instructions file it created) is not one (found by review: `init --agent
/// all` suggested importing the `copilot-instructions.md` it had just
/// written). Folder listings are read, and files up to 1 MiB.
pub fn existing(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in FOLDERS {
        let has_markdown = std::fs::read_dir(root.join(dir)).is_ok_and(|rd| {
            rd.flatten().any(|e| {
                e.file_type().is_ok_and(|t| t.is_file())
                    && e.path().extension().is_some_and(|x| x == "md" || x == "mdc")
            })
        });
        if has_markdown {
            out.push((*dir).to_string());
        }
        // Nested rules folders (`.cursor/rules/frontend`), which import reads only when named.
        for sub in super::read::subfolders_with(&root.join(dir), &["md", "mdc"]) {
            if let Ok(rel) = sub.strip_prefix(root) {
                out.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    // Records wherever a team keeps them (`docs/architecture/adr`, `rfcs/decisions`): found by
    // what their files look like, not a fixed list (found by review: `docs/architecture/adr` was
    // not named).
    for dir in record_folders(root) {
        if let Ok(rel) = dir.strip_prefix(root) {
            let rel = rel.to_string_lossy().into_owned();
            if !out.contains(&rel) {
                out.push(rel);
            }
        }
    }
    for file in FILES {
        let path = root.join(file);
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() > 0) {
            continue;
        }
        // Unreadable or large: suggested, and `import` says what it finds.
        // Lone CR line ends read as line ends, as `import` and `check` read them.
        let text =
            super::read::read_text(None, &path, 1 << 20).ok().map(|t| crate::text::lone_cr_as_lf(&t).into_owned());
        let only_ours =
            text.as_deref().is_some_and(|t| crate::recall::import::source::without_own_block(t).trim().is_empty());
        if !only_ours {
            out.push((*file).to_string());
            // The files it pulls in with `@path` hold rules too.
            let pulled = imported_by(root, file, text.as_deref().unwrap_or(""));
            out.extend(pulled.into_iter().filter(|f| !FILES.contains(&f.as_str())));
        }
    }
    out.dedup();
    out
}

/// The Markdown files `text` (the instructions file `rel` under `root`)
/// pulls in with Claude Code's `@path` imports (`@docs/testing.md`,
/// relative to the file's folder; outside code spans, fences and the
/// home folder), that exist inside the root: their rules are the file's
/// too, and `import` reads them only when named (found by review: they
/// were left out without a word).
pub fn imported_by(root: &Path, rel: &str, text: &str) -> Vec<String> {
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let canon = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let mut out: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        let outside_code = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for word in outside_code.split_whitespace() {
            let Some(target) = word.strip_prefix('@').map(|t| t.trim_end_matches([',', '.', ';', ')'])) else {
                continue;
            };
            if !target.ends_with(".md") || target.starts_with('~') || target.starts_with('/') {
                continue;
            }
            let path = root.join(dir).join(target);
            let inside = std::fs::canonicalize(&path).ok().filter(|p| p.starts_with(&canon) && p.is_file());
            if let Some(rel) =
                inside.and_then(|p| p.strip_prefix(&canon).ok().map(|r| r.to_string_lossy().into_owned()))
            {
                if !out.contains(&rel) {
                    out.push(rel);
                }
            }
        }
    }
    out
}

/// How deep below the root [`record_folders`] looks, and how many folders at most.
const RECORDS_DEPTH: usize = 4;
const RECORDS_LOOKED: usize = 2000;

/// The folders under `root` (hidden, dependency and build folders skipped, as
/// the language server skips them)
/// whose Markdown files read as decision records: at least two numbered
/// files (`0001-use-helm.md`, `ADR-002.md`), one of which has a status or
/// decision section (`## Status`, `## Decision`, `Status:`). Each file
/// looked at is read up to 16 KiB.
pub fn record_folders(root: &Path) -> Vec<std::path::PathBuf> {
    let numbered = |name: &str| {
        let stem = name.strip_suffix(".md").unwrap_or("");
        let digits = stem.trim_start_matches(|c: char| c.is_ascii_alphabetic()).trim_start_matches(['-', '_']);
        stem.len() > 2 && digits.chars().take_while(char::is_ascii_digit).count() >= 2
    };
    let reads_as_record = |path: &Path| {
        let Ok(text) = super::read::read_text(None, path, 16 << 10) else { return false };
        text.lines().any(|l| {
            let l = l.trim().trim_start_matches(['#', '*', '-', ' ']).to_lowercase();
            l == "status" || l.starts_with("status:") || l == "decision" || l == "decision outcome"
        })
    };
    let mut out = Vec::new();
    let mut todo: std::collections::VecDeque<(std::path::PathBuf, usize)> = [(root.to_path_buf(), 0)].into();
    let mut looked = 0;
    while let Some((dir, depth)) = todo.pop_front() {
        looked += 1;
        if looked > RECORDS_LOOKED {
            break;
        }
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let (mut records, mut subs) = (Vec::new(), Vec::new());
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            match e.file_type() {
                Ok(t)
                    if t.is_dir()
                        && depth < RECORDS_DEPTH
                        && !name.starts_with('.')
                        && !super::root::SKIPPED.contains(&name.as_str()) =>
                {
                    subs.push(e.path())
                }
                Ok(t) if t.is_file() && numbered(&name) => records.push(e.path()),
                _ => {}
            }
        }
        records.sort();
        if records.len() >= 2 && records.iter().take(3).any(|p| reads_as_record(p)) {
            out.push(dir.clone());
        }
        subs.sort();
        todo.extend(subs.into_iter().map(|d| (d, depth + 1)));
    }
    out.sort();
    out
}
