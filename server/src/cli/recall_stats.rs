//! `memory-index-lsp recall-stats [--root DIR] [--threshold C] [--json] [PATHS]...`: recall measured over real Claude Code and Codex sessions.
//!
//! PATHS are transcript files (`*.jsonl`) or folders of them; by default the
//! project's folder under `~/.claude/projects/` (Claude Code names it after
//! the project's absolute path, every character other than a letter or a
//! digit replaced by `-`) and the Codex rollouts under
//! `$CODEX_HOME/sessions/` (default `~/.codex/sessions/`) whose session was
//! started in the project (its first line's `cwd`). Prints one row per session and the total: user
//! prompts, recall opportunities (prompts whose first ranked decision
//! reaches the threshold, the hook's by default), how many of those had the
//! decision reach the agent in the same turn (injected by the hook, or
//! fetched by `/when`, `/how`, MCP or `resolve`), the recall rate, and of
//! the decisions the hook injected, how many the agent used (then each
//! injected decision, used or not, and how). See
//! `recall::stats` for exactly what counts. Unreadable files and
//! malformed lines are counted and skipped. Exit 0; 1 when a transcript
//! could not be read at all (a PATH missing, not a file, unreadable: the
//! figures leave it out); 2 for usage errors.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::args::RecallStatsArgs;
use super::usage_error;
use crate::project::read::{self, Line};
use crate::project::transcript::Session;
use crate::recall::stats::Stats;

/// Largest transcript read (bytes); a larger file is read this far and said so.
const MAX_TRANSCRIPT: u64 = 256 << 20;
/// Longest line parsed (bytes): a longer one is skipped without being held, and counted as malformed.
pub const MAX_LINE: usize = 4 << 20;

/// Runs `recall-stats`; returns the exit code.
pub fn run(a: RecallStatsArgs) -> i32 {
    let (root, threshold, json, mut paths) = (a.root, a.threshold, a.json, a.paths);
    let (root, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let threshold = threshold.unwrap_or(ws.config().recall.prompt);
    // A transcript named and not read makes the exit code 1; the default folder missing does not
    // (a project without sessions yet).
    let explicit = !paths.is_empty();
    if paths.is_empty() {
        match default_dir(&root) {
            Some(d) => paths.push(d),
            None => return usage_error("no transcripts given and no home directory to find ~/.claude/projects in"),
        }
        paths.extend(codex_rollouts(&root));
    }
    let (files, mut unreadable) = read::expand(&paths, &["jsonl"]);
    let mut lost = if explicit { unreadable.len() } else { 0 };
    let mut sessions: Vec<Stats> = Vec::new();
    for f in &files {
        let name = f.file_stem().map_or_else(|| f.display().to_string(), |s| s.to_string_lossy().into_owned());
        match read_session(f, &name) {
            Ok((session, whole)) => {
                if !whole {
                    unreadable.push(format!("{}: only its first {} MiB were read", f.display(), MAX_TRANSCRIPT >> 20));
                }
                sessions.push(session.finish(&ws, threshold));
            }
            Err(e) => {
                unreadable.push(format!("{}: {e}", f.display()));
                lost += 1;
            }
        }
    }
    let mut total = Stats { session: "total".into(), ..Default::default() };
    sessions.iter().for_each(|s| total.add(s));
    for u in &unreadable {
        eprintln!("memory-index-lsp: skipped {u}");
    }
    if json {
        let v = serde_json::json!({
            "threshold": threshold,
            "sessions": sessions,
            "total": total,
            "recall_rate": total.rate(),
            "used_rate": total.used_rate(),
            "followed_rate": total.followed_rate(),
            "skipped": unreadable,
        });
        super::emit(&format!("{v}\n")).unwrap_or(0).max(i32::from(lost > 0))
    } else {
        super::emit(&table(&sessions, &total, threshold)).unwrap_or(0).max(i32::from(lost > 0))
    }
}

/// `~/.claude/projects/<root's absolute path with every non-alphanumeric character as ->`.
fn default_dir(root: &Path) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty())?;
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let name: String = abs.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    Some(PathBuf::from(home).join(".claude/projects").join(name))
}

