//! Adoption's surfaces against hostile or unlucky input (issues 52 and 54): a folder that reads empty under `--prune`, commands printed for pasting, names with control characters, lone-CR sources. Each test failed before its fix.

use std::fs;
use std::path::Path;
use std::process::Output;

use crate::support::{bin_in, run_with_stdin};

fn run(root: &Path, args: &[&str]) -> Output {
    let mut c = bin_in(root);
    c.args(args);
    run_with_stdin(c, b"")
}

fn stderr(o: &Output) -> String {
    said(o)
}

fn record(n: u32, title: &str, why: &str) -> String {
    format!("# {n}. {title}\n\n## Status\n\nAccepted\n\n## Decision\n\n{title}: {why}\n")
}

/// A memory with two ADRs imported from `docs/adr`.
fn imported(root: &Path) {
    assert_eq!(run(root, &["init"]).status.code(), Some(0));
    let adr = root.join("docs/adr");
    fs::create_dir_all(&adr).expect("dir");
    fs::write(adr.join("0001-use-postgres.md"), record(1, "Use PostgreSQL", "one database for all services"))
        .expect("adr");
    fs::write(adr.join("0002-use-helm.md"), record(2, "Use Helm", "package every deployment as a chart")).expect("adr");
    let o = run(root, &["import", "docs/adr"]);
    assert!(stderr(&o).contains("2 new"), "{}", stderr(&o));
}

/// Found by review (issue 54): `import --prune` on a folder that exists but
/// holds no record right now (a checkout or sync without it) removed every
/// decision ever imported from it. Its decisions stay, listed as stale,
/// whether the folder is empty, holds only files that are no record, or is
/// missing; a folder that still yields a record prunes as before.
#[test]
fn prune_never_takes_a_folder_that_reads_empty_for_every_record_removed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    imported(root);
    let index = || fs::read_to_string(root.join("agents/memory-index.md")).expect("index").to_lowercase();
    let before = crate::support::snapshot(&root.join("agents"));
    let adr = root.join("docs/adr");
    let aside = tmp.path().join("aside");
    fs::create_dir_all(&aside).expect("aside");
    for f in ["0001-use-postgres.md", "0002-use-helm.md"] {
        fs::rename(adr.join(f), aside.join(f)).expect("mv");
    }
    // Empty; then only a README (no record); then missing.
    for state in ["empty", "readme", "missing"] {
        match state {
            "readme" => fs::write(adr.join("README.md"), "# Decisions\n\nOur records.\n").expect("readme"),
            "missing" => fs::remove_dir_all(&adr).expect("rm"),
            _ => {}
        }
        let o = run(root, &["import", "--prune", "docs/adr"]);
        let err = stderr(&o);
        assert!(!err.contains("removed:"), "{state}: {err}");
        assert!(err.contains("0 removed") && err.contains("no record was read from docs/adr"), "{state}: {err}");
        assert_eq!(crate::support::snapshot(&root.join("agents")), before, "{state}: nothing written");
    }
    assert!(index().contains("/when using postgresql") && index().contains("/when using helm"), "{}", index());
    // A sub-folder named beside it yields records of its own: the folder still reads empty (found by review).
    fs::create_dir_all(adr.join("later")).expect("dir");
    fs::write(adr.join("later/0009-use-kafka.md"), record(9, "Use Kafka", "events go through Kafka")).expect("adr");
    let o = run(root, &["import", "--prune", "docs/adr", "docs/adr/later"]);
    assert!(stderr(&o).contains("1 new") && !stderr(&o).contains("removed:"), "{}", stderr(&o));
    assert!(index().contains("/when using postgresql") && index().contains("/when using helm"), "{}", index());
    fs::remove_dir_all(adr.join("later")).expect("rm");
    // One record back: the other is gone for real, and --prune removes it.
    fs::create_dir_all(&adr).expect("dir");
    fs::rename(aside.join("0001-use-postgres.md"), adr.join("0001-use-postgres.md")).expect("mv");
    let o = run(root, &["import", "--prune", "docs/adr"]);
    assert!(stderr(&o).contains("removed: When Using Helm"), "{}", stderr(&o));
    assert!(index().contains("/when using postgresql") && !index().contains("helm"), "{}", index());
}

