//! The agent side under faults: concurrent `remember`s and hooks, kills in the middle of a write, strays of killed writers.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_memory-index-lsp");

const INDEX: &str = "# Memory Index\n\nRecall with `/when <situation>`.\n\n## agents/decisions/ops.md\n\n\
/when deploying on fridays | release day\n";
const OPS: &str = "# Ops\n\n## When Deploying On Fridays\n\nNever deploy on a Friday afternoon; wait for Monday.\n";

/// A clean memory (check finds nothing) in a new temporary folder.
pub fn clean_memory() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tmp");
    fs::create_dir_all(tmp.path().join("agents/decisions")).expect("dirs");
    fs::write(tmp.path().join("agents/memory-index.md"), INDEX).expect("index");
    fs::write(tmp.path().join("agents/decisions/ops.md"), OPS).expect("ops");
    tmp
}

fn cmd(args: &[&str], root: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).current_dir(root).env_remove("CLAUDE_PROJECT_DIR");
    c
}

fn check_clean(root: &Path) {
    let o = cmd(&["check"], root).output().expect("check");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
}

fn resolves(root: &Path, query: &str, title: &str) -> bool {
    let o = cmd(&["resolve", query], root).output().expect("resolve");
    o.status.success() && String::from_utf8_lossy(&o.stdout).lines().next() == Some(&format!("# {title}"))
}

/// Twenty distinct subjects: no two rank as the same subject.
const SUBJECTS: [&str; 20] = [
    "Rotating Database Passwords",
    "Naming Feature Flags",
    "Pinning Docker Base Images",
    "Logging Personal Data",
    "Caching Geocoder Replies",
    "Retrying Payment Captures",
    "Choosing Queue Partitions",
    "Writing Changelog Entries",
    "Vendoring Font Files",
    "Sizing Thread Pools",
    "Compressing Nightly Backups",
    "Signing Release Tags",
    "Translating Email Templates",
    "Expiring Session Cookies",
    "Scheduling Cron Jobs",
    "Reviewing Schema Migrations",
    "Tagging Metrics Labels",
    "Sampling Trace Spans",
    "Mirroring Package Registries",
    "Archiving Old Tickets",
];

#[test]
fn twenty_remembers_at_once_into_one_file_all_land() {
    let mem = clean_memory();
    let root = mem.path();
    let children: Vec<(String, std::process::Child)> = SUBJECTS
        .iter()
        .map(|title| {
            let body = format!("Decided for {title}: do it the documented way, and say why in the commit.\n");
            let mut child =
                cmd(&["remember", "--when", title, "--file", "ops.md", "--force", "--body-file", "-"], root)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("spawn");
            child.stdin.take().expect("stdin").write_all(body.as_bytes()).expect("body");
            (title.to_string(), child)
        })
        .collect();
    for (title, child) in children {
        let o = child.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(0), "{title}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("Remembered When "), "{title}");
    }
    for title in SUBJECTS {
        assert!(resolves(root, &format!("when {}", title.to_lowercase()), &format!("When {title}")), "{title}");
    }
    check_clean(root);
    let strays: Vec<_> = fs::read_dir(root.join("agents/decisions"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(strays.is_empty(), "no temporary file left");
}

/// Runs `hook` for a prompt in `session`, with state under `state`.
fn hook(root: &Path, state: &Path, session: &str, prompt: &str) -> std::process::Child {
    let input = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": root,
        "transcript_path": "/dev/null", "prompt": prompt});
    let mut child = Command::new(BIN)
        .arg("hook")
        .current_dir(root)
        .env("MEMORY_INDEX_LSP_CACHE_DIR", state)
        .env("CLAUDE_PROJECT_DIR", root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes()).expect("stdin");
    child
}

#[test]
fn fifty_hooks_of_one_session_at_once_inject_a_decision_once() {
    let mem = clean_memory();
    fs::write(mem.path().join("memory-index.toml"), "[recall]\nprompt = 0.2\n").unwrap();
    let state = tempfile::tempdir().unwrap();
    let children: Vec<_> =
        (0..50).map(|_| hook(mem.path(), state.path(), "one-session", "can we deploy on fridays?")).collect();
    let mut injected = 0;
    for c in children {
        let o = c.wait_with_output().expect("wait");
        assert_eq!(o.status.code(), Some(0));
        injected += String::from_utf8_lossy(&o.stdout).matches("When Deploying On Fridays").count();
    }
    assert_eq!(injected, 1, "the decision reaches the session exactly once");
    // Another session still gets it.
    let o = hook(mem.path(), state.path(), "another", "can we deploy on fridays?").wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("When Deploying On Fridays"));
}

