//! The `resolve` command as an agent calls it, on fixtures/demo and the real corpus.

use crate::support;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use support::*;

fn resolve(args: &[&str], stdin: &str, root: &std::path::Path) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("resolve")
        .args(args)
        .current_dir(root)
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn contract_args_stdin_null_dedup_and_exit_codes() {
    let demo = repo().join("fixtures/demo");
    let o = resolve(&["when writing mock tests", "how paginate list responses"], "", &demo);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(text.starts_with("# When Writing Mock Tests\n"), "{text}");
    assert!(text.contains("\n---\n# How to Paginate List Responses\n"), "{text}");
    // Words typed unquoted are one query, not three.
    let o = resolve(&["writing", "mock", "tests"], "", &demo);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).starts_with("# When Writing Mock Tests\n") && !out(&o).contains("---"), "{}", out(&o));
    let o = resolve(&["null"], "when null\n\n", &demo);
    assert_eq!((o.status.code(), out(&o).as_str()), (Some(0), ""));
    let o = resolve(&["writing mock tests"], "when writing mock tests\nmock patch\nkubernetes autoscaling\n", &demo);
    assert_eq!(o.status.code(), Some(1), "one query failed");
    let text = out(&o);
    assert_eq!(text.matches("# When Writing Mock Tests").count(), 1, "identical results once:\n{text}");
    assert!(text.trim_end().ends_with("No match for 'kubernetes autoscaling'"), "errors last:\n{text}");
    let o = resolve(&[], "", &demo);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("No queries provided"));
    let o =
        resolve(&["--root", demo.to_str().expect("path"), "--no-nav", "..operations.md"], "", &std::env::temp_dir());
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).starts_with("# Operations Decisions\n"));
}

#[test]
fn file_mode_refuses_paths_outside_the_decisions_directory() {
    let demo = repo().join("fixtures/demo");
    let pwd = std::env::current_dir().expect("cwd");
    for q in ["..../etc/passwd".to_string(), format!("..{}/x.md", pwd.display()), "../../README.md".to_string()] {
        let o = resolve(&[&q], "", &demo);
        assert_eq!(o.status.code(), Some(1), "{q}");
        let text = out(&o);
        assert!(text.starts_with("Refused:") || text.starts_with("File '"), "{q}: {text}");
        assert!(!text.contains("root:") && !text.contains("# Memory Index"), "prints nothing of any file");
    }
}

#[test]
fn corpus_sections_are_whole_and_end_with_source() {
    let Some(head) = corpus("head") else { return };
    let o = resolve(&["how encode file paths"], "", &head);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(text.starts_with("# How to Encode File Paths\n"), "{text}");
    assert!(text.trim_end().ends_with("Source: agents/decisions/data-processing.md"), "{text}");
    let o = resolve(&["--no-nav", "/how apply mock patches correctly"], "", &head);
    let text = out(&o);
    assert!(text.starts_with("# How to Apply Mock Patches Correctly\n"), "{text}");
    let fence = text.find("```python").expect("the code block is printed");
    assert!(text[fence..].matches("```").count() >= 2, "not cut inside its code block:\n{text}");
}

#[test]
fn every_trigger_and_extra_of_the_corpus_resolves_to_its_own_entry() {
    let Some(head) = corpus("head") else { return };
    let ws = memory_index_lsp::project::load::load(&head).expect("load");
    let b = ws.bindings();
    let (_, src, index) = ws.index().expect("index");
    let mut failures = Vec::new();
    for (i, e) in b.entries.iter().enumerate() {
        let entry = index.entry(e.line).expect("entry");
        let words = std::iter::once(entry.trigger).chain(entry.extras.iter().copied().filter(|r| !r.is_empty()));
        for r in words {
            let q = format!("{} {}", e.op.word(), r.slice(&src.text));
            let got = memory_index_lsp::ide::resolve::resolve(&ws, &q, false).ok().and_then(|r| r.entry);
            if got != Some(memory_index_lsp::model::EntryId(i as u32)) {
                failures.push(q);
            }
        }
    }
    assert!(failures.is_empty(), "{} queries resolve elsewhere: {failures:#?}", failures.len());
}

/// Every semantic heading title of the workspace at `root`.
fn semantic_titles(root: &std::path::Path) -> Vec<String> {
    let ws = memory_index_lsp::project::load::load(root).expect("load");
    ws.decisions()
        .flat_map(|(_, _, d)| d.headings.iter().filter(|h| h.is_semantic()).map(|h| h.title.clone()))
        .collect()
}

