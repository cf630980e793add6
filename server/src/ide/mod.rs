//! Editor and CLI features over the engine, one module per feature; plain data in and out.

pub mod completion;
/// Key compression lives with the rules (`unindexed-heading` offers a compressed key).
pub use crate::rules::compress;
pub mod file_rename;
pub mod fix_all;
pub mod hints;
pub mod hover;
pub mod invocations;
pub mod navigate;
pub mod rename;
pub mod report;
pub mod resolve;
pub mod scope;
pub mod search;
pub mod symbols;
pub mod target;
pub mod tokens;
