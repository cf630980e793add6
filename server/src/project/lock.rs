//! The memory's lock: its writers (`remember`, `fix`, `init`, `import`) take turns, across processes, around read, verify and write.
//!
//! An advisory `flock` on the project root directory itself: no lock file to
//! leave behind or commit, the same inode whatever the writers rename
//! inside it, and released by the kernel when the holder exits or is
//! killed (a stale lock cannot outlive its process). A writer takes the
//! lock, then loads the files again and plans from what it read under the
//! lock, so two `remember`s at once both land, one after the other.
//! Editors and agents that write files without it are not excluded; the
//! safe writer's compare-before-replace covers them ([`super::write`]).
//! The locks are std's (`File::try_lock`, Rust 1.89: `flock` on Unix,
//! `LockFileEx` on Windows); the memory's lock, on the folder itself, is
//! taken on Unix only (a no-op elsewhere: a folder is not a file there).

use std::fs::File;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a writer waits for another to finish before giving up.
pub const WAIT: Duration = Duration::from_secs(20);

/// The lock, held until dropped.
#[derive(Debug)]
pub struct MemoryLock {
    _dir: Option<File>,
}

/// Takes the lock of the memory at `root`, waiting up to [`WAIT`]; Err says what to do.
pub fn acquire(root: &Path) -> Result<MemoryLock, String> {
    acquire_within(root, WAIT)
}

/// [`acquire`] with another wait.
pub fn acquire_within(root: &Path, wait: Duration) -> Result<MemoryLock, String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NONBLOCK | libc::O_CLOEXEC)
            .open(root)
            .map_err(|e| format!("cannot lock the memory at {}: {e}", root.display()))?;
        match lock_within(&dir, wait, Duration::from_millis(20)) {
            Ok(()) => Ok(MemoryLock { _dir: Some(dir) }),
            Err(Some(err)) => Err(format!("cannot lock the memory at {}: {err}", root.display())),
            Err(None) => Err(format!(
                "another memory-index-lsp command has been writing the memory at {} for {} s; \
                 run this one again when it is done",
                root.display(),
                wait.as_secs()
            )),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (root, wait);
        Ok(MemoryLock { _dir: None })
    }
}

#[cfg(test)]
mod tests;

/// An exclusive lock on the file at `path` (created when missing), taken
/// without waiting: None when another process holds it or the file cannot
/// be opened. Released when the file is dropped (or the process ends).
/// For caches' single writers (`embed`, the model's fetch), not the memory.
pub fn try_lock_file(path: &Path) -> Option<File> {
    let f = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(path).ok()?;
    f.try_lock().ok()?;
    Some(f)
}

/// Takes `file`'s exclusive lock, trying again (every 1 ms, backing off to
/// `max_pause`) while another holder has it, for up to `wait`: Err(None)
/// when the wait ran out, Err(Some) for an error other than the lock being held.
pub(crate) fn lock_within(file: &File, wait: Duration, max_pause: Duration) -> Result<(), Option<std::io::Error>> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(Some(e)),
        }
        if start.elapsed() >= wait {
            return Err(None);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(max_pause);
    }
}
