//! Recall: free text (a `/when` query or a whole prompt) → ranked decisions, each with a calibrated confidence.
//!
//! This is the one ranking behind `resolve`, `search`, "Did you mean",
//! completion ordering, the agent hook and `remember`'s duplicate check.
//!
//! Candidates come from three places, cheapest first:
//! 1. the binding's exact table: the text equals a trigger or an extra
//!    (confidence [`EXACT_TRIGGER`] / [`EXACT_EXTRA`]);
//! 2. the letters-in-order fuzzy tiers of [`super::triggers::rank`] (only for
//!    texts of at most [`MAX_FUZZY_WORDS`] words: every query word must match,
//!    which a sentence never does; never for a shell command or a failure,
//!    [`recall_command`]);
//! 3. stemmed BM25 over title, triggers and body ([`super::bm25`]), with every
//!    informative word of the text (no 15-token cap: a prompt's words are
//!    all evidence).
//!
//! Each candidate gets [`Features`] measured on the text, and its confidence
//! is a logistic function of them ([`confidence`]). The weights were fitted
//! on the development sets (`server/tests/data/resolve-devset.tsv` and
//! `prompts-dev.tsv`; never `prompts-holdout.tsv`) by
//! `tests/tools/fit_recall.py` from the features `eval --features` prints.
//! Meaning: of the answers given at confidence ≥ c on those sets, about a
//! share c or more was right; `docs/resolver.md` shows the table `eval`
//! prints. The features are ratios of inverse document frequencies, so
//! they carry over to other corpora: a text that shares only common words
//! with a decision ("go on", "try again", "run the tests") scores low on any
//! corpus, without a list of phrases.

use rustc_hash::FxHashMap as HashMap;

use super::bm25::{tokens, Bm25};
use super::{triggers, HitKind, TriggerQuery};
use crate::model::{EntryId, HeadingId, Workspace};
use crate::syntax::normalize;

/// Confidence of an exact trigger match.
pub const EXACT_TRIGGER: f64 = 1.0;
/// The least confidence at which an answer is listed at all: `search`'s floor, and the
/// least a ranked "Did you mean" of `resolve` has (under it: noise, not candidates).
pub const LISTED: f64 = 0.05;
/// Confidence of an exact extra match.
pub const EXACT_EXTRA: f64 = 0.98;
/// Longest text read (bytes).
pub const MAX_TEXT_BYTES: usize = 16 * 1024;
/// Longest text (in words) that the letters-in-order tiers are tried on.
pub const MAX_FUZZY_WORDS: usize = 8;
/// Most BM25 candidates measured per text.
const BM25_CANDIDATES: usize = 12;
/// Most fuzzy candidates measured per text.
const FUZZY_CANDIDATES: usize = 6;
/// Weight of a name word that the text has only as part of a longer word (or the reverse).
const PARTIAL: f64 = 0.7;
/// The BM25 score (in units of the largest idf) under which a lead is not a full lead.
const MARGIN_FLOOR: f64 = 3.0;
/// Shortest word compared by [`PARTIAL`] containment.
const PARTIAL_MIN: usize = 4;

/// How a decision was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Evidence {
    /// The text is the entry's trigger.
    ExactTrigger,
    /// The text is one of the entry's extras.
    ExactExtra,
    /// The text's letters match the trigger or an extra in order (fuzzy, stems, typos).
    Letters,
    /// The text shares informative words with the decision (BM25).
    Words,
    /// A command or a failure names what the decision's code names
    /// (program, sub-command, flags, paths: [`super::commands`]).
    Code,
    /// The decision's scope holds a file the agent reads or edits (`ide::scope`).
    Scope,
}

impl Evidence {
    /// Its name in JSON and reports (`exact-trigger`, `words`, `code`, …).
    pub fn name(self) -> &'static str {
        match self {
            Evidence::ExactTrigger => "exact-trigger",
            Evidence::ExactExtra => "exact-extra",
            Evidence::Letters => "letters",
            Evidence::Words => "words",
            Evidence::Code => "code",
            Evidence::Scope => "scope",
        }
    }
}

/// One ranked decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Recalled {
    pub entry: EntryId,
    pub heading: HeadingId,
    /// Estimated probability that this is the decision the text is about, in [0, 1].
    pub confidence: f64,
    pub evidence: Evidence,
    pub features: Features,
}

