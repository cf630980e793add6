//! The `memory-index-lsp` binary: parse argv, then run a CLI command or the language server.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = memory_index_lsp::cli::run(&args) {
        std::process::exit(code);
    }
    // `serve` (or no command): the language server. `--log-level LEVEL` sets the log filter.
    let level = args.iter().position(|a| a == "--log-level").and_then(|i| args.get(i + 1));
    std::process::exit(memory_index_lsp::lsp::run(level.map(String::as_str)));
}
