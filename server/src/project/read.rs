//! The guarded reader: a file opened once, judged by its open handle (a regular file, inside the root where it must be), read up to a limit.
//!
//! Nothing is checked by path and then opened by path (a link swapped in
//! between could point anywhere): the file is opened first, without
//! blocking (a named pipe with no writer would otherwise hang `check` for
//! ever) and without becoming a controlling terminal, and then its handle
//! says what it is (`fstat`) and where it is (`/proc/self/fd` on Linux; on
//! other systems the resolved path's device and inode must be the handle's).
//! Only a regular file (inside the root, for the workspace's files and
//! anything a command writes next to them) is read, and at most a limit of
//! it: `max-file-bytes` for the workspace ([`read_inside`], which keeps the
//! refusal as a [`FileProblem::Unreadable`] that rules report), a limit the
//! caller names for every other file ([`read_file`]: an error naming the
//! limit, never a silent cut). [`lines`] reads a large file line by line and
//! hands over each line whole or, past its own limit, as too long, without
//! ever holding more than one line.

use std::fs::{self, File, OpenOptions};
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::model::{FileProblem, FileText};

mod folder;
pub use folder::Folder;

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
    match read_bytes(canon_root, path, max_bytes) {
        Err(ReadError::NotFound) => None,
        Err(ReadError::TooLarge { len, max }) => Some(too_large(len, max)),
        Err(ReadError::Refused(why)) => Some(problem(why)),
        Ok(bytes) => Some(FileText::from_bytes(bytes)),
    }
}

/// Why [`read_file`] read nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    NotFound,
    /// Over the limit: `len` bytes or more, `max` allowed.
    TooLarge {
        len: u64,
        max: u64,
    },
    /// Not a regular file, outside the root, unreadable: the reason, for the person.
    Refused(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotFound => write!(f, "it does not exist"),
            ReadError::TooLarge { len, max } => {
                write!(f, "it has {len} bytes or more, over the limit of {max} bytes; nothing of it was used")
            }
            ReadError::Refused(why) => write!(f, "{why}"),
        }
    }
}

/// Reads at most `max_bytes` of a regular file: inside `canon_root` after
/// links when given (else wherever it is: a file the person named), never
/// blocking on a pipe, never a device or a directory.
pub fn read_file(canon_root: Option<&Path>, path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    read_bytes(canon_root, path, max_bytes)
}

/// [`read_file`] as UTF-8 text.
pub fn read_text(canon_root: Option<&Path>, path: &Path, max_bytes: u64) -> Result<String, ReadError> {
    let bytes = read_bytes(canon_root, path, max_bytes)?;
    String::from_utf8(bytes).map_err(|e| {
        ReadError::Refused(format!("it is not valid UTF-8 (byte {}); save it as UTF-8", e.utf8_error().valid_up_to()))
    })
}

/// Opens a regular file for reading, judged by its handle as [`read_file`]
/// judges it (without reading it).
pub fn open_regular(canon_root: Option<&Path>, path: &Path) -> Result<File, ReadError> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(ReadError::NotFound),
        Err(e) => return Err(ReadError::Refused(e.to_string())),
        Ok(_) => {}
    }
    // A socket cannot be opened at all: say what it is rather than ENXIO.
    if let Ok(meta) = fs::metadata(path) {
        if let Some(kind) = special_kind(&meta.file_type()) {
            return Err(ReadError::Refused(not_regular_why(kind)));
        }
    }
    let file = open(path).map_err(|e| ReadError::Refused(format!("{e}; check that it exists and is readable")))?;
    let meta = file.metadata().map_err(|e| ReadError::Refused(e.to_string()))?;
    if let Some(kind) = special_kind(&meta.file_type()) {
        return Err(ReadError::Refused(not_regular_why(kind)));
    }
    if let Some(root) = canon_root {
        match real_path(&file, path, &meta) {
            Some(real) if real.starts_with(root) => {}
            Some(real) => {
                return Err(ReadError::Refused(format!(
                    "it resolves to {}, outside the workspace root; it is not followed",
                    real.display()
                )))
            }
            None => return Err(ReadError::Refused("it changed while it was being opened; check it again".into())),
        }
    }
    Ok(file)
}

