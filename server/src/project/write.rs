//! Replacing a file safely: only if it is still what was read, never through a planted link, keeping owner and mode.
//!
//! Every command that writes (`fix`, `remember`, `init`, the MCP server's
//! `remember`) goes through [`replace`] or [`create`], holding the memory's
//! lock ([`super::lock`]):
//! - The new text goes to a temporary file in the target's directory, created
//!   exclusively (`O_EXCL`, never following a link) under a name no one can
//!   predict, then renamed over the target: a reader sees the old file or the
//!   new one, never half of it, and a link planted at a guessed name is never
//!   written through.
//! - Just before the rename the target is read again (through a handle kept
//!   open) and compared with what the caller read: if someone changed it
//!   meanwhile (an agent appending an entry, an editor saving), nothing is
//!   replaced and the caller is told ([`WriteError::Changed`]), so it can
//!   start over from the new content. A writer that had the old file open
//!   writes into it just after the rename: a moment later ([`SETTLE`]) the
//!   old file is looked at again through that handle, and what was written
//!   after the comparison is appended to the new file (then `Changed`, so
//!   the caller looks again). Only a writer that opens the old file and
//!   then waits longer than that before writing can still lose its write;
//!   closing that too would need every writer to take a lock, which agents
//!   and editors do not.
//! - Owner, group and mode are kept; when they cannot be (another user's
//!   file and no right to give it back), the write is refused.
//! - A read-only target (no owner write bit) is refused, even for root.
//! - A target with hard links is rewritten in place (truncated and written
//!   through one handle, after the same comparison), so every link keeps
//!   seeing the file; that write is not atomic.
//! - A symlink target (checked by the loader to stay inside the root) is
//!   written through: the link survives and points at the new text.
//! - A temporary file left by a writer that was killed before its rename
//!   is removed by the next writer in that folder once it is a minute old
//!   ([`STRAY_AGE`]); a younger one may belong to a writer still running.

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Why a file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The file is no longer what the caller read (or now exists when it did not).
    Changed,
    /// Refused or failed, with what to do.
    Refused(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Changed => write!(f, "it changed since it was read; nothing was replaced"),
            WriteError::Refused(why) => write!(f, "{why}"),
        }
    }
}

fn refused(why: impl Into<String>) -> WriteError {
    WriteError::Refused(why.into())
}

/// Replaces `path`, which the caller read as `expected`, with `text`.
/// `Changed` when it was not what was read (nothing replaced), or when it
/// was replaced and lines another program wrote into the old file just then
/// were carried over (the file is not exactly `text`: look again).
pub fn replace(path: &Path, expected: &str, text: &str) -> Result<(), WriteError> {
    match replace_once(path, expected, text)? {
        Replaced::Exactly => Ok(()),
        Replaced::WithLateLines => Err(WriteError::Changed),
    }
}

/// What [`replace_once`] left in the file.
enum Replaced {
    Exactly,
    WithLateLines,
}

