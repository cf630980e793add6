//! Hostile input through the CLI: every case gives a clear message or finding, a defined exit
//! code, and leaves every file untouched.

mod support;

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
    let out = expect(tmp.path(), 0, "0 errors, 10000 warnings in 2 files");
    assert!(out.contains("warning[missing-file]"));
}
