//! Hostile input through the CLI: every case gives a clear message or finding, a defined exit
//! code, and leaves every file untouched.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-index-lsp")).args(args).current_dir(cwd).output().expect("run")
}

fn ws(index: &[u8], decisions: &[(&str, &[u8])]) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    fs::write(tmp.path().join("agents/memory-index.md"), index).expect("write");
    for (name, text) in decisions {
        fs::write(tmp.path().join("agents/decisions").join(name), text).expect("write");
    }
    tmp
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        if let Ok(bytes) = fs::read(&e) {
            out.push((e.display().to_string(), bytes));
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Runs check and fix; asserts the exit code, that stdout mentions `want`, and that nothing was written by check.
fn expect(tmp: &Path, code: i32, want: &str) -> String {
    let before = snapshot(tmp);
    let o = run(&["check"], tmp);
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{out}");
    assert!(out.contains(want), "{want:?} not in\n{out}");
    assert_eq!(snapshot(tmp), before, "check modified a file");
    out
}

const OK_DECISION: &[u8] = b"## When Alpha\nbody\n";

#[test]
fn invalid_utf8_is_a_finding_and_the_rest_is_checked() {
    let tmp = ws(
        b"## agents/decisions/a.md\n/when alpha\n/when beta\n",
        &[("a.md", OK_DECISION), ("b.md", b"## When \xff\xfe\n")],
    );
    let out = expect(tmp.path(), 1, "agents/decisions/b.md:1:9: error[invalid-utf8]");
    assert!(out.contains("orphan-entry"), "the index is still checked:\n{out}");
}

#[test]
fn nul_bytes_only_crs_bom_and_empty_files() {
    let tmp = ws(
        b"\xef\xbb\xbf## agents/decisions/a.md\r/when alpha\r/when be\0ta\r",
        &[("a.md", b"## When Alpha\rbody\r"), ("empty.md", b"")],
    );
    let out = expect(tmp.path(), 1, "agents/memory-index.md:3:7: error[orphan-entry]");
    assert!(!out.contains("a.md:1:1: error"), "the BOM does not break the first section:\n{out}");
    let tmp = ws(b"", &[]);
    expect(tmp.path(), 0, "0 errors, 0 warnings in 1 file");
}

#[test]
fn huge_files_and_lines() {
    let mut big = b"## When Alpha\n".to_vec();
    let para = b"A line of decision text that goes on for a while to make the file large.\n";
    while big.len() < 50 * 1024 * 1024 {
        big.extend_from_slice(para);
    }
    let long_line = format!("## agents/decisions/a.md\n/when {}\n", "x".repeat(1024 * 1024));
    let tmp = ws(long_line.as_bytes(), &[("a.md", &big)]);
    let out = expect(tmp.path(), 1, "warning[file-too-long]");
    assert!(out.contains("orphan-entry"));
}

#[test]
fn missing_decisions_dir_and_index_that_is_a_directory() {
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents")).expect("mkdir");
    fs::write(tmp.path().join("agents/memory-index.md"), "## agents/decisions/a.md\n/when alpha\n").expect("write");
    expect(tmp.path(), 1, "error[missing-file]");
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents/memory-index.md")).expect("mkdir");
    fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    fs::write(tmp.path().join("agents/decisions/a.md"), OK_DECISION).expect("write");
    expect(
        tmp.path(),
        1,
        "agents/memory-index.md:1:1: error[unreadable-file]: cannot read agents/memory-index.md: it is a directory",
    );
}

#[cfg(unix)]
#[test]
fn unreadable_files_and_symlinks() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let tmp = ws(b"## agents/decisions/a.md\n/when alpha\n", &[("a.md", OK_DECISION)]);
    let outside = tempfile::tempdir().expect("tmp");
    fs::write(outside.path().join("secret.md"), "## When Secret\nsecret body\n").expect("write");
    symlink(outside.path().join("secret.md"), tmp.path().join("agents/decisions/leak.md")).expect("symlink");
    symlink("loop-b.md", tmp.path().join("agents/decisions/loop-a.md")).expect("symlink");
    symlink("loop-a.md", tmp.path().join("agents/decisions/loop-b.md")).expect("symlink");
    let out = expect(tmp.path(), 1, "agents/decisions/leak.md:1:1: error[unreadable-file]");
    assert!(out.contains("outside the workspace root; it is not followed"), "{out}");
    assert!(!out.contains("When Secret"), "nothing of the outside file is read");
    assert!(out.contains("agents/decisions/loop-a.md:1:1: error[unreadable-file]"), "{out}");
    // Permission denied (root ignores modes, so only assert when the read really fails).
    let locked = tmp.path().join("agents/decisions/locked.md");
    fs::write(&locked, OK_DECISION).expect("write");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
    if fs::read(&locked).is_err() {
        expect(tmp.path(), 1, "agents/decisions/locked.md:1:1: error[unreadable-file]");
    }
    // fix writes through an in-root symlinked index and keeps the link.
    let tmp = ws(b"", &[("a.md", b"## When Alpha\nx\n## When Beta\ny\n")]);
    fs::write(tmp.path().join("agents/real-index.md"), "## agents/decisions/a.md\n/when beta\n/when alpha\n")
        .expect("write");
    fs::remove_file(tmp.path().join("agents/memory-index.md")).expect("rm");
    symlink("real-index.md", tmp.path().join("agents/memory-index.md")).expect("symlink");
    let o = run(&["fix"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    assert!(fs::symlink_metadata(tmp.path().join("agents/memory-index.md")).expect("meta").file_type().is_symlink());
    assert_eq!(
        fs::read_to_string(tmp.path().join("agents/real-index.md")).expect("read"),
        "## agents/decisions/a.md\n/when alpha\n/when beta\n"
    );
}

#[test]
fn deep_nesting_and_many_sections() {
    let mut decision = String::new();
    for level in 2..=6 {
        decision.push_str(&format!("{} When Level {level}\n1\n2\n3\n", "#".repeat(level)));
    }
    decision.push_str(&">".repeat(10_000));
    decision.push_str(" quote\n");
    decision.push_str(&"- ".repeat(5_000));
    decision.push('\n');
    let mut index = String::new();
    for i in 0..10_000 {
        index.push_str(&format!("## agents/decisions/s{i}.md\n"));
    }
    for level in 2..=6 {
        index.push_str(&format!("## agents/decisions/a.md\n/when level {level}\n"));
    }
    let tmp = ws(index.as_bytes(), &[("a.md", decision.as_bytes())]);
    let out = expect(tmp.path(), 0, "0 errors, ");
    assert_eq!(out.matches("warning[missing-file]").count(), 10_000, "one per missing section");
}

/// Only regular files are read: a named pipe (which would block a reader for
/// ever), a socket, a link to `/dev/zero` (endless) and a directory named
/// `x.md` each give one `unreadable-file` finding saying what they are, and
/// `check` returns at once. The entries of a section whose file could not be
/// read are not also reported as orphans.
#[cfg(unix)]
#[test]
fn special_files_are_reported_not_read() {
    use std::os::unix::fs::symlink;
    let index =
        b"## agents/decisions/pipe.md\n/when one\n/when two\n/when three\n\n## agents/decisions/a.md\n/when alpha\n";
    let tmp = ws(index, &[("a.md", OK_DECISION)]);
    let d = tmp.path().join("agents/decisions");
    let fifo = d.join("pipe.md");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let _socket = std::os::unix::net::UnixListener::bind(d.join("sock.md")).expect("socket");
    symlink("/dev/zero", d.join("zero.md")).expect("symlink");
    fs::create_dir(d.join("x.md")).expect("mkdir");
    let start = std::time::Instant::now();
    let o = run(&["check", "."], tmp.path());
    let took = start.elapsed();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(took < std::time::Duration::from_secs(1), "check must not block ({took:?})");
    for (file, what) in [
        ("pipe.md", "it is a named pipe (FIFO); only regular files are read"),
        ("sock.md", "it is a socket; only regular files are read"),
        ("zero.md", "it is a character device; only regular files are read"),
        ("x.md", "it is a directory; only regular files are read"),
    ] {
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with(&format!("agents/decisions/{file}:"))).collect();
        assert_eq!(lines.len(), 1, "{file}: {out}");
        assert!(lines[0].contains("error[unreadable-file]") && lines[0].ends_with(what), "{}", lines[0]);
    }
    assert!(!out.contains("orphan-entry"), "no orphans for the unreadable file's entries: {out}");
    // The same through `resolve` and `fix`: no hang, files unchanged.
    let before = snapshot_regular(tmp.path());
    let o = run(&["resolve", "when alpha"], tmp.path());
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["fix", "."], tmp.path());
    assert!(o.status.code().is_some());
    assert_eq!(snapshot_regular(tmp.path()), before);
}

