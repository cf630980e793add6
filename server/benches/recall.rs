//! Recall figures: ranking a 60-word prompt in-process, and the `search`, `resolve` and `hook` processes beside `cat` of the same files.
//!
//! `cargo bench -p memory-index-lsp --bench recall` prints one table for
//! ../shared/corpus/head (when present) and a generated workspace of
//! 10,000 entries: the in-process ranking of a 60-word prompt on a loaded
//! workspace (median of 200, after the first call built the caches), and the
//! median wall time of 30 runs of each process (release binary; the hook
//! on a prompt and before a shell command; `search` without and with the
//! search index's snapshot, `project::search_cache`; the hook on a prompt
//! without and with the snapshot and the recall view,
//! `project::recall_cache`), with `cat`
//! of every index and decision file as the floor. Wall time on a shared
//! 2-core VM: read it as an indication. Budgets (issue 16 and 17): ranking
//! under 1 ms on head and 10 ms at 10,000 entries; each process under 10 ms
//! on head and 50 ms at 10,000 entries.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/it/support/gen.rs"]
mod gen;

use memory_index_lsp::search::recall::recall;

const PROMPT: &str = "the deploy script broke after I renamed the worker and now the review gates fail on the merge \
    of the session cache branch, so before I touch the parser again: what did we decide about writing mock tests \
    for the index, and should the worktree keep its own copy of the cache while the tests run in parallel on CI";

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// Median wall time of `runs` runs of a command (stdin from `input`).
fn process(runs: usize, mut cmd: impl FnMut() -> Command, input: &[u8]) -> Duration {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                let mut child =
                    cmd().stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("spawn");
                if let Some(mut s) = child.stdin.take() {
                    let _ = s.write_all(input);
                }
                let _ = child.wait();
                t.elapsed()
            })
            .collect(),
    )
}

fn files_of(root: &Path) -> Vec<PathBuf> {
    let mut v = vec![root.join("agents/memory-index.md")];
    if let Ok(rd) = std::fs::read_dir(root.join("agents/decisions")) {
        v.extend(rd.filter_map(Result::ok).map(|e| e.path()));
    }
    v
}

fn row(name: &str, root: &Path, bin: &Path) {
    let ws = memory_index_lsp::project::load::load(root).expect("load");
    let _ = recall(&ws, PROMPT, 5);
    let inproc = median(
        (0..200)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(recall(&ws, std::hint::black_box(PROMPT), 5));
                t.elapsed()
            })
            .collect(),
    );
    let files = files_of(root);
    let cat = process(
        30,
        || {
            let mut c = Command::new("cat");
            c.args(&files);
            c
        },
        b"",
    );
    // Without a snapshot (a state directory that cannot exist), then with one (built by the first run).
    let cache = std::env::temp_dir().join(format!("mi-bench-cache-{}", std::process::id()));
    let search_at = |dir: &Path| {
        process(
            30,
            || {
                let mut c = Command::new(bin);
                c.env("MEMORY_INDEX_LSP_CACHE_DIR", dir).args(["search", "--root"]).arg(root).arg(PROMPT);
                c
            },
            b"",
        )
    };
    let search_cold = search_at(Path::new("/dev/null/no-cache"));
    let search = search_at(&cache);
    let resolve = process(
        30,
        || {
            let mut c = Command::new(bin);
            c.args(["resolve", "--root"]).arg(root).arg("when writing mock tests");
            c
        },
        b"",
    );
    let hook_input = serde_json::json!({
        "hook_event_name": "UserPromptSubmit", "session_id": format!("bench-{}", std::process::id()),
        "transcript_path": "/dev/null", "cwd": root, "prompt": PROMPT,
    })
    .to_string();
    // The hook on `input`, with its state (sessions, the snapshot) in `dir`.
    let hook_at = |dir: &Path, input: &str| {
        process(
            30,
            || {
                let mut c = Command::new(bin);
                c.arg("hook").env("MEMORY_INDEX_LSP_CACHE_DIR", dir).env_remove("CLAUDE_PROJECT_DIR");
                c
            },
            input.as_bytes(),
        )
    };
    let hook_cold = hook_at(Path::new("/dev/null/no-cache"), &hook_input);
    // The first run keeps the snapshot and the recall view (`project::recall_cache`); the others answer from them.
    let hook = hook_at(&cache, &hook_input);
    // Before a shell command: the prose ranking and the code evidence (`search::commands`).
    let command_input = serde_json::json!({
        "hook_event_name": "PreToolUse", "session_id": format!("bench-cmd-{}", std::process::id()),
        "transcript_path": "/dev/null", "cwd": root, "tool_name": "Bash",
        "tool_input": {"command": "git branch -D wt-x && rm -f .git/index.lock"},
    })
    .to_string();
    let command_hook = hook_at(&cache, &command_input);
    // A short prompt: the letters-in-order tier (a word form here), from the view's names.
    let short_input = serde_json::json!({
        "hook_event_name": "UserPromptSubmit", "session_id": format!("bench-short-{}", std::process::id()),
        "transcript_path": "/dev/null", "cwd": root, "prompt": "when writing mocks",
    })
    .to_string();
    let short_hook = hook_at(&cache, &short_input);
    let _ = std::fs::remove_dir_all(&cache);
    println!(
        "| {name} | {} | {} | {} / {} | {} | {} / {} | {} | {} | {} |",
        ws.bindings().entries.len(),
        ms(inproc),
        ms(search_cold),
        ms(search),
        ms(resolve),
        ms(hook_cold),
        ms(hook),
        ms(short_hook),
        ms(command_hook),
        ms(cat)
    );
}