fn remember_once(root: &Path, crash_at: Option<&str>) -> Output {
    let mut c = cmd(
        &["remember", "--when", "Choosing Log Levels", "--file", "ops.md", "--extras", "verbosity", "--body-file", "-"],
        root,
    );
    if let Some(at) = crash_at {
        c.env("MEMORY_INDEX_LSP_CRASH_AT", at);
    }
    let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"Info for what an operator acts on; debug stays off in production.\n")
        .unwrap();
    child.wait_with_output().expect("wait")
}

#[test]
fn a_kill_between_the_two_writes_is_completed_by_the_same_command() {
    let mem = clean_memory();
    let root = mem.path();
    let o = remember_once(root, Some("after-file-1"));
    assert!(!o.status.success(), "the crash point killed it");
    let ops = fs::read_to_string(root.join("agents/decisions/ops.md")).unwrap();
    assert!(ops.contains("## When Choosing Log Levels"), "{ops}");
    assert!(!fs::read_to_string(root.join("agents/memory-index.md")).unwrap().contains("log levels"));
    // check names the half-finished state, with the entry as its fix.
    let c = cmd(&["check"], root).output().unwrap();
    assert!(String::from_utf8_lossy(&c.stdout).contains("unindexed-heading"), "{}", String::from_utf8_lossy(&c.stdout));
    let o = remember_once(root, None);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("completed"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        fs::read_to_string(root.join("agents/decisions/ops.md")).unwrap().matches("Choosing Log Levels").count(),
        1
    );
    assert!(resolves(root, "when choosing log levels", "When Choosing Log Levels"));
    assert!(resolves(root, "when verbosity", "When Choosing Log Levels"));
    check_clean(root);
    // Once complete, the same command refuses: it exists.
    assert_eq!(remember_once(root, None).status.code(), Some(1));
}

#[test]
fn a_kill_at_any_moment_leaves_a_memory_the_same_command_completes() {
    for delay_us in [0u64, 500, 1_000, 2_000, 3_000, 5_000, 8_000, 12_000, 20_000, 40_000] {
        let mem = clean_memory();
        let root = mem.path();
        let mut c = cmd(&["remember", "--when", "Choosing Log Levels", "--file", "ops.md", "--body-file", "-"], root);
        let mut child = c.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(b"Info for what an operator acts on.\n").unwrap();
        std::thread::sleep(std::time::Duration::from_micros(delay_us));
        let _ = child.kill();
        let _ = child.wait();
        let o = remember_once(root, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() || err.contains("exists already"), "after a kill at {delay_us} µs: {err}");
        assert!(resolves(root, "when choosing log levels", "When Choosing Log Levels"), "at {delay_us} µs");
        check_clean(root);
    }
}

#[test]
fn the_next_writer_removes_a_killed_writers_old_temporary_file() {
    let mem = clean_memory();
    let root = mem.path();
    let dir = root.join("agents/decisions");
    let old = dir.join(".ops.md.0123456789abcdef.tmp");
    let young = dir.join(".ops.md.fedcba9876543210.tmp");
    let theirs = dir.join(".notes.tmp");
    for p in [&old, &young, &theirs] {
        fs::write(p, "half\n").unwrap();
    }
    let two_minutes_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    fs::File::options().write(true).open(&old).unwrap().set_modified(two_minutes_ago).unwrap();
    fs::File::options().write(true).open(&theirs).unwrap().set_modified(two_minutes_ago).unwrap();
    let o = remember_once(root, None);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!old.exists(), "a stray older than a minute is removed");
    assert!(young.exists(), "a younger one may belong to a writer still running");
    assert!(theirs.exists(), "a file not named as ours is never touched");
}

#[test]
fn fix_and_remember_take_turns() {
    let mem = clean_memory();
    let root = mem.path();
    // An empty extra (a trailing comma) for fix to drop while remember adds an entry.
    let index = fs::read_to_string(root.join("agents/memory-index.md")).unwrap();
    fs::write(root.join("agents/memory-index.md"), index.replace("release day\n", "release day,\n")).unwrap();
    let fixer = cmd(&["fix"], root).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let o = remember_once(root, None);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let f = fixer.wait_with_output().unwrap();
    assert!(f.status.code().is_some_and(|c| c < 2), "{}", String::from_utf8_lossy(&f.stderr));
    assert!(resolves(root, "when choosing log levels", "When Choosing Log Levels"));
    check_clean(root);
}
