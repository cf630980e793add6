//! The service layer under every front end: finding the project, loading it, the guarded reader, the safe writer, the memory's lock and applying a change.
//!
//! `cli`, `lsp`, `mcp` and `hook` convert their input, call this layer and
//! convert its answers; none of them imports another. Everything here that
//! touches the disk goes through two doors:
//! - [`read`]: every read of a user file (the workspace's files, a
//!   `settings.json`, a transcript, an `eval` file, a body file, the hook's
//!   session state) opens without blocking, judges the file by its open
//!   handle (a FIFO, a device or a directory is refused with what it is),
//!   refuses links that leave the root where the file must be inside it,
//!   and reads a bounded number of bytes (line readers bound each line);
//! - [`write`]: every write replaces a file only if it is still what was
//!   read, through a temporary file, never through a planted link, keeping
//!   owner and mode; [`lock`] makes the memory's writers take turns.

pub mod agents;
pub mod change;
pub mod continuity;
pub mod diff;
pub mod files;
pub mod load;
pub mod lock;
pub mod read;
pub mod recall;
pub mod recall_cache;
pub mod remember;
pub mod root;
pub mod search_cache;
pub mod semantic;
pub mod session;
pub mod sources;
pub mod transcript;
pub mod write;

pub use root::{find_root, root};
