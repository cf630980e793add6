//! The prompt hook's recall view (`project::recall_cache`): a memory whose files are unchanged is answered without being read, exactly as when it is read; a change is read at once; a spoiled view costs only the load.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::run_with_stdin;

const CONFIG: &str = "[recall]\nprompt = 0.2\nmax-decisions = 2\n";
const INDEX: &str = "# Memory Index\n\n## agents/decisions/testing.md\n\n\
/when writing mock tests | test doubles\n/when choosing a test runner\n\n\
## agents/decisions/git.md\n\n/when git lock error occurs | index.lock\n";
const TESTING: &str =
    "# Testing\n\n## When Writing Mock Tests\n\nPatch the name where it is looked up, not where it is defined.\n\n\
## When Choosing A Test Runner\n\nUse nextest in CI; it isolates each test in a process.\n";
const GIT: &str = "# Git\n\n## When Git Lock Error Occurs\n\nAnother git process holds `.git/index.lock`: wait for it, then remove the lock only if no git runs.\n";
const PROMPTS: [&str; 3] = [
    "the flaky integration suite keeps mocking the wrong module, where should the patch go now",
    "git says another git process seems to be running and index.lock exists, what should I do",
    "which test runner do we use in CI, and does every test run in a process of its own",
];

fn project() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tmp");
    let root = tmp.path().join("p");
    fs::create_dir_all(root.join("agents/decisions")).expect("dirs");
    fs::write(root.join("memory-index.toml"), CONFIG).expect("config");
    fs::write(root.join("agents/memory-index.md"), INDEX).expect("index");
    fs::write(root.join("agents/decisions/testing.md"), TESTING).expect("testing");
    fs::write(root.join("agents/decisions/git.md"), GIT).expect("git");
    (tmp, root)
}

/// Lets files written just now age past the view's racy window (`RACY`).
fn age() {
    std::thread::sleep(memory_index_lsp::project::recall_cache::RACY + std::time::Duration::from_millis(300));
}

/// The hook program `bin` on `event` (its session and `cwd` set here), its state in `cache`.
fn run(bin: &Path, root: &Path, cache: &Path, mut event: serde_json::Value, session: &str) -> Output {
    event["session_id"] = session.into();
    event["transcript_path"] = "/dev/null".into();
    event["cwd"] = root.to_string_lossy().into_owned().into();
    let mut c = std::process::Command::new(bin);
    c.arg("hook")
        .current_dir(root)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("MEMORY_INDEX_LSP_MODEL")
        .env("MEMORY_INDEX_LSP_CACHE_DIR", cache);
    let o = run_with_stdin(c, event.to_string().as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

fn hook(root: &Path, cache: &Path, prompt: &str, session: &str) -> Output {
    let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "prompt": prompt});
    run(Path::new(env!("CARGO_BIN_EXE_memory-index-lsp")), root, cache, event, session)
}

fn view(cache: &Path) -> Option<PathBuf> {
    fs::read_dir(cache.join("search"))
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "view"))
}

/// `prompt` answered from the state in `cache` and, in a state directory of
/// its own (`fresh`), from the files: the same injection. `kept` (the kept
/// files' inodes) does not change while the view answers.
#[cfg(unix)]
fn answered_alike(root: &Path, cache: &Path, fresh: &Path, prompt: &str, session: &str, kept: &dyn Fn() -> Vec<u64>) {
    let before = kept();
    let from_view = hook(root, cache, prompt, session);
    assert_eq!(kept(), before, "answered from the view: nothing rewritten ({prompt})");
    let from_files = hook(root, fresh, prompt, session);
    assert_eq!(from_view.stdout, from_files.stdout, "{prompt}");
    assert!(String::from_utf8_lossy(&from_view.stdout).contains("[memory-index] /when"), "{prompt}");
}

#[cfg(unix)]
fn inode(p: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(p).expect("view"))
}

#[cfg(unix)]
#[test]
fn an_unchanged_memory_is_answered_from_its_view_exactly_as_from_its_files() {
    let (tmp, root) = project();
    age();
    let cache = tmp.path().join("cache");
    let first = hook(&root, &cache, PROMPTS[0], "first");
    let kept = view(&cache).expect("the first prompt keeps a view");
    let ino = inode(&kept);
    for (i, p) in PROMPTS.iter().enumerate() {
        answered_alike(&root, &cache, &tmp.path().join(format!("fresh{i}")), p, &format!("v{i}"), &|| {
            vec![inode(&kept)]
        });
        assert_eq!(inode(&kept), ino, "answered from the view: it is not rewritten");
    }
    assert_eq!(hook(&root, &cache, PROMPTS[0], "v9").stdout, first.stdout);
    // A command about to run and a failure: from the view too, as from the files.
    let shell = [
        serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -f .git/index.lock"}}),
        serde_json::json!({"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": {"command": "git commit -m wip"},
            "error": "fatal: Unable to create '.git/index.lock': File exists."}),
    ];
    for (i, event) in shell.into_iter().enumerate() {
        let bin = Path::new(env!("CARGO_BIN_EXE_memory-index-lsp"));
        let run = |cache: &Path| run(bin, &root, cache, event.clone(), &format!("sh{i}")).stdout;
        let from_view = run(&cache);
        assert_eq!(inode(&kept), ino, "answered from the view");
        assert_eq!(from_view, run(&tmp.path().join(format!("shell{i}"))));
        assert!(
            String::from_utf8_lossy(&from_view).contains("Git Lock Error"),
            "{}",
            String::from_utf8_lossy(&from_view)
        );
    }
    // The session's memory holds: the same decision is not injected twice.
    assert!(hook(&root, &cache, PROMPTS[0], "v0").stdout.is_empty(), "already injected in session v0");
    // A short prompt (its letters, a typo): the first loads the memory and
    // keeps the letters file beside the view; the next answer from both.
    let letters = || kept.with_extension("names");
    assert!(!letters().exists(), "no short prompt yet, no letters file");
    let short = ["wirting mock tests", "test runner", "when git lock"];
    let first_short = hook(&root, &cache, short[0], "s-first");
    assert!(letters().exists(), "a short prompt keeps the letters");
    let inodes = || vec![inode(&kept), inode(&letters())];
    let before = inodes();
    for (i, p) in short.iter().enumerate() {
        answered_alike(&root, &cache, &tmp.path().join(format!("short{i}")), p, &format!("s{i}"), &inodes);
        assert_eq!(inodes(), before, "answered from the view and its letters: {p}");
    }
    assert_eq!(hook(&root, &cache, short[0], "s9").stdout, first_short.stdout);
}

