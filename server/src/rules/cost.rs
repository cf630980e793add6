//! What the index costs an agent in tokens, per line: built once, patched after a splice.
//!
//! The index is loaded into every agent context, so its size in tokens is
//! what `index-token-budget` checks and what a section's hover shows. Lines
//! are counted one by one ([`crate::text::tokens::count`]), so an index edit
//! re-counts only the lines it changed. A line is counted with its line end:
//! the sum is within a few percent of counting the whole file at once (blank
//! lines are a token each instead of joining the line end before them).

use std::sync::Arc;

use crate::model::{Depends, Workspace};
use crate::text::tokens;

/// Tokens per index line, and per section.
#[derive(Clone, Debug, Default)]
pub struct IndexCost {
    lines: Vec<u32>,
    total: usize,
    /// Per index section: its lines (`start..end`, heading included) and
    /// their tokens, so an edit's re-check ranks sections without summing
    /// every line again.
    sections: Vec<SectionCost>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SectionCost {
    start: u32,
    end: u32,
    tokens: u32,
}

impl IndexCost {
    /// The cost of `ws`'s index (empty without one), per state of the index.
    pub fn of(ws: &Workspace) -> Arc<IndexCost> {
        ws.cached(Depends::IndexAndDecisions, |ws| {
            let Some((_, src, index)) = ws.index() else { return IndexCost::default() };
            let text = |i: usize| {
                let start = src.line_index.line_start(i);
                let end = src.line_index.line_start(i + 1).max(start);
                &src.text[start..end.min(src.text.len())]
            };
            let bounds = || index.sections.iter().map(|s| (s.heading_line as u32, s.end_line as u32));
            let patched = ws.index_splice().and_then(|sp| {
                let mut c = sp.take_base_owned::<IndexCost>()?;
                if c.lines.len() != index.line_count() {
                    return None;
                }
                // A splice touches no section heading, so sections keep their
                // lines; were that ever not so, their sums are made afresh.
                let same_sections = c.sections.len() == index.sections.len()
                    && c.sections.iter().map(|s| (s.start, s.end)).eq(bounds());
                for i in sp.lines.clone() {
                    let (was, now) = (c.lines[i], tokens::count(text(i)) as u32);
                    c.total = c.total - was as usize + now as usize;
                    c.lines[i] = now;
                    let k = c.sections.partition_point(|s| s.start as usize <= i);
                    let section = k.checked_sub(1).and_then(|k| c.sections.get_mut(k));
                    if let Some(s) = section.filter(|s| same_sections && i < s.end as usize) {
                        s.tokens = s.tokens - was + now;
                    }
                }
                if !same_sections {
                    c.sections = sums(&c.lines, bounds());
                }
                Some(c)
            });
            patched.unwrap_or_else(|| {
                // Every line: through one counter, which remembers the words they share.
                let mut counter = tokens::Counter::default();
                let lines: Vec<u32> = (0..index.line_count()).map(|i| counter.count(text(i)) as u32).collect();
                let total = lines.iter().map(|&n| n as usize).sum();
                let sections = sums(&lines, bounds());
                IndexCost { lines, total, sections }
            })
        })
    }

    /// Tokens of index section `k` (0 past the last).
    pub fn section(&self, k: usize) -> usize {
        self.sections.get(k).map_or(0, |s| s.tokens as usize)
    }

    /// Tokens of the whole index.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Tokens of index line `i`, its line end included (0 past the end).
    pub fn line(&self, i: usize) -> usize {
        self.lines.get(i).map_or(0, |&n| n as usize)
    }

