//! Memory against document size: `cargo bench -p memory-index-lsp --bench memory`.
//!
//! For two generated indexes of `MI_BENCH_MB` megabytes (default 20): one of
//! realistic entries bound to their decision files (three times the index's
//! size beside it), and one whose every line is an orphan entry (each line a
//! finding: the worst case per byte). For each it prints the peak resident
//! memory of the `check` process and of the language server after
//! initialize (the root loaded and checked), after the client opens the index
//! (the server reads the 20 MB `didOpen` off the wire) and after a one-line
//! edit of it, each also as a multiple of the size of the files loaded; and
//! the server's resident memory after 15 seconds of light use. Figures in `docs/performance.md`.

#[path = "../tests/it/support/gen.rs"]
mod gen;
#[path = "../tests/it/lsp_support/mod.rs"]
mod lsp_support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use lsp_support::*;
use serde_json::json;

/// A status field of a process, in MB.
fn status_mb(pid: u32, field: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Writes `files` under `root`.
fn write(root: &Path, files: &[(String, String)]) {
    for (p, t) in files {
        let path = root.join(p);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, t).expect("write");
    }
}

/// An index of about `bytes` of entries that share no word with the one
/// decision file's headings: every line an orphan.
fn orphans(bytes: usize) -> Vec<(String, String)> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words: Vec<String> = (0..5000)
        .map(|_| {
            let len = 4 + (next() % 6) as usize;
            (0..len).map(|_| (b'a' + (next() % 26) as u8) as char).collect()
        })
        .collect();
    let mut index = String::from("# Memory index\n\n## agents/decisions/core.md\n\n");
    let mut n = 0;
    while index.len() < bytes {
        index.push_str("/when");
        for _ in 0..6 {
            index.push(' ');
            index.push_str(&words[(next() % words.len() as u64) as usize]);
        }
        index.push_str(&format!(" {n}\n"));
        n += 1;
    }
    let mut core = String::from("# Core\n\n");
    for i in 0..20 {
        core.push_str(&format!("## When Handling Case {i}\n\nWhy case {i} is handled this way.\n\n"));
    }
    vec![("agents/memory-index.md".into(), index), ("agents/decisions/core.md".into(), core)]
}

fn measure(name: &str, root: &Path) {
    let index_path = root.join("agents/memory-index.md");
    let text = std::fs::read_to_string(&index_path).expect("index");
    let mb = text.len() as f64 / 1048576.0;
    let all = walk(root) as f64 / 1048576.0;
    // Memory per byte of what the server holds: every file it loads.
    let x = |v: f64| format!("{v:.0} MB ({:.1}×)", v / all);

    // The check process: its peak resident memory.
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("check")
        .arg(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("check");
    let pid = child.id();
    let mut peak = 0.0f64;
    loop {
        peak = peak.max(status_mb(pid, "VmHWM:"));
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let check_time = t.elapsed();

    // The server: loaded, the index opened, one edit.
    let index = uri(&index_path);
    let mut c = Client::spawn();
    let spid = c.child.id();
    c.initialize(root, true, json!({}));
    c.wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == index);
    let loaded = status_mb(spid, "VmHWM:");
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let line = text.lines().position(|l| l.starts_with("/when ")).expect("an entry") as u32;
    let _ = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": index}, "position": {"line": line, "character": 7}}),
    );
    let opened = status_mb(spid, "VmHWM:");
    c.seen.clear();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": index, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": line, "character": 6}, "end": {"line": line, "character": 6}}, "text": "q"}]}),
    );
    c.wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == index);
    let edited = status_mb(spid, "VmHWM:");
    // Later: the allocator keeps freed memory for reuse (opening the index
    // again does not grow the server) and returns it after about ten
    // seconds; a request a second meanwhile, as an editor's would come.
    for _ in 0..15 {
        std::thread::sleep(Duration::from_secs(1));
        let _ = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
        );
    }
    let idle = status_mb(spid, "VmRSS:");
    let _ = c.shutdown();

    println!(
        "| {name} | {mb:.1} MB, {all:.1} MB in all | {:.2} s, {} | {} | {} | {} | {} |",
        check_time.as_secs_f64(),
        x(peak),
        x(loaded),
        x(opened),
        x(edited),
        x(idle),
    );
}

/// Bytes of every file under `dir`.
fn walk(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| {
                    let p = e.path();
                    if p.is_dir() {
                        walk(&p)
                    } else {
                        e.metadata().map_or(0, |m| m.len())
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

fn main() {
    let mb: usize = std::env::var("MI_BENCH_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(20);
    let bytes = mb * 1024 * 1024;
    println!("Peak resident memory, and its multiple of the files' size (index and decision files):");
    println!(
        "| workspace | index, files | `check` time, peak RSS | server loaded | index opened | one edit | RSS 15 s later |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    // Realistic entries: about 70 bytes each in the generator's index.
    let entries = bytes / 70;
    let tmp = tempfile::tempdir().expect("tmp");
    write(tmp.path(), &gen::generate(entries, entries.div_ceil(20), 42));
    measure(&format!("{entries} entries"), &tmp.path().canonicalize().expect("canon"));
    let tmp = tempfile::tempdir().expect("tmp");
    write(tmp.path(), &orphans(bytes));
    measure("every line an orphan", &tmp.path().canonicalize().expect("canon"));
}
