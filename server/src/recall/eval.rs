//! Measuring recall on labelled queries: the `eval` file format, the metrics, the calibration table.
//!
//! File format (TSV, one case a line): `kind<TAB>query<TAB>expected`, where
//! `expected` is a heading title, several joined by ` || ` when any is
//! right, or `-` when nothing applies. A kind starting with `command` or
//! `error` is ranked as the hook ranks a shell command or a failure
//! ([`recall_command`]); every other kind as a prompt. Blank lines and lines starting with
//! `#` are skipped. Titles compare case-insensitively with whitespace
//! collapsed.
//!
//! Metrics, per kind and overall, at one confidence threshold (an answer is
//! the ranking's first result when its confidence reaches the threshold):
//! - `right`: share of cases answered right (silence is right for `-`);
//! - `answered`: share of cases answered;
//! - `P@1`, `P@3`: precision of what is shown: of the results at or above
//!   the threshold among the first one (three), the share that is right;
//! - `R@10`: share of cases with an expected decision that has it among the
//!   first ten results, whatever their confidence;
//! - `MRR`: mean reciprocal rank of the expected decision (0 when absent);
//! - `missed`: share of the cases a decision answers (not `-`) that got no
//!   answer (silence on a `-` case is right and counted in `right`, never here);
//! - `false-inject`: share of `-` cases answered with something.
//!
//! The calibration table bins every case's first result by confidence and
//! gives the share right per bin: what the confidence means.

use std::collections::BTreeMap;

use crate::model::Workspace;
use crate::search::recall::{recall, recall_command, Evidence, Features};
use crate::search::semantic::{rescore, Cosines};

use crate::syntax::normalize;

/// One labelled query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub kind: String,
    pub query: String,
    /// Normalized acceptable titles; empty means "nothing applies".
    pub expected: Vec<String>,
    /// 1-based line in the file.
    pub line: usize,
}

/// The expected titles that are no heading of `ws` (line, title as
/// normalized): a typo in the labels, which no ranking can answer right.
pub fn unknown_titles(ws: &Workspace, cases: &[Case]) -> Vec<(usize, String)> {
    let b = ws.bindings();
    cases
        .iter()
        .flat_map(|c| c.expected.iter().filter(|t| b.headings_titled(t).is_empty()).map(move |t| (c.line, t.clone())))
        .collect()
}

/// Parses an eval file; the error names the first malformed line.
pub fn parse(text: &str) -> Result<Vec<Case>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [kind, query, expected] = cols[..] else {
            return Err(format!(
                "line {}: expected 3 tab-separated columns (kind, query, expected), found {}",
                i + 1,
                cols.len()
            ));
        };
        let (kind, query, expected) = (kind.trim(), query.trim(), expected.trim());
        if kind.is_empty() || query.is_empty() || expected.is_empty() {
            return Err(format!("line {}: kind, query and expected must not be empty (use `-` for nothing)", i + 1));
        }
        let expected =
            if expected == "-" { Vec::new() } else { expected.split(" || ").map(normalize).collect::<Vec<_>>() };
        out.push(Case { kind: kind.to_string(), query: query.to_string(), expected, line: i + 1 });
    }
    if out.is_empty() {
        return Err("no cases: each line is kind<TAB>query<TAB>expected".into());
    }
    Ok(out)
}

/// What the ranking did with one case.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub case: Case,
    /// Per result (first ten): normalized title, confidence, right?
    pub results: Vec<(String, f64, bool)>,
    /// Per result: what its confidence was computed from.
    pub features: Vec<Features>,
    /// Per result: the evidence its confidence came from.
    pub evidence: Vec<Evidence>,
    /// With the semantic tier, for prose: the decisions nearest in meaning
    /// (normalized title, cosine, right?), the pointer tier's other candidates.
    pub nearest: Vec<(String, f64, bool)>,
}

impl Outcome {
    /// The first result's confidence (0 when nothing ranks).
    pub fn confidence(&self) -> f64 {
        self.results.first().map_or(0.0, |r| r.1)
    }

    /// True when the first result is right (false for `-` cases with any result).
    pub fn first_right(&self) -> bool {
        self.results.first().is_some_and(|r| r.2)
    }
}