    /// Tokens of index lines `lines` (clamped to the index).
    pub fn lines(&self, lines: std::ops::Range<usize>) -> usize {
        let end = lines.end.min(self.lines.len());
        self.lines[lines.start.min(end)..end].iter().map(|&n| n as usize).sum()
    }
}

/// Each section's tokens: the sum of its lines'.
fn sums(lines: &[u32], bounds: impl Iterator<Item = (u32, u32)>) -> Vec<SectionCost> {
    bounds
        .map(|(start, end)| {
            let end_at = (end as usize).min(lines.len());
            let tokens = lines[(start as usize).min(end_at)..end_at].iter().sum();
            SectionCost { start, end, tokens }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileText;

    /// Every line counted afresh.
    fn fresh(text: &str) -> Vec<u32> {
        text.split_inclusive('\n').map(|l| tokens::count(l) as u32).collect()
    }

    #[test]
    fn a_splice_recounts_its_lines_and_keeps_the_rest() {
        let index = "# Index\n\n## agents/decisions/a.md\n\n/when alpha\n/when beta | b\n";
        let mut ws = Workspace::default();
        ws.set_file("agents/memory-index.md", FileText::from(index));
        ws.set_file("agents/decisions/a.md", FileText::from("# A\n\n## When Alpha\n\nx\n\n## When Beta\n\ny\n"));
        assert_eq!(IndexCost::of(&ws).lines, fresh(index));
        let edits = [
            index.replace("alpha", "alpha with many more words in it"),
            index.replace("beta | b", "beta | b, c, d"),
            index.replace("/when alpha", "/when a"),
        ];
        for text in edits {
            let _ = ws.bindings(); // a splice updates a bound base state
            ws.set_file("agents/memory-index.md", FileText::from(text.as_str()));
            assert!(ws.index_splice().is_some(), "an entry retyped: a splice");
            let cost = IndexCost::of(&ws);
            assert_eq!(cost.lines, fresh(&text), "{text:?}");
            assert_eq!(cost.total(), fresh(&text).iter().map(|&n| n as usize).sum::<usize>());
            assert_eq!(cost.lines(2..6), fresh(&text)[2..].iter().map(|&n| n as usize).sum::<usize>());
            assert_eq!(cost.section(0), cost.lines(2..6), "the section's sum follows its lines");
            assert_eq!(cost.section(1), 0, "past the last section");
        }
    }

    #[test]
    fn section_sums_follow_every_edit_even_one_that_moves_a_section() {
        let index = "# Index\n\n## agents/decisions/a.md\n\n/when alpha\n/when beta\n\n## agents/decisions/b.md\n\n/when gamma\n/when delta | d\n";
        let mut ws = Workspace::default();
        ws.set_file("agents/memory-index.md", FileText::from(index));
        ws.set_file("agents/decisions/a.md", FileText::from("# A\n\n## When Alpha\n\nx\n\n## When Beta\n\ny\n"));
        ws.set_file("agents/decisions/b.md", FileText::from("# B\n\n## When Gamma\n\nx\n\n## When Delta\n\ny\n"));
        let edits = [
            index.replace("/when alpha", "/when alpha with more words"),
            index.replace("/when delta | d", "/when delta | d, e, f, g"),
            index.replace("/when beta", "## agents/decisions/c.md"),
            index.replace("/when gamma", "/when gamma, gamma, gamma"),
            index.replace("## agents/decisions/b.md", "/when b"),
            index.to_string(),
        ];
        for text in edits {
            let _ = rules_state(&ws);
            ws.set_file("agents/memory-index.md", FileText::from(text.as_str()));
            let cost = IndexCost::of(&ws);
            let Some((_, _, parsed)) = ws.index() else { panic!("an index") };
            let lines = fresh(&text);
            for (k, s) in parsed.sections.iter().enumerate() {
                let want: u32 = lines[s.heading_line..s.end_line].iter().sum();
                assert_eq!(cost.section(k), want as usize, "section {k} of {text:?}");
            }
            assert_eq!(cost.section(parsed.sections.len()), 0);
        }
    }

    /// What an edit's re-check starts from: the bound state and its costs.
    fn rules_state(ws: &Workspace) -> Arc<IndexCost> {
        let _ = ws.bindings();
        IndexCost::of(ws)
    }
}
