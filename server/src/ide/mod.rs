//! Editor and CLI features over the engine, one module per feature; plain data in and out.

pub mod fix_all;
pub mod resolve;