/// Found by review (issue 54): `init` printed `memory-index-lsp import
/// PATHS` with the folders it found unquoted; a cloned repository's folder
/// named `$(…)` made the suggestion run code when pasted. Each path is one
/// word to a shell, and running the line runs nothing else.
#[test]
fn the_import_line_init_suggests_pastes_safely() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    for dir in [".cursor/rules/$(touch pwned)", ".cursor/rules/a;touch pwned2", ".cursor/rules/it's"] {
        fs::create_dir_all(root.join(dir)).expect("dir");
        fs::write(root.join(dir).join("style.md"), "# Style\n\n## Naming\n\nName things plainly.\n").expect("rule");
    }
    // A file CLAUDE.md pulls in, named like a flag (found by review: pasted, it was `--file`).
    fs::write(root.join("CLAUDE.md"), "# Rules\n\nSee @--file=evil.md\n\n## Testing\n\nRun the tests.\n")
        .expect("rules");
    fs::write(root.join("--file=evil.md"), "# More\n\n## Naming\n\nName things plainly.\n").expect("pulled");
    let o = run(root, &["init"]);
    let err = stderr(&o);
    let line = err.lines().find_map(|l| l.trim().strip_prefix("memory-index-lsp import ")).expect(&err);
    // The line as a shell reads it, with `printf` standing in for the program.
    let sh = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("printf '%s\\n' {line}"))
        .current_dir(root)
        .output()
        .expect("sh");
    let words = String::from_utf8_lossy(&sh.stdout).into_owned();
    let mut got: Vec<&str> = words.lines().collect();
    got.sort();
    assert_eq!(
        got,
        [
            "./--file=evil.md",
            ".cursor/rules/$(touch pwned)",
            ".cursor/rules/a;touch pwned2",
            ".cursor/rules/it's",
            "CLAUDE.md"
        ],
        "{line}"
    );
    assert!(!root.join("pwned").exists() && !root.join("pwned2").exists(), "pasting the line ran code: {line}");
}

/// Found by review (issue 54): a source file's name went raw into the
/// decision's `Source:` line and into `import`'s and `init`'s messages, so
/// terminal escape sequences in a cloned repository's file name reached the
/// memory and every `resolve`. Such a file is not imported, named escaped;
/// the rest imports; nothing printed or written holds the raw character.
#[test]
fn control_characters_in_file_names_never_reach_the_memory_or_the_terminal() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    let adr = root.join("docs/adr");
    fs::create_dir_all(&adr).expect("dir");
    fs::write(adr.join("0001-use-postgres.md"), record(1, "Use PostgreSQL", "one database")).expect("adr");
    fs::write(adr.join("0002-\x1b]0;owned\x07\x1b[31mred.md"), record(2, "Use Red", "paint it red")).expect("adr");
    let rules = root.join(".cursor/rules/\x1b[2Jclear");
    fs::create_dir_all(&rules).expect("dir");
    fs::write(rules.join("a.md"), "# A\n\n## Naming\n\nName things plainly.\n").expect("rule");
    let o = run(root, &["init"]);
    let err = stderr(&o);
    assert!(!err.contains('\x1b'), "init printed a raw escape: {err:?}");
    assert!(err.contains("\\u{1b}[2Jclear") && err.contains("control character"), "{err}");
    let o = run(root, &["import", "docs/adr"]);
    let err = stderr(&o);
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "import printed a raw control: {err:?}");
    assert!(err.contains("1 new") && err.contains("0002-\\u{1b}]0;owned\\u{7}\\u{1b}[31mred.md"), "{err}");
    for (path, bytes) in crate::support::snapshot(&root.join("agents")) {
        assert!(!bytes.contains(&0x1b), "{path} holds a raw escape");
    }
    let o = run(root, &["resolve", "when using PostgreSQL"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("one database"), "{o:?}");
}

