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

/// Tokens per index line.
#[derive(Clone, Debug, Default)]
pub struct IndexCost {
    lines: Vec<u32>,
    total: usize,
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
            let patched = ws.index_splice().and_then(|sp| {
                let mut c = sp.take_base_owned::<IndexCost>()?;
                if c.lines.len() != index.line_count() {
                    return None;
                }
                for i in sp.lines.clone() {
                    let now = tokens::count(text(i)) as u32;
                    c.total = c.total - c.lines[i] as usize + now as usize;
                    c.lines[i] = now;
                }
                Some(c)
            });
            patched.unwrap_or_else(|| {
                // Every line: through one counter, which remembers the words they share.
                let mut counter = tokens::Counter::default();
                let lines: Vec<u32> = (0..index.line_count()).map(|i| counter.count(text(i)) as u32).collect();
                let total = lines.iter().map(|&n| n as usize).sum();
                IndexCost { lines, total }
            })
        })
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
        }
    }
}
