//! Scale figures on generated workspaces: full in-process check and a one-line index edit.
//!
//! `cargo bench -p memory-index-lsp --bench scale` prints a table (median of
//! several runs; wall time on this machine, so read it as an indication).
//! `MI_BENCH_SIZES=400,10000` picks the sizes (default 400, 10000, 100000).

// As in the binary (see src/main.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::{Duration, Instant};

use memory_index_lsp::cli::gen::generate;
use memory_index_lsp::model::{FileText, Workspace};
use memory_index_lsp::rules;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn build(files: &[(String, String)]) -> Workspace {
    let mut ws = Workspace::default();
    for (p, t) in files {
        ws.set_file(p, FileText::from(t.as_str()));
    }
    ws
}

fn main() {
    println!("{:>9} | {:>16} | {:>16} | {:>9}", "entries", "full check", "one-line edit", "findings");
    let sizes = std::env::var("MI_BENCH_SIZES").unwrap_or_else(|_| "400,10000,100000".into());
    for entries in sizes.split(',').filter_map(|s| s.trim().parse::<usize>().ok()) {
        let runs = if entries >= 100_000 {
            3
        } else if entries >= 10_000 {
            5
        } else {
            20
        };
        let files = generate(entries, entries.div_ceil(20), 42);
        let full = median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    let n = rules::check(&build(&files)).len();
                    std::hint::black_box(n);
                    t.elapsed()
                })
                .collect(),
        );
        let mut ws = build(&files);
        let n = rules::check(&ws).len();
        let index = files[0].1.clone();
        let edit = median(
            (0..runs)
                .map(|i| {
                    let text = index.replacen("/when ", if i % 2 == 0 { "/when  " } else { "/when " }, 1);
                    let t = Instant::now();
                    ws.set_file("agents/memory-index.md", FileText::from(text));
                    std::hint::black_box(rules::check(&ws).len());
                    t.elapsed()
                })
                .collect(),
        );
        println!(
            "{entries:>9} | {:>13.2} ms | {:>13.2} ms | {n:>9}",
            full.as_secs_f64() * 1e3,
            edit.as_secs_f64() * 1e3
        );
    }
}
