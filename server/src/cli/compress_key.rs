//! Placeholder for the `compress_key` command; the resolver work replaces this file.

/// Runs the command; returns the process exit code.
pub fn run(_args: &[String]) -> i32 {
    eprintln!("memory-index-lsp: this command is not available in this build");
    2
}
