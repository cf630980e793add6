//! The caches behind `orphan-entry`'s suggestions, kept across index edits: ranked candidates, resemblance memos.
//!
//! Ranking an orphan's candidates (the unindexed headings sharing the most
//! word keys with its trigger, then by resemblance) is the costliest part of
//! a check. What it needs is built once per state and patched after a splice
//! ([`Unbound`]), memoised per trigger across index edits ([`Resemblance`]),
//! and remembered per trigger ([`OrphanLists`]) so that a splice which
//! switches a heading between bound and unbound re-ranks only the orphans
//! whose suggestions can change ([`affected_orphans`]).

use std::sync::Arc;

use crate::model::{Depends, HeadingId, Workspace};
use crate::search::similar;

/// Most orphan triggers whose candidates and scores are remembered for the next index state.
const MEMO_MAX: usize = 50_000;

/// Ranks an orphan trigger's candidates, and remembers the list and the
/// suggestions per trigger for the next index state (see [`affected_orphans`]).
pub(crate) struct Suggester<'a> {
    ws: &'a Workspace,
    semantic: Arc<Semantic>,
    unbound: Arc<Unbound>,
    lists: Arc<OrphanLists>,
    memo: Arc<Resemblance>,
}

impl<'a> Suggester<'a> {
    pub(crate) fn new(ws: &'a Workspace) -> Self {
        Suggester {
            ws,
            semantic: Semantic::of(ws),
            unbound: Unbound::of(ws),
            lists: OrphanLists::of(ws),
            // Resemblance depends on the trigger and the title only: memoised across index edits.
            memo: ws.cached(Depends::Decisions, |_| Resemblance::default()),
        }
    }

    /// The (at most three) unbound semantic headings `trigger` resembles
    /// most, best first: candidates are the unbound headings sharing the
    /// most word keys with it, ranked by resemblance. Records the candidate
    /// list and the answer for `trigger`.
    pub(crate) fn suggest(&mut self, trigger: &str) -> Vec<(HeadingId, u32)> {
        let ranked = self.unbound.0.ranked(trigger);
        if ranked.is_empty() {
            // Nothing shares a word with it: nothing to remember either (a
            // missing list is read as "re-rank when a heading sharing a
            // word switches"), so 300,000 unlike orphans keep no memo.
            self.lists.0.lock().unwrap_or_else(|p| p.into_inner()).remove(trigger);
            return Vec::new();
        }
        let mut numbers: Vec<u32> = ranked.iter().map(|c| c.0).collect();
        numbers.sort_unstable();
        let (ws, semantic) = (self.ws, &self.semantic);
        let candidates = numbers.into_iter().filter_map(|n| {
            let h = *semantic.order.get(n as usize)?;
            Some((h, ws.heading(h)?.title.as_str()))
        });
        let mut memo = self.memo.0.lock().unwrap_or_else(|p| p.into_inner());
        // Memos speed up the next index state; past MEMO_MAX triggers they
        // would cost more memory than they save time (a missing memo is
        // recomputed, a missing list re-ranks: the answer is the same).
        let remember = memo.len() < MEMO_MAX;
        if remember && !memo.contains_key(trigger) {
            memo.insert(trigger.to_string(), Default::default());
        }
        let resembler = std::cell::OnceCell::new();
        let best = match memo.get_mut(trigger) {
            Some(known) => similar::rank_candidates(candidates, 3, |h, title| {
                *known
                    .entry(h)
                    .or_insert_with(|| resembler.get_or_init(|| similar::Resembler::new(trigger)).score(title))
            }),
            None => similar::rank_candidates(candidates, 3, |_, title| {
                resembler.get_or_init(|| similar::Resembler::new(trigger)).score(title)
            }),
        };
        let mut lists = self.lists.0.lock().unwrap_or_else(|p| p.into_inner());
        if lists.len() < MEMO_MAX || lists.contains_key(trigger) {
            lists.insert(
                trigger.to_string(),
                Suggested { ranked: similar::Ranked::new(ranked), best: best.iter().map(|b| b.0).collect() },
            );
        } else {
            lists.remove(trigger);
        }
        best
    }
}

/// An orphan trigger's candidate list and the headings it suggested.
#[derive(Clone)]
struct Suggested {
    ranked: similar::Ranked,
    best: Vec<HeadingId>,
}

/// The semantic headings in path order: their positions number [`Unbound`]'s titles.
#[derive(Default)]
struct Semantic {
    order: Vec<HeadingId>,
    /// Per file id: the range of `numbers` that holds its headings.
    files: Vec<(u32, u32)>,
    /// Per heading of each decision file: its position in `order` (`u32::MAX`: not semantic).
    numbers: Vec<u32>,
}

impl Semantic {
    fn of(ws: &Workspace) -> Arc<Semantic> {
        ws.cached(Depends::Decisions, |ws| {
            let mut s = Semantic::default();
            for (file, _, d) in ws.decisions() {
                let slot = file.0 as usize;
                if s.files.len() <= slot {
                    s.files.resize(slot + 1, (0, 0));
                }
                s.files[slot] = (s.numbers.len() as u32, d.headings.len() as u32);
                for (i, h) in d.headings.iter().enumerate() {
                    if h.is_semantic() {
                        s.numbers.push(s.order.len() as u32);
                        s.order.push(HeadingId { file, idx: i as u32 });
                    } else {
                        s.numbers.push(u32::MAX);
                    }
                }
            }
            s
        })
    }

