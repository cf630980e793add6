//! `memory-index-lsp eval FILE [--root DIR] [--threshold C] [--json] [--misses] [--features OUT] [--semantic]`: recall metrics on labelled queries.
//!
//! Prints a Markdown table per kind and overall (see `recall::eval` for the
//! file format and what each column means), then the calibration table.
//! Each case counts as answered from the hook's threshold for its kind
//! (`[recall] prompt`; `command` for kinds starting `command`, `error` for
//! kinds starting `error`); `--threshold C` sets one for all. `--misses`
//! lists the cases answered wrong or left silent, each with its first
//! answer, its confidence and what that came from (`words`, `code`, …);
//! `--features OUT` writes each case's
//! first-result features as TSV for `tests/tools/fit_recall.py` (with a
//! `cos` column under `--semantic`, which ranks as `[recall] semantic =
//! true` does). An expected title that is no heading of the memory is
//! named on stderr (a typo in the labels). Exit 0;
//! 2 when the file is unreadable or malformed (the line is named), or
//! `--semantic` was given and the model cannot be loaded (only configured:
//! ranked by words, as the hook then is, with a note on stderr).

use super::args::EvalArgs;
use super::usage_error;
use crate::recall::eval::{self, Metrics, Outcome};
use crate::search::recall::Features;
use std::fmt::Write as _;

/// Largest labelled file read (bytes): a FIFO, a device or a larger file is refused, never read without end.
const MAX_FILE: u64 = 64 << 20;

