//! Trigger-mode matching (spec §6): which entry a `/when`/`/how` query resolves to.
//!
//! Order of precedence, ties broken by index order:
//! 1. the query equals an entry's trigger (normalized), same operator;
//! 2. equals one of its extras, same operator;
//! 3. 1–2 with the other operator (or no operator given);
//! 4. the best fuzzy score of `OPERATOR QUERY` against `OPERATOR TRIGGER` and
//!    each `OPERATOR EXTRA`, above the fuzzy engine's threshold; when the
//!    letters do not match in order, the same with both sides stemmed, then
//!    with one-edit typos in words of 5+ letters corrected (see [`words`]).

pub use super::query::{Hit, HitKind, TriggerQuery};
use super::{fuzzy, similar, words};
use crate::model::bind::EntryInfo;
use crate::model::{Depends, EntryId, FileId, HeadingId, Workspace};
use crate::syntax::index::Op;
use crate::syntax::normalize;

/// Ranks entries for `query`, best first (at most `limit`). The exact tiers
/// come from the binding's hash map ([`crate::model::Bindings::exact_match`]);
/// only when nothing matches exactly is every entry scored fuzzily.
///
/// The answer depends on the binding alone, so it is kept while the binding
/// is ([`super::names`]): across edits of decision bodies too.
pub fn rank(ws: &Workspace, query: &TriggerQuery, limit: usize) -> Vec<Hit> {
    let q = normalize(&query.text);
    if q.is_empty() || limit == 0 {
        return Vec::new();
    }
    let names = super::names::of(ws);
    names.clone().ranked((query.op, q.clone(), limit), || rank_uncached(ws, &names, query, q, limit))
}

fn rank_uncached(
    ws: &Workspace,
    names: &super::names::Names,
    query: &TriggerQuery,
    q: String,
    limit: usize,
) -> Vec<Hit> {
    let b = ws.bindings();
    rank_with(b.exact_match(query.op, &q), &Bound { b, names }, query, limit)
}

/// What the letters-in-order tiers read of a memory: each entry's operator
/// and names (its trigger, then its extras, normalized; none for an empty
/// trigger), their stems, and the words they are made of. A workspace
/// answers from its binding ([`super::names`]); a recall view
/// (`recall::view`) from its bytes, with the same answers.
pub trait Vocabulary {
    /// How many entries (binding order).
    fn entries(&self) -> usize;
    fn op(&self, entry: usize) -> Op;
    /// How many names the entry has: its trigger and extras, 0 for an empty trigger.
    fn names(&self, entry: usize) -> usize;
    /// Name `k` of the entry (0: the trigger), normalized.
    fn name(&self, entry: usize, k: usize) -> &str;
    /// Name `k` stemmed word by word (asked only when word forms are compared).
    fn stemmed(&self, entry: usize, k: usize) -> &str;
    /// Whether some trigger or extra has this word (of any entry: one with
    /// an empty trigger has no names, but its extras' words count here).
    fn has_word(&self, word: &str) -> bool;
    /// Whether some trigger or extra has a word with this stem.
    fn has_stem(&self, stem: &str) -> bool;
    /// The words of the triggers and extras one edit away from `word` ([`words::one_edit`]).
    fn near_words(&self, word: &str) -> Vec<&str>;
}

/// A workspace's binding and its derived tables, as a [`Vocabulary`].
struct Bound<'a> {
    b: &'a crate::model::Bindings,
    names: &'a super::names::Names,
}

impl Vocabulary for Bound<'_> {
    fn entries(&self) -> usize {
        self.b.entries.len()
    }
    fn op(&self, entry: usize) -> Op {
        self.b.entries[entry].op
    }
    fn names(&self, entry: usize) -> usize {
        let e = &self.b.entries[entry];
        if e.trigger.is_empty() {
            0
        } else {
            1 + e.extras.len()
        }
    }
    fn name(&self, entry: usize, k: usize) -> &str {
        let e = &self.b.entries[entry];
        if k == 0 {
            &e.trigger
        } else {
            &e.extras[k - 1]
        }
    }
    fn stemmed(&self, entry: usize, k: usize) -> &str {
        self.names.stems(self.b).get(entry).and_then(|s| s.get(k)).map_or_else(|| self.name(entry, k), String::as_str)
    }
    fn has_word(&self, word: &str) -> bool {
        self.names.vocabulary(self.b).contains(word)
    }
    fn has_stem(&self, stem: &str) -> bool {
        self.names.vocabulary_stems(self.b).contains(stem)
    }
    fn near_words(&self, word: &str) -> Vec<&str> {
        self.names.vocabulary(self.b).iter().filter(|v| words::one_edit(word, v)).map(String::as_str).collect()
    }
}