#[test]
fn compressed_keys_resolve_to_their_own_heading() {
    let Some(head) = corpus("head") else { return };
    let ws = memory_index_lsp::project::load::load(&head).expect("load");
    let titles = semantic_titles(&head);
    for title in titles.iter().step_by(12) {
        let (op, key) = memory_index_lsp::ide::compress::compress_title(&ws, title).expect("prefixed title");
        assert!(key.split_whitespace().count() <= title.split_whitespace().count());
        let r = memory_index_lsp::ide::resolve::resolve(&ws, &format!("{} {key}", op.word()), false).expect("resolves");
        assert!(r.text.starts_with(&format!("# {title}\n")), "{key} -> {}", r.text.lines().next().unwrap_or(""));
    }
    let o = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(["compress-key", "--root"])
        .arg(&head)
        .arg("How to Encode File Paths")
        .output()
        .expect("run");
    assert_eq!(out(&o), "How to Encode File Paths\t/how file\n");
}

#[cfg(unix)]
#[test]
fn file_mode_refuses_a_symlink_that_leaves_the_root() {
    let tmp = tempfile::tempdir().expect("tmp");
    let outside = tempfile::tempdir().expect("outside");
    std::fs::write(outside.path().join("secret.md"), "TOP SECRET\n").expect("write");
    std::fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    std::fs::write(tmp.path().join("agents/memory-index.md"), "## agents/decisions/a.md\n").expect("write");
    std::os::unix::fs::symlink(outside.path().join("secret.md"), tmp.path().join("agents/decisions/a.md"))
        .expect("link");
    let o = resolve(&["..a.md"], "", tmp.path());
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(text.starts_with("Refused: cannot read agents/decisions/a.md: it resolves to"), "{text}");
    assert!(!text.contains("TOP SECRET"));
}

#[test]
fn a_bare_operator_word_makes_the_arguments_one_query() {
    let demo = repo().join("fixtures/demo");
    let o = resolve(&["when", "writing", "mock", "tests"], "", &demo);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = out(&o);
    assert!(text.starts_with("# When Writing Mock Tests\n"), "{text}");
    assert!(!text.contains("Empty query"), "{text}");
    // Without the operator word, each argument stays one query.
    let o = resolve(&["writing mock tests", "paginate list responses"], "", &demo);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("\n---\n# How to Paginate List Responses\n"));
}

fn cli(args: &[&str], cwd: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .args(args)
        .current_dir(cwd)
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("run")
}

#[test]
fn search_lists_ranked_decisions_with_their_entry_and_confidence() {
    let demo = repo().join("fixtures/demo");
    let o = cli(&["search", "how", "should", "we", "store", "ticket", "prices", "money"], &demo);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let text = out(&o);
    let first: Vec<&str> = text.lines().take(3).collect();
    assert!(first[0].starts_with("1. /how store ticket prices  (") && first[0].ends_with(')'), "{text}");
    assert_eq!(first[1], "   How to Store Ticket Prices (agents/decisions/data.md:5)", "{text}");
    let o = cli(&["search", "--json", "--limit", "1", "store ticket prices"], &demo);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let hit = &v.as_array().expect("array")[0];
    assert_eq!(hit["heading"], "How to Store Ticket Prices");
    assert_eq!(hit["evidence"], "exact-trigger");
    assert_eq!((hit["file"].as_str(), hit["line"].as_u64()), (Some("agents/decisions/data.md"), Some(5)));
    assert!(hit["confidence"].as_f64().is_some_and(|c| c > 0.9));
    // Options after the text are options, as an agent types them; a word starting with `-` goes after `--`.
    let after = cli(&["search", "store ticket prices", "--json", "--limit", "1"], &demo);
    assert_eq!(after.stdout, o.stdout, "{}", String::from_utf8_lossy(&after.stderr));
    let flag = cli(&["search", "git", "branch", "-D"], &demo);
    assert_eq!(flag.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&flag.stderr).contains("-- -D"), "{}", String::from_utf8_lossy(&flag.stderr));
    assert_ne!(cli(&["search", "--", "git", "branch", "-D"], &demo).status.code(), Some(2));
    let o = cli(&["search", "bake sourdough bread at home"], &demo);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).starts_with("No decision matches 'bake sourdough bread at home'"));
    // Words shared, confidence under the floor: the closest are listed, marked weak, exit 1.
    let o = cli(&["search", "the css of the booking page is broken"], &demo);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(text.starts_with("No decision matches 'the css of the booking page is broken' with confidence 0.05 or more; the closest, for you to judge:\n1. /how "), "{text}");
    let o = cli(&["search", "--json", "the css of the booking page is broken"], &demo);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(|f| f["weak"] == true)), "{v}");
    assert_eq!(cli(&["search"], &demo).status.code(), Some(2));
}

