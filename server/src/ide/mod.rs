//! Editor and CLI features over the engine, one module per feature; plain data in and out.

pub mod capture;
pub mod completion;
/// Key compression lives with the rules (`unindexed-heading` offers a compressed key).
pub use crate::rules::compress;
pub mod eval;
pub mod file_rename;
pub mod fix_all;
pub mod hints;
pub mod hover;
pub mod import;
pub mod inject;
pub mod invocations;
pub mod navigate;
pub mod recall_stats;
pub mod recall_view;
pub mod remember;
pub mod rename;
pub mod report;
pub mod resolve;
pub mod scope;
pub mod search;
pub mod symbols;
pub mod target;
pub mod tokens;