/// An index or decision file over `max-file-bytes` is a finding, not a read.
#[test]
fn files_over_max_file_bytes_are_findings() {
    let tmp = ws(b"## agents/decisions/a.md\n/when alpha\n", &[("a.md", OK_DECISION), ("big.md", &[b'x'; 5000])]);
    fs::write(tmp.path().join("memory-index.toml"), "max-file-bytes = 4096\n").expect("write");
    let out = expect(tmp.path(), 1, "agents/decisions/big.md:1:1: error[unreadable-file]");
    assert!(out.contains("over `max-file-bytes` (4096)"), "{out}");
}

/// Regular files only (what `snapshot` reads, without opening special files).
fn snapshot_regular(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walk(dir) {
        if fs::symlink_metadata(&e).is_ok_and(|m| m.is_file()) {
            out.push((e.display().to_string(), fs::read(&e).unwrap_or_default()));
        }
    }
    out.sort();
    out
}

/// The decisions folder read through its own handle: a folder that is a
/// link out of the root has every file refused (as a link per file is),
/// and one linked inside the root is read (links and special files among
/// its files get their own verdicts: `unreadable_files_and_symlinks`).
#[cfg(unix)]
#[test]
fn a_decisions_folder_linked_out_of_the_root_is_never_read() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents")).expect("mkdir");
    fs::write(tmp.path().join("agents/memory-index.md"), "## agents/decisions/a.md\n/when alpha\n").expect("write");
    let outside = tempfile::tempdir().expect("outside");
    fs::write(outside.path().join("a.md"), "## When Alpha\nTOP SECRET\n").expect("write");
    symlink(outside.path(), tmp.path().join("agents/decisions")).expect("symlink");
    let out = expect(tmp.path(), 1, "agents/decisions/a.md:1:1: error[unreadable-file]");
    assert!(out.contains("outside the workspace root"), "{out}");
    assert!(!out.contains("TOP SECRET"), "{out}");
    // Linked to a folder inside the root: read as any folder.
    fs::remove_file(tmp.path().join("agents/decisions")).expect("rm");
    fs::create_dir_all(tmp.path().join("kept")).expect("mkdir");
    fs::write(tmp.path().join("kept/a.md"), OK_DECISION).expect("write");
    symlink(tmp.path().join("kept"), tmp.path().join("agents/decisions")).expect("symlink");
    let o = run(&["check"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
}

/// A `memory-index.toml` that links out of the root is not read (its values
/// never apply nor show), and swapping a decision file's link between an
/// inside and an outside target while `resolve ..x.md` runs never prints the
/// outside file: each file is judged by the handle it is read from.
#[cfg(unix)]
#[test]
fn links_out_of_the_root_are_never_read_even_when_swapped() {
    use std::os::unix::fs::symlink;
    let tmp = ws(
        b"## agents/decisions/a.md\n/when alpha\n",
        &[("a.md", OK_DECISION), ("inside.md", b"## When Inside\nfine\n")],
    );
    let outside = tempfile::tempdir().expect("outside");
    fs::write(outside.path().join("evil.toml"), "max-lines = 1\n[rules]\nunindexed-heading = \"off\"\n")
        .expect("write");
    symlink(outside.path().join("evil.toml"), tmp.path().join("memory-index.toml")).expect("symlink");
    let out = expect(tmp.path(), 1, "memory-index.toml:1:1: error[unreadable-file]");
    assert!(out.contains("outside the workspace root"), "{out}");
    assert!(out.contains("unindexed-heading"), "the outside file's settings do not apply: {out}");
    fs::remove_file(tmp.path().join("memory-index.toml")).expect("rm");
    // The swap race.
    fs::write(outside.path().join("secret.md"), "## When Secret\nTOP SECRET\n").expect("write");
    let link = tmp.path().join("agents/decisions/x.md");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let swapper = {
        let (link, stop, secret) = (link.clone(), stop.clone(), outside.path().join("secret.md"));
        let inside = tmp.path().join("agents/decisions/inside.md");
        std::thread::spawn(move || {
            let tmp_link = link.with_extension("swap");
            let mut flip = false;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = fs::remove_file(&tmp_link);
                let _ = symlink(if flip { &secret } else { &inside }, &tmp_link);
                let _ = fs::rename(&tmp_link, &link);
                flip = !flip;
            }
        })
    };
    for _ in 0..150 {
        let o = run(&["resolve", "..x.md"], tmp.path());
        assert!(!String::from_utf8_lossy(&o.stdout).contains("TOP SECRET"), "an outside file was printed");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    swapper.join().expect("swapper");
}
