//! memory-index-lsp: keeps an agent memory index and its decision files in sync.
pub mod edit;
pub mod model;
pub mod search;
pub mod syntax;
pub mod text;