/// [`rank`] over any [`Vocabulary`], given the exact tiers' answer
/// (`exact`: [`crate::model::Bindings::exact_match`] of the normalized query).
pub fn rank_with(exact: Option<(EntryId, bool)>, src: &dyn Vocabulary, query: &TriggerQuery, limit: usize) -> Vec<Hit> {
    let q = normalize(&query.text);
    if q.is_empty() || limit == 0 {
        return Vec::new();
    }
    let mut hits: Vec<Hit> = Vec::new();
    if let Some((entry, extra)) = exact {
        let kind = if extra { HitKind::ExactExtra } else { HitKind::ExactTrigger };
        hits.push(Hit { entry, kind, score: u32::MAX });
        if limit == 1 {
            return hits;
        }
    }
    let query_text = match query.op {
        Some(op) => format!("{} {q}", op.word()),
        None => q.clone(),
    };
    let mut fuzzy_hits: Vec<Hit> = Vec::new();
    let unknown: Vec<&str> = q.split_whitespace().filter(|w| !src.has_word(w)).collect();
    // Word forms are compared only when a query word is no word of any
    // trigger or extra but shares its stem with one, and typos only when a
    // long one is one edit from one: each tier's cost is paid only by the
    // queries it can help (an off-topic query skips both).
    let forms = unknown.iter().any(|w| src.has_stem(&words::stem_phrase(w)));
    // The words a typo correction can bring in: those one edit from a long
    // query word (known or not: [`words::correct_typos`] corrects any long
    // word the candidate lacks), names' words or the operator word the
    // candidate starts with (`wheen` → `when`). Typos are tried only when an
    // unknown word has one among the names' words; a candidate without one
    // is not corrected.
    // Each vocabulary scan once: the unknown words' first, the others' only when typos are tried.
    let long: Vec<&str> = q.split_whitespace().filter(|w| w.chars().count() >= words::MIN_TYPO_LEN).collect();
    let mut near: Vec<&str> = long.iter().filter(|w| unknown.contains(w)).flat_map(|w| src.near_words(w)).collect();
    let typos = !near.is_empty();
    if typos {
        near.extend(long.iter().filter(|w| !unknown.contains(w)).flat_map(|w| src.near_words(w)));
        if query.op.is_some() {
            near.extend(["when", "how"].into_iter().filter(|op| long.iter().any(|w| words::one_edit(w, op))));
        }
    }
    let query_stems = words::stem_phrase(&query_text);
    let (letters, stems) = (fuzzy::Prepared::new(&query_text), fuzzy::Prepared::new(&query_stems));
    let mut cand = String::new();
    let mut stemmed = String::new();
    for i in 0..src.entries() {
        let entry = EntryId(i as u32);
        if hits.iter().any(|h| h.entry == entry) {
            continue;
        }
        let mut best: Option<u32> = None;
        for k in 0..src.names(i) {
            cand.clear();
            stemmed.clear();
            if query.op.is_some() {
                cand.push_str(src.op(i).word());
                cand.push(' ');
                stemmed.push_str(src.op(i).word());
                stemmed.push(' ');
            }
            cand.push_str(src.name(i, k));
            // Letters in order; else word forms (stems on both sides); else one
            // typo per long word. Each tier first checks that the candidate has
            // every letter the query needs.
            let score = (letters.could_match(fuzzy::letters(&cand)))
                .then(|| letters.score(&cand))
                .flatten()
                .or_else(|| {
                    if !forms {
                        return None;
                    }
                    stemmed.push_str(src.stemmed(i, k));
                    stems.could_match(fuzzy::letters(&stemmed)).then(|| stems.score(&stemmed)).flatten()
                })
                .or_else(|| {
                    if !typos || !near.iter().any(|w| cand.contains(w)) {
                        return None;
                    }
                    fuzzy::score(&words::correct_typos(&query_text, &cand)?, &cand)
                });
            if let Some(s) = score {
                best = Some(best.map_or(s, |b| b.max(s)));
            }
        }
        if let Some(score) = best {
            fuzzy_hits.push(Hit { entry, kind: HitKind::Fuzzy, score });
        }
    }
    fuzzy_hits.sort_by(|a, b| b.score.cmp(&a.score).then(a.entry.cmp(&b.entry)));
    hits.extend(fuzzy_hits);
    hits.truncate(limit);
    hits
}

