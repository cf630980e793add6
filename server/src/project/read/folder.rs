//! A folder's regular files read relative to the folder's open handle: one path walk and one containment check for all of them.
//!
//! Loading a memory reads every decision file of one folder. Checked one by
//! one ([`super::read_inside`]), each costs a path walk, three `stat`s and a
//! `readlink` of its handle besides the read: some 9 µs a file, 4 ms of a
//! 500-file memory's 30 ms hook. Here the folder is opened once and its
//! real path checked once; then each file the listing says is a regular
//! file is opened relative to that handle without following links
//! (`openat` with `O_NOFOLLOW`), judged by its handle (`fstat`: still a
//! regular file) and read. Opened that way a file cannot resolve outside
//! the folder. Anything else (a link, a file the listing could not type,
//! one that changed kind since, any error) is left to the one-by-one
//! reader, which says what is wrong with it.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::model::FileText;

/// An open folder inside the root.
pub struct Folder {
    #[cfg(target_os = "linux")]
    fd: File,
}

impl Folder {
    /// `dir` opened, when it is a folder inside `canon_root` (None: read its files one by one).
    pub fn open(canon_root: &Path, dir: &Path) -> Option<Folder> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let fd = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
                .open(dir)
                .ok()?;
            use std::os::fd::AsRawFd;
            let real = std::fs::read_link(format!("/proc/self/fd/{}", fd.as_raw_fd())).ok()?;
            real.starts_with(canon_root).then_some(Folder { fd })
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (canon_root, dir);
            None
        }
    }

    /// The file `name` of this folder when it opens as a regular file
    /// without following a link: its text, or that it is over `max_bytes`.
    /// None: read it one by one instead.
    pub fn read_regular(&self, name: &str, max_bytes: u64) -> Option<FileText> {
        let file = self.open_at(name)?;
        let meta = file.metadata().ok()?;
        if !meta.file_type().is_file() {
            return None;
        }
        if meta.len() > max_bytes {
            return Some(super::too_large(meta.len(), max_bytes));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        (&file).take(max_bytes + 1).read_to_end(&mut bytes).ok()?;
        if bytes.len() as u64 > max_bytes {
            return Some(super::too_large(bytes.len() as u64, max_bytes));
        }
        Some(FileText::from_bytes(bytes))
    }

    #[cfg(target_os = "linux")]
    fn open_at(&self, name: &str) -> Option<File> {
        use std::os::fd::{AsRawFd, FromRawFd};
        if name.contains('/') || name == ".." || name == "." {
            return None;
        }
        let c = std::ffi::CString::new(name).ok()?;
        let flags = libc::O_RDONLY | libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_NOFOLLOW | libc::O_CLOEXEC;
        // SAFETY: `c` is a NUL-terminated name and `self.fd` an open folder;
        // the returned descriptor, when valid, is owned by the `File` alone.
        let fd = unsafe { libc::openat(self.fd.as_raw_fd(), c.as_ptr(), flags) };
        // SAFETY: a non-negative descriptor was just returned by openat and is owned by nothing else.
        (fd >= 0).then(|| unsafe { File::from_raw_fd(fd) })
    }

    #[cfg(not(target_os = "linux"))]
    fn open_at(&self, _: &str) -> Option<File> {
        None
    }
}