#[cfg(unix)]
#[test]
fn a_changed_added_or_removed_file_is_read_at_once() {
    let (tmp, root) = project();
    age();
    let cache = tmp.path().join("cache");
    assert!(String::from_utf8_lossy(&hook(&root, &cache, PROMPTS[1], "a").stdout).contains("remove the lock"));
    assert!(view(&cache).is_some());
    // The injected section changes: the new text, never the view's.
    fs::write(
        root.join("agents/decisions/git.md"),
        GIT.replace("remove the lock only if", "delete the lock file when"),
    )
    .expect("edit");
    let out = String::from_utf8_lossy(&hook(&root, &cache, PROMPTS[1], "b").stdout).to_string();
    assert!(out.contains("delete the lock file when") && !out.contains("remove the lock"), "{out}");
    // A decision file removed with its entries: its decision is gone at once.
    fs::remove_file(root.join("agents/decisions/git.md")).expect("rm");
    fs::write(root.join("agents/memory-index.md"), INDEX.split("\n## agents/decisions/git.md").next().unwrap_or(INDEX))
        .expect("index");
    assert!(!String::from_utf8_lossy(&hook(&root, &cache, PROMPTS[1], "c").stdout).contains("Git Lock"));
    // After the files age, a new view is kept and answers as the files do.
    age();
    let from_files = hook(&root, &cache, PROMPTS[0], "d").stdout;
    let kept = view(&cache).expect("view");
    let ino = inode(&kept);
    assert_eq!(hook(&root, &cache, PROMPTS[0], "e").stdout, from_files);
    assert_eq!(inode(&kept), ino, "from the new view");
}

#[cfg(unix)]
#[test]
fn a_spoiled_view_costs_only_the_load() {
    let (tmp, root) = project();
    age();
    let cache = tmp.path().join("cache");
    let want = hook(&root, &cache, PROMPTS[0], "w").stdout;
    let path = view(&cache).expect("view");
    let good = fs::read(&path).expect("bytes");
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x5a;
    for (i, bad) in
        [good[..good.len() / 2].to_vec(), vec![0xA5; good.len()], Vec::new(), flipped].into_iter().enumerate()
    {
        fs::write(&path, &bad).expect("spoil");
        assert_eq!(hook(&root, &cache, PROMPTS[0], &format!("s{i}")).stdout, want, "spoiled view {i}");
    }
}

#[cfg(unix)]
#[test]
fn hooks_at_once_all_answer_alike_and_leave_one_whole_view() {
    let (tmp, root) = project();
    age();
    let cache = tmp.path().join("cache");
    let want = hook(&root, &tmp.path().join("alone"), PROMPTS[1], "x").stdout;
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let (root, cache) = (root.clone(), cache.clone());
            std::thread::spawn(move || hook(&root, &cache, PROMPTS[1], &format!("p{i}")).stdout)
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().expect("thread"), want);
    }
    let names: Vec<String> = fs::read_dir(cache.join("search"))
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.iter().filter(|n| n.ends_with(".view")).count(), 1, "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    // The view left is whole: the next hook answers from it.
    let kept = view(&cache).expect("view");
    let ino = inode(&kept);
    assert_eq!(hook(&root, &cache, PROMPTS[1], "after").stdout, want);
    assert_eq!(inode(&kept), ino);
}

#[cfg(unix)]
#[test]
fn a_view_is_trusted_only_by_the_program_that_wrote_it() {
    let (tmp, root) = project();
    // Another build of the program (here a copy: another file), aged with the memory.
    let other = tmp.path().join("other-build");
    fs::copy(env!("CARGO_BIN_EXE_memory-index-lsp"), &other).expect("copy");
    age();
    let cache = tmp.path().join("cache");
    let want = hook(&root, &cache, PROMPTS[0], "a").stdout;
    let ino = inode(&view(&cache).expect("view"));
    let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "prompt": PROMPTS[0]});
    assert_eq!(run(&other, &root, &cache, event, "b").stdout, want);
    assert_ne!(inode(&view(&cache).expect("view")), ino, "the other build loaded the memory and kept its own view");
}
