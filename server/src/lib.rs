//! memory-index-lsp: keeps an agent memory index and its decision files in sync.
//!
//! Layers, each depending only on those before it:
//! `text` (offsets, lines, encodings, token counts) → `edit` (text edits,
//! fixes as data) and `syntax` (lossless parsers) → `model` (workspace,
//! config, binding, caches) → `search` (fuzzy and trigger matching, recall) →
//! `rules` (one rule per file and a registry line) → `ide` (editor
//! features, pure) → `recall` (agent recall: injection, the recall view,
//! capture, import and remember, their measurement; pure) → `project`, the service layer (finding the project, loading it, the
//! guarded reader, the safe writer, the memory's lock) → the front ends
//! `cli`, `lsp`, `mcp`, `hook` (arguments and protocols), none of which
//! imports another. Only `project` and the front ends touch the file system.
//! `tests/it/tidy.rs` enforces the order and that no modules form an import
//! cycle.
//!
//! Incremental by layer: a workspace re-parses only the file that changed,
//! keeps what it derived from files that did not (`model::Depends`), and
//! treats an index edit inside entry lines as a splice (`model::splice`)
//! that `rules` update findings from (`rules/incremental.rs`). The language
//! server hands the engine an editor's change ranges
//! (`Workspace::edit_file`): the text is edited in place and the changed
//! lines are known without comparing texts; index lines store their ranges
//! relative to their start, so a longer line moves only the starts after it.
//!
//! Decision files are parsed by an exact line scanner for their common shape
//! and by pulldown-cmark for anything else (`syntax/decision/scan.rs`; a
//! differential property test holds the two equal).
//!
//! Parallel where the work is large: loading parses files on every core,
//! the binding and a full check use two threads from a few thousand entries
//! on (below that, a full check counts a long index's tokens on the second),
//! and an incremental update keeps the old findings on one thread while
//! it re-checks the changed part on the other. Results never depend on the
//! thread count (`Workspace::set_threads`; a property test compares one
//! thread with several).

pub mod cli;
pub mod edit;
pub mod hook;
pub mod ide;
pub mod lsp;
pub mod mcp;
pub mod model;
pub mod project;
pub mod recall;
pub mod rules;
pub mod search;
pub mod syntax;
pub mod text;

/// The generated workspaces of tests and benchmarks (dev-only).
#[cfg(test)]
#[path = "../tests/it/support/gen.rs"]
pub(crate) mod testgen;
