//! Per-session memory of what the hook injected, in the user's cache directory: bounded, expiring, safe across processes.
//!
//! One file per session, named by a hash of the session id (never the id
//! itself, so `../../x` names a file like any other), holding one decision
//! key per line. A [`Session`] holds the file open and locked (`flock`)
//! from reading what was injected to recording what is injected now, so
//! hooks of one session running at once (Claude Code runs matching hooks in
//! parallel) take turns and never inject a decision twice. The file is
//! opened without following a link (a link planted at its name is refused,
//! never written through) and without blocking, and must be a regular file
//! (a FIFO there is refused at once). A session
//! remembers at most [`MAX_KEYS`] decisions (then the hook stays silent for
//! it); when a new session file is created, files untouched for
//! [`MAX_AGE`] are removed and at most [`MAX_SESSIONS`] are kept.
//!
//! A key starting with a tab is the hook's own (the note was given, the
//! stop was blocked); any other is a decision injected. After a clear or a
//! compaction ([`Session::context_lost`]) the decisions count as never
//! injected: the agent's context no longer has them (found by review: a
//! long session never got a decision again once compacted).

use std::fs::{self, File, OpenOptions};
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
/// How long a hook waits for another hook of its session to finish.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);
const SUFFIX: &str = ".seen";
/// The line that says the agent's context was cleared or compacted.
const CONTEXT_LOST: &str = "\tcontext-lost";

/// The sessions directory: `$MEMORY_INDEX_LSP_CACHE_DIR/sessions`, else
/// `$XDG_CACHE_HOME/memory-index-lsp/sessions`, else `~/.cache/…`. None without a home.
pub fn dir() -> Option<PathBuf> {
    Some(base()?.join("sessions"))
}

/// The state directory: `$MEMORY_INDEX_LSP_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/memory-index-lsp`, else `~/.cache/memory-index-lsp`. None without a home.
pub fn base() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    match std::env::var_os(CACHE_ENV).and_then(absolute) {
        Some(p) => Some(p),
        None => Some(
            std::env::var_os("XDG_CACHE_HOME")
                .and_then(absolute)
                .or_else(|| std::env::var_os("HOME").and_then(absolute).map(|h| h.join(".cache")))?
                .join("memory-index-lsp"),
        ),
    }
}

/// One session's state, open and locked until dropped.
#[derive(Debug)]
pub struct Session {
    path: PathBuf,
    file: File,
    keys: Vec<String>,
    /// Where the decisions the context still holds start: after the last [`CONTEXT_LOST`].
    held: usize,
}

impl Session {
    /// Opens `session_id`'s state under `dir` and waits for its lock (up to
    /// [`LOCK_WAIT`]); Err says why there is no state (a link or FIFO at its
    /// name, no room, another hook that does not finish).
    pub fn open(dir: &Path, session_id: &str) -> Result<Session, String> {
        let path = dir.join(format!("{:016x}{SUFFIX}", fnv1a(session_id.as_bytes())));
        create_private_dir(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut o = OpenOptions::new();
        o.read(true).append(true).create(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
        }
        let file = o.open(&path).map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                format!("{} is a symbolic link; it is not followed", path.display())
            } else {
                format!("cannot open {}: {e}", path.display())
            }
        })?;
        let meta = file.metadata().map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err(format!("{} is not a regular file (a FIFO or device?); it is not used", path.display()));
        }
        lock(&file).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut text = String::new();
        let _ = (&file).take(MAX_FILE_BYTES).read_to_string(&mut text);
        let keys: Vec<String> = text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect();
        let held = keys.iter().rposition(|k| k == CONTEXT_LOST).map_or(0, |i| i + 1);
        Ok(Session { path, file, keys, held })
    }

    /// Whether `key` was recorded in this session: a decision's key since
    /// the context was last cleared or compacted, the hook's own at any time.
    pub fn seen(&self, key: &str) -> bool {
        let from = if key.starts_with('\t') { 0 } else { self.held };
        self.keys[from..].iter().any(|k| k == key)
    }

    /// Records that the agent's context was cleared or compacted: the
    /// decisions injected before may be injected again.
    pub fn context_lost(&mut self) -> std::io::Result<()> {
        self.record(&[CONTEXT_LOST.to_string()])?;
        self.held = self.keys.len();
        Ok(())
    }

    /// The keys that start with `prefix`, without it, in the order recorded.
    pub fn keys_with<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.keys.iter().filter_map(move |k| k.strip_prefix(prefix))
    }

    /// Whether the session remembers as many decisions as it may (the hook then stays silent).
    pub fn full(&self) -> bool {
        self.keys.len() - self.held >= MAX_KEYS
    }

    /// Appends `keys` in one write; the session's first keys sweep old sessions away.
    pub fn record(&mut self, keys: &[String]) -> std::io::Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let new = self.keys.is_empty();
        let mut buf = String::new();
        for k in keys {
            buf.push_str(&k.replace(['\n', '\r'], " "));
            buf.push('\n');
        }
        (&self.file).write_all(buf.as_bytes())?;
        self.keys.extend(keys.iter().cloned());
        if new {
            if let Some(dir) = self.path.parent() {
                sweep(dir, &self.path, SystemTime::now());
            }
        }
        Ok(())
    }
}

/// The sessions folder, readable by its owner only.
pub(crate) fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

/// Takes `file`'s exclusive lock, waiting up to [`LOCK_WAIT`], trying again
/// every 2 ms at most (the hooks of one event run at once and hold it briefly).
fn lock(file: &File) -> Result<(), String> {
    super::lock::lock_within(file, LOCK_WAIT, Duration::from_millis(2)).map_err(|e| match e {
        Some(e) => format!("cannot lock this session's state: {e}"),
        None => "another hook of this session held its state too long".into(),
    })
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

/// Writes `bytes` to the cache file `path` whole or not at all (a private
/// temporary file beside it, then a rename, so a reader never sees half a
/// file and two writers leave one whole file). Best effort: false when it
/// did not land (a cache costs only its rebuild).
pub(crate) fn write_cache_file(path: &Path, bytes: &[u8]) -> bool {
    let Some(dir) = path.parent() else { return false };
    if create_private_dir(dir).is_err() {
        return false;
    }
    let nonce = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.{nonce:08x}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut o = fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        o.open(&tmp)?.write_all(bytes)?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written.is_ok()
}

pub(crate) use crate::text::fnv1a;

#[cfg(test)]
mod tests;
