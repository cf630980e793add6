//! Reading one file: opened once, judged by its open handle (a regular file inside the root), read up to a limit.
//!
//! Nothing is checked by path and then opened by path (a link swapped in
//! between could point anywhere): the file is opened first, without
//! blocking (a named pipe with no writer would otherwise hang `check` for
//! ever) and without becoming a controlling terminal, and then its handle
//! says what it is (`fstat`) and where it is (`/proc/self/fd` on Linux; on
//! other systems the resolved path's device and inode must be the handle's).
//! Only a regular file inside the root is read, and at most
//! `max-file-bytes` of it. Everything else is a [`FileProblem::Unreadable`]
//! saying what the file is and what to do.

use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::model::{FileProblem, FileText};

/// Reads `path`, which must be a regular file inside `canon_root` after
/// links: None when it does not exist, else its text or why it was not read.
pub fn read_inside(canon_root: &Path, path: &Path, max_bytes: u64) -> Option<FileText> {
    read_checked(Some(canon_root), path, max_bytes)
}

/// Reads `path` wherever it is (a `--config` file the user named), with the
/// same checks of what it is and how large.
pub fn read_anywhere(path: &Path, max_bytes: u64) -> Option<FileText> {
    read_checked(None, path, max_bytes)
}

fn read_checked(canon_root: Option<&Path>, path: &Path, max_bytes: u64) -> Option<FileText> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(problem(e.to_string())),
        Ok(_) => {}
    }
    // A socket cannot be opened at all: say what it is rather than ENXIO.
    if let Ok(meta) = fs::metadata(path) {
        if let Some(kind) = special_kind(&meta.file_type()) {
            return Some(not_regular(kind));
        }
    }
    let file = match open(path) {
        Ok(f) => f,
        Err(e) => return Some(problem(format!("{e}; check that it exists and is readable"))),
    };
    let meta = match file.metadata() {
        Ok(m) => m,
        Err(e) => return Some(problem(e.to_string())),
    };
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Some(not_regular(kind));
    }
    if let Some(root) = canon_root {
        match real_path(&file, path, &meta) {
            Some(real) if real.starts_with(root) => {}
            Some(real) => {
                return Some(problem(format!(
                    "it resolves to {}, outside the workspace root; it is not followed",
                    real.display()
                )))
            }
            None => return Some(problem("it changed while it was being opened; check it again".into())),
        }
    }
    if meta.len() > max_bytes {
        return Some(too_large(meta.len(), max_bytes));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(max_bytes) as usize);
    if let Err(e) = (&file).take(max_bytes + 1).read_to_end(&mut bytes) {
        return Some(problem(e.to_string()));
    }
    if bytes.len() as u64 > max_bytes {
        return Some(too_large(bytes.len() as u64, max_bytes));
    }
    Some(FileText::from_bytes(bytes))
}

/// Opens for reading without blocking on a pipe and without taking a terminal.
fn open(path: &Path) -> std::io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    o.open(path)
}

/// What a file that is not a regular file is, in words (None: a regular file).
fn special_kind(t: &fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
    }
    Some("not a regular file")
}

/// Where the open file really is: the handle's own path where the system
/// says it, else the resolved path when it is the same file as the handle.
fn real_path(file: &File, path: &Path, meta: &fs::Metadata) -> Option<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(p) = fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())) {
            return Some(p);
        }
    }
    let _ = file;
    let real = fs::canonicalize(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let now = fs::metadata(&real).ok()?;
        if (now.dev(), now.ino()) != (meta.dev(), meta.ino()) {
            return None;
        }
    }
    let _ = meta;
    Some(real)
}

fn not_regular(kind: &str) -> FileText {
    problem(format!("it is {kind}; only regular files are read"))
}

fn too_large(len: u64, max: u64) -> FileText {
    problem(format!(
        "it has {len} bytes or more, over `max-file-bytes` ({max}) in memory-index.toml; it is not checked (raise the limit or split the file)"
    ))
}

fn problem(why: String) -> FileText {
    FileText { text: String::new(), problem: Some(FileProblem::Unreadable(why)) }
}