/// Found by review (issue 54): a source with lone CR line ends (classic Mac)
/// was read as one line and skipped with a misleading reason, while `check`
/// and the server read lone CR as a line end. It imports as its LF twin does.
#[test]
fn a_source_with_lone_cr_line_ends_imports_like_its_lf_twin() {
    let lf = "# Rules\n\n## Testing\n\nRun the tests with nextest, never plain cargo test.\n\n## Commits\n\nWrite \
              subjects in the imperative.\n";
    let mut memories = Vec::new();
    for text in [lf.to_string(), lf.replace('\n', "\r")] {
        let tmp = tempfile::tempdir().expect("tmp");
        let root = tmp.path();
        assert_eq!(run(root, &["init"]).status.code(), Some(0));
        fs::write(root.join("CLAUDE.md"), text).expect("rules");
        let o = run(root, &["import", "CLAUDE.md"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(stderr(&o).contains("2 new"), "{}", stderr(&o));
        assert_eq!(run(root, &["check"]).status.code(), Some(0));
        memories.push(crate::support::snapshot(&root.join("agents")));
    }
    assert_eq!(memories[0], memories[1], "the same memory from either line end");
}

/// Found by review (issue 52): a word on the command line that is not UTF-8
/// (Linux file names are bytes) panicked the binary before parsing (exit
/// 101). Now a usage error where text is taken, a path where a path is
/// (a source so named is not imported, said), and the hook still exits 0.
#[cfg(unix)]
#[test]
fn arguments_that_are_not_utf8_are_read_never_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    assert_eq!(run(root, &["init"]).status.code(), Some(0));
    let bad = OsStr::from_bytes(b"caf\xe9.md");
    let mut c = bin_in(root);
    c.arg("resolve").arg(bad);
    let o = run_with_stdin(c, b"");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("memory-index-lsp: ") && stderr(&o).contains("UTF-8"), "{}", stderr(&o));
    let mut c = bin_in(root);
    c.arg("check").arg(root.join(bad));
    assert_eq!(run_with_stdin(c, b"").status.code(), Some(2), "a folder that is not there");
    let mut c = bin_in(root);
    c.arg("hook").arg(bad);
    assert_eq!(run_with_stdin(c, b"{}").status.code(), Some(0));
    fs::create_dir_all(root.join("docs/adr")).expect("dir");
    fs::write(root.join("docs/adr").join(bad), record(1, "Use Latin One", "names in bytes")).expect("adr");
    fs::write(root.join("docs/adr/0002-use-helm.md"), record(2, "Use Helm", "charts")).expect("adr");
    let o = run(root, &["import", "docs/adr"]);
    assert!(stderr(&o).contains("1 new") && stderr(&o).contains("its name is not UTF-8"), "{}", stderr(&o));
    for (path, bytes) in crate::support::snapshot(&root.join("agents")) {
        assert!(!String::from_utf8_lossy(&bytes).contains('\u{fffd}'), "{path}");
    }
}

/// Found by review (issue 52): `remember` refuses a zero-width or
/// bidirectional-formatting character in a title, naming it; `import` took
/// them into headings and triggers as they were (`/when using hel​m`, a
/// trigger that reads reversed). Such a section is skipped with the
/// character named; the rest imports, and the memory holds none.
#[test]
fn import_refuses_invisible_characters_in_titles_as_remember_does() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    assert_eq!(run(root, &["init"]).status.code(), Some(0));
    fs::write(
        root.join("CLAUDE.md"),
        "# Rules\n\n## Packaging With Hel\u{200B}m\n\nPackage every deployment as a chart.\n\n## Deploy \u{202E}syadirf\n\n\
         Never deploy on a Friday.\n\n## Using Tag\u{E0041}s\n\nTags.\n\n## ⚠\u{FE0F} Warnings First\n\nWarn first.\n\n## Testing\n\nRun the tests with nextest.\n",
    )
    .expect("rules");
    let o = run(root, &["import", "CLAUDE.md"]);
    let err = stderr(&o);
    assert!(err.contains("2 new") && err.contains("3 skipped") && err.contains("a tag character"), "{err}");
    assert!(err.contains("U+200B (ZERO WIDTH SPACE)") && err.contains("U+202E (a bidirectional override"), "{err}");
    for (path, bytes) in crate::support::snapshot(&root.join("agents")) {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert!(!text.contains(['\u{200B}', '\u{202E}', '\u{E0041}']), "{path}: {text}");
    }
    assert_eq!(run(root, &["check"]).status.code(), Some(0));
}