/// Runs every case through [`recall`] (and the semantic tier's
/// [`rescore`] for prose when `semantic` is given, as the hook does).
pub fn run(ws: &Workspace, cases: &[Case], semantic: Option<&dyn Cosines>) -> Vec<Outcome> {
    cases
        .iter()
        .map(|c| {
            // Commands and failures are ranked as the hook ranks them.
            let shell = c.kind.starts_with("command") || c.kind.starts_with("error");
            let found = if shell {
                recall_command(ws, &c.query, 10)
            } else {
                let found = recall(ws, &c.query, 10);
                match semantic {
                    Some(s) => rescore(ws, &c.query, found, s),
                    None => found,
                }
            };
            let title = |h: crate::model::HeadingId| ws.heading(h).map(|h| normalize(&h.title)).unwrap_or_default();
            let nearest = match semantic.filter(|_| !shell) {
                Some(s) => s
                    .nearest(ws, &c.query, 3)
                    .into_iter()
                    .map(|(h, cos)| (title(h), cos, c.expected.contains(&title(h))))
                    .collect(),
                None => Vec::new(),
            };
            let features = found.iter().map(|r| r.features).collect();
            let evidence = found.iter().map(|r| r.evidence).collect();
            let results = found
                .iter()
                .map(|r| {
                    let title = ws.heading(r.heading).map(|h| normalize(&h.title)).unwrap_or_default();
                    let right = c.expected.contains(&title);
                    (title, r.confidence, right)
                })
                .collect();
            Outcome { case: c.clone(), results, features, evidence, nearest }
        })
        .collect()
}

/// Metrics of a group of outcomes at a threshold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Metrics {
    pub cases: usize,
    /// Cases with an expected decision.
    pub answerable: usize,
    pub top1: f64,
    pub answered: f64,
    pub p1: Option<f64>,
    pub p3: Option<f64>,
    pub r10: Option<f64>,
    pub mrr: Option<f64>,
    /// Share of cases with an expected decision that got no answer (None: no such case).
    pub missed: Option<f64>,
    pub false_inject: Option<f64>,
    /// Share of cases with an expected decision that reach it, as a body or a pointer ([`Tiers`]).
    pub reachable: Option<f64>,
    /// Share of cases answered by pointers only (no body).
    pub pointed: f64,
    /// Share of `-` cases that get any line (a body or a pointer).
    pub noise_lines: Option<f64>,
}

/// A result of a case: its normalized title, its confidence (or cosine), and whether it is right.
pub type Scored = (String, f64, bool);

/// How the hook speaks for a kind of case: at most `bodies` decisions at
/// `threshold` or more; when none is, at most `pointers` pointers at
/// `pointer` or more (`recall::inject::pointer`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tiers {
    pub threshold: f64,
    pub pointer: f64,
    pub bodies: usize,
    pub pointers: usize,
    /// Pointers also go to the decisions nearest in meaning at this cosine or more ([`Outcome::nearest`]).
    pub meaning: f64,
}

impl Tiers {
    /// Bodies at `threshold` (as many as reach it), no pointer.
    pub fn bodies_at(threshold: f64) -> Tiers {
        Tiers { threshold, pointer: threshold, bodies: usize::MAX, pointers: 0, meaning: f64::INFINITY }
    }

    /// The results (of `results`, best first) a case's hook call shows: the
    /// bodies, and the pointers when there is no body (each with whether it is right).
    pub fn shown<'a>(&self, o: &'a Outcome) -> (Vec<&'a Scored>, Vec<&'a Scored>) {
        let bodies: Vec<_> = o.results.iter().take_while(|r| r.1 >= self.threshold).take(self.bodies).collect();
        let mut pointers: Vec<&Scored> = Vec::new();
        if bodies.is_empty() && self.pointer < self.threshold {
            pointers.extend(o.results.iter().take_while(|r| r.1 >= self.pointer).take(self.pointers));
            for n in o.nearest.iter().take_while(|n| n.1 >= self.meaning) {
                if pointers.len() < self.pointers && !pointers.iter().any(|p| p.0 == n.0) {
                    pointers.push(n);
                }
            }
        }
        (bodies, pointers)
    }
}

