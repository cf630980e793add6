//! The `memory-index-lsp` binary: parse argv, then run a CLI command, the MCP server, the agent hook or the language server.

/// mimalloc, as ruff ships: a workspace is tens of thousands of small strings
/// and vectors, and with it a 10,000-entry full check (parse, bind, every
/// rule, free) takes about 4 ms less than with the system allocator on the
/// project's machine (`docs/performance.md`). The benches declare the same.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = memory_index_lsp::cli::run(&args) {
        std::process::exit(code);
    }
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("mcp") => std::process::exit(memory_index_lsp::mcp::run(rest)),
        Some("hook") => std::process::exit(memory_index_lsp::hook::run(rest)),
        _ => {}
    }
    // `serve` (or no command): the language server. `--log-level LEVEL` sets the log filter.
    let level = args.iter().position(|a| a == "--log-level").and_then(|i| args.get(i + 1));
    std::process::exit(memory_index_lsp::lsp::run(level.map(String::as_str)));
}
