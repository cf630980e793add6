//! Language-server latency over stdio against the release binary: cold start and one-line edits.
//!
//! `cargo bench -p memory-index-lsp --bench lsp` prints, for ../shared/corpus/head
//! (when present) and generated workspaces of 10,000 and 100,000 entries
//! (`MI_BENCH_SIZES` picks them): initialize → first complete set of
//! diagnostics (median of five server starts; one at 100,000 entries), the server's resident memory then, a one-line didChange in the
//! index → its publishDiagnostics (median and worst of 40 edits), and p50/p99
//! of completion, hover, definition, references and the index's document
//! symbols (200 requests each, after
//! ten warm-up requests that build the state's caches); then 100 edits of an
//! open decision file holding two invocations, each followed by a references
//! request (median and worst, and the resident memory every 25 edits). Wall
//! time on this machine.

#[path = "../tests/it/lsp_support/mod.rs"]
mod lsp_support;

use std::path::Path;
use std::time::{Duration, Instant};

use lsp_support::*;
#[path = "../tests/it/support/gen.rs"]
mod gen;
use gen::generate;
use serde_json::json;

/// Timed requests per navigation feature (after ten warm-up requests).
const SAMPLES: usize = 200;

fn measure(name: &str, root: &Path) {
    let root = root.canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");
    let files = std::fs::read_dir(root.join("agents/decisions")).map(|d| d.count()).unwrap_or(0) + 1;
    // Cold start: the median of several spawns (the first one after a build
    // also pays for loading the binary from disk); the last server stays up.
    let published = |c: &Client| {
        c.seen
            .iter()
            .filter(|m| m["method"] == "textDocument/publishDiagnostics")
            .map(|m| m["params"]["uri"].to_string())
            .collect::<std::collections::HashSet<_>>()
            .len()
    };
    let spawns = if text.len() > 2_000_000 { 1 } else { 5 };
    let mut colds = Vec::new();
    let mut c = loop {
        let mut c = Client::spawn();
        let t = Instant::now();
        c.initialize(&root, true, json!({}));
        while published(&c) < files {
            c.wait_more();
        }
        colds.push(t.elapsed());
        if colds.len() == spawns {
            break c;
        }
        let _ = c.shutdown();
    };
    colds.sort();
    let cold = colds[colds.len() / 2];
    let rss = std::fs::read_to_string(format!("/proc/{}/status", c.child.id()))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or("?".to_string(), |kb| format!("{:.0} MB", kb / 1024.0));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );
    // The first entry after the first section (preamble lines are never entries).
    let first_section = text.lines().position(|l| l.starts_with("## ")).unwrap_or(0);
    let (line, l) = text
        .lines()
        .enumerate()
        .skip(first_section)
        .find(|(_, l)| l.starts_with("/when ") || l.starts_with("/how "))
        .expect("an entry");
    let col = l.find(' ').unwrap_or(4) as u32 + 1;
    c.seen.clear();
    let mut times = Vec::new();
    for i in 0..40 {
        let insert = i % 2 == 0;
        let range = if insert {
            json!({"start": {"line": line, "character": col}, "end": {"line": line, "character": col}})
        } else {
            json!({"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}})
        };
        let change = json!({"range": range, "text": if insert { "q" } else { "" }});
        let t = Instant::now();
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": i + 2}, "contentChanges": [change]}),
        );
        c.wait(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == index);
        times.push(t.elapsed());
        c.seen.clear();
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:>28} | cold start {:>8.1} ms, RSS {rss} | one-line edit median {:>7.2} ms, worst {:>7.2} ms",
        ms(cold),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );
    // Navigation: p50 and p99 of 100 requests each.
    let skill = uri(&root.join("SKILL.md"));
    c.notify("textDocument/didOpen", json!({"textDocument": {"uri": skill, "languageId": "markdown", "version": 1, "text": "Recall:\n/when merg\n"}}));
    let decision = std::fs::read_dir(root.join("agents/decisions"))
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .min()
        .expect("a decision file");
    let dtext = std::fs::read_to_string(&decision).expect("read");
    let heading = |l: &str| ["### When", "## When", "### How", "## How"].iter().any(|p| l.starts_with(p));
    let hline = dtext.lines().position(heading).unwrap_or(0) as u32;
    let duri = uri(&decision);
    let requests: [(&str, &str, serde_json::Value); 5] = [
        (
            "completion",
            "textDocument/completion",
            json!({"textDocument": {"uri": skill}, "position": {"line": 1, "character": 10}}),
        ),
        (
            "hover",
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": line, "character": col + 2}}),
        ),
        (
            "definition",
            "textDocument/definition",
            json!({"textDocument": {"uri": index}, "position": {"line": line, "character": col + 2}}),
        ),
        (
            "references",
            "textDocument/references",
            json!({"textDocument": {"uri": duri}, "position": {"line": hline, "character": 6}, "context": {"includeDeclaration": true}}),
        ),
        ("index symbols", "textDocument/documentSymbol", json!({"textDocument": {"uri": index}})),
    ];
    let mut row = format!("{:>28} |", "");
    for (label, method, params) in requests {
        // Warm-up: the first requests after an edit or an open build the
        // state's caches (and may queue behind the publisher's check).
        for _ in 0..10 {
            let _ = c.request(method, params.clone());
            c.seen.clear();
        }
        let mut t: Vec<Duration> = (0..SAMPLES)
            .map(|_| {
                let start = Instant::now();
                let r = c.request(method, params.clone());
                assert!(r.get("error").is_none(), "{method}: {r}");
                c.seen.clear();
                start.elapsed()
            })
            .collect();
        t.sort();
        // Nearest rank: the 50th and 99th percentiles of SAMPLES.
        let (p50, p99) = (t[SAMPLES / 2 - 1], t[SAMPLES * 99 / 100 - 1]);
        row.push_str(&format!(" {label} p50 {:.2} / p99 {:.2} ms |", ms(p50), ms(p99)));
    }
    println!("{row}");
    edits_then_references(&mut c, &duri, &dtext, hline, &text);
    let _ = c.shutdown();
}