/// Computes [`Metrics`] over `outcomes` with answers at `threshold` (no pointer).
pub fn metrics(outcomes: &[&Outcome], threshold: f64) -> Metrics {
    metrics_by(outcomes, &|_| Tiers::bodies_at(threshold))
}

/// [`metrics`] with each case's tiers given by its kind (`tiers_of(kind)`).
pub fn metrics_by(outcomes: &[&Outcome], tiers_of: &dyn Fn(&str) -> Tiers) -> Metrics {
    let n = outcomes.len();
    if n == 0 {
        return Metrics::default();
    }
    let share = |k: usize, of: usize| if of == 0 { None } else { Some(k as f64 / of as f64) };
    let (mut right, mut answered, mut nothing_cases, mut false_inject) = (0, 0, 0, 0);
    let (mut shown1, mut right1, mut shown3, mut right3) = (0, 0, 0, 0);
    let (mut expecting, mut in10, mut rr, mut unanswered) = (0, 0, 0.0, 0);
    let (mut reached, mut pointed, mut noisy) = (0, 0, 0);
    for o in outcomes {
        let tiers = tiers_of(&o.case.kind);
        let threshold = tiers.threshold;
        let shown: Vec<&(String, f64, bool)> = o.results.iter().take_while(|r| r.1 >= threshold).collect();
        let answers = !shown.is_empty();
        answered += usize::from(answers);
        let (bodies, pointers) = tiers.shown(o);
        pointed += usize::from(!pointers.is_empty());
        if o.case.expected.is_empty() {
            nothing_cases += 1;
            false_inject += usize::from(answers);
            right += usize::from(!answers);
            noisy += usize::from(!bodies.is_empty() || !pointers.is_empty());
        } else {
            expecting += 1;
            reached += usize::from(bodies.iter().chain(&pointers).any(|r| r.2));
            unanswered += usize::from(!answers);
            right += usize::from(shown.first().is_some_and(|r| r.2));
            if let Some(rank) = o.results.iter().position(|r| r.2) {
                in10 += usize::from(rank < 10);
                rr += 1.0 / (rank + 1) as f64;
            }
        }
        shown1 += shown.len().min(1);
        right1 += shown.iter().take(1).filter(|r| r.2).count();
        shown3 += shown.len().min(3);
        right3 += shown.iter().take(3).filter(|r| r.2).count();
    }
    Metrics {
        cases: n,
        answerable: expecting,
        top1: right as f64 / n as f64,
        answered: answered as f64 / n as f64,
        p1: share(right1, shown1),
        p3: share(right3, shown3),
        r10: share(in10, expecting),
        mrr: (expecting > 0).then(|| rr / expecting as f64),
        missed: share(unanswered, expecting),
        false_inject: share(false_inject, nothing_cases),
        reachable: share(reached, expecting),
        pointed: pointed as f64 / n as f64,
        noise_lines: share(noisy, nothing_cases),
    }
}

/// The confidence from which each kind of case counts as answered, as the
/// hook speaks: `command…` kinds at `[recall] command`, `error…` kinds at
/// `[recall] error`, every other at `[recall] prompt` (or one for all).
pub fn threshold_for(kind: &str, prompt: f64, command: f64, error: f64) -> f64 {
    if kind.starts_with("command") {
        command
    } else if kind.starts_with("error") {
        error
    } else {
        prompt
    }
}

/// Metrics per kind (in order of first appearance) and for all cases, each
/// case answered with `tiers_of(its kind)`.
pub fn by_kind(outcomes: &[Outcome], tiers_of: &dyn Fn(&str) -> Tiers) -> Vec<(String, Metrics)> {
    let mut kinds: Vec<&str> = Vec::new();
    for o in outcomes {
        if !kinds.contains(&o.case.kind.as_str()) {
            kinds.push(&o.case.kind);
        }
    }
    let mut out: Vec<(String, Metrics)> = kinds
        .iter()
        .map(|k| {
            let group: Vec<&Outcome> = outcomes.iter().filter(|o| o.case.kind == *k).collect();
            (k.to_string(), metrics_by(&group, tiers_of))
        })
        .collect();
    out.push(("all".into(), metrics_by(&outcomes.iter().collect::<Vec<_>>(), tiers_of)));
    out
}

