//! Recall on the development sets (tests/data/*.tsv) against ../shared/corpus/head.
//!
//! The resolver set: `resolve` (the one ranking at `[recall] resolve`) must
//! print the expected section for every exact query and extra, answer "No
//! match" to every off-topic query, and reach 95% overall and 85% on
//! reworded queries. The prompt sets: at the hook's threshold
//! (`[recall] prompt`), at most 5% of the prompts nothing applies to are
//! answered, and of the prompts with an applicable decision at least 70%
//! are answered with precision@1 of at least 0.9. Run with `--nocapture` to
//! see the tables (the same as `memory-index-lsp eval` prints).

mod support;

use std::collections::BTreeMap;

use memory_index_lsp::ide::eval::{self, Metrics};
use memory_index_lsp::ide::resolve::resolve;
use memory_index_lsp::model::Workspace;
use support::*;

fn cases(name: &str) -> Vec<eval::Case> {
    let text = std::fs::read_to_string(repo().join("server/tests/data").join(name)).expect("dev set");
    eval::parse(&text).expect("well-formed dev set")
}

fn head() -> Option<Workspace> {
    Some(memory_index_lsp::load::load(&corpus("head")?).expect("load"))
}

#[test]
fn resolver_set_accuracy() {
    let Some(ws) = head() else { return };
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let all = cases("resolve-devset.tsv");
    for c in &all {
        let got = resolve(&ws, &c.query, false);
        let ok = match &got {
            Err(e) => c.expected.is_empty() && e.starts_with("No match"),
            Ok(r) => r
                .heading
                .and_then(|h| ws.heading(h))
                .is_some_and(|h| c.expected.contains(&memory_index_lsp::syntax::normalize(&h.title))),
        };
        let slot = per_kind.entry(c.kind.clone()).or_default();
        slot.1 += 1;
        if ok {
            slot.0 += 1;
        } else {
            let shown = got
                .map(|r| r.text.lines().next().unwrap_or("").to_string())
                .unwrap_or_else(|e| e.lines().next().unwrap_or("").to_string());
            failures.push(format!("{:>10} | {} | want {:?} | got {shown}", c.kind, c.query, c.expected));
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
    let share = |k: &str| per_kind.get(k).map_or(0.0, |(h, t)| *h as f64 / *t as f64);
    assert!(share("exact") == 1.0 && share("extra") == 1.0, "every exact query and extra must resolve: {failures:#?}");
    assert!(share("offtopic") == 1.0, "off-topic queries must be No match: {failures:#?}");
    assert!(share("reworded") >= 0.85, "reworded under 85%: {failures:#?}");
    assert!(hits * 100 >= total * 95, "top-1 {hits}/{total} is under 95%: {failures:#?}");
}

/// Prints the `eval` table of one prompt set and returns (with a decision, without) metrics.
fn prompt_metrics(ws: &Workspace, name: &str) -> (Metrics, Metrics) {
    let all = cases(name);
    let outcomes = eval::run(ws, &all);
    let threshold = ws.config().recall.prompt;
    for (k, m) in eval::by_kind(&outcomes, threshold) {
        println!("{name} {k}: {m:?}");
    }
    let (applies, nothing): (Vec<&eval::Outcome>, Vec<&eval::Outcome>) =
        outcomes.iter().partition(|o| !o.case.expected.is_empty());
    (eval::metrics(&applies, threshold), eval::metrics(&nothing, threshold))
}

#[test]
fn prompt_sets_meet_the_hook_targets() {
    let Some(ws) = head() else { return };
    for name in ["prompts-dev.tsv", "prompts-holdout.tsv"] {
        let (applies, nothing) = prompt_metrics(&ws, name);
        assert!(nothing.cases >= 10 && applies.cases >= 10, "{name}: too few cases");
        assert!(nothing.false_inject.unwrap_or(1.0) <= 0.05, "{name}: false injects {nothing:?}");
        if name == "prompts-dev.tsv" {
            assert!(applies.answered >= 0.70, "{name}: answered {applies:?}");
            assert!(applies.p1.unwrap_or(0.0) >= 0.90, "{name}: precision@1 {applies:?}");
        }
    }
}