/// Most Codex rollouts looked at, and most of a rollout's first line read.
const MAX_ROLLOUTS: usize = 20_000;
const MAX_META: u64 = 1 << 20;

/// The Codex rollouts (`$CODEX_HOME/sessions/**/rollout-*.jsonl`, default
/// `~/.codex/sessions`) of sessions started in the project at `root` or
/// below it, by their first line's `session_meta` `cwd`; sorted.
fn codex_rollouts(root: &Path) -> Vec<PathBuf> {
    let home = std::env::var_os("CODEX_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".codex")));
    let Some(sessions) = home.map(|h| h.join("sessions")) else { return Vec::new() };
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let (mut out, mut todo, mut seen) = (Vec::new(), vec![sessions], 0usize);
    while let Some(dir) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            seen += 1;
            if seen > MAX_ROLLOUTS {
                break;
            }
            let path = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => todo.push(path),
                Ok(t) if t.is_file() => {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    if name.starts_with("rollout-") && name.ends_with(".jsonl") && started_in(&path, &root) {
                        out.push(path);
                    }
                }
                _ => {}
            }
        }
    }
    out.sort();
    out
}

/// Whether the Codex rollout at `path` names a session started in `root` or below it.
fn started_in(path: &Path, root: &Path) -> bool {
    use std::io::{BufRead, Read};
    let Ok(file) = read::open_regular(None, path) else { return false };
    let mut first = String::new();
    if std::io::BufReader::new(file.take(MAX_META)).read_line(&mut first).is_err() {
        return false;
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&first) else { return false };
    let Some(cwd) = v.pointer("/payload/cwd").and_then(serde_json::Value::as_str) else { return false };
    let cwd = std::fs::canonicalize(cwd).unwrap_or_else(|_| PathBuf::from(cwd));
    cwd.starts_with(root)
}

/// Reads one transcript through the guarded reader (a FIFO or device is
/// refused, never opened for reading), line by line, each line bounded by
/// [`MAX_LINE`]; the bool says whether it was read to its end.
fn read_session(p: &Path, name: &str) -> Result<(Session, bool), String> {
    let file = read::open_regular(None, p).map_err(|e| e.to_string())?;
    let mut session = Session::new(name);
    let whole = read::lines(file, MAX_LINE, MAX_TRANSCRIPT, |l| match l {
        Line::Text(t) => session.line(t),
        Line::TooLong(_) => session.skipped_line(),
    })
    .map_err(|e| e.to_string())?;
    Ok((session, whole))
}

fn table(sessions: &[Stats], total: &Stats, threshold: f64) -> String {
    let pct = |r: Option<f64>| r.map_or("n/a".into(), |r| format!("{:.0}%", 100.0 * r));
    let mut s = format!("Recall at confidence >= {threshold:.2}\n\n");
    s.push_str(
        "| session | prompts | opportunities | injected | fetched | reached | recall | decisions injected | used | used share | pointers | followed | malformed lines |\n",
    );
    s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for x in sessions.iter().chain(std::iter::once(total)) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            x.session,
            x.prompts,
            x.opportunities,
            x.injected,
            x.fetched,
            x.reached,
            pct(x.rate()),
            x.injections,
            x.used,
            pct(x.used_rate()),
            x.pointers,
            x.followed,
            x.malformed_lines
        );
    }
    if sessions.iter().any(|x| !x.decisions.is_empty()) {
        s.push_str("\nInjected decisions, and whether the agent used them in that turn or the next\n\n");
        for x in sessions {
            for d in &x.decisions {
                let how = d.used.as_deref().map_or_else(|| "not used".to_string(), |h| format!("used: {h}"));
                let _ = writeln!(s, "- {}: {} \u{2192} {} ({how})", x.session, d.entry, d.title);
            }
        }
    }
    s
}