/// What the confidence is computed from (all in [0, 1] unless said).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Share of the decision's name (title, trigger, extras; idf-weighted) found in the text.
    pub key_cover: f64,
    /// Share of the decision's name words found in the text, each counted once (not weighted).
    pub key_words: f64,
    /// Share of the text's informative words (idf-weighted) found in the decision.
    pub text_cover: f64,
    /// Informative mass of the shared name words: their idf summed, over the
    /// largest idf (≈ how many rare words of the name the text has), capped at 3.
    pub key_mass: f64,
    /// Informative mass of every shared word (name and body), same unit, capped at 6.
    pub mass: f64,
    /// This candidate's BM25 score over the best other candidate's, as
    /// `(mine - other) / max(mine, other)`: positive only for the leader.
    pub margin: f64,
    /// Letters-in-order fuzzy score per query character, over 40 (0 when none).
    pub letters: f64,
    /// Informative words of the text, log-scaled: ln(1 + n) / ln(64).
    pub length: f64,
    /// The cosine between the text and the decision's section, when the
    /// semantic tier measured it ([`super::semantic`]); not in [`Features::values`].
    pub cos: Option<f64>,
}

impl Features {
    /// The values in a fixed order (for fitting and printing).
    pub fn values(&self) -> [f64; 8] {
        [
            self.key_cover,
            self.key_words,
            self.text_cover,
            self.key_mass,
            self.mass,
            self.margin,
            self.letters,
            self.length,
        ]
    }

    /// Names of [`Features::values`], in order.
    pub const NAMES: [&'static str; 8] =
        ["key_cover", "key_words", "text_cover", "key_mass", "mass", "margin", "letters", "length"];
}

/// Logistic weights: intercept, then one per feature of [`Features::values`].
/// Fitted by `tests/tools/fit_recall.py` (see the module docs).
pub const WEIGHTS: [f64; 9] = [-5.57, 0.907, 2.13, 0.529, 1.37, 0.968, 4.59, 2.69, 0.0646];

/// The logistic model: P(right | features).
pub fn confidence(f: &Features) -> f64 {
    logistic(WEIGHTS[0] + f.values().iter().zip(&WEIGHTS[1..]).map(|(x, w)| x * w).sum::<f64>())
}

/// The logistic function: a weighted sum of evidence → a probability.
pub fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Ranks decisions for `text`, best first, at most `limit`, with their
/// confidences (no threshold applied: callers pick theirs from the config).
/// A leading `when`/`how` word is the operator, as in `resolve`.
pub fn recall(ws: &Workspace, text: &str, limit: usize) -> Vec<Recalled> {
    let q = TriggerQuery::parse(text);
    recall_query(ws, &q, limit)
}

/// [`recall`] for an already parsed query. Only the first [`MAX_TEXT_BYTES`]
/// of a text are read (a pasted log beyond that adds cost, not evidence).
pub fn recall_query(ws: &Workspace, q: &TriggerQuery, limit: usize) -> Vec<Recalled> {
    rank(ws, q, limit)
}

/// What the word ranking reads besides BM25: the binding's exact table and
/// each entry's target heading. A [`Workspace`] answers from its binding; a
/// memory's recall view (`recall::view`) answers the same from bytes, so
/// the prompt hook can rank without parsing the memory.
pub trait Ranked {
    /// The entry whose trigger (false) or extra (true) is `normalized`, as
    /// [`crate::model::Bindings::exact_match`] picks it.
    fn exact(&self, op: Option<crate::syntax::index::Op>, normalized: &str) -> Option<(EntryId, bool)>;
    /// The heading an entry stands for ([`triggers::entry_target`]).
    fn target(&self, entry: EntryId) -> Option<HeadingId>;
}

impl Ranked for Workspace {
    fn exact(&self, op: Option<crate::syntax::index::Op>, normalized: &str) -> Option<(EntryId, bool)> {
        self.bindings().exact_match(op, normalized)
    }
    fn target(&self, entry: EntryId) -> Option<HeadingId> {
        triggers::entry_target(self, self.bindings().entry(entry))
    }
}

/// The query cut to [`MAX_TEXT_BYTES`] (a pasted log beyond that adds cost, not evidence).
fn cut_query(q: &TriggerQuery) -> std::borrow::Cow<'_, TriggerQuery> {
    if q.text.len() <= MAX_TEXT_BYTES {
        return std::borrow::Cow::Borrowed(q);
    }
    std::borrow::Cow::Owned(TriggerQuery { op: q.op, text: crate::text::cut(&q.text, MAX_TEXT_BYTES).to_string() })
}

/// Whether the letters-in-order tier reads `normalized` (a short text).
fn letters_apply(normalized: &str) -> bool {
    normalized.split(' ').count() <= MAX_FUZZY_WORDS
}

/// Whether [`recall`] reads `text` by its letters too (a short text): the
/// letters-in-order tier, which [`recall_from`] asks its source's names for.
pub fn reads_letters(text: &str) -> bool {
    let q = TriggerQuery::parse(text);
    letters_apply(&normalize(&cut_query(&q).text))
}