#[test]
fn eval_prints_metrics_and_names_a_malformed_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let set = dir.path().join("set.tsv");
    std::fs::write(
        &set,
        "# a comment\nexact\twhen writing mock tests\tWhen Writing Mock Tests\noff\tbake sourdough bread\t-\n",
    )
    .expect("write");
    let demo = repo().join("fixtures/demo");
    let o = cli(&["eval", set.to_str().expect("path"), "--threshold", "0.5"], &demo);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = out(&o);
    assert!(text.contains("| exact | 1 | 100% | 100% | 100% |"), "{text}");
    assert!(text.contains("| off | 1 | 100% | 0% | n/a | n/a | n/a | n/a | n/a | 0% |"), "{text}");
    assert!(text.contains("| all | 2 | 100% |"), "{text}");
    assert!(text.contains("| 0.9-1.0 | 1 | 100% |"), "{text}");
    let o = cli(&["eval", set.to_str().expect("path"), "--json"], &demo);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["kinds"][0]["kind"], "exact");
    std::fs::write(&set, "exact\twhen writing mock tests\tWhen Writing Mock Tests\nbroken line\n").expect("write");
    let o = cli(&["eval", set.to_str().expect("path")], &demo);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2: expected 3 tab-separated columns"));
    let o = cli(&["eval", "/nonexistent/set.tsv"], &demo);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read /nonexistent/set.tsv"));
    // A label with a typo is named (found by review: it only counted as a wrong answer).
    std::fs::write(&set, "exact\twhen writing mock tests\tWhen Writing Mock Testz\n").expect("write");
    let o = cli(&["eval", set.to_str().expect("path")], &demo);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(":1: `when writing mock testz` is no heading"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn every_subcommand_answers_help() {
    let demo = repo().join("fixtures/demo");
    for cmd in
        ["check", "fix", "resolve", "compress-key", "search", "eval", "recall-stats", "remember", "mcp", "init", "hook"]
    {
        let o = cli(&[cmd, "--help"], &demo);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help");
        assert!(out(&o).contains(&format!("memory-index-lsp {cmd}")), "{cmd} --help prints its usage:\n{}", out(&o));
    }
}

#[test]
fn a_missing_section_lists_the_closest_titles() {
    let Some(head) = corpus("head") else { return };
    let o = cli(&["resolve", "--root", head.to_str().expect("path"), ".Some Section"], &head);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(text.starts_with("Section 'Some Section' not found.\nClosest:\n  /when ."), "{text}");
    let o = cli(&["resolve", "--root", head.to_str().expect("path"), ".Pinning mock patches for tests"], &head);
    let text = out(&o);
    let first = text.lines().nth(2).unwrap_or("");
    assert_eq!(first, "  /when .How to Apply Mock Patches Correctly", "{text}");
    assert!(text.lines().count() <= 12, "at most 10 titles:\n{text}");
}

#[test]
fn compress_key_never_gives_two_new_headings_one_key() {
    let demo = repo().join("fixtures/demo");
    let o = cli(&["compress-key", "How to Encode Parameters", "How to Encode Strings"], &demo);
    assert_eq!(o.status.code(), Some(0));
    let keys: Vec<String> = out(&o).lines().map(|l| l.split('\t').nth(1).unwrap_or("").to_string()).collect();
    assert_eq!(keys.len(), 2);
    assert_ne!(keys[0], keys[1], "{keys:?}");
    // Neither heading is written yet: the keys come with a note that nothing resolves to them now.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no heading `How to Encode Parameters` in the decision files"), "{err}");
    let o = cli(&["compress-key", "How to Paginate List Responses"], &demo);
    assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Found by review: keys of a particle (`out`), of a word with its punctuation (`prod!`), and a
/// title's tab breaking the `TITLE<TAB>TRIGGER` line.
#[test]
fn compress_key_gives_words_a_person_would_type_one_tab_a_line() {
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    std::fs::write(tmp.path().join("agents/memory-index.md"), "# I\n\n## agents/decisions/a.md\n\n").expect("index");
    let decisions = "# A\n\n## When Rolling Out A Canary Release\n\nx\n\n## When Using kubectl Against Prod!\n\ny\n\n\
                     ##\tWhen\tUsing   Tabs In Headings\n\nz\n";
    std::fs::write(tmp.path().join("agents/decisions/a.md"), decisions).expect("decisions");
    let o = cli(&["compress-key"], tmp.path());
    assert_eq!(
        out(&o),
        "When Rolling Out A Canary Release\t/when canary\nWhen Using kubectl Against Prod!\t/when prod\n\
         When Using Tabs In Headings\t/when tabs\n"
    );
}

#[test]
fn commands_find_their_project_from_a_subfolder_and_say_when_there_is_none() {
    let sub = repo().join("fixtures/demo/agents/decisions");
    let o = cli(&["resolve", "how", "paginate", "list", "responses"], &sub);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out(&o).starts_with("# How to Paginate List Responses\n"));
    let o = cli(&["check"], &sub);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("7 errors, 1 warning in 5 files"), "{}", out(&o));
    let nowhere = tempfile::tempdir().expect("tmp");
    let o = cli(&["resolve", "how", "paginate", "list", "responses"], nowhere.path());
    assert_eq!(o.status.code(), Some(2), "no project is a usage error, not No match");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no memory index in") && err.contains("pass --root DIR"), "{err}");
    assert!(out(&o).is_empty());
}

