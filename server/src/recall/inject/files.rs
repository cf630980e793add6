//! Recall for the files an agent reads and edits: the decisions whose scope holds one of the paths, then (when asked) the paths' words ranked at the caller's threshold; never a pointer.
//!
//! A scope is the project's own statement that a decision governs those
//! files, so its decision comes whole at confidence 1 (as sure as a typed
//! trigger). A path's words (`src/booking/prices.py`: `booking prices`)
//! are a weak signal: they speak only at the threshold given (`[recall]
//! file-words`, off by default: measured, they inject wrong decisions), and
//! what they find below it is left unsaid (a line on every file opened
//! would be the noise the pointer tier is careful to avoid).

use super::{render, wanted, Injection, Limits};
use crate::ide::scope::{applying, path_words};
use crate::model::Workspace;
use crate::search::recall::{recall, Evidence, Recalled};

/// The blocks for the project-relative `paths` under `limits` (with
/// `words`, what the paths' words find at its threshold too), skipping what
/// the session has `seen`; None when nothing applies.
pub fn for_files(
    ws: &Workspace,
    paths: &[String],
    words: bool,
    limits: Limits,
    seen: &dyn Fn(&str) -> bool,
) -> Option<Injection> {
    let mut ranked: Vec<Recalled> = Vec::new();
    for path in paths {
        for (entry, heading) in applying(ws, path) {
            if !ranked.iter().any(|r| r.heading == heading) {
                ranked.push(Recalled {
                    entry,
                    heading,
                    confidence: 1.0,
                    evidence: Evidence::Scope,
                    features: Default::default(),
                });
            }
        }
    }
    let words: Vec<String> =
        if words { paths.iter().map(|p| path_words(p)).filter(|w| !w.is_empty()).collect() } else { Vec::new() };
    if !words.is_empty() {
        for r in recall(ws, &words.join(" "), wanted(limits)) {
            if r.confidence >= limits.threshold && !ranked.iter().any(|x| x.heading == r.heading) {
                ranked.push(r);
            }
        }
    }
    // A scope speaks even where the prompt threshold is set past 1 (prompts silenced).
    let limits = Limits { max_pointers: 0, threshold: limits.threshold.min(1.0), ..limits };
    // A workspace shows every section it holds.
    render(ws, ranked, limits, seen).unwrap_or_default()
}
