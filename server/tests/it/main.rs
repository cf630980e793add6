//! The integration tests, one binary: the CLI, the language server over stdio,
//! the engine through the public API, the corpus, and the repository's tidiness.
//!
//! Each module was a test binary of its own; one binary links once. Run one
//! module with `cargo test --test it MODULE::` (e.g. `cargo test --test it rules::`).

mod lsp_support;
mod support;

mod adoption;
mod adoption_hostile;
mod agent_faults;
mod agent_hostile;
mod agents_hook;
mod capture;
mod cli;
mod containment;
mod corpus;
mod docs;
mod embed_model;
mod file_recall;
mod hook;
mod hostile;
mod ide_snapshots;
mod import_properties;
mod init;
mod init_agents;
mod lsp_navigation;
mod lsp_refactor;
mod lsp_stdio;
mod lsp_stress;
mod lsp_workspace;
mod navigation;
mod output;
mod project_root;
mod properties;
mod recall_stats;
mod recall_view;
mod remember;
mod rename;
mod resolve_cli;
mod resolve_eval;
mod rules;
mod search_cache;
mod semantic;
mod tidy;
mod weak_spots;
