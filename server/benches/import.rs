//! Import figures: planning the import of a rules file of N sections (1,000 to 8,000) into an empty memory.
//!
//! `cargo bench -p memory-index-lsp --bench import` prints, for each N, the
//! time to parse the source and the time to plan its import (headings,
//! bodies, line budgets, every entry placed and verified to resolve) on a
//! memory with no decision yet: the first import of a large `CLAUDE.md`,
//! or of a folder of records. Titles are generated (`tests/it/support/gen.rs`'s
//! triggers, each made a section title). Budget (issue 52): 8,000 records
//! under 2 s; the figures grow with N, not N² (docs/performance.md). Wall
//! time on a shared 2-core VM: read it as an indication.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Instant;

#[path = "../tests/it/support/gen.rs"]
mod gen;

use memory_index_lsp::model::{Config, FileText, Workspace};
use memory_index_lsp::recall::import::{plan, source, Options};

/// A rules file of `n` sections, each titled by one of a generated memory's headings.
fn rules(n: usize) -> String {
    let mut out = String::from("# Project Rules\n\nHow we work here.\n");
    let files = gen::generate(n, n.div_ceil(200), 7);
    let mut count = 0;
    for (path, text) in &files {
        if !path.starts_with("agents/decisions/") {
            continue;
        }
        for line in text.lines().filter_map(|l| l.strip_prefix("### ")) {
            let title = line.trim_start_matches("When ").trim_start_matches("How to ");
            out.push_str(&format!("\n## {title}\n\nAlways {title} the same way; review it first.\n"));
            count += 1;
        }
    }
    assert_eq!(count, n, "one section a generated heading");
    out
}

fn main() {
    println!("| sections | parse | plan (first import) |");
    println!("| --- | --- | --- |");
    let sizes: Vec<usize> = std::env::var("MI_IMPORT_SIZES")
        .ok()
        .map_or(vec![1000, 2000, 4000, 8000], |v| v.split(",").filter_map(|x| x.parse().ok()).collect());
    for n in sizes {
        let text = rules(n);
        let mut ws = Workspace::new(Config::default());
        ws.set_file("agents/memory-index.md", FileText::from("# Memory Index\n"));
        let t = Instant::now();
        let records = source::parse("CLAUDE.md", &text).expect("sections");
        let parsed = t.elapsed();
        assert_eq!(records.len(), n);
        let t = Instant::now();
        let out = plan(&ws, records, &Options::default()).expect("a plan");
        let planned = t.elapsed();
        assert_eq!(out.imported.len() + out.skipped.len(), n, "every record imported or named");
        println!(
            "| {n} | {:.0} ms | {:.2} s ({} imported, {} skipped) |",
            parsed.as_secs_f64() * 1e3,
            planned.as_secs_f64(),
            out.imported.len(),
            out.skipped.len()
        );
    }
}