#[test]
fn section_and_file_modes_accept_what_people_type() {
    let demo = repo().join("fixtures/demo");
    let o = cli(&["resolve", ".writing MOCK tests"], &demo);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).starts_with("### When Writing Mock Tests\n"), "{}", out(&o));
    let o = cli(&["resolve", "..testing"], &demo);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).starts_with("# Testing Decisions\n"));
    let o = cli(&["resolve", "..nope"], &demo);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).contains("Available:\n  ..api.md"), "{}", out(&o));
}

/// `compress-key` on every heading of the real corpus at once, through the
/// CLI: no key is made only of stop words (`/how to`, `/when a`), keys are
/// unique, and each resolves to its own heading through `resolve`.
#[test]
fn compress_key_on_the_corpus_gives_no_stop_word_keys_and_each_resolves() {
    let Some(head) = corpus("head") else { return };
    let titles = semantic_titles(&head);
    assert!(titles.len() > 300, "{}", titles.len());
    let mut args = vec!["compress-key".to_string()];
    args.extend(titles.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = cli(&args, &head);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let stop = ["a", "an", "and", "the", "to", "of", "for", "from", "in", "on", "with", "is", "are", "by", "it"];
    let mut seen = std::collections::HashSet::new();
    for line in out(&o).lines() {
        let (title, key) = line.split_once('\t').expect("title<TAB>key");
        let words: Vec<&str> = key.split_whitespace().skip(1).collect();
        assert!(!words.iter().all(|w| stop.contains(&w.to_lowercase().as_str())), "stop-word key for {title}: {key}");
        assert!(seen.insert(key.to_string()), "two headings share {key}");
    }
    assert_eq!(seen.len(), titles.len());
    // Each key (every seventh), through `resolve`, prints its own heading first.
    for line in out(&o).lines().step_by(7) {
        let (title, key) = line.split_once('\t').expect("title<TAB>key");
        let r = cli(&["resolve", key], &head);
        assert!(out(&r).starts_with(&format!("# {title}\n")), "{key} -> {}", out(&r).lines().next().unwrap_or(""));
    }
}

/// Suggested triggers are lowercase except names (`CLI`, `LLM-native`), in
/// `check`'s message as in the fix.
#[test]
fn suggested_triggers_keep_names_and_lowercase_the_rest() {
    let tmp = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(tmp.path().join("agents/decisions")).expect("mkdir");
    std::fs::write(tmp.path().join("agents/memory-index.md"), "# Index\n\n## agents/decisions/cli.md\n")
        .expect("write");
    std::fs::write(
        tmp.path().join("agents/decisions/cli.md"),
        "# CLI\n\n## When CLI Commands Are LLM-Native\n\nStdout only.\n",
    )
    .expect("write");
    let o = cli(&["check"], tmp.path());
    assert!(out(&o).contains("add `/when CLI commands are LLM-native`"), "{}", out(&o));
}

/// Found by review: a decision file the memory cannot read gave "No match" and nothing else.
#[cfg(unix)]
#[test]
fn a_decision_file_that_cannot_be_read_is_named() {
    let tmp = tempfile::tempdir().expect("tmp");
    copy_dir(&repo().join("fixtures/demo"), tmp.path());
    let pipe =
        std::ffi::CString::new(tmp.path().join("agents/decisions/pipe.md").to_string_lossy().as_bytes()).expect("c");
    assert_eq!(unsafe { libc::mkfifo(pipe.as_ptr(), 0o600) }, 0);
    let o = cli(&["resolve", "when writing mock tests"], tmp.path());
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot read agents/decisions/pipe.md") && err.contains("left out"), "{err}");
    assert!(out(&o).starts_with("# When Writing Mock Tests"), "{}", out(&o));
}
