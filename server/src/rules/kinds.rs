//! What a rule's registry line declares besides its code and severity: its lane, what owns its findings after a splice, its fixes, when they are made, what it reads.

/// Which part of a check runs a rule: lanes are what a full check runs on
/// separate threads, and what an index edit re-runs (see `rules::check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// Whole files and section names: what no index splice can change.
    Files,
    /// Per index line or entry, and the ranking of orphans' candidates.
    Entries,
    /// Keys bound across entries and headings (duplicates, collisions).
    Keys,
    /// The decision files alone: kept across index edits.
    Decisions,
}

/// The part of the workspace that owns a rule's findings after an index
/// splice: those findings are dropped and re-checked, the others kept
/// (see `rules::incremental`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The index line the finding is on (a changed line).
    Line,
    /// The entry on the finding's line (an entry in the re-check scope).
    Entry,
    /// The index section the finding is in (a changed line's section).
    Section,
    /// The decision file the finding is on (a file in the re-check scope).
    File,
    /// The whole index: re-checked after every splice.
    Index,
    /// Nothing a splice changes: the finding is kept as it is.
    Nothing,
}

/// What the fixes of a rule's findings may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fixes {
    /// At most one safe fix (what `fix` and fix-all apply), maybe suggestions too.
    Safe,
    /// Suggestions only: a choice the user makes, never applied by fix-all.
    Suggestions,
    /// No fix.
    None,
}

/// When a rule's message and fixes are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    /// When the finding is found: it carries them.
    Found,
    /// When the finding is shown: the rule's module builds them from the
    /// finding and its workspace (`message(ws, f) -> Option<String>`, None
    /// for the carried one, and `fixes(ws, f) -> Vec<Fix>`, every fix shown),
    /// so a million findings do not cost a million messages or fixes.
    Shown,
}

/// What a rule reads besides the workspace's parsed files and binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Nothing more.
    Plain,
    /// The index's token counts (`rules::cost::IndexCost`): counted on a second
    /// thread while the other rules run, when the index is long.
    Tokens,
}
