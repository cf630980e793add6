//! The search index's snapshot on disk (`project::search_cache`): reused only for the very state it was built from, and never a reason for a wrong answer, a hang or a failure.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{bin_in, run_with_stdin};

const INDEX: &str = "# Memory Index\n\n## agents/decisions/testing.md\n\n/when writing mock tests | test doubles\n/when choosing a test runner\n";
const TESTING: &str =
    "# Testing\n\n## When Writing Mock Tests\n\nPatch the name where it is looked up, not where it is defined.\n\n\
## When Choosing A Test Runner\n\nUse nextest in CI; it isolates each test in a process.\n";
const PROMPT: &str = "the flaky integration suite keeps mocking the wrong module, where should the patch go";

fn project() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("p");
    fs::create_dir_all(root.join("agents/decisions")).expect("dirs");
    fs::write(root.join("agents/memory-index.md"), INDEX).expect("index");
    fs::write(root.join("agents/decisions/testing.md"), TESTING).expect("decisions");
    (tmp, root)
}

fn search(root: &Path, cache: &Path, text: &str) -> Output {
    let mut c = bin_in(root);
    c.env("MEMORY_INDEX_LSP_CACHE_DIR", cache).args(["search", "--json", text]);
    run_with_stdin(c, b"")
}

fn first(o: &Output) -> String {
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_default();
    v[0]["heading"].as_str().unwrap_or("").to_string()
}

fn snapshots(cache: &Path) -> Vec<PathBuf> {
    let dir = cache.join("search");
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "bm25")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_snapshot_is_reused_for_the_same_memory_and_never_for_a_changed_one() {
    let (tmp, root) = project();
    let cache = tmp.path().join("cache");
    let o = search(&root, &cache, PROMPT);
    assert_eq!(first(&o), "When Writing Mock Tests", "{}", String::from_utf8_lossy(&o.stdout));
    let snap = snapshots(&cache);
    assert_eq!(snap.len(), 1, "the first search keeps the index it built");
    let bytes = fs::read(&snap[0]).expect("snapshot");
    let modified = fs::metadata(&snap[0]).and_then(|m| m.modified()).expect("mtime");
    // Again: the same answers with the same confidences (read in place from
    // the snapshot, not rebuilt), and the snapshot is read, not rewritten.
    assert_eq!(search(&root, &cache, PROMPT).stdout, o.stdout);
    assert_eq!(fs::metadata(&snap[0]).and_then(|m| m.modified()).expect("mtime"), modified);
    // The decision changes: the answer follows the file, and the snapshot is rebuilt for it.
    let changed =
        TESTING.replace("Patch the name where it is looked up", "Prefer fakes over patching; the flaky suite");
    fs::write(
        root.join("agents/decisions/testing.md"),
        changed.replace("When Writing Mock Tests", "When Choosing Fakes"),
    )
    .expect("edit");
    fs::write(
        root.join("agents/memory-index.md"),
        INDEX.replace("writing mock tests | test doubles", "choosing fakes"),
    )
    .expect("edit index");
    let o = search(&root, &cache, PROMPT);
    assert_eq!(first(&o), "When Choosing Fakes", "{}", String::from_utf8_lossy(&o.stdout));
    assert_ne!(fs::read(&snap[0]).expect("snapshot"), bytes, "rebuilt for the new state");
}

#[test]
fn a_corrupt_truncated_or_special_snapshot_is_only_a_miss() {
    let (tmp, root) = project();
    let cache = tmp.path().join("cache");
    assert_eq!(first(&search(&root, &cache, PROMPT)), "When Writing Mock Tests");
    let path = snapshots(&cache).pop().expect("snapshot");
    let good = fs::read(&path).expect("bytes");
    for bad in [good[..good.len() / 2].to_vec(), vec![0xA5; good.len()], Vec::new()] {
        fs::write(&path, &bad).expect("spoil");
        let o = search(&root, &cache, PROMPT);
        assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(first(&o), "When Writing Mock Tests");
        assert_eq!(fs::read(&path).expect("bytes"), good, "rewritten whole");
    }
    #[cfg(unix)]
    {
        // A FIFO where the snapshot goes: no hang, the right answer (the write goes around it by rename).
        fs::remove_file(&path).expect("rm");
        let c = std::ffi::CString::new(path.to_string_lossy().as_bytes()).expect("c");
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(first(&search(&root, &cache, PROMPT)), "When Writing Mock Tests");
        // A state directory that cannot be created: still answered.
        let o = search(&root, Path::new("/dev/null/cache"), PROMPT);
        assert_eq!((o.status.code(), first(&o).as_str()), (Some(0), "When Writing Mock Tests"));
    }
}

#[test]
fn processes_building_at_once_all_answer_and_leave_one_whole_snapshot() {
    let (tmp, root) = project();
    let cache = tmp.path().join("cache");
    let handles: Vec<_> = (0..8)
        .map(|_| {
            let (root, cache) = (root.clone(), cache.clone());
            std::thread::spawn(move || first(&search(&root, &cache, PROMPT)))
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), "When Writing Mock Tests");
    }
    let snap = snapshots(&cache);
    assert_eq!(snap.len(), 1);
    let leftovers: Vec<_> = fs::read_dir(cache.join("search"))
        .expect("dir")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // The snapshot left is whole: the next process reads it rather than rewriting it.
    let modified = fs::metadata(&snap[0]).and_then(|m| m.modified()).expect("mtime");
    assert_eq!(first(&search(&root, &cache, PROMPT)), "When Writing Mock Tests");
    assert_eq!(fs::metadata(&snap[0]).and_then(|m| m.modified()).expect("mtime"), modified);
}
