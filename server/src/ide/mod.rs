//! Editor and CLI features over the engine, one module per feature; plain data in and out.

pub mod completion;
pub mod compress;
pub mod eval;
pub mod file_rename;
pub mod fix_all;
pub mod hints;
pub mod hover;
pub mod invocations;
pub mod navigate;
pub mod quick_fix;
pub mod recall_stats;
pub mod remember;
pub mod rename;
pub mod report;
pub mod resolve;
pub mod search;
pub mod symbols;
pub mod target;
pub mod tokens;
