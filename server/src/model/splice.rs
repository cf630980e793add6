//! Index edits that keep the index's line structure: detected on update, the base of incremental re-checks.
//!
//! Typing inside entry lines changes their text but not which lines are
//! sections, fences, comments or entries. Such an update is a *splice*: the
//! lines `lines` changed, every other line kept its kind and number and only
//! moved by a byte offset. [`Workspace::set_file`](super::Workspace::set_file)
//! recognises it, re-parses and re-binds only the changed lines, and
//! keeps the previous state's derived values ([`IndexSplice::base`]) so a
//! later layer can update its result instead of recomputing it
//! (`rules::findings` does). Anything else (a line added or removed, a
//! section heading, fence or comment touched, the preamble edited, more than
//! [`MAX_LINES`] lines changed) is an ordinary update.
//!
//! Consecutive splices without a check in between compose: the base stays
//! the last state whose derived values were built, and the changed lines
//! become one range covering both edits.

use std::ops::Range;
use std::sync::Arc;

use super::bind::{Bindings, EntryInfo};
use super::cache::Cache;
use super::EntryId;
use crate::syntax::index::IndexFile;
use crate::text::LineIndex;

/// The widest change (in lines) handled as a splice; wider ones re-check everything.
pub const MAX_LINES: usize = 64;

/// What an index update changed since the base state (see the module docs).
/// A clone has no base values (as a cloned workspace has no cached ones).
#[derive(Clone, Debug)]
pub struct IndexSplice {
    /// Index lines whose text may differ from the base (numbering is shared).
    pub lines: Range<usize>,
    /// The base state's line index of the index text, to map its offsets.
    pub base_lines: LineIndex,
    /// The base state's entries on `lines`, as they were bound then.
    pub base_entries: Vec<(EntryId, EntryInfo)>,
    /// Values derived from the base state's index and decision files.
    base: Cache,
}

impl IndexSplice {
    /// A value of type `T` built for the base state, if one was.
    pub fn base<T: std::any::Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.base.get::<T>()
    }

    /// Like [`base`](Self::base), but takes the value out (for a caller that
    /// updates it into the current state's value and needs it only once).
    pub fn take_base<T: std::any::Any + Send + Sync>(&self) -> Option<Arc<T>> {
        self.base.take::<T>()
    }

    /// [`take_base`](Self::take_base) as an owned value, to update in place:
    /// moved out when nothing else holds it (the usual case), else cloned.
    pub fn take_base_owned<T: std::any::Any + Send + Sync + Clone>(&self) -> Option<T> {
        self.take_base::<T>().map(|b| Arc::try_unwrap(b).unwrap_or_else(|shared| (*shared).clone()))
    }
}

/// The bytes an update of `old` into `new` kept at both ends: the lengths
/// of their common prefix and of their common suffix (not overlapping).
pub(super) fn kept_ends(old: &str, new: &str) -> (usize, usize) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let prefix = common_prefix(a, b);
    let max_suffix = a.len().min(b.len()) - prefix;
    (prefix, common_suffix(&a[a.len() - max_suffix..], &b[b.len() - max_suffix..]))
}

/// The lines an edit of an index (`old`: its line index) into `new`
/// changed, and the line index of `new`, when the edit kept the number of
/// lines and changed at most [`MAX_LINES`] of them; whether their parse
/// keeps its structure is [`IndexFile::splice`]'s to decide. `kept` are the
/// bytes the edit kept at both ends ([`kept_ends`], or what the editor's
/// change ranges say): any smaller values are also right, only slower.
pub(super) fn window(old: &LineIndex, new: &str, kept: (usize, usize)) -> Option<(Range<usize>, LineIndex)> {
    let (prefix, suffix) = kept;
    let old_len = old.text_len();
    if prefix + suffix > old_len.min(new.len()) {
        return None;
    }
    if prefix == old_len && prefix == new.len() {
        return Some((0..0, old.clone()));
    }
    let new_lines = old.edited(new, prefix, old_len - suffix);
    if old.line_count() != new_lines.line_count() {
        return None;
    }
    let first = old.line_of(prefix);
    let last = old.line_of(old_len - suffix);
    if new_lines.line_of(prefix) != first || new_lines.line_of(new.len() - suffix) != last {
        return None;
    }
    let lines = first..last + 1;
    (lines.len() <= MAX_LINES).then_some((lines, new_lines))
}

/// Length of the common prefix, compared a block at a time (memcmp), then bytewise.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    i + a[i..n].iter().zip(&b[i..n]).take_while(|(x, y)| x == y).count()
}

/// Length of the common suffix of two slices of equal length.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 256;
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    while i + BLOCK <= n && a[n - i - BLOCK..n - i] == b[n - i - BLOCK..n - i] {
        i += BLOCK;
    }
    i + a[..n - i].iter().rev().zip(b[..n - i].iter().rev()).take_while(|(x, y)| x == y).count()
}

/// The entries on `lines`: their ids and line numbers.
pub(super) fn entries_on(index: &IndexFile, lines: &Range<usize>) -> Vec<(EntryId, usize)> {
    let from = index.entries.partition_point(|&l| l < lines.start);
    let to = index.entries.partition_point(|&l| l < lines.end);
    (from..to).map(|i| (EntryId(i as u32), index.entries[i])).collect()
}

/// Builds the splice record for an update, composing with the previous one
/// when the current state was never checked (its derived values are empty).
pub(super) fn record(
    previous: Option<Box<IndexSplice>>,
    current: Cache,
    current_lines: LineIndex,
    current_bindings: &Bindings,
    lines: Range<usize>,
    index: &IndexFile,
) -> Option<Box<IndexSplice>> {
    let infos = |r: &Range<usize>| -> Vec<(EntryId, EntryInfo)> {
        entries_on(index, r).into_iter().map(|(id, _)| (id, current_bindings.entry(id).clone())).collect()
    };
    if !current.is_empty() {
        let base_entries = infos(&lines);
        return Some(Box::new(IndexSplice { lines, base_lines: current_lines, base_entries, base: current }));
    }
    let mut prev = previous?;
    let union = prev.lines.start.min(lines.start)..prev.lines.end.max(lines.end);
    if union.len() > MAX_LINES {
        return None;
    }
    // Lines outside the previous range still read as in the base state.
    let mut extra: Vec<(EntryId, EntryInfo)> =
        infos(&union).into_iter().filter(|(_, e)| !prev.lines.contains(&e.line)).collect();
    prev.base_entries.append(&mut extra);
    prev.base_entries.sort_by_key(|(id, _)| *id);
    prev.lines = union;
    Some(prev)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_prefix_and_suffix_across_blocks() {
        let a: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        for at in [0, 1, 255, 256, 257, 511, 999] {
            let mut b = a.clone();
            b[at] ^= 1;
            assert_eq!(common_prefix(&a, &b), at);
            assert_eq!(common_suffix(&a, &b), a.len() - at - 1);
        }
        assert_eq!(common_prefix(&a, &a), a.len());
        assert_eq!(common_prefix(&a[..10], &a), 10);
        assert_eq!(common_suffix(&a, &a), a.len());
    }
}
