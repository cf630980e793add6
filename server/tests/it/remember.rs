//! `remember` on copies of the real corpus and of fixtures/demo: one heading and one entry, nothing new for `check`, refusals that write nothing.

use crate::support;

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use support::*;

fn run(args: &[&str], root: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(args)
        .current_dir(root)
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .expect("run")
}

const BODY: &str = "Pin the Rust toolchain in rust-toolchain.toml at the repository root.\n\
CI and every developer read the same file, so builds agree.\n\
Bump it in its own commit, after running the full test suite.\n";

fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> =
        ["agents/memory-index.md"].iter().map(|p| (p.to_string(), fs::read(root.join(p)).expect("read"))).collect();
    for e in fs::read_dir(root.join("agents/decisions")).expect("dir") {
        let p = e.expect("entry").path();
        v.push((p.display().to_string(), fs::read(&p).expect("read")));
    }
    v.sort();
    v
}

#[test]
fn remember_on_the_corpus_adds_one_heading_and_one_entry() {
    let Some(head) = corpus("head") else { return };
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    copy_dir(&head, root);
    fs::write(root.join("body.md"), BODY).expect("body");
    let before = run(&["check", ".", "--format", "json"], root);
    let args = ["remember", "--when", "Pinning Toolchain Versions", "--file", "cli.md", "--body-file", "body.md"];

    let dry = run(&[&args[..], &["--dry-run"]].concat(), root);
    assert_eq!(dry.status.code(), Some(0), "{}", String::from_utf8_lossy(&dry.stderr));
    let diff = String::from_utf8_lossy(&dry.stdout).into_owned();
    let added: Vec<&str> = diff.lines().filter(|l| l.starts_with('+') && !l.starts_with("+++")).collect();
    assert_eq!(
        added,
        [
            "+",
            "+### When Pinning Toolchain Versions",
            "+",
            "+Pin the Rust toolchain in rust-toolchain.toml at the repository root.",
            "+CI and every developer read the same file, so builds agree.",
            "+Bump it in its own commit, after running the full test suite.",
            "+/when pinning toolchain versions",
        ],
        "{diff}"
    );
    assert!(!diff.lines().any(|l| l.starts_with('-') && !l.starts_with("---")), "nothing removed:\n{diff}");
    assert!(diff.contains("+++ b/agents/decisions/cli.md") && diff.contains("+++ b/agents/memory-index.md"));

    let o = run(&args, root);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout)
        .starts_with("Remembered When Pinning Toolchain Versions (agents/decisions/cli.md:"));
    let after = run(&["check", ".", "--format", "json"], root);
    let count = |o: &Output| {
        serde_json::from_slice::<serde_json::Value>(&o.stdout).expect("json").as_array().map_or(0, Vec::len)
    };
    assert_eq!(count(&after), count(&before), "check is as clean as before");
    assert_eq!(after.status.code(), before.status.code());
    let r = run(&["resolve", "when", "pinning", "toolchain", "versions"], root);
    assert_eq!(r.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&r.stdout).starts_with("# When Pinning Toolchain Versions\n\nPin the Rust toolchain")
    );

    let unchanged = snapshot(root);
    let again = run(&args, root);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already at agents/decisions/cli.md:"));
    assert_eq!(snapshot(root), unchanged, "a refusal writes nothing");
}

#[test]
fn a_decision_file_at_the_line_limit_is_refused_and_untouched() {
    let Some(head) = corpus("head") else { return };
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    copy_dir(&head, root);
    fs::write(root.join("body.md"), BODY).expect("body");
    let cli = root.join("agents/decisions/cli.md");
    let mut text = fs::read_to_string(&cli).expect("cli.md");
    while text.lines().count() < 399 {
        text.push_str("More evidence for the last decision.\n");
    }
    fs::write(&cli, &text).expect("pad");
    fs::write(root.join("memory-index.toml"), "max-lines = 400\n").expect("config");
    let before = snapshot(root);
    let o =
        run(&["remember", "--when", "Pinning Toolchain Versions", "--file", "cli.md", "--body-file", "body.md"], root);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("file-too-long") && err.contains("nothing was written"), "{err}");
    assert_eq!(snapshot(root), before);
}

#[test]
fn remember_from_stdin_chooses_the_closest_file_and_usage_errors_exit_2() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    copy_dir(&repo().join("fixtures/demo"), root);
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["remember", "--how", "Refund Cancelled Tickets", "--body-file", "-"])
        .current_dir(root)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"Refund a cancelled ticket's price to the original payment method within 14 days.\nThe booking fee is kept.\n")
        .expect("write");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("file: data.md"), "{}", String::from_utf8_lossy(&o.stderr));
    let index = fs::read_to_string(root.join("agents/memory-index.md")).expect("index");
    assert!(index.contains("/how refund cancelled tickets\n"), "{index}");
    assert_eq!(run(&["remember", "--file", "x.md"], root).status.code(), Some(2));
    assert_eq!(run(&["remember", "--when"], root).status.code(), Some(2));
    fs::write(root.join("body.md"), "Some text.\n").expect("body");
    let o = run(&["remember", "--when", "X Y", "--file", "../../etc/passwd", "--body-file", "body.md"], root);
    assert_eq!(o.status.code(), Some(1));
    // A device is not a body: refused as a usage error, never read.
    let o = run(&["remember", "--when", "X Y", "--body-file", "/dev/zero"], root);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("character device"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The same-subject check on `server/tests/data/duplicates-head.tsv`: a
/// decision the memory already holds, restated, is refused (and names the
/// one it duplicates); a new one that shares words with others is not.
#[test]
fn remember_refuses_restated_decisions_and_keeps_new_ones() {
    let Some(corpus) = corpus_dir("head") else { return };
    let tmp = tempfile::tempdir().expect("tmp");
    copy_dir(&corpus, tmp.path());
    let set = fs::read_to_string(repo().join("server/tests/data/duplicates-head.tsv")).expect("set");
    let (mut dups, mut caught, mut wrong) = (0, 0, Vec::new());
    for line in set.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let [label, title, body] = line.splitn(3, '\t').collect::<Vec<_>>()[..] else { panic!("{line}") };
        let mut c = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
        c.args(["remember", "--when", title, "--body-file", "-", "--dry-run"]).current_dir(tmp.path());
        let o = run_with_stdin(c, body.as_bytes());
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let refused = err.contains("an existing decision may cover this");
        match label {
            "dup" => {
                dups += 1;
                caught += usize::from(refused);
                if refused {
                    assert!(err.contains("--force") && o.status.code() != Some(0), "{title}: {err}");
                }
            }
            "new" if refused => wrong.push(format!("{title}: {err}")),
            "new" => assert_eq!(o.status.code(), Some(0), "{title}: {err}"),
            other => panic!("label {other}"),
        }
    }
    assert!(wrong.is_empty(), "new decisions refused: {wrong:#?}");
    assert!(caught * 3 >= dups * 2, "only {caught} of {dups} restated decisions refused");
}