    /// The position of semantic heading `h` in `order`.
    fn position(&self, h: HeadingId) -> Option<u32> {
        let &(start, len) = self.files.get(h.file.0 as usize)?;
        let n = *self.numbers.get((start + h.idx) as usize).filter(|_| h.idx < len)?;
        (n != u32::MAX).then_some(n)
    }
}

/// The semantic headings no entry binds, by word key: built once per index
/// state, or patched from the previous state after a splice (only headings
/// the changed entries bound, before or after, can have changed).
#[derive(Clone, Default)]
pub(crate) struct Unbound(similar::KeyIndex);

impl Unbound {
    fn of(ws: &Workspace) -> Arc<Unbound> {
        ws.cached(Depends::IndexAndDecisions, |ws| {
            let semantic = Semantic::of(ws);
            let b = ws.bindings();
            let title = |h: HeadingId| ws.heading(h).map_or("", |h| h.title.as_str());
            if let Some((sp, mut u)) = ws.index_splice().and_then(|sp| Some((sp, sp.take_base_owned::<Unbound>()?))) {
                for (id, old) in &sp.base_entries {
                    for h in [old.heading, b.entry(*id).heading].into_iter().flatten() {
                        let Some(n) = semantic.position(h) else { continue };
                        if b.entries_of(h).is_empty() {
                            u.0.insert(n, title(h));
                        } else {
                            u.0.remove(n, title(h));
                        }
                    }
                }
                return u;
            }
            let mut u = Unbound::default();
            for (n, &h) in semantic.order.iter().enumerate() {
                if b.entries_of(h).is_empty() {
                    u.0.insert(n as u32, title(h));
                }
            }
            u
        })
    }
}

/// Each orphan trigger's candidate list and suggestions, per index state:
/// seeded from the splice's base state, refreshed for every orphan ranked.
#[derive(Default)]
pub(crate) struct OrphanLists(std::sync::Mutex<rustc_hash::FxHashMap<String, Suggested>>);

impl OrphanLists {
    fn of(ws: &Workspace) -> Arc<OrphanLists> {
        ws.cached(Depends::IndexAndDecisions, |ws| {
            let base = ws.index_splice().and_then(|sp| sp.take_base::<OrphanLists>());
            let seeded = base.map(|b| match Arc::try_unwrap(b) {
                Ok(lists) => lists.0.into_inner().unwrap_or_else(|p| p.into_inner()),
                Err(shared) => shared.0.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            });
            OrphanLists(std::sync::Mutex::new(seeded.unwrap_or_default()))
        })
    }
}

/// The orphans (ids in `orphans`, keyed by their triggers' words, triggers
/// from `ws`) whose finding can change after a splice that switched the
/// headings `toggled` to unbound (`true`) or bound (`false`). Only orphans
/// sharing a word key with a switched heading are looked at; of those, the
/// ones whose candidate list the heading enters or leaves (judged by the
/// base state's lists) are ranked again, and only those whose suggestions
/// then differ are returned: the others' findings are the base state's.
/// Without a base list, every orphan sharing a word key is returned.
pub(crate) fn affected_orphans(ws: &Workspace, toggled: &[(HeadingId, bool)], orphans: &similar::KeyIndex) -> Vec<u32> {
    let semantic = Semantic::of(ws);
    let b = ws.bindings();
    let toggled: Vec<(u32, Vec<u64>, bool)> = toggled
        .iter()
        .filter_map(|&(h, on)| {
            let n = semantic.position(h)?;
            Some((n, similar::word_keys(&ws.heading(h)?.title).collect(), on))
        })
        .collect();
    let keys: Vec<u64> = toggled.iter().flat_map(|t| t.1.iter().copied()).collect();
    let mut suggester = Suggester::new(ws);
    let mut affected = Vec::new();
    // Per trigger (orphans can share one): whether its finding changes.
    let mut decided: rustc_hash::FxHashMap<&str, bool> = rustc_hash::FxHashMap::default();
    for o in orphans.with_any_key(&keys) {
        let Some(e) = b.entries.get(o as usize) else { continue };
        if let Some(&changes) = decided.get(&*e.trigger) {
            if changes {
                affected.push(o);
            }
            continue;
        }
        let before = suggester.lists.0.lock().unwrap_or_else(|p| p.into_inner()).get(&*e.trigger).cloned();
        let changes = match before {
            None => toggled.iter().any(|(_, keys, _)| similar::shared_keys(&e.trigger, keys) > 0),
            Some(before) => {
                let list_changed = toggled.iter().any(|(n, keys, on)| {
                    let shared = similar::shared_keys(&e.trigger, keys);
                    before.ranked.changed_by(*n, shared, *on)
                });
                list_changed && suggester.suggest(&e.trigger).iter().map(|s| s.0).ne(before.best.iter().copied())
            }
        };
        decided.insert(&e.trigger, changes);
        if changes {
            affected.push(o);
        }
    }
    affected
}

/// Resemblance scores by normalized trigger and heading, for the current decision files.
#[derive(Default)]
struct Resemblance(std::sync::Mutex<rustc_hash::FxHashMap<String, rustc_hash::FxHashMap<HeadingId, Option<u32>>>>);
