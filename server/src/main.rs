//! The `memory-index-lsp` binary: parse argv, then run a CLI command or the language server.

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
    // `serve` (or no command): the language server. `--log-level LEVEL` sets the log filter.
    let level = args.iter().position(|a| a == "--log-level").and_then(|i| args.get(i + 1));
    std::process::exit(memory_index_lsp::lsp::run(level.map(String::as_str)));
}
