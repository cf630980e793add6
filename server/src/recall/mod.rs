//! Agent recall over the engine, one module per concern; plain data in and out: what the hooks inject, the recall view they read, capture at a session's end, the memory's writers (`import`, `remember`), and their measurement (`eval`, `stats`).

pub mod capture;
pub mod eval;
pub mod import;
pub mod inject;
pub mod remember;
pub mod stats;
pub mod view;