fn read_bytes(canon_root: Option<&Path>, path: &Path, max_bytes: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(canon_root, path)?;
    let len = file.metadata().map_err(|e| ReadError::Refused(e.to_string()))?.len();
    if len > max_bytes {
        return Err(ReadError::TooLarge { len, max: max_bytes });
    }
    let mut bytes = Vec::with_capacity(len.min(max_bytes) as usize);
    (&file).take(max_bytes + 1).read_to_end(&mut bytes).map_err(|e| ReadError::Refused(e.to_string()))?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge { len: bytes.len() as u64, max: max_bytes });
    }
    Ok(bytes)
}

/// The files `paths` name: each file as given, and each folder's entries
/// whose extension is one of `exts` (sorted; not recursive; every entry but
/// a folder: a FIFO, a device or a link is judged by the guarded reader when
/// it is opened, which names it and never blocks on it). The second list
/// says which paths could not be looked at, and why.
pub fn expand(paths: &[PathBuf], exts: &[&str]) -> (Vec<PathBuf>, Vec<String>) {
    let (mut files, mut problems) = (Vec::new(), Vec::new());
    for p in paths {
        match fs::metadata(p) {
            Ok(m) if m.is_dir() => match fs::read_dir(p) {
                Ok(rd) => {
                    let mut found: Vec<PathBuf> = rd
                        .flatten()
                        // Every entry but a folder: a FIFO or a device named `x.md` is
                        // reported by the reader, not passed over in silence.
                        .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
                        .map(|e| e.path())
                        .filter(|f| f.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
                        .collect();
                    found.sort();
                    files.extend(found);
                    // A nested AGENTS.md or CLAUDE.md is a rule file of its folder: read, and scoped
                    // to that folder by import (`recall::import::source::scope`).
                    if exts.contains(&"md") {
                        files.extend(nested_agent_files(p));
                    }
                    // Said, not passed over: a folder's sub-folders are not read (found by review:
                    // Cursor's nested rules folders were left out without a word).
                    let named =
                        |sub: &Path| paths.iter().any(|q| fs::canonicalize(q).ok() == fs::canonicalize(sub).ok());
                    let others = |sub: &Path| {
                        fs::read_dir(sub).is_ok_and(|rd| {
                            rd.flatten().any(|e| {
                                let path = e.path();
                                let name = e.file_name();
                                path.extension().is_some_and(|x| exts.iter().any(|e| x == *e))
                                    && !AGENT_FILES.iter().any(|a| name == *a)
                            })
                        })
                    };
                    for sub in subfolders_with(p, exts).into_iter().filter(|s| !named(s) && others(s)) {
                        problems.push(format!(
                            "{}: a sub-folder with .{} files, not read (import reads the files of the folder it is \
                             given: name this one too)",
                            sub.display(),
                            exts.join(" or .")
                        ));
                    }
                }
                Err(e) => problems.push(format!("{}: {e}", p.display())),
            },
            Ok(_) => files.push(p.clone()),
            Err(e) => problems.push(format!("{}: {e}", p.display())),
        }
    }
    // A file named and inside a folder named is read once.
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| seen.insert(fs::canonicalize(f).unwrap_or_else(|_| f.clone())));
    (files, problems)
}

/// The instructions files agents read in the folder they sit in.
pub const AGENT_FILES: [&str; 3] = ["AGENTS.md", "CLAUDE.md", "AGENTS.override.md"];