/// Calibration: per confidence bin of width 0.1 (the last includes 1.0),
/// the cases whose first result falls in it and how many of those were right.
pub fn calibration(outcomes: &[Outcome]) -> BTreeMap<u32, (usize, usize)> {
    let mut bins: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for o in outcomes.iter().filter(|o| !o.results.is_empty()) {
        let bin = ((o.confidence() * 10.0).floor() as u32).min(9);
        let slot = bins.entry(bin).or_default();
        slot.0 += 1;
        slot.1 += usize::from(o.first_right());
    }
    bins
}

/// What the confidence means: for each c in 0.1, 0.2, …, 0.9, the cases
/// whose first result reaches c and how many of those were right.
pub fn at_or_above(outcomes: &[Outcome]) -> Vec<(f64, usize, usize)> {
    (1..10)
        .map(|i| {
            let c = i as f64 / 10.0;
            let shown: Vec<&Outcome> =
                outcomes.iter().filter(|o| !o.results.is_empty() && o.confidence() >= c).collect();
            (c, shown.len(), shown.iter().filter(|o| o.first_right()).count())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_cases_and_names_bad_lines() {
        let cases =
            parse("# c\nexact\twriting mock tests\tWhen Writing  Mock Tests || When X\n\noff\tbread\t-\n").unwrap();
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].expected, ["when writing mock tests", "when x"]);
        assert!(cases[1].expected.is_empty());
        assert_eq!(cases[1].line, 4);
        assert_eq!(
            parse("a\tb\n").unwrap_err(),
            "line 1: expected 3 tab-separated columns (kind, query, expected), found 2"
        );
        assert!(parse("a\t\tb\n").unwrap_err().starts_with("line 1:"));
        assert!(parse("# only comments\n").is_err());
    }

    fn outcome(expected: &[&str], results: &[(f64, bool)]) -> Outcome {
        Outcome {
            case: Case {
                kind: "k".into(),
                query: "q".into(),
                expected: expected.iter().map(|s| s.to_string()).collect(),
                line: 1,
            },
            results: results.iter().map(|&(c, r)| ("t".to_string(), c, r)).collect(),
            features: Vec::new(),
            evidence: Vec::new(),
            nearest: Vec::new(),
        }
    }

    #[test]
    fn metrics_count_answers_at_the_threshold() {
        let os = [
            outcome(&["a"], &[(0.9, true), (0.8, false)]), // answered right
            outcome(&["a"], &[(0.9, false), (0.5, true)]), // answered wrong, right at rank 2
            outcome(&["a"], &[(0.3, true)]),               // silent at 0.5
            outcome(&[], &[(0.7, false)]),                 // false inject
            outcome(&[], &[(0.2, false)]),                 // silent, right
        ];
        let m = metrics(&os.iter().collect::<Vec<_>>(), 0.5);
        assert_eq!(m.cases, 5);
        assert_eq!(m.top1, 2.0 / 5.0);
        assert_eq!(m.answered, 3.0 / 5.0);
        assert_eq!(m.p1, Some(1.0 / 3.0));
        assert_eq!(m.p3, Some(2.0 / 5.0));
        assert_eq!(m.r10, Some(1.0));
        assert_eq!(m.mrr, Some((1.0 + 0.5 + 1.0) / 3.0));
        // Missed counts only the answerable case left unanswered, not the noise case's right silence.
        assert_eq!(m.missed, Some(1.0 / 3.0));
        assert_eq!(m.false_inject, Some(0.5));
        let bins = calibration(&os);
        assert_eq!(bins[&9], (2, 1));
        assert_eq!(bins[&2], (1, 0));
        let cumulative = at_or_above(&os);
        assert_eq!(cumulative[0], (0.1, 5, 2));
        assert_eq!(cumulative[6], (0.7, 3, 1));
        assert_eq!(cumulative[8], (0.9, 2, 1));
    }
}
