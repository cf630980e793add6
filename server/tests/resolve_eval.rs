//! Recall on the development set (tests/data/resolve-devset.tsv) against ../shared/corpus/head.
//!
//! Prints top-1 accuracy per kind (run with `--nocapture` to see the table) and
//! fails when recall regresses below the targets: every exact query and extra
//! resolves to its own heading, at least 90% overall, and every off-topic query
//! is "No match".

mod support;

use std::collections::BTreeMap;

use memory_index_lsp::ide::resolve::resolve;
use support::*;

#[test]
fn development_set_accuracy() {
    let Some(head) = corpus("head") else { return };
    let ws = memory_index_lsp::load::load(&head).expect("load");
    let data = std::fs::read_to_string(repo().join("server/tests/data/resolve-devset.tsv")).expect("dev set");
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for row in data.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let [kind, query, expected] = cols[..] else { panic!("bad row {row:?}") };
        let got = resolve(&ws, query, false);
        let ok = match (&got, expected.is_empty()) {
            (Err(e), true) => e.starts_with("No match"),
            (Ok(r), false) => r.text.starts_with(&format!("# {expected}\n")),
            _ => false,
        };
        let slot = per_kind.entry(kind.to_string()).or_default();
        slot.1 += 1;
        if ok {
            slot.0 += 1;
        } else {
            let shown = got
                .map(|r| r.text.lines().next().unwrap_or("").to_string())
                .unwrap_or_else(|e| e.lines().next().unwrap_or("").to_string());
            failures.push(format!("{kind:>10} | {query} | want {expected:?} | got {shown}"));
        }
    }
    let (hits, total) = per_kind.values().fold((0, 0), |a, v| (a.0 + v.0, a.1 + v.1));
    println!("| kind | queries | top-1 |\n| --- | --- | --- |");
    for (k, (h, t)) in &per_kind {
        println!("| {k} | {t} | {:.0}% |", 100.0 * *h as f64 / *t as f64);
    }
    println!("| all | {total} | {:.1}% |", 100.0 * hits as f64 / total as f64);
    for f in &failures {
        println!("miss: {f}");
    }
    assert!(total >= 100);
    let full = |k: &str| per_kind.get(k).is_some_and(|(h, t)| h == t);
    assert!(full("exact") && full("extra"), "every exact query and extra must resolve: {failures:#?}");
    assert!(full("offtopic"), "off-topic queries must be No match: {failures:#?}");
    assert!(hits * 10 >= total * 9, "top-1 {hits}/{total} is under 90%: {failures:#?}");
}