fn replace_once(path: &Path, expected: &str, text: &str) -> Result<Replaced, WriteError> {
    let real = fs::canonicalize(path).map_err(|e| refused(format!("{e}")))?;
    let meta = fs::symlink_metadata(&real).map_err(|e| refused(format!("{e}")))?;
    if !meta.is_file() {
        return Err(refused("it is not a regular file"));
    }
    if read_only(&meta) {
        return Err(refused("it is read-only; make it writable (chmod u+w) to let memory-index-lsp change it"));
    }
    if links(&meta) > 1 {
        return in_place(&real, expected, text).map(|()| Replaced::Exactly);
    }
    let dir = real.parent().unwrap_or(Path::new("."));
    let (tmp, mut file) = temp_in(dir, &real)?;
    let mut old = None;
    let result = (|| {
        file.write_all(text.as_bytes()).map_err(io)?;
        keep_owner_and_mode(&file, &meta)?;
        file.sync_all().map_err(io)?;
        // The file being replaced, held open: compared now, and watched for
        // writes that land in it after the comparison.
        let current = open_nofollow(&real)?;
        if !same_content(&current, expected)? {
            return Err(WriteError::Changed);
        }
        old = Some(current);
        fs::rename(&tmp, &real).map_err(io)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    // A writer that opened the old file just before the rename writes into
    // it just after: give it a moment, then carry what it wrote over.
    std::thread::sleep(SETTLE);
    let tail = match old {
        Some(mut f) => late_tail(&mut f, expected.len() as u64)?,
        None => Vec::new(),
    };
    if tail.is_empty() {
        return Ok(Replaced::Exactly);
    }
    carry_over(&real, &tail)?;
    Ok(Replaced::WithLateLines)
}

/// How long [`replace`] waits after the rename for writes into the old file.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(2);

/// What was written into the replaced file after its first `seen` bytes.
fn late_tail(f: &mut File, seen: u64) -> Result<Vec<u8>, WriteError> {
    let len = f.metadata().map_err(io)?.len();
    if len <= seen {
        return Ok(Vec::new());
    }
    f.seek(std::io::SeekFrom::Start(seen)).map_err(io)?;
    let mut tail = Vec::new();
    f.read_to_end(&mut tail).map_err(io)?;
    Ok(tail)
}

/// Appends `tail` (lines another program wrote into the file just replaced)
/// to the file now at `real`, so nothing it wrote is lost.
fn carry_over(real: &Path, tail: &[u8]) -> Result<(), WriteError> {
    for _ in 0..8 {
        let now = fs::read(real).map_err(io)?;
        let Ok(now) = String::from_utf8(now) else { return Err(refused("it is no longer valid UTF-8")) };
        let mut merged = now.clone();
        if !merged.is_empty() && !merged.ends_with('\n') && !tail.starts_with(b"\n") {
            merged.push('\n');
        }
        merged.push_str(&String::from_utf8_lossy(tail));
        match replace_once(real, &now, &merged) {
            Ok(_) => return Ok(()),
            Err(WriteError::Changed) => continue, // not written: read again
            Err(e) => return Err(e),
        }
    }
    Err(refused("it kept changing while lines written into it were being carried over; check its end"))
}

fn open_nofollow(real: &Path) -> Result<File, WriteError> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    match o.open(real) {
        Ok(f) => Ok(f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(WriteError::Changed),
        Err(e) => Err(io(e)),
    }
}

/// Creates `path` with `text`; [`WriteError::Changed`] when it exists by then.
pub fn create(path: &Path, text: &str) -> Result<(), WriteError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let (tmp, mut file) = temp_in(dir, path)?;
    let result = (|| {
        file.write_all(text.as_bytes()).map_err(io)?;
        // A new file gets the mode any program's new file gets (the temporary one is private).
        make_public(&file)?;
        file.sync_all().map_err(io)?;
        // A hard link fails when the name exists: never clobbers a file made meanwhile.
        match fs::hard_link(&tmp, path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(WriteError::Changed),
            Err(_) => {
                // File systems without hard links: exclusive creation instead.
                let mut f = OpenOptions::new().write(true).create_new(true).open(path).map_err(|e| {
                    if e.kind() == std::io::ErrorKind::AlreadyExists {
                        WriteError::Changed
                    } else {
                        io(e)
                    }
                })?;
                f.write_all(text.as_bytes()).map_err(io)?;
                f.sync_all().map_err(io)
            }
        }
    })();
    let _ = fs::remove_file(&tmp);
    result
}

/// Creates the folder `dir` (under `canon_root`) one level at a time; refuses,
/// creating nothing, when the part of it that exists resolves outside the
/// root (a `.claude` that is a link to elsewhere is never written through).
pub fn ensure_dir_inside(canon_root: &Path, dir: &Path) -> Result<(), WriteError> {
    for d in dir_inside(canon_root, dir)?.iter().rev() {
        match fs::create_dir(d) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
            Err(e) => return Err(refused(format!("cannot create {}: {e}", d.display()))),
        }
    }
    Ok(())
}

/// Whether [`ensure_dir_inside`] may create or write in `dir`, creating
/// nothing: the folders of it still missing (innermost first), or Err when
/// the part of it that exists resolves outside the root.
pub fn dir_inside<'a>(canon_root: &Path, dir: &'a Path) -> Result<Vec<&'a Path>, WriteError> {
    let mut missing = Vec::new();
    let mut existing = dir;
    loop {
        match fs::symlink_metadata(existing) {
            Ok(_) => break,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing.push(existing);
                existing = existing.parent().ok_or_else(|| refused(format!("{} has no parent", dir.display())))?;
            }
            Err(e) => return Err(refused(format!("cannot look at {}: {e}", existing.display()))),
        }
    }
    let real =
        fs::canonicalize(existing).map_err(|e| refused(format!("cannot resolve {}: {e}", existing.display())))?;
    if !real.starts_with(canon_root) || !real.is_dir() {
        return Err(refused(format!(
            "{} resolves to {}, outside the project (or not a folder); nothing is written through it",
            existing.display(),
            real.display()
        )));
    }
    Ok(missing)
}

