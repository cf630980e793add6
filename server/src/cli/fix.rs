//! `memory-index-lsp fix [ROOT] [--dry-run]`: applies every safe fix, then reports like `check`.
//!
//! Writes only files whose text changed, atomically (a temporary file in the
//! same directory, the original's permissions, then a rename), and never a
//! file that was not valid UTF-8. `--dry-run` prints a unified diff instead.

use std::fs;
use std::io::Write;
use std::path::Path;

use super::{check::missing_workspace, output, parse_root_args, usage_error};
use crate::ide::fix_all;
use crate::{load, rules};

/// Runs `fix`; returns the exit code.
pub fn run(args: &[String]) -> i32 {
    let opts = match parse_root_args(args, true) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let default = super::default_root();
    let root = Path::new(opts.root.as_deref().unwrap_or(&default));
    let mut ws = match load::load_with(root, opts.config.as_deref().map(Path::new)) {
        Ok(ws) => ws,
        Err(e) => return usage_error(&e.to_string()),
    };
    if let Some(msg) = missing_workspace(&ws, &root.display().to_string()) {
        return usage_error(&msg);
    }
    let originals: Vec<(String, String)> = ws.files().map(|(_, f)| (f.path.clone(), f.text.clone())).collect();
    let result = fix_all::fix_all(&mut ws);
    let mut stderr = std::io::stderr();
    for (path, new_text) in &result.changed {
        let old = originals.iter().find(|(p, _)| p == path).map_or("", |(_, t)| t.as_str());
        if opts.dry_run {
            print!("{}", unified_diff(path, old, new_text));
        } else if let Err(e) = write_atomic(&root.join(path), new_text) {
            let _ = writeln!(stderr, "memory-index-lsp: cannot write {path}: {e}; the file was left unchanged");
            return 2;
        }
    }
    let verb = if opts.dry_run { "would apply" } else { "applied" };
    let _ = writeln!(stderr, "{verb} {} fix(es) in {} file(s)", result.applied.len(), result.changed.len());
    let findings = rules::check(&ws);
    output::report(&ws, &findings, opts.format_json)
}

/// A unified diff of one file (`--- a/PATH` / `+++ b/PATH`, 3 lines of context).
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Replaces `path`'s content atomically, keeping its permissions. A symlink
/// (already checked to stay inside the root when loaded) is written through,
/// so the link itself survives.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let real = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let path = real.as_path();
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.memory-index-lsp.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = fs::metadata(path) {
            fs::set_permissions(&tmp, meta.permissions())?;
        }
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