/// The heading an entry resolves to: the one it binds, else (a drifted,
/// orphan entry) the semantic heading of its section's file it most resembles
/// ([`similar`]), as the resolver prints it. None for empty, structural or
/// unplaced entries. Drifted targets depend on the decision files only, so
/// they are memoised across index edits.
///
/// Only the headings sharing the most word keys with the trigger are scored
/// ([`similar::KeyIndex::ranked`], as for orphan suggestions): a million
/// orphans against a file of a thousand look-alike headings cost a million
/// short lists, not a billion scorings.
pub fn entry_target(ws: &Workspace, e: &EntryInfo) -> Option<HeadingId> {
    if e.heading.is_some() {
        return e.heading;
    }
    if e.trigger.is_empty() || e.structural.is_some() {
        return None;
    }
    let file = e.section_file?;
    let memo = ws.cached(Depends::Decisions, |_| DriftTargets::default());
    let lock = || memo.0.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&hit) = lock().get(&file).and_then(|m| m.targets.get(&*e.trigger)) {
        return hit;
    }
    let d = ws.file(file)?.decision()?;
    let keys = lock().entry(file).or_default().keys.clone();
    let keys = keys.unwrap_or_else(|| {
        let mut k = FileKeys::default();
        for (i, h) in d.headings.iter().enumerate().filter(|(_, h)| h.is_semantic()) {
            k.index.insert(k.headings.len() as u32, &h.title);
            k.headings.push(i as u32);
        }
        let k = std::sync::Arc::new(k);
        lock().entry(file).or_default().keys = Some(k.clone());
        k
    });
    // A file without semantic headings: nothing to drift to, nothing to remember.
    if keys.headings.is_empty() {
        return None;
    }
    // In file order, so ties go to the earlier heading.
    let mut numbers: Vec<u32> = keys.index.ranked(&e.trigger).into_iter().map(|c| c.0).collect();
    if numbers.is_empty() {
        // No heading shares a word with the trigger: as cheap to find again
        // as to remember (a million unlike orphans would hold a million keys).
        return None;
    }
    numbers.sort_unstable();
    let cands = numbers.into_iter().filter_map(|n| {
        let idx = *keys.headings.get(n as usize)?;
        Some((HeadingId { file, idx }, d.headings.get(idx as usize)?.title.as_str()))
    });
    let hit = similar::rank(&e.trigger, cands, 1).first().map(|(h, _)| *h);
    lock().entry(file).or_default().targets.insert(e.trigger.to_string(), hit);
    hit
}

/// Per section file: drifted entries' targets by normalized trigger, and
/// the file's semantic headings by word key.
#[derive(Default)]
struct DriftTargets(std::sync::Mutex<rustc_hash::FxHashMap<FileId, FileDrift>>);

#[derive(Default)]
struct FileDrift {
    targets: rustc_hash::FxHashMap<String, Option<HeadingId>>,
    keys: Option<std::sync::Arc<FileKeys>>,
}

/// A decision file's semantic headings numbered in file order, by word key.
#[derive(Default)]
struct FileKeys {
    index: similar::KeyIndex,
    /// Number → the heading's position in the file.
    headings: Vec<u32>,
}

/// The entry a query resolves to, if any (kept while the binding is: see [`rank`]).
pub fn resolve(ws: &Workspace, query: &TriggerQuery) -> Option<Hit> {
    rank(ws, query, 1).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Config;
    use crate::syntax::index::Op;

    fn ws() -> Workspace {
        let mut ws = Workspace::new(Config::default());
        ws.set_file(
            "agents/memory-index.md",
            "## agents/decisions/a.md\n/when choosing review gates\n/when review gates | gate\n/how gate things\n"
                .into(),
        );
        ws
    }

    #[test]
    fn parse_splits_the_operator() {
        assert_eq!(
            TriggerQuery::parse("how to encode paths"),
            TriggerQuery { op: Some(Op::How), text: "encode paths".into() }
        );
        assert_eq!(TriggerQuery::parse("When x"), TriggerQuery { op: Some(Op::When), text: "x".into() });
        assert_eq!(TriggerQuery::parse("whenever"), TriggerQuery { op: None, text: "whenever".into() });
    }

    #[test]
    fn exact_trigger_wins_over_longer_fuzzy_match() {
        let ws = ws();
        let hit = resolve(&ws, &TriggerQuery::parse("when review gates")).unwrap();
        assert_eq!((hit.entry, hit.kind), (EntryId(1), HitKind::ExactTrigger));
    }

    #[test]
    fn same_operator_exact_beats_other_operator() {
        let ws = ws();
        assert_eq!(resolve(&ws, &TriggerQuery::parse("when gate")).map(|h| h.entry), Some(EntryId(1)));
        assert_eq!(resolve(&ws, &TriggerQuery::parse("how gate things")).map(|h| h.entry), Some(EntryId(2)));
    }

    #[test]
    fn off_topic_is_no_match() {
        assert_eq!(resolve(&ws(), &TriggerQuery::parse("kubernetes autoscaling")), None);
    }

    /// A drifted entry among two thousand look-alike headings still finds
    /// the one sharing its distinctive word, scoring a short list only.
    #[test]
    fn a_drifted_entry_finds_its_heading_among_look_alikes() {
        let mut ws = Workspace::new(Config::default());
        let mut doc = String::from("# A\n");
        for m in 0..2000 {
            let topic = if m == 1500 { "invoices" } else { "module" };
            doc.push_str(&format!("## When Writing Mock Tests For {topic} {m}\nx\n"));
        }
        ws.set_file("agents/decisions/a.md", doc.into());
        ws.set_file(
            "agents/memory-index.md",
            "## agents/decisions/a.md\n/when writing mock tests for invoice\n".into(),
        );
        let e = &ws.bindings().entries[0];
        assert_eq!(e.heading, None, "an orphan");
        let target = entry_target(&ws, e).expect("a drift target");
        assert_eq!(ws.heading(target).map(|h| h.title.as_str()), Some("When Writing Mock Tests For invoices 1500"));
    }
}
