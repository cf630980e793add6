//! Engine benchmarks: a full in-process check of the real corpus (and fix-all), printed by criterion.
//!
//! `cargo bench -p memory-index-lsp --bench engine`. Reads ../shared/corpus/head
//! when present (skips with a message otherwise).

/// The allocator the shipped binary uses (`src/main.rs`), so in-process figures match it.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion};
use memory_index_lsp::model::{FileText, Workspace};
use memory_index_lsp::project::load;
use memory_index_lsp::{ide, rules};

fn corpus() -> Option<Workspace> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/head");
    match load::load(&root) {
        Ok(ws) if ws.index().is_some() => Some(ws),
        _ => {
            eprintln!("skipped: ../shared/corpus/head is absent");
            None
        }
    }
}

/// A full check from texts: parse every file, bind, run every rule.
fn full_check(files: &[(String, String)]) -> usize {
    let mut ws = Workspace::default();
    for (p, t) in files {
        ws.set_file(p, FileText::from(t.as_str()));
    }
    rules::check(&ws).len()
}

fn bench(c: &mut Criterion) {
    let Some(ws) = corpus() else { return };
    let files: Vec<(String, String)> = ws.files().map(|(_, f)| (f.path.clone(), f.text.clone())).collect();
    c.bench_function("check head (parse + bind + all rules)", |b| b.iter(|| full_check(&files)));
    c.bench_function("rules only on head (parsed)", |b| b.iter(|| rules::check(&ws).len()));
    let _ = ws.bindings();
    c.bench_function("resolve one trigger on head (exact)", |b| {
        b.iter(|| ide::resolve::resolve(&ws, "how encode file paths", true).map(|r| r.text.len()))
    });
    c.bench_function("resolve one trigger on head (typo, fuzzy)", |b| {
        b.iter(|| ide::resolve::resolve(&ws, "when wirting cli output", true).map(|r| r.text.len()))
    });
    c.bench_function("resolve on head (reworded, BM25 fallback)", |b| {
        b.iter(|| ide::resolve::resolve(&ws, "when patching mocks correctly", true).map(|r| r.text.len()))
    });
    c.bench_function("resolve on head (no match)", |b| {
        b.iter(|| ide::resolve::resolve(&ws, "kubernetes pod autoscaling", true).is_err())
    });
    let titles: Vec<String> = ws
        .decisions()
        .flat_map(|(_, _, d)| d.headings.iter().filter(|h| h.is_semantic()).map(|h| h.title.clone()))
        .collect();
    let mut group = c.benchmark_group("compress-key");
    group.sample_size(10);
    group.bench_function(format!("every heading of head ({})", titles.len()), |b| {
        b.iter(|| titles.iter().filter_map(|t| ide::compress::compress_title(&ws, t)).count())
    });
    group.finish();
    c.bench_function("fix-all on head", |b| {
        b.iter(|| {
            let mut w = ws.clone();
            ide::fix_all::fix_all(&mut w).change.edits.len()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
