//! The semantic tier in the ranking (pure): each candidate's cosine with the text, measured by a model the caller holds, folded into its confidence.
//!
//! On when `[recall] semantic` is true, or unset and the model is there
//! (`project::semantic::enabled`; the service layer then loads the model and
//! the decisions' vectors). The lexical
//! ranking picks the candidates as always ([`super::recall::recall`]); this
//! re-scores those found by words or letters with [`WEIGHTS`], a logistic
//! model of the lexical features plus the cosine, fitted like the lexical
//! one (`tests/tools/fit_recall.py` on `eval --semantic --features`, on the
//! development sets only). Exact answers keep their confidence, and a
//! candidate without a vector keeps its lexical one. docs/resolver.md has
//! the A/B.

use super::recall::{logistic, Evidence, Features, Recalled};
use crate::model::{HeadingId, Workspace};

/// What the caller measures: the cosine between `text` and each heading's
/// section ([`section_text`]); None for a heading without a vector at
/// hand, and None overall when the text cannot be embedded.
pub trait Cosines {
    fn cosines(&self, ws: &Workspace, text: &str, headings: &[HeadingId]) -> Option<Vec<Option<f64>>>;

    /// The `k` headings whose sections are nearest `text` in meaning (of
    /// those with a vector at hand), best first, with their cosines: the
    /// pointer tier's candidates that share no word with the text. None by default.
    fn nearest(&self, _ws: &Workspace, _text: &str, _k: usize) -> Vec<(HeadingId, f64)> {
        Vec::new()
    }
}

/// Logistic weights: intercept, the eight lexical features of
/// [`Features::values`], then the cosine.
pub const WEIGHTS: [f64; 10] = [-5.48, 0.788, 1.64, -0.413, 0.514, 0.765, 5.26, 2.39, 0.814, 3.64];

/// P(right | lexical features and cosine).
pub fn confidence(f: &Features, cos: f64) -> f64 {
    let lexical: f64 = f.values().iter().zip(&WEIGHTS[1..9]).map(|(x, w)| x * w).sum();
    logistic(WEIGHTS[0] + lexical + WEIGHTS[9] * cos)
}

/// `ranked` with the cosine of every candidate found by words or letters,
/// and its confidence from [`confidence`]; best first again. Unchanged when
/// the text cannot be embedded, and when it is a trigger or an extra (the
/// model is then not even loaded).
pub fn rescore(ws: &Workspace, text: &str, mut ranked: Vec<Recalled>, c: &dyn Cosines) -> Vec<Recalled> {
    // The text is a trigger or an extra: it says which decision; nothing to weigh.
    if ranked.first().is_some_and(|r| matches!(r.evidence, Evidence::ExactTrigger | Evidence::ExactExtra)) {
        return ranked;
    }
    let open: Vec<usize> =
        (0..ranked.len()).filter(|&i| matches!(ranked[i].evidence, Evidence::Words | Evidence::Letters)).collect();
    if open.is_empty() {
        return ranked;
    }
    let headings: Vec<HeadingId> = open.iter().map(|&i| ranked[i].heading).collect();
    let Some(cos) = c.cosines(ws, text, &headings) else { return ranked };
    for (&i, cos) in open.iter().zip(cos) {
        if let Some(cos) = cos.filter(|c| c.is_finite()) {
            let r = &mut ranked[i];
            r.features.cos = Some(cos);
            r.confidence = confidence(&r.features, cos);
        }
    }
    ranked.sort_by(|a, b| b.confidence.total_cmp(&a.confidence).then(a.entry.cmp(&b.entry)));
    ranked
}

/// Every section of `ws`'s decision files, as [`section_text`] gives it (empty ones left out).
pub fn sections(ws: &Workspace) -> impl Iterator<Item = &str> {
    ws.decisions()
        .flat_map(|(file, _, d)| (0..d.headings.len() as u32).map(move |idx| HeadingId { file, idx }))
        .map(move |h| section_text(ws, h))
        .filter(|t| !t.is_empty())
}

/// What a decision's vector is of: its section as written, heading line
/// included (the model reads its first 256 tokens: the title and the
/// decision's opening).
pub fn section_text(ws: &Workspace, h: HeadingId) -> &str {
    let (Some(f), Some(head)) = (ws.file(h.file), ws.heading(h)) else { return "" };
    f.text.get(head.section.start..head.section.end).unwrap_or("").trim_start_matches('#').trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Config, FileText};
    use crate::search::recall::recall;

    struct Fixed(Vec<(String, f64)>);
    impl Cosines for Fixed {
        fn cosines(&self, ws: &Workspace, _: &str, hs: &[HeadingId]) -> Option<Vec<Option<f64>>> {
            let title = |h: HeadingId| ws.heading(h).map(|h| h.title.to_string()).unwrap_or_default();
            Some(hs.iter().map(|&h| self.0.iter().find(|(t, _)| *t == title(h)).map(|p| p.1)).collect())
        }
    }

    fn ws() -> Workspace {
        let mut ws = Workspace::new(Config::default());
        ws.set_file(
            "agents/memory-index.md",
            FileText::from("# Index\n\n## agents/decisions/a.md\n\n/when writing mock tests\n/when choosing a queue\n"),
        );
        ws.set_file(
            "agents/decisions/a.md",
            FileText::from(
                "# A\n\n## When Writing Mock Tests\n\nPatch where the name is looked up.\n\n\
## When Choosing A Queue\n\nUse the managed queue for background jobs.\n",
            ),
        );
        ws
    }

    #[test]
    fn a_cosine_moves_a_word_candidate_and_never_an_exact_one() {
        let ws = ws();
        let text = "where should background jobs go, and do tests patch them";
        let lexical = recall(&ws, text, 5);
        assert_eq!(lexical.len(), 2, "{lexical:?}");
        let sem = Fixed(vec![("When Choosing A Queue".into(), 0.9), ("When Writing Mock Tests".into(), 0.0)]);
        let re = rescore(&ws, text, lexical.clone(), &sem);
        assert_eq!(ws.heading(re[0].heading).unwrap().title.as_ref() as &str, "When Choosing A Queue");
        assert_eq!(re[0].features.cos, Some(0.9));
        assert!(re[0].confidence > re[1].confidence);
        // No vector: the lexical confidence stays.
        let none = rescore(&ws, text, lexical.clone(), &Fixed(Vec::new()));
        assert_eq!(none, lexical);
        // An exact trigger keeps its certainty whatever the cosine.
        let exact = recall(&ws, "when writing mock tests", 5);
        let re = rescore(&ws, "when writing mock tests", exact.clone(), &sem);
        assert_eq!(re[0].confidence, 1.0);
        assert_eq!(section_text(&ws, re[0].heading), "When Writing Mock Tests\n\nPatch where the name is looked up.");
    }
}