/// Resident memory of the server, in MB.
fn rss_mb(c: &Client) -> f64 {
    std::fs::read_to_string(format!("/proc/{}/status", c.child.id()))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// 100 edits of an open decision file that holds invocation lines (an exact
/// trigger and a worded one, which the ranking answers), each followed by a
/// references request on its heading: the request's time after each edit
/// (median, worst) and the server's resident memory every 25 edits.
fn edits_then_references(c: &mut Client, duri: &str, dtext: &str, hline: u32, index: &str) {
    let first = index.lines().find_map(|l| l.strip_prefix("/when ")).map(|l| l.split(" | ").next().unwrap_or(l));
    let Some(trigger) = first else { return };
    let worded: Vec<&str> = trigger.split_whitespace().collect();
    let worded = worded.iter().rev().copied().collect::<Vec<_>>().join(" ");
    let text = format!("{dtext}\nSee /when {trigger} and /when {worded}.\n");
    let last = text.lines().count() as u32 - 1;
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": duri, "languageId": "markdown", "version": 1, "text": text}}),
    );
    let refs = json!({"textDocument": {"uri": duri}, "position": {"line": hline, "character": 6}, "context": {"includeDeclaration": true}});
    let _ = c.request("textDocument/references", refs.clone());
    c.seen.clear();
    let mut rss = vec![rss_mb(c)];
    let mut times = Vec::new();
    for i in 0..100u32 {
        let change = if i % 2 == 0 {
            json!({"range": {"start": {"line": last, "character": 0}, "end": {"line": last, "character": 0}}, "text": "x"})
        } else {
            json!({"range": {"start": {"line": last, "character": 0}, "end": {"line": last, "character": 1}}, "text": ""})
        };
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": duri, "version": i + 2}, "contentChanges": [change]}),
        );
        let t = Instant::now();
        let r = c.request("textDocument/references", refs.clone());
        times.push(t.elapsed());
        assert!(r.get("error").is_none(), "references: {r}");
        c.seen.clear();
        if (i + 1) % 25 == 0 {
            rss.push(rss_mb(c));
        }
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let rss: Vec<String> = rss.iter().map(|m| format!("{m:.0}")).collect();
    println!(
        "{:>28} | references after an edit of an open decision file with invocations: median {:.2} ms, worst {:.2} ms; RSS every 25 edits {} MB",
        "",
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1]),
        rss.join(" → ")
    );
}

fn main() {
    let head = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/head");
    if head.join("agents/memory-index.md").is_file() {
        let tmp = tempfile::tempdir().expect("tmp");
        copy(&head.join("agents"), &tmp.path().join("agents"));
        measure("corpus head (~400 entries)", tmp.path());
    } else {
        eprintln!("skipped: ../shared/corpus/head is absent");
    }
    let sizes = std::env::var("MI_BENCH_SIZES").unwrap_or_else(|_| "10000,100000".into());
    for n in sizes.split(',').filter_map(|s| s.trim().parse::<usize>().ok()) {
        let tmp = tempfile::tempdir().expect("tmp");
        for (p, t) in generate(n, n.div_ceil(20), 42) {
            let path = tmp.path().join(p);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, t).expect("write");
        }
        measure(&format!("generated, {n} entries"), tmp.path());
    }
}
