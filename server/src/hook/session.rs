//! Per-session memory of what the hook injected, in the user's cache directory: bounded, expiring, safe across processes.
//!
//! One file per session, named by a hash of the session id (never the id
//! itself, so `../../x` names a file like any other), holding one decision
//! key per line. Lines are appended with one `write` on a file opened with
//! `O_APPEND`, so hooks of the same session running at once never interleave
//! inside a line, and other sessions never share the file. A session
//! remembers at most [`MAX_KEYS`] decisions (then the hook stays silent for
//! it); when a new session file is created, files untouched for
//! [`MAX_AGE`] are removed and at most [`MAX_SESSIONS`] are kept.

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Overrides the state directory (`<cache>/memory-index-lsp`), for tests.
pub const CACHE_ENV: &str = "MEMORY_INDEX_LSP_CACHE_DIR";
/// Most decisions remembered per session.
pub const MAX_KEYS: usize = 512;
/// Most session files kept.
pub const MAX_SESSIONS: usize = 1000;
/// Session files untouched this long are removed.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// A state file is read up to this size (512 keys fit easily).
const MAX_FILE_BYTES: u64 = 256 * 1024;
const SUFFIX: &str = ".seen";

/// The sessions directory: `$MEMORY_INDEX_LSP_CACHE_DIR/sessions`, else
/// `$XDG_CACHE_HOME/memory-index-lsp/sessions`, else `~/.cache/…`. None without a home.
pub fn dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let base = match std::env::var_os(CACHE_ENV).and_then(absolute) {
        Some(p) => p,
        None => std::env::var_os("XDG_CACHE_HOME")
            .and_then(absolute)
            .or_else(|| std::env::var_os("HOME").and_then(absolute).map(|h| h.join(".cache")))?
            .join("memory-index-lsp"),
    };
    Some(base.join("sessions"))
}

/// One session's state.
#[derive(Debug)]
pub struct Session {
    path: PathBuf,
    keys: Vec<String>,
}

impl Session {
    /// Opens `session_id`'s state under `dir` (empty when new or unreadable).
    pub fn open(dir: &Path, session_id: &str) -> Session {
        let path = dir.join(format!("{:016x}{SUFFIX}", fnv1a(session_id.as_bytes())));
        let mut text = String::new();
        if let Ok(f) = fs::File::open(&path) {
            let _ = f.take(MAX_FILE_BYTES).read_to_string(&mut text);
        }
        Session { path, keys: text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect() }
    }

    /// Whether `key` was injected before in this session.
    pub fn seen(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k == key)
    }

    /// Whether the session remembers as many decisions as it may (the hook then stays silent).
    pub fn full(&self) -> bool {
        self.keys.len() >= MAX_KEYS
    }

    /// Appends `keys` in one write; a new file first sweeps old sessions away.
    pub fn record(&mut self, keys: &[String]) -> std::io::Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        let new = !self.path.exists();
        let mut buf = String::new();
        for k in keys {
            buf.push_str(&k.replace(['\n', '\r'], " "));
            buf.push('\n');
        }
        let mut opts = OpenOptions::new();
        opts.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
        opts.open(&self.path)?.write_all(buf.as_bytes())?;
        self.keys.extend(keys.iter().cloned());
        if new {
            sweep(dir, &self.path, SystemTime::now());
        }
        Ok(())
    }
}

/// Removes session files older than [`MAX_AGE`], then the oldest beyond [`MAX_SESSIONS`]; never `keep`.
fn sweep(dir: &Path, keep: &Path, now: SystemTime) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut live: Vec<(SystemTime, PathBuf)> = Vec::new();
    for e in rd.filter_map(Result::ok) {
        let path = e.path();
        if path == keep || !e.file_name().to_string_lossy().ends_with(SUFFIX) {
            continue;
        }
        let Ok(modified) = e.metadata().and_then(|m| m.modified()) else { continue };
        if now.duration_since(modified).is_ok_and(|age| age > MAX_AGE) {
            let _ = fs::remove_file(&path);
        } else {
            live.push((modified, path));
        }
    }
    if live.len() >= MAX_SESSIONS {
        live.sort();
        for (_, path) in &live[..live.len() + 1 - MAX_SESSIONS] {
            let _ = fs::remove_file(path);
        }
    }
}

/// FNV-1a, 64 bits: a stable file name for a session id on every platform and Rust version.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests;
