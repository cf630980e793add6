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
            let line = |i: usize| {
                let start = src.line_index.line_start(i);
                let end = src.line_index.line_start(i + 1).max(start);
                tokens::count(&src.text[start..end.min(src.text.len())]) as u32
            };
            let patched = ws.index_splice().and_then(|sp| {
                let mut c = sp.take_base_owned::<IndexCost>()?;
                if c.lines.len() != index.line_count() {
                    return None;
                }
                for i in sp.lines.clone() {
                    let now = line(i);
                    c.total = c.total - c.lines[i] as usize + now as usize;
                    c.lines[i] = now;
                }
                Some(c)
            });
            patched.unwrap_or_else(|| {
                let lines: Vec<u32> = (0..index.line_count()).map(line).collect();
                let total = lines.iter().map(|&n| n as usize).sum();
                IndexCost { lines, total }
            })
        })
    }

    /// Tokens of the whole index.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Tokens of index lines `lines` (clamped to the index).
    pub fn lines(&self, lines: std::ops::Range<usize>) -> usize {
        let end = lines.end.min(self.lines.len());
        self.lines[lines.start.min(end)..end].iter().map(|&n| n as usize).sum()
    }
}