/// Writes an output file the person named through the safe writer: created,
/// or replaced only if it is still what was read (never through a FIFO or device).
fn write_output(path: &std::path::Path, text: &str) -> Result<(), String> {
    use crate::project::{read, write};
    match read::read_text(None, path, MAX_FILE) {
        Ok(old) => write::replace(path, &old, text).map_err(|e| e.to_string()),
        Err(read::ReadError::NotFound) => write::create(path, text).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// Runs `eval`; returns the exit code.
pub fn run(a: EvalArgs) -> i32 {
    let (root, file, threshold, json, misses, features) = (a.root, a.file, a.threshold, a.json, a.misses, a.features);
    let semantic = a.semantic;
    let text = match crate::project::read::read_text(None, std::path::Path::new(&file), MAX_FILE) {
        Ok(t) => t,
        Err(e) => return usage_error(&format!("cannot read {file}: {e}")),
    };
    let cases = match eval::parse(&text) {
        Ok(c) => c,
        Err(e) => return usage_error(&format!("{file}: {e}")),
    };
    let (root, ws) = match super::load_project(root) {
        Ok(x) => x,
        Err(code) => return code,
    };
    // A label that names no heading is counted as missed or wrong: say which, once each (at its first line).
    let mut said = std::collections::HashSet::new();
    for (line, title) in eval::unknown_titles(&ws, &cases) {
        if !said.insert(title.clone()) {
            continue;
        }
        eprintln!("memory-index-lsp: note: {file}:{line}: `{title}` is no heading of this memory (a typo?); the case cannot be answered right");
    }
    // The semantic tier, as the hook would use it, with every decision embedded first.
    // Only when asked (`--semantic`, `semantic = true`): unset, the tables stay words-only and comparable.
    let tier = if semantic || ws.config().recall.semantic == Some(true) {
        match crate::project::semantic::Tier::open(&ws, &root, true) {
            Ok(t) => {
                t.embed_all(&ws);
                t.save(&ws);
                Some(t)
            }
            // Asked for on the command line: an error; only configured: ranked as the hook would, by words.
            Err(e) if semantic => return usage_error(&e),
            Err(e) => {
                eprintln!("memory-index-lsp eval: {e}; ranked by words only, as the hook would");
                None
            }
        }
    } else {
        None
    };
    let r = &ws.config().recall;
    let (prompt, command, error) = match threshold {
        Some(t) => (t, t, t),
        None => (r.prompt, r.command, r.error),
    };
    let (p_floor, c_floor, e_floor) = match a.pointer {
        Some(f) => (f, f, f),
        None => (r.prompt_pointer, r.command_pointer, r.error_pointer),
    };
    let threshold_of = move |kind: &str| eval::threshold_for(kind, prompt, command, error);
    let (bodies, pointers) = (r.max_decisions as usize, r.max_pointers as usize);
    let meaning = if tier.is_some() { a.meaning.unwrap_or(r.meaning_pointer) } else { f64::INFINITY };
    let tiers_of = move |kind: &str| eval::Tiers {
        threshold: threshold_of(kind),
        pointer: eval::threshold_for(kind, p_floor, c_floor, e_floor),
        bodies,
        pointers,
        meaning,
    };
    let outcomes = eval::run(&ws, &cases, tier.as_ref().map(|t| t as &dyn crate::search::semantic::Cosines));
    if let Some(out) = features {
        if let Err(e) = write_output(std::path::Path::new(&out), &features_tsv(&outcomes, tier.is_some())) {
            return usage_error(&format!("cannot write {out}: {e}"));
        }
    }
    let table = eval::by_kind(&outcomes, &tiers_of);
    let bins = eval::calibration(&outcomes);
    let cumulative = eval::at_or_above(&outcomes);
    let kinds: Vec<&str> = outcomes.iter().map(|o| o.case.kind.as_str()).collect();
    let used = |p: &dyn Fn(&&str) -> bool| kinds.iter().any(p);
    let mut said = format!("{prompt:.2}");
    if used(&|k| k.starts_with("command")) && command != prompt {
        said.push_str(&format!(" (command kinds {command:.2}"));
        said.push_str(if used(&|k| k.starts_with("error")) && error != prompt { "," } else { ")" });
    }
    if used(&|k| k.starts_with("error")) && error != prompt {
        said.push_str(&format!("{}error kinds {error:.2})", if said.ends_with(',') { " " } else { " (" }));
    }
    let text = if json {
        to_json(&table, &bins, &cumulative, prompt, command, error)
    } else {
        human(&table, &bins, &cumulative, &said)
    };
    let text = if misses { format!("{text}{}", miss_list(&outcomes, &threshold_of)) } else { text };
    super::emit(&text).unwrap_or(0)
}

fn pct(x: Option<f64>) -> String {
    x.map_or("n/a".into(), |v| format!("{:.0}%", 100.0 * v))
}

fn human(
    table: &[(String, Metrics)],
    bins: &std::collections::BTreeMap<u32, (usize, usize)>,
    cumulative: &[(f64, usize, usize)],
    threshold: &str,
) -> String {
    let mut s = format!("Answers at confidence >= {threshold}\n\n");
    s.push_str(
        "| kind | cases | right | answered | P@1 | P@3 | R@10 | MRR | missed | false-inject | reachable | pointed | \
         noise lines |\n",
    );
    s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (k, m) in table {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            k.replace('|', "\\|"),
            m.cases,
            pct(Some(m.top1)),
            pct(Some(m.answered)),
            pct(m.p1),
            pct(m.p3),
            pct(m.r10),
            m.mrr.map_or("n/a".into(), |v| format!("{v:.2}")),
            pct(m.missed),
            pct(m.false_inject),
            pct(m.reachable),
            pct(Some(m.pointed)),
            pct(m.noise_lines),
        );
    }
    s.push_str(
        "\nright: answered right (silence for `-`). P@1, P@3: of the answers given (at or above the \
         threshold), the share right; a case left silent is a miss, not a wrong answer. R@10, MRR: \
         where the expected decision ranks, whatever the confidence. reachable: the expected decision \
         injected or pointed at (below the threshold, the hook points at candidates from the pointer floor). \
         pointed: cases given pointers only. noise lines: `-` cases given any line.\n",
    );
    s.push_str("\nCalibration (first result of every case that has one)\n\n| confidence | cases | right |\n| --- | --- | --- |\n");
    for (bin, (n, right)) in bins {
        let lo = *bin as f64 / 10.0;
        let _ = writeln!(s, "| {lo:.1}-{:.1} | {n} | {:.0}% |", lo + 0.1, 100.0 * *right as f64 / *n as f64);
    }
    s.push_str("\nAnswers at or above each confidence\n\n| confidence >= | answers | right |\n| --- | --- | --- |\n");
    for (c, n, right) in cumulative.iter().filter(|x| x.1 > 0) {
        let _ = writeln!(s, "| {c:.1} | {n} | {:.0}% |", 100.0 * *right as f64 / *n as f64);
    }
    s
}

fn to_json(
    table: &[(String, Metrics)],
    bins: &std::collections::BTreeMap<u32, (usize, usize)>,
    cumulative: &[(f64, usize, usize)],
    threshold: f64,
    command: f64,
    error: f64,
) -> String {
    let kinds: Vec<serde_json::Value> = table
        .iter()
        .map(|(k, m)| {
            serde_json::json!({
                "kind": k, "cases": m.cases, "answerable": m.answerable, "right": m.top1, "answered": m.answered,
                "p_at_1": m.p1, "p_at_3": m.p3, "recall_at_10": m.r10, "mrr": m.mrr,
                "missed": m.missed, "false_inject": m.false_inject, "reachable": m.reachable,
                "pointed": m.pointed, "noise_lines": m.noise_lines,
            })
        })
        .collect();
    let calibration: Vec<serde_json::Value> = bins
        .iter()
        .map(|(bin, (n, right))| {
            serde_json::json!({"from": *bin as f64 / 10.0, "to": (*bin + 1) as f64 / 10.0, "cases": n, "right": right})
        })
        .collect();
    let at_or_above: Vec<serde_json::Value> = cumulative
        .iter()
        .map(|(c, n, right)| serde_json::json!({"confidence": c, "answers": n, "right": right}))
        .collect();
    format!(
        "{}\n",
        serde_json::json!({"threshold": threshold, "command_threshold": command, "error_threshold": error,
            "kinds": kinds, "calibration": calibration, "at_or_above": at_or_above})
    )
}

fn miss_list(outcomes: &[Outcome], threshold_of: &dyn Fn(&str) -> f64) -> String {
    let mut s = String::from("\nMisses (answered wrong, or silent where a decision applies)\n");
    for o in outcomes {
        let first = o.results.first();
        let answered = first.filter(|r| r.1 >= threshold_of(&o.case.kind));
        let ok = match answered {
            Some(r) => r.2,
            None => o.case.expected.is_empty(),
        };
        if !ok {
            let by = o.evidence.first().map_or("", |e| e.name());
            let got = first.map_or("nothing".into(), |r| format!("{} ({:.2}, {by})", r.0, r.1));
            let _ = writeln!(s, "line {} [{}] {} | want {} | got {got}", o.case.line, o.case.kind, o.case.query, {
                if o.case.expected.is_empty() {
                    "-".to_string()
                } else {
                    o.case.expected.join(" || ")
                }
            });
        }
    }
    s
}

fn features_tsv(outcomes: &[Outcome], semantic: bool) -> String {
    let cos = if semantic { "\tcos" } else { "" };
    let mut s = format!("kind\tline\trank\tright\tconfidence\t{}{cos}\theading\n", Features::NAMES.join("\t"));
    for o in outcomes {
        // Exact matches (no features: their confidence is fixed) are left out.
        for (rank, (r, f)) in
            o.results.iter().zip(&o.features).enumerate().filter(|(_, (_, f))| **f != Features::default())
        {
            let mut vals: Vec<String> = f.values().iter().map(|v| format!("{v:.5}")).collect();
            if semantic {
                vals.push(format!("{:.5}", f.cos.unwrap_or(0.0)));
            }
            let _ = writeln!(
                s,
                "{}\t{}\t{rank}\t{}\t{:.5}\t{}\t{}",
                o.case.kind,
                o.case.line,
                u8::from(r.2),
                r.1,
                vals.join("\t"),
                r.0
            );
        }
    }
    s
}