/// [`recall_query`]: the letters-in-order candidates, then [`rank_in`].
fn rank(ws: &Workspace, q: &TriggerQuery, limit: usize) -> Vec<Recalled> {
    let q = cut_query(q);
    let norm = normalize(&q.text);
    let mut letters = HashMap::default();
    if !norm.is_empty() && limit > 0 && letters_apply(&norm) {
        letters = letters_of(&triggers::rank(ws, &q, FUZZY_CANDIDATES + 1), &norm);
    }
    let idx = super::index::of(ws);
    rank_in(ws, || idx.bm25(ws), &q, &norm, limit, &letters)
}

/// The letters-in-order candidates among trigger `hits`: each fuzzy hit's
/// score per character of the normalized text, over 40 (at most 1).
fn letters_of(hits: &[super::Hit], norm: &str) -> HashMap<EntryId, f64> {
    let chars = norm.chars().filter(|c| !c.is_whitespace()).count().max(1) as f64;
    hits.iter()
        .filter(|h| h.kind == HitKind::Fuzzy)
        .map(|h| (h.entry, (h.score as f64 / chars / 40.0).min(1.0)))
        .collect()
}

/// The prompt ranking of [`recall`] from any [`Ranked`] source and its BM25
/// index. A short text (the letters-in-order tier) asks the source's
/// `names` ([`triggers::Vocabulary`]; asked only then, since reading them
/// has a cost): None without them.
pub fn recall_from<'a>(
    src: &dyn Ranked,
    names: impl FnOnce() -> Option<&'a dyn triggers::Vocabulary>,
    bm: &Bm25,
    text: &str,
    limit: usize,
) -> Option<Vec<Recalled>> {
    let q = TriggerQuery::parse(text);
    let q = cut_query(&q);
    let norm = normalize(&q.text);
    let mut letters = HashMap::default();
    if !norm.is_empty() && limit > 0 && letters_apply(&norm) {
        let exact = src.exact(q.op, &norm);
        letters = letters_of(&triggers::rank_with(exact, names()?, &q, FUZZY_CANDIDATES + 1), &norm);
    }
    Some(rank_in(src, || bm, &q, &norm, limit, &letters))
}

/// The ranking itself: exact, then letters (given), then words. `bm` is
/// asked for only when the text has a word to rank by.
fn rank_in<'a>(
    src: &dyn Ranked,
    bm: impl FnOnce() -> &'a Bm25,
    q: &TriggerQuery,
    norm: &str,
    limit: usize,
    letters: &HashMap<EntryId, f64>,
) -> Vec<Recalled> {
    if norm.is_empty() || limit == 0 {
        return Vec::new();
    }
    let mut out: Vec<Recalled> = Vec::new();
    if let Some((entry, extra)) = src.exact(q.op, norm) {
        if let Some(heading) = src.target(entry) {
            let (confidence, evidence) =
                if extra { (EXACT_EXTRA, Evidence::ExactExtra) } else { (EXACT_TRIGGER, Evidence::ExactTrigger) };
            out.push(Recalled { entry, heading, confidence, evidence, features: Features::default() });
        }
    }
    let bm = bm();
    let words = Words::of(bm, &q.text);

    // Word candidates: BM25 over every informative word of the text; the
    // best few, plus every letters candidate, are measured.
    // Only the best few are ordered (a common word can score most of a
    // large memory's documents).
    let scored = bm.score_terms(&words.terms);
    let mut order: Vec<usize> = (0..scored.len()).collect();
    let by_score = |&a: &usize, &b: &usize| {
        scored[b].1.total_cmp(&scored[a].1).then_with(|| bm.entry(scored[a].0).cmp(&bm.entry(scored[b].0)))
    };
    if order.len() > BM25_CANDIDATES {
        order.select_nth_unstable_by(BM25_CANDIDATES - 1, by_score);
        order.truncate(BM25_CANDIDATES);
    }
    order.sort_by(by_score);
    let best = |k: usize| order.get(k).map_or(0.0, |&i| scored[i].1);
    let mut cands: Vec<EntryId> = order.iter().map(|&i| bm.entry(scored[i].0)).collect();
    let mut from_letters: Vec<EntryId> = letters.keys().copied().filter(|e| !cands.contains(e)).collect();
    from_letters.sort();
    cands.extend(from_letters);
    let wanted: rustc_hash::FxHashSet<u32> = cands.iter().filter_map(|&e| bm.doc_of(e)).collect();
    let by_doc: HashMap<u32, usize> =
        scored.iter().enumerate().filter(|(_, s)| wanted.contains(&s.0)).map(|(i, s)| (s.0, i)).collect();
    let mut ranked: Vec<Recalled> = Vec::new();
    for entry in cands {
        if out.iter().any(|r| r.entry == entry) {
            continue;
        }
        let Some(heading) = src.target(entry) else { continue };
        let doc = bm.doc_of(entry);
        let hit = doc.and_then(|d| by_doc.get(&d)).map(|&i| scored[i]);
        let (score, has) = hit.map_or((0.0, Default::default()), |(d, s)| (s, bm.has(d, &words.terms)));
        // The leader is measured against the runner-up, everyone else against the leader.
        let leader = order.first().is_some_and(|&i| Some(scored[i].0) == doc);
        let other = if leader { best(1) } else { best(0) };
        let f = words.features(bm, doc, &has, score, other, letters.get(&entry).copied().unwrap_or(0.0));
        let evidence = if letters.contains_key(&entry) { Evidence::Letters } else { Evidence::Words };
        ranked.push(Recalled { entry, heading, confidence: confidence(&f), evidence, features: f });
    }
    ranked.sort_by(|a, b| b.confidence.total_cmp(&a.confidence).then(a.entry.cmp(&b.entry)));
    for r in ranked {
        if !out.iter().any(|o| o.heading == r.heading) {
            out.push(r);
        }
    }
    out.truncate(limit);
    out
}