/// The prompt hook with `[recall] semantic = true` on a copy of `root`,
/// its decisions embedded first (`embed`), against the same hook without it.
fn semantic_row(name: &str, root: &Path, bin: &Path, model: &Path) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let copy = tmp.path().join("memory");
    let cp = Command::new("cp").arg("-r").arg(root).arg(&copy).status().expect("cp");
    assert!(cp.success());
    let state = tmp.path().join("state");
    let with = |c: &mut Command| {
        c.env("MEMORY_INDEX_LSP_CACHE_DIR", &state)
            .env("MEMORY_INDEX_LSP_MODEL", model)
            .env_remove("CLAUDE_PROJECT_DIR");
    };
    let input = |session: &str| {
        serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": copy, "prompt": PROMPT})
            .to_string()
    };
    let hook = |session: &str| {
        process(
            30,
            || {
                let mut c = Command::new(bin);
                c.arg("hook");
                with(&mut c);
                c
            },
            input(session).as_bytes(),
        )
    };
    let lexical = hook("lexical");
    let config = copy.join("memory-index.toml");
    let old = std::fs::read_to_string(&config).unwrap_or_default();
    std::fs::write(&config, format!("{old}\n[recall]\nsemantic = true\n")).expect("config");
    let t = Instant::now();
    let mut embed = Command::new(bin);
    embed.args(["embed", "--quiet", "--root"]).arg(&copy);
    with(&mut embed);
    assert!(embed.status().expect("embed").success(), "embed failed");
    let embed_time = t.elapsed();
    let semantic = hook("semantic");
    println!("| {name} | {} | {} | {:.1} s |", ms(lexical), ms(semantic), embed_time.as_secs_f64());
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let status = Command::new("cargo")
        .args(["build", "--release", "--quiet", "--bin", "memory-index-lsp"])
        .current_dir(&repo)
        .status()
        .expect("cargo build");
    assert!(status.success(), "release build failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or(repo.join("target"), PathBuf::from);
    let bin = target.join("release/memory-index-lsp");
    // A program built within `RACY` is not trusted by the recall view (it stamps itself): let it age.
    let age = std::fs::metadata(&bin).and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
    if age.is_none_or(|a| a < memory_index_lsp::project::recall_cache::RACY) {
        std::thread::sleep(memory_index_lsp::project::recall_cache::RACY + Duration::from_millis(200));
    }
    println!("60-word prompt; medians; `cat` reads every index and decision file\n");
    println!(
        "| workspace | entries | ranking in-process | search process (no snapshot / snapshot) | resolve process | hook process, prompt (nothing kept / snapshot and view) | hook process, short prompt | hook process (command) | cat |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let head = repo.join("../shared/corpus/head");
    if head.join("agents/memory-index.md").is_file() {
        row("corpus head", &head, &bin);
    } else {
        println!("(../shared/corpus/head is absent: skipped)");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, text) in gen::generate(10_000, 100, 1) {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
    // Files changed within `RACY` are not trusted by the recall view: let them age.
    std::thread::sleep(memory_index_lsp::project::recall_cache::RACY + Duration::from_millis(200));
    row("generated 10k", dir.path(), &bin);
    // The semantic tier (`[recall] semantic`), when the model is here (tests/tools/fetch-model.sh).
    let model = std::env::var_os("MEMORY_INDEX_LSP_MODEL")
        .map_or_else(|| repo.join("target/models/all-MiniLM-L6-v2"), PathBuf::from);
    println!("\n| workspace | hook process, prompt | with `[recall] semantic` | `embed` (every decision, once) |");
    println!("| --- | --- | --- | --- |");
    if !model.join("model.safetensors").is_file() {
        println!("(no model in {}: skipped; tests/tools/fetch-model.sh fetches it)", model.display());
    } else if head.join("agents/memory-index.md").is_file() {
        semantic_row("corpus head", &head, &bin, &model);
    } else {
        println!("(../shared/corpus/head is absent: skipped)");
    }
}