/// Our temporary files older than this are strays of a killed writer.
pub const STRAY_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// Removes our temporary files (`.NAME.<16 hex digits>.tmp`) in `dir` older than [`STRAY_AGE`].
pub fn sweep_strays(dir: &Path) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let now = std::time::SystemTime::now();
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        if !is_our_temp(name) {
            continue;
        }
        let Ok(meta) = fs::symlink_metadata(e.path()) else { continue };
        let old = meta.modified().ok().and_then(|m| now.duration_since(m).ok()).is_some_and(|age| age > STRAY_AGE);
        if meta.is_file() && old {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// `.NAME.<16 hex digits>.tmp`, as [`temp_in`] names them.
fn is_our_temp(name: &str) -> bool {
    let Some(stem) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".tmp")) else { return false };
    let Some((_, hex)) = stem.rsplit_once('.') else { return false };
    hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Removes `path`, a file this process created as `expected`, only if it still holds exactly that.
pub fn remove_if_unchanged(path: &Path, expected: &str) -> Result<(), WriteError> {
    let f = open_nofollow(path)?;
    if !same_content(&f, expected)? {
        return Err(WriteError::Changed);
    }
    fs::remove_file(path).map_err(io)
}

/// A new temporary file beside `target`, created exclusively under an unpredictable name.
fn temp_in(dir: &Path, target: &Path) -> Result<(PathBuf, File), WriteError> {
    sweep_strays(dir);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for _ in 0..16 {
        let tmp = dir.join(format!(".{name}.{:016x}.tmp", random()));
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600).custom_flags(libc::O_NOFOLLOW);
        }
        match o.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(refused(format!("cannot create a temporary file in {}: {e}", dir.display()))),
        }
    }
    Err(refused(format!("cannot create a temporary file in {}", dir.display())))
}

/// 64 unpredictable bits: the standard library's per-process random hash keys, the time and a counter.
fn random() -> u64 {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u128(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.write_u32(std::process::id());
    h.finish()
}

/// Whether the file behind `f` holds exactly `expected` (read from its start).
fn same_content(mut f: &File, expected: &str) -> Result<bool, WriteError> {
    f.rewind().map_err(io)?;
    let mut now = Vec::with_capacity(expected.len() + 1);
    f.take(expected.len() as u64 + 1).read_to_end(&mut now).map_err(io)?;
    Ok(now == expected.as_bytes())
}

/// Rewrites a hard-linked file through one handle, after the same comparison.
fn in_place(real: &Path, expected: &str, text: &str) -> Result<(), WriteError> {
    let mut o = OpenOptions::new();
    o.read(true).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NOFOLLOW);
    }
    let mut f = o.open(real).map_err(io)?;
    if !same_content(&f, expected)? {
        return Err(WriteError::Changed);
    }
    f.rewind().map_err(io)?;
    f.set_len(0).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    f.sync_all().map_err(io)
}

/// Gives a new file `rw-rw-rw-` less the process's umask, as `open(O_CREAT, 0666)` would.
#[cfg(unix)]
fn make_public(file: &File) -> Result<(), WriteError> {
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: umask only swaps the process's file-mode mask; it is read and put back at once.
    let mask = unsafe {
        let m = libc::umask(0o022);
        libc::umask(m);
        m
    };
    #[allow(clippy::useless_conversion, reason = "mode_t is u32 on Linux, u16 on macOS")]
    let mask = u32::from(mask);
    file.set_permissions(fs::Permissions::from_mode(0o666 & !mask)).map_err(io)
}

#[cfg(not(unix))]
fn make_public(_: &File) -> Result<(), WriteError> {
    Ok(())
}

#[cfg(unix)]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> Result<(), WriteError> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    file.set_permissions(fs::Permissions::from_mode(meta.mode() & 0o7777)).map_err(io)?;
    let now = file.metadata().map_err(io)?;
    if (now.uid(), now.gid()) != (meta.uid(), meta.gid()) {
        std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).map_err(|e| {
            refused(format!(
                "it belongs to user {} group {} and the new file could not be given back to them ({e}); \
                 run the command as its owner",
                meta.uid(),
                meta.gid()
            ))
        })?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn keep_owner_and_mode(file: &File, meta: &fs::Metadata) -> Result<(), WriteError> {
    file.set_permissions(meta.permissions()).map_err(io)
}

#[cfg(unix)]
fn read_only(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o200 == 0
}

#[cfg(not(unix))]
fn read_only(meta: &fs::Metadata) -> bool {
    meta.permissions().readonly()
}

#[cfg(unix)]
fn links(meta: &fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

#[cfg(not(unix))]
fn links(_: &fs::Metadata) -> u64 {
    1
}

fn io(e: std::io::Error) -> WriteError {
    refused(e.to_string())
}
