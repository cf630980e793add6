//! Editor and CLI features over the engine, one module per feature; plain data in and out.

pub mod compress;
pub mod fix_all;
pub mod resolve;
