//! The `memory-index-lsp` binary: parse argv (`cli::args`), then run a CLI command, the MCP server, the agent hook or the language server.

/// mimalloc, as ruff ships: a workspace is tens of thousands of small strings
/// and vectors, and with it a 10,000-entry full check (parse, bind, every
/// rule, free) takes about 4 ms less than with the system allocator on the
/// project's machine (`docs/performance.md`). The benches declare the same.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    use memory_index_lsp::cli::args::{self, Command};
    let cli = args::parse(std::env::args_os().collect());
    let code = match cli.command {
        None | Some(Command::Serve) => memory_index_lsp::lsp::run(cli.log_level.as_deref()),
        Some(Command::Mcp(a)) => memory_index_lsp::mcp::run(a.root),
        Some(Command::Hook(a)) => memory_index_lsp::hook::run(&a.words()),
        Some(cmd) => memory_index_lsp::cli::run(cmd),
    };
    std::process::exit(code);
}