/// The [`AGENT_FILES`] in the folders under `dir` (not `dir` itself; at any
/// depth, hidden folders, `node_modules` and `target` skipped, links not
/// followed, at most 1,000 folders looked at), sorted.
pub fn nested_agent_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let skip =
        |name: &std::ffi::OsStr| name.to_string_lossy().starts_with('.') || name == "node_modules" || name == "target";
    each_folder(dir, &skip, &mut |d, files| {
        if d != dir {
            out.extend(files.iter().filter(|f| AGENT_FILES.iter().any(|a| f.file_name() == Some(a.as_ref()))).cloned());
        }
    });
    out.sort();
    out
}

/// The folders under `dir` (at any depth, links not followed, at most
/// 1,000 looked at) that hold a file whose extension is one of `exts`.
pub fn subfolders_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    each_folder(dir, &|_| false, &mut |d, files| {
        if d != dir && files.iter().any(|f| f.extension().is_some_and(|x| exts.iter().any(|e| x == *e))) {
            out.push(d.to_path_buf());
        }
    });
    out.sort();
    out
}

/// Calls `visit` with each folder under `dir` (itself included; at most
/// 1,000, links not followed, sub-folders `skip` names left out) and the
/// entries in it that are not folders.
fn each_folder(dir: &Path, skip: &dyn Fn(&std::ffi::OsStr) -> bool, visit: &mut dyn FnMut(&Path, &[PathBuf])) {
    let mut todo: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut seen = 0;
    while let Some(d) = todo.pop() {
        seen += 1;
        if seen > 1000 {
            break;
        }
        let Ok(rd) = fs::read_dir(&d) else { continue };
        let mut files = Vec::new();
        for e in rd.flatten() {
            match e.file_type() {
                Ok(t) if t.is_dir() => {
                    if !skip(&e.file_name()) {
                        todo.push(e.path());
                    }
                }
                Ok(_) => files.push(e.path()),
                Err(_) => {}
            }
        }
        visit(&d, &files);
    }
}

/// One line from [`lines`]: its text (a line feed and carriage return
/// dropped, invalid UTF-8 replaced), or how long it was when over the limit.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    Text(&'a str),
    TooLong(usize),
}

/// Calls `each` for every line of `r`, up to `max_total` bytes in all; a
/// line over `max_line` bytes is skipped without being held (only its
/// length is passed). Returns whether the input ended before `max_total`.
pub fn lines(r: impl Read, max_line: usize, max_total: u64, mut each: impl FnMut(Line<'_>)) -> std::io::Result<bool> {
    let mut r = std::io::BufReader::with_capacity(64 * 1024, r.take(max_total));
    let mut line: Vec<u8> = Vec::new();
    let mut skipped: Option<usize> = None;
    let mut total = 0u64;
    loop {
        let buf = match std::io::BufRead::fill_buf(&mut r) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let (chunk, end) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        match &mut skipped {
            Some(n) => *n += chunk.len(),
            None if line.len() + chunk.len() > max_line => skipped = Some(line.len() + chunk.len()),
            None => line.extend_from_slice(chunk),
        }
        let used = end.unwrap_or(buf.len());
        total += used as u64;
        std::io::BufRead::consume(&mut r, used);
        if end.is_some() {
            emit(&mut line, &mut skipped, &mut each);
        }
    }
    if !line.is_empty() || skipped.is_some() {
        emit(&mut line, &mut skipped, &mut each);
    }
    Ok(total < max_total)
}

fn emit(line: &mut Vec<u8>, skipped: &mut Option<usize>, each: &mut impl FnMut(Line<'_>)) {
    match skipped.take() {
        Some(n) => each(Line::TooLong(n)),
        None => {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            each(Line::Text(&String::from_utf8_lossy(line)));
        }
    }
    line.clear();
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

fn not_regular_why(kind: &str) -> String {
    format!("it is {kind}; only regular files are read")
}

fn too_large(len: u64, max: u64) -> FileText {
    problem(format!(
        "it has {len} bytes or more, over `max-file-bytes` ({max}) in memory-index.toml; it is not checked (raise the limit or split the file)"
    ))
}

fn problem(why: String) -> FileText {
    FileText { text: String::new(), problem: Some(FileProblem::Unreadable(why)) }
}