/// Found by review (issue 52): an import killed between writing a decision
/// file and the index left unindexed headings, and the same import again
/// called every record unchanged and repaired nothing. `check` now says to
/// run it again, and the rerun adds the missing entries; a third changes nothing.
#[test]
fn a_killed_import_is_completed_by_running_it_again() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    assert_eq!(run(root, &["init"]).status.code(), Some(0));
    let adr = root.join("docs/adr");
    fs::create_dir_all(&adr).expect("dir");
    fs::write(adr.join("0001-use-postgres.md"), record(1, "Use PostgreSQL", "one database")).expect("adr");
    fs::write(adr.join("0002-use-helm.md"), record(2, "Use Helm", "charts for every deployment")).expect("adr");
    let mut c = bin_in(root);
    c.args(["import", "docs/adr"]).env("MEMORY_INDEX_LSP_CRASH_AT", "after-file-1");
    let o = run_with_stdin(c, b"");
    assert_ne!(o.status.code(), Some(0), "killed after the decision file: {}", stderr(&o));
    let check = run(root, &["check"]);
    let out = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(out.contains("unindexed-heading") && out.contains("run `memory-index-lsp import docs/adr/0001"), "{out}");
    // A person's own decision titled as one of them (found by review: the rerun failed whole on
    // the duplicate it would make): that one is left for `check`, the other completed.
    fs::write(root.join("agents/decisions/mine.md"), "# Mine\n\n## When Using Helm\n\nOur own chart rules.\n")
        .expect("mine");
    let with_mine = fs::read_to_string(root.join("agents/memory-index.md")).expect("index")
        + "\n## agents/decisions/mine.md\n\n/when using Helm\n";
    fs::write(root.join("agents/memory-index.md"), with_mine).expect("index");
    let o = run(root, &["import", "docs/adr"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.matches("completed: When Using PostgreSQL").count() == 1 && err.contains("1 skipped"), "{err}");
    fs::remove_file(root.join("agents/decisions/mine.md")).expect("rm");
    let index = fs::read_to_string(root.join("agents/memory-index.md")).expect("index");
    fs::write(
        root.join("agents/memory-index.md"),
        index.replace("\n## agents/decisions/mine.md\n\n/when using Helm\n", ""),
    )
    .expect("index");
    let o = run(root, &["import", "docs/adr"]);
    let err = stderr(&o);
    assert!(err.matches("completed: ").count() == 1 && err.contains("2 unchanged"), "{err}");
    assert_eq!(
        run(root, &["check"]).status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run(root, &["check"]).stdout)
    );
    let before = crate::support::snapshot(&root.join("agents"));
    let o = run(root, &["import", "docs/adr"]);
    assert!(!stderr(&o).contains("completed") && stderr(&o).contains("2 unchanged"), "{}", stderr(&o));
    assert_eq!(crate::support::snapshot(&root.join("agents")), before);
}

/// Issue 52: a first import of many records was quadratic (8,000 took 92 s:
/// each entry keyed against every entry and placed in the index as it was
/// after the last). Over `KEYED` (300) new entries they are placed at once,
/// without short keys (`cargo bench --bench import`: 8,000 in 0.13 s); the
/// memory checks clean, every entry resolves to its heading, and a second
/// run changes nothing, also beside entries imported before.
#[test]
fn a_large_import_is_placed_at_once_and_checks_clean() {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path();
    assert_eq!(run(root, &["init"]).status.code(), Some(0));
    let words = ["amber", "basalt", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper"];
    let title = |i: usize| format!("{} {} {} rule {i}", words[i % 10], words[(i / 10) % 10], words[(i / 100) % 10]);
    let rules = |n: usize| -> String {
        let mut out = String::from("# Rules\n");
        for i in 0..n {
            out.push_str(&format!("\n## {}\n\nKeep the {} rule as written.\n", title(i), title(i)));
        }
        out
    };
    fs::write(root.join("CLAUDE.md"), rules(12)).expect("rules");
    assert!(stderr(&run(root, &["import", "CLAUDE.md"])).contains("12 new"));
    fs::write(root.join("CLAUDE.md"), rules(700)).expect("rules");
    let o = run(root, &["import", "CLAUDE.md"]);
    assert!(stderr(&o).contains("688 new") && stderr(&o).contains("12 unchanged"), "{}", stderr(&o));
    let check = run(root, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stdout));
    for i in [0, 11, 12, 350, 699] {
        let o = run(root, &["resolve", &format!("when working on {}", title(i))]);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(out.contains(&format!("Keep the {} rule as written.", title(i))), "{i}: {out}");
    }
    let before = crate::support::snapshot(&root.join("agents"));
    let o = run(root, &["import", "CLAUDE.md"]);
    assert!(stderr(&o).contains("0 new, 0 updated, 700 unchanged"), "{}", stderr(&o));
    assert_eq!(crate::support::snapshot(&root.join("agents")), before);
    // Killed before the index: the rerun completes the 688 entries at once too (found by review:
    // one by one, 6,000 took 16 s), and the memory is as the whole import left it.
    let index = root.join("agents/memory-index.md");
    let whole = fs::read_to_string(&index).expect("index");
    let kept: String = whole
        .split_inclusive('\n')
        .filter(|l| {
            !l.contains(" rule ")
                || (0..12).any(|i| l.contains(&format!(" rule {i}\n")) || l.contains(&format!(" rule {i} ")))
        })
        .collect();
    fs::write(&index, &kept).expect("index");
    let o = run(root, &["import", "CLAUDE.md"]);
    assert_eq!(stderr(&o).matches("completed: ").count(), 688, "{}", stderr(&o));
    assert_eq!(run(root, &["check"]).status.code(), Some(0));
    let o = run(root, &["import", "CLAUDE.md"]);
    assert!(stderr(&o).contains("700 unchanged") && !stderr(&o).contains("completed"), "{}", stderr(&o));
}

/// What a command printed, as a terminal shows it: its results (stdout), then its notes (stderr).
fn said(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}
