//! Shared test helpers: multi-file fixtures (`//- path` lines) and finding summaries.
#![allow(dead_code)]

pub mod gen;

use std::path::{Path, PathBuf};

use memory_index_lsp::edit;
use memory_index_lsp::model::{FileProblem, FileText, Workspace};
use memory_index_lsp::rules::{self, Finding};

/// The repository root (parent of `server/`).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/corpus/NAME` when present; prints why a test is skipped otherwise.
pub fn corpus(name: &str) -> Option<PathBuf> {
    let p = repo().join("../shared/corpus").join(name);
    if p.join("agents/memory-index.md").is_file() {
        Some(p)
    } else {
        eprintln!("skipped: corpus {} is absent (tests read it from ../shared/corpus when it exists)", p.display());
        None
    }
}

/// Runs the binary with `cmd`'s arguments and environment, writing `stdin`
/// to it from a thread (so a child that does not read cannot block the test).
pub fn run_with_stdin(mut cmd: std::process::Command, stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

/// The binary, in `cwd`, without `$CLAUDE_PROJECT_DIR` from the test's environment.
pub fn bin_in(cwd: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
    // State (hook sessions, search snapshots) in a folder of the tests', never the user's cache.
    // No model named by the environment: the semantic tier turns itself on where the model is, and
    // the tests that want it name it (`semantic.rs`).
    c.current_dir(cwd)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("MEMORY_INDEX_LSP_MODEL")
        .env("MEMORY_INDEX_LSP_CACHE_DIR", std::env::temp_dir().join("memory-index-lsp-tests"));
    c
}

/// `../shared/corpus/REL` when present (any folder); prints why a test is skipped otherwise.
pub fn corpus_dir(rel: &str) -> Option<PathBuf> {
    let p = repo().join("../shared/corpus").join(rel);
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipped: {} is absent (tests read it from ../shared/corpus when it exists)", p.display());
        None
    }
}

/// Copies the directory tree `from` into `to`.
/// Every file under `dir` (its path relative to `dir`) with its bytes, sorted: a tree's state, to compare before and after.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).expect("inside").display().to_string(),
                    std::fs::read(&p).expect("read"),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The hook's fault contract: exit 0, nothing on stdout, at most one line on stderr (returned).
pub fn hook_silent(o: &std::process::Output) -> String {
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty(), "stdout: {}", String::from_utf8_lossy(&o.stdout));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.lines().count() <= 1, "stderr: {err}");
    err
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir") {
        let e = e.expect("entry");
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            // Written, not copied: a working copy is writable even when the source (the corpus) is not.
            std::fs::write(&target, std::fs::read(e.path()).expect("read")).expect("write");
        }
    }
}

/// Splits a fixture into (path, text) files.
pub fn files(fixture: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in fixture.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("//- ") {
            out.push((path.trim().to_string(), String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
        }
    }
    out
}

/// A workspace from a fixture; `memory-index.toml` is applied as configuration.
/// A path line may end in `(unreadable: WHY)` (the file could not be read)
/// or `(bytes)` (its text spells bytes as `\xNN`, so it may be invalid UTF-8).
pub fn workspace(fixture: &str) -> Workspace {
    let mut ws = Workspace::default();
    for (path, text) in files(fixture) {
        let (path, file) = if let Some((p, why)) = path.split_once(" (unreadable: ") {
            let why = why.trim_end_matches(')').to_string();
            (p.to_string(), FileText { text: String::new(), problem: Some(FileProblem::Unreadable(why)) })
        } else if let Some(p) = path.strip_suffix(" (bytes)") {
            (p.to_string(), FileText::from_bytes(unescape_bytes(&text)))
        } else {
            if path == "memory-index.toml" {
                let (cfg, errors) = memory_index_lsp::rules::config_from_text(&text);
                ws.set_config(cfg, errors);
            }
            (path, FileText::from(text))
        };
        ws.set_file(&path, file);
    }
    // The fixture is the whole project: what a scope is checked against.
    let mut listed: Vec<String> = files(fixture).into_iter().map(|(p, _)| p).collect();
    listed.sort();
    ws.set_project_files(listed);
    ws
}

/// `a\xffb` → the bytes a, 0xff, b.
fn unescape_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let hex =
            b.get(i + 2..i + 4).and_then(|h| std::str::from_utf8(h).ok()).and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(v) if b[i] == b'\\' && b[i + 1] == b'x' => {
                out.push(v);
                i += 4;
            }
            _ => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    out
}

/// Reads `fixtures/rules/CODE/KIND.md`.
pub fn rule_fixture(code: &str, kind: &str) -> String {
    let p = repo().join("fixtures/rules").join(code).join(format!("{kind}.md"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `code path:line:col` for each finding.
pub fn summary(ws: &Workspace, findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| {
            let file = ws.file(f.file).expect("finding on a known file");
            let (l, c) = file.line_col_1(f.range.start);
            format!("{} {}:{l}:{c}", f.rule.code(), file.path)
        })
        .collect()
}

/// Applies the first fix titled `title_prefix…` among the findings of `code`; returns the changed files.
pub fn apply_fix(ws: &Workspace, code: &str, title_prefix: &str) -> Vec<(String, String)> {
    let findings = rules::check(ws);
    let fix = findings
        .iter()
        .filter(|f| f.rule.code() == code)
        .flat_map(|f| rules::fixes(ws, f).into_owned())
        .find(|x| x.title.starts_with(title_prefix))
        .unwrap_or_else(|| panic!("no {code} finding with a fix {title_prefix:?}"));
    fix.change
        .edits
        .iter()
        .map(|c| {
            let id = ws.file_id(&c.path).expect("fix names a workspace file");
            let (text, skipped) = edit::apply(&ws.file(id).expect("file").text, &c.edits);
            assert!(skipped.is_empty(), "overlapping edits in one fix");
            (c.path.clone(), text)
        })
        .collect()
}