/// The text's informative words: distinct known terms with their idf, and
/// the idf mass of the words no decision has.
struct Words {
    terms: Vec<u32>,
    idf: HashMap<u32, f64>,
    /// Sum of the idf of every distinct informative word (unknown words at the largest idf).
    total: f64,
    /// The largest idf a word can have here (a word no document has).
    top: f64,
    count: usize,
    /// The distinct tokens (stems), known or not.
    toks: Vec<String>,
}

impl Words {
    fn of(bm: &Bm25, text: &str) -> Self {
        let mut toks = tokens(text);
        toks.sort();
        toks.dedup();
        let count = toks.len();
        let top = bm.idf_unseen().max(f64::MIN_POSITIVE);
        let (mut terms, mut idf, mut total) = (Vec::new(), HashMap::default(), 0.0);
        for t in &toks {
            match bm.term(t) {
                Some(id) => {
                    let w = bm.idf(id);
                    terms.push(id);
                    idf.insert(id, w);
                    total += w;
                }
                None => total += top,
            }
        }
        Words { terms, idf, total, top, count, toks }
    }

    fn features(&self, bm: &Bm25, doc: Option<u32>, has: &[u32], score: f64, other: f64, letters: f64) -> Features {
        let shared: f64 = has.iter().map(|t| self.idf.get(t).copied().unwrap_or(0.0)).sum();
        let (mut key_all, mut key_shared, mut key_count, mut key_found) = (0.0, 0.0, 0.0, 0.0);
        if let Some(doc) = doc {
            for &k in bm.keys(doc).iter() {
                let w = bm.idf(k);
                key_all += w;
                key_count += 1.0;
                // A name word the text has, or one that contains a word of the
                // text or is contained in one (`invalid` / `valid`,
                // `parallelizable` / `parallel`), for part of its weight.
                let found = if self.idf.contains_key(&k) {
                    1.0
                } else if self.partial(&bm.name(k)) {
                    PARTIAL
                } else {
                    0.0
                };
                key_shared += found * w;
                key_found += found;
            }
        }
        let ratio = |a: f64, b: f64| if b > 0.0 { (a / b).clamp(0.0, 1.0) } else { 0.0 };
        // Relative to at least a few rare words' worth of score, so a lone weak
        // match (nothing else matched at all) does not look like a clear lead.
        let margin = (score - other) / score.max(other).max(MARGIN_FLOOR * self.top);
        Features {
            key_cover: ratio(key_shared, key_all),
            key_words: ratio(key_found, key_count),
            text_cover: ratio(shared, self.total),
            key_mass: (key_shared / self.top).min(3.0),
            mass: (shared / self.top).min(6.0),
            margin,
            letters,
            length: ((1.0 + self.count as f64).ln() / 64f64.ln()).min(1.5),
            cos: None,
        }
    }

    /// True when a word of the text of at least [`PARTIAL_MIN`] characters
    /// contains `term` or is contained in it.
    fn partial(&self, term: &str) -> bool {
        term.len() >= PARTIAL_MIN
            && self.toks.iter().any(|t| t.len() >= PARTIAL_MIN && (t.contains(term) || term.contains(t.as_str())))
    }
}

mod shell;
pub use shell::{code_confidence, recall_command, recall_command_from, without_messages, CODE_WEIGHTS, UNBACKED_CODE};

#[cfg(test)]
mod tests;
